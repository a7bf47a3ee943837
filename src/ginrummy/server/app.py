"""The web app: an HTTP API, a WebSocket per game seat, over :class:`GameService`, and the
browser table's own files (``ginrummy/web/static``, see ``docs/web.md``).

The server is the only authority; a client sends actions in the engine's notation and
receives its own seat's view (a spectator: the public view). Every message to a client is
built from that client's view, so hidden cards and the deck order never leave the server
before the reveal. Bad input (malformed or oversized messages, unknown or illegal actions,
wrong tokens, floods) gets an error message to that client only and changes nothing.

Protocol: ``docs/protocol.md``; the HTTP part is described by OpenAPI at ``/openapi.json``.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path as Path_
from typing import Any

import anyio
from fastapi import FastAPI, Header, HTTPException, Path, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from ..errors import GinRummyError
from ..rules import Rules
from .service import GameService

try:  # Starlette >= 0.47 names the error for using a socket that is already closed
    from starlette.websockets import WebSocketDisconnected as _SOCKET_GONE
except ImportError:  # pragma: no cover - older Starlette raises a plain RuntimeError
    _SOCKET_GONE = RuntimeError  # type: ignore[misc, assignment]

MAX_MESSAGE_BYTES = 2048
"""Largest WebSocket message accepted from a client."""
RATE_PER_SECOND = 10.0
"""Sustained messages per second a connection may send (bursts up to ``RATE_BURST``)."""
RATE_BURST = 20.0
AUTH_SECONDS = 10.0
"""How long a new connection has to send its auth message."""
STATIC = Path_(__file__).resolve().parent.parent / "web" / "static"
"""The browser table: plain HTML, CSS and JavaScript, served as they are (no build step)."""


class NewGame(BaseModel):
    """Create a game: against the AI (``opponent="ai"``) or a person (``"human"``)."""

    opponent: str = Field("ai", pattern="^(ai|human)$")
    level: str = "normal"
    preset: str = "tournament"
    target: int | None = Field(None, ge=10, le=1000)
    """Game target instead of the preset's (50 for a short game)."""
    oklahoma: bool | None = None
    """Oklahoma (the upcard sets the knock limit) instead of the preset's choice."""
    seat: int = Field(0, ge=0, le=1)
    name: str | None = Field(None, max_length=40)


class Join(BaseModel):
    """Join a game between people with its invite token."""

    invite: str = Field(..., max_length=100)
    name: str | None = Field(None, max_length=40)


class NewPlayer(BaseModel):
    """Register a player: the answer's token stands for them in all their games."""

    name: str | None = Field(None, max_length=40)


class ActionIn(BaseModel):
    """An action in the engine's notation, e.g. ``discard 7h``."""

    action: str = Field(..., max_length=40)


_STATUS = {
    "service/no-game": 404,
    "service/not-a-player": 403,
    "service/bad-invite": 403,
    "service/bad-player": 403,
    "service/full": 409,
    "service/already-seated": 409,
    "service/conflict": 409,
}


def _http_error(exc: GinRummyError) -> HTTPException:
    """Our error as an HTTP error: its stable code and message, status by code (else 400)."""
    return HTTPException(_STATUS.get(exc.code, 400), {"code": exc.code, "message": exc.message})


@dataclass(eq=False)
class _Client:
    websocket: WebSocket
    seat: int | None
    rate: float = RATE_PER_SECOND
    burst: float = RATE_BURST
    tokens: float = RATE_BURST
    last: float = field(default_factory=time.monotonic)

    def allow(self) -> bool:
        """Token bucket: refill at ``rate`` a second up to ``burst``; one per message."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def create_app(
    service: GameService, rate_per_second: float = RATE_PER_SECOND, burst: float = RATE_BURST
) -> FastAPI:
    """The ASGI app serving ``service``; each WebSocket may send ``rate_per_second`` messages
    a second sustained, ``burst`` at once."""
    app = FastAPI(
        title="ginrummy",
        description="Gin Rummy game server: create and join games, act, watch.",
        version="1",
    )
    clients: dict[str, set[_Client]] = defaultdict(set)

    async def run(func: Any, *args: Any) -> Any:
        """Service calls may think (the AI): keep them off the event loop."""
        return await anyio.to_thread.run_sync(func, *args)

    async def broadcast(game_id: str) -> None:
        """Send every connection of a game its own view."""
        for client in list(clients.get(game_id, ())):
            try:
                view = await run(service.view_for_seat, game_id, client.seat)
                await client.websocket.send_json({"type": "view", "view": view})
            except Exception:  # a closing socket: its handler cleans up
                continue

    async def presence(game_id: str) -> None:
        seats = {c.seat for c in clients.get(game_id, ()) if c.seat is not None}
        message = {"type": "presence", "connected": [s in seats for s in (0, 1)]}
        for client in list(clients.get(game_id, ())):
            try:
                await client.websocket.send_json(message)
            except Exception:
                continue

    @app.get("/api/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/players")
    def new_player(body: NewPlayer) -> dict[str, Any]:
        """Register a player; keep the token secret (it opens all the player's games)."""
        player_id, token = service.create_player(body.name)
        return {"player_id": player_id, "token": token}

    @app.get("/api/players/me/games")
    def my_games(authorization: str | None = Header(None)) -> list[dict[str, Any]]:
        """The bearer player's games, open and finished."""
        try:
            return service.games_of(_bearer(authorization) or "")
        except GinRummyError as exc:
            raise _http_error(exc) from None

    @app.get("/api/players/me/stats")
    def my_stats(authorization: str | None = Header(None)) -> dict[str, Any]:
        """The bearer player's statistics over finished games."""
        try:
            return service.stats(_bearer(authorization) or "")
        except GinRummyError as exc:
            raise _http_error(exc) from None

    @app.post("/api/games")
    def new_game(body: NewGame, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Create a game; the answer holds the creator's seat token (keep it secret). With a
        player's bearer token the seat is also theirs, listed among their games."""
        try:
            rules = Rules.preset(body.preset)
            if body.target is not None:
                rules = dataclasses.replace(rules, target=body.target)
            if body.oklahoma is not None:
                rules = dataclasses.replace(rules, oklahoma=body.oklahoma)
            ticket = service.create_game(
                rules,
                ai_level=body.level if body.opponent == "ai" else None,
                seat=body.seat,
                name=body.name,
                player_token=_bearer(authorization),
            )
        except GinRummyError as exc:
            raise _http_error(exc) from None
        except ValueError as exc:
            raise HTTPException(400, {"code": "service/bad-request", "message": str(exc)}) from None
        return {
            "game_id": ticket.game_id,
            "seat": ticket.seat,
            "token": ticket.token,
            "invite": ticket.invite,
        }

    @app.post("/api/games/{game_id}/join")
    async def join(
        game_id: str, body: Join, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Take the free seat of a game between people (as the bearer player, if any); whoever
        is at the table already gets a view with the newcomer's name."""
        try:
            ticket = await run(
                service.join, game_id, body.invite, body.name, _bearer(authorization)
            )
        except GinRummyError as exc:
            raise _http_error(exc) from None
        await broadcast(game_id)
        return {"game_id": ticket.game_id, "seat": ticket.seat, "token": ticket.token}

    @app.get("/api/games/{game_id}")
    def get_view(game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """The game as the bearer token's seat sees it (no token: the public view)."""
        try:
            return service.view(game_id, _bearer(authorization))
        except GinRummyError as exc:
            raise _http_error(exc) from None

    @app.get("/api/games/{game_id}/events")
    def events(game_id: str, since: int = Query(0, ge=0)) -> list[dict[str, Any]]:
        """Moves after version ``since`` (public: actions never name hidden cards)."""
        try:
            return service.events_since(game_id, since)
        except GinRummyError as exc:
            raise _http_error(exc) from None

    @app.post("/api/games/{game_id}/actions")
    async def act(
        game_id: str, body: ActionIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Play an action for the bearer token's seat."""
        token = _bearer(authorization)
        try:
            version = await run(service.act, game_id, token, body.action)
            view = await run(service.view, game_id, token)
        except GinRummyError as exc:
            raise _http_error(exc) from None
        await broadcast(game_id)
        return {"version": version, "view": view}

    @app.get("/api/games/{game_id}/hint")
    def game_hint(game_id: str, authorization: str | None = Header(None)) -> dict[str, str]:
        """The AI's advice for the bearer's seat, with its reason (games against the AI)."""
        try:
            return service.hint(game_id, _bearer(authorization))
        except GinRummyError as exc:
            raise _http_error(exc) from None

    @app.get("/api/games/{game_id}/hands/{number}")
    def hand_record(game_id: str, number: int = Path(..., ge=1, le=10_000)) -> dict[str, Any]:
        """A finished hand's record (deck, seed, actions, result), to check its deal."""
        try:
            return service.hand_record(game_id, number)
        except GinRummyError as exc:
            raise _http_error(exc) from None

    @app.get("/api/games/{game_id}/record")
    def game_record(game_id: str) -> dict[str, Any]:
        """The full record of a finished game, every card shown; refused while in play."""
        try:
            return service.record(game_id)
        except GinRummyError as exc:
            raise _http_error(exc) from None

    @app.websocket("/ws/games/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        """One client of a game. Its first message is ``{"type": "auth", "token": ...}``
        (``null``: watch as a spectator): tokens never appear in URLs or logs."""
        await websocket.accept()
        ok, seat = await authenticate(websocket, game_id)
        if not ok:
            return
        client = _Client(websocket, seat, rate_per_second, burst, burst)
        clients[game_id].add(client)
        try:
            await websocket.send_json(
                {
                    "type": "hello",
                    "seat": client.seat,
                    "view": await run(service.view_for_seat, game_id, client.seat),
                }
            )
            await presence(game_id)
            while True:
                text = await websocket.receive_text()
                reply = await handle(game_id, client, text)
                if reply is not None:
                    await websocket.send_json(reply)
        except (WebSocketDisconnect, _SOCKET_GONE):
            pass  # the client left (or a send to it failed and closed the socket)
        finally:
            clients[game_id].discard(client)
            if not clients[game_id]:
                clients.pop(game_id, None)
            else:
                await presence(game_id)

    async def authenticate(websocket: WebSocket, game_id: str) -> tuple[bool, int | None]:
        """``(True, seat)`` for the first message's token (seat None: a spectator), or
        ``(False, None)`` after refusing and closing the connection."""
        error: tuple[str, str] | None = None
        try:
            with anyio.fail_after(AUTH_SECONDS):
                text = await websocket.receive_text()
            message = json.loads(text) if len(text) <= MAX_MESSAGE_BYTES else None
            if not isinstance(message, dict) or message.get("type") != "auth":
                error = (
                    "ws/auth-first",
                    'the first message must be {"type": "auth", "token": ...}',
                )
            else:
                token = message.get("token")
                if token is not None and not isinstance(token, str):
                    error = ("ws/malformed", '"token" is a string or null')
                else:
                    seat: int | None = await run(service.seat_of, game_id, token)
                    return True, seat
        except TimeoutError:
            error = ("ws/auth-timeout", "no auth message in time")
        except json.JSONDecodeError:
            error = ("ws/malformed", "messages are JSON objects")
        except WebSocketDisconnect:
            return False, None
        except GinRummyError as exc:
            error = (exc.code, exc.message)
        assert error is not None
        await websocket.send_json({"type": "error", "code": error[0], "message": error[1]})
        await websocket.close(code=4400)
        return False, None

    async def handle(game_id: str, client: _Client, text: str) -> dict[str, Any] | None:
        """One client message; the reply goes to that client only (None: nothing to say)."""
        if not client.allow():
            return {
                "type": "error",
                "code": "ws/rate-limited",
                "message": "too many messages; slow down",
            }
        if len(text.encode()) > MAX_MESSAGE_BYTES:
            return {
                "type": "error",
                "code": "ws/too-large",
                "message": f"messages are at most {MAX_MESSAGE_BYTES} bytes",
            }
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            return {"type": "error", "code": "ws/malformed", "message": "messages are JSON objects"}
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return {
                "type": "error",
                "code": "ws/malformed",
                "message": 'a message is an object with a "type"',
            }
        kind = message["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "sync":
            since = message.get("since", 0)
            if not isinstance(since, int) or since < 0:
                return {"type": "error", "code": "ws/malformed", "message": '"since" is a version'}
            events = await run(service.events_since, game_id, since)
            view = await run(service.view_for_seat, game_id, client.seat)
            return {"type": "sync", "events": events, "view": view}
        if kind == "action":
            action = message.get("action")
            if not isinstance(action, str) or len(action) > 40:
                return {
                    "type": "error",
                    "code": "ws/malformed",
                    "message": '"action" is an action in the notation, e.g. "discard 7h"',
                }
            if client.seat is None:
                return {
                    "type": "error",
                    "code": "service/not-a-player",
                    "message": "spectators cannot act; a seat's token is needed",
                }
            try:
                await run(service.act_for_seat, game_id, client.seat, action)
            except GinRummyError as exc:
                return {"type": "error", "code": exc.code, "message": exc.message}
            await broadcast(game_id)
            return None
        return {"type": "error", "code": "ws/unknown-type", "message": f"unknown type {kind!r}"}

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    # The browser table is one page; these paths open it at a game, an invite or a replay.
    for path in ("/", "/history", "/game/{game_id}", "/join/{game_id}", "/replay/{game_id}"):
        app.add_api_route(path, page, include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    app.state.clients = clients
    return app


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None
