"""Time per AI decision at each level, and easy-vs-easy self-play speed.

Run: ``.venv/bin/python bench/bench_ai.py [--hands N] [--rounds R]``

Each level plays ``--hands`` hands against ``baseline`` (classic rules, fixed seeds); every
call to ``choose`` is timed, the view's construction excluded. Printed per level: decisions
timed, mean and 95th percentile in milliseconds, against the targets of the AI issue. Then
easy against easy, whole hands per second (views and decisions included), as the best and
the median of ``--rounds`` rounds (timed first, in the fresh process): the machine's speed
drifts, so one round says little.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import ginrummy
from ginrummy.ai import player

TARGETS = {  # level: (mean ms, p95 ms) targets
    "baseline": (2.0, None),
    "easy": (2.0, None),
    "normal": (2.0, None),
    "hard": (10.0, None),
    "expert": (30.0, 300.0),
    "master": (50.0, 500.0),
    "master-2026-11": (50.0, 500.0),
}
MAX_MS = {"master": 2000.0, "master-2026-11": 2000.0}
"""The longest a decision may take (the strength issue's bound for master)."""


def time_level(level: str, hands: int) -> list[float]:
    """Seconds per decision of ``level`` over ``hands`` hands against baseline."""
    rules = ginrummy.Rules.preset("classic")
    times: list[float] = []
    for i in range(hands):
        state = ginrummy.deal(rules, i % 2, ginrummy.shuffled_deck(f"bench-ai/{i}"))
        me = i % 2
        players = {me: player(level, f"a{i}"), 1 - me: player("baseline", f"b{i}")}
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            start = time.perf_counter()
            action = players[seat].choose(view)
            elapsed = time.perf_counter() - start
            if seat == me and len(view.legal_actions) > 1:
                times.append(elapsed)
            state = state.apply(action, seat)
    return times


def selfplay_rate(level: str, hands: int) -> float:
    """Whole hands per second of ``level`` against itself."""
    rules = ginrummy.Rules.preset("classic")
    start = time.perf_counter()
    for i in range(hands):
        state = ginrummy.deal(rules, i % 2, ginrummy.shuffled_deck(f"bench-self/{i}"))
        players = {0: player(level, f"s{i}/0"), 1: player(level, f"s{i}/1")}
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state = state.apply(players[seat].choose(state.view(seat)), seat)
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per level")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of self-play timing")
    parser.add_argument("--levels", default=",".join(TARGETS), help="comma-separated levels")
    args = parser.parse_args()
    print(f"ginrummy {ginrummy.__version__} | Python {sys.version.split()[0]}")
    # self-play first, in a fresh process: as a user running it would see it
    rates = [selfplay_rate("easy", 300) for _ in range(args.rounds)]
    best, median = max(rates), statistics.median(rates)
    verdict = "ok" if median >= 1000 else "ok on the best round only" if best >= 1000 else "MISSED"
    print(
        f"easy vs easy self-play: {median:.0f} hands/s median, {best:.0f} best "
        f"of {args.rounds} rounds; target >= 1000: {verdict}"
    )
    print(f"time per decision against baseline, classic, {args.hands} hands per level")
    print(f"{'level':<10}{'decisions':>10}{'mean ms':>10}{'p95 ms':>10}{'max ms':>10}  target")
    for level in args.levels.split(","):
        times = sorted(time_level(level, args.hands))
        mean = 1000 * statistics.fmean(times)
        p95 = 1000 * times[int(0.95 * (len(times) - 1))]
        mean_target, p95_target = TARGETS.get(level, (None, None))
        verdicts = []
        if mean_target is not None:
            verdicts.append(f"mean < {mean_target:g}: {'ok' if mean < mean_target else 'MISSED'}")
        if p95_target is not None:
            verdicts.append(f"p95 < {p95_target:g}: {'ok' if p95 < p95_target else 'MISSED'}")
        if level in MAX_MS:
            ok = 1000 * times[-1] < MAX_MS[level]
            verdicts.append(f"max < {MAX_MS[level]:g}: {'ok' if ok else 'MISSED'}")
        print(
            f"{level:<10}{len(times):>10}{mean:>10.2f}{p95:>10.2f}{1000 * times[-1]:>10.1f}  "
            + "; ".join(verdicts)
        )


if __name__ == "__main__":
    main()
