"""What a seat knows, read off its view: masks of cards by what is known about them.

Everything here comes from a :class:`~ginrummy.views.PlayerView` and nothing else. The AI
package never sees a hand state: it imports views, cards, melds and rules, not the engine.
"""

from __future__ import annotations

from functools import cached_property
from typing import Final

from ..cards import FULL_DECK_MASK, parse_card
from ..melds import RUN_MELDED
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


def joins_meld(card: int, hand: int, _runs: list[int] = RUN_MELDED) -> bool:
    """Whether ``card`` would be part of some meld of ``hand`` plus ``card`` (any meld, not
    only the best arrangement): a set with two others of its rank, or a run of three."""
    if ((RANK_MASK << (card % 13)) & hand & ~(1 << card)).bit_count() >= 2:
        return True
    suit, rank = divmod(card, 13)
    # a run of three through the card: its block of consecutive ranks is three or longer
    return bool(_runs[(hand >> (13 * suit)) & 0x1FFF | 1 << rank] >> rank & 1)


def meld_outs(hand: int) -> int:
    """The mask of every card ``c`` outside ``hand`` with ``joins_meld(c, hand)``: a third of
    a rank ``hand`` holds two of, or a card with two neighbours of its suit in ``hand`` that
    would make a run of three with it (all found with a few mask operations)."""
    a = hand & 0x1FFF
    b = (hand >> 13) & 0x1FFF
    c = (hand >> 26) & 0x1FFF
    d = hand >> 39
    pairs = (a & (b | c | d)) | (b & (c | d)) | (c & d)
    outs = pairs | pairs << 13 | pairs << 26 | pairs << 39
    for shift, s in ((0, a), (13, b), (26, c), (39, d)):
        lo, hi = s << 1, s >> 1  # bit x: x - 1 held; x + 1 held
        outs |= ((lo & (lo << 1) | lo & hi | hi & (hi >> 1)) & 0x1FFF) << shift
    return outs & ~hand


_BIT: Final = tuple(1 << c for c in range(52))
_INT: Final = tuple(range(52))
"""Per card: its bit, and its plain ``int`` (cheaper than calls to ``int``)."""


class Knowledge:
    """Masks of what a seat knows, from its view.

    * ``hand``: own cards; ``opp_known``: cards the opponent holds that everyone saw it take;
    * ``pile``: the discard pile bottom first; ``top`` its top card (-1 if empty);
    * ``unseen``: cards this seat has never seen (the opponent's hidden cards and the stock);
    * ``opp_hidden``: how many of the opponent's cards are hidden;
    * ``taken``: the card this seat took from the pile this turn (-1 if none).

    Read from the public history on first use (most decisions of the simple levels never
    need them): ``opp_took``, ``opp_discarded``, ``opp_declined`` (cards the opponent took
    from the pile, discarded, or left on top of the pile), ``my_pairs`` (this seat's (drawn,
    discarded) pairs this hand), ``my_last_draw`` and ``turn`` (draws so far this hand).
    """

    def __init__(self, view: PlayerView, _bit: tuple[int, ...] = _BIT) -> None:
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator's view has no hand to play")
        self.view = view
        self.seat = seat
        hand = 0
        for c in view.hand:
            hand |= _bit[c]
        self.hand = hand
        pile = view.discard_pile
        self.top = _INT[pile[-1]] if pile else -1
        taken = view.taken_from_pile
        self.taken = -1 if taken is None else _INT[taken]
        self.knock_limit = view.knock_limit

    _facts: tuple[int, int, int, tuple[tuple[int, int], ...], int, int] | None = None

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return self.view.stock_size

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.view.rules

    @property
    def multiplier(self) -> int:
        """2 when Oklahoma's spade upcard doubles this hand's score, else 1."""
        return self.view.multiplier

    @property
    def my_points(self) -> int:
        """This seat's game points before this hand."""
        return self.view.points[self.seat]

    @property
    def opp_points(self) -> int:
        """The opponent's game points before this hand."""
        return self.view.points[1 - self.seat]

    @cached_property
    def pile(self) -> tuple[int, ...]:
        """The discard pile, bottom first."""
        return tuple(int(c) for c in self.view.discard_pile)

    @cached_property
    def opp_known(self) -> int:
        """Cards the opponent holds that everyone saw it take."""
        known = 0
        for c in self.view.known_cards[1 - self.seat]:
            known |= 1 << c
        return known

    @cached_property
    def unseen(self) -> int:
        """Cards this seat has never seen: the opponent's hidden cards and the stock."""
        pile_mask = 0
        for p in self.pile:
            pile_mask |= 1 << p
        # every card ever face up is now in the pile, in a hand, or known in the opponent's
        return FULL_DECK_MASK & ~(self.hand | pile_mask | self.opp_known)

    @cached_property
    def opp_hidden(self) -> int:
        """How many of the opponent's cards are hidden."""
        return self.view.hand_sizes[1 - self.seat] - self.opp_known.bit_count()

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Read a seat's knowledge off its view."""
        return cls(view)

    def _history_facts(self) -> tuple[int, int, int, tuple[tuple[int, int], ...], int, int]:
        if self._facts is not None:
            return self._facts
        seat, opp = self.seat, 1 - self.seat
        pile: list[int] = [int(self.view.upcard)]
        took = discarded = declined = 0
        pairs: list[tuple[int, int]] = []
        last_draw = -1
        turn = 0
        for e in self.view.history:
            word, _, rest = e.action.partition(" ")
            if word == "take" or word == "pile":
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
                if e.seat == opp and pile:
                    declined |= 1 << pile[-1]
            elif rest:  # discard, knock, gin
                card = int(parse_card(rest))
                pile.append(card)
                if e.seat == opp:
                    discarded |= 1 << card
                elif last_draw >= 0:
                    pairs.append((last_draw, card))
        self._facts = (took, discarded, declined, tuple(pairs), last_draw, turn)
        return self._facts

    @property
    def opp_took(self) -> int:
        """Cards the opponent took from the pile (or as the upcard) this hand."""
        return self._history_facts()[0]

    @property
    def opp_discarded(self) -> int:
        """Cards the opponent discarded this hand."""
        return self._history_facts()[1]

    @property
    def opp_declined(self) -> int:
        """Cards the opponent left on top of the pile (passed, or drew the stock instead)."""
        return self._history_facts()[2]

    @property
    def my_pairs(self) -> tuple[tuple[int, int], ...]:
        """This seat's (drawn card, discarded card) pairs this hand, in order."""
        return self._history_facts()[3]

    @property
    def my_last_draw(self) -> int:
        """The card this seat drew last (-1 before its first draw)."""
        return self._history_facts()[4]

    @property
    def turn(self) -> int:
        """How many draws have happened this hand."""
        return self._history_facts()[5]
