"""What a points-a-hand edge is worth in games to the target, and what 60 % of games needs.

    python bench/game_share.py master master-2026-11 --deals 1000 --seed cat-1

plays the arena's duplicate deal pairs of A against B (classic by default), then, from the
hands' points alone, composes games to the target: hands drawn at random (with replacement)
from the played ones, each adding its points to its winner, until a side reaches the target.
It prints the composed share of games A wins, where its points come from (how hands end),
and the share for the same hands with the edge moved (an exponential tilt of the hands'
weights: the same kinds of hands, a different mean) or the spread around the mean scaled.

The composition takes every hand as played from 0-0: master values every hand so, but
``master-2026-11`` weighs the score, and the deal alternates in a real game. It still
comes close to the real games (docs/ai.md, "What 60 % of games needs"), so it says about
how far a change of the edge or of the spread moves the share of games, without playing
the games.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence

from ginrummy.arena import HandSummary, Interval, Job, deal_pairs_of
from ginrummy.rules import Rules


def composed_share(
    nets: Sequence[float],
    weights: Sequence[float] | None,
    target: int,
    games: int,
    rng: random.Random,
) -> float:
    """The share of ``games`` games to ``target`` won by the side whose points a hand are
    ``nets`` (drawn with ``weights``; a tie at the target cannot happen: one hand scores
    for one side)."""
    cum = list(itertools.accumulate(weights if weights is not None else [1.0] * len(nets)))
    won = 0
    for _ in range(games):
        mine = theirs = 0.0
        while mine < target and theirs < target:
            x = rng.choices(nets, cum_weights=cum)[0]
            if x > 0:
                mine += x
            else:
                theirs -= x
        won += mine >= target
    return won / games


def tilted(nets: Sequence[float], shift: float) -> list[float]:
    """Weights ``exp(t * net)`` moving the weighted mean of ``nets`` by ``shift`` (bisection
    on ``t``)."""
    goal = sum(nets) / len(nets) + shift
    low, high = -0.2, 0.2
    for _ in range(60):
        t = (low + high) / 2
        w = [math.exp(t * x) for x in nets]
        if sum(wi * x for wi, x in zip(w, nets, strict=True)) / sum(w) < goal:
            low = t
        else:
            high = t
    return [math.exp((low + high) / 2 * x) for x in nets]


def kind_of(h: HandSummary) -> str:
    """How a hand ended: by whose gin or knock (an undercut: whose knock was undercut)."""
    ender = "A" if h.a_knocked else "B" if h.b_knocked else "-"
    if h.kind == "undercut":
        return f"{ender} knocks, undercut"
    return f"{h.kind} by {ender}" if h.kind != "void" else "void"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", default="cat-1")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=100000, help="composed games per row")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    started = time.monotonic()
    pairs = deal_pairs_of(Job(args.a, args.b, rules, args.seed), args.deals, args.workers)
    hands = [h for pair in pairs for h in pair]
    nets = [float(h.net) for h in hands]
    per_pair = [sum(h.net for h in pair) / len(pair) for pair in pairs]
    took = time.monotonic() - started
    print(f"{args.a} vs {args.b}: {Interval.of(per_pair)} points a hand  ({took:.0f} s)")
    counts, points = Counter[str](), Counter[str]()
    for h in hands:
        kind = kind_of(h)
        counts[kind] += 1
        points[kind] += h.net
    for kind in sorted(counts):
        share, mean = counts[kind] / len(hands), points[kind] / counts[kind]
        print(f"  {kind:18} {share:6.1%} of hands, {mean:+6.2f} each, {share * mean:+5.2f} a hand")
    mean = statistics.fmean(nets)
    spread = statistics.pstdev(nets)
    print(f"  spread (standard deviation) {spread:.1f} points a hand")
    rng = random.Random(f"{args.seed}/compose")
    target = rules.target
    print(f"composed games to {target} ({args.games} a row):")
    share = composed_share(nets, None, target, args.games, rng)
    print(f"  as played: {mean:+.2f} a hand, {share:.1%} of games")
    for shift in (0.25, 0.5, 0.75, 1.0):
        share = composed_share(nets, tilted(nets, shift), target, args.games, rng)
        print(f"  edge {shift:+.2f} ({mean + shift:+.2f} a hand): {share:.1%} of games")
    for scale in (0.9, 0.8):
        scaled = [mean + scale * (x - mean) for x in nets]
        share = composed_share(scaled, None, target, args.games, rng)
        print(f"  spread x{scale} (same edge): {share:.1%} of games")


if __name__ == "__main__":
    main()
