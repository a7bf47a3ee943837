"""A game: hands until the target, dealer alternation, and the end-of-game bonus layer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Card, shuffled_deck
from ..errors import GameOverError, IllegalActionError, SetupError
from ..rules import Rules, Shutout, WinnerRule
from .hand import GameContext, HandState, PastHand, deal
from .result import HandResult

if TYPE_CHECKING:
    from ..views import GameView


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The end of a game after the bonus layer.

    ``grand_totals`` per seat; ``winner`` the winning seat or ``None`` for a drawn game;
    ``crosser`` the seat whose hand points reached the target; the parts of each total in
    ``hand_points`` (after a shutout doubling), ``line_bonuses`` and ``game_bonuses``.
    """

    crosser: int
    winner: int | None
    grand_totals: tuple[int, int]
    hand_points: tuple[int, int]
    line_bonuses: tuple[int, int]
    game_bonuses: tuple[int, int]
    shutout: bool

    def explain(self) -> list[str]:
        """Lines a person reads: each seat's total, then the winner."""
        lines = []
        for seat in (0, 1):
            parts = [f"{self.hand_points[seat]} hand points"]
            if self.line_bonuses[seat]:
                parts.append(f"{self.line_bonuses[seat]} line bonus")
            if self.game_bonuses[seat]:
                parts.append(f"{self.game_bonuses[seat]} game bonus")
            lines.append(f"seat {seat}: {' + '.join(parts)} = {self.grand_totals[seat]}")
        if self.shutout:
            lines.append(f"shutout by seat {self.crosser}")
        lines.append("drawn game" if self.winner is None else f"seat {self.winner} wins")
        return lines

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form."""
        return {
            "crosser": self.crosser,
            "winner": self.winner,
            "grand_totals": list(self.grand_totals),
            "hand_points": list(self.hand_points),
            "line_bonuses": list(self.line_bonuses),
            "game_bonuses": list(self.game_bonuses),
            "shutout": self.shutout,
        }


def score_game(rules: Rules, points: Sequence[int], hands_won: Sequence[int]) -> GameOutcome:
    """The end-of-game bonus layer of ``rules`` for final hand ``points`` and ``hands_won``.

    Exactly one seat must have reached the target (the crosser).

    >>> o = score_game(Rules.preset("tournament"), points=(104, 82), hands_won=(3, 5))
    >>> o.grand_totals, o.winner
    ((279, 207), 0)
    """
    if not isinstance(rules, Rules):
        raise SetupError(f"rules is a Rules value, not {type(rules).__name__}")
    for name, pair in (("points", points), ("hands_won", hands_won)):
        if (
            isinstance(pair, str | bytes)
            or not isinstance(pair, Sequence)
            or len(pair) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
        ):
            raise SetupError(f"{name} is two whole numbers, one per seat, not {pair!r:.40}")
    if min(points) < 0 or min(hands_won) < 0:
        raise ValueError("points and hands won cannot be negative")
    reached = [seat for seat in (0, 1) if points[seat] >= rules.target]
    if len(reached) != 1:
        who = "nobody has" if not reached else "both players have"
        raise ValueError(f"{who} reached the target of {rules.target}; the game is not over")
    crosser = reached[0]
    other = 1 - crosser
    hand_pts = [points[0], points[1]]
    lines = [rules.line_bonus * hands_won[0], rules.line_bonus * hands_won[1]]
    game = [0, 0]
    game[crosser] = rules.game_bonus
    shutout = False
    if rules.shutout is Shutout.DOUBLE_HAND_POINTS and hands_won[other] == 0:
        shutout = True
        hand_pts[crosser] *= 2
    elif rules.shutout is Shutout.DOUBLE_BONUSES and points[other] == 0:
        shutout = True
        lines[crosser] *= 2
        game[crosser] *= 2
    elif rules.shutout is Shutout.DOUBLE_GAME_BONUS and hands_won[other] == 0:
        shutout = True
        game[crosser] *= 2
    totals = (hand_pts[0] + lines[0] + game[0], hand_pts[1] + lines[1] + game[1])
    if rules.winner is WinnerRule.FIRST_TO_TARGET:
        winner: int | None = crosser
    elif totals[0] == totals[1]:
        winner = None
    else:
        winner = 0 if totals[0] > totals[1] else 1
    return GameOutcome(
        crosser=crosser,
        winner=winner,
        grand_totals=totals,
        hand_points=(hand_pts[0], hand_pts[1]),
        line_bonuses=(lines[0], lines[1]),
        game_bonuses=(game[0], game[1]),
        shutout=shutout,
    )


def cut_cards(seed: bytes | str) -> list[tuple[Card, Card]]:
    """The cut that chooses the first dealer, as the cards each seat cut: pairs ``(seat 0's
    card, seat 1's card)`` from a deck shuffled by ``seed`` (the first two cards, then the
    next two while the ranks are equal). The last pair decides. The cut uses its own deck
    (``seed + "/cut"``), never a hand's, so showing it reveals nothing of any deal."""
    if not isinstance(seed, str | bytes):
        raise SetupError(f"a cut's seed is text or bytes, not {type(seed).__name__}")
    seed_bytes = seed.encode("utf-8", "surrogatepass") if isinstance(seed, str) else seed
    deck = shuffled_deck(seed_bytes + b"/cut")
    pairs = []
    for i in range(0, 52, 2):
        pairs.append((deck[i], deck[i + 1]))
        if deck[i].rank != deck[i + 1].rank:
            break
    return pairs


def cut_for_deal(seed: bytes | str) -> int:
    """The first dealer by a cut (:func:`cut_cards`): each seat cuts a card from a deck
    shuffled by ``seed`` (seat 0 the first card, seat 1 the second); the higher rank deals;
    equal ranks cut again with the next two cards."""
    a, b = cut_cards(seed)[-1]
    # 26 equal pairs cannot happen with four suits, so the last pair always differs
    return 0 if a.rank > b.rank else 1


def hand_seed(game_seed: str, hand_index: int) -> str:
    """The shuffle seed of hand ``hand_index`` (0-based) of a game seeded ``game_seed``."""
    return f"{game_seed}/hand/{hand_index}"


class GameState:
    """A whole game. Immutable: :meth:`deal` and :meth:`apply` return new states.

    Start with :meth:`new`, then alternate :meth:`deal` (a 52-card deck order, e.g. from
    :func:`~ginrummy.cards.shuffled_deck`) and :meth:`apply` until :attr:`is_over`.
    """

    __slots__ = (
        "_current",
        "_decks",
        "_finished",
        "_first_dealer",
        "_hands_won",
        "_outcome",
        "_points",
        "_rules",
        "_seeds",
    )

    _rules: Rules
    _first_dealer: int
    _finished: tuple[HandState, ...]
    _current: HandState | None
    _decks: tuple[tuple[Card, ...], ...]
    _seeds: tuple[str | None, ...]
    _points: tuple[int, int]
    _hands_won: tuple[int, int]
    _outcome: GameOutcome | None

    def __init__(self) -> None:
        raise TypeError("start a game with GameState.new()")

    @classmethod
    def new(cls, rules: Rules, first_dealer: int) -> GameState:
        """A game before its first deal."""
        if first_dealer not in (0, 1):
            raise ValueError(f"first_dealer must be 0 or 1, not {first_dealer!r}")
        game = object.__new__(cls)
        game._rules = rules
        game._first_dealer = first_dealer
        game._finished = ()
        game._current = None
        game._decks = ()
        game._seeds = ()
        game._points = (0, 0)
        game._hands_won = (0, 0)
        game._outcome = None
        return game

    def _copy(self) -> GameState:
        game = object.__new__(GameState)
        for name in GameState.__slots__:
            setattr(game, name, getattr(self, name))
        return game

    # --- reading ----------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The ruleset."""
        return self._rules

    @property
    def first_dealer(self) -> int:
        """The dealer of the first hand."""
        return self._first_dealer

    @property
    def hand(self) -> HandState | None:
        """The hand being played (or just finished); ``None`` before the first deal."""
        return self._current

    @property
    def finished_hands(self) -> tuple[HandState, ...]:
        """Every hand that has ended, the current one included once over."""
        if self._current is not None and self._current.is_over:
            return (*self._finished, self._current)
        return self._finished

    @property
    def results(self) -> tuple[HandResult, ...]:
        """The result of every finished hand."""
        return tuple(h.result for h in self.finished_hands if h.result is not None)

    @property
    def decks(self) -> tuple[tuple[Card, ...], ...]:
        """The deck order of every hand dealt. Hidden information."""
        return self._decks

    @property
    def seeds(self) -> tuple[str | None, ...]:
        """The shuffle seed of every hand dealt (``None`` where a deck was given directly)."""
        return self._seeds

    @property
    def points(self) -> tuple[int, int]:
        """Hand points per seat so far."""
        return self._points

    @property
    def hands_won(self) -> tuple[int, int]:
        """Hands won per seat so far (void hands count for nobody)."""
        return self._hands_won

    @property
    def hand_number(self) -> int:
        """How many hands have been dealt."""
        return len(self._decks)

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand (the deal alternates every hand, void hands included)."""
        return self._first_dealer if len(self._decks) % 2 == 0 else 1 - self._first_dealer

    @property
    def is_over(self) -> bool:
        """Whether someone has reached the target."""
        return self._outcome is not None

    @property
    def outcome(self) -> GameOutcome | None:
        """The end-of-game scoring, once over."""
        return self._outcome

    @property
    def needs_deal(self) -> bool:
        """Whether the next step is a deal (no hand in play and the game not over)."""
        return self._outcome is None and (self._current is None or self._current.is_over)

    @property
    def to_act(self) -> int | None:
        """The seat to act in the current hand (``None`` between hands or when over)."""
        return None if self._current is None else self._current.to_act

    def legal_actions(self) -> list[str]:
        """The legal actions of the current hand (empty between hands)."""
        return [] if self._current is None else self._current.legal_actions()

    # --- acting -----------------------------------------------------------------------------

    def deal(self, deck: Sequence[int | str], seed: str | None = None) -> GameState:
        """Deal the next hand from ``deck`` (52 cards, top first). When ``seed`` is given the
        deck must be ``shuffled_deck(seed)``; it is kept for the record."""
        cards = tuple(Card(c) for c in (deck if not isinstance(deck, str) else deck.split()))
        if seed is not None and shuffled_deck(seed) != cards:
            raise SetupError("the deck is not the one its seed gives (tampered deck or seed)")
        return self._deal(cards, seed)

    def deal_seeded(self, seed: str) -> GameState:
        """Deal the next hand from ``shuffled_deck(seed)``."""
        return self._deal(shuffled_deck(seed), seed)

    def _deal(self, cards: tuple[Card, ...], seed: str | None) -> GameState:
        if self._outcome is not None:
            raise GameOverError("the game is over; no more hands")
        if not self.needs_deal:
            raise IllegalActionError("the current hand is not over", code="game/hand-in-play")
        past: tuple[PastHand, ...] = ()
        previous = self._current
        if previous is not None and previous.result is not None:
            dealt = deal(self._rules, previous.dealer, self._decks[-1])
            seen = PastHand(
                previous.dealer,
                (dealt.hand(0), dealt.hand(1)),
                dealt.upcard,
                previous.history,
                previous.result,
            )
            past = (*previous.context.past, seen)
        context = GameContext(self._points, self._hands_won, len(self._decks) + 1, past)
        hand = deal(self._rules, self.next_dealer, cards, context)
        game = self._copy()
        if self._current is not None:
            game._finished = (*self._finished, self._current)
        game._current = hand
        game._decks = (*self._decks, cards)
        game._seeds = (*self._seeds, seed)
        return game

    def apply(self, action: str, seat: int | None = None) -> GameState:
        """Apply an action to the current hand; score it and end the game when it is over."""
        if self._outcome is not None:
            raise GameOverError("the game is over")
        if self._current is None or self._current.is_over:
            raise IllegalActionError(
                "no hand is in play; the next hand must be dealt", code="action/hand-over"
            )
        hand = self._current.apply(action, seat)
        game = self._copy()
        game._current = hand
        result = hand.result
        if result is not None and result.winner is not None:
            w = result.winner
            pts = list(self._points)
            won = list(self._hands_won)
            pts[w] += result.points
            won[w] += 1
            game._points = (pts[0], pts[1])
            game._hands_won = (won[0], won[1])
            if pts[w] >= self._rules.target:
                game._outcome = score_game(self._rules, game._points, game._hands_won)
        return game

    def view(self, seat: int | None) -> GameView:
        """What ``seat`` may see of the game (``None``: a spectator)."""
        from ..views import game_view_of

        return game_view_of(self, seat)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"hand {self.hand_number}"
        return f"<GameState {self._rules.name} {state} points={self._points}>"
