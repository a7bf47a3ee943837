"""Experiments with master's knock decision (and its search budget): variants against the
frozen master.

Each variant is ``master`` with one change to how it values playing on instead of knocking
(``deep``: to how many deals and candidates its searches take);
it plays duplicate deal pairs against ``master-2026-11`` and the figure is its points per
hand with the 95 % interval (paired per deal). The variants are registered as test levels
for the run only (the arena's worker processes are forked after, so they know them).

    python bench/knock_variants.py gin-playout --deals 1000 --workers 2
"""

from __future__ import annotations

import argparse
import time

import ginrummy
from ginrummy.ai import TEST_LEVELS
from ginrummy.ai.evaluate import OpponentModel
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import MasterPlayer
from ginrummy.ai.sim import playout, score_knock
from ginrummy.arena import run_arena


class GinPlayout(MasterPlayer):
    """Its side of a play-on playout plays for gin (knocks only with no deadwood)."""

    level = "v-gin-playout"

    def playout_limits(self, k: Knowledge) -> tuple[int, int] | None:
        base = super().playout_limits(k)
        return (0, k.knock_limit if base is None else base[1])


class BestOfTwo(MasterPlayer):
    """Playing on is worth the better of two continuations on the same deals: knock at the
    first chance, or play for gin."""

    level = "v-best-of-two"
    learned_knock = False  # measured before the learned knock, on the simulations' verdict

    def simulate_knock(
        self, k: Knowledge, knock_card: int, play_on: int, model: OpponentModel
    ) -> tuple[float, float]:
        sharpness = self.belief_sharpness(k)
        deals = self.opponent_deals(k, model, self.rng, self.knock_samples, sharpness)
        sc = self.scoring(k)
        knock_kept = k.hand & ~(1 << knock_card)
        on_kept = k.hand & ~(1 << play_on)
        base = self.playout_limits(k)
        opp = k.knock_limit if base is None else base[1]
        knock_total = greedy_total = gin_total = 0.0
        for hand, stock in deals:
            knock_total += self.utility(k, score_knock(knock_kept, hand, sc))
            greedy_total += self.utility(
                k, playout((on_kept, hand), stock, play_on, 1, sc, knock_at=(k.knock_limit, opp))
            )
            gin_total += self.utility(
                k, playout((on_kept, hand), stock, play_on, 1, sc, knock_at=(0, opp))
            )
        n = len(deals)
        return knock_total / n, max(greedy_total, gin_total) / n


class Margin(MasterPlayer):
    """Knocks unless playing on wins by at least 3 points (master: 0)."""

    level = "v-margin3"
    play_on_margin = 3.0


class EagerMargin(MasterPlayer):
    """Plays on unless knocking wins by at least 3 points."""

    level = "v-margin-3"
    play_on_margin = -3.0


class Deep(MasterPlayer):
    """Eight times the simulated deals for the knock, four times for the draw, and the
    two-draw search among the best five discards within 6 points: what the decision-time
    budget (mean 50 ms) leaves room for, master taking about 5 ms."""

    level = "v-deep"
    knock_samples = 1024
    search_samples = 192
    discard_candidates = 5
    discard_margin = 6.0


class Nine(MasterPlayer):
    """Master's learned knock before the ten extra features: the first one, on nine
    (``params/knock-kA.json``), except against a knocker (as master)."""

    level = "v-nine"
    knock_params = "knock-kA"


VARIANTS = {cls.level[2:]: cls for cls in (GinPlayout, BestOfTwo, Margin, EagerMargin, Deep, Nine)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("variants", nargs="+", choices=sorted(VARIANTS))
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", default="knock-2026")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--against", default="master-2026-11")
    args = parser.parse_args()
    for cls in VARIANTS.values():
        TEST_LEVELS[cls.level] = cls
    rules = ginrummy.Rules.preset(args.preset)
    for name in args.variants:
        started = time.monotonic()
        result = run_arena(
            VARIANTS[name].level,
            args.against,
            rules,
            deals=args.deals,
            seed=args.seed,
            workers=args.workers,
        )
        print(
            f"{name:<14} vs {args.against}: {result.points_per_hand} points/hand over "
            f"{args.deals} deal pairs ({args.preset}), undercut against "
            f"{100 * result.style_a.undercut_against:.1f}%, knocks "
            f"{100 * result.style_a.knock:.1f}%, gin {100 * result.style_a.gin:.1f}%   "
            f"({time.monotonic() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
