"""Rule tests for melds, deadwood, best discards, lay-offs and card parsing (RULES.md).

Every expected number is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import ginrummy
from ginrummy import arrange, parse_cards


def names(cards: Iterable[object]) -> set[str]:
    """The two-character names of some cards, as a set."""
    return {str(c) for c in cards}


def meld_sets(arrangement: ginrummy.Arrangement) -> set[frozenset[str]]:
    """The melds of an arrangement as a set of sets of card names (order-free)."""
    return {frozenset(str(c) for c in meld) for meld in arrangement.melds}


# --- melds and deadwood ---------------------------------------------------------------------


def test_four_card_set_is_split_to_feed_a_run() -> None:
    # 7s 7h 7d 7c 5h 6h: keeping all four sevens leaves 5h 6h = 11 deadwood; splitting off
    # 7h into the run 5h 6h 7h and keeping the set 7s 7d 7c leaves nothing.
    a = arrange(parse_cards("7s 7h 7d 7c 5h 6h"))
    assert a.deadwood_points == 0
    assert a.deadwood == ()
    assert meld_sets(a) == {frozenset({"7s", "7d", "7c"}), frozenset({"5h", "6h", "7h"})}


def test_ace_is_low_a_2_3_is_a_run() -> None:
    a = arrange(parse_cards("As 2s 3s"))
    assert a.deadwood_points == 0
    assert meld_sets(a) == {frozenset({"As", "2s", "3s"})}


def test_queen_king_ace_is_not_a_run() -> None:
    # Q K A does not wrap: Qs 10 + Ks 10 + As 1 = 21, no meld
    a = arrange(parse_cards("Qs Ks As"))
    assert a.melds == ()
    assert names(a.deadwood) == {"Qs", "Ks", "As"}
    assert a.deadwood_points == 21


def test_ace_counts_one_point_and_court_cards_ten() -> None:
    # As 1 + Tc 10 + Jd 10 + Qh 10 + Ks 10 + 9c 9 = 50 (no two of a rank, no neighbours
    # of a suit: Tc 9c are only two)
    a = arrange(parse_cards("As Tc Jd Qh Ks 9c"))
    assert a.melds == ()
    assert a.deadwood_points == 50


def test_ten_cards_three_melds_one_loose_card() -> None:
    # [As 2s 3s] [7h 7d 7c] [Jd Qd Kd], 5c loose = 5
    a = arrange(parse_cards("As 2s 3s 7h 7d 7c Kd Qd Jd 5c"))
    assert a.deadwood_points == 5
    assert names(a.deadwood) == {"5c"}
    assert meld_sets(a) == {
        frozenset({"As", "2s", "3s"}),
        frozenset({"7h", "7d", "7c"}),
        frozenset({"Jd", "Qd", "Kd"}),
    }


def test_ten_cards_without_any_meld() -> None:
    # 2c 3d 5h 9s 9d Kh Qc 4s 8h Jd: one pair (9s 9d), no three in a suit in a row
    # 2 + 3 + 5 + 9 + 9 + 10 + 10 + 4 + 8 + 10 = 70
    a = arrange(parse_cards("2c 3d 5h 9s 9d Kh Qc 4s 8h Jd"))
    assert a.melds == ()
    assert a.deadwood_points == 70


def test_ten_cards_choosing_which_three_sixes_make_the_set() -> None:
    # 4h 5h 6h 6s 6d 6c 7c 8c 2d 3d. Ways to use the sixes:
    #   runs 4h5h6h + 6c7c8c, 6s 6d loose: 6 + 6 + 2 + 3 = 17
    #   set 6s6d6c + run 4h5h6h, 7c 8c loose: 7 + 8 + 2 + 3 = 20
    #   set 6h6s6d + run 6c7c8c, 4h 5h loose: 4 + 5 + 2 + 3 = 14   <- least
    #   all four sixes, 4h 5h 7c 8c loose: 4 + 5 + 7 + 8 + 5 = 29
    a = arrange(parse_cards("4h 5h 6h 6s 6d 6c 7c 8c 2d 3d"))
    assert a.deadwood_points == 14
    assert names(a.deadwood) == {"4h", "5h", "2d", "3d"}
    assert meld_sets(a) == {frozenset({"6h", "6s", "6d"}), frozenset({"6c", "7c", "8c"})}


def test_a_card_is_in_at_most_one_meld() -> None:
    # 7s 7h 7d 8h 9h: set 777 leaves 8h 9h = 17; run 7h8h9h leaves 7s 7d = 14 -> 14.
    # (Using 7h in both would be 0; that is not allowed.)
    a = arrange(parse_cards("7s 7h 7d 8h 9h"))
    assert a.deadwood_points == 14
    assert names(a.deadwood) == {"7s", "7d"}


def test_gin_hand_of_ten_cards() -> None:
    # [As 2s 3s 4s] [5h 5d 5c] [Jh Qh Kh] = 0
    a = arrange(parse_cards("As 2s 3s 4s 5h 5d 5c Jh Qh Kh"))
    assert a.deadwood_points == 0
    assert a.deadwood == ()
    assert len(a.melds) == 3


def test_ten_card_run_is_all_melded() -> None:
    a = arrange(parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th"))
    assert a.deadwood_points == 0


def test_no_cards_have_no_deadwood() -> None:
    a = arrange([])
    assert a.melds == ()
    assert a.deadwood == ()
    assert a.deadwood_points == 0


def test_two_minimal_arrangements_are_both_listed() -> None:
    # Jh Qh Kh Qs Qd: run JQKh leaves Qs Qd = 20; set QQQ leaves Jh Kh = 20
    arrangements = ginrummy.all_min_arrangements(parse_cards("Jh Qh Kh Qs Qd"))
    assert {a.deadwood_points for a in arrangements} == {20}
    assert {frozenset(names(a.deadwood)) for a in arrangements} == {
        frozenset({"Qs", "Qd"}),
        frozenset({"Jh", "Kh"}),
    }


# --- best discard ---------------------------------------------------------------------------


def test_best_discard_of_eleven_cards_drops_the_worst_loose_card() -> None:
    # [As 2s 3s] [7h 7d 7c] [Jd Qd Kd] + 5c 9h: discard 9h keeps 5c = 5
    # (discarding 5c would keep 9h = 9)
    card, kept = ginrummy.best_discard(parse_cards("As 2s 3s 7h 7d 7c Kd Qd Jd 5c 9h"))
    assert str(card) == "9h"
    assert kept.deadwood_points == 5
    assert names(kept.deadwood) == {"5c"}


def test_best_discard_leaving_gin() -> None:
    # [Ks Kh Kd] [9c Tc Jc Qc] [2s 3s 4s] + 5d: discard 5d -> 0
    card, kept = ginrummy.best_discard(parse_cards("Kh Ks Kd Qc Jc Tc 9c 2s 3s 4s 5d"))
    assert str(card) == "5d"
    assert kept.deadwood_points == 0


def test_best_discard_keeps_the_low_card() -> None:
    # [As 2s 3s] [4h 5h 6h] [7c 8c 9c] + Kd 2d: discard Kd keeps 2d = 2
    card, kept = ginrummy.best_discard(parse_cards("As 2s 3s 4h 5h 6h 7c 8c 9c Kd 2d"))
    assert str(card) == "Kd"
    assert kept.deadwood_points == 2


# --- lay-offs (the pure function) -----------------------------------------------------------


def test_lay_off_chains_onto_both_ends_of_a_run() -> None:
    # knocker run 5d 6d 7d; defender 4d then 3d below, 8d then 9d above; Kh stays = 10
    knocker = arrange(parse_cards("5d 6d 7d"))
    reading = ginrummy.lay_off(parse_cards("3d 4d 8d 9d Kh"), knocker)
    assert names(lo.card for lo in reading.layoffs) == {"3d", "4d", "8d", "9d"}
    assert reading.deadwood_points == 10


def test_lay_off_the_fourth_card_of_a_set() -> None:
    # knocker set 7s 7h 7c; defender 7d goes on it; 2c stays = 2
    knocker = arrange(parse_cards("7s 7h 7c"))
    reading = ginrummy.lay_off(parse_cards("7d 2c"), knocker)
    assert names(lo.card for lo in reading.layoffs) == {"7d"}
    assert reading.deadwood_points == 2


def test_no_lay_off_onto_a_four_card_set() -> None:
    # knocker has all four kings; a defender Q cannot go on them: Qh = 10
    knocker = arrange(parse_cards("Ks Kh Kd Kc"))
    reading = ginrummy.lay_off(parse_cards("Qh"), knocker)
    assert reading.layoffs == ()
    assert reading.deadwood_points == 10


# --- card text ------------------------------------------------------------------------------


def test_parse_cards_accepts_ten_and_suit_symbols() -> None:
    cards = parse_cards("10h 7♥ A♠ K♦ 2♣ Td")
    assert [str(c) for c in cards] == ["Th", "7h", "As", "Kd", "2c", "Td"]


def test_card_prints_in_two_character_form() -> None:
    assert str(parse_cards("As")[0]) == "As"
    assert [str(c) for c in parse_cards("10c, 9s")] == ["Tc", "9s"]


@pytest.mark.parametrize("token", ["Xs", "7x", "1h", "11d", "Q"])
def test_bad_card_token_is_named_in_the_error(token: str) -> None:
    with pytest.raises(ginrummy.CardParseError) as info:
        parse_cards(f"As {token} 2s")
    assert token in str(info.value)
    assert info.value.code == "card/parse"
    assert isinstance(info.value, ValueError)


def test_a_card_given_twice_is_refused() -> None:
    with pytest.raises(ginrummy.CardParseError, match="7h"):
        parse_cards("7h 8h 7h")
