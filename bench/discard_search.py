"""Experiments in letting ``master`` choose its ordinary discards by playouts; none is kept
(master's discards are now searched two draws deep instead: docs/ai.md).

Run: ``.venv/bin/python bench/discard_search.py --deals 1000 --seed r1 --variants
"base/greedy:discard_stock_max=12/ranked:care=2;both=1"``

Every variant plays the same duplicate deal pairs against ``expert`` (as
``bench/master_search.py`` does) and is compared, pair by pair, with the first one. The
variants (attributes of the classes below can be overridden after ``:``, separated by ``;``):

* ``base``: ``master`` as it played for these runs (its discards the expert's ranking);
* ``greedy``: the discard candidates within ``discard_margin`` of the expert's best (at most
  ``discard_candidates``) are each played out on the same ``discard_samples`` deals with the
  greedy playout of :mod:`ginrummy.ai.sim`; a candidate replaces the expert's best when its
  mean value is higher by more than ``discard_z`` standard errors of the paired difference;
  only when the stock holds at most ``discard_stock_max`` cards;
* ``ranked``: the same, but in the playouts this seat plays the expert's static policy (pile
  when it beats the stock's expected deadwood, discard by expected deadwood after the next
  draw) for its first ``smart_turns`` turns; ``both`` gives the opponent that policy too, and
  ``care`` makes a greedy discarder avoid (by that many points) a card that melds for the
  other hand;
* ``feed``: no playouts; the expert's danger term becomes the opponent's mean deadwood gain
  from taking the card, over sampled deals (times ``feed_weight``).

What they gave is in docs/ai.md: all were weaker than ``base`` or no better.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

import ginrummy
from ginrummy.ai import LEVELS
from ginrummy.ai.evaluate import OpponentModel, draw_weights, expected_after_draw
from ginrummy.ai.knowledge import Knowledge, joins_meld
from ginrummy.ai.master import MasterPlayer
from ginrummy.ai.sim import Scoring, greedy_discard, playout, score_knock
from ginrummy.cards import cards_of
from ginrummy.melds import best_discard_mask, deadwood_after_discards_mask
from master_search import compare


def _even(unknown: int) -> list[tuple[int, float]]:
    cards = [int(c) for c in cards_of(unknown)]
    return [(c, 1.0 / len(cards)) for c in cards]


def ranked_playout(
    hands: tuple[int, int],
    stock: Sequence[int],
    top: int,
    sc: Scoring,
    unknown: int,
    smart_turns: int,
    care: float,
    both: bool,
    knock_bonus: float = 10.0,
    pile_margin: float = 0.3,
) -> int:
    """A playout from seat 1's draw, seat 0 (and seat 1 with ``both``) playing the expert's
    static policy for its first ``smart_turns`` turns; points for seat 0."""
    h = [hands[0], hands[1]]
    pos, n, seat = 0, len(stock), 1
    turns = [0, 0]
    unk = [unknown, (unknown | hands[0]) & ~hands[1]]
    for _ in range(60):
        hand, other = h[seat], h[1 - seat]
        smart = turns[seat] < smart_turns and (seat == 0 or both)
        taken = -1
        if not smart:
            if top >= 0 and joins_meld(top, hand):
                taken = top
        elif top >= 0:
            after = deadwood_after_discards_mask(hand | 1 << top)
            del after[top]
            pile = float(min(after.values()))
            pile -= knock_bonus if pile <= sc.limit else 0.0
            stock_value = expected_after_draw(hand, _even(unk[seat]), sc.limit, knock_bonus)
            if stock_value - pile_margin - pile > 0:
                taken = top
        if taken >= 0:
            hand |= 1 << taken
        else:
            if n - pos <= 2:
                return 0
            hand |= 1 << stock[pos]
            unk[seat] &= ~(1 << stock[pos])
            pos += 1
        dw, card = greedy_discard(hand, taken)
        if dw > sc.limit and smart:
            draws = _even(unk[seat])
            card = min(
                (c for c in cards_of(hand) if c != taken),
                key=lambda c: (
                    expected_after_draw(hand & ~(1 << c), draws, sc.limit, knock_bonus)
                    + 2.0 * joins_meld(c, other)
                ),
            )
        elif dw > sc.limit and care > 0:
            after = deadwood_after_discards_mask(hand)
            after.pop(taken, None)
            card = min(after, key=lambda c: (after[c] + care * joins_meld(c, other), -(c % 13)))
        hand &= ~(1 << card)
        turns[seat] += 1
        if dw <= sc.limit:
            points = score_knock(hand, other, sc)
            return points if seat == 0 else -points
        if n - pos <= 2:
            return 0
        unk[1 - seat] &= ~(1 << card)
        h[seat], top, seat = hand, card, 1 - seat
    return 0


class DiscardSearchMaster(MasterPlayer):
    """``master`` whose close discards are settled by playouts on common deals."""

    ranked = False
    discard_stock_max = 52
    discard_margin = 1.5
    discard_candidates = 4
    discard_samples = 48
    discard_z = 0.0
    smart_turns = 60
    care = 0.0
    both = False

    def value(self, k: Knowledge, card: int, opp: int, stock: list[int], sc: Scoring) -> float:
        kept = k.hand & ~(1 << card)
        if not self.ranked:
            return self.utility(k, playout((kept, opp), stock, card, 1, sc))
        points = ranked_playout(
            (kept, opp), stock, card, sc, k.unseen, self.smart_turns, self.care, self.both
        )
        return self.utility(k, points)

    def best_discard(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> int:
        draws = draw_weights(k, None if model is None else model.probability)
        scored = self.scored_discards(k, k.hand, options, draws, model)
        best = scored[0][1]
        if model is None or not 2 < k.stock_size <= self.discard_stock_max:
            return best
        close = [
            c
            for s, c in scored[: self.discard_candidates]
            if s - scored[0][0] <= self.discard_margin
        ]
        if len(close) < 2:
            return best
        sharpness = self.belief_sharpness(k)
        rng = random.Random(f"{self.seed}/discard/{k.turn}/{k.hand}/{k.top}")
        deals = model.deals(rng, self.discard_samples, sharpness)
        sc = self.scoring(k)
        values = {c: [self.value(k, c, opp, stock, sc) for opp, stock in deals] for c in close}
        choice, gain, n = best, 0.0, len(deals)
        for c in close[1:]:
            diff = [a - b for a, b in zip(values[c], values[best], strict=True)]
            mean = sum(diff) / n
            var = sum((d - mean) ** 2 for d in diff) / max(1, n - 1)
            if mean > gain and mean > self.discard_z * (var / n) ** 0.5:
                choice, gain = c, mean
        return choice


class FeedCostMaster(MasterPlayer):
    """``master`` whose danger of a discard is the opponent's simulated deadwood gain."""

    feed_weight = 1.0
    feed_samples = 64

    def danger(self, k: Knowledge, card: int, model: OpponentModel | None) -> float:
        if model is None or k.view.phase != "discard":
            return super().danger(k, card, model)
        sharpness = self.belief_sharpness(k)
        rng = random.Random(f"{self.seed}/feed/{k.turn}/{k.hand}/{k.top}")
        total, count = 0.0, 0
        for opp, stock in model.deals(rng, self.feed_samples, sharpness):
            count += 1
            if stock and joins_meld(card, opp):
                drawn, _ = best_discard_mask(opp | 1 << stock[0])
                took, _ = greedy_discard(opp | 1 << card, card)
                total += max(0, drawn - took)
        return total / max(1, count) * self.feed_weight / self.danger_weight


BASES: dict[str, tuple[type[MasterPlayer], dict[str, object]]] = {
    # master as it was for these runs: the expert's discards (no two-draw search)
    "base": (MasterPlayer, {"discard_search": False}),
    "greedy": (DiscardSearchMaster, {}),
    "ranked": (
        DiscardSearchMaster,
        {"ranked": True, "discard_samples": 24, "discard_candidates": 3},
    ),
    "feed": (FeedCostMaster, {"discard_search": False}),
}


def register(spec: str) -> str:
    """Register the level ``master-<spec>`` for a spec like ``ranked:care=2;both=1``."""
    name, _, extra = spec.partition(":")
    cls, attrs = BASES[name]
    attrs = dict(attrs)
    for item in filter(None, extra.split(";")):
        key, _, value = item.partition("=")
        default = getattr(cls, key)
        attrs[key] = value in ("1", "true") if isinstance(default, bool) else type(default)(value)
    level = f"master-{spec}"
    LEVELS[level] = type(f"Variant_{len(LEVELS)}", (cls,), {"level": level, **attrs})
    return level


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", default="r1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--variants", default="base/greedy")
    args = parser.parse_args()
    levels = {spec: register(spec) for spec in args.variants.split("/")}
    rules = ginrummy.Rules.preset(args.preset)
    compare(levels, "expert", rules, args.seed, args.deals, args.workers)
    print(f"seed {args.seed}, {args.deals} deal pairs, {args.preset}")


if __name__ == "__main__":
    main()
