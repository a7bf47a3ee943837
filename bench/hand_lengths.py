"""Where the points go, by the hand's length, and what master takes its opponent for.

``deals``: duplicate deal pairs of A against B; every hand sorted by how many cards were
drawn before it ended (both seats') and by who ended it and how, with A's points (in all, and
per hand over all hands played)::

    python bench/hand_lengths.py deals master master-2026-11 --deals 1000 --seed sh-1

``kinds``: whole game pairs of A (a level of master) against B in this process, counting A's
knock decisions by what it took the opponent for (:meth:`MasterPlayer.opponent_kind`: None,
``knocker`` or ``player``), by how many finished hands it had seen (3 standing for 3 or more)
and by whether it knocked::

    python bench/hand_lengths.py kinds master master-2026-11 --games 30 --seed kinds-1

The figures are in docs/ai.md ("Knocking early, and the price of reading the opponent").
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from ginrummy import Rules
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import MasterPlayer
from ginrummy.ai.strong import KnockEstimate
from ginrummy.arena import Job, deal_pairs_of, play_game_pair

LENGTHS = ((7, "7 or fewer"), (15, "8 to 15"), (27, "16 to 27"), (10**6, "28 or more"))
"""The buckets of draws before the hand ended: the largest in each, and its name."""


def length_name(draws: int) -> str:
    """The bucket of a hand that ended after ``draws`` draws."""
    return next(name for top, name in LENGTHS if draws <= top)


def deals(args: argparse.Namespace) -> None:
    job = Job(args.a, args.b, Rules.preset(args.preset), args.seed)
    pairs = deal_pairs_of(job, args.deals, args.workers)
    table: defaultdict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for pair in pairs:
        for hand in pair:
            who = "A" if hand.a_knocked else "B" if hand.b_knocked else "-"
            row = table[(length_name(hand.draws), who, hand.kind)]
            row[0] += 1
            row[1] += hand.net
    total = 2 * len(pairs)
    print(f"{args.a} (A) against {args.b} (B), {args.deals} deal pairs, seed {args.seed}")
    print(f"{'draws':<11} {'ended by':<8} {'how':<9} {'hands':>6} {'points':>8} {'a hand':>7}")
    order = [name for _, name in LENGTHS]
    for (length, who, kind), (n, points) in sorted(
        table.items(), key=lambda item: (order.index(item[0][0]), item[0][1:])
    ):
        print(f"{length:<11} {who:<8} {kind:<9} {n:>6} {points:>+8} {points / total:>+7.3f}")


def kinds(args: argparse.Namespace) -> None:
    counts: Counter[tuple[str, int, bool]] = Counter()
    knocks = MasterPlayer.knocks

    def counted(self: MasterPlayer, k: Knowledge, estimate: KnockEstimate) -> bool:
        knocked = knocks(self, k, estimate)
        if self.level == args.a:
            seen = min(len(k.view.past_hands), 3)
            counts[(str(self.opponent_kind(k)), seen, knocked)] += 1
        return knocked

    MasterPlayer.knocks = counted  # type: ignore[method-assign]
    job = Job(args.a, args.b, Rules.preset(args.preset), args.seed)
    for j in range(args.games):
        play_game_pair(job, j)
    print(f"{args.a}'s knock decisions against {args.b}, {args.games} game pairs")
    print(f"{'taken for':<10} {'hands seen':>10} {'knocked':>8} {'decisions':>10}")
    for (kind, seen, knocked), n in sorted(counts.items()):
        print(f"{kind:<10} {seen:>10} {knocked!s:>8} {n:>10}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=("deals", "kinds"))
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", default="sh-1")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.what == "deals":
        deals(args)
    else:
        kinds(args)


if __name__ == "__main__":
    main()
