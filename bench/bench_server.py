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

The functions are shared with ``bench/bench_workers.py`` (1 server process against 2 on
PostgreSQL + Redis) and ``bench/bench_soak.py`` (a bounded soak): a run may be given several
servers (a game's seats are then spread over them), the server's CPU and RSS are summed over
its process tree (``serve --workers N``'s workers included), the other seat's view of each
action is timed too, and the last lines give where the machine's CPU went (``/proc/stat``,
PostgreSQL's and Redis's processes).

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
from collections.abc import Callable, Iterator
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


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process descended from it (``serve --workers N``: its workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo += children.get(tree[-1], [])
    return tree


def machine_cpu() -> dict[str, float]:
    """CPU seconds so far: ``busy`` (all cores, from ``/proc/stat``: all but idle and iowait),
    ``postgres`` and ``redis`` (every process of that name, with the children it reaped, so
    a PostgreSQL backend that exited still counts)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(f) for f in fields]
    out = {"busy": (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLOCK_TICKS, "postgres": 0.0}
    out["redis"] = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        key = "postgres" if name == "postgres" else "redis" if name == "redis-server" else None
        if key is not None:
            rest = stat[stat.rindex(")") + 2 :].split()
            out[key] += sum(int(rest[i]) for i in (11, 12, 13, 14)) / CLOCK_TICKS
    return out


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds of ``pids`` (those still there)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


def tree_rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, RuntimeError):
            total += rss_kb(pid)
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def serve_options(connections: int) -> list[str]:
    """The bench's ``serve`` options (:func:`limit_options`), read off this ``serve``'s
    help."""
    help_text = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    return limit_options(help_text, connections)


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

    def pids(self) -> list[int]:
        """The ``serve`` process and its workers (``--workers N``), if any."""
        return process_tree(self.proc.pid)

    def complaints(self) -> list[str]:
        """The log's lines that look like errors."""
        return [
            line
            for line in self.log.read_text(errors="replace").splitlines()
            if "Traceback" in line or "ERROR" in line or "Error" in line
        ]


def all_pids(servers: list[Server]) -> list[int]:
    return [pid for server in servers for pid in server.pids()]


def start_server(db: str, extra: list[str], log: Path, workers: int = 1) -> Server:
    """``serve`` on a free port; ``workers`` > 1 adds ``--workers`` (``extra`` must then hold
    ``--redis``) and waits until that many worker processes are there."""
    port = free_port()
    if workers > 1:
        extra = [*extra, "--workers", str(workers)]
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
            if httpx.get(f"{server.base}/api/health", timeout=1).status_code == 200 and (
                workers == 1 or len(server.pids()) > workers
            ):
                if workers > 1:
                    time.sleep(1.0)  # the last worker to come up: its startup finished
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
    """A game with its seats taken by the bench: ``(seat, token)`` per seat (two between
    people, one against the AI)."""

    game_id: str
    seats: tuple[tuple[int, str], ...]


@dataclass
class Seat:
    ws: ClientConnection
    seat: int
    view: dict[str, Any]


@dataclass
class Tracker:
    """Shared by the seats of one table: the last action sent (when, at which version, by
    which seat) and when a view last came in."""

    sent_at: float = 0.0
    sent_version: int = -1
    sent_by: int = -1
    last_view: float = field(default_factory=time.monotonic)
    version: int = 0
    """The highest version any of the table's seats has seen."""


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    other_seat: list[float] = field(default_factory=list)
    """From an action sent to the other seat's view of it (across processes when the seats
    are on different servers)."""
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


async def create_game(
    http: httpx.AsyncClient,
    join_http: httpx.AsyncClient | None = None,
    target: int | None = None,
    ai_level: str | None = None,
) -> Ticket:
    """A game between two people, created, then joined with its invite (through
    ``join_http``, another server, if given); or with ``ai_level`` one against the AI."""
    body: dict[str, Any] = {"opponent": "human", "preset": PRESET}
    if ai_level is not None:
        body.update(opponent="ai", level=ai_level)
    if target is not None:
        body["target"] = target
    first = await post(http, "/api/games", body)
    if ai_level is not None:
        return Ticket(str(first["game_id"]), ((int(first["seat"]), str(first["token"])),))
    second = await post(
        join_http or http, f"/api/games/{first['game_id']}/join", {"invite": first["invite"]}
    )
    return Ticket(
        str(first["game_id"]),
        ((int(first["seat"]), str(first["token"])), (int(second["seat"]), str(second["token"]))),
    )


HTTP_REFUSED: Counter[str] = Counter()
"""Answers 429 / 503 that :func:`post` retried after, by status."""


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST with a few retries when the server says slow down (429) or is busy (503)."""
    for attempt in range(50):
        response = await http.post(path, json=body)
        if response.status_code in (429, 503):
            HTTP_REFUSED[f"HTTP {response.status_code}"] += 1
        else:
            response.raise_for_status()
            data: dict[str, Any] = response.json()
            return data
        await asyncio.sleep(min(2.0, 0.05 * (attempt + 1)))
    raise RuntimeError(f"POST {path}: still refused after 50 tries ({response.status_code})")


async def create_games(https: list[httpx.AsyncClient], count: int) -> list[Ticket]:
    """``count`` games between people, the i-th created through ``https[i % n]`` and joined
    through the next one (so on two servers, every game is joined on the other one)."""
    gate = asyncio.Semaphore(CREATE_CONCURRENCY)
    n = len(https)

    async def one(i: int) -> Ticket:
        async with gate:
            return await create_game(https[i % n], https[(i + 1) % n])

    return list(await asyncio.gather(*(one(i) for i in range(count))))


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


Table = tuple[Seat, ...]


async def open_table(
    servers: list[Server], ticket: Ticket, deflate: bool, offset: int = 0
) -> Table:
    """Connect the ticket's seats, the k-th to ``servers[(offset + k) % n]``: on two servers,
    a game's two seats are on different ones (no sticky sessions)."""
    seats: list[Seat] = []
    try:
        for k, (seat, token) in enumerate(ticket.seats):
            server = servers[(offset + k) % len(servers)]
            seats.append(await open_seat(server, ticket.game_id, seat, token, deflate))
    except BaseException:
        await close_table(tuple(seats))
        raise
    return tuple(seats)


async def play_seat(
    seat: Seat,
    window: Window,
    stats: Stats,
    think: float = 0.0,
    tracker: Tracker | None = None,
    stall: float = 0.0,
) -> str:
    """Play one seat until its game is over ("over") or the window ends ("stopped"); an
    action sent in the window may wait ``DRAIN_SECONDS`` after it for its view. With
    ``think`` the seat first thinks a random 0 to 2 x ``think`` seconds, as a person would.
    ``tracker``, shared by the table's seats, times the other seat's view of each action.
    With ``stall``, a seat that hears nothing for that long counts an error ("stalled") and
    asks for what it missed (``sync``), as a client reconnecting would."""
    tracker = tracker or Tracker()
    view = seat.view
    tracker.version = max(tracker.version, int(view.get("version", 0)))
    heard = time.monotonic()
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
                tracker.sent_at, tracker.sent_version, tracker.sent_by = (*pending, seat.seat)
        deadline = window.stop if pending is None else window.stop + DRAIN_SECONDS
        if now >= deadline:
            stats.unanswered += pending is not None
            return "stopped"
        wait = deadline - now if stall <= 0 else min(deadline - now, heard + stall - now)
        try:
            raw = await asyncio.wait_for(seat.ws.recv(), max(0.0, wait))
        except TimeoutError:
            if stall > 0 and time.monotonic() >= heard + stall:
                stats.errors[f"stalled: nothing heard for {stall:g} s"] += 1
                since = int(view.get("version", 0))
                await seat.ws.send(json.dumps({"type": "sync", "since": since}))
                heard = time.monotonic()
            continue
        except ConnectionClosed:
            stats.errors["connection closed"] += 1
            return "closed"
        heard = time.monotonic()
        message = json.loads(raw)
        new = message.get("view")
        if isinstance(new, dict):
            new_version = new.get("version")
            arrived = time.monotonic()
            tracker.last_view = arrived
            if isinstance(new_version, int):
                tracker.version = max(tracker.version, new_version)
                if tracker.sent_by not in (-1, seat.seat) and new_version > tracker.sent_version:
                    stats.other_seat.append(arrived - tracker.sent_at)
                    tracker.sent_by = -1  # timed once
            if pending is not None and (new_version is None or new_version > pending[1]):
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


async def close_table(table: tuple[Seat, ...]) -> None:
    await asyncio.gather(*(s.ws.close() for s in table), return_exceptions=True)


async def play_table(
    servers: list[Server],
    table: Table,
    spares: deque[Ticket],
    window: Window,
    stats: Stats,
    deflate: bool,
    think: float = 0.0,
    stall: float = 0.0,
) -> None:
    """Play a table's game, then spare games, until the window ends."""
    try:
        try:
            for _ in range(MAX_GAMES_PER_TABLE):
                tracker = Tracker()
                outcomes = await asyncio.gather(
                    *(play_seat(s, window, stats, think, tracker, stall) for s in table)
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
                table = await open_table(servers, spares.popleft(), deflate)
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
    machine: dict[str, float] = field(default_factory=dict)
    """CPU seconds over the window: ``busy`` (the whole machine), ``postgres``, ``redis``."""
    server_processes: int = 1

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


async def warm_up(
    servers: list[Server], https: list[httpx.AsyncClient], deflate: bool, games: int = 1
) -> float:
    """``games`` games (one per server by default) for ~2 s: the servers' first-use costs
    (imports, caches) before the RSS is read, and an estimate of their CPU per action.
    Returns server CPU seconds per action."""
    pids = all_pids(servers)
    tables = [
        await open_table(servers, t, deflate, i)
        for i, t in enumerate(await create_games(https, games))
    ]
    stats = Stats()
    window = Window(time.monotonic() + 2.0)
    before = tree_cpu(pids)
    try:
        await asyncio.gather(*(play_seat(s, window, stats) for t in tables for s in t))
    finally:
        await asyncio.gather(*(close_table(t) for t in tables))
    spent = tree_cpu(pids) - before
    return max(spent, 1 / CLOCK_TICKS) / max(1, len(stats.latencies))


async def run_level(
    servers: list[Server],
    games: int,
    seconds: float,
    spares_wanted: int,
    game_actions: float,
    deflate: bool,
    think: float = 0.0,
    stall: float = 0.0,
) -> Level:
    pids = all_pids(servers)
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=s.base, timeout=RECV_SECONDS)
            )
            for s in servers
        ]
        warm_cpu = await warm_up(servers, https, deflate, max(len(servers), len(pids)))
        await asyncio.sleep(0.3)
        rss_before = tree_rss_kb(pids)
        tickets = await create_games(https, games)
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def opened(ticket: Ticket) -> Table:
            async with gate:
                return await open_table(servers, ticket, deflate)

        results = await asyncio.gather(*(opened(t) for t in tickets), return_exceptions=True)
        tables = [r for r in results if not isinstance(r, BaseException)]
        try:
            if len(tables) < games:
                failed = next(r for r in results if isinstance(r, BaseException))
                raise RuntimeError(f"{games - len(tables)} games failed to connect") from failed
            await asyncio.sleep(0.5)
            rss_after = tree_rss_kb(pids)
            if spares_wanted < 0:  # enough for the most games the server could finish
                most = seconds / warm_cpu / game_actions
                spares_wanted = min(20 * games, 3000, math.ceil(1.5 * most) + 2)
            spares = deque(await create_games(https, spares_wanted))
        except BaseException:
            await asyncio.gather(*(close_table(t) for t in tables))
            raise
    stats = Stats()
    window = Window(0.0, tables_left=len(tables))
    cpu_before = tree_cpu(pids)
    machine_before = machine_cpu()
    client_before = time.process_time()
    start = time.monotonic()
    window.stop = start + seconds
    print(f"  {games} games: window of {seconds:g} s on server pids {pids}", flush=True)
    tasks = [
        asyncio.ensure_future(play_table(servers, t, spares, window, stats, deflate, think, stall))
        for t in tables
    ]
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(window.drained.wait(), seconds + DRAIN_SECONDS + 30)
        server_cpu = tree_cpu(pids) - cpu_before
        client_cpu = time.process_time() - client_before
        machine_after = machine_cpu()
        machine = {k: machine_after[k] - machine_before[k] for k in machine_after}
        machine["elapsed"] = time.monotonic() - start
    finally:
        window.release.set()
        done, late = await asyncio.wait(tasks, timeout=60)
        for task in late:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                stats.errors[f"bench: {task.exception()!r}"] += 1
    return Level(
        games,
        seconds,
        stats,
        server_cpu,
        client_cpu,
        rss_before,
        rss_after,
        spares_wanted,
        machine,
        len(pids),
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
        extra.append(machine_line(lv))
        print(f"{lv.games:>5} games: " + "; ".join(extra))


def machine_line(lv: Level) -> str:
    """The other seat's view of each action, and where the machine's CPU went."""
    other = sorted(lv.stats.other_seat)
    m, elapsed = lv.machine, lv.machine.get("elapsed", lv.seconds)
    pg, redis = m.get("postgres", math.nan) / elapsed, m.get("redis", math.nan) / elapsed
    return (
        f"other seat's view p50 {1000 * percentile(other, 0.5):.1f} ms, "
        f"p99 {1000 * percentile(other, 0.99):.1f} ms; machine busy "
        f"{m.get('busy', math.nan) / elapsed:.2f} of {os.cpu_count()} cores (server "
        f"{lv.server_cpu / elapsed:.2f}, bench {lv.client_cpu / elapsed:.2f}, postgres "
        f"{pg:.2f}, redis {redis:.2f})"
    )


def counts(most: int, what: str, example: str) -> Callable[[str], list[int]]:
    """An argparse type: a comma-separated list of whole numbers from 1 to ``most``."""

    def parse(text: str) -> list[int]:
        found = [int(part) for part in text.split(",") if part.strip()]
        if not found or min(found) < 1 or max(found) > most:
            raise argparse.ArgumentTypeError(f"{what} are 1 to {most}, e.g. {example}")
        return found

    return parse


parse_levels = counts(5000, "levels (games)", "20,50,200")


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

    extra = serve_options(4 * max(args.games) + 64)
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
                            [server],
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
                    complaints = server.complaints()
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
