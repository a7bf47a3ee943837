"""How many concurrent games one server process carries.

Run: ``.venv/bin/python bench/bench_server.py [--games 50] [--seconds 20]``

Starts ``ginrummy serve`` on 127.0.0.1 (a fresh SQLite file, WebSocket rate limit raised so
the bots are limited by the server, not by the anti-flood rule), creates ``--games`` games
between two people and plays both seats of every game with quick bots over WebSockets, all at
once, for ``--seconds``. Prints the games and actions completed, actions per second, and the
latency from sending an action to receiving the resulting view (mean, p50, p99).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from ginrummy.server.bot import greedy_action


async def bot(url: str, token: str, seat: int, stop: float, latencies: list[float]) -> int:
    """Play one seat until the game ends or time is up; returns 1 if the game ended."""
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        sent_at: float | None = None
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            except TimeoutError:
                return 0
            if message["type"] not in ("hello", "view"):
                continue
            if sent_at is not None and message["type"] == "view":
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            view = message["view"]
            if view["is_over"]:
                return 1
            hand = view["hand"]
            if hand["to_act"] == seat and sent_at is None:
                await ws.send(json.dumps({"type": "action", "action": greedy_action(hand)}))
                sent_at = time.monotonic()
    return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def run(base: str, ws_base: str, games: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tickets = []
        for _ in range(games):
            first = (
                await http.post("/api/games", json={"opponent": "human", "preset": "classic"})
            ).json()
            second = (
                await http.post(
                    f"/api/games/{first['game_id']}/join", json={"invite": first["invite"]}
                )
            ).json()
            tickets.append((first, second))
    latencies: list[float] = []
    start = time.monotonic()
    stop = start + seconds
    tasks = [
        bot(f"{ws_base}/ws/games/{t['game_id']}", t["token"], t["seat"], stop, latencies)
        for pair in tickets
        for t in pair
    ]
    finished = sum(await asyncio.gather(*tasks)) // 2
    elapsed = time.monotonic() - start
    lat = sorted(latencies)
    print(
        f"{games} concurrent games, {elapsed:.1f} s: {finished} finished, "
        f"{len(lat)} actions, {len(lat) / elapsed:.0f} actions/s"
    )
    if lat:
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
        print(
            f"latency action -> view: mean {1000 * statistics.fmean(lat):.1f} ms, "
            f"p50 {1000 * lat[len(lat) // 2]:.1f} ms, p99 {1000 * p99:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ginrummy.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                str(Path(tmp) / "bench.db"),
                "--max-rate",
                "1000",
            ],
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(f"{base}/api/health", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            asyncio.run(run(base, f"ws://127.0.0.1:{port}", args.games, args.seconds))
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
