"""How many concurrent games one server process carries, and what each action costs it.

Run: ``.venv/bin/python bench/bench_server.py [--games 20,50,200] [--seconds 15] [--think 1]
[--db postgresql://postgres@127.0.0.1:5432/postgres]``

For each concurrency level N in ``--games`` it starts a fresh ``ginrummy serve`` on 127.0.0.1
with a new store (a SQLite file, or a PostgreSQL database made through ``--db`` and dropped
after) and ``--max-rate 1000``; when ``serve --help`` lists them, its other ``*rate*`` /
``*burst*`` options are set high and its per-client connection cap above what the bench opens,
so the bots (all on 127.0.0.1) are limited by the server, not by its anti-flood rules. It warms
the server up with one game, then creates N games between two people over HTTP, connects both
seats of every game over WebSockets (``websockets`` client) and, only then, for ``--seconds``,
plays every seat with :func:`ginrummy.server.bot.greedy_action`, all at once. A table whose
game ends moves on to a spare game created before the window, so N games stay in play. Actions
are sent as ``{"type": "action", "action": ..., "version": view["version"]}``.

It prints, per level: games finished, accepted actions (those whose view came back), actions/s
(accepted within the window), the latency from sending an action to receiving the view it
produced (p50, p95, p99, max), the server process's own CPU per accepted action (utime + stime
of the server's PID from ``/proc/PID/stat``, in clock ticks of ``SC_CLK_TCK``, from the
window's start until every action sent in it has its view, at most 10 s after its end; the
bench's own CPU is not counted, and is shown apart as botCPU), the server's CPU seconds per
second of window (cores), and the server's RSS (``VmRSS``) added per open game, read before
the N games are created and after all are created and connected. Before the levels it plays
the same kind of games in process with the engine and the same bot, and gives the engine's
CPU per action (``time.process_time`` around each applied action, deals included; and with
both seats' views built, as the server does), and the last table shows server CPU / engine
CPU per action. Refused actions (error messages) are counted and shown by code.

Options: ``--games`` (levels, default 20,50,200), ``--seconds`` (window per level, 15),
``--db`` (a ``postgresql://`` URL, e.g. ``postgresql://postgres@127.0.0.1:5432/postgres``:
each level runs on a fresh database created and dropped through it; default a fresh SQLite
file per level), ``--spares`` (spare games per level, default estimated from the warm-up),
``--engine-seconds`` (CPU budget of the in-process games, 3) and ``--no-deflate`` (do not
offer permessage-deflate, which browsers and this bench offer by default).

To run it against another checkout's code, point ``PYTHONPATH`` at that checkout's ``src``:
the server is started with the same interpreter and environment, and the first line printed
says which ``ginrummy`` was imported.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

import ginrummy
from ginrummy.engine.game import GameState
from ginrummy.rules import Rules
from ginrummy.server.bot import greedy_action

PRESET = "classic"
"""The rules of every game, in process and on the server."""
HOST = "127.0.0.1"
DRAIN_SECONDS = 10.0
"""After the window, how long an action sent in it may wait for its view."""
RECV_SECONDS = 30.0
"""Longest wait for one message outside the window (connecting, warming up)."""
MAX_MESSAGES_PER_GAME = 200_000
MAX_GAMES_PER_TABLE = 1_000
MAX_ERRORS_PER_SEAT = 5
"""A seat whose actions are refused this often leaves its game (the errors are reported)."""
CREATE_CONCURRENCY = 8
CONNECT_CONCURRENCY = 32
LARGE_LIMIT = 100_000
"""The value given to the server's rate / burst limits that ``serve --help`` lists."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- the server process, seen from /proc -------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` (all its threads, not its children)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # the command name may hold spaces
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_kb(pid: int) -> int:
    """Resident set size of process ``pid``, in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def limit_options(help_text: str, connections: int) -> list[str]:
    """``serve`` options that would throttle the bench, lifted: any ``--...rate...`` or
    ``--...burst...`` option taking a number (but ``--max-rate``) set to a large value, and
    a per-client connection cap (``--...connections-per...``, ``--...per-client...``) set to
    ``connections``; either at most the largest its help allows."""
    out: list[str] = []
    for paragraph in re.split(r"\n(?=\s*-)", help_text):
        found = re.match(r"\s*(--[a-z0-9-]+)\s+(FLOAT|INTEGER)", paragraph)
        if found is None or found.group(1) == "--max-rate":
            continue
        name = found.group(1)
        if "rate" in name or "burst" in name:
            value = LARGE_LIMIT
        elif "connections-per" in name or "per-client" in name or "per-address" in name:
            value = connections
        else:
            continue
        bound = re.search(r"x<=\s*([0-9.]+)", paragraph)
        if bound is not None:
            value = min(value, int(float(bound.group(1))))
        out += [name, str(value)]
    return out


@dataclass
class Server:
    """One ``ginrummy serve`` child process on 127.0.0.1."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def ws_url(self, game_id: str) -> str:
        return f"ws://{HOST}:{self.port}/ws/games/{game_id}"


def start_server(db: str, extra: list[str], log: Path) -> Server:
    port = free_port()
    command = [sys.executable, "-m", "ginrummy.cli", "serve", "--host", HOST]
    command += ["--port", str(port), "--db", db, "--max-rate", "1000", *extra]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = Server(proc, port, log)
    deadline = time.monotonic() + 60
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}):\n{log.read_text()}")
        try:
            if httpx.get(f"{server.base}/api/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            break
        time.sleep(0.1)
    stop_server(server)
    raise RuntimeError(f"the server did not answer /api/health:\n{log.read_text()}")


def stop_server(server: Server) -> None:
    """SIGTERM (uvicorn shuts down cleanly), SIGKILL if it is still there after 15 s."""
    if server.proc.poll() is None:
        server.proc.terminate()
        try:
            server.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait(timeout=15)


# --- the store: a SQLite file, or a fresh PostgreSQL database -----------------------------


@contextlib.contextmanager
def fresh_store(db: str | None, tmp: Path, level: int) -> Iterator[str]:
    """A new, empty store for one level: what ``serve --db`` takes."""
    if db is None:
        yield str(tmp / f"bench-{level}.db")
        return
    import psycopg

    name = f"ginrummy_bench_{secrets.token_hex(4)}"
    parts = urlsplit(db)
    url = urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url
    finally:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the bots ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Ticket:
    """A game between two people, both seats taken: ``(seat, token)`` per seat."""

    game_id: str
    seats: tuple[tuple[int, str], tuple[int, str]]


@dataclass
class Seat:
    ws: ClientConnection
    seat: int
    view: dict[str, Any]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    in_window: int = 0
    """Actions whose view came back before the window ended."""
    unanswered: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    finished: int = 0
    tables_out_of_games: int = 0
    spares_used: int = 0


@dataclass
class Window:
    stop: float
    tables_left: int = 0
    drained: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when every table has stopped playing (no action still waiting for its view)."""
    release: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the server's CPU is read: the connections may close."""


async def create_game(http: httpx.AsyncClient) -> Ticket:
    """A game between two people: created, then joined with its invite."""
    first = await post(http, "/api/games", {"opponent": "human", "preset": PRESET})
    second = await post(http, f"/api/games/{first['game_id']}/join", {"invite": first["invite"]})
    return Ticket(
        str(first["game_id"]),
        ((int(first["seat"]), str(first["token"])), (int(second["seat"]), str(second["token"]))),
    )


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST with a few retries when the server says slow down (429) or is busy (503)."""
    for attempt in range(50):
        response = await http.post(path, json=body)
        if response.status_code not in (429, 503):
            response.raise_for_status()
            data: dict[str, Any] = response.json()
            return data
        await asyncio.sleep(min(2.0, 0.05 * (attempt + 1)))
    raise RuntimeError(f"POST {path}: still refused after 50 tries ({response.status_code})")


async def create_games(http: httpx.AsyncClient, count: int) -> list[Ticket]:
    gate = asyncio.Semaphore(CREATE_CONCURRENCY)

    async def one() -> Ticket:
        async with gate:
            return await create_game(http)

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def open_seat(server: Server, game_id: str, seat: int, token: str, deflate: bool) -> Seat:
    """Connect and authenticate one seat; returns once its first view (hello) is in."""
    ws = await connect(
        server.ws_url(game_id),
        max_size=2**22,
        compression="deflate" if deflate else None,
        open_timeout=RECV_SECONDS,
    )
    try:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        for _ in range(100):
            message = json.loads(await asyncio.wait_for(ws.recv(), RECV_SECONDS))
            if isinstance(message.get("view"), dict):
                return Seat(ws, seat, message["view"])
            if message.get("type") == "error":
                raise RuntimeError(f"auth refused: {message}")
        raise RuntimeError("no view after 100 messages")
    except BaseException:
        await ws.close()
        raise


async def open_table(server: Server, ticket: Ticket, deflate: bool) -> tuple[Seat, Seat]:
    (s0, t0), (s1, t1) = ticket.seats
    first = await open_seat(server, ticket.game_id, s0, t0, deflate)
    try:
        second = await open_seat(server, ticket.game_id, s1, t1, deflate)
    except BaseException:
        await first.ws.close()
        raise
    return first, second


async def play_seat(seat: Seat, window: Window, stats: Stats, think: float = 0.0) -> str:
    """Play one seat until its game is over ("over") or the window ends ("stopped"); an
    action sent in the window may wait ``DRAIN_SECONDS`` after it for its view. With
    ``think`` the seat first thinks a random 0 to 2 x ``think`` seconds, as a person would."""
    view = seat.view
    pending: tuple[float, int] | None = None  # (sent at, the version it was sent against)
    errors = 0
    for _ in range(MAX_MESSAGES_PER_GAME):
        if view.get("is_over"):
            return "over"
        now = time.monotonic()
        hand = view.get("hand")
        if pending is None:
            if now >= window.stop:
                return "stopped"
            if hand is not None and hand.get("to_act") == seat.seat:
                if think > 0:
                    await asyncio.sleep(random.uniform(0, 2 * think))
                    if time.monotonic() >= window.stop:
                        return "stopped"
                version = int(view.get("version", 0))
                message = {"type": "action", "action": greedy_action(hand), "version": version}
                await seat.ws.send(json.dumps(message))
                pending = (time.monotonic(), version)
        deadline = window.stop if pending is None else window.stop + DRAIN_SECONDS
        if now >= deadline:
            stats.unanswered += pending is not None
            return "stopped"
        try:
            raw = await asyncio.wait_for(seat.ws.recv(), deadline - now)
        except TimeoutError:
            continue
        except ConnectionClosed:
            stats.errors["connection closed"] += 1
            return "closed"
        message = json.loads(raw)
        new = message.get("view")
        if isinstance(new, dict):
            new_version = new.get("version")
            if pending is not None and (new_version is None or new_version > pending[1]):
                arrived = time.monotonic()
                stats.latencies.append(arrived - pending[0])
                stats.in_window += arrived <= window.stop
                pending = None
            if new_version is None or new_version >= view.get("version", 0):
                view = new
        elif message.get("type") == "error":
            stats.errors[str(message.get("code"))] += 1
            errors += 1
            pending = None  # refused: decide again from the latest view
            if errors >= MAX_ERRORS_PER_SEAT:
                return "abandoned"
    return "message limit"


async def close_table(table: tuple[Seat, Seat]) -> None:
    await asyncio.gather(*(s.ws.close() for s in table), return_exceptions=True)


async def play_table(
    server: Server,
    table: tuple[Seat, Seat],
    spares: deque[Ticket],
    window: Window,
    stats: Stats,
    deflate: bool,
    think: float = 0.0,
) -> None:
    """Play a table's game, then spare games, until the window ends."""
    try:
        try:
            for _ in range(MAX_GAMES_PER_TABLE):
                outcomes = await asyncio.gather(
                    *(play_seat(s, window, stats, think) for s in table)
                )
                if "over" in outcomes:
                    stats.finished += 1
                if "stopped" in outcomes or time.monotonic() >= window.stop:
                    break
                await close_table(table)
                if not spares:
                    stats.tables_out_of_games += 1
                    break
                stats.spares_used += 1
                table = await open_table(server, spares.popleft(), deflate)
        finally:
            window.tables_left -= 1
            if window.tables_left == 0:
                window.drained.set()
        # the sockets stay open until the server's CPU is read: closing costs it CPU too
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(window.release.wait(), 120)
    finally:
        await close_table(table)


# --- one level ---------------------------------------------------------------------------


@dataclass
class Level:
    games: int
    seconds: float
    stats: Stats
    server_cpu: float
    client_cpu: float
    rss_before_kb: int
    rss_after_kb: int
    spares: int

    @property
    def accepted(self) -> int:
        return len(self.stats.latencies)

    @property
    def cpu_ms_per_action(self) -> float:
        return 1000 * self.server_cpu / self.accepted if self.accepted else math.nan

    @property
    def kb_per_game(self) -> float:
        return (self.rss_after_kb - self.rss_before_kb) / self.games


def percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def warm_up(server: Server, http: httpx.AsyncClient, deflate: bool) -> float:
    """One game for ~2 s: the server's first-use costs (imports, caches) before the RSS is
    read, and an estimate of its CPU per action. Returns server CPU seconds per action."""
    table = await open_table(server, await create_game(http), deflate)
    stats = Stats()
    window = Window(time.monotonic() + 2.0)
    before = cpu_seconds(server.proc.pid)
    try:
        await asyncio.gather(*(play_seat(s, window, stats) for s in table))
    finally:
        await close_table(table)
    spent = cpu_seconds(server.proc.pid) - before
    return max(spent, 1 / CLOCK_TICKS) / max(1, len(stats.latencies))


async def run_level(
    server: Server,
    games: int,
    seconds: float,
    spares_wanted: int,
    game_actions: float,
    deflate: bool,
    think: float = 0.0,
) -> Level:
    pid = server.proc.pid
    async with httpx.AsyncClient(base_url=server.base, timeout=RECV_SECONDS) as http:
        warm_cpu = await warm_up(server, http, deflate)
        await asyncio.sleep(0.3)
        rss_before = rss_kb(pid)
        tickets = await create_games(http, games)
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def opened(ticket: Ticket) -> tuple[Seat, Seat]:
            async with gate:
                return await open_table(server, ticket, deflate)

        results = await asyncio.gather(*(opened(t) for t in tickets), return_exceptions=True)
        tables = [r for r in results if not isinstance(r, BaseException)]
        try:
            if len(tables) < games:
                failed = next(r for r in results if isinstance(r, BaseException))
                raise RuntimeError(f"{games - len(tables)} games failed to connect") from failed
            await asyncio.sleep(0.5)
            rss_after = rss_kb(pid)
            if spares_wanted < 0:  # enough for the most games the server could finish
                most = seconds / warm_cpu / game_actions
                spares_wanted = min(20 * games, 3000, math.ceil(1.5 * most) + 2)
            spares = deque(await create_games(http, spares_wanted))
        except BaseException:
            await asyncio.gather(*(close_table(t) for t in tables))
            raise
    stats = Stats()
    window = Window(0.0, tables_left=len(tables))
    cpu_before = cpu_seconds(pid)
    client_before = time.process_time()
    start = time.monotonic()
    window.stop = start + seconds
    print(f"  {games} games: window of {seconds:g} s on server pid {pid}", flush=True)
    tasks = [
        asyncio.ensure_future(play_table(server, t, spares, window, stats, deflate, think))
        for t in tables
    ]
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(window.drained.wait(), seconds + DRAIN_SECONDS + 30)
        server_cpu = cpu_seconds(pid) - cpu_before
        client_cpu = time.process_time() - client_before
    finally:
        window.release.set()
        done, late = await asyncio.wait(tasks, timeout=60)
        for task in late:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                stats.errors[f"bench: {task.exception()!r}"] += 1
    return Level(
        games, seconds, stats, server_cpu, client_cpu, rss_before, rss_after, spares_wanted
    )


# --- the engine in process ---------------------------------------------------------------


@dataclass
class EngineCost:
    games: int
    actions: int
    apply_seconds: float
    view_seconds: float

    @property
    def apply_us(self) -> float:
        return 1e6 * self.apply_seconds / self.actions

    @property
    def with_views_us(self) -> float:
        return 1e6 * (self.apply_seconds + self.view_seconds) / self.actions

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games


def engine_cost(cpu_seconds_budget: float, max_games: int) -> EngineCost:
    """Greedy against greedy in process, as on the server: CPU per applied action (each
    hand's deal counted in), and of building both seats' views (``view(seat).to_dict()``)."""
    rules = Rules.preset(PRESET)
    apply_s = view_s = 0.0
    actions = games = 0
    clock = time.process_time
    begun = clock()
    for game in range(max_games):
        if games and clock() - begun > cpu_seconds_budget:
            break
        state = GameState.new(rules, game % 2)
        for _ in range(100_000):
            if state.is_over:
                break
            if state.needs_deal:
                t = clock()
                state = state.deal_seeded(f"bench-{game}-{state.hand_number}")
                apply_s += clock() - t
                continue
            seat = state.to_act
            assert seat is not None
            t = clock()
            hand = state.view(seat).to_dict()["hand"]
            state.view(1 - seat).to_dict()
            view_s += clock() - t
            action = greedy_action(hand)
            t = clock()
            state = state.apply(action, seat)
            apply_s += clock() - t
            actions += 1
        games += 1
    return EngineCost(games, actions, apply_s, view_s)


# --- main --------------------------------------------------------------------------------


def report(levels: list[Level], engine: EngineCost) -> None:
    print()
    header = (
        f"{'games':>5} {'done':>5} {'actions':>8} {'act/s':>6} {'p50':>6} {'p95':>6} "
        f"{'p99':>6} {'max':>6} {'srvCPU':>7} {'cores':>5} {'/engine':>7} {'KB/game':>8} "
        f"{'botCPU':>7}"
    )
    print("latency in ms; srvCPU, botCPU: ms of CPU per accepted action (server, this bench);")
    print("cores: server CPU s per window s; /engine: srvCPU over the engine's apply CPU")
    print(header)
    for lv in levels:
        lat = sorted(lv.stats.latencies)
        ms = [1000 * percentile(lat, q) for q in (0.5, 0.95, 0.99)] + [
            1000 * lat[-1] if lat else math.nan
        ]
        bot = 1000 * lv.client_cpu / lv.accepted if lv.accepted else math.nan
        ratio = 1000 * lv.cpu_ms_per_action / engine.apply_us
        print(
            f"{lv.games:>5} {lv.stats.finished:>5} {lv.accepted:>8} "
            f"{lv.stats.in_window / lv.seconds:>6.0f} "
            + " ".join(f"{v:>6.1f}" for v in ms)
            + f" {lv.cpu_ms_per_action:>7.3f} {lv.server_cpu / lv.seconds:>5.2f}"
            f" {ratio:>6.0f}x {lv.kb_per_game:>8.1f} {bot:>7.3f}"
        )
    print(
        f"engine: {engine.apply_us:.1f} us CPU per action applied (deals included), "
        f"{engine.with_views_us:.1f} us with both seats' views built"
    )
    for lv in levels:
        extra = []
        if lv.stats.errors:
            extra.append(f"errors {dict(lv.stats.errors)}")
        if lv.stats.unanswered:
            extra.append(f"{lv.stats.unanswered} actions unanswered {DRAIN_SECONDS:g} s after")
        if lv.stats.tables_out_of_games:
            extra.append(f"{lv.stats.tables_out_of_games} tables ran out of spare games")
        extra.append(f"spare games {lv.stats.spares_used} used of {lv.spares}")
        extra.append(f"RSS {lv.rss_before_kb / 1024:.1f} -> {lv.rss_after_kb / 1024:.1f} MB")
        extra.append(
            f"server/engine+views {1e3 * lv.cpu_ms_per_action / engine.with_views_us:.0f}x"
        )
        print(f"{lv.games:>5} games: " + "; ".join(extra))


def parse_levels(text: str) -> list[int]:
    levels = [int(part) for part in text.split(",") if part.strip()]
    if not levels or min(levels) < 1 or max(levels) > 5000:
        raise argparse.ArgumentTypeError("levels are 1 to 5000 games, e.g. 20,50,200")
    return levels


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--games", type=parse_levels, default=[20, 50, 200], help="levels, e.g. 20,50,200"
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="window per level")
    parser.add_argument(
        "--db",
        default=None,
        help="a postgresql:// URL: each level gets a fresh database made (and dropped) "
        "through it; default: a fresh SQLite file per level",
    )
    parser.add_argument(
        "--spares", type=int, default=-1, help="spare games per level (default: estimated)"
    )
    parser.add_argument(
        "--engine-seconds", type=float, default=3.0, help="CPU budget of the in-process games"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each seat thinks before a move, on average (random 0 to twice that): "
        "0 plays as fast as the server answers (its ceiling: latency is then queueing); 1 is "
        "a quick person",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="do not offer permessage-deflate (browsers offer it; so does this bench)",
    )
    args = parser.parse_args()
    if not 0.5 <= args.seconds <= 600:
        parser.error("--seconds is 0.5 to 600")
    if args.db is not None and not args.db.startswith(("postgresql://", "postgres://")):
        parser.error("--db takes a postgresql:// URL")

    help_text = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    extra = limit_options(help_text, 4 * max(args.games) + 64)
    store = "SQLite" if args.db is None else f"PostgreSQL at {args.db.split('@')[-1]}"
    print(f"ginrummy: {Path(ginrummy.__file__).parent}")
    print(
        f"serve --max-rate 1000 {' '.join(extra)}; store: {store}, fresh per level; "
        f"preset {PRESET}; deflate {'off' if args.no_deflate else 'offered'}; "
        f"think {args.think:g} s a move"
    )
    engine = engine_cost(args.engine_seconds, 10_000)
    print(
        f"engine in process: {engine.games} games, {engine.actions} actions "
        f"({engine.actions_per_game:.0f} a game): {engine.apply_us:.1f} us per action",
        flush=True,
    )
    levels: list[Level] = []
    with tempfile.TemporaryDirectory(prefix="bench-server-") as tmp_name:
        tmp = Path(tmp_name)
        for games in args.games:
            with fresh_store(args.db, tmp, games) as db:
                server = start_server(db, extra, tmp / f"server-{games}.log")
                try:
                    level = asyncio.run(
                        run_level(
                            server,
                            games,
                            args.seconds,
                            args.spares,
                            engine.actions_per_game,
                            not args.no_deflate,
                            args.think,
                        )
                    )
                finally:
                    stop_server(server)
                    complaints = [
                        line
                        for line in server.log.read_text(errors="replace").splitlines()
                        if "Traceback" in line or "ERROR" in line or "Error" in line
                    ]
                    if complaints:
                        print(f"  server log ({server.log}): {complaints[-3:]}", flush=True)
            levels.append(level)
            print(
                f"  {games} games: {level.accepted} actions, {level.stats.finished} finished, "
                f"{level.cpu_ms_per_action:.3f} ms server CPU each",
                flush=True,
            )
    report(levels, engine)


if __name__ == "__main__":
    main()
