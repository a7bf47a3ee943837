"""The WebSocket connections of this server process, and how news of a game reaches them.

* :class:`Connection`: one WebSocket of a game, with its own bounded send queue and a sender
  task. Whatever is sent to it is only queued, never awaited by the sender of the news, so a
  client that reads slowly (or not at all) holds up nobody but itself: once its queue is full,
  or one message has waited ``send_timeout`` seconds on it, it is dropped. A browser
  reconnects and syncs by itself.
* :class:`Hub`: the connections by game, within the caps per game and per client; presence
  (which seats are connected) sent to everyone only when it changes and to a newcomer alone
  otherwise, so n spectators cost O(n) messages, not O(n^2); :meth:`Hub.deliver` sends each
  connection of a game its own seat's view, each seat's view built and encoded once.
* :class:`FanOut`: how "game G is now at version V" travels from the code that stored it to
  every process holding connections of G. :class:`LocalFanOut` is the one-process case (the
  news goes straight to this process's hub); :class:`~.redis_fanout.RedisFanOut` carries it
  between several processes.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any, Protocol

import anyio
from starlette.websockets import WebSocket

from .limits import Limits, TokenBucket
from .service import GameService

log = logging.getLogger("ginrummy.server")


def encode(message: dict[str, Any]) -> str:
    """A message as the text of one WebSocket frame (ASCII-safe JSON)."""
    return json.dumps(message, separators=(",", ":"))


def view_message(view_text: str) -> str:
    """The ``view`` message around a view's JSON text."""
    return f'{{"type":"view","view":{view_text}}}'


class Connection:
    """One WebSocket of a game (see the module's notes)."""

    def __init__(self, websocket: WebSocket, seat: int | None, client: str, limits: Limits):
        self.websocket = websocket
        self.seat = seat
        self.client = client
        self.limits = limits
        self.bucket = TokenBucket(limits.ws_rate, limits.ws_burst)
        self.queue: asyncio.Queue[str] = asyncio.Queue(limits.send_queue)
        self.version = -1
        """Version of the newest view sent (older ones arriving late are not sent)."""
        self.last_view: str | None = None
        self.started = False
        """Whether its hello was queued (views before it are owed, not sent)."""
        self.missed = False
        self.dropped: str | None = None
        """Why it was dropped, once it was."""
        self.scope: anyio.CancelScope | None = None
        """Cancels the connection's tasks when it is dropped."""

    def send(self, text: str) -> None:
        """Queue ``text``; a connection that is too far behind is dropped instead."""
        if self.dropped is not None:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop("too far behind (send queue full)")

    def send_view(self, version: int, text: str) -> None:
        """Queue a view unless a newer one (or this very one) was sent already."""
        if version < self.version or text == self.last_view:
            return
        self.version = version
        self.last_view = text
        self.send(text)

    def drop(self, reason: str) -> None:
        if self.dropped is None:
            self.dropped = reason
            log.info("dropping a connection: %s", reason)
            if self.scope is not None:
                self.scope.cancel()

    async def run_sender(self) -> None:
        """Send what is queued, one message at a time, each within ``send_timeout``."""
        while True:
            text = await self.queue.get()
            try:
                # (asyncio's own timeout: anyio's costs several times more per message)
                async with asyncio.timeout(self.limits.send_timeout):
                    await self.websocket.send_text(text)
            except TimeoutError:
                self.drop(f"a message took over {self.limits.send_timeout} s to send")
                return
            except Exception:  # the socket is closing: its handler cleans up
                self.drop("the connection closed")
                return


class Hub:
    """This process's connections, by game."""

    def __init__(self, service: GameService, limits: Limits) -> None:
        self.service = service
        self.limits = limits
        self.games: dict[str, set[Connection]] = defaultdict(set)
        self.per_client: Counter[str] = Counter()
        self.remote: dict[str, list[bool]] = {}
        """Seats connected to other server processes, by game (told by the fan-out)."""
        self.on_local_presence: Callable[[str, list[bool]], None] | None = None
        """Called when the seats connected here change (the fan-out shares them)."""

    def add(self, game_id: str, conn: Connection) -> tuple[str, str] | None:
        """Register a connection; ``(code, message)`` if a cap refuses it."""
        if len(self.games.get(game_id, ())) >= self.limits.connections_per_game:
            return (
                "ws/too-many-connections",
                f"this game has {self.limits.connections_per_game} connections already",
            )
        if self.per_client[conn.client] >= self.limits.connections_per_client:
            return (
                "ws/too-many-connections",
                f"at most {self.limits.connections_per_client} connections from one address",
            )
        before, local = self.presence(game_id), self.local_presence(game_id)
        self.games[game_id].add(conn)
        self.per_client[conn.client] += 1
        self._local_changed(game_id, local)
        self._presence_changed(game_id, before, conn)
        return None

    def remove(self, game_id: str, conn: Connection) -> None:
        conns = self.games.get(game_id)
        if conns is None or conn not in conns:
            return
        before, local = self.presence(game_id), self.local_presence(game_id)
        conns.discard(conn)
        self.per_client[conn.client] -= 1
        if self.per_client[conn.client] <= 0:
            del self.per_client[conn.client]
        if not conns:
            del self.games[game_id]
            self.remote.pop(game_id, None)
            self._local_changed(game_id, local)
            return
        self._local_changed(game_id, local)
        self._presence_changed(game_id, before, None)

    def local_presence(self, game_id: str) -> list[bool]:
        """Which seats have a connection to this process."""
        seats = {c.seat for c in self.games.get(game_id, ())}
        return [0 in seats, 1 in seats]

    def presence(self, game_id: str) -> list[bool]:
        """Which seats have a connection: here, or (as the fan-out last told) elsewhere."""
        here = self.local_presence(game_id)
        there = self.remote.get(game_id, [False, False])
        return [here[0] or there[0], here[1] or there[1]]

    def _local_changed(self, game_id: str, before: list[bool]) -> None:
        now = self.local_presence(game_id)
        if now != before and self.on_local_presence is not None:
            self.on_local_presence(game_id, now)

    def set_remote(self, game_id: str, seats: list[bool]) -> None:
        """The seats connected to other processes now (from the fan-out); everyone here is
        told if that changes who is connected."""
        if game_id not in self.games:
            return
        before = self.presence(game_id)
        self.remote[game_id] = seats
        self._presence_changed(game_id, before, None)

    def _presence_changed(
        self, game_id: str, before: list[bool], newcomer: Connection | None
    ) -> None:
        now = self.presence(game_id)
        text = encode({"type": "presence", "connected": now})
        if now != before:
            for conn in self.games.get(game_id, ()):
                if conn.started:
                    conn.send(text)
        elif newcomer is not None and newcomer.started:
            newcomer.send(text)

    def started(self, game_id: str, conn: Connection, version: int) -> bool:
        """``conn``'s hello (with the view of ``version``) is queued: it gets presence now.
        True if a view was delivered meanwhile (the caller delivers again)."""
        conn.started = True
        conn.version = version
        conn.send(encode({"type": "presence", "connected": self.presence(game_id)}))
        missed, conn.missed = conn.missed, False
        return missed

    def connections(self, game_id: str) -> list[Connection]:
        return list(self.games.get(game_id, ()))

    async def deliver(self, game_id: str) -> None:
        """Send every connection of the game here its own seat's view (if it changed)."""
        await self.deliver_many([game_id])

    async def deliver_many(self, game_ids: list[str]) -> None:
        """:meth:`deliver` for several games: the views answered at once (in memory, up to
        date) are sent at once; the others are built in one worker thread, the copies that
        missed news brought up to date from one read of the store for all of them
        (:meth:`~.service.GameService.view_texts_many`)."""
        wanted: dict[str, set[int | None]] = {}
        waiting: dict[str, list[Connection]] = {}
        for game_id in dict.fromkeys(game_ids):
            conns = self.connections(game_id)
            if not conns:
                continue
            seats = {c.seat for c in conns}
            # the views are usually built already (or cheap to build): no thread needed then
            found = self.service.view_texts_now(game_id, seats)
            if found is None:
                wanted[game_id], waiting[game_id] = seats, conns
            else:
                _send_views(conns, *found)
        if not wanted:
            return
        try:
            built = await anyio.to_thread.run_sync(self.service.view_texts_many, wanted)
        except Exception as exc:  # the store is down a moment: clients sync when it is back
            log.warning("could not build the views of a game: %s", type(exc).__name__)
            return
        if len(built) < len(wanted):
            log.warning("could not build the views of %d game(s)", len(wanted) - len(built))
        for game_id, (version, views) in built.items():
            _send_views(waiting[game_id], version, views)


def _send_views(conns: list[Connection], version: int, views: dict[int | None, str]) -> None:
    """Queue each of ``conns`` its seat's view of ``version`` (one not started yet: owed)."""
    texts = {seat: view_message(view) for seat, view in views.items()}
    for conn in conns:
        if not conn.started:
            conn.missed = True
            continue
        conn.send_view(version, texts[conn.seat])


class FanOut(Protocol):
    """Carries "this game changed" to every process with connections of it."""

    async def start(self) -> None:
        """Begin (the server is starting)."""

    async def publish(self, game_id: str, version: int) -> None:
        """After a change to ``game_id`` (now at ``version``) was stored."""

    async def close(self) -> None:
        """Stop (the server is shutting down)."""


class LocalFanOut:
    """One process: the news goes straight to its own hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def start(self) -> None:
        return None

    async def publish(self, game_id: str, version: int) -> None:
        await self.hub.deliver(game_id)

    async def close(self) -> None:
        return None
