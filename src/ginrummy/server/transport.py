"""uvicorn's protocols, each with one change.

:class:`CuttingProtocol`, its sans-I/O WebSocket protocol: a connection is cut
(``transport.abort()``) a few seconds after its handler returned if it is still open.

A client that stopped reading would otherwise hold its socket, and the send buffer the kernel
keeps for it, for ever: a graceful close waits for that buffer to drain.

:class:`TimedH11Protocol`, its h11 HTTP protocol: a request's head must come within
:data:`HEAD_SECONDS`.

Classes of their own module, so that ``serve --workers N`` can hand them to each worker
process by name.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .websocket import ABORT_SECONDS


class CuttingProtocol(WebSocketsSansIOProtocol):
    """See the module's notes."""

    async def run_asgi(self) -> None:
        await super().run_asgi()
        self.loop.call_later(ABORT_SECONDS, self._abort_if_open)

    def _abort_if_open(self) -> None:
        if not self.disconnected:
            self.transport.abort()


HEAD_SECONDS = 10.0
"""How long a connection may take to send a request's head (its line and headers), from its
start or from the answer to its last request."""


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 HTTP protocol, with one change: a request's head must arrive within
    :data:`HEAD_SECONDS` of the connection's start, or of the answer to its last request, or
    the connection is closed. uvicorn times nothing out before a request: a connection that
    sent nothing, or a header every few seconds, was held for ever (enough of them, and the
    process has no file descriptor left to accept anyone). The body is timed by the app
    (:func:`ginrummy.server.limits.RequestLimits`); a WebSocket, once upgraded, by its own
    rules."""

    _head_timer: asyncio.TimerHandle | None = None
    _cycle_seen: object = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._note_request()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self._note_request() and not self.transport.is_closing():
            self._arm()  # waiting for the next request's head

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _note_request(self) -> bool:
        """Whether a new request's head has arrived since the last look (then the timer
        stops: the request is the app's now)."""
        if self.cycle is None or self.cycle is self._cycle_seen:
            return False
        self._cycle_seen = self.cycle
        self._disarm()
        return True

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()
