"""uvicorn's sans-I/O WebSocket protocol, with one change: a connection is cut
(``transport.abort()``) a few seconds after its handler returned if it is still open.

A client that stopped reading would otherwise hold its socket, and the send buffer the kernel
keeps for it, for ever: a graceful close waits for that buffer to drain. A class of its own
module, so that ``serve --workers N`` can hand it to each worker process by name.
"""

from __future__ import annotations

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
