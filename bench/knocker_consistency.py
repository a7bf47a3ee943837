"""A knocker told by the chances it did not take: does the hand's own history tell?

A player that knocks at once never discards with a knock open to it. At each of its chances
to knock, this variant of master deals :data:`~ginrummy.ai.master.OPPOSING_HANDS` plausible
opposing hands from its opponent model and walks each back through the opponent's turns this
hand (its hand before each discard: the hand after it and the card thrown; before each draw:
less the card taken from the pile, or a card drawn from the stock, picked at random among
those it may have drawn). A turn where that hand could have knocked is evidence against a
knocker (likelihood ``eps`` for a knocker, ``q`` for a player that plays on as the masters
do); the chance of a knocker is the prior updated by the mean likelihoods, and the learned
edge mixes the two knocks by it (``bench/knocker_signals.py``'s ``Blended``). A finished
hand of the game where the opponent played on at a chance makes it 0.

    python bench/knocker_consistency.py baseline c:0.4:0.75:0.05 --deals 200 --seed diag-c \
        --chances chances-baseline.txt

Variants ``c:PRIOR:Q:EPS``; ``--chances`` writes the chance at every knock chance met (one
file per worker process, the pid appended) for the diagnostic. The figures are in docs/ai.md
("Other models of the knock, and a knocker told by its missed chances").
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Sequence

import knocker_signals  # a sibling script: bench/ is on the path when this one runs
from ginrummy.actions import DISCARD, PILE, STOCK, TAKE, parse_action
from ginrummy.ai import TEST_LEVELS
from ginrummy.ai.adapt import opponent_style
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import OPPOSING_HANDS
from ginrummy.melds import best_discard_mask
from ginrummy.views import PlayerView

CHANCES = ""
"""Where to write each chance computed (``--chances``; empty: nowhere)."""


def opponent_turns(view: PlayerView) -> list[tuple[int, int]]:
    """The opponent's turns this hand that ended in a discard: (the card it took from the
    pile, or -1 for a stock draw or none, the card it threw)."""
    turns = []
    drawn = -1
    for event in view.history:
        if event.seat == view.seat:
            continue
        action = parse_action(event.action)
        if action.kind in (TAKE, PILE) and event.card is not None:
            drawn = int(event.card)
        elif action.kind == STOCK:
            drawn = -1
        elif action.kind == DISCARD and action.card is not None:
            turns.append((drawn, int(action.card)))
            drawn = -1
    return turns


class Consistent(knocker_signals.Blended):
    """Master mixing the two learned knocks by the chance the opponent's missed chances to
    knock this hand give (the module's docstring)."""

    level = "v-consistent"
    prior = 0.4
    q = 0.75
    """How often a player that does not knock at once plays on at a chance."""
    eps = 0.05
    """How often a knocker plays on at a chance (its discard rule may miss a knock)."""

    def knocker_chance(self, k: Knowledge) -> float:
        style = opponent_style(k.view)
        if style.chances > style.ended:  # a finished hand showed it playing on at a chance
            return 0.0
        turns = opponent_turns(k.view)
        if not turns:
            return self.prior
        model = self.model(k)
        assert model is not None
        rng = random.Random(f"{self.seed}/consistent/{k.turn}/{k.hand}")
        hands = model.deals(rng, OPPOSING_HANDS, self.belief_sharpness(k))
        taken_at = {drawn: i for i, (drawn, _) in enumerate(turns) if drawn >= 0}
        knocker = other = 0.0
        for opp, _ in hands:
            hand = opp
            a = b = 1.0
            for i in range(len(turns) - 1, -1, -1):
                drawn, thrown = turns[i]
                before = hand | 1 << thrown
                least, _ = best_discard_mask(before)
                if least <= k.knock_limit:
                    a *= self.eps
                    b *= self.q
                if drawn >= 0:
                    hand = before & ~(1 << drawn)
                    continue
                # a stock draw: any card it held then that it did not take from the pile
                # earlier in the hand
                cards = [c for c in range(52) if before >> c & 1 and taken_at.get(c, 99) >= i]
                if not cards:
                    break
                hand = before & ~(1 << rng.choice(cards))
            knocker += a
            other += b
        chance = self.prior * knocker / (self.prior * knocker + (1 - self.prior) * other)
        if CHANCES:
            with open(f"{CHANCES}.{os.getpid()}", "a", encoding="utf-8") as f:
                f.write(f"{len(turns)} {chance:.4f}\n")
        return chance


def variant(name: str, weights: Sequence[float]) -> str:
    """``c:PRIOR:Q:EPS`` registered as a test level, or any of ``knocker_signals``'s."""
    if not name.startswith("c:"):
        return knocker_signals.variant(name, weights)
    _, prior, q, eps = name.split(":")
    level = "v-" + name.replace(":", "-")
    attrs = {"level": level, "prior": float(prior), "q": float(q), "eps": float(eps)}
    TEST_LEVELS[level] = type(name, (Consistent,), attrs)
    return level


def main() -> None:
    global CHANCES
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    knocker_signals.add_play_arguments(parser, deals=1000)
    parser.add_argument("--chances", default="", help="write every chance here (per process)")
    args = parser.parse_args()
    CHANCES = args.chances
    knocker_signals.play(args, variant)


if __name__ == "__main__":
    main()
