"""Turn timers: the task that plays an absent seat's turn once its stored deadline passes.

Each server process runs one :class:`TurnTimers`. It asks the store for games whose deadline
falls within the next :data:`POLL_SECONDS`, sleeps until the first of them, and has
:meth:`~.service.GameService.time_out` play it (in a worker thread: the AI thinks). With
several processes on one database each one looks; the version check lets exactly one of
them store the turn, and the others find the deadline moved. A deadline is stored with the
game, so one that passed while no server ran fires as soon as one starts.

The turn is announced like any move (:class:`~.hub.FanOut`), so both seats see it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import anyio

from ..errors import GinRummyError
from .hub import FanOut
from .service import GameService

log = logging.getLogger("ginrummy.server")

POLL_SECONDS = 0.5
"""How often the store is asked for deadlines (a deadline set by another process is met
within this; one set here too, as the next look finds it)."""


class TurnTimers:
    """Fires the turn timers of every game in the store, from this process."""

    def __init__(self, service: GameService, fanout: FanOut, poll: float = POLL_SECONDS) -> None:
        self.service = service
        self.fanout = fanout
        self.poll = poll
        self.fired = 0
        """Turns this process played for absent seats."""
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="turn timers")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        said = 0.0  # when the last fault was logged: at most one line every 10 s
        while True:
            try:
                wait = await self.tick()
            except Exception as exc:  # the store is away, or a bug: the timers keep running
                if time.monotonic() - said > 10:
                    said = time.monotonic()
                    if isinstance(exc, GinRummyError):
                        log.warning("turn timers: %s", exc.message)
                    else:
                        log.error("turn timers failed: %s: %s", type(exc).__name__, exc)
                wait = self.poll
            await asyncio.sleep(wait)

    async def tick(self) -> float:
        """Fire every deadline passed; the seconds until the next look."""
        now = time.time()
        due = await anyio.to_thread.run_sync(self._due, now + self.poll)
        wait = self.poll
        for game_id, deadline in due:
            left = deadline - time.time()
            if left > 0:
                wait = min(wait, left)
                continue
            try:
                version = await anyio.to_thread.run_sync(self.service.time_out, game_id, deadline)
            except GinRummyError as exc:
                if exc.code == "service/unavailable":
                    raise
                continue  # this game cannot be played now; the others still can
            if version is not None:
                self.fired += 1
                await self.fanout.publish(game_id, version)
        return max(wait, 0.01)

    def _due(self, horizon: float) -> list[tuple[str, float]]:
        from sqlalchemy.exc import DBAPIError

        try:
            return self.service.store.due_games(horizon)
        except DBAPIError:
            raise GinRummyError(
                "the game store is unavailable; deadlines wait for it", "service/unavailable"
            ) from None
