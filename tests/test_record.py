"""Game records: round trip, replay to identical states, and refusal of corrupt records."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

import ginrummy
from ginrummy import record
from ginrummy.playout import random_game

RULES = dataclasses.replace(ginrummy.Rules.preset("tournament"), target=40)


@pytest.fixture(scope="module")
def game() -> ginrummy.GameState:
    return random_game(RULES, "record-tests")


@pytest.fixture(scope="module")
def data(game: ginrummy.GameState) -> dict[str, Any]:
    return json.loads(record.dumps(record.record_of(game)))


def test_round_trip_replays_every_state(game: ginrummy.GameState) -> None:
    rec = record.loads(record.dumps(record.record_of(game)))
    assert rec.rules == RULES and rec.first_dealer == game.first_dealer
    replayed = record.replay(rec)
    assert replayed.points == game.points and replayed.hands_won == game.hands_won
    assert replayed.outcome == game.outcome
    for a, b in zip(replayed.finished_hands, game.finished_hands, strict=True):
        assert a.history == b.history and a.result == b.result
    # every intermediate state is reachable too
    states = list(record.replay_states(rec))
    assert len(states) == sum(len(h.actions) + 1 for h in rec.hands)


def test_unfinished_game_round_trips() -> None:
    g = ginrummy.GameState.new(RULES, 1).deal_seeded("unfinished")
    g = g.apply("pass").apply("pass").apply("stock")
    rec = record.loads(record.dumps(record.record_of(g)))
    again = record.replay(rec)
    assert again.hand is not None and again.hand.history == g.hand.history  # type: ignore[union-attr]
    assert not again.is_over


def tamper(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    bad = copy.deepcopy(data)
    change(bad)
    return json.dumps(bad)


def _swap_deck_cards(d: dict[str, Any]) -> None:
    cards = d["hands"][0]["deck"].split()
    cards[0], cards[30] = cards[30], cards[0]
    d["hands"][0]["deck"] = " ".join(cards)


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("wrong format", _set(["format"], "chess-pgn"), "format"),
    ("unknown version", _set(["version"], 99), "version"),
    ("unknown rule", _set(["rules", "jokers"], 2), "jokers"),
    ("bad rule value", _set(["rules", "knock_limit"], -3), "knock_limit"),
    ("bad first dealer", _set(["first_dealer"], 2), "first_dealer"),
    ("deck with a bad card", _set(["hands", 0, "deck"], "Xx " * 52), "bad card"),
    ("deck too short", _set(["hands", 0, "deck"], "As 2s"), "52"),
    ("deck changed", _swap_deck_cards, "hand 1"),
    ("seed does not match", _set(["hands", 0, "seed"], "another seed"), "seed"),
    ("commitment changed", _set(["hands", 0, "commitment"], "ab" * 32), "commitment"),
    ("commitment not text", _set(["hands", 0, "commitment"], 5), "commitment"),
    (
        "dealer out of turn",
        lambda d: d["hands"][1].update(dealer=1 - d["hands"][1]["dealer"]),
        "deal",
    ),
    ("illegal action", _set(["hands", 0, "actions", 0], "knock As"), "illegal"),
    ("action not text", _set(["hands", 0, "actions", 0], 7), "actions"),
    ("result changed", lambda d: d["hands"][0]["result"].update(points=999), "differs"),
    ("outcome changed", lambda d: d["outcome"].update(winner=None), "outcome"),
    ("actions cut short", lambda d: d["hands"][0]["actions"].pop(), "hand 1"),
    ("hands after the end", lambda d: d["hands"].append(d["hands"][0]), "over"),
]


@pytest.mark.parametrize(("name", "change", "needle"), CASES, ids=[c[0] for c in CASES])
def test_tampered_record_is_refused(
    data: dict[str, Any], name: str, change: Callable[[dict[str, Any]], None], needle: str
) -> None:
    with pytest.raises(ginrummy.RecordError) as info:
        record.loads(tamper(data, change))
    assert needle in str(info.value), str(info.value)
    assert info.value.code == "record/invalid"


def test_not_json_is_refused() -> None:
    with pytest.raises(ginrummy.RecordError, match="not valid JSON"):
        record.loads("{not json")
    with pytest.raises(ginrummy.RecordError, match="JSON object"):
        record.loads("[1, 2]")


TYPE_CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("version true", _set(["version"], True), "version"),
    ("version 1.0", _set(["version"], 1.0), "version"),
    ("first dealer true", _set(["first_dealer"], True), "first_dealer"),
    ("dealer false", _set(["hands", 0, "dealer"], False), "dealer"),
    ("points true", lambda d: d["hands"][0]["result"].update(points=True), "points"),
    ("points 5.0", lambda d: d["hands"][0]["result"].update(points=5.0), "points"),
    ("winner false", lambda d: d["hands"][0]["result"].update(winner=False), "winner"),
    ("deadwood bools", lambda d: d["hands"][0]["result"].update(deadwood=[True, 0]), "deadwood"),
    ("result extra field", lambda d: d["hands"][0]["result"].update(x=1), "unknown field"),
    ("result missing field", lambda d: d["hands"][0]["result"].pop("kind"), "lacks kind"),
    ("unknown kind", lambda d: d["hands"][0]["result"].update(kind="schneider"), "kind"),
    ("crosser true", lambda d: d["outcome"].update(crosser=True), "crosser"),
    ("shutout 0", lambda d: d["outcome"].update(shutout=0), "shutout"),
    ("totals floats", lambda d: d["outcome"].update(grand_totals=[1.0, 2]), "grand_totals"),
    ("seed surrogate", _set(["hands", 0, "seed"], "\ud800"), "seed"),
    ("commitment not hex", _set(["hands", 0, "commitment"], "z" * 64), "commitment"),
    ("rules name surrogate", _set(["rules", "name"], "\ud800"), "name"),
    ("rules name long", _set(["rules", "name"], "n" * 5000), "name"),
    ("deck enormous", _set(["hands", 0, "deck"], "As " * 100_000), "deck"),
]


@pytest.mark.parametrize(("name", "change", "needle"), TYPE_CASES, ids=[c[0] for c in TYPE_CASES])
def test_type_confusions_are_refused(
    data: dict[str, Any], name: str, change: Callable[[dict[str, Any]], None], needle: str
) -> None:
    """``true`` is not 1 and ``1.0`` is not 1, though Python's == says so."""
    with pytest.raises(ginrummy.RecordError) as info:
        record.loads(tamper(data, change))
    assert needle in str(info.value), str(info.value)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"a": ' * 100_000, "nested too deeply"),
        ("1" * 10_000, "10,000 digits"),
        ('{"version": -' + "9" * 5000 + "}", "5,000 digits"),
        ('{"version": NaN}', "NaN"),
        ('{"version": Infinity}', "Infinity"),
        ("", "empty"),
        (b"\xff\xfe\xfd\xfc", "not valid JSON"),
        (b"\x80abc", "not UTF-8"),
    ],
)
def test_malformed_text_is_a_record_error(text: str | bytes, needle: str) -> None:
    """Never a RecursionError or the integer-digits ValueError: always a RecordError."""
    with pytest.raises(ginrummy.RecordError) as info:
        record.loads(text)
    assert needle in str(info.value)
    with pytest.raises(ginrummy.RecordError):
        record.parse_json(text)


def test_a_key_twice_in_an_object_is_refused(data: dict[str, Any]) -> None:
    """JSON parsers disagree on which of two equal keys counts (Python's takes the last): a
    record naming a field twice is refused, naming the key, wherever the object is."""
    text = json.dumps(data)
    seed = data["hands"][0]["seed"]
    cases = [
        text.replace(f'"seed": "{seed}"', f'"seed": "forged", "seed": "{seed}"', 1),
        text.replace('"version": 1', '"version": 1, "version": 1', 1),
        text.replace('"kind": ', '"kind": "gin", "kind": ', 1),
        '{"format": "ginrummy-record", "x": {"a": 1, "b": 2, "a": 3}}',
    ]
    for bad, key in zip(cases, ["seed", "version", "kind", "a"], strict=True):
        assert bad != text
        with pytest.raises(ginrummy.RecordError) as info:
            record.parse_json(bad)
        assert str(info.value) == (
            f"not a valid record: the key {key!r} appears twice in one object"
        )
        assert info.value.code == "record/invalid"
        with pytest.raises(ginrummy.RecordError):
            record.loads(bad)
    long_key = "k" * 100
    with pytest.raises(ginrummy.RecordError, match=f"the key '{'k' * 40}...' appears twice"):
        record.parse_json(f'{{"{long_key}": 1, "{long_key}": 2}}')
    # equal values in different objects are no duplicates; unknown top-level keys are
    # left as they were
    assert record.parse_json('[{"a": 1}, {"a": 1}]') == [{"a": 1}, {"a": 1}]
    assert record.loads(text.replace("{", '{"note": "hi", ', 1)).hands


def test_results_that_differ_are_told_in_words(data: dict[str, Any]) -> None:
    with pytest.raises(ginrummy.RecordError) as info:
        record.loads(tamper(data, lambda d: d["hands"][0]["result"].update(points=999)))
    message = str(info.value)
    assert "points: 999 in the record" in message and "{" not in message
    with pytest.raises(ginrummy.RecordError) as info:
        record.loads(tamper(data, _set(["outcome"], None)))
    assert "none is stored but the replay ends the game: seat" in str(info.value)
    with pytest.raises(ginrummy.RecordError) as info:
        record.loads(tamper(data, lambda d: d["hands"][0].update(result=None)))
    assert "no result is stored" in str(info.value) and "None" not in str(info.value)


def test_one_size_limit_with_the_true_size(tmp_path: Any) -> None:
    path = tmp_path / "big.json"
    with open(path, "wb") as f:
        f.truncate(315_000_000)  # sparse: the size is read from stat, not by reading
    with pytest.raises(
        ginrummy.RecordError, match=r"315,000,000 bytes \(the limit is 20,000,000\)"
    ):
        record.load(path)
    text = b" " * (record.MAX_RECORD_BYTES + 1)
    with pytest.raises(ginrummy.RecordError, match=r"record too large: 20,000,001 bytes"):
        record.loads(text)
    import io

    with pytest.raises(ginrummy.RecordError, match="more than 20,000,000 bytes"):
        record.read_bytes(io.BytesIO(text))
    with pytest.raises(ginrummy.RecordError, match="cannot read"):
        record.load(tmp_path)
