"""The simple levels: ``baseline`` (the research baseline) and ``easy``."""

from __future__ import annotations

from ..actions import DISCARD_TEXT
from ..cards import POINTS, cards_of
from ..melds import best_discard_mask, deadwood_mask, melded_mask
from ..views import PlayerView
from .base import (
    Player,
    can_end,
    discard_options,
    end_action,
    ending_options,
    least_deadwood_discard,
)
from .knowledge import RANK_MASK, Knowledge, joins_meld


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
        # knock (or gin) with the least deadwood when some discard allows it
        if can_end(view):
            card, best = least_deadwood_discard(ending_options(k, view))
            if best <= k.knock_limit:
                return end_action(card, best, knock=True, limit=k.knock_limit)
        # the highest-point card outside the melds of the best arrangement
        legal = k.hand & ~(1 << k.taken) if k.taken >= 0 else k.hand
        pool = legal & ~melded_mask(k.hand) or legal
        ranks = (pool | pool >> 13 | pool >> 26 | pool >> 39) & 0x1FFF
        top = ranks.bit_length() - 1  # the highest rank; ten to king all count 10 points
        top_ranks = _TEN_POINT_RANKS if POINTS[top] == 10 else 1 << top
        card = self.rng.choice(cards_of(pool & top_ranks * RANK_MASK))
        return DISCARD_TEXT[card]


_TEN_POINT_RANKS = sum(1 << r for r in range(13) if POINTS[r] == 10)
"""Bits of the ranks that count 10 points (ten to king)."""
