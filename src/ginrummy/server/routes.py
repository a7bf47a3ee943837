"""The HTTP API (``docs/protocol.md``; OpenAPI at ``/openapi.json``).

Each route is a thin call into :class:`~ginrummy.server.service.GameService`, run off the
event loop (the AI may think, the store may wait); its errors become JSON answers with a
stable code: ``{"detail": {"code", "message"}}``, status by code (:data:`STATUS`).
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Header, HTTPException, Path, Query, Response
from pydantic import BaseModel, Field

from ..errors import GinRummyError
from ..rules import Rules
from .hub import FanOut
from .service import GameService

GameId = Annotated[str, Path(max_length=64)]


class NewGame(BaseModel):
    """Create a game: against the AI (``opponent="ai"``) or a person (``"human"``)."""

    opponent: str = Field("ai", pattern="^(ai|human)$")
    level: str = Field("normal", max_length=40)
    preset: str = Field("tournament", max_length=40)
    target: int | None = Field(None, ge=10, le=1000)
    """Game target instead of the preset's (50 for a short game)."""
    oklahoma: bool | None = None
    """Oklahoma (the upcard sets the knock limit) instead of the preset's choice."""
    seat: int = Field(0, ge=0, le=1)
    name: str | None = Field(None, max_length=40)
    turn_seconds: int | None = Field(None, ge=3, le=600, strict=True)
    """A game between people: the turn timer, 3 to 600 seconds (null: none). A seat that has
    not acted when it runs out has its turn played by the ``normal`` AI."""


class Join(BaseModel):
    """Join a game between people with its invite token."""

    invite: str = Field(..., max_length=100)
    name: str | None = Field(None, max_length=40)


class NewPlayer(BaseModel):
    """Register a player: the answer's token stands for them in all their games."""

    name: str | None = Field(None, max_length=40)


class ActionIn(BaseModel):
    """An action in the engine's notation, e.g. ``discard 7h``; with ``version``, refused
    (409 ``service/stale``) unless the game is still at that version."""

    action: str = Field(..., max_length=40)
    version: int | None = Field(None, ge=0)


STATUS = {
    "service/no-game": 404,
    "service/not-a-player": 403,
    "service/bad-invite": 403,
    "service/bad-player": 403,
    "service/full": 409,
    "service/already-seated": 409,
    "service/conflict": 409,
    "service/stale": 409,
    "service/cannot-claim": 409,
    "service/unavailable": 503,
}
"""HTTP status by error code; any other code is 400."""


def http_error(exc: GinRummyError) -> HTTPException:
    """Our error as an HTTP error: its stable code and message, status by code (else 400)."""
    status = STATUS.get(exc.code, 400)
    headers = {"Retry-After": "1"} if status == 503 else None
    return HTTPException(status, {"code": exc.code, "message": exc.message}, headers)


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def api_routes(service: GameService, fanout: FanOut) -> APIRouter:
    """The ``/api`` routes over ``service``; changes are announced through ``fanout``."""
    router = APIRouter(prefix="/api")

    async def call(func: Any, *args: Any) -> Any:
        """A service call off the event loop, its refusals as HTTP errors."""
        try:
            return await anyio.to_thread.run_sync(func, *args)
        except GinRummyError as exc:
            raise http_error(exc) from None

    @router.get("/health")
    async def health() -> dict[str, str]:
        """The process serves (the database is not asked: ``/api/ready`` asks it)."""
        return {"status": "ok"}

    @router.get("/ready")
    async def ready() -> dict[str, str]:
        """Moves can be stored now: the database answers and takes writes (else 503
        ``service/unavailable``). For a load balancer's readiness check."""
        await call(service.check_ready)
        return {"status": "ready"}

    @router.post("/players")
    async def new_player(body: NewPlayer) -> dict[str, Any]:
        """Register a player; keep the token secret (it opens all the player's games)."""
        player_id, token = await call(service.create_player, body.name)
        return {"player_id": player_id, "token": token}

    @router.get("/players/me/games")
    async def my_games(authorization: str | None = Header(None)) -> list[dict[str, Any]]:
        """The bearer player's games, open and finished."""
        games: list[dict[str, Any]] = await call(service.games_of, bearer(authorization) or "")
        return games

    @router.get("/players/me/stats")
    async def my_stats(authorization: str | None = Header(None)) -> dict[str, Any]:
        """The bearer player's statistics over finished games."""
        stats: dict[str, Any] = await call(service.stats, bearer(authorization) or "")
        return stats

    @router.post("/games")
    async def new_game(body: NewGame, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Create a game; the answer holds the creator's seat token (keep it secret). With a
        player's bearer token the seat is also theirs, listed among their games. The game is
        stored with its first deal (and the AI's opening moves) in one transaction."""
        try:
            rules = Rules.preset(body.preset)
            if body.target is not None:
                rules = dataclasses.replace(rules, target=body.target)
            if body.oklahoma is not None:
                rules = dataclasses.replace(rules, oklahoma=body.oklahoma)
        except GinRummyError as exc:
            raise http_error(exc) from None
        except ValueError as exc:
            raise HTTPException(400, {"code": "service/bad-request", "message": str(exc)}) from None

        def create() -> Any:
            try:
                return service.create_game(
                    rules,
                    ai_level=body.level if body.opponent == "ai" else None,
                    seat=body.seat,
                    name=body.name,
                    player_token=bearer(authorization),
                    turn_seconds=body.turn_seconds,
                )
            except GinRummyError:
                raise
            except ValueError as exc:  # an unknown AI level
                raise GinRummyError(str(exc), "service/bad-request") from None

        ticket = await call(create)
        return {
            "game_id": ticket.game_id,
            "seat": ticket.seat,
            "token": ticket.token,
            "invite": ticket.invite,
        }

    @router.post("/games/{game_id}/join")
    async def join(
        game_id: GameId, body: Join, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Take the free seat of a game between people (as the bearer player, if any); whoever
        is at the table already gets a view with the newcomer's name."""
        ticket = await call(service.join, game_id, body.invite, body.name, bearer(authorization))
        await fanout.publish(game_id, -1)
        return {"game_id": ticket.game_id, "seat": ticket.seat, "token": ticket.token}

    @router.get("/games/{game_id}")
    async def get_view(game_id: GameId, authorization: str | None = Header(None)) -> Response:
        """The game as the bearer token's seat sees it (no token: the public view)."""
        text = await call(service.view_text, game_id, bearer(authorization))
        return Response(text, media_type="application/json")

    @router.get("/games/{game_id}/events")
    async def events(
        game_id: GameId, since: int = Query(0, ge=0, le=10_000_000)
    ) -> list[dict[str, Any]]:
        """Moves after version ``since`` (public: actions never name hidden cards)."""
        found: list[dict[str, Any]] = await call(service.events_since, game_id, since)
        return found

    @router.post("/games/{game_id}/actions")
    async def act(
        game_id: GameId, body: ActionIn, authorization: str | None = Header(None)
    ) -> Response:
        """Play an action for the bearer token's seat; the answer, ``{"version", "view"}``,
        comes once it, the AI's replies and any new deal are stored."""
        token = bearer(authorization)

        def act_and_view() -> tuple[int, str]:
            version = service.act(game_id, token, body.action, body.version)
            return version, service.view_text(game_id, token)

        version, view = await call(act_and_view)
        await fanout.publish(game_id, version)
        return Response(f'{{"version":{version},"view":{view}}}', media_type="application/json")

    @router.get("/games/{game_id}/hint")
    async def game_hint(game_id: GameId, authorization: str | None = Header(None)) -> Any:
        """The AI's advice for the bearer's seat, with its reason (games against the AI)."""
        return await call(service.hint, game_id, bearer(authorization))

    @router.get("/games/{game_id}/hands/{number}")
    async def hand_record(game_id: GameId, number: int = Path(..., ge=1, le=10_000)) -> Any:
        """A finished hand's record (deck, seed, actions, result), to check its deal."""
        return await call(service.hand_record, game_id, number)

    @router.get("/games/{game_id}/record")
    async def game_record(game_id: GameId) -> Any:
        """The full record of a finished game, every card shown; refused while in play."""
        return await call(service.record, game_id)

    return router
