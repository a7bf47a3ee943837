"""Golden files: a seeded random-play game's full transcript, diffed line by line.

To regenerate after an intended change: ``GINRUMMY_UPDATE_GOLDEN=1 pytest tests/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import ginrummy
from ginrummy.cards import format_cards
from ginrummy.playout import random_game

GOLDEN = Path(__file__).parent / "golden"


def transcript(game: ginrummy.GameState) -> str:
    """Everything that happened, full information, one line per action."""
    lines = [f"rules {game.rules.to_dict()}", f"first dealer {game.first_dealer}"]
    for number, (hand, deck) in enumerate(zip(game.finished_hands, game.decks, strict=True), 1):
        lines.append(f"hand {number} dealer {hand.dealer} deck {format_cards(deck)}")
        for event in hand.history:
            card = f" -> {event.card}" if event.card is not None else ""
            lines.append(f"  {event.seat} {event.action}{card}")
        r = hand.result
        assert r is not None
        for seat in (0, 1):
            lines.append(f"  seat {seat}: {r.arrangements[seat]}")
        if r.layoffs:
            lines.append("  layoffs " + " ".join(f"{lo.card}>{lo.meld}" for lo in r.layoffs))
        lines.append(f"  {r.kind} winner {r.winner} points {r.points} deadwood {r.deadwood}")
    assert game.outcome is not None
    lines.append(f"points {game.points} hands won {game.hands_won}")
    lines.extend(game.outcome.explain())
    return "\n".join(lines) + "\n"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("GINRUMMY_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), text.splitlines(True), "golden", "now"
                )
            )[:60]
        )
        raise AssertionError(f"{name} differs from the golden file:\n{diff}")


def test_seeded_random_game_transcript() -> None:
    game = random_game(ginrummy.Rules.preset("tournament"), "golden-1")
    check_golden("random_game_tournament_golden-1.txt", transcript(game))


def test_seeded_random_game_record() -> None:
    """The JSON record format itself is pinned too."""
    from ginrummy import record

    rules = __import__("dataclasses").replace(ginrummy.Rules.preset("classic"), target=30)
    game = random_game(rules, "golden-2")
    check_golden("random_game_classic30_golden-2.json", record.dumps(record.record_of(game)))


def test_shuffle_is_pinned() -> None:
    """The published shuffle never changes: fairness proofs depend on it."""
    text = "".join(
        f"{seed}: {format_cards(ginrummy.shuffled_deck(seed))}\n"
        for seed in ("", "0", "1", "golden", "ginrummy", "ünïcode")
    )
    check_golden("shuffles.txt", text)
