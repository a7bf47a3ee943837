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
