"""Variants of master's discards and draws, measured in play against master as shipped.

Master's two-draw discard search counts a hand able to knock ``discard_knock_bonus`` points
less and gin ``gin_bonus`` less again (docs/ai.md, "Discards that value gin"); master before
2026-12-05 is the variant ``gin_bonus=0,discard_knock_bonus=10``. This script adds two
variants that count gin in the expert's estimates too, which master does not:

* ``ranking=1``: the expert's one-draw ranking, which picks the two-draw search's
  candidates, counts the gin bonus;
* ``pile=1``: the pile's edge over the stock (the expert's estimate that decides a draw, or
  whether to search it) counts it.

    python bench/discard_variants.py master-2026-11 gin_bonus=0,discard_knock_bonus=10 \\
        ranking=1,pile=1 --deals 2000

Any other ``ATTR=VALUE`` sets master's attributes (as ``bench/knock_playouts.py play``), and
the other variants are those of ``bench/knocker_signals.py play``; each is paired per deal
with master on the same duplicate deals.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import knock_playouts
import knocker_signals
from ginrummy.ai import TEST_LEVELS
from ginrummy.ai.evaluate import OpponentModel, draw_weights, expected_after_draw
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import MasterPlayer
from ginrummy.melds import deadwood_after_discards_mask


class GinEstimates(MasterPlayer):
    """Master counting gin in the expert's estimates too (its ranking, its pile edge)."""

    gin_ranking = False
    gin_pile = False

    def scored_discards(
        self,
        k: Knowledge,
        hand: int,
        cards: Iterable[int],
        draws: list[tuple[int, float]],
        model: OpponentModel | None,
    ) -> list[tuple[float, int]]:
        if not self.gin_ranking:
            return super().scored_discards(k, hand, cards, draws, model)
        scored = []
        for card in cards:
            kept = hand & ~(1 << card)
            score = expected_after_draw(
                kept, draws, k.knock_limit, self.knock_bonus, self.gin_bonus
            ) + self.danger_weight * self.danger(k, card, model)
            scored.append((round(score, 9), -(card % 13), card))
        scored.sort()
        return [(score, card) for score, _, card in scored]

    def pile_edge(
        self, k: Knowledge
    ) -> tuple[float, list[tuple[int, float]], OpponentModel | None]:
        if not self.gin_pile:
            return super().pile_edge(k)
        after = deadwood_after_discards_mask(k.hand | 1 << k.top)
        after.pop(k.top)
        pile_value = float(min(after.values()))
        model = self.model(k)
        draws = draw_weights(k, None if model is None else model.probability)
        gin = self.gin_bonus
        stock_value = expected_after_draw(k.hand, draws, k.knock_limit, self.knock_bonus, gin)
        if pile_value <= k.knock_limit:
            pile_value -= self.knock_bonus + (gin if pile_value == 0 else 0.0)
        return stock_value - self.pile_margin - pile_value, draws, model


OWN = {"ranking": "gin_ranking", "pile": "gin_pile"}
"""This script's variants: ``ranking=1,pile=1`` sets :class:`GinEstimates`' switches."""
SHIPPED = knocker_signals.variant


def variant(name: str, weights: Sequence[float]) -> str:
    """Register the variant ``name`` as a test level; its level name."""
    parts = dict(part.split("=") for part in name.split(",")) if "=" in name else {}
    if parts and set(parts) <= set(OWN):
        level = f"v-{name}"
        attrs = {"level": level, **{OWN[key]: bool(int(v)) for key, v in parts.items()}}
        TEST_LEVELS[level] = type("gin_estimates", (GinEstimates,), attrs)
        return level
    if parts:
        return knock_playouts.attributes_variant(name)
    return SHIPPED(name, weights)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("against")
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--games", type=int, default=0, help="game pairs to 100 instead")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", default="strength-2026")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--weights", default=None)
    args = parser.parse_args()
    knocker_signals.variant = variant
    knocker_signals.play(args)


if __name__ == "__main__":
    main()
