"""Fast playouts of the rest of a hand on card masks, for search.

A determinization (the opponent's hand and the stock order, sampled from beliefs) is played
to the end with a quick greedy policy on both sides (the research baseline's): draw the pile
card when it joins a meld, discard the card leaving the least deadwood, knock as soon as
possible (Big Gin is not looked for). The result is the hand's points from the searcher's
side. Pure functions on masks; no engine objects, so thousands of playouts fit in a
decision's time budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..melds import best_discard_mask, deadwood_after_discards_mask, knock_deadwoods_mask
from .knowledge import joins_meld


@dataclass(frozen=True, slots=True)
class Scoring:
    """The numbers a playout needs from the rules."""

    limit: int
    gin_bonus: int
    undercut_bonus: int
    big_gin_bonus: int | None
    multiplier: int = 1


def score_knock(knocker: int, defender: int, sc: Scoring) -> int:
    """Points for the knocker (negative: the defender scores) of a knock keeping ``knocker``."""
    dk, dd = knock_deadwoods_mask(knocker, defender)
    if dk == 0:
        return (dd + sc.gin_bonus) * sc.multiplier
    if dk < dd:
        return (dd - dk) * sc.multiplier
    return -(dk - dd + sc.undercut_bonus) * sc.multiplier


def greedy_discard(hand: int, taken: int) -> tuple[int, int]:
    """``(deadwood, card)``: the discard leaving least deadwood, never the card ``taken``."""
    dw, card = best_discard_mask(hand)
    if card != taken:
        return dw, card
    after = deadwood_after_discards_mask(hand)
    del after[taken]
    card = min(after, key=lambda c: (after[c], -(c % 13), c))
    return after[card], card


def playout(
    hands: tuple[int, int],
    stock: Sequence[int],
    top: int,
    to_move: int,
    sc: Scoring,
    max_turns: int = 60,
    knock_at: tuple[int, int] | None = None,
) -> int:
    """Play the rest of a hand from a draw by seat ``to_move``; points for seat 0.

    ``hands`` are ten-card masks, ``stock`` the stock top first, ``top`` the pile's top card
    (-1 if empty). Greedy policy for both seats; the hand is void when a stock draw leaves two
    cards and the drawer cannot knock. ``knock_at``: per seat, the most deadwood it knocks
    with (default: the knock limit; 0: it plays for gin).
    """
    limits = (sc.limit, sc.limit) if knock_at is None else knock_at
    h = [hands[0], hands[1]]
    pos = 0
    n = len(stock)
    seat = to_move
    for _ in range(max_turns):
        hand = h[seat]
        taken = -1
        if top >= 0 and joins_meld(top, hand):
            taken = top
        if taken >= 0:
            hand |= 1 << taken
        else:
            if n - pos <= 2:
                return 0
            hand |= 1 << stock[pos]
            pos += 1
        dw, card = greedy_discard(hand, taken)
        hand &= ~(1 << card)
        if dw <= limits[seat]:
            points = score_knock(hand, h[1 - seat], sc)
            return points if seat == 0 else -points
        if n - pos <= 2:
            return 0
        h[seat] = hand
        top = card
        seat = 1 - seat
    return 0
