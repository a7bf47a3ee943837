"""Does master's adaptation pay? Master with and without it against opponents of fixed styles.

For each style (``style-knock``, ``style-gin``, ``style-undercut``: ``ginrummy.ai.styles``;
and ``baseline``, which knocks at once too),
``master`` (adapting) and ``master-no-adapt`` (the same player ignoring what past hands show)
play the same duplicate game pairs against it; the figure is each one's points per hand
and the paired difference per game pair, with 95 % intervals. Adaptation needs a game's
earlier hands, so this plays whole games (to the preset's target).

    python bench/adaptation.py --games 300 --workers 2        # or --cluster local:2
"""

from __future__ import annotations

import argparse
import time

import ginrummy
from ginrummy.arena import Interval, Job, game_pairs

STYLES = ("style-knock", "style-gin", "style-undercut", "baseline")


def per_pair(pairs: list[list[object]]) -> list[float]:
    """Side A's net points per hand in each game pair."""
    out = []
    for pair in pairs:
        hands = [h for g in pair for h in g.hands]  # type: ignore[attr-defined]
        out.append(sum(h.net for h in hands) / max(1, len(hands)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="game pairs per style")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", default="adapt-2026")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cluster", default=None)
    parser.add_argument("--styles", default=",".join(STYLES))
    args = parser.parse_args()
    rules = ginrummy.Rules.preset(args.preset)
    print(f"{args.games} duplicate game pairs per style, {args.preset}, seed {args.seed}")
    print(f"{'opponent':<16} {'master-no-adapt':>24} {'master':>24} {'difference':>24}")
    for style in args.styles.split(","):
        started = time.monotonic()
        nets = {}
        for level in ("master-no-adapt", "master"):
            job = Job(level, style, rules, f"{args.seed}/{style}")
            nets[level] = per_pair(game_pairs(job, args.games, args.workers, False, args.cluster))
        diff = [a - b for a, b in zip(nets["master"], nets["master-no-adapt"], strict=True)]
        cells = [str(Interval.of(nets["master-no-adapt"])), str(Interval.of(nets["master"]))]
        print(
            f"{style:<16} {cells[0]:>24} {cells[1]:>24} {Interval.of(diff)!s:>24}"
            f"   ({time.monotonic() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
