"""The opponent's public play this hand (ginrummy.ai.signals), worked by hand."""

from __future__ import annotations

import pytest

import ginrummy
from ginrummy.ai.signals import OPPONENT_PLAY, SCALE, knock_signals, opponent_play
from ginrummy.cards import parse_card, shuffled_deck
from ginrummy.engine.hand import Event


def view_with(history: list[tuple[int, str, str | None]]) -> ginrummy.PlayerView:
    """Seat 0's view, holding 7h 8h Ks Kc 4d 6c Ts Jd 2s 3c, after ``history``."""
    state = ginrummy.deal(ginrummy.Rules.preset("classic"), 0, shuffled_deck("signals"))
    cards = ("7h", "8h", "Ks", "Kc", "4d", "6c", "Ts", "Jd", "2s", "3c")
    hand = tuple(sorted(parse_card(c) for c in cards))
    events = tuple(
        Event(seat, action, None if card is None else parse_card(card))
        for seat, action, card in history
    )
    return state.view(0)._replace(hand=hand, history=events)


def test_opponent_play_worked_by_hand() -> None:
    view = view_with(
        [
            (1, "take", "2c"),  # a take, a low one (2 points)
            (1, "discard Kd", None),  # 10 points; joins Ks Kc: a feed
            (0, "stock", "Qd"),  # the seat's own play counts for nothing
            (0, "discard 5s", None),
            (1, "pile", "5s"),  # a take, not low (5 points)
            (1, "discard 3h", None),  # low (3), lower than the last
            (1, "stock", None),  # a stock draw: its card hidden, no take
            (1, "discard 2c", None),  # low (2), lower again; the card it took
            (1, "stock", None),
            (1, "discard 9h", None),  # 9 points, a rise from 2; joins 7h 8h: a feed
        ]
    )
    expected = {
        "turns": 4.0,
        "takes": 2.0,
        "low_takes": 1.0,
        "low_discards": 2.0,
        "rises": 1.0,
        "took_then_threw": 1.0,
        "discard_points": (10 + 3 + 2 + 9) / 4,
        "feeds": 2.0,
    }
    assert dict(zip(OPPONENT_PLAY, opponent_play(view), strict=True)) == expected
    scaled = knock_signals(view)
    assert scaled == pytest.approx([4 / 10, 2 / 3, 1 / 2, 2 / 3, 1 / 3, 1.0, 6 / 10, 2 / 3])
    assert len(SCALE) == len(OPPONENT_PLAY)


def test_nothing_seen_yet() -> None:
    """Before the opponent has played, every measure is zero (the mean of no discards too)."""
    view = view_with([(0, "pass", None)])
    assert opponent_play(view) == (0.0,) * len(OPPONENT_PLAY)
    assert knock_signals(view) == (0.0,) * len(OPPONENT_PLAY)
