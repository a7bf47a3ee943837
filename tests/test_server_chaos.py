"""Chaos for several server processes: a worker killed, Redis restarted, PostgreSQL cut off.

1. A worker killed with SIGKILL mid-hand: the person connected to it reconnects to the other
   worker with their token, syncs (``{"type": "sync", "since": N}``) and play goes on to the
   end of the hand; every acknowledged action is in the log exactly once, nothing doubled.
2. Redis (a ``redis-server`` of this test's own, on a free port; never the machine's) killed
   and started again mid-game: the fan-out resumes by itself, and the person on the other
   worker receives the new views without asking.
3. PostgreSQL unreachable for a moment (a TCP proxy of the test's own between the server and
   the database, cut and restored): actions are refused with ``service/unavailable`` (an
   error over the WebSocket, 503 over HTTP), nothing is half-written, and the same actions
   are accepted once it is back.

Every message a person receives is checked for the opponent's hidden cards: against the
opponent's own view of the same version and, for hands that ended, against the hand's record
replayed through the engine.

Needs PostgreSQL (``pg_database`` fixtures), Redis (test 1, ``GINRUMMY_REDIS_URL``) and the
``redis-server`` binary (test 2; ``GINRUMMY_REDIS_SERVER``, else the one on the ``PATH``); each
test is skipped when what it needs is missing, unless ``GINRUMMY_REQUIRE_PG=1`` or
``GINRUMMY_REQUIRE_REDIS=1`` (CI) makes that an error. (The game against the AI under two
workers is in ``test_server_workers.py``.)
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from typing import IO, Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from ginrummy.engine.hand import HandState, deal
from ginrummy.rules import Rules
from ginrummy.server.bot import greedy_action
from test_server_workers import UNLIMITED, game_between_people
from web_support import Server, free_port

WAIT = 20.0
"""Seconds any one thing the test waits for may take (the machine may be busy)."""


# --- the two people of a game, as the test's clients --------------------------------------


class Table:
    """The two people of one game between people, each on a WebSocket to some worker.

    Every message either receives is kept: the views by seat and version (for the hidden
    card checks at the end) and the actions acknowledged (a view of a newer version seen).
    """

    def __init__(self, game_id: str, tokens: dict[int, str]) -> None:
        self.game_id = game_id
        self.tokens = tokens
        self.conns: dict[int, ClientConnection] = {}
        self._opened: dict[int, contextlib.AbstractContextManager[ClientConnection]] = {}
        self.views: dict[int, dict[int, dict[str, Any]]] = {0: {}, 1: {}}
        """Per seat, the view it was sent of each version."""
        self.latest: dict[int, dict[str, Any]] = {}
        self.received: list[tuple[int, dict[str, Any]]] = []
        """Every message that held a view, with the seat that received it."""
        self.others: list[tuple[int, str]] = []
        """Every other message's text."""
        self.acked: dict[int, tuple[int, str]] = {}
        """Version -> (seat, action) of every action whose result a person saw."""

    # connections

    def connect(self, seat: int, server: Server) -> dict[str, Any]:
        """Open ``seat``'s WebSocket to ``server``; its hello."""
        opened = server.ws(self.game_id, self.tokens[seat])
        self.conns[seat] = opened.__enter__()
        self._opened[seat] = opened
        return self.until(seat, lambda m: m["type"] == "hello")

    def drop(self, seat: int) -> None:
        """Forget ``seat``'s connection (its server is gone, or the test is over)."""
        self.conns.pop(seat, None)
        opened = self._opened.pop(seat, None)
        if opened is not None:
            with contextlib.suppress(Exception):
                opened.__exit__(None, None, None)

    def close(self) -> None:
        for seat in list(self._opened):
            self.drop(seat)

    # receiving

    def recv(self, seat: int, deadline: float) -> dict[str, Any]:
        """The next message to ``seat`` (recorded), waiting until ``deadline`` at most."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"seat {seat} received nothing in time")
        try:
            text = self.conns[seat].recv(timeout=left)
        except TimeoutError:
            raise AssertionError(f"seat {seat} received nothing in time") from None
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        view = message.get("view")
        if view is not None:
            self.views[seat][view["version"]] = view
            if seat not in self.latest or view["version"] >= self.latest[seat]["version"]:
                self.latest[seat] = view
            self.received.append((seat, message))
        else:
            self.others.append((seat, text))
        return message

    def until(
        self,
        seat: int,
        wanted: Callable[[dict[str, Any]], bool],
        timeout: float = WAIT,
    ) -> dict[str, Any]:
        """Read ``seat``'s messages until one is ``wanted``; an error that is not wanted
        fails the test."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(seat, deadline)
            if wanted(message):
                return message
            assert message["type"] != "error", (seat, message)

    def version(self, seat: int) -> int:
        return int(self.latest[seat]["version"])

    def wait_version(self, seat: int, version: int, timeout: float = WAIT) -> None:
        """Read ``seat``'s messages until it has seen a view of ``version`` or newer."""
        if self.version(seat) < version:
            self.until(seat, lambda m: self.version(seat) >= version, timeout)

    def sync(self, seat: int, since: int | None = None) -> dict[str, Any]:
        """``{"type": "sync", "since": N}`` from ``seat`` (N: the newest version it saw,
        unless ``since``); the answer."""
        since = self.version(seat) if since is None else since
        self.conns[seat].send(json.dumps({"type": "sync", "since": since}))
        return self.until(seat, lambda m: m["type"] == "sync")

    # acting

    def to_act(self) -> int:
        newest = max(self.latest.values(), key=lambda v: int(v["version"]))
        seat = newest["hand"]["to_act"]
        assert seat in (0, 1), newest["hand"]
        return int(seat)

    def send_action(self, seat: int, action: str | None = None) -> tuple[int, str]:
        """``seat`` acts (the greedy bot's choice unless ``action``) at the newest version it
        saw, without waiting; ``(version, action)``."""
        view = self.latest[seat]
        assert view["hand"]["to_act"] == seat, "not this seat's turn"
        chosen = action or greedy_action(view["hand"])
        version = int(view["version"])
        self.conns[seat].send(json.dumps({"type": "action", "action": chosen, "version": version}))
        return version, chosen

    def send_raw(self, seat: int, action: str, version: int) -> None:
        """``seat`` sends ``action`` at ``version`` whatever it saw."""
        self.conns[seat].send(json.dumps({"type": "action", "action": action, "version": version}))

    def step(self) -> int:
        """One move of whoever is to act; both people see it (pushed to each, whichever
        worker it sits on). Returns the new version."""
        assert self.version(0) == self.version(1), "the two people are out of step"
        seat = self.to_act()
        version, action = self.send_action(seat)
        for who in (0, 1):
            self.wait_version(who, version + 1)
        self.acked[version + 1] = (seat, action)
        assert self.version(0) == self.version(1)
        return self.version(0)

    def hand_number(self) -> int:
        return int(self.latest[0]["hand_number"])


@contextlib.contextmanager
def table_of(game_id: str, tickets: dict[int, dict[str, Any]]) -> Iterator[Table]:
    table = Table(game_id, {seat: t["token"] for seat, t in tickets.items()})
    try:
        yield table
    finally:
        table.close()


# --- what the log and the messages must show ------------------------------------------------


def events_of(server: Server, game_id: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.base}/api/games/{game_id}/events", timeout=30)
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()
    return events


def check_log(events: list[dict[str, Any]], table: Table) -> None:
    """Versions 1..V with no gap; every acknowledged action at its version, once; every
    other entry a deal (the people's moves are exactly the acknowledged ones: nothing lost,
    nothing applied twice)."""
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(events) + 1)), versions
    newest = max(table.version(0), table.version(1))
    assert len(events) == newest, (len(events), newest)
    moves = {e["version"]: (e["seat"], e["action"]) for e in events if e["action"] != "deal"}
    assert moves == table.acked, "the log's moves are not the acknowledged ones"
    for e in events:
        if e["action"] == "deal":
            assert e["seat"] is None


def shown_text(message: dict[str, Any]) -> str:
    """A message as it is searched for hidden cards: all of it but its view's past hands'
    results (which show every card of those hands, rightly)."""
    view = dict(message["view"])
    view.pop("results", None)
    return json.dumps({**message, "view": view})


def hidden_of(hand: HandState, seat: int) -> set[str]:
    """The cards ``seat`` holds that its opponent may not know."""
    return {str(c) for c in hand.hand(seat)} - {str(c) for c in hand.known_cards(seat)}


def check_secrets(table: Table, server: Server, events: list[dict[str, Any]]) -> int:
    """No message gave a person a card of the opponent's hidden hand. Each message of a
    hand in play is checked against the opponent's view of the same version and, when the
    hand is over, against its record replayed through the engine (which also shows the
    person's own cards were the right ones). Returns how many messages were checked."""
    final = max(table.latest.values(), key=lambda v: int(v["version"]))
    rules = Rules.from_dict(final["rules"])
    deals = [e["version"] for e in events if e["action"] == "deal"]
    replays: dict[int, tuple[int, list[HandState]]] = {}
    for number in range(1, len(final["results"]) + 1):
        r = httpx.get(f"{server.base}/api/games/{table.game_id}/hands/{number}", timeout=30)
        assert r.status_code == 200, r.text
        record = r.json()
        state = deal(rules, record["dealer"], record["deck"])
        states = [state]
        for action in record["actions"]:
            state = state.apply(action)
            states.append(state)
        assert state.is_over
        start = deals[number - 1]
        logged = [e["action"] for e in events[start : start + len(record["actions"])]]
        assert logged == record["actions"], f"hand {number}: the log and the record differ"
        replays[number] = (start, states)
    checked = 0
    for seat, message in table.received:
        view = message["view"]
        hand = view["hand"]
        if hand is None or hand["result"] is not None:
            continue  # a hand that is over shows both hands, rightly
        text = shown_text(message)
        opponent = 1 - seat
        hidden: set[str] = set()
        theirs = table.views[opponent].get(view["version"])
        if theirs is not None:
            other = theirs["hand"]
            assert other["hand_number"] == hand["hand_number"]
            hidden |= set(other["hand"]) - set(other["known_cards"][opponent])
        replay = replays.get(hand["hand_number"])
        if replay is not None:
            start, states = replay
            then = states[view["version"] - start]
            assert set(hand["hand"]) == {str(c) for c in then.hand(seat)}
            hidden |= hidden_of(then, opponent)
        assert theirs is not None or replay is not None, (
            f"nothing to check seat {seat}'s view of version {view['version']} against"
        )
        for card in hidden:
            assert f'"{card}"' not in text, (seat, view["version"], card)
        checked += 1
    for seat, text in table.others:  # presence, pongs, errors: no card at all
        for card in hidden_in_play(table, 1 - seat):
            assert f'"{card}"' not in text, (seat, text)
    return checked


def hidden_in_play(table: Table, seat: int) -> set[str]:
    """``seat``'s hidden cards in its newest view."""
    hand = table.latest[seat]["hand"]
    return set(hand["hand"]) - set(hand["known_cards"][seat])


@contextlib.contextmanager
def started(db: str, args: list[str]) -> Iterator[Server]:
    """A ``ginrummy serve`` on ``db`` (given time to start: the machine may be busy)."""
    server = Server(db, extra_args=args)
    try:
        server.start(timeout=90)
        yield server
    finally:
        server.close()


def no_traceback(*servers: Server) -> None:
    for srv in servers:
        output = srv.output()
        assert "Traceback" not in output, output[-4000:]


# --- 1. a worker killed with SIGKILL mid-hand ----------------------------------------------


def test_a_worker_killed_mid_hand(fresh_pg_database: str, redis_url: str) -> None:
    args = ["--redis", redis_url, *UNLIMITED]
    with started(fresh_pg_database, args) as a, started(fresh_pg_database, args) as b:
        made, friend = game_between_people(a, b)
        game_id = made["game_id"]
        on_a, on_b = made["seat"], friend["seat"]  # one person on each worker
        with table_of(game_id, {on_a: made, on_b: friend}) as table:
            table.connect(on_a, a)
            table.connect(on_b, b)
            for _ in range(8):
                table.step()
            while table.to_act() != on_a:
                table.step()
            hand = table.hand_number()
            # the person on A acts, and A dies at once: stored or not, nobody knows yet
            version, action = table.send_action(on_a)
            time.sleep(random.choice((0, random.uniform(0, 0.02))))
            a.kill()
            with contextlib.suppress(ConnectionClosed, AssertionError):
                while True:  # whatever A sent before it died
                    table.recv(on_a, time.monotonic() + 2)
            table.drop(on_a)
            seen = table.version(on_a)  # the newest version this person saw
            acked_by_a = seen > version
            # ... reconnects to B with the same token and syncs what it missed since then
            table.connect(on_a, b)
            synced = table.sync(on_a, since=seen)
            assert [e["version"] for e in synced["events"]] == list(
                range(seen + 1, synced["view"]["version"] + 1)
            )
            landed = table.version(on_a) > version
            # not sure it landed, the client sends it again at the same version: applied
            # now, or refused as stale - never applied twice
            table.send_raw(on_a, action, version)

            def stale(m: dict[str, Any]) -> bool:
                return m["type"] == "error" and m["code"] == "service/stale"

            if landed:
                answer = table.until(on_a, stale)
            else:  # applied now, or refused: it landed after all (B's copy had not heard)
                answer = table.until(on_a, lambda m: stale(m) or table.version(on_a) > version)
                if answer["type"] == "error":
                    table.sync(on_a)
            assert table.version(on_a) > version
            table.acked[version + 1] = (on_a, action)
            # the person on B hears of it (pushed); had A died before telling, they sync
            pushed = True
            try:
                table.wait_version(on_b, table.version(on_a), timeout=5)
            except AssertionError:
                pushed = False
                table.sync(on_b)
            assert table.version(on_a) == table.version(on_b)
            # play on, both on B, to the end of the hand (and at least 6 moves)
            after = 0
            while (table.hand_number() == hand or after < 6) and after < 300:
                table.step()
                after += 1
            assert table.hand_number() > hand, "the hand did not end"
            events = events_of(b, game_id)
            check_log(events, table)
            checked = check_secrets(table, b, events)
            assert checked >= 2 * len(table.acked)
            told = "pushed" if pushed else "synced"
            print(
                f"the action at version {version}: acknowledged by A {acked_by_a}, seen "
                f"landed on reconnecting {landed}, answer to the resend {answer['type']}; "
                f"{told} to B's person; {after} moves after; {checked} messages checked"
            )
        no_traceback(b)


# --- 2. Redis restarted mid-game ------------------------------------------------------------


class RedisProcess:
    """A ``redis-server`` of the test's own on a free port of 127.0.0.1 (no persistence),
    which the test kills and starts again on the same port."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"redis-server exited:\n{self.output()}"
            try:
                client = redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=1)
                try:
                    if client.ping():
                        return
                finally:
                    client.close()
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError(f"redis-server did not answer in time:\n{self.output()}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def output(self) -> str:
        self._log.flush()
        self._log.seek(0)
        text = self._log.read().decode(errors="replace")
        self._log.seek(0, os.SEEK_END)
        return text

    def subscribers(self) -> int:
        """How many connections listen on the game space's channel(s)."""
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=1)
        try:
            channels = client.pubsub_channels("ginrummy:versions:*")
            return sum(count for _, count in client.pubsub_numsub(*channels)) if channels else 0
        finally:
            client.close()

    def close(self) -> None:
        self.kill()
        self._log.close()


@pytest.fixture
def own_redis() -> Iterator[RedisProcess]:
    """A ``redis-server`` of this test alone (killed at teardown)."""
    binary = (
        os.environ.get("GINRUMMY_REDIS_SERVER")
        or shutil.which("redis-server")
        or "/usr/bin/redis-server"
    )
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        if os.environ.get("GINRUMMY_REQUIRE_REDIS"):
            pytest.fail(f"redis-server required (GINRUMMY_REQUIRE_REDIS=1), not at {binary}")
        pytest.skip(f"no redis-server at {binary} (apt-get install -y redis-server)")
    server = RedisProcess(binary)
    try:
        server.start()
        yield server
    finally:
        server.close()


LOST = "Redis listener lost its connection"
"""What a worker logs when its listener gives up its Redis connection."""


def wait_for(what: str, check: Callable[[], bool], timeout: float = WAIT) -> float:
    """Poll ``check`` until it holds; the seconds it took."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < timeout, f"{what}: not within {timeout} s"
        time.sleep(0.05)
    return time.monotonic() - start


def test_redis_restarted_mid_game(fresh_pg_database: str, own_redis: RedisProcess) -> None:
    args = ["--redis", own_redis.url, *UNLIMITED]
    with started(fresh_pg_database, args) as a, started(fresh_pg_database, args) as b:
        wait_for("both workers listening", lambda: own_redis.subscribers() == 2)
        made, friend = game_between_people(a, b)
        game_id = made["game_id"]
        on = {made["seat"]: a, friend["seat"]: b}
        with table_of(game_id, {made["seat"]: made, friend["seat"]: friend}) as table:
            for seat in (0, 1):
                table.connect(seat, on[seat])
            for _ in range(6):
                table.step()  # each move pushed to the other worker's person
            took = {}
            # a quick restart (the Redis client reconnects by itself), then a long one (the
            # listener gives up its connection and subscribes again)
            for outage in ("quick", "long"):
                lost = {srv.port: srv.output().count(LOST) for srv in (a, b)}
                own_redis.kill()
                # a move while Redis is away: stored, and seen by its own worker's person
                mover = table.to_act()
                version, action = table.send_action(mover)
                table.wait_version(mover, version + 1)
                table.acked[version + 1] = (mover, action)
                if outage == "long":
                    for srv in (a, b):

                        def gave_up(srv: Server = srv, before: int = lost[srv.port]) -> bool:
                            return srv.output().count(LOST) > before

                        wait_for("the listener giving up", gave_up)
                own_redis.start()
                back = time.monotonic()
                # the other person is sent it by itself (no sync) once the fan-out is back
                table.wait_version(1 - mover, version + 1)
                took[outage] = time.monotonic() - back
                wait_for("both workers listening again", lambda: own_redis.subscribers() == 2)
                for _ in range(4):  # and play goes on, every move pushed across again
                    table.step()
            events = events_of(b, game_id)
            check_log(events, table)
            checked = check_secrets(table, b, events)
            print(
                f"the move made while Redis was away reached the other worker's person "
                f"{took['quick']:.2f} s / {took['long']:.2f} s after Redis was back (quick / "
                f"long outage); {checked} messages checked"
            )
        no_traceback(a, b)


# --- 3. PostgreSQL unreachable for a moment -------------------------------------------------


class CuttableProxy:
    """A TCP forwarder on a free port of 127.0.0.1 to PostgreSQL, in threads. :meth:`cut`
    closes every forwarded connection and refuses new ones at once (accepted and closed:
    a client sees the database hang up, not a 10 s connect timeout); :meth:`restore`
    forwards again."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.is_cut = threading.Event()
        self.refused = 0
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._closed = False
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            if self.is_cut.is_set() or self._closed:
                self.refused += 1
                _hang_up(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _hang_up(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets |= {client, upstream}
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.is_cut.set()
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for s in sockets:
            _hang_up(s)

    def restore(self) -> None:
        self.is_cut.clear()

    def close(self) -> None:
        self._closed = True
        self.cut()
        self.listener.close()
        self._thread.join(timeout=10)


def _hang_up(s: socket.socket) -> None:
    with contextlib.suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        s.close()


def through(url: str, port: int) -> str:
    """``url`` (postgresql://user@host:port/db) with its host and port replaced by the
    proxy's."""
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{port}"))


def stored_moves(url: str, game_id: str) -> list[tuple[int, int | None, str]]:
    """The game's moves as PostgreSQL has them (straight, not through the proxy)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT version, seat, action FROM moves WHERE game_id = :g ORDER BY 1"),
                {"g": game_id},
            ).all()
    finally:
        engine.dispose()
    return [(int(v), s, str(a)) for v, s, a in rows]


def test_postgresql_unreachable_for_a_moment(fresh_pg_database: str) -> None:
    target = urlsplit(fresh_pg_database)
    proxy = CuttableProxy(target.hostname or "127.0.0.1", target.port or 5432)
    try:
        with started(through(fresh_pg_database, proxy.port), UNLIMITED) as srv:
            run_postgresql_cut(srv, proxy, fresh_pg_database)
        no_traceback(srv)
    finally:
        proxy.close()


def run_postgresql_cut(srv: Server, proxy: CuttableProxy, db: str) -> None:
    # a game between people (over WebSockets) and one against the AI (over HTTP)
    made, friend = game_between_people(srv, srv)
    game_id = made["game_id"]
    ai = httpx.post(f"{srv.base}/api/games", json={"opponent": "ai"}, timeout=30).json()
    bearer = {"Authorization": f"Bearer {ai['token']}"}
    ai_url = f"{srv.base}/api/games/{ai['game_id']}"

    def ai_view() -> dict[str, Any]:
        r = httpx.get(ai_url, headers=bearer, timeout=30)
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view

    def ai_act(action: str, version: int) -> httpx.Response:
        return httpx.post(
            f"{ai_url}/actions",
            json={"action": action, "version": version},
            headers=bearer,
            timeout=30,
        )

    with table_of(game_id, {made["seat"]: made, friend["seat"]: friend}) as table:
        for seat in (0, 1):
            table.connect(seat, srv)
        for _ in range(4):
            table.step()
        view = ai_view()
        for _ in range(12):  # to a discard of the person's: the AI replies to it at once
            if view["hand"]["phase"] == "discard" and view["hand"]["to_act"] == ai["seat"]:
                break
            r = ai_act(greedy_action(view["hand"]), view["version"])
            assert r.status_code == 200, r.text
            view = r.json()["view"]
        else:
            raise AssertionError("the person never came to discard")
        before = stored_moves(db, game_id), stored_moves(db, ai["game_id"])
        ai_version = view["version"]
        ai_action = greedy_action(view["hand"])

        proxy.cut()
        cut_at = time.monotonic()
        # over the WebSocket: an error to the mover, the connection stays
        mover = table.to_act()
        version, action = table.send_action(mover)
        refused = table.until(mover, lambda m: m["type"] == "error")
        assert refused["code"] == "service/unavailable", refused
        assert table.version(mover) == version
        # over HTTP: 503 with Retry-After
        r = ai_act(ai_action, ai_version)
        assert r.status_code == 503, r.text
        assert r.json()["detail"]["code"] == "service/unavailable"
        assert r.headers.get("retry-after") == "1"
        # reads: an answer or the same clear refusal, never a failure of the server
        r = httpx.get(f"{srv.base}/api/games/{game_id}/events", timeout=30)
        assert r.status_code in (200, 503), r.text
        if r.status_code == 503:
            assert r.json()["detail"]["code"] == "service/unavailable"
        table.conns[mover].send(json.dumps({"type": "ping"}))
        table.until(mover, lambda m: m["type"] == "pong")
        assert proxy.refused > 0, "the server never tried the database while it was cut"
        outage = time.monotonic() - cut_at
        proxy.restore()

        # nothing was half-written: the database holds exactly what it held before
        assert (stored_moves(db, game_id), stored_moves(db, ai["game_id"])) == before
        # and play resumes: the same actions are accepted now (a client tries again)
        deadline = time.monotonic() + WAIT
        while True:
            table.send_raw(mover, action, version)
            answer = table.until(
                mover,
                lambda m: m["type"] == "error" or table.version(mover) > version,
            )
            if answer["type"] != "error":
                break
            assert answer["code"] == "service/unavailable", answer
            assert time.monotonic() < deadline, "the database did not come back"
            time.sleep(0.5)
        table.wait_version(1 - mover, version + 1)
        table.acked[version + 1] = (mover, action)
        while True:
            r = ai_act(ai_action, ai_version)
            if r.status_code == 200:
                break
            assert r.status_code == 503, r.text
            assert time.monotonic() < deadline, "the database did not come back"
            time.sleep(0.5)
        for _ in range(4):
            table.step()

        events = events_of(srv, game_id)
        check_log(events, table)
        check_secrets(table, srv, events)
        # the person's move against the AI is stored once, with the AI's replies after it
        ai_events = httpx.get(f"{ai_url}/events?since={ai_version}", timeout=30).json()
        after = r.json()["version"]
        assert [e["version"] for e in ai_events] == list(range(ai_version + 1, after + 1))
        assert (ai_events[0]["seat"], ai_events[0]["action"]) == (ai["seat"], ai_action)
        assert len(ai_events) >= 2, "the AI did not reply in the same transaction"
        assert all(e["seat"] != ai["seat"] for e in ai_events[1:]), ai_events
        assert len(stored_moves(db, ai["game_id"])) == after
        print(f"PostgreSQL cut for {outage:.2f} s; {proxy.refused} connections refused")
