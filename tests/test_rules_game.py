"""Rule tests for the game around the hands (docs/rules.md): end-of-game scoring for every preset
with ``score_game``, whole games played to the target with constructed decks, and dealer
alternation through void hands.

Every expected number is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

import ginrummy
from ginrummy import DECK, Card, GameState, Rules, parse_cards, score_game

TOURNAMENT = Rules.preset("tournament")
CLASSIC = Rules.preset("classic")
APP = Rules.preset("app")
PARLOR = Rules.preset("parlor")

# --- score_game: tournament -----------------------------------------------------------------


def test_tournament_worked_example() -> None:
    # crosser 104 from 3 hands, opponent 82 from 5: no shutout
    # 104 + 3 * 25 + 100 = 279 against 82 + 5 * 25 = 207; the crosser wins
    o = score_game(TOURNAMENT, points=(104, 82), hands_won=(3, 5))
    assert o.crosser == 0
    assert o.shutout is False
    assert o.hand_points == (104, 82)
    assert o.line_bonuses == (75, 125)
    assert o.game_bonuses == (100, 0)
    assert o.grand_totals == (279, 207)
    assert o.winner == 0


def test_tournament_worked_example_mirrored_seats() -> None:
    o = score_game(TOURNAMENT, points=(82, 104), hands_won=(5, 3))
    assert o.crosser == 1
    assert o.grand_totals == (207, 279)
    assert o.winner == 1


def test_tournament_shutout_doubles_the_crossers_hand_points() -> None:
    # the opponent won no hand: 110 x 2 = 220, + 3 * 25 + 100 = 395 against 0
    o = score_game(TOURNAMENT, points=(110, 0), hands_won=(3, 0))
    assert o.shutout is True
    assert o.hand_points == (220, 0)
    assert o.line_bonuses == (75, 0)
    assert o.game_bonuses == (100, 0)
    assert o.grand_totals == (395, 0)
    assert o.winner == 0


def test_tournament_shutout_by_seat_one() -> None:
    # 0 against 130 from 2 hands: 130 x 2 + 2 * 25 + 100 = 410
    o = score_game(TOURNAMENT, points=(0, 130), hands_won=(0, 2))
    assert o.shutout is True
    assert o.grand_totals == (0, 410)
    assert o.winner == 1


def test_tournament_one_hand_won_by_the_opponent_is_no_shutout() -> None:
    # 110 from 3 hands against 25 from 1 (an undercut):
    # 110 + 75 + 100 = 285 against 25 + 25 = 50
    o = score_game(TOURNAMENT, points=(110, 25), hands_won=(3, 1))
    assert o.shutout is False
    assert o.grand_totals == (285, 50)
    assert o.winner == 0


def test_tournament_non_crosser_can_win_on_grand_total() -> None:
    # crosser 100 from 1 hand: 100 + 25 + 100 = 225
    # opponent 99 from 8 hands: 99 + 8 * 25 = 299 -> the opponent wins
    o = score_game(TOURNAMENT, points=(100, 99), hands_won=(1, 8))
    assert o.crosser == 0
    assert o.grand_totals == (225, 299)
    assert o.winner == 1


def test_tournament_equal_grand_totals_is_a_drawn_game() -> None:
    # crosser 100 from 2 hands: 100 + 50 + 100 = 250
    # opponent 75 from 7 hands: 75 + 175 = 250 -> drawn
    o = score_game(TOURNAMENT, points=(100, 75), hands_won=(2, 7))
    assert o.grand_totals == (250, 250)
    assert o.winner is None


def test_score_game_needs_exactly_one_crosser() -> None:
    with pytest.raises(ValueError):
        score_game(TOURNAMENT, points=(99, 80), hands_won=(3, 3))
    with pytest.raises(ValueError):
        score_game(TOURNAMENT, points=(100, 100), hands_won=(3, 3))


# --- score_game: classic --------------------------------------------------------------------


def test_classic_has_no_bonuses_and_first_to_target_wins() -> None:
    # 100 against 95: no line, no game bonus; seat 0 reached 100 and wins
    o = score_game(CLASSIC, points=(100, 95), hands_won=(2, 9))
    assert o.line_bonuses == (0, 0)
    assert o.game_bonuses == (0, 0)
    assert o.grand_totals == (100, 95)
    assert o.winner == 0


def test_classic_has_no_shutout() -> None:
    o = score_game(CLASSIC, points=(0, 120), hands_won=(0, 3))
    assert o.shutout is False
    assert o.grand_totals == (0, 120)
    assert o.winner == 1


# --- score_game: app ------------------------------------------------------------------------


def test_app_line_and_game_bonus() -> None:
    # 104 + 3 * 25 + 100 = 279 against 82 + 5 * 25 = 207
    o = score_game(APP, points=(104, 82), hands_won=(3, 5))
    assert o.shutout is False
    assert o.grand_totals == (279, 207)
    assert o.winner == 0


def test_app_first_to_target_wins_even_with_the_lower_total() -> None:
    # 100 + 25 + 100 = 225 against 95 + 8 * 25 = 295; seat 0 reached the target: seat 0 wins
    o = score_game(APP, points=(100, 95), hands_won=(1, 8))
    assert o.grand_totals == (225, 295)
    assert o.winner == 0


def test_app_shutout_doubles_the_winners_bonuses() -> None:
    # loser scored no points: line 3 * 25 x 2 = 150, game 100 x 2 = 200; hand points kept
    # 120 + 150 + 200 = 470
    o = score_game(APP, points=(120, 0), hands_won=(3, 0))
    assert o.shutout is True
    assert o.hand_points == (120, 0)
    assert o.line_bonuses == (150, 0)
    assert o.game_bonuses == (200, 0)
    assert o.grand_totals == (470, 0)
    assert o.winner == 0


def test_app_short_game_target_50() -> None:
    rules = replace(APP, target=50)
    # 55 from 2 hands against 30 from 1: 55 + 50 + 100 = 205 against 30 + 25 = 55
    o = score_game(rules, points=(55, 30), hands_won=(2, 1))
    assert o.grand_totals == (205, 55)
    assert o.winner == 0


# --- score_game: parlor ---------------------------------------------------------------------


def test_parlor_game_bonus_200_when_loser_won_no_hand() -> None:
    # 120 + 3 * 25 + 2 * 100 = 395 against 0; hand points not doubled
    o = score_game(PARLOR, points=(120, 0), hands_won=(3, 0))
    assert o.shutout is True
    assert o.hand_points == (120, 0)
    assert o.line_bonuses == (75, 0)
    assert o.game_bonuses == (200, 0)
    assert o.grand_totals == (395, 0)
    assert o.winner == 0


def test_parlor_normal_game_bonus() -> None:
    # 104 + 75 + 100 = 279 against 82 + 125 = 207
    o = score_game(PARLOR, points=(104, 82), hands_won=(3, 5))
    assert o.shutout is False
    assert o.game_bonuses == (100, 0)
    assert o.grand_totals == (279, 207)
    assert o.winner == 0


def test_parlor_first_to_target_wins() -> None:
    # seat 1 crosses with 100 from 1 hand: 100 + 25 + 100 = 225;
    # seat 0 95 from 8 hands: 95 + 200 = 295, but seat 1 reached the target first
    o = score_game(PARLOR, points=(95, 100), hands_won=(8, 1))
    assert o.grand_totals == (295, 225)
    assert o.winner == 1


# --- whole games ----------------------------------------------------------------------------

# Hands (see tests/test_rules_hand.py for the same arithmetic):
KNOCK10 = "2c 3c 4c 5c 9h Th Jh Qh 6s 4d"  # knocks Ks with 6s 4d = 10
DEF58 = "9s 9d Kd 7s 7d 3h 4h 5h Jc 6d"  # [3h4h5h] + 58, nothing laid off on KNOCK10
DEF1 = "3h 4h 5h 7s 8s 9s Jd Qd Kd Ad"  # Ad = 1: undercuts KNOCK10
GIN_BUT_7D = "2c 3c 4c 9h Th Jh Ks Kd Kc 7d"  # + 5c: gin, discarding 7d
DEF57 = "Qh 6c Kh 8d 8s 4s 5s As 2d 3h"  # 57, no lay-offs on gin


def deck_for(non_dealer: str, dealer: str, upcard: str, stock_top: str = "") -> list[Card]:
    """A 52-card deck order dealing these hands: the non-dealer gets positions 0, 2, .. 18,
    the dealer 1, 3, .. 19, then the upcard, then the stock (``stock_top`` first, the other
    cards after it)."""
    nd, dl = parse_cards(non_dealer), parse_cards(dealer)
    up, top = parse_cards(upcard), parse_cards(stock_top)
    used = set(nd + dl + up + top)
    deck: list[Card] = []
    for a, b in zip(nd, dl, strict=True):
        deck += [a, b]
    return deck + up + top + [c for c in DECK if c not in used]


def names(cards: Iterable[object]) -> set[str]:
    return {str(c) for c in cards}


def play(game: GameState, *actions: str) -> GameState:
    for action in actions:
        game = game.apply(action)
    return game


def test_deck_for_deals_the_hands_to_the_right_seats() -> None:
    game = GameState.new(TOURNAMENT, first_dealer=1).deal(deck_for(KNOCK10, DEF58, "Tc", "Ks"))
    hand = game.hand
    assert hand is not None
    assert hand.dealer == 1
    assert names(hand.hand(0)) == names(parse_cards(KNOCK10))
    assert names(hand.hand(1)) == names(parse_cards(DEF58))
    assert str(hand.upcard) == "Tc"
    assert str(hand.stock[0]) == "Ks"
    assert hand.stock_size == 31


def test_tournament_game_of_four_hands_to_100() -> None:
    game = GameState.new(TOURNAMENT, first_dealer=1)

    # hand 1: seat 1 deals; seat 0 knocks with 10 against 58: 58 - 10 = 48
    assert game.next_dealer == 1
    game = game.deal(deck_for(KNOCK10, DEF58, "Tc", "Ks"))
    game = play(game, "pass", "pass", "stock", "knock Ks")
    assert game.points == (48, 0)
    assert game.hands_won == (1, 0)
    assert not game.is_over

    # hand 2: seat 0 deals; seat 1 knocks with 10, seat 0 (Ad = 1) undercuts: 10 - 1 + 25 = 34
    assert game.next_dealer == 0
    game = game.deal(deck_for(KNOCK10, DEF1, "Tc", "Ks"))
    assert game.to_act == 1
    game = play(game, "pass", "pass", "stock", "knock Ks")
    assert game.results[-1].kind == "undercut"
    assert game.points == (82, 0)  # 48 + 34
    assert game.hands_won == (2, 0)

    # hand 3: seat 1 deals; seat 0 passes the 5c upcard, the dealer takes it and goes gin
    # discarding 7d: 57 + 25 = 82
    assert game.next_dealer == 1
    game = game.deal(deck_for(DEF57, GIN_BUT_7D, "5c"))
    game = play(game, "pass", "take", "gin 7d")
    assert game.results[-1].kind == "gin"
    assert game.points == (82, 82)
    assert game.hands_won == (2, 1)
    assert not game.is_over

    # hand 4: seat 0 deals; seat 1 knocks with 10 against 58: 48 -> 82 + 48 = 130 >= 100
    assert game.next_dealer == 0
    game = game.deal(deck_for(KNOCK10, DEF58, "Tc", "Ks"))
    game = play(game, "pass", "pass", "stock", "knock Ks")
    assert game.points == (82, 130)
    assert game.hands_won == (2, 2)
    assert game.is_over
    o = game.outcome
    assert o is not None
    # seat 1 crosses; seat 0 won hands, so no shutout
    # seat 0: 82 + 2 * 25 = 132; seat 1: 130 + 2 * 25 + 100 = 280
    assert o.crosser == 1
    assert o.shutout is False
    assert o.grand_totals == (132, 280)
    assert o.winner == 1
    assert [r.points for r in game.results] == [48, 34, 82, 48]


def test_short_tournament_game_shutout() -> None:
    rules = replace(TOURNAMENT, target=50)
    game = GameState.new(rules, first_dealer=1)
    # hand 1: seat 0 knocks: 48 (< 50)
    game = play(
        game.deal(deck_for(KNOCK10, DEF58, "Tc", "Ks")), "pass", "pass", "stock", "knock Ks"
    )
    assert game.points == (48, 0)
    assert not game.is_over
    # hand 2: seat 0 deals, seat 1 passes, seat 0 takes 5c and goes gin: 57 + 25 = 82
    game = play(game.deal(deck_for(DEF57, GIN_BUT_7D, "5c")), "pass", "take", "gin 7d")
    assert game.points == (130, 0)
    assert game.hands_won == (2, 0)
    assert game.is_over
    o = game.outcome
    assert o is not None
    # shutout: 130 x 2 + 2 * 25 + 100 = 410 against 0
    assert o.shutout is True
    assert o.grand_totals == (410, 0)
    assert o.winner == 0


def test_short_classic_game_ends_on_one_gin() -> None:
    rules = replace(CLASSIC, target=50)
    game = GameState.new(rules, first_dealer=1)
    game = game.deal(deck_for(GIN_BUT_7D, DEF57, "Js", "5c"))
    game = play(game, "pass", "pass", "stock", "gin 7d")
    # 57 + 25 = 82 >= 50; classic: no bonuses, first to the target wins
    assert game.points == (82, 0)
    assert game.is_over
    o = game.outcome
    assert o is not None
    assert o.grand_totals == (82, 0)
    assert o.shutout is False
    assert o.winner == 0
    with pytest.raises(ginrummy.GinRummyError):
        game.apply("stock")
    with pytest.raises(ginrummy.GameOverError):
        game.deal(deck_for(KNOCK10, DEF58, "Tc", "Ks"))


def test_short_app_game_shutout_doubles_bonuses() -> None:
    rules = replace(APP, target=50)
    game = GameState.new(rules, first_dealer=0)
    # seat 0 deals; seat 1 (non-dealer) goes gin: 82
    game = play(
        game.deal(deck_for(GIN_BUT_7D, DEF57, "Js", "5c")), "pass", "pass", "stock", "gin 7d"
    )
    assert game.points == (0, 82)
    o = game.outcome
    assert o is not None
    # seat 0 scored nothing: 82 + 25 x 2 + 100 x 2 = 332
    assert o.shutout is True
    assert o.grand_totals == (0, 332)
    assert o.winner == 1


def test_short_parlor_game() -> None:
    rules = replace(PARLOR, target=100)
    game = GameState.new(rules, first_dealer=1)
    # hand 1 (seat 1 deals): seat 0 knocks, 48
    game = play(
        game.deal(deck_for(KNOCK10, DEF58, "Tc", "Ks")), "pass", "pass", "stock", "knock Ks"
    )
    # hand 2 (seat 0 deals): seat 1 knocks, 48
    game = play(
        game.deal(deck_for(KNOCK10, DEF58, "Tc", "Ks")), "pass", "pass", "stock", "knock Ks"
    )
    assert game.points == (48, 48)
    # hand 3 (seat 1 deals): seat 0 goes gin, 82 -> 130
    game = play(
        game.deal(deck_for(GIN_BUT_7D, DEF57, "Js", "5c")), "pass", "pass", "stock", "gin 7d"
    )
    assert game.points == (130, 48)
    assert game.hands_won == (2, 1)
    o = game.outcome
    assert o is not None
    # 130 + 50 + 100 = 280 against 48 + 25 = 73
    assert o.shutout is False
    assert o.grand_totals == (280, 73)
    assert o.winner == 0


def play_out_void(game: GameState) -> GameState:
    """Both pass, then each player draws from the stock and throws that card back until the
    stock is down to two: the last discard makes the hand void."""
    game = play(game, "pass", "pass")
    while not game.needs_deal:
        hand = game.hand
        assert hand is not None
        seat = hand.to_act
        assert seat is not None
        before = set(hand.hand(seat))
        game = game.apply("stock")
        after = game.hand
        assert after is not None
        (drawn,) = set(after.hand(seat)) - before
        game = game.apply(f"discard {drawn}")
    return game


def test_void_hand_passes_the_deal_and_counts_for_nobody() -> None:
    game = GameState.new(TOURNAMENT, first_dealer=0)
    game = play_out_void(game.deal_seeded("void hand"))
    hand = game.hand
    assert hand is not None
    result = hand.result
    assert result is not None
    assert result.kind == "void"
    assert result.winner is None
    assert result.points == 0
    # 31 stock cards, 29 drawn: two left
    assert hand.stock_size == 2
    assert game.points == (0, 0)
    assert game.hands_won == (0, 0)
    assert not game.is_over
    # the deal passes to the other seat
    assert game.next_dealer == 1
    game = game.deal(deck_for(KNOCK10, DEF58, "Tc", "Ks"))
    hand = game.hand
    assert hand is not None
    assert hand.dealer == 1
    # seat 0 is the non-dealer of hand 2 and knocks: 48; the void counted for nobody
    game = play(game, "pass", "pass", "stock", "knock Ks")
    assert game.points == (48, 0)
    assert game.hands_won == (1, 0)
    assert game.next_dealer == 0
    assert [r.kind for r in game.results] == ["void", "knock"]


def test_two_void_hands_return_the_deal() -> None:
    game = GameState.new(TOURNAMENT, first_dealer=1)
    game = play_out_void(game.deal_seeded("void 1"))
    assert game.next_dealer == 0
    game = play_out_void(game.deal_seeded("void 2"))
    assert game.next_dealer == 1
    assert game.hands_won == (0, 0)
    assert game.points == (0, 0)
