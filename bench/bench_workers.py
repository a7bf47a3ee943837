"""One server process against two on PostgreSQL + Redis: actions/s, CPU, latency.

Run: ``.venv/bin/python bench/bench_workers.py [--workers 1,2] [--games 100] [--seconds 20]
[--paced-games 200] [--paced-seconds 30] [--layout ports|workers]
[--db postgresql://postgres@127.0.0.1:5432/postgres] [--redis redis://127.0.0.1:6379/0]``

For each worker count N in ``--workers``, two runs of :func:`bench_server.run_level` (the same
bots, windows, spare games and measures as ``bench/bench_server.py``), each on a fresh
PostgreSQL database made through ``--db`` (dropped after) and fresh servers, all started
with ``--redis``, even one alone, so only the number of processes changes:

- **saturation**: ``--games`` games whose bots never pause (``--think 0``) for ``--seconds``:
  the actions/s the servers carry;
- **paced**: ``--paced-games`` games at a person's pace (each move after a random 0 to 2 s)
  for ``--paced-seconds``: the latency people would see.

``--layout ports`` (the default) starts N ``ginrummy serve`` processes on N ports and connects
seat 0 of every game to one and seat 1 to the next, so every move is stored by one process
and reaches the other seat through Redis and the other process (no sticky sessions); a game
is created on one process and joined on the next. ``--layout workers`` starts one ``serve
--workers N`` behind one port and lets the kernel hand out the connections.

Printed per run: actions/s, latency from an action to its view (p50, p99) and to the other
seat's view of it, server CPU per action summed over every server process (the ``serve``
processes and their workers, from ``/proc``), and where the machine's CPU went: the servers,
this bench's bots (one process), PostgreSQL (all its processes) and Redis, out of the busy
time of all cores (``/proc/stat``; what is left is other work on the machine). Then the
ratio of actions/s, N workers over 1, and what bounds it here.

Start it with ``PYTHONPATH`` pointing at another checkout's ``src`` to measure that code.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import bench_server as bs
import ginrummy

DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
STALL_SECONDS = 10.0
"""A seat that hears nothing this long counts an error and syncs (``play_seat``)."""
P99_TARGET_MS = 50.0
"""The issue's bound on p99 at a person's pace, 200 games over two workers."""


def start_cluster(
    db: str, extra: list[str], workers: int, layout: str, tmp: Path, label: str
) -> list[bs.Server]:
    """``workers`` server processes on ``db``: N ports, or one port with ``--workers N``."""
    if layout == "workers":
        return [bs.start_server(db, extra, tmp / f"{label}.log", workers)]
    servers: list[bs.Server] = []
    try:
        for i in range(workers):
            servers.append(bs.start_server(db, extra, tmp / f"{label}-{i}.log"))
    except BaseException:
        stop_cluster(servers)
        raise
    return servers


def stop_cluster(servers: list[bs.Server]) -> None:
    for server in servers:
        bs.stop_server(server)
        kinds = Counter(line.split(" ", 2)[-1] for line in server.complaints())
        if kinds:
            print(f"  server log {server.log.name}: {dict(kinds.most_common(5))}", flush=True)


@dataclass
class Run:
    workers: int
    phase: str
    think: float
    level: bs.Level

    @property
    def rate(self) -> float:
        return self.level.stats.in_window / self.level.seconds

    def per_action_ms(self, cpu_seconds: float) -> float:
        return 1000 * cpu_seconds / self.level.accepted if self.level.accepted else math.nan


def run_one(args: argparse.Namespace, extra: list[str], tmp: Path, workers: int, phase: str) -> Run:
    games, seconds, think = (
        (args.games, args.seconds, 0.0)
        if phase == "saturation"
        else (args.paced_games, args.paced_seconds, 1.0)
    )
    label = f"{phase}-{workers}"
    with bs.fresh_store(args.db, tmp, workers) as db:
        servers = start_cluster(db, extra, workers, args.layout, tmp, label)
        try:
            level = asyncio.run(
                bs.run_level(
                    servers, games, seconds, -1, args.game_actions, True, think, STALL_SECONDS
                )
            )
        finally:
            stop_cluster(servers)
    run = Run(workers, phase, think, level)
    print(
        f"  {workers} worker(s), {phase}: {run.rate:.0f} actions/s, "
        f"{level.cpu_ms_per_action:.3f} ms server CPU each, errors {dict(level.stats.errors)}",
        flush=True,
    )
    return run


def report(runs: list[Run]) -> None:
    print()
    print(
        "latency in ms, from an action to its view (p50, p99) and to the other seat's view "
        "(other p99);"
    )
    print(
        "CPU: ms per accepted action (srv: all server processes summed; bench: the bots; pg: "
        "PostgreSQL; all: every core's busy time)"
    )
    print(
        f"{'workers':>7} {'phase':>10} {'games':>5} {'act/s':>6} {'p50':>6} {'p99':>6} "
        f"{'other99':>7} {'srv':>6} {'bench':>6} {'pg':>6} {'redis':>6} {'all':>6} "
        f"{'busy':>5} {'errors':>6}"
    )
    for run in runs:
        lv, m = run.level, run.level.machine
        lat, other = sorted(lv.stats.latencies), sorted(lv.stats.other_seat)
        errors = sum(lv.stats.errors.values()) + lv.stats.unanswered
        elapsed = m.get("elapsed", lv.seconds)
        print(
            f"{run.workers:>7} {run.phase:>10} {lv.games:>5} {run.rate:>6.0f} "
            f"{1000 * bs.percentile(lat, 0.5):>6.1f} {1000 * bs.percentile(lat, 0.99):>6.1f} "
            f"{1000 * bs.percentile(other, 0.99):>7.1f} "
            f"{run.per_action_ms(lv.server_cpu):>6.3f} {run.per_action_ms(lv.client_cpu):>6.3f} "
            f"{run.per_action_ms(m.get('postgres', math.nan)):>6.3f} "
            f"{run.per_action_ms(m.get('redis', math.nan)):>6.3f} "
            f"{run.per_action_ms(m.get('busy', math.nan)):>6.3f} "
            f"{m.get('busy', math.nan) / elapsed:>5.2f} {errors:>6}"
        )
    cores = os.cpu_count() or 1
    print(f"busy: cores in use over the window, of {cores}")
    by = {(r.workers, r.phase): r for r in runs}
    one = by.get((1, "saturation"))
    for run in runs:
        if run.phase != "saturation" or run.workers == 1 or one is None:
            continue
        lv, m = run.level, run.level.machine
        elapsed = m.get("elapsed", lv.seconds)
        busy = m.get("busy", math.nan) / elapsed
        shares = {
            "servers": lv.server_cpu,
            "bench bots": lv.client_cpu,
            "PostgreSQL": m.get("postgres", math.nan),
            "Redis": m.get("redis", math.nan),
        }
        rest = m.get("busy", math.nan) - sum(shares.values())
        print(
            f"{run.workers} workers / 1 worker at saturation: {run.rate:.0f} / {one.rate:.0f} "
            f"actions/s = {run.rate / one.rate:.2f}x"
        )
        print(
            f"  the machine was {busy:.2f} of {cores} cores busy: "
            + ", ".join(f"{k} {v / elapsed:.2f}" for k, v in shares.items())
            + f", other {rest / elapsed:.2f}"
        )
        every = run.per_action_ms(m.get("busy", math.nan))
        print(
            f"  every process together spent {every:.2f} ms of CPU per action: at most "
            f"{1000 * cores / every:.0f} actions/s on {cores} cores, whatever the workers; "
            f"the servers alone {run.per_action_ms(lv.server_cpu):.2f} ms "
            f"(1 worker: {one.per_action_ms(one.level.server_cpu):.2f})"
        )
    for run in runs:
        if run.phase == "paced" and run.workers >= 2:
            p99 = 1000 * bs.percentile(sorted(run.level.stats.latencies), 0.99)
            verdict = "within" if p99 <= P99_TARGET_MS else "OVER"
            print(
                f"{run.workers} workers, {run.level.games} games at a person's pace: p99 "
                f"{p99:.1f} ms ({verdict} the {P99_TARGET_MS:g} ms bound)"
            )


parse_counts = bs.counts(8, "worker counts", "1,2")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workers", type=parse_counts, default=[1, 2], help="e.g. 1,2")
    parser.add_argument("--games", type=int, default=100, help="games at saturation")
    parser.add_argument("--seconds", type=float, default=20.0, help="saturation window")
    parser.add_argument("--paced-games", type=int, default=200, help="games at a person's pace")
    parser.add_argument("--paced-seconds", type=float, default=30.0, help="paced window")
    parser.add_argument("--layout", choices=["ports", "workers"], default="ports")
    parser.add_argument("--db", default=DEFAULT_DB, help="PostgreSQL URL to make databases")
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="redis://HOST:PORT/N")
    parser.add_argument(
        "--phases", default="saturation,paced", help="saturation, paced or both (default)"
    )
    args = parser.parse_args()
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    if not phases or set(phases) - {"saturation", "paced"}:
        parser.error("--phases: saturation and/or paced")
    for name, value in (("--games", args.games), ("--paced-games", args.paced_games)):
        if not 1 <= value <= 2000:
            parser.error(f"{name} is 1 to 2000")
    for name, value in (("--seconds", args.seconds), ("--paced-seconds", args.paced_seconds)):
        if not 1 <= value <= 600:
            parser.error(f"{name} is 1 to 600")
    if not args.db.startswith(("postgresql://", "postgres://")):
        parser.error("--db takes a postgresql:// URL")

    extra = bs.serve_options(4 * max(args.games, args.paced_games) + 64)
    extra += ["--redis", args.redis]
    print(f"ginrummy: {Path(ginrummy.__file__).parent}")
    print(
        f"serve --max-rate 1000 {' '.join(extra)}; PostgreSQL at {args.db.split('@')[-1]}, "
        f"fresh per run; layout {args.layout}; {os.cpu_count()} cores",
        flush=True,
    )
    args.game_actions = bs.engine_cost(1.0, 1000).actions_per_game
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp_name:
        for phase in phases:
            for workers in args.workers:
                runs.append(run_one(args, extra, Path(tmp_name), workers, phase))
    report(runs)


if __name__ == "__main__":
    main()
