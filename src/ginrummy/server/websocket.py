"""The WebSocket of a game: ``/ws/games/{id}`` (``docs/protocol.md``).

A connection authenticates with its first message (the token never travels in a URL), then
sends actions, syncs and pings. Every reply goes to that connection only, through its own
send queue (:mod:`.hub`); every odd message - binary, not JSON, NaN, lone surrogates, NUL,
nested too deep, too large, too many - gets an error and the connection stays open.
"""

from __future__ import annotations

import contextlib
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import GinRummyError
from .hub import Connection, FanOut, Hub, encode
from .limits import (
    ASGIApp,
    BadInput,
    Limits,
    Receive,
    Scope,
    Send,
    client_key,
    excerpt,
    parse_json,
)
from .security import origin_allowed
from .service import GameService

log = logging.getLogger("ginrummy.server")

try:  # Starlette >= 0.47 names the error for using a socket that is already closed
    from starlette.websockets import WebSocketDisconnected as _SOCKET_GONE
except ImportError:  # pragma: no cover - older Starlette raises a plain RuntimeError
    _SOCKET_GONE = RuntimeError  # type: ignore[misc, assignment]

PATH = re.compile(r"/ws/games/([^/]+)")
"""Where a game's WebSocket is."""
MAX_ACTION = 40
"""Longest action text (the longest real one, ``knock 10h``, is far shorter)."""


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


@dataclass
class SocketHandler:
    """Serves the WebSockets of every game in this process."""

    service: GameService
    hub: Hub
    fanout: FanOut
    limits: Limits
    allowed_origins: list[str] = field(default_factory=list)

    async def __call__(self, websocket: WebSocket, game_id: str) -> None:
        if not origin_allowed(websocket.headers, self.allowed_origins):
            await websocket.close(code=1008)  # before accept: the handshake gets a 403
            return
        await websocket.accept()
        ok, seat = await self.authenticate(websocket, game_id)
        if not ok:
            return
        conn = Connection(websocket, seat, client_key(websocket.scope), self.limits)
        refused = self.hub.add(game_id, conn)
        if refused is not None:
            await websocket.send_text(encode(error(*refused)))
            await websocket.close(code=4429)
            return
        failure: dict[str, Any] | None = None
        try:
            async with anyio.create_task_group() as tasks:
                conn.scope = tasks.cancel_scope
                tasks.start_soon(conn.run_sender)
                try:
                    version, texts = await self.run(self._hello, game_id, seat)
                    shown = "null" if seat is None else str(seat)
                    conn.send(f'{{"type":"hello","seat":{shown},"view":{texts[seat]}}}')
                    if self.hub.started(game_id, conn, version):
                        await self.hub.deliver(game_id)
                    await self.receive_loop(game_id, conn)
                except (WebSocketDisconnect, _SOCKET_GONE):
                    pass  # the client left
                except GinRummyError as exc:  # the game could not be read (store down)
                    failure = error(exc.code, exc.message)
                tasks.cancel_scope.cancel()
        finally:
            self.hub.remove(game_id, conn)
        if failure is not None:
            await self.close_with(websocket, failure)
        elif conn.dropped is not None:
            with (
                anyio.move_on_after(1),
                contextlib.suppress(WebSocketDisconnect, _SOCKET_GONE, RuntimeError),
            ):
                await websocket.close(code=1013)  # "try again later": reconnect, sync

    async def run(self, func: Any, *args: Any) -> Any:
        """Service calls may think (the AI) or wait on the store: off the event loop."""
        return await anyio.to_thread.run_sync(func, *args)

    async def receive_loop(self, game_id: str, conn: Connection) -> None:
        while True:
            message = await conn.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            reply = await self.handle(game_id, conn, message)
            if reply is not None:
                conn.send(reply if isinstance(reply, str) else encode(reply))

    async def close_with(self, websocket: WebSocket, message: dict[str, Any]) -> None:
        with anyio.move_on_after(1):
            try:
                await websocket.send_text(encode(message))
                await websocket.close(code=4400)
            except (WebSocketDisconnect, _SOCKET_GONE, RuntimeError):
                pass

    async def authenticate(self, websocket: WebSocket, game_id: str) -> tuple[bool, int | None]:
        """``(True, seat)`` for the first message's token (seat None: a spectator), or
        ``(False, None)`` after refusing and closing the connection."""
        try:
            with anyio.fail_after(self.limits.auth_seconds):
                first = await websocket.receive()
        except TimeoutError:
            await self.close_with(websocket, error("ws/auth-timeout", "no auth message in time"))
            return False, None
        if first["type"] == "websocket.disconnect":
            return False, None
        try:
            message = self.parse(first)
        except BadInput as exc:
            await self.close_with(websocket, error(exc.code, exc.message))
            return False, None
        if message.get("type") != "auth":
            await self.close_with(
                websocket,
                error("ws/auth-first", 'the first message must be {"type": "auth", "token": ...}'),
            )
            return False, None
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            await self.close_with(websocket, error("ws/malformed", '"token" is a string or null'))
            return False, None
        try:
            seat: int | None = await self.run(self.service.seat_of, game_id, token)
        except GinRummyError as exc:
            await self.close_with(websocket, error(exc.code, exc.message))
            return False, None
        return True, seat

    def parse(self, message: Any) -> dict[str, Any]:
        """A client frame as a JSON object with a ``type``, or :class:`BadInput`."""
        text = message.get("text")
        if text is None:
            raise BadInput("messages are JSON text frames, not binary", "ws/malformed")
        if len(text) > self.limits.ws_max_message_bytes or (
            not text.isascii() and len(text.encode()) > self.limits.ws_max_message_bytes
        ):
            raise BadInput(
                f"messages are at most {self.limits.ws_max_message_bytes} bytes", "ws/too-large"
            )
        try:
            value = parse_json(text)
        except BadInput as exc:
            raise BadInput(exc.message, "ws/malformed") from None
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            raise BadInput('a message is an object with a "type"', "ws/malformed")
        return value

    async def handle(
        self, game_id: str, conn: Connection, frame: Any
    ) -> dict[str, Any] | str | None:
        """One client message; the reply (a message, or its JSON text) goes to that client
        only (None: nothing to say)."""
        if not conn.bucket.allow():
            return error("ws/rate-limited", "too many messages; slow down")
        try:
            message = self.parse(frame)
        except BadInput as exc:
            return error(exc.code, exc.message)
        kind = message["type"]
        try:
            if kind == "ping":
                return {"type": "pong"}
            if kind == "sync":
                return await self.sync(game_id, conn, message)
            if kind == "action":
                return await self.action(game_id, conn, message)
        except GinRummyError as exc:
            return error(exc.code, exc.message)
        except Exception:  # a bug: say so to this client only, keep the connection
            log.exception("a WebSocket message failed")
            return error("server/internal", "the server failed on this message; try again")
        return error("ws/unknown-type", f"unknown type {excerpt(kind, 20)}")

    async def sync(
        self, game_id: str, conn: Connection, message: dict[str, Any]
    ) -> dict[str, Any] | str:
        since = message.get("since", 0)
        if not isinstance(since, int) or isinstance(since, bool) or since < 0:
            return error("ws/malformed", '"since" is a version (a whole number, 0 or more)')
        events, (version, texts) = await self.run(self._sync, game_id, conn.seat, since)
        conn.version = max(conn.version, version)
        return f'{{"type":"sync","events":{encode(events)},"view":{texts[conn.seat]}}}'

    def _hello(self, game_id: str, seat: int | None) -> tuple[int, dict[int | None, str]]:
        # a new connection may come from another process that died: read the store
        self.service.refresh(game_id)
        return self.service.view_texts(game_id, {seat})

    def _sync(self, game_id: str, seat: int | None, since: int) -> tuple[Any, Any]:
        # a client syncs when it thinks it missed something: read the store, not only memory
        self.service.refresh(game_id)
        return self.service.events_since(game_id, since), self.service.view_texts(game_id, {seat})

    async def action(
        self, game_id: str, conn: Connection, message: dict[str, Any]
    ) -> dict[str, Any] | None:
        action = message.get("action")
        if not isinstance(action, str) or len(action) > MAX_ACTION:
            return error("ws/malformed", '"action" is an action in the notation, e.g. "discard 7h"')
        version = message.get("version")
        if version is not None and (
            not isinstance(version, int) or isinstance(version, bool) or version < 0
        ):
            return error("ws/malformed", '"version" is the version the action was made at')
        if conn.seat is None:
            return error("service/not-a-player", "spectators cannot act; a seat's token is needed")
        try:
            new_version = self.service.act_now(game_id, conn.seat, action, version)
            if new_version is None:  # the AI replies, the game is busy or not in memory
                new_version = await self.run(
                    self.service.act_for_seat, game_id, conn.seat, action, version
                )
        except GinRummyError as exc:
            if exc.code in ("service/stale", "service/conflict"):
                # the sender (and others here) may be behind a move this process never
                # heard of: each is sent the newest view it lacks
                await self.hub.deliver(game_id)
            raise
        await self.fanout.publish(game_id, new_version)
        return None


class SocketRoutes:
    """ASGI middleware that hands ``/ws/games/{id}`` to its :class:`SocketHandler` straight
    away. Each message of a game is a handful of sends; going through the web framework's
    router and exception layers for each cost more than the game itself did. It sits inside
    the Host check, and the handler does the Origin check."""

    def __init__(self, app: ASGIApp, handler: SocketHandler) -> None:
        self.app = app
        self.handler = handler

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            found = PATH.fullmatch(scope.get("path", ""))
            if found is not None:
                await self.handler(WebSocket(scope, receive, send), found.group(1))
                return
        await self.app(scope, receive, send)


ABORT_SECONDS = 5.0
"""How long a connection may linger once its handler is done with it (see
:func:`protocol_class`)."""


def protocol_class() -> Any:
    """The WebSocket protocol for uvicorn: :class:`~.transport.CuttingProtocol`, its own
    sans-I/O one except that a connection still open ``ABORT_SECONDS`` after its handler
    returned is cut; with a uvicorn that lacks that protocol, its default (``"auto"``)."""
    try:
        from .transport import CuttingProtocol
    except ImportError:  # pragma: no cover - an older uvicorn
        return "auto"
    return CuttingProtocol
