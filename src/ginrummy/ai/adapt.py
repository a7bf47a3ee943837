"""What a player learns of its opponent's style over the hands of a game.

Every finished hand is public once it is over (:attr:`~ginrummy.views.PlayerView.past_hands`:
as dealt, every action with every card). Replaying the opponent's side of each, this module
counts the moments it could have knocked (after its draw, some discard left no more deadwood
than the knock limit) and what it did then: knocked (or went gin), or played on. That one
trait separates the styles that matter most when deciding to knock: a player that always
knocks at once holds more deadwood than the limit whenever it has discarded without
knocking; one that plays on for gin (or sits low to undercut) leaves time to play on against
it. Its deadwood when the other seat ends the hand is counted too (meant to tell a player
that sits low to undercut from one that chases gin; against a master that ends hands late
it does not, docs/ai.md). :class:`~.master.MasterPlayer` uses the knock rate (``adapt``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import POINTS, parse_card
from ..melds import best_discard_mask

_ENDING = ("knock", "gin")
_DISCARDS = ("discard", "knock", "gin")


@dataclass(frozen=True, slots=True)
class OpponentStyle:
    """The opponent's knocking, counted over the game's finished hands."""

    hands: int = 0
    """Finished hands seen."""
    chances: int = 0
    """Its discards at which it could have knocked (or gone gin)."""
    ended: int = 0
    """Of those, how many it ended the hand at (knock or gin)."""
    defended: int = 0
    """Hands the other seat ended (knock or gin) with it defending."""
    defended_deadwood: int = 0
    """Its deadwood at the end of those, summed (after its lay-offs): low for a player that
    sits low to undercut, high for one that chases gin."""

    @property
    def defending_deadwood(self) -> float | None:
        """Its mean deadwood when the other seat ended the hand (None: never seen)."""
        return None if not self.defended else self.defended_deadwood / self.defended

    @property
    def knock_rate(self) -> float:
        """How often it knocks when it can: the mean of a Beta(1, 1) prior updated by the
        counts (one half with nothing seen)."""
        return (self.ended + 1) / (self.chances + 2)


def _limit(rules: Any, upcard: int) -> int:
    """The knock limit of a hand with ``upcard`` (Oklahoma: the upcard's points, an ace
    gin only), as the engine sets it."""
    if not rules.oklahoma:
        return int(rules.knock_limit)
    rank = upcard % 13
    return 0 if rank == 0 else POINTS[rank]


class Chance(NamedTuple):
    """A moment a seat could have knocked (or gone gin): after its draw, some discard left
    no more deadwood than the knock limit."""

    turn: int
    """Its discard of the hand (1: its first)."""
    deadwood: int
    """The least deadwood a discard left."""
    ended: bool
    """Whether it ended the hand there (knock or gin)."""


def chances_in(hand: Any, seat: int, rules: Any) -> Iterator[Chance]:
    """``seat``'s chances to knock in the finished hand ``hand``
    (:class:`~ginrummy.engine.hand.PastHand`), in order."""
    limit = _limit(rules, int(hand.upcard))
    held = 0
    for card in hand.dealt[seat]:
        held |= 1 << int(card)
    turn = 0
    for event in hand.history:
        if event.seat != seat:
            continue
        kind, _, named = event.action.partition(" ")
        if event.card is not None:  # a draw: take, pile or stock
            held |= 1 << int(event.card)
        elif kind in _DISCARDS:
            turn += 1
            if held.bit_count() == 11:
                least, _ = best_discard_mask(held)
                if least <= limit:
                    yield Chance(turn, least, kind in _ENDING)
            held &= ~(1 << _card(named))


def style_of_hands(past: tuple[Any, ...], seat: int, rules: Any) -> OpponentStyle:
    """The style of ``seat`` over the finished hands ``past``
    (:class:`~ginrummy.engine.hand.PastHand`)."""
    chances = ended = defended = defended_deadwood = 0
    for hand in past:
        result = hand.result
        if result.knocker is not None and result.knocker != seat:
            defended += 1
            defended_deadwood += int(result.deadwood[seat])
        for chance in chances_in(hand, seat, rules):
            chances += 1
            ended += chance.ended
    return OpponentStyle(len(past), chances, ended, defended, defended_deadwood)


def _card(text: str) -> int:
    return int(parse_card(text))


_CACHE: OrderedDict[tuple[int, int], tuple[Any, OpponentStyle]] = OrderedDict()
"""Styles by (id of the past-hands tuple, seat); the tuple is kept with its entry, so its
id stays its own. Every view of a hand shares one tuple: each hand is replayed once."""


def opponent_style(view: Any) -> OpponentStyle:
    """The style of ``view``'s opponent over the game's finished hands (cached)."""
    past = view.past_hands
    seat = 1 - view.seat
    if not past:
        return OpponentStyle()
    key = (id(past), seat)
    found = _CACHE.get(key)
    if found is not None and found[0] is past:
        return found[1]
    style = style_of_hands(past, seat, view.rules)
    _CACHE[key] = (past, style)
    while len(_CACHE) > 64:
        _CACHE.popitem(last=False)
    return style
