"""A bounded soak: hundreds of games at a person's pace for minutes, 1 server process against 2.

Run: ``.venv/bin/python bench/bench_soak.py [--workers 1,2] [--games 500] [--ai-games 10]
[--seconds 300] [--every 30] [--think 1] [--target 50] [--layout ports|workers]
[--db postgresql://postgres@127.0.0.1:5432/postgres] [--redis redis://127.0.0.1:6379/0]``

For each worker count: a fresh PostgreSQL database (made through ``--db``, dropped after) and
fresh servers with ``--redis`` (as in ``bench/bench_workers.py``: ``--layout ports``, N
``serve`` processes with a game's seats on different ones; or ``--layout workers``), then
``--games`` games played at once for ``--seconds``: ``--ai-games`` of them a bot against the
AI (level ``--ai-level``, normal), the others two bots, every seat playing
:func:`ginrummy.server.bot.greedy_action` over its own WebSocket after thinking a random 0 to
2 x ``--think`` seconds. Games go to ``--target`` points so that they end within the soak; a
game that ends is replaced by a new one (created over HTTP then), so the count stays.

Every ``--every`` seconds it prints: games finished, actions/s, latency from an action to its
view (p50, p99) in that interval, errors so far (every error message, HTTP 429 / 503, lost
connection, seat that heard nothing for 10 s, task that failed: there must be none), and the
servers' RSS (summed over their processes) and Redis's memory. At the end: the totals, the
RSS of the first minute against the last, and the checks that every game that should finish
did: each game a bot saw end is over on the server (its view, by the seat's token), each game
still open at the end had a move in its last 10 s and the server is at the version the bots
last saw, and in the database no game is left unfinished but those.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

import bench_server as bs
import bench_workers as bw
import ginrummy

STALL_SECONDS = 10.0
RECENT_SECONDS = 10.0
"""An open game's last move must be this recent when the soak stops."""
RSS_EVERY = 5.0
MAX_TABLE_GAMES = 1000


@dataclass
class Open:
    ticket: bs.Ticket
    tracker: bs.Tracker
    https: list[httpx.AsyncClient]


@dataclass
class Soak:
    stats: bs.Stats = field(default_factory=bs.Stats)
    created: int = 0
    finished: list[bs.Ticket] = field(default_factory=list)
    still_open: list[Open] = field(default_factory=list)
    odd: Counter[str] = field(default_factory=Counter)
    """Anything that is not a game ending or the soak stopping: errors."""
    rss: list[tuple[float, int]] = field(default_factory=list)
    """(seconds into the soak, servers' RSS in KB)."""
    redis_kb: list[float] = field(default_factory=list)
    late_ends: int = 0
    """Games that ended as the soak stopped, seen over by one seat (the other had left)."""

    def errors(self) -> int:
        stats = self.stats
        return (
            sum(stats.errors.values())
            + stats.unanswered
            + sum(bs.HTTP_REFUSED.values())
            + sum(self.odd.values())
        )


async def table(
    i: int,
    servers: list[bs.Server],
    https: list[httpx.AsyncClient],
    window: bs.Window,
    soak: Soak,
    args: argparse.Namespace,
    gate: asyncio.Semaphore,
    ready: asyncio.Event,
) -> None:
    """One table: a game after another until the window ends. Table ``i`` creates through
    server ``i``, joins (between bots) through the next, connects seat k to ``i + k``."""
    n = len(https)
    ai = i < args.ai_games
    for game in range(MAX_TABLE_GAMES):
        if game > 0 and time.monotonic() >= window.stop:
            return
        async with gate:
            ticket = await bs.create_game(
                https[i % n],
                https[(i + 1) % n],
                target=args.target,
                ai_level=args.ai_level if ai else None,
            )
            seats = await bs.open_table(servers, ticket, True, i)
        soak.created += 1
        tracker = bs.Tracker()
        try:
            if game == 0:
                await ready.wait()
            outcomes = await asyncio.gather(
                *(
                    bs.play_seat(s, window, soak.stats, args.think, tracker, STALL_SECONDS)
                    for s in seats
                )
            )
        finally:
            await bs.close_table(seats)
        mixed = any(o != outcomes[0] for o in outcomes)
        if set(outcomes) == {"over", "stopped"} and time.monotonic() >= window.stop:
            soak.late_ends += 1  # the game ended as the soak stopped: one seat had left
        elif mixed or outcomes[0] not in ("over", "stopped"):
            soak.odd[f"seats ended {sorted(outcomes)}"] += 1  # e.g. one never saw the end
        if "over" in outcomes:
            soak.finished.append(ticket)
        else:
            soak.still_open.append(Open(ticket, tracker, https))
            return


def redis_memory_kb(url: str) -> float:
    import redis

    client = redis.Redis.from_url(url)
    try:
        info: dict[str, Any] = client.info("memory")
        return float(info["used_memory"]) / 1024
    finally:
        client.close()


async def watch(
    pids: list[int], window: bs.Window, soak: Soak, args: argparse.Namespace, start: float
) -> None:
    """Sample RSS every few seconds; print a line every ``--every`` s until the window ends."""
    seen = seen_other = 0
    last = start
    next_line = start + args.every
    print(
        f"{'t s':>5} {'games':>5} {'done':>5} {'act/s':>6} {'p50':>6} {'p99':>6} "
        f"{'other99':>7} {'errors':>6} {'RSS MB':>7} {'Redis MB':>8}",
        flush=True,
    )
    while True:
        now = time.monotonic()
        soak.rss.append((now - start, bs.tree_rss_kb(pids)))
        with contextlib.suppress(Exception):
            soak.redis_kb.append(await asyncio.to_thread(redis_memory_kb, args.redis))
        if now >= next_line or now >= window.stop:
            lat = sorted(soak.stats.latencies[seen:])
            other = sorted(soak.stats.other_seat[seen_other:])
            seen, seen_other = seen + len(lat), seen_other + len(other)
            redis_mb = soak.redis_kb[-1] / 1024 if soak.redis_kb else math.nan
            print(
                f"{now - start:>5.0f} {args.games:>5} {len(soak.finished):>5} "
                f"{len(lat) / max(1e-9, now - last):>6.0f} "
                f"{1000 * bs.percentile(lat, 0.5):>6.1f} {1000 * bs.percentile(lat, 0.99):>6.1f} "
                f"{1000 * bs.percentile(other, 0.99):>7.1f} {soak.errors():>6} "
                f"{soak.rss[-1][1] / 1024:>7.1f} {redis_mb:>8.2f}",
                flush=True,
            )
            last, next_line = now, next_line + args.every
        if now >= window.stop:
            return
        await asyncio.sleep(min(RSS_EVERY, max(0.05, window.stop - now)))


async def check(soak: Soak, https: list[httpx.AsyncClient], db: str, stop_wall: float) -> list[str]:
    """Every game that should have ended did; none is stuck. Returns the failures."""
    failures: list[str] = []
    gate = asyncio.Semaphore(16)

    async def view(http: httpx.AsyncClient, ticket: bs.Ticket) -> dict[str, Any]:
        async with gate:
            token = ticket.seats[0][1]
            response = await http.get(
                f"/api/games/{ticket.game_id}", headers={"Authorization": f"Bearer {token}"}
            )
            response.raise_for_status()
            data: dict[str, Any] = response.json()
            return data

    finished = await asyncio.gather(
        *(view(https[i % len(https)], t) for i, t in enumerate(soak.finished)),
        return_exceptions=True,
    )
    not_over = [t for t, v in zip(soak.finished, finished, strict=True) if not _over(v)]
    if not_over:
        failures.append(f"{len(not_over)} games the bots saw end are not over on the server")
    opened = await asyncio.gather(
        *(view(o.https[0], o.ticket) for o in soak.still_open), return_exceptions=True
    )
    stale = 0
    versions: Counter[int] = Counter()
    unseen: Counter[str] = Counter()
    for o, v in zip(soak.still_open, opened, strict=True):
        if isinstance(v, BaseException) or _over(v):
            failures.append(f"open game {o.ticket.game_id}: {v!r:.80}")
            continue
        versions[int(v.get("version", -1)) - o.tracker.version] += 1
        stale += o.tracker.last_view < stop_wall - RECENT_SECONDS
        if int(v.get("version", -1)) != o.tracker.version:  # which moves no bot saw
            token = o.ticket.seats[0][1]
            with contextlib.suppress(httpx.HTTPError):
                response = await o.https[0].get(
                    f"/api/games/{o.ticket.game_id}/events",
                    params={"since": o.tracker.version},
                    headers={"Authorization": f"Bearer {token}"},
                )
                if not unseen:
                    print(
                        f"e.g. game {o.ticket.game_id}: server at {v.get('version')}, the bots "
                        f"saw {o.tracker.version}; events after: {response.text[:300]}"
                    )
                for event in response.json():
                    mine = event.get("seat") in [seat for seat, _ in o.ticket.seats]
                    unseen[f"{'bot' if mine else 'other'} {str(event.get('action'))[:5]}"] += 1
    if unseen:
        print(f"moves stored that no bot saw the view of: {dict(unseen)}")
    if set(versions) - {0}:
        failures.append(
            "open games whose server version is not the last a bot saw (server minus seen: "
            f"games): {dict(sorted(versions.items()))}"
        )
    if stale:
        failures.append(f"{stale} open games had no move in the last {RECENT_SECONDS:g} s")
    import psycopg

    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT g.finished, max(m.created_at) FROM games g "
            "LEFT JOIN moves m ON m.game_id = g.id GROUP BY g.id, g.finished"
        ).fetchall()
    done = sum(1 for f, _ in rows if f)
    unfinished = [last for f, last in rows if not f]
    wall = time.time()
    old = sum(1 for last in unfinished if last is None or last < wall - RECENT_SECONDS - 60)
    print(
        f"database: {len(rows)} games, {done} finished, {len(unfinished)} unfinished "
        f"({old} without a move in the last {RECENT_SECONDS + 60:g} s)"
    )
    if len(unfinished) != len(soak.still_open) or old:
        failures.append(
            f"the database holds {len(unfinished)} unfinished games ({old} idle), the bots "
            f"{len(soak.still_open)} open"
        )
    if done != len(soak.finished):
        failures.append(f"database: {done} finished games, the bots saw {len(soak.finished)}")
    return failures


def _over(view: object) -> bool:
    return isinstance(view, dict) and bool(view.get("is_over"))


async def soak_once(
    servers: list[bs.Server], db: str, args: argparse.Namespace
) -> tuple[Soak, list[str], float, float]:
    soak = Soak()
    pids = bs.all_pids(servers)
    window = bs.Window(math.inf)
    ready = asyncio.Event()
    gate = asyncio.Semaphore(bs.CREATE_CONCURRENCY)
    limits = httpx.Limits(max_connections=64)
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=s.base, timeout=bs.RECV_SECONDS, limits=limits)
            )
            for s in servers
        ]
        tasks = [
            asyncio.ensure_future(table(i, servers, https, window, soak, args, gate, ready))
            for i in range(args.games)
        ]
        deadline = time.monotonic() + 300
        while soak.created < args.games and time.monotonic() < deadline:
            if any(t.done() for t in tasks):
                break
            await asyncio.sleep(0.1)
        print(f"  {soak.created} games created and connected", flush=True)
        cpu_before, client_before = bs.tree_cpu(pids), time.process_time()
        start = time.monotonic()
        window.stop = start + args.seconds
        ready.set()
        await watch(pids, window, soak, args, start)
        stop_wall = time.monotonic()
        done, late = await asyncio.wait(tasks, timeout=bs.DRAIN_SECONDS + STALL_SECONDS + 30)
        server_cpu = bs.tree_cpu(pids) - cpu_before
        client_cpu = time.process_time() - client_before
        for task in late:
            task.cancel()
            soak.odd["table still playing after the soak"] += 1
        for task in done:
            if task.exception() is not None:
                soak.odd[f"bench: {task.exception()!r:.120}"] += 1
        failures = await check(soak, https, db, stop_wall)
    return soak, failures, server_cpu, client_cpu


def summary(
    workers: int, soak: Soak, failures: list[str], cpu: tuple[float, float]
) -> tuple[str, bool]:
    """The soak's figures as text, and whether it passed (no error, every check)."""
    lat = sorted(soak.stats.latencies)
    other = sorted(soak.stats.other_seat)
    first = [kb for t, kb in soak.rss if t <= 60]
    last_t = soak.rss[-1][0] if soak.rss else 0.0
    last = [kb for t, kb in soak.rss if t >= last_t - 60]
    errors = (
        dict(soak.stats.errors)
        | dict(bs.HTTP_REFUSED)
        | dict(soak.odd)
        | ({"unanswered": soak.stats.unanswered} if soak.stats.unanswered else {})
    )
    accepted = len(lat)
    lines = [
        f"{workers} worker(s): {accepted} actions, {accepted / max(1e-9, last_t):.0f} actions/s; "
        f"latency p50 {1000 * bs.percentile(lat, 0.5):.1f} ms, p99 "
        f"{1000 * bs.percentile(lat, 0.99):.1f} ms, max {1000 * lat[-1] if lat else math.nan:.0f}"
        f" ms; other seat's view p50 {1000 * bs.percentile(other, 0.5):.1f} ms, p99 "
        f"{1000 * bs.percentile(other, 0.99):.1f} ms",
        f"  games: {soak.created} played, {len(soak.finished)} finished, "
        f"{len(soak.still_open)} open at the end ({soak.late_ends} ended as it stopped); "
        f"errors {soak.errors()} {errors or ''}",
        f"  server RSS: first minute {statistics.mean(first) / 1024:.1f} MB, last minute "
        f"{statistics.mean(last) / 1024:.1f} MB (max {max(kb for _, kb in soak.rss) / 1024:.1f})"
        if first and last
        else "  server RSS: no samples",
        f"  CPU: servers {1000 * cpu[0] / max(1, accepted):.2f} ms per action "
        f"({cpu[0] / max(1e-9, last_t):.2f} cores), bots {cpu[1] / max(1e-9, last_t):.2f} cores",
    ]
    if soak.redis_kb:
        lines.append(
            f"  Redis memory: {soak.redis_kb[0] / 1024:.2f} -> {soak.redis_kb[-1] / 1024:.2f} MB"
        )
    lines.append(
        "  checks: " + ("every game that should have ended did; none stuck" if not failures else "")
    )
    lines += [f"  FAILED: {f}" for f in failures]
    return "\n".join(lines), not failures and soak.errors() == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workers", type=bw.parse_counts, default=[1, 2], help="e.g. 1,2")
    parser.add_argument("--games", type=int, default=500, help="games in play at once")
    parser.add_argument("--ai-games", type=int, default=10, help="of them, against the AI")
    parser.add_argument("--ai-level", default="normal")
    parser.add_argument("--seconds", type=float, default=300.0, help="length of the soak")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between reports")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time a move")
    parser.add_argument("--target", type=int, default=50, help="points a game is played to")
    parser.add_argument("--layout", choices=["ports", "workers"], default="ports")
    parser.add_argument("--db", default=bw.DEFAULT_DB, help="PostgreSQL URL to make databases")
    parser.add_argument("--redis", default=bw.DEFAULT_REDIS, help="redis://HOST:PORT/N")
    parser.add_argument("--seed", type=int, default=1, help="for the think times")
    args = parser.parse_args()
    if not 1 <= args.games <= 2000 or not 0 <= args.ai_games <= args.games:
        parser.error("--games is 1 to 2000, --ai-games 0 to --games")
    if not 10 <= args.seconds <= 3600 or not 1 <= args.every <= args.seconds:
        parser.error("--seconds is 10 to 3600, --every 1 to --seconds")
    if not 0 <= args.think <= 10 or not 10 <= args.target <= 1000:
        parser.error("--think is 0 to 10, --target 10 to 1000")
    random.seed(args.seed)
    extra = [*bs.serve_options(4 * args.games + 64), "--redis", args.redis]
    print(f"ginrummy: {Path(ginrummy.__file__).parent}")
    print(
        f"serve --max-rate 1000 {' '.join(extra)}; PostgreSQL at {args.db.split('@')[-1]}; "
        f"layout {args.layout}; {args.games} games ({args.ai_games} against the AI, "
        f"{args.ai_level}) to {args.target}; think 0 to {2 * args.think:g} s; {args.seconds:g} "
        f"s; {os.cpu_count()} cores",
        flush=True,
    )
    summaries: list[tuple[str, bool]] = []
    with tempfile.TemporaryDirectory(prefix="bench-soak-") as tmp_name:
        tmp = Path(tmp_name)
        for workers in args.workers:
            bs.HTTP_REFUSED.clear()
            print(f"{workers} worker(s):", flush=True)
            with bs.fresh_store(args.db, tmp, workers) as db:
                servers = bw.start_cluster(db, extra, workers, args.layout, tmp, f"soak-{workers}")
                try:
                    soak, failures, *cpu = asyncio.run(soak_once(servers, db, args))
                finally:
                    bw.stop_cluster(servers)
            summaries.append(summary(workers, soak, failures, (cpu[0], cpu[1])))
            print(summaries[-1][0], flush=True)
    print()
    print("\n".join(text for text, _ in summaries))
    if not all(ok for _, ok in summaries):
        sys.exit(1)


if __name__ == "__main__":
    main()
