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
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

from .cards import Card, parse_cards
from .engine.game import GameState
from .engine.hand import HandState
from .engine.result import RESULT_KINDS
from .errors import GinRummyError, RecordError, RulesError
from .fairness import commitment
from .rules import Rules

FORMAT: Final = "ginrummy-record"
VERSION: Final = 1
MAX_RECORD_BYTES: Final = 20_000_000
"""The largest record read or parsed, in bytes (a real game is a few hundred kilobytes)."""
MAX_NUMBER_DIGITS: Final = 100
"""The longest number a record may hold, in digits (its numbers are points and seats)."""
MAX_MESSAGE: Final = 300
"""Longest part of a record quoted back in an error message, in characters."""


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


def _short(text: str) -> str:
    """``text`` cut to :data:`MAX_MESSAGE` characters for an error message."""
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def _fail(where: str, what: str) -> RecordError:
    what = _short(what)
    return RecordError(f"{where}: {what}" if where else what)


def _expect(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise _fail(where, what)


def _is_int(value: Any) -> bool:
    """An integer and nothing else: JSON's ``true`` and ``1.0`` are not 1 here."""
    return type(value) is int


def _is_seat(value: Any) -> bool:
    return _is_int(value) and value in (0, 1)


def _is_text(value: Any) -> bool:
    """A string that can be written out as UTF-8 (no lone surrogates from ``\\ud800``)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_HEX_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
_RESULT_KEYS: Final = ("kind", "winner", "points", "deadwood")
_OUTCOME_KEYS: Final = (
    "crosser",
    "winner",
    "grand_totals",
    "hand_points",
    "line_bonuses",
    "game_bonuses",
    "shutout",
)
_OUTCOME_PAIRS: Final = ("grand_totals", "hand_points", "line_bonuses", "game_bonuses")


def _is_pair(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)


def _check_keys(value: dict[str, Any], keys: tuple[str, ...], where: str, what: str) -> None:
    missing = [k for k in keys if k not in value]
    _expect(not missing, where, f"{what} lacks {', '.join(missing)}")
    extra = sorted(str(k) for k in value if k not in keys)
    _expect(not extra, where, f"{what} has unknown field(s) {', '.join(extra)}")


def _check_result(result: Any, where: str) -> None:
    if result is None:
        return
    _expect(isinstance(result, dict), where, "result must be an object or null")
    _check_keys(result, _RESULT_KEYS, where, "result")
    _expect(
        result["kind"] in RESULT_KINDS and isinstance(result["kind"], str),
        where,
        f"result kind must be one of {', '.join(RESULT_KINDS)}",
    )
    _expect(
        result["winner"] is None or _is_seat(result["winner"]),
        where,
        "result winner must be 0, 1 or null",
    )
    _expect(
        _is_int(result["points"]) and result["points"] >= 0,
        where,
        "result points must be a whole number, 0 or more",
    )
    _expect(
        _is_pair(result["deadwood"]) and min(result["deadwood"]) >= 0,
        where,
        "result deadwood must be two whole numbers, 0 or more (seat 0's, seat 1's)",
    )


def _check_outcome(outcome: Any) -> None:
    where = "outcome"
    if outcome is None:
        return
    _expect(isinstance(outcome, dict), where, "must be an object or null")
    _check_keys(outcome, _OUTCOME_KEYS, where, "the outcome")
    _expect(_is_seat(outcome["crosser"]), where, "crosser must be 0 or 1")
    _expect(
        outcome["winner"] is None or _is_seat(outcome["winner"]),
        where,
        "winner must be 0, 1 or null",
    )
    for key in _OUTCOME_PAIRS:
        _expect(_is_pair(outcome[key]), where, f"{key} must be two whole numbers")
    _expect(type(outcome["shutout"]) is bool, where, "shutout must be true or false")


def from_dict(data: Any) -> GameRecord:
    """Check the shape of a parsed record and build a :class:`GameRecord` (no replay yet).

    Types are checked exactly: JSON's ``true`` is not the number 1, nor ``1.0``."""
    _expect(isinstance(data, dict), "", "a record is a JSON object")
    _expect(data.get("format") == FORMAT, "format", f"expected {FORMAT!r}")
    version = data.get("version")
    _expect(_is_int(version) and version == VERSION, "version", f"only version {VERSION} is known")
    try:
        rules = Rules.from_dict(data.get("rules"))
    except RulesError as exc:
        raise _fail("rules", exc.message) from None
    _expect(
        rules.name.isprintable() and len(rules.name) <= 100,
        "rules",
        "the name must be one line of at most 100 characters",
    )
    first = data.get("first_dealer")
    _expect(_is_seat(first), "first_dealer", "must be 0 or 1")
    hands_data = data.get("hands")
    _expect(isinstance(hands_data, list), "hands", "must be a list")
    hands: list[HandRecord] = []
    for i, h in enumerate(hands_data):
        where = f"hand {i + 1}"
        _expect(isinstance(h, dict), where, "must be an object")
        dealer = h.get("dealer")
        _expect(_is_seat(dealer), where, "dealer must be 0 or 1")
        deck_text = h.get("deck")
        _expect(
            isinstance(deck_text, str) and len(deck_text) <= 1000,
            where,
            "deck must be a string of 52 cards",
        )
        try:
            deck = tuple(parse_cards(deck_text))
        except GinRummyError as exc:
            raise _fail(where, f"deck: {exc.message}") from None
        _expect(len(deck) == 52, where, f"deck has {len(deck)} cards, not 52")
        seed = h.get("seed")
        _expect(seed is None or _is_text(seed), where, "seed must be a string of Unicode text")
        committed = h.get("commitment")
        _expect(
            committed is None
            or (isinstance(committed, str) and _HEX_DIGEST.fullmatch(committed) is not None),
            where,
            "commitment must be a string: a SHA-256 in hex (64 digits 0-9 a-f)",
        )
        actions = h.get("actions")
        _expect(
            isinstance(actions, list) and all(isinstance(a, str) for a in actions),
            where,
            "actions must be a list of strings",
        )
        result = h.get("result")
        _check_result(result, where)
        hands.append(HandRecord(dealer, deck, tuple(actions), seed, result, committed))
    outcome = data.get("outcome")
    _check_outcome(outcome)
    return GameRecord(rules, first, tuple(hands), outcome)


def _too_large(size: int | None) -> RecordError:
    shown = f"more than {MAX_RECORD_BYTES:,}" if size is None else f"{size:,}"
    return RecordError(f"record too large: {shown} bytes (the limit is {MAX_RECORD_BYTES:,})")


def _parse_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_NUMBER_DIGITS:
        raise RecordError(
            f"a number of {count:,} digits; a record's numbers have at most {MAX_NUMBER_DIGITS}"
        )
    return int(digits)


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"not valid JSON: {name} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: JSON parsers disagree on which of two
    equal keys counts (Python's takes the last), so a record that names a field twice is
    ambiguous, and refused."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            shown = key if len(key) <= 40 else key[:40] + "..."
            raise RecordError(f"not a valid record: the key {shown!r} appears twice in one object")
        result[key] = value
    return result


def parse_json(text: str | bytes) -> Any:
    """Parse a record's JSON text (no checks of its shape): any malformed text raises a
    :class:`~ginrummy.errors.RecordError` saying why, never another error.

    Refused: more than :data:`MAX_RECORD_BYTES`, text that is not UTF-8 JSON, nesting
    deeper than Python can parse, a number of more than :data:`MAX_NUMBER_DIGITS` digits,
    ``NaN`` / ``Infinity`` (which are not JSON), and an object that holds a key twice.
    """
    if isinstance(text, str):
        # the limit is in bytes; a character is at most four
        if len(text) > MAX_RECORD_BYTES // 4:
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > MAX_RECORD_BYTES:
                raise _too_large(size)
    elif len(text) > MAX_RECORD_BYTES:
        raise _too_large(len(text))
    if not text.strip():
        raise RecordError("the record is empty")
    try:
        return json.loads(
            text, parse_int=_parse_int, parse_constant=_refuse_constant, object_pairs_hook=_object
        )
    except RecordError:
        raise
    except RecursionError:
        raise RecordError(
            "not valid JSON: nested too deeply (a record is a few levels deep)"
        ) from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"not valid JSON: not UTF-8 text (byte {exc.start + 1})") from None
    except ValueError as exc:  # whatever else the decoder refuses
        raise RecordError(f"not valid JSON: {exc}") from None


def loads(text: str | bytes) -> GameRecord:
    """Parse JSON text into a record and verify it by replaying it (see :func:`replay`).

    Whatever is wrong with the text raises a :class:`~ginrummy.errors.RecordError`."""
    record = from_dict(parse_json(text))
    replay(record)
    return record


def read_bytes(source: str | os.PathLike[str] | IO[bytes], name: str | None = None) -> bytes:
    """The bytes of a record: a file by path, or an open binary stream (standard input).

    Refuses more than :data:`MAX_RECORD_BYTES` with a :class:`~ginrummy.errors.RecordError`;
    a regular file's size is checked before reading it (the message gives its true size).
    ``name`` names the source in messages (default: the path)."""
    if isinstance(source, str | os.PathLike):
        shown = name or os.fspath(source)
        if "\0" in str(os.fspath(source)):
            raise RecordError(f"cannot read {shown!r}: a file name cannot hold a NUL character")
        try:
            with open(source, "rb") as f:
                info = os.fstat(f.fileno())
                if stat.S_ISREG(info.st_mode) and info.st_size > MAX_RECORD_BYTES:
                    raise _too_large(info.st_size)
                data = f.read(MAX_RECORD_BYTES + 1)
        except OSError as exc:
            raise RecordError(f"cannot read {shown}: {exc.strerror or exc}") from None
    else:
        shown = name or "the input"
        try:
            data = source.read(MAX_RECORD_BYTES + 1)
        except OSError as exc:
            raise RecordError(f"cannot read {shown}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise _too_large(None)
    return data


def load(path: str | os.PathLike[str]) -> GameRecord:
    """Read and verify a record file (any problem: a :class:`~ginrummy.errors.RecordError`)."""
    return loads(read_bytes(path))


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
                shown = action if len(action) <= 40 else action[:40] + "..."
                raise _fail(where, f"action {n + 1} {shown!r} is illegal: {exc.message}") from None
            yield i, game
        hand = game.hand
        assert hand is not None
        replayed = _result_summary(hand)
        last = i == len(record.hands) - 1
        if replayed is None:
            _expect(last, where, "the hand's actions stop before the hand is over")
            _expect(h.result is None, where, "a result is stored but the hand is not over")
        elif h.result is None:
            raise _fail(
                where, f"no result is stored but the replay ends the hand: {_words(replayed)}"
            )
        else:
            _expect(
                h.result == replayed,
                where,
                "the stored result differs from the replay: " + _differences(h.result, replayed),
            )
    if game.outcome is None:
        _expect(record.outcome is None, "outcome", "stored but the game is not over")
    else:
        replayed_outcome = game.outcome.to_dict()
        if record.outcome is None:
            raise _fail(
                "outcome",
                f"none is stored but the replay ends the game: {_words(replayed_outcome)}",
            )
        _expect(
            record.outcome == replayed_outcome,
            "outcome",
            "the stored outcome differs from the replay: "
            + _differences(record.outcome, replayed_outcome),
        )


_FIELD_WORDS: Final = {
    "kind": "how it ended",
    "crosser": "seat that reached the target",
    "grand_totals": "grand totals",
    "hand_points": "hand points",
    "line_bonuses": "line bonuses",
    "game_bonuses": "game bonuses",
}
_KIND_WORDS: Final = {
    "knock": "a knock",
    "undercut": "an undercut",
    "gin": "gin",
    "big-gin": "Big Gin",
    "void": "a void hand",
}


def _value_words(key: str, value: Any, hand: bool) -> str:
    """A checked field of a hand's result (``hand``) or of the outcome, in words."""
    if key == "kind":
        return _KIND_WORDS.get(value, str(value))
    if key in ("winner", "crosser"):
        if value is None:
            return "no one" if hand else "no one (a drawn game)"
        return f"seat {value}"
    if key == "shutout":
        return "yes" if value else "no"
    if isinstance(value, list) and len(value) == 2:
        return f"{value[0]} for seat 0 and {value[1]} for seat 1"
    return str(value)


def _differences(stored: dict[str, Any], replayed: dict[str, Any]) -> str:
    """The fields of a stored result (or outcome) that differ from the replay's, in words."""
    hand = "kind" in replayed
    parts = [
        f"{_FIELD_WORDS.get(key, key)}: {_value_words(key, stored.get(key), hand)} in the "
        f"record, {_value_words(key, value, hand)} in the replay"
        for key, value in replayed.items()
        if stored.get(key) != value
    ]
    return "; ".join(parts) or "they differ"


def _words(summary: dict[str, Any]) -> str:
    """A replayed result (or outcome) in words."""
    if "kind" in summary:
        how = _KIND_WORDS.get(summary["kind"], summary["kind"])
        if summary["winner"] is None:
            return f"{how}, no points"
        return f"seat {summary['winner']} scores {summary['points']} points by {how}"
    if summary["winner"] is None:
        return "a drawn game"
    totals = summary["grand_totals"]
    return f"seat {summary['winner']} wins, {totals[0]} to {totals[1]}"


def replay(record: GameRecord) -> GameState:
    """Replay a record to its final game state, verifying everything on the way."""
    game = GameState.new(record.rules, record.first_dealer)
    for _, state in replay_states(record):
        game = state
    return game


__all__ = [
    "FORMAT",
    "MAX_NUMBER_DIGITS",
    "MAX_RECORD_BYTES",
    "VERSION",
    "GameRecord",
    "HandRecord",
    "dumps",
    "from_dict",
    "load",
    "loads",
    "parse_json",
    "read_bytes",
    "record_of",
    "replay",
    "replay_states",
]
