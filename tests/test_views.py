"""Views: what each seat and a spectator see, worked out by hand."""

from __future__ import annotations

import json

import pytest

import ginrummy

RULES = ginrummy.Rules.preset("tournament")
SEAT0 = "As 2s 3s 7h 7d 7c Kd Qd Jd 5c"
SEAT1 = "Ah 2h 3h 4c 5d 6s 8c 9d Tc Jh"
STOCK = (
    "Jc 2d 8h 6h 6c 7s Js Kc Ks Ad 5h 4d Qc Th 8d 5s 6d Ac Qs 9h Td Qh Kh 9s 4h 8s 2c 3c 9c 3d Ts"
)


def start() -> ginrummy.HandState:
    return ginrummy.new_hand(RULES, 0, hands=(SEAT0, SEAT1), upcard="4s", stock=STOCK)


def names(cards: tuple[ginrummy.Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def test_opening_view_for_each_seat() -> None:
    state = start()
    v1 = state.view(1)
    assert v1.seat == 1 and v1.to_act == 1 and v1.phase == "upcard-offer"
    assert names(v1.hand) == ["6s", "Ah", "2h", "3h", "Jh", "5d", "9d", "4c", "8c", "Tc"]
    assert names(v1.discard_pile) == ["4s"] and v1.stock_size == 31
    assert v1.legal_actions == ("take", "pass")
    v0 = state.view(0)
    assert v0.legal_actions == ()  # not seat 0's turn
    assert "Ah" not in json.dumps(v0.to_dict())


def test_known_cards_follow_pile_takes_and_discards() -> None:
    state = start().apply("pass").apply("take")  # the dealer (seat 0) takes 4s
    assert names(state.view(1).opponent_known) == ["4s"]
    assert names(state.view(None).known_cards[0]) == ["4s"]
    assert state.view(0).taken_from_pile == ginrummy.parse_card("4s")
    state = state.apply("discard Kd")
    v1 = state.view(1)
    assert names(v1.opponent_known) == ["4s"]  # still held
    assert names(v1.discard_pile) == ["Kd"]
    assert v1.legal_actions == ("stock", "pile")
    # seat 1 draws the stock (Jc): only seat 1 learns which card it was
    state = state.apply("stock")
    assert state.view(1).history[-1] == ginrummy.Event(1, "stock", ginrummy.parse_card("Jc"))
    assert state.view(0).history[-1] == ginrummy.Event(1, "stock", None)
    assert state.view(None).history[-1] == ginrummy.Event(1, "stock", None)
    assert state.view(0).hand_sizes == (10, 11)
    state = state.apply("discard Jc")  # a stock card may be discarded at once
    state = state.apply("pile")  # seat 0 takes Jc back
    assert names(state.view(1).opponent_known) == ["4s", "Jc"]
    state = state.apply("discard 4s")
    assert names(state.view(1).opponent_known) == ["Jc"]


def test_spectator_sees_only_public_information() -> None:
    state = start().apply("pass").apply("pass").apply("stock")
    spectator = state.view(None)
    assert spectator.hand == () and spectator.legal_actions == ()
    text = json.dumps(spectator.to_dict())
    for card in ginrummy.parse_cards(SEAT0 + " " + SEAT1 + " Jc"):
        assert f'"{card}"' not in text
    assert spectator.stock_size == 30


def test_result_reveals_both_hands_at_the_end() -> None:
    state = start().apply("pass").apply("take").apply("gin 5c")
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view.is_over and view.result is not None
        assert view.result.kind == "gin"
        assert len(view.result.hands[1]) == 10
        data = view.to_dict()
        assert data["result"]["hands"][1][0] == "6s"
        assert data["result"]["explanation"] == "seat 0 goes gin: scores 52 + gin bonus = 77"
    assert "Jc" not in json.dumps(state.view(1).to_dict())  # the stock stays hidden


def test_view_rejects_a_bad_seat() -> None:
    with pytest.raises(ValueError):
        start().view(2)


def test_game_view_carries_scores() -> None:
    game = ginrummy.GameState.new(RULES, 0).deal_seeded("view-test")
    view = game.view(1)
    assert view.points == (0, 0) and view.hand_number == 1 and view.hand is not None
    assert view.hand.seat == 1 and view.hand.hand_number == 1
    json.dumps(view.to_dict())


def test_every_view_field_holds_what_its_name_says() -> None:
    """view_of builds the named tuple positionally: check each field by name."""
    state = start().apply("pass").apply("take")
    v = state.view(0)
    expected = {
        "seat": 0,
        "phase": "discard",
        "to_act": 0,
        "dealer": 0,
        "hand": state.hand(0),
        "hand_sizes": (11, 10),
        "discard_pile": (),
        "stock_size": 31,
        "known_cards": (state.known_cards(0), ()),
        "upcard": ginrummy.parse_card("4s"),
        "taken_from_pile": ginrummy.parse_card("4s"),
        "knock_limit": 10,
        "multiplier": 1,
        "is_last_turn": False,
        "legal_actions": tuple(state.legal_actions()),
        "history": state.public_history(0),
        "rules": RULES,
        "points": (0, 0),
        "hands_won": (0, 0),
        "hand_number": 1,
        "result": None,
        "past_hands": (),
    }
    assert v._fields == tuple(expected)
    assert v._asdict() == expected


def test_past_hands_show_finished_hands_whole_and_nothing_of_the_hand_in_play() -> None:
    from ginrummy.ai import player

    game = ginrummy.GameState.new(ginrummy.Rules.preset("tournament"), 0)
    bots = {0: player("easy", 1), 1: player("easy", 2)}
    seen_hands = 0
    while not game.is_over and game.hand_number < 4:
        if game.needs_deal:
            game = game.deal_seeded(f"past/{game.hand_number}")
            continue
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        view = hand.view(hand.to_act)
        past = view.past_hands
        assert len(past) == len(game.finished_hands) == game.hand_number - 1
        for seen, finished in zip(past, game.finished_hands, strict=True):
            assert seen.dealer == finished.dealer and seen.result == finished.result
            assert seen.history == finished.history  # every card, stock draws too
            # the hands as dealt, played through the history, end as the result shows them
            held = [set(seen.dealt[0]), set(seen.dealt[1])]
            assert len(held[0]) == len(held[1]) == 10
            for event in seen.history:
                if event.card is not None:
                    held[event.seat].add(event.card)
                if event.action.split()[0] in ("discard", "knock", "gin"):
                    held[event.seat].discard(ginrummy.parse_card(event.action.split()[1]))
            assert held == [set(finished.hand(0)), set(finished.hand(1))]
        seen_hands = max(seen_hands, len(past))
        game = game.apply(bots[hand.to_act].choose(view), hand.to_act)
    assert seen_hands >= 2
    assert "past_hands" not in json.dumps(game.view(0).to_dict())
