"""What one seat may see: the only door through which state reaches a player.

A :class:`PlayerView` holds the seat's own hand, the discard pile in order, the cards the
opponent is known to hold (taken from the pile and not yet discarded), the stock size, the
scores, whose turn it is, the legal actions (for the seat to act) and the public history:
which pile every draw came from, a stock card's identity only for its drawer. A spectator
(``seat=None``) sees only public information. When the hand is over the result reveals both
hands. No view holds the stock order or a hidden opponent card.

>>> from ginrummy import Rules, deal, shuffled_deck
>>> state = deal(Rules.preset("tournament"), 0, shuffled_deck("doc"))
>>> v = state.view(1)
>>> len(v.hand), v.stock_size, v.legal_actions
(10, 31, ('take', 'pass'))
>>> state.view(None).hand
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import DECK, Card, cards_tuple
from .engine.game import GameOutcome, GameState
from .engine.hand import _PUBLIC_0, _PUBLIC_1, _PUBLIC_NONE, Event, HandState, PastHand, Phase
from .engine.result import HandResult
from .melds import Arrangement, arrange_mask
from .rules import Rules


class PlayerView(NamedTuple):
    """One seat's view of a hand (``seat is None``: a spectator's).

    An immutable record (a named tuple: built once per decision, so it is cheap to make).
    """

    seat: int | None
    phase: str
    to_act: int | None
    dealer: int
    hand: tuple[Card, ...]
    """The seat's own cards in card order (empty for a spectator)."""
    hand_sizes: tuple[int, int]
    discard_pile: tuple[Card, ...]
    """Bottom first; the last card is the top."""
    stock_size: int
    known_cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Per seat: cards taken from the pile (or as upcard) and still held. Public."""
    upcard: Card
    """The hand's first upcard."""
    taken_from_pile: Card | None
    """The card the seat to act took from the pile this turn (it may not be discarded)."""
    knock_limit: int
    multiplier: int
    is_last_turn: bool
    legal_actions: tuple[str, ...]
    """The legal actions if this seat is to act, else empty."""
    history: tuple[Event, ...]
    """Every action; a stock draw's card only when this seat drew it."""
    rules: Rules
    points: tuple[int, int]
    """Game hand points before this hand."""
    hands_won: tuple[int, int]
    hand_number: int
    result: HandResult | None
    """Once the hand is over: the result, with both hands revealed."""
    past_hands: tuple[PastHand, ...] = ()
    """The game's finished hands, all their cards revealed (public once each hand is over):
    what a player learns its opponent's style from. Not in :meth:`to_dict` (a server
    serves past hands' records on their own)."""

    @property
    def opponent(self) -> int | None:
        """The other seat (``None`` for a spectator)."""
        return None if self.seat is None else 1 - self.seat

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        """Cards the opponent is known to hold (empty for a spectator)."""
        return () if self.seat is None else self.known_cards[1 - self.seat]

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.result is not None

    def arrangement(self) -> Arrangement:
        """The deadwood-minimal arrangement of this seat's hand."""
        mask = 0
        for c in self.hand:
            mask |= 1 << c
        return arrange_mask(mask)

    def to_dict(self, history: bool = True) -> dict[str, Any]:
        """Plain JSON-able form (without ``history`` when ``history`` is False: a caller that
        encodes the history itself, a piece at a time)."""
        out = {
            "seat": self.seat,
            "phase": self.phase,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "discard_pile": [str(c) for c in self.discard_pile],
            "stock_size": self.stock_size,
            "known_cards": [[str(c) for c in k] for k in self.known_cards],
            "upcard": str(self.upcard),
            "taken_from_pile": None if self.taken_from_pile is None else str(self.taken_from_pile),
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "is_last_turn": self.is_last_turn,
            "legal_actions": list(self.legal_actions),
            "history": [event_dict(e) for e in self.history] if history else None,
            "rules": self.rules.to_dict(),
            "points": list(self.points),
            "hands_won": list(self.hands_won),
            "hand_number": self.hand_number,
            "result": None if self.result is None else self.result.to_dict(),
        }
        if not history:
            del out["history"]
        return out


_PHASE_TEXT = {phase: phase.value for phase in Phase}
_HISTORY_SLOT = {0: _PUBLIC_0, 1: _PUBLIC_1, None: _PUBLIC_NONE}


def view_of(state: HandState, seat: int | None) -> PlayerView:
    """The view of ``state`` for ``seat`` (0, 1, or ``None`` for a spectator)."""
    if seat not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    # This module is the one door from the state to the players, so it reads the state's
    # fields directly: a view is made for every decision, and the public properties would
    # cost a call each. It is built as a plain tuple in field order, which skips the named
    # tuple's keyword constructor (a test checks the field order and each field's value).
    fixed = state._fixed
    ctx = fixed.context
    to_act = state._to_act
    h0, h1 = state._hands
    k0, k1 = state._known
    taken = state._taken
    # the history's cached event tuple for this audience (never empty once there is one)
    slot = _HISTORY_SLOT[seat]
    node = state._history
    history = () if node is None else node[slot] or state._events(slot)
    return _new_view(
        PlayerView,
        (
            seat,
            _PHASE_TEXT[state._phase],
            to_act,
            fixed.dealer,
            () if seat is None else cards_tuple(h1 if seat else h0),
            (h0.bit_count(), h1.bit_count()),
            state._pile,
            len(fixed.stock) - state._stock_pos,
            (cards_tuple(k0) if k0 else (), cards_tuple(k1) if k1 else ()),
            fixed.upcard,
            None if taken < 0 else DECK[taken],
            fixed.knock_limit,
            fixed.multiplier,
            state._last_turn,
            state._legal_tuple() if seat is not None and seat == to_act else (),
            history,
            fixed.rules,
            ctx.points,
            ctx.hands_won,
            ctx.hand_number,
            state._result,
            ctx.past,
        ),
    )


_new_view = tuple.__new__


def event_dict(event: Event) -> dict[str, Any]:
    """One history event as plain JSON-able data."""
    return {
        "seat": event.seat,
        "action": event.action,
        "card": None if event.card is None else str(event.card),
    }


@dataclass(frozen=True, slots=True)
class GameView:
    """One seat's view of a whole game: the scores, past results and the current hand."""

    seat: int | None
    rules: Rules
    points: tuple[int, int]
    hands_won: tuple[int, int]
    hand_number: int
    next_dealer: int
    is_over: bool
    outcome: GameOutcome | None
    results: tuple[HandResult, ...]
    hand: PlayerView | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "points": list(self.points),
            "hands_won": list(self.hands_won),
            "hand_number": self.hand_number,
            "next_dealer": self.next_dealer,
            "is_over": self.is_over,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "hand": None if self.hand is None else self.hand.to_dict(),
        }


def game_view_of(game: GameState, seat: int | None) -> GameView:
    """The view of a whole game for ``seat``."""
    if seat not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    hand = game.hand
    return GameView(
        seat=seat,
        rules=game.rules,
        points=game.points,
        hands_won=game.hands_won,
        hand_number=game.hand_number,
        next_dealer=game.next_dealer,
        is_over=game.is_over,
        outcome=game.outcome,
        results=game.results,
        hand=None if hand is None else view_of(hand, seat),
    )
