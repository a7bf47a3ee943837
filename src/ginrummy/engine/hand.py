"""One hand of Gin Rummy as an immutable state machine.

Phases (:class:`Phase`) and their legal actions:

===================  =============  =====================================================
phase                who acts       legal actions
===================  =============  =====================================================
``upcard-offer``     non-dealer     ``take``, ``pass``
``upcard-dealer``    dealer         ``take``, ``pass``
``first-draw``       non-dealer     ``stock`` (both passed: the upcard may not be drawn)
``draw``             player         ``stock``, ``pile``
``discard``          player         ``discard C``, ``knock C``, ``gin C``, ``big-gin``
``over``             nobody         none; :attr:`HandState.result` is set
===================  =============  =====================================================

:meth:`HandState.apply` returns a new state and leaves the old one as it was; an illegal
action raises :class:`~ginrummy.errors.IllegalActionError` and changes nothing.

Decisions the tournament rules leave open, made here (docs/rules.md records them):

* With zero deadwood after the discard, ending the hand is ``gin``; ``knock`` is refused
  (``action/is-gin``) since gin is better in every way.
* The knock card and a gin card go onto the discard pile.
* A hand may be set up with a stock shorter than 31 cards (the missing cards are out of
  play), to set up endgames; it needs at least three.
* A deal from a 52-card deck gives cards one at a time, non-dealer first: the non-dealer gets
  deck positions 0, 2, ... 18, the dealer 1, 3, ... 19; position 20 is the upcard and 21..51
  the stock, top first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ..actions import (
    ACTIONS,
    BIG_GIN,
    DISCARD,
    DISCARD_TEXT,
    GIN,
    GIN_TEXT,
    KNOCK,
    KNOCK_TEXT,
    PASS,
    PILE,
    STOCK,
    TAKE,
    parse_action,
)
from ..cards import (
    DECK,
    NAMES,
    POINTS,
    Card,
    card_list,
    cards_of,
    cards_tuple,
    mask_of,
)
from ..errors import CardParseError, IllegalActionError, SetupError
from ..melds import (
    best_discard_mask,
    deadwood_after_discards_mask,
    deadwood_floor_mask,
    deadwood_mask,
)
from ..rules import Rules
from .result import HandResult, settle, void_result

if TYPE_CHECKING:
    from ..views import PlayerView


class Phase(StrEnum):
    """Where a hand is."""

    UPCARD_OFFER = "upcard-offer"
    UPCARD_DEALER = "upcard-dealer"
    FIRST_DRAW = "first-draw"
    DRAW = "draw"
    DISCARD = "discard"
    OVER = "over"


class Event(NamedTuple):
    """One action in a hand's history.

    ``card`` is the card that moved on a draw (``take``, ``stock``, ``pile``), else ``None``.
    A stock card is private to its drawer: views hide it from everyone else.
    """

    seat: int
    action: str
    card: Card | None


class PastHand(NamedTuple):
    """A finished hand of the game, as anyone may see it once it is over (its seed, so its
    whole deck, is revealed then): how it was dealt, every action with every card, and the
    result. What a player may learn its opponent's style from."""

    dealer: int
    dealt: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Each seat's ten cards as dealt."""
    upcard: Card
    history: tuple[Event, ...]
    """Every action, a stock draw's card included."""
    result: HandResult


class GameContext(NamedTuple):
    """The game around a hand, for views: scores before this hand, and the hands before it."""

    points: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    hand_number: int = 1
    past: tuple[PastHand, ...] = ()
    """The game's finished hands, oldest first."""


# The history is a linked list of nodes [previous, event, drawer, count, then caches of the
# event tuples for the full history and each audience]: appending is O(1). ``drawer`` is the
# seat of a stock draw (only that seat sees the card), else -1.
_HistoryNode = list[Any] | None
_EVENT, _DRAWER, _COUNT, _FULL, _PUBLIC_0, _PUBLIC_1, _PUBLIC_NONE = 1, 2, 3, 4, 5, 6, 7


def _node(prev: _HistoryNode, event: Event, drawer: int = -1) -> list[Any]:
    return [prev, event, drawer, 1 if prev is None else prev[_COUNT] + 1, None, None, None, None]


# Every event there can be, made once (events are immutable, so hands share them):
# ``_CARD_EVENTS[kind][seat][card]`` for draws (the card moved) and discard, knock, gin (the
# card is in the action text); ``_PLAIN_EVENTS[kind][seat]`` for pass and big-gin.
_CARD_EVENTS: Final = {
    kind: tuple(
        tuple(
            Event(seat, kind, c) if kind in (TAKE, STOCK, PILE) else Event(seat, texts[c], None)
            for c in DECK
        )
        for seat in (0, 1)
    )
    for kind, texts in (
        (TAKE, ()),
        (STOCK, ()),
        (PILE, ()),
        (DISCARD, DISCARD_TEXT),
        (KNOCK, KNOCK_TEXT),
        (GIN, GIN_TEXT),
    )
}
_PLAIN_EVENTS: Final = {
    kind: (Event(0, kind, None), Event(1, kind, None)) for kind in (PASS, BIG_GIN)
}
_HIDDEN_STOCK: Final = (Event(0, STOCK, None), Event(1, STOCK, None))


_NO_CONTEXT = GameContext()
_view_of: Callable[[HandState, int | None], PlayerView] | None = None
_UPCARD_OFFER, _UPCARD_DEALER, _FIRST_DRAW = (
    Phase.UPCARD_OFFER,
    Phase.UPCARD_DEALER,
    Phase.FIRST_DRAW,
)
_DRAW, _DISCARD, _OVER = Phase.DRAW, Phase.DISCARD, Phase.OVER
_OPENING_ACTIONS = (TAKE, PASS)
_FIRST_DRAW_ACTIONS = (STOCK,)
_DRAW_ACTIONS = (STOCK, PILE)
_MOST_POINTS = max(POINTS)
_KIND_CARD: Final = {
    text: (a.kind, -1 if a.card is None else int(a.card)) for text, a in ACTIONS.items()
}
"""Every canonical action text -> ``(kind, card or -1)``."""


class _Fixed:
    """What stays the same for the whole hand (shared by all its states)."""

    __slots__ = ("context", "dealer", "knock_limit", "multiplier", "rules", "stock", "upcard")

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        stock: tuple[int, ...],
        upcard: int,
        context: GameContext,
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.stock = stock
        self.upcard = DECK[upcard]
        self.context = context
        if rules.oklahoma:
            self.knock_limit = 0 if upcard % 13 == 0 else POINTS[upcard % 13]
            self.multiplier = 2 if upcard // 13 == 0 else 1
        else:
            self.knock_limit = rules.knock_limit
            self.multiplier = 1


def _illegal(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(message, code=f"action/{code}")


class HandState:
    """The full state of one hand (hidden cards included). Immutable: ``apply`` returns a new
    state. Give players :meth:`view`, never the state itself."""

    __slots__ = (
        "_discard_info",
        "_fixed",
        "_hands",
        "_history",
        "_known",
        "_last_turn",
        "_legal",
        "_phase",
        "_pile",
        "_result",
        "_stock_pos",
        "_taken",
        "_to_act",
    )

    _fixed: _Fixed
    _phase: Phase
    _to_act: int | None
    _hands: tuple[int, int]
    _pile: tuple[Card, ...]
    _stock_pos: int
    _taken: int
    _known: tuple[int, int]
    _history: _HistoryNode
    _last_turn: bool
    _result: HandResult | None
    _legal: tuple[str, ...] | None
    _discard_info: dict[int, int] | None

    def __init__(self) -> None:
        raise TypeError("make a hand with ginrummy.new_hand() or ginrummy.deal()")

    # --- read-only properties -----------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The ruleset."""
        return self._fixed.rules

    @property
    def dealer(self) -> int:
        """The dealer's seat (0 or 1)."""
        return self._fixed.dealer

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self._phase is _OVER

    @property
    def result(self) -> HandResult | None:
        """The result once the hand is over, else ``None``."""
        return self._result

    @property
    def upcard(self) -> Card:
        """The first upcard of the hand."""
        return self._fixed.upcard

    @property
    def knock_limit(self) -> int:
        """This hand's knock limit (Oklahoma: set by the upcard; 0 means gin only)."""
        return self._fixed.knock_limit

    @property
    def multiplier(self) -> int:
        """2 when Oklahoma's spade upcard doubles this hand's score, else 1."""
        return self._fixed.multiplier

    @property
    def context(self) -> GameContext:
        """Scores of the game around this hand (before it)."""
        return self._fixed.context

    @property
    def history(self) -> tuple[Event, ...]:
        """Every action so far (full information: stock cards included)."""
        return self._events(_FULL)

    def public_history(self, seat: int | None) -> tuple[Event, ...]:
        """The history as ``seat`` may see it (``None``: a spectator): a stock draw's card
        only for its drawer."""
        return self._events(_PUBLIC_0 if seat == 0 else _PUBLIC_1 if seat == 1 else _PUBLIC_NONE)

    def _events(self, slot: int) -> tuple[Event, ...]:
        """Events for one audience, built once per node and extended from the newest node that
        has them, so reading the history after every action costs O(1) per action."""
        node = self._history
        if node is None:
            return ()
        cached: tuple[Event, ...] | None = node[slot]
        if cached is not None:
            return cached
        pending = []
        n = node
        while n is not None and n[slot] is None:
            pending.append(n)
            n = n[0]
        viewer = slot - _PUBLIC_0  # 0, 1 or 2 (spectator); negative for the full history
        hidden = _HIDDEN_STOCK
        added = []
        for m in reversed(pending):
            drawer = m[_DRAWER]
            if drawer < 0 or viewer < 0 or viewer == drawer:
                added.append(m[_EVENT])
            else:
                added.append(hidden[drawer])
        result: tuple[Event, ...] = tuple(added) if n is None else n[slot] + tuple(added)
        node[slot] = result
        return result

    @property
    def action_count(self) -> int:
        """How many actions have been applied to this hand."""
        node = self._history
        return 0 if node is None else node[_COUNT]

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (the last card is the top)."""
        return self._pile

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first. Hidden information."""
        return tuple(DECK[c] for c in self._fixed.stock[self._stock_pos :])

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self._fixed.stock) - self._stock_pos

    @property
    def taken_from_pile(self) -> Card | None:
        """The card the player to act took from the pile this turn (may not be discarded)."""
        return None if self._taken < 0 else DECK[self._taken]

    @property
    def is_last_turn(self) -> bool:
        """Whether this turn's stock draw left two cards: knock or gin now, or the hand is void."""
        return self._last_turn

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat``, in card order. Hidden information."""
        return cards_tuple(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The cards of ``seat`` as a mask."""
        return self._hands[seat]

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` took from the pile (or as upcard) and still holds: public."""
        return cards_tuple(self._known[seat])

    def known_mask(self, seat: int) -> int:
        """:meth:`known_cards` as a mask."""
        return self._known[seat]

    # --- legal actions --------------------------------------------------------------------

    def _after_discards(self) -> dict[int, int]:
        """Deadwood after each possible discard, if any knock or gin is possible; cached."""
        info = self._discard_info
        if info is None:
            hand = self._hands[self._to_act]  # type: ignore[index]
            limit = self._fixed.knock_limit
            # a discard lowers the deadwood by its points at most: most hands are ruled out
            # by a floor of their deadwood, much cheaper than the best discard
            floor = deadwood_floor_mask(hand)
            if floor - _MOST_POINTS > limit or best_discard_mask(hand)[0] > limit:
                info = {}
            else:
                info = deadwood_after_discards_mask(hand)
            self._discard_info = info
        return info

    def legal_actions(self) -> list[str]:
        """The legal actions, in notation (the single source of truth for what may be done)."""
        return list(self._legal_tuple())

    def _legal_tuple(self) -> tuple[str, ...]:
        """:meth:`legal_actions` as a tuple, computed once per state (views use it as is)."""
        legal = self._legal
        if legal is None:
            phase = self._phase
            if phase is _DRAW:
                legal = _DRAW_ACTIONS
            elif phase is _DISCARD:
                legal = self._discard_actions()
            elif phase is _UPCARD_OFFER or phase is _UPCARD_DEALER:
                legal = _OPENING_ACTIONS
            elif phase is _FIRST_DRAW:
                legal = _FIRST_DRAW_ACTIONS
            else:
                legal = ()
            self._legal = legal
        return legal

    def _discard_actions(self) -> tuple[str, ...]:
        hand = self._hands[self._to_act]  # type: ignore[index]
        taken = self._taken
        may = hand & ~(1 << taken) if taken >= 0 else hand
        rows = _DISCARD_ROWS
        legal = (
            (rows[0].get(may & 8191) or _discard_row(0, may & 8191))
            + (rows[1].get(may >> 13 & 8191) or _discard_row(1, may >> 13 & 8191))
            + (rows[2].get(may >> 26 & 8191) or _discard_row(2, may >> 26 & 8191))
            + (rows[3].get(may >> 39) or _discard_row(3, may >> 39))
        )
        info = self._after_discards()
        if not info:
            return legal
        ends: list[str] = []
        limit = self._fixed.knock_limit
        for c in cards_of(may):
            dw = info[c]
            if dw == 0:
                ends.append(GIN_TEXT[c])
            elif dw <= limit:
                ends.append(KNOCK_TEXT[c])
        # eleven melded cards always leave a gin discard, so Big Gin implies info
        if self._fixed.rules.big_gin_bonus is not None and deadwood_mask(hand) == 0:
            ends.append(BIG_GIN)
        return legal + tuple(ends)

    def is_legal(self, action: str) -> bool:
        """Whether ``action`` (any accepted spelling) is legal now."""
        try:
            self._check(action, None)
        except IllegalActionError:
            return False
        return True

    # --- applying actions -----------------------------------------------------------------

    def apply(self, action: str, seat: int | None = None) -> HandState:
        """Apply ``action`` and return the new state; this state is left unchanged.

        With ``seat`` given, the action is refused unless that seat is to act
        (``action/not-your-turn``). Any illegal action raises
        :class:`~ginrummy.errors.IllegalActionError` with a code and a clear message.
        """
        kind, card = self._check(action, seat)
        return self._transition(kind, card)

    def _check(self, action: str, seat: int | None) -> tuple[str, int]:
        """Validate; return ``(kind, card or -1)`` or raise a narrow error."""
        known = _KIND_CARD.get(action) if isinstance(action, str) else None
        if known is None:
            parsed = parse_action(action)
            kind = parsed.kind
            card = -1 if parsed.card is None else int(parsed.card)
        else:
            kind, card = known
        phase = self._phase
        if phase is _OVER:
            raise _illegal("hand-over", "the hand is over; no more actions")
        to_act = self._to_act
        assert to_act is not None
        if seat is not None and seat != to_act:
            raise _illegal("not-your-turn", f"it is seat {to_act}'s turn, not seat {seat}'s")
        if phase is _DRAW:
            if kind in (STOCK, PILE):
                return kind, card
            if kind in (TAKE, PASS):
                raise _illegal(
                    "wrong-phase",
                    f"the upcard has been dealt with; draw: stock or pile, not {kind!r}",
                )
            raise _illegal("wrong-phase", f"draw first: stock or pile, not {kind!r}")
        if phase is _DISCARD:
            return self._check_discard(kind, card)
        if phase is _FIRST_DRAW:
            if kind == STOCK:
                return kind, card
            if kind in (PILE, TAKE):
                raise _illegal(
                    "first-draw-stock",
                    "both players passed the upcard: the first draw must come from the stock",
                )
            raise _illegal("wrong-phase", f"draw from the stock first, not {kind!r}")
        # the opening upcard offer
        if kind in (TAKE, PASS):
            return kind, card
        who = "dealer" if phase is _UPCARD_DEALER else "non-dealer"
        raise _illegal(
            "wrong-phase",
            f"the {who} must first take or pass the upcard {NAMES[self._pile[-1]]}, not {kind!r}",
        )

    def _check_discard(self, kind: str, card: int) -> tuple[str, int]:
        to_act = self._to_act
        assert to_act is not None
        hand = self._hands[to_act]
        if kind == BIG_GIN:
            if self._fixed.rules.big_gin_bonus is None:
                raise _illegal("big-gin-off", "Big Gin is not played under these rules")
            if deadwood_mask(hand) != 0:
                raise _illegal(
                    "not-big-gin",
                    f"Big Gin needs all eleven cards melded; "
                    f"this hand has {deadwood_mask(hand)} deadwood",
                )
            return kind, card
        if kind not in (DISCARD, KNOCK, GIN):
            raise _illegal(
                "wrong-phase", f"you have drawn; now discard, knock or go gin, not {kind!r}"
            )
        if not hand >> card & 1:
            raise _illegal("not-in-hand", f"{NAMES[card]} is not in your hand")
        if card == self._taken:
            raise _illegal(
                "discard-taken",
                f"you took {NAMES[card]} from the pile this turn and cannot discard it",
            )
        if kind == DISCARD:
            return kind, card
        dw = self._after_discards().get(card)
        if dw is None:
            dw = deadwood_mask(hand & ~(1 << card))
        if kind == GIN:
            if dw != 0:
                raise _illegal(
                    "not-gin",
                    f"gin needs zero deadwood; after discarding {NAMES[card]} you have {dw}",
                )
            return kind, card
        if dw == 0:
            raise _illegal(
                "is-gin",
                f"after discarding {NAMES[card]} you have no deadwood: that is gin, not a knock",
            )
        if dw > self._fixed.knock_limit:
            limit = self._fixed.knock_limit
            why = "gin only this hand" if limit == 0 else f"the knock limit is {limit}"
            raise _illegal(
                "knock-too-high",
                f"after discarding {NAMES[card]} you have {dw} deadwood; {why}",
            )
        return kind, card

    def _copy(self) -> HandState:
        new = object.__new__(HandState)
        new._fixed = self._fixed
        new._phase = self._phase
        new._to_act = self._to_act
        new._hands = self._hands
        new._pile = self._pile
        new._stock_pos = self._stock_pos
        new._taken = -1
        new._known = self._known
        new._history = self._history
        new._last_turn = self._last_turn
        new._result = None
        new._legal = None
        new._discard_info = None
        return new

    def _transition(self, kind: str, card: int) -> HandState:
        """Apply a checked action (no validation here)."""
        seat = self._to_act
        assert seat is not None
        new = self._copy()
        h0, h1 = self._hands
        if kind == STOCK:
            drawn = self._fixed.stock[self._stock_pos]
            new._stock_pos = pos = self._stock_pos + 1
            new._hands = (h0 | 1 << drawn, h1) if seat == 0 else (h0, h1 | 1 << drawn)
            new._phase = _DISCARD
            new._last_turn = len(self._fixed.stock) - pos == 2
            new._history = _node(self._history, _CARD_EVENTS[STOCK][seat][drawn], seat)
        elif kind in (PILE, TAKE):
            drawn = self._pile[-1]
            bit = 1 << drawn
            k0, k1 = self._known
            new._pile = self._pile[:-1]
            if seat == 0:
                new._hands = (h0 | bit, h1)
                new._known = (k0 | bit, k1)
            else:
                new._hands = (h0, h1 | bit)
                new._known = (k0, k1 | bit)
            new._taken = drawn
            new._phase = _DISCARD
            new._history = _node(self._history, _CARD_EVENTS[kind][seat][drawn])
        elif kind == PASS:
            new._history = _node(self._history, _PLAIN_EVENTS[PASS][seat])
            if self._phase is _UPCARD_OFFER:
                new._phase = _UPCARD_DEALER
                new._to_act = self._fixed.dealer
            else:
                new._phase = _FIRST_DRAW
                new._to_act = 1 - self._fixed.dealer
        elif kind == BIG_GIN:
            new._history = _node(self._history, _PLAIN_EVENTS[BIG_GIN][seat])
            new._phase = _OVER
            new._to_act = None
            new._last_turn = False
            new._result = settle(
                self._fixed.rules, kind, seat, self._hands, None, self._fixed.multiplier
            )
        else:  # discard, knock, gin: the card goes to the pile
            keep = ~(1 << card)
            k0, k1 = self._known
            if seat == 0:
                new._hands = hands = (h0 & keep, h1)
                new._known = (k0 & keep, k1)
            else:
                new._hands = hands = (h0, h1 & keep)
                new._known = (k0, k1 & keep)
            new._pile = (*self._pile, DECK[card])
            if kind == DISCARD:
                new._history = _node(self._history, _CARD_EVENTS[DISCARD][seat][card])
                if self._last_turn:
                    new._phase = _OVER
                    new._to_act = None
                    new._result = void_result(hands)
                else:
                    new._phase = _DRAW
                    new._to_act = 1 - seat
            else:
                new._history = _node(self._history, _CARD_EVENTS[kind][seat][card])
                new._phase = _OVER
                new._to_act = None
                new._last_turn = False
                new._result = settle(
                    self._fixed.rules, kind, seat, hands, card, self._fixed.multiplier
                )
        return new

    # --- views and display ----------------------------------------------------------------

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (``None``: a spectator). See :func:`ginrummy.views.view_of`."""
        global _view_of
        if _view_of is None:
            from ..views import view_of  # the one door from state to players

            _view_of = view_of
        return _view_of(self, seat)

    def __repr__(self) -> str:
        return (
            f"<HandState {self._phase.value} to_act={self._to_act} dealer={self._fixed.dealer} "
            f"stock={self.stock_size} pile_top="
            f"{NAMES[self._pile[-1]] if self._pile else '-'}>"
        )

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def _start(
        cls,
        rules: Rules,
        dealer: int,
        hands: tuple[int, int],
        upcard: int,
        stock: tuple[int, ...],
        context: GameContext,
    ) -> HandState:
        new = object.__new__(cls)
        new._fixed = _Fixed(rules, dealer, stock, upcard, context)
        new._phase = _UPCARD_OFFER
        new._to_act = 1 - dealer
        new._hands = hands
        new._pile = (DECK[upcard],)
        new._stock_pos = 0
        new._taken = -1
        new._known = (0, 0)
        new._history = None
        new._last_turn = False
        new._result = None
        new._legal = None
        new._discard_info = None
        return new


def _cards(value: Iterable[int | str] | str, what: str) -> list[int]:
    """Cards in the order given, in any form :func:`~ginrummy.cards.card_list` takes."""
    try:
        return [int(c) for c in card_list(value, what)[0]]
    except CardParseError as exc:
        raise SetupError(f"{what}: {exc.message}") from None


def new_hand(
    rules: Rules,
    dealer: int,
    hands: Sequence[Iterable[int | str] | str],
    upcard: int | str,
    stock: Iterable[int | str] | str,
    context: GameContext | None = None,
) -> HandState:
    """Set up a hand exactly: both hands (ten cards each, seat 0 first), the upcard and the
    stock (top first; 3 to 31 cards). Every card must be distinct.

    >>> from ginrummy import Rules, parse_cards
    >>> deck = parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts")  # doctest: +SKIP
    """
    if dealer not in (0, 1):
        raise SetupError(f"dealer must be seat 0 or 1, not {dealer!r}")
    if len(hands) != 2:
        raise SetupError(f"two hands are needed, not {len(hands)}")
    hand_lists = [_cards(hands[0], "hand 0"), _cards(hands[1], "hand 1")]
    up = _cards([upcard] if not isinstance(upcard, str) else upcard, "upcard")
    stock_list = _cards(stock, "stock")
    for seat, cards in enumerate(hand_lists):
        if len(cards) != 10:
            raise SetupError(f"hand {seat} has {len(cards)} cards; a hand is dealt ten")
    if len(up) != 1:
        raise SetupError("the upcard is one card")
    if not 3 <= len(stock_list) <= 31:
        raise SetupError(f"the stock has {len(stock_list)} cards; it needs 3 to 31")
    everything = hand_lists[0] + hand_lists[1] + up + stock_list
    seen = 0
    for c in everything:
        if seen >> c & 1:
            raise SetupError(f"{NAMES[c]} is dealt twice")
        seen |= 1 << c
    return HandState._start(
        rules,
        dealer,
        (mask_of(hand_lists[0]), mask_of(hand_lists[1])),
        up[0],
        tuple(stock_list),
        context or _NO_CONTEXT,
    )


_DISCARD_ROWS: Final[tuple[dict[int, tuple[str, ...]], ...]] = ({}, {}, {}, {})
"""Per suit: a 13-bit pattern of ranks -> the ``discard C`` texts of those cards, in order
(filled as patterns come up: a discard's legal actions are four lookups)."""


def _discard_row(suit: int, pattern: int) -> tuple[str, ...]:
    if not pattern:
        return ()
    row = tuple(DISCARD_TEXT[suit * 13 + r] for r in range(13) if pattern >> r & 1)
    _DISCARD_ROWS[suit][pattern] = row
    return row


_JUST_CARDS: Final = {Card}
_WHOLE_DECK: Final = frozenset(range(52))


def deal(
    rules: Rules, dealer: int, deck: Sequence[int | str], context: GameContext | None = None
) -> HandState:
    """Deal a hand from a full 52-card deck order (top first); see the module notes."""
    if dealer not in (0, 1):
        raise SetupError(f"dealer must be seat 0 or 1, not {dealer!r}")
    # (set and map loop in C: a deal is made for every hand played)
    cards = list(map(int, deck)) if set(map(type, deck)) == _JUST_CARDS else _cards(deck, "deck")
    if len(cards) != 52 or set(cards) != _WHOLE_DECK:  # every card is in 0..51
        raise SetupError("a deck order is each of the 52 cards exactly once")
    non_dealer = mask_of(cards[0:20:2])
    dealer_hand = mask_of(cards[1:20:2])
    hands = (non_dealer, dealer_hand) if dealer == 1 else (dealer_hand, non_dealer)
    return HandState._start(
        rules, dealer, hands, cards[20], tuple(cards[21:]), context or _NO_CONTEXT
    )
