"""The simple levels: ``baseline`` (the research baseline) and ``easy``."""

from __future__ import annotations

from ..actions import DISCARD_TEXT
from ..cards import POINTS, cards_of
from ..melds import best_discard_mask, deadwood_mask, melded_mask
from ..views import PlayerView
from .base import Player, discard_options, end_action, least_deadwood_discard
from .knowledge import Knowledge, joins_meld


class BaselinePlayer(Player):
    """Todd Neller's SimpleGinRummyPlayer, rebuilt from its documented policy.

    * Draw: takes the face-up card only if it would be part of a meld (any meld of the hand
      with it); otherwise draws from the stock.
    * Discard: at random among the cards whose discard leaves the least deadwood, never the
      face-up card just taken, and never repeating a (drawn card, discarded card) pair it has
      already played this hand (so it does not undo its own draw over and over).
    * Knocks at the first chance: whenever the discard leaves 10 or less (gin at 0).
    """

    level = "baseline"

    def wants_pile(self, k: Knowledge, view: PlayerView) -> bool:
        return k.top >= 0 and joins_meld(k.top, k.hand)

    def discard(self, k: Knowledge, view: PlayerView) -> str:
        options = discard_options(k)
        used = {frozenset(pair) for pair in k.my_pairs}
        drawn = k.my_last_draw
        allowed = {c: dw for c, dw in options.items() if frozenset((drawn, c)) not in used}
        if not allowed:
            allowed = options
        best = min(allowed.values())
        candidates = sorted(c for c, dw in allowed.items() if dw == best)
        card = self.rng.choice(candidates)
        return end_action(card, best, knock=True, limit=k.knock_limit)


class EasyPlayer(Player):
    """Keeps completed melds, discards its highest deadwood card, knocks as soon as it may.

    Draws the face-up card when it completes a meld (lowers the deadwood it can keep).
    """

    level = "easy"

    def wants_pile(self, k: Knowledge, view: PlayerView) -> bool:
        if k.top < 0 or not joins_meld(k.top, k.hand):
            return False
        with_top, _ = best_discard_mask(k.hand | 1 << k.top)
        return with_top < deadwood_mask(k.hand)

    def discard(self, k: Knowledge, view: PlayerView) -> str:
        best, _ = best_discard_mask(k.hand)
        if best <= k.knock_limit:  # knock (or gin) with the least deadwood
            card, best = least_deadwood_discard(discard_options(k))
            if best <= k.knock_limit:
                return end_action(card, best, knock=True, limit=k.knock_limit)
        # the highest-point card outside the melds of the best arrangement
        legal = k.hand & ~(1 << k.taken) if k.taken >= 0 else k.hand
        dead = legal & ~melded_mask(k.hand)
        pool = [int(c) for c in cards_of(dead or legal)]
        top_points = max(POINTS[c % 13] for c in pool)
        card = self.rng.choice([c for c in pool if POINTS[c % 13] == top_points])
        return DISCARD_TEXT[card]
