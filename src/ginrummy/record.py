"""Game records: a whole game as JSON, and its replay.

A record holds the rules (every option), the first dealer, and for each hand its dealer, its
deck order (52 cards, top first; the shuffle seed too when there was one), every action in
the notation of :mod:`ginrummy.actions` and the hand's result; then the game's outcome once
it is over. Loading checks the shape, then replays every action through the engine and
compares every stored result and the outcome with the replay: a corrupt or tampered record
is refused with a :class:`~ginrummy.errors.RecordError` saying what is wrong and where.

>>> import ginrummy
>>> game = ginrummy.GameState.new(ginrummy.Rules.preset("classic"), 0).deal_seeded("doc")
>>> game = game.apply("pass").apply("pass").apply("stock")
>>> text = dumps(record_of(game))
>>> replay(loads(text)).hand.action_count
3
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from .cards import Card, parse_cards
from .engine.game import GameState
from .engine.hand import HandState
from .errors import GinRummyError, RecordError, RulesError
from .fairness import commitment
from .rules import Rules

FORMAT: Final = "ginrummy-record"
VERSION: Final = 1
MAX_RECORD_BYTES: Final = 20_000_000


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand: dealer, deck order, seed (if any), actions, and the stored result summary."""

    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[str, ...]
    seed: str | None = None
    result: dict[str, Any] | None = None
    commitment: str | None = None
    """SHA-256 of the seed, published before the deal (see :mod:`ginrummy.fairness`)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game (possibly unfinished)."""

    rules: Rules
    first_dealer: int
    hands: tuple[HandRecord, ...]
    outcome: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able form written by :func:`dumps`."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "first_dealer": self.first_dealer,
            "hands": [
                {
                    "dealer": h.dealer,
                    "deck": " ".join(str(c) for c in h.deck),
                    **({"commitment": h.commitment} if h.commitment is not None else {}),
                    **({"seed": h.seed} if h.seed is not None else {}),
                    "actions": list(h.actions),
                    "result": h.result,
                }
                for h in self.hands
            ],
            "outcome": self.outcome,
        }


def _result_summary(hand: HandState) -> dict[str, Any] | None:
    r = hand.result
    if r is None:
        return None
    return {"kind": r.kind, "winner": r.winner, "points": r.points, "deadwood": list(r.deadwood)}


def record_of(game: GameState) -> GameRecord:
    """The record of a game so far."""
    hands: list[HandRecord] = []
    all_hands = list(game.finished_hands)
    if game.hand is not None and not game.hand.is_over:
        all_hands.append(game.hand)
    for hand, deck, seed in zip(all_hands, game.decks, game.seeds, strict=True):
        hands.append(
            HandRecord(
                dealer=hand.dealer,
                deck=deck,
                actions=tuple(e.action for e in hand.history),
                seed=seed,
                result=_result_summary(hand),
                commitment=None if seed is None else commitment(seed),
            )
        )
    outcome = None if game.outcome is None else game.outcome.to_dict()
    return GameRecord(game.rules, game.first_dealer, tuple(hands), outcome)


def dumps(record: GameRecord) -> str:
    """The record as JSON text (one hand per line block, stable key order)."""
    return json.dumps(record.to_dict(), indent=1, ensure_ascii=False) + "\n"


def _fail(where: str, what: str) -> RecordError:
    return RecordError(f"{where}: {what}" if where else what)


def _expect(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise _fail(where, what)


def from_dict(data: Any) -> GameRecord:
    """Check the shape of a parsed record and build a :class:`GameRecord` (no replay yet)."""
    _expect(isinstance(data, dict), "", "a record is a JSON object")
    _expect(data.get("format") == FORMAT, "format", f"expected {FORMAT!r}")
    _expect(data.get("version") == VERSION, "version", f"only version {VERSION} is known")
    try:
        rules = Rules.from_dict(data.get("rules"))
    except RulesError as exc:
        raise _fail("rules", exc.message) from None
    first = data.get("first_dealer")
    _expect(first in (0, 1) and type(first) is int, "first_dealer", "must be 0 or 1")
    hands_data = data.get("hands")
    _expect(isinstance(hands_data, list), "hands", "must be a list")
    hands: list[HandRecord] = []
    for i, h in enumerate(hands_data):
        where = f"hand {i + 1}"
        _expect(isinstance(h, dict), where, "must be an object")
        dealer = h.get("dealer")
        _expect(dealer in (0, 1) and type(dealer) is int, where, "dealer must be 0 or 1")
        deck_text = h.get("deck")
        _expect(isinstance(deck_text, str), where, "deck must be a string of 52 cards")
        try:
            deck = tuple(parse_cards(deck_text))
        except GinRummyError as exc:
            raise _fail(where, f"deck: {exc.message}") from None
        _expect(len(deck) == 52, where, f"deck has {len(deck)} cards, not 52")
        seed = h.get("seed")
        _expect(seed is None or isinstance(seed, str), where, "seed must be a string")
        committed = h.get("commitment")
        _expect(
            committed is None or isinstance(committed, str), where, "commitment must be a string"
        )
        actions = h.get("actions")
        _expect(
            isinstance(actions, list) and all(isinstance(a, str) for a in actions),
            where,
            "actions must be a list of strings",
        )
        result = h.get("result")
        _expect(result is None or isinstance(result, dict), where, "result must be an object")
        hands.append(HandRecord(dealer, deck, tuple(actions), seed, result, committed))
    outcome = data.get("outcome")
    _expect(outcome is None or isinstance(outcome, dict), "outcome", "must be an object or null")
    return GameRecord(rules, first, tuple(hands), outcome)


def loads(text: str | bytes) -> GameRecord:
    """Parse JSON text into a record and verify it by replaying it (see :func:`replay`)."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"record too large ({len(text)} bytes; at most {MAX_RECORD_BYTES})")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    record = from_dict(data)
    replay(record)
    return record


def load(path: str) -> GameRecord:
    """Read and verify a record file."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    return loads(text)


def replay_states(record: GameRecord) -> Iterator[tuple[int, GameState]]:
    """Every game state of the record in order, with the 0-based hand index; verifies as it
    goes (deck and seed, dealer alternation, each action's legality, each result).

    A deck that is not the one its seed gives is refused by :meth:`GameState.deal`."""
    game = GameState.new(record.rules, record.first_dealer)
    for i, h in enumerate(record.hands):
        where = f"hand {i + 1}"
        _expect(not game.is_over, where, "the game was already over")
        _expect(
            h.dealer == game.next_dealer,
            where,
            f"dealer is {h.dealer} but the deal alternates: seat {game.next_dealer} deals",
        )
        if h.seed is not None and h.commitment is not None:
            _expect(
                commitment(h.seed) == h.commitment,
                where,
                "the seed does not match the commitment published before the deal",
            )
        try:
            game = game.deal(h.deck, seed=h.seed)
        except GinRummyError as exc:
            raise _fail(where, exc.message) from None
        yield i, game
        for n, action in enumerate(h.actions):
            try:
                game = game.apply(action)
            except GinRummyError as exc:
                raise _fail(where, f"action {n + 1} {action!r} is illegal: {exc.message}") from None
            yield i, game
        hand = game.hand
        assert hand is not None
        replayed = _result_summary(hand)
        last = i == len(record.hands) - 1
        if replayed is None:
            _expect(last, where, "the hand's actions stop before the hand is over")
            _expect(h.result is None, where, "a result is stored but the hand is not over")
        else:
            _expect(
                h.result == replayed,
                where,
                f"stored result {h.result} differs from the replay {replayed}",
            )
    if game.outcome is None:
        _expect(record.outcome is None, "outcome", "stored but the game is not over")
    else:
        _expect(
            record.outcome == game.outcome.to_dict(),
            "outcome",
            f"stored {record.outcome} differs from the replay {game.outcome.to_dict()}",
        )


def replay(record: GameRecord) -> GameState:
    """Replay a record to its final game state, verifying everything on the way."""
    game = GameState.new(record.rules, record.first_dealer)
    for _, state in replay_states(record):
        game = state
    return game


__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "HandRecord",
    "dumps",
    "from_dict",
    "load",
    "loads",
    "record_of",
    "replay",
    "replay_states",
]
