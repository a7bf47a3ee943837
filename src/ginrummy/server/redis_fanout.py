"""Several server processes, one game space: news of stored moves travels over Redis.

The database stays the truth: every move is stored with its version check before anyone is
told. Then the process that stored it tells its own connections at once and publishes
``{"game", "version", "from"}`` - the game's id and new version, nothing else (no card, no
view) - on a Redis channel. Every other process drops its copy of that game if the copy is
older, and sends each of its own connections of the game its seat's view, built from the
database through the same view door as ever. A connection may sit on any process; no sticky
sessions. News is delivered in rounds: each round takes every game whose news is waiting and
reads the moves all of them missed in one query, so a burst of news costs a few reads, not a
queue of one read per game.

Redis only carries news: if it is away, moves are still stored and seen by the connections of
the process that stored them, and the listener resubscribes by itself when Redis is back.
News published meanwhile is lost, so after every (re)subscription - the listener's own, or
the Redis client's after it reconnected by itself - a process trusts no copy of a game in
memory (each is read again from the database) and sends each of its connections its seat's
view if it changed: the others catch up with no client having to ask.

Presence is shared the same way: each process records in a Redis hash (one per game) which
seats are connected to it, renews that every ``HEARTBEAT_SECONDS``, and publishes a note when
it changes; every process tells its connections the union of its own seats and the others'
fresh ones (a process that died stops counting ``PRESENCE_SECONDS`` after its last renewal).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import time
from collections.abc import Coroutine
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from .hub import Hub
from .service import GameService

log = logging.getLogger("ginrummy.server")

RETRY_SECONDS = 1.0
"""Pause before the listener tries Redis again after losing it."""
HEARTBEAT_SECONDS = 15.0
"""How often a process renews the presence it shares (and rereads the others')."""
DELIVERY_SLOTS = 4
"""Rounds of delivery of news from the others at the same moment: each takes every game whose
news is waiting (up to :data:`DELIVERY_BATCH`) and brings them up to date from one read of the
store, so news that comes faster than a game's read takes is read in bigger batches instead
of waiting in a queue."""
DELIVERY_BATCH = 64
"""Most games in one round of delivery (one query, one worker thread)."""
MAX_CONNECTIONS = 32
"""Connections to Redis per process (one listens; the others publish and share presence)."""
WARN_SECONDS = 10.0
"""Each kind of warning about Redis is logged at most this often (see :class:`_Warnings`)."""
PRESENCE_SECONDS = 45.0
"""A process's shared presence counts this long after its last renewal (one that died
stops counting then)."""


class _Warnings:
    """Each kind of warning at most once every :data:`WARN_SECONDS`, the next one saying how
    many like it were left out: with Redis away, a line for every move stored and for every
    second the listener retried would fill the log (a night is 86,400 lines of the
    listener's alone)."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[float, int]] = {}

    def warn(self, what: str, exc: BaseException) -> None:
        now = time.monotonic()
        last, left_out = self._last.get(what, (-WARN_SECONDS, 0))
        if now - last < WARN_SECONDS:
            self._last[what] = (last, left_out + 1)
            return
        self._last[what] = (now, 0)
        more = f" ({left_out} more like it not logged)" if left_out else ""
        log.warning("%s: %s%s", what, type(exc).__name__, more)


def channel_for(service: GameService) -> str | None:
    """The channel of one game space: named after its database (:func:`space_name`), so
    several deployments may share one Redis without hearing each other's news; None while
    the database cannot be reached to ask its name."""
    name = space_name(service.store.engine)
    if name is None:
        return None
    return "ginrummy:versions:" + hashlib.sha256(name.encode()).hexdigest()[:16]


def space_name(engine: Engine) -> str | None:
    """The database as the database itself names it, the same however its URL is spelled
    (``127.0.0.1`` or ``localhost``, the port given or not, another user): PostgreSQL's
    cluster identifier, database and schema; a SQLite file's real path. Processes that
    named the channel after the URL itself, spelled differently on each, never heard each
    other's news. If PostgreSQL refuses to say (a role not allowed to ask), the URL (password
    left out) names it, as before. None while the database cannot be reached: a name taken
    from the URL then would differ from the one the other processes took from the database,
    so the caller asks again later (:meth:`RedisFanOut._listen`)."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        return "sqlite:" + os.path.realpath(url.database or "")
    try:
        with engine.connect() as conn:
            row = conn.execute(
                sa.text(
                    "SELECT (SELECT system_identifier FROM pg_control_system()), "
                    "current_database(), current_schema()"
                )
            ).one()
    except (sa.exc.OperationalError, sa.exc.InterfaceError):
        return None  # not reachable now (down, restarting, the network)
    except sa.exc.DBAPIError:
        return url.render_as_string(hide_password=True)
    return f"postgresql:{row[0]}:{row[1]}:{row[2]}"


class _SpaceUnknown(Exception):
    """The game space's channel is not known yet: the database was not reachable to ask
    its name (the listener keeps asking). News meanwhile is lost, as with Redis away."""


class RedisFanOut:
    """:class:`~ginrummy.server.hub.FanOut` over Redis pub/sub (``redis``'s asyncio client)."""

    def __init__(self, hub: Hub, service: GameService, url: str) -> None:
        import redis.asyncio

        self.hub = hub
        self.service = service
        self.url = url
        self._channel = channel_for(service)
        self.worker = secrets.token_hex(8)
        """This process's name on the channel (its own news is not delivered twice)."""
        # a blocking pool: at a burst (many connections coming and going at once) a command
        # waits a moment for a free connection instead of failing
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url,
            max_connections=MAX_CONNECTIONS,
            timeout=5,
            socket_timeout=5,
            socket_connect_timeout=5,
        )
        self.pool: Any = pool
        self.redis: Any = redis.asyncio.Redis(connection_pool=pool)
        self._listener: asyncio.Task[None] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self._waiting: dict[str, None] = {}
        """Games with news not delivered yet, oldest first."""
        self._delivering: set[str] = set()
        """Games in a round of delivery now (news of them waits for the next round)."""
        self._rounds = 0
        """Rounds of delivery running (at most :data:`DELIVERY_SLOTS`)."""
        self.subscribed = asyncio.Event()
        self._warnings = _Warnings()
        hub.on_local_presence = self._local_presence_changed

    @property
    def channel(self) -> str:
        """The Redis channel of this game space (:func:`channel_for`); :class:`_SpaceUnknown`
        until the database could be asked its name."""
        if self._channel is None:
            raise _SpaceUnknown("the database has not been reachable to name the channel")
        return self._channel

    async def _name_channel(self) -> None:
        """Ask the database its name (in a thread: it may wait for a connection) until it
        answers."""
        while self._channel is None:
            self._channel = await asyncio.to_thread(channel_for, self.service)
            if self._channel is None:
                self._warnings.warn(
                    "cannot name the Redis channel yet", _SpaceUnknown("database not reachable")
                )
                await asyncio.sleep(RETRY_SECONDS)

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen())
        self._heartbeat = asyncio.create_task(self._beat())

    # --- presence: which seats are connected, to whichever process ---------------------------

    def _presence_key(self, game_id: str) -> str:
        return f"{self.channel}:presence:{game_id}"

    def _local_presence_changed(self, game_id: str, seats: list[bool]) -> None:
        self._later(self._share_presence(game_id, seats))

    async def _share_presence(self, game_id: str, seats: list[bool]) -> None:
        """Record this process's seats of the game in Redis, tell the others, and read
        theirs."""
        try:
            key = self._presence_key(game_id)
            if any(seats):
                value = f"{int(seats[0])}{int(seats[1])}:{time.time():.0f}"
                await self.redis.hset(key, self.worker, value)
                await self.redis.expire(key, int(4 * PRESENCE_SECONDS))
            else:
                await self.redis.hdel(key, self.worker)
            news = {"game": game_id, "presence": True, "from": self.worker}
            await self.redis.publish(self.channel, json.dumps(news))
        except Exception as exc:
            self._warnings.warn("could not share presence on Redis", exc)
            return
        await self._read_presence(game_id)

    async def _read_presence(self, game_id: str) -> None:
        """The seats the other processes hold, fresh ones only, given to the hub."""
        try:
            held = await self.redis.hgetall(self._presence_key(game_id))
        except Exception as exc:
            self._warnings.warn("could not read presence from Redis", exc)
            return
        seats = [False, False]
        now = time.time()
        for worker, value in held.items():
            worker_name = worker.decode() if isinstance(worker, bytes) else str(worker)
            text = value.decode() if isinstance(value, bytes) else str(value)
            flags, _, stamp = text.partition(":")
            if worker_name == self.worker or len(flags) != 2 or not stamp.isdigit():
                continue
            if now - int(stamp) > PRESENCE_SECONDS:
                continue  # that process has not renewed it: gone
            seats = [seats[0] or flags[0] == "1", seats[1] or flags[1] == "1"]
        self.hub.set_remote(game_id, seats)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            for game_id in list(self.hub.games):
                seats = self.hub.local_presence(game_id)
                with contextlib.suppress(Exception):
                    value = f"{int(seats[0])}{int(seats[1])}:{time.time():.0f}"
                    await self.redis.hset(self._presence_key(game_id), self.worker, value)
                    await self.redis.expire(self._presence_key(game_id), int(4 * PRESENCE_SECONDS))
                await self._read_presence(game_id)

    async def publish(self, game_id: str, version: int) -> None:
        await self.hub.deliver(game_id)
        message = json.dumps({"game": game_id, "version": version, "from": self.worker})
        try:
            await self.redis.publish(self.channel, message)
        except Exception as exc:  # Redis away: the others catch up when their clients sync
            self._warnings.warn("could not publish on Redis", exc)

    async def _listen(self) -> None:
        lost_since: float | None = None
        await self._name_channel()
        while True:
            try:
                # subscribe messages are kept: one comes after every (re)subscription,
                # including the client's own after it reconnected by itself
                pubsub = self.redis.pubsub(ignore_subscribe_messages=False)
                await pubsub.subscribe(self.channel)
                self.subscribed.set()
                if lost_since is not None:
                    away = time.monotonic() - lost_since
                    log.warning("Redis listener subscribed again after %.0f s", away)
                    lost_since = None
                try:
                    async for message in pubsub.listen():
                        if message.get("type") == "subscribe":
                            self._later(self._catch_up())
                        else:
                            await self._heard(message)
                finally:
                    self.subscribed.clear()
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # lost Redis: try again in a moment
                if lost_since is None:
                    lost_since = time.monotonic()
                self._warnings.warn("Redis listener lost its connection", exc)
            await asyncio.sleep(RETRY_SECONDS)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on its own (kept until done, cancelled by :meth:`close`)."""
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _catch_up(self) -> None:
        """After (re)subscribing: whatever news was published while this process was not
        listening (Redis restarting, a connection lost) is lost, so no copy of a game in
        memory is trusted (each is read again from the database when next needed), every
        connection here is sent its seat's view if it changed, and this process's presence
        is shared again (a restarted Redis forgot it)."""
        self.service.forget_all()
        game_ids = list(self.hub.games)
        for start in range(0, len(game_ids), DELIVERY_BATCH):
            await self.hub.deliver_many(game_ids[start : start + DELIVERY_BATCH])
        for game_id in game_ids:
            await self._share_presence(game_id, self.hub.local_presence(game_id))

    async def _heard(self, message: Any) -> None:
        if message.get("type") != "message":
            return
        try:
            news = json.loads(message["data"])
            game_id, version, sender = news["game"], news.get("version"), news["from"]
        except (ValueError, KeyError, TypeError):
            return  # not ours: ignore
        if sender == self.worker or not isinstance(game_id, str):
            return
        if news.get("presence") is True:
            if game_id in self.hub.games:
                await self._read_presence(game_id)
            return
        if not isinstance(version, int):
            return
        self.service.note_version(game_id, version)
        self._deliver_soon(game_id)

    def _deliver_soon(self, game_id: str) -> None:
        """Send the game's connections here their views, soon and off the listener: it goes
        on to the next news at once (building views may read the store, and one game's news
        must not wait behind another's). The game waits for the next round of delivery
        (:data:`DELIVERY_SLOTS`); news of a game already waiting is folded into it."""
        self._waiting[game_id] = None
        if self._rounds < DELIVERY_SLOTS:
            self._rounds += 1
            self._later(self._deliver_rounds())

    def _next_round(self) -> list[str]:
        """Games waiting for delivery, not in a round now, oldest first (taken from the
        waiting ones); at most :data:`DELIVERY_BATCH`."""
        batch = []
        for game_id in self._waiting:
            if game_id not in self._delivering:
                batch.append(game_id)
                if len(batch) >= DELIVERY_BATCH:
                    break
        for game_id in batch:
            del self._waiting[game_id]
        return batch

    async def _deliver_rounds(self) -> None:
        """Rounds of delivery until no game is left waiting (one in a round elsewhere is
        taken by that round's next)."""
        try:
            while batch := self._next_round():
                self._delivering.update(batch)
                try:
                    await self.hub.deliver_many(batch)
                except Exception:  # a bug: the others' news still goes out
                    log.exception("delivering news failed")
                finally:
                    self._delivering.difference_update(batch)
        finally:
            self._rounds -= 1

    async def close(self) -> None:
        for task in (self._listener, self._heartbeat, *self._pending):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        with contextlib.suppress(Exception):
            await self.pool.disconnect()  # a pool given to the client is not closed with it
