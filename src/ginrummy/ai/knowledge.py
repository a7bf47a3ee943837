"""What a seat knows, read off its view: masks of cards by what is known about them.

Everything here comes from a :class:`~ginrummy.views.PlayerView` and nothing else. The AI
package never sees a hand state: it imports views, cards, melds and rules, not the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import FULL_DECK_MASK, parse_card
from ..rules import Rules
from ..views import PlayerView

RANK_MASK = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""Bits of the four cards of rank 0 (ace); shift left by a rank for the others."""


def same_rank(card: int) -> int:
    """The mask of the other three cards of ``card``'s rank."""
    return (RANK_MASK << (card % 13)) & ~(1 << card)


def suit_neighbours(card: int, reach: int = 1) -> int:
    """Cards of the same suit within ``reach`` ranks of ``card`` (itself excluded)."""
    suit, rank = divmod(card, 13)
    out = 0
    for r in range(max(0, rank - reach), min(12, rank + reach) + 1):
        if r != rank:
            out |= 1 << (suit * 13 + r)
    return out


def meld_partners(card: int) -> int:
    """Cards that can share a meld with ``card``: its rank and its suit within two ranks."""
    return same_rank(card) | suit_neighbours(card, 2)


def joins_meld(card: int, hand: int) -> bool:
    """Whether ``card`` would be part of some meld of ``hand`` plus ``card`` (any meld, not
    only the best arrangement): a set with two others of its rank, or a run of three."""
    if (same_rank(card) & hand).bit_count() >= 2:
        return True
    suit, rank = divmod(card, 13)
    pattern = (hand >> (13 * suit)) & 0x1FFF | 1 << rank
    for start in range(max(0, rank - 2), min(rank, 10) + 1):
        window = 0b111 << start
        if pattern & window == window:
            return True
    return False


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Masks of what a seat knows, from its view.

    * ``hand``: own cards; ``opp_known``: cards the opponent holds that everyone saw it take;
    * ``pile``: the discard pile bottom first; ``top`` its top card (-1 if empty);
    * ``unseen``: cards this seat has never seen (the opponent's hidden cards and the stock);
    * ``opp_hidden``: how many of the opponent's cards are hidden;
    * ``opp_took``, ``opp_discarded``, ``opp_declined``: cards the opponent took from the pile,
      discarded, or declined on top of the pile (passed or drew the stock instead);
    * ``my_pairs``: this seat's (drawn, discarded) card pairs this hand, in order.
    """

    seat: int
    hand: int
    opp_known: int
    pile: tuple[int, ...]
    top: int
    unseen: int
    opp_hidden: int
    opp_took: int
    opp_discarded: int
    opp_declined: int
    my_pairs: tuple[tuple[int, int], ...]
    my_last_draw: int
    taken: int
    stock_size: int
    knock_limit: int
    rules: Rules
    turn: int
    """How many draws have happened this hand."""
    multiplier: int
    """2 when Oklahoma's spade upcard doubles this hand, else 1."""
    my_points: int
    """Game hand points before this hand, own and the opponent's."""
    opp_points: int

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Read a seat's knowledge off its view."""
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator's view has no hand to play")
        opp = 1 - seat
        hand = 0
        for c in view.hand:
            hand |= 1 << c
        pile_cards = tuple(int(c) for c in view.discard_pile)
        pile_mask = 0
        for p in pile_cards:
            pile_mask |= 1 << p
        opp_known = 0
        for c in view.known_cards[opp]:
            opp_known |= 1 << c
        # replay the public history for what the opponent took, discarded and declined
        pile: list[int] = [int(view.upcard)]
        took = discarded = declined = 0
        pairs: list[tuple[int, int]] = []
        last_draw = -1
        turn = 0
        seen = hand | pile_mask | opp_known | 1 << int(view.upcard)
        for e in view.history:
            action = e.action
            word = action.split(" ", 1)[0]
            if word in ("take", "pile"):
                card = pile.pop()
                turn += 1
                if e.seat == opp:
                    took |= 1 << card
                else:
                    last_draw = card
            elif word == "pass" or word == "stock":
                if word == "stock":
                    turn += 1
                    if e.seat == seat and e.card is not None:
                        last_draw = int(e.card)
                        seen |= 1 << last_draw
                if e.seat == opp and pile:
                    declined |= 1 << pile[-1]
            elif word in ("discard", "knock", "gin"):
                card = _card_index(action.split(" ", 1)[1])
                pile.append(card)
                seen |= 1 << card
                if e.seat == opp:
                    discarded |= 1 << card
                elif last_draw >= 0:
                    pairs.append((last_draw, card))
        unseen = FULL_DECK_MASK & ~seen
        opp_hidden = view.hand_sizes[opp] - opp_known.bit_count()
        taken = -1 if view.taken_from_pile is None else int(view.taken_from_pile)
        return cls(
            seat=seat,
            hand=hand,
            opp_known=opp_known,
            pile=pile_cards,
            top=pile_cards[-1] if pile_cards else -1,
            unseen=unseen,
            opp_hidden=opp_hidden,
            opp_took=took,
            opp_discarded=discarded,
            opp_declined=declined,
            my_pairs=tuple(pairs),
            my_last_draw=last_draw,
            taken=taken,
            stock_size=view.stock_size,
            knock_limit=view.knock_limit,
            rules=view.rules,
            turn=turn,
            multiplier=view.multiplier,
            my_points=view.points[seat],
            opp_points=view.points[opp],
        )


def _card_index(text: str) -> int:
    return int(parse_card(text))
