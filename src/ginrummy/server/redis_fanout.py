"""Several server processes, one game space: news of stored moves travels over Redis.

The database stays the truth: every move is stored with its version check before anyone is
told. Then the process that stored it tells its own connections at once and publishes
``{"game", "version", "from"}`` - the game's id and new version, nothing else (no card, no
view) - on a Redis channel. Every other process drops its copy of that game if the copy is
older, and sends each of its own connections of the game its seat's view, built from the
database through the same view door as ever. A connection may sit on any process; no sticky
sessions.

Redis only carries news: if it is away, moves are still stored and seen by the connections of
the process that stored them; the others catch up when they sync (the browser syncs on its
own after a reconnect) and the listener resubscribes by itself when Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from typing import Any

from .hub import Hub
from .service import GameService

log = logging.getLogger("ginrummy.server")

RETRY_SECONDS = 1.0
"""Pause before the listener tries Redis again after losing it."""


def channel_for(service: GameService) -> str:
    """The channel of one game space: named after its database (password left out), so
    several deployments may share one Redis without hearing each other's news."""
    url = service.store.engine.url.render_as_string(hide_password=True)
    return "ginrummy:versions:" + hashlib.sha256(url.encode()).hexdigest()[:16]


class RedisFanOut:
    """:class:`~ginrummy.server.hub.FanOut` over Redis pub/sub (``redis``'s asyncio client)."""

    def __init__(self, hub: Hub, service: GameService, url: str) -> None:
        import redis.asyncio

        self.hub = hub
        self.service = service
        self.url = url
        self.channel = channel_for(service)
        self.worker = secrets.token_hex(8)
        """This process's name on the channel (its own news is not delivered twice)."""
        self.redis: Any = redis.asyncio.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._listener: asyncio.Task[None] | None = None
        self.subscribed = asyncio.Event()

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen())

    async def publish(self, game_id: str, version: int) -> None:
        await self.hub.deliver(game_id)
        message = json.dumps({"game": game_id, "version": version, "from": self.worker})
        try:
            await self.redis.publish(self.channel, message)
        except Exception as exc:  # Redis away: the others catch up when their clients sync
            log.warning("could not publish on Redis: %s", type(exc).__name__)

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self.channel)
                self.subscribed.set()
                try:
                    async for message in pubsub.listen():
                        await self._heard(message)
                finally:
                    self.subscribed.clear()
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # lost Redis: try again in a moment
                log.warning("Redis listener lost its connection: %s", type(exc).__name__)
            await asyncio.sleep(RETRY_SECONDS)

    async def _heard(self, message: Any) -> None:
        if message.get("type") != "message":
            return
        try:
            news = json.loads(message["data"])
            game_id, version, sender = news["game"], news["version"], news["from"]
        except (ValueError, KeyError, TypeError):
            return  # not ours: ignore
        if sender == self.worker or not isinstance(game_id, str) or not isinstance(version, int):
            return
        self.service.note_version(game_id, version)
        await self.hub.deliver(game_id)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        with contextlib.suppress(Exception):
            await self.redis.aclose()
