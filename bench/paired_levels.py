"""Two levels against one opponent on the same duplicate deals, paired per deal.

    python bench/paired_levels.py master master-2026-11 baseline --deals 2000 --seed bl-1

prints each level's points a hand against the opponent (the arena's duplicate deal pairs:
the same decks and the same players' seeds for both levels) and the first minus the second,
paired per deal pair, with 95 % intervals. Unpaired, two arena rows on the same seed differ
by about ±0.8 a hand on 2,000 deal pairs; paired, by about half that.
"""

from __future__ import annotations

import argparse
import time

from ginrummy.arena import Interval, Job, deal_pairs_of
from ginrummy.rules import Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("against")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", default="strength-2026")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    nets: dict[str, list[float]] = {}
    for level in (args.first, args.second):
        started = time.monotonic()
        pairs = deal_pairs_of(Job(level, args.against, rules, args.seed), args.deals, args.workers)
        nets[level] = [sum(h.net for h in pair) / len(pair) for pair in pairs]
        took = time.monotonic() - started
        print(f"{level} vs {args.against}: {Interval.of(nets[level])} a hand  ({took:.0f} s)")
    diff = [a - b for a, b in zip(nets[args.first], nets[args.second], strict=True)]
    print(f"{args.first} minus {args.second}, paired per deal: {Interval.of(diff)}")


if __name__ == "__main__":
    main()
