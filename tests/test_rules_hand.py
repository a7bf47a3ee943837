"""Rule tests for one hand (docs/rules.md): the opening ritual, turns, knocking, gin, Big Gin,
lay-offs, the knocker's tie-break, void hands, illegal actions and Oklahoma.

Each test sets up an exact position with ``new_hand``, plays a few actions and checks the
result against numbers worked out by hand (the arithmetic is in the comments).

Seats: unless said otherwise seat 1 deals, so seat 0 (the non-dealer) acts first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import ginrummy
from ginrummy import DECK, HandState, Rules, new_hand, parse_cards

TOURNAMENT = Rules.preset("tournament")
CLASSIC = Rules.preset("classic")
OKLAHOMA = replace(TOURNAMENT, oklahoma=True)

# Hands used by several tests (the deadwood of the ten cards in the comment).
KNOCK10 = "2c 3c 4c 5c 9h Th Jh Qh 6s 4d"  # [2c-5c] [9h-Qh], 6s 4d = 10
KNOCK11 = "2c 3c 4c 5c 9h Th Jh Qh 6s 5d"  # [2c-5c] [9h-Qh], 6s 5d = 11
KNOCK3 = "2c 3c 4c 5c 9h Th Jh Qh Ah 2d"  # [2c-5c] [9h-Qh], Ah 2d = 3
GIN_BUT_7D = "2c 3c 4c 9h Th Jh Ks Kd Kc 7d"  # draws 5c -> [2c-5c] [9h-Jh] [KKK], gin 7d
ALL_MELDED = "2c 3c 4c 5c 9h Th Jh Ks Kd Kc"  # [2c-5c] [9h-Jh] [KKK] = 0
# 9s 9d Kd 7s 7d Jc 6d loose, [3h 4h 5h]: 9 + 9 + 10 + 7 + 7 + 10 + 6 = 58; nothing of it
# goes on [2c-5c] (needs Ac / 6c) or [9h-Qh] (needs 8h / Kh).
DEF58 = "9s 9d Kd 7s 7d 3h 4h 5h Jc 6d"
# no meld: Qh 10 + 6c 6 + Kh 10 + 8d 8 + 8s 8 + 4s 4 + 5s 5 + As 1 + 2d 2 + 3h 3 = 57.
# Qh, 6c and Kh would go on GIN_BUT_7D's melds after a knock (not after gin).
DEF57 = "Qh 6c Kh 8d 8s 4s 5s As 2d 3h"
# no meld: 6c 6 + 8h 8 + Kh 10 + 4s 4 + 5s 5 + As 1 + 2d 2 + 3h 3 + 7d 7 + 9s 9 = 55
DEF55 = "6c 8h Kh 4s 5s As 2d 3h 7d 9s"


def setup(
    seat0: str,
    seat1: str,
    upcard: str,
    stock_top: str,
    *,
    rules: Rules = TOURNAMENT,
    dealer: int = 1,
    stock_size: int = 10,
) -> HandState:
    """A hand with these cards; the stock is ``stock_top`` then filler cards (never drawn
    by the tests) up to ``stock_size`` cards."""
    used = set(parse_cards(f"{seat0} {seat1} {upcard} {stock_top}"))
    top = parse_cards(stock_top)
    filler = [c for c in DECK if c not in used][: max(0, stock_size - len(top))]
    return new_hand(rules, dealer, hands=(seat0, seat1), upcard=upcard, stock=top + filler)


def play(state: HandState, *actions: str) -> HandState:
    for action in actions:
        state = state.apply(action)
    return state


def both_pass_then_stock(state: HandState) -> HandState:
    """Both players pass the upcard; the non-dealer draws the top of the stock."""
    return play(state, "pass", "pass", "stock")


def error_code(state: HandState, action: str, seat: int | None = None) -> str:
    with pytest.raises(ginrummy.IllegalActionError) as info:
        state.apply(action, seat=seat)
    return info.value.code


def names(cards: Any) -> set[str]:
    return {str(c) for c in cards}


def knocks(state: HandState) -> list[str]:
    return [a for a in state.legal_actions() if a.startswith("knock")]


# --- the opening ritual ---------------------------------------------------------------------

OPEN0 = "As 2s 3s 7h 7d 7c Kd Qd Jd 5c"
OPEN1 = "4h 5h 6h 8s 8c 8d Tc 9c 2d Ah"


def opening(dealer: int = 1) -> HandState:
    seat0, seat1 = (OPEN0, OPEN1) if dealer == 1 else (OPEN1, OPEN0)
    return setup(seat0, seat1, "Ks", "2h 3c 4c 5s 6c 9h", dealer=dealer, stock_size=6)


def test_opening_non_dealer_is_offered_the_upcard() -> None:
    state = opening()
    assert state.to_act == 0
    assert sorted(state.legal_actions()) == ["pass", "take"]
    assert [str(c) for c in state.discard_pile] == ["Ks"]


def test_opening_non_dealer_takes_then_discards_and_dealer_draws_normally() -> None:
    state = opening().apply("take")
    assert state.to_act == 0
    assert "Ks" in names(state.hand(0))
    assert len(state.hand(0)) == 11
    assert state.discard_pile == ()
    legal = state.legal_actions()
    assert "discard Ks" not in legal
    assert "discard 5c" in legal
    assert error_code(state, "discard Ks") == "action/discard-taken"
    state = state.apply("discard 5c")
    assert state.to_act == 1
    assert sorted(state.legal_actions()) == ["pile", "stock"]
    assert [str(c) for c in state.discard_pile] == ["5c"]
    # the dealer may take the non-dealer's discard: a normal turn
    state = state.apply("pile")
    assert "5c" in names(state.hand(1))
    assert state.to_act == 1


def test_opening_non_dealer_passes_and_dealer_takes() -> None:
    state = opening().apply("pass")
    assert state.to_act == 1
    assert sorted(state.legal_actions()) == ["pass", "take"]
    state = state.apply("take")
    assert "Ks" in names(state.hand(1))
    assert "discard Ks" not in state.legal_actions()
    assert error_code(state, "discard Ks") == "action/discard-taken"
    state = state.apply("discard 2d")
    # play goes on normally with the other player (the non-dealer)
    assert state.to_act == 0
    assert sorted(state.legal_actions()) == ["pile", "stock"]
    assert [str(c) for c in state.discard_pile] == ["2d"]


@pytest.mark.parametrize("dealer", [0, 1])
def test_opening_both_pass_then_non_dealer_must_draw_from_stock(dealer: int) -> None:
    non_dealer = 1 - dealer
    state = play(opening(dealer), "pass", "pass")
    assert state.to_act == non_dealer
    assert state.legal_actions() == ["stock"]
    assert error_code(state, "pile") == "action/first-draw-stock"
    assert error_code(state, "take") == "action/first-draw-stock"
    state = state.apply("stock")
    assert state.to_act == non_dealer
    assert "2h" in names(state.hand(non_dealer))  # the top of the stock
    assert state.stock_size == 5
    # after that, normal turns offer both the stock and the pile
    state = state.apply("discard 2h")
    assert state.to_act == dealer
    assert sorted(state.legal_actions()) == ["pile", "stock"]
    assert [str(c) for c in state.discard_pile] == ["Ks", "2h"]
    state = state.apply("pile")  # the top card only: 2h, not the passed Ks
    assert "2h" in names(state.hand(dealer))
    assert "Ks" not in names(state.hand(dealer))
    assert [str(c) for c in state.discard_pile] == ["Ks"]


# --- discarding -----------------------------------------------------------------------------


def test_card_taken_from_the_pile_cannot_be_discarded_back() -> None:
    state = both_pass_then_stock(opening()).apply("discard 5c").apply("pile")
    assert str(state.taken_from_pile) == "5c"
    assert "discard 5c" not in state.legal_actions()
    with pytest.raises(ginrummy.IllegalActionError) as info:
        state.apply("discard 5c")
    assert info.value.code == "action/discard-taken"
    assert "5c" in str(info.value)


def test_stock_card_may_be_discarded_at_once() -> None:
    state = both_pass_then_stock(opening())
    assert "discard 2h" in state.legal_actions()
    state = state.apply("discard 2h")
    assert str(state.discard_pile[-1]) == "2h"
    assert "2h" not in names(state.hand(0))
    assert state.to_act == 1


# --- the knock limit ------------------------------------------------------------------------


def test_knock_with_exactly_ten_is_legal() -> None:
    # KNOCK10 draws Ks: discard Ks keeps 6s + 4d = 10 <= 10
    state = both_pass_then_stock(setup(KNOCK10, DEF58, "Tc", "Ks"))
    assert "knock Ks" in state.legal_actions()
    result = state.apply("knock Ks").result
    assert result is not None
    assert result.kind == "knock"
    # knocker 6s 4d = 10; defender 58, nothing laid off; 58 - 10 = 48
    assert result.deadwood == (10, 58)
    assert (result.winner, result.points) == (0, 48)


def test_knock_with_eleven_is_refused() -> None:
    # KNOCK11 draws Ks: the best ten keep 6s + 5d = 11 > 10 (any other discard is worse:
    # keep 5d Ks = 15, keep 6s Ks = 16)
    state = both_pass_then_stock(setup(KNOCK11, DEF58, "Tc", "Ks"))
    assert knocks(state) == []
    assert "discard Ks" in state.legal_actions()
    with pytest.raises(ginrummy.IllegalActionError) as info:
        state.apply("knock Ks")
    assert info.value.code == "action/knock-too-high"
    assert "11" in str(info.value)


def test_knock_card_is_not_counted_in_the_deadwood() -> None:
    # KNOCK3 + Ks: the eleven cards have Ah 2d Ks = 1 + 2 + 10 = 13 > 10 deadwood, but the
    # ten kept after discarding Ks have Ah 2d = 3.
    state = both_pass_then_stock(setup(KNOCK3, DEF58, "Tc", "Ks"))
    assert ginrummy.arrange(state.hand(0)).deadwood_points == 13
    assert "knock Ks" in state.legal_actions()
    # other knock cards keep Ks: knock 2d keeps Ah Ks = 11, knock Ah keeps 2d Ks = 12
    assert error_code(state, "knock 2d") == "action/knock-too-high"
    assert error_code(state, "knock Ah") == "action/knock-too-high"
    result = state.apply("knock Ks").result
    assert result is not None
    assert result.deadwood[0] == 3
    assert str(result.knock_card) == "Ks"
    assert "Ks" not in names(result.hands[0])


# --- scoring a knock ------------------------------------------------------------------------


def test_knock_win_scores_the_difference() -> None:
    # knocker Ah 2d = 3; defender DEF58 = 58, nothing to lay off; 58 - 3 = 55
    state = both_pass_then_stock(setup(KNOCK3, DEF58, "Tc", "Ks")).apply("knock Ks")
    result = state.result
    assert state.is_over
    assert result is not None
    assert result.kind == "knock"
    assert result.knocker == 0
    assert result.winner == 0
    assert result.deadwood == (3, 58)
    assert result.layoffs == ()
    assert result.points == 55


def test_undercut_on_equal_deadwood() -> None:
    # knocker Ah 2d = 3; defender [3h 4h 5h] [6s 7s 8s] [Jd Qd Kd] 3s = 3, no lay-off
    # equal: the defender undercuts and scores 3 - 3 + 25 = 25
    defender = "3h 4h 5h 6s 7s 8s Jd Qd Kd 3s"
    result = both_pass_then_stock(setup(KNOCK3, defender, "Tc", "Ks")).apply("knock Ks").result
    assert result is not None
    assert result.kind == "undercut"
    assert result.knocker == 0
    assert result.winner == 1
    assert result.deadwood == (3, 3)
    assert result.points == 25


def test_undercut_with_lower_deadwood() -> None:
    # knocker 6s 4d = 10; defender [3h 4h 5h] [7s 8s 9s] [Jd Qd Kd] Ad = 1
    # 10 - 1 + 25 = 34 to the defender
    defender = "3h 4h 5h 7s 8s 9s Jd Qd Kd Ad"
    result = both_pass_then_stock(setup(KNOCK10, defender, "Tc", "Ks")).apply("knock Ks").result
    assert result is not None
    assert result.kind == "undercut"
    assert result.winner == 1
    assert result.deadwood == (10, 1)
    assert result.points == 34


def test_undercut_reached_by_laying_off() -> None:
    # knocker [5d 6d 7d] [Js Jh Jc] [2s 3s 4s] 8c = 8 (knocks Ks)
    # defender [Tc Td Th] [3h 4h 5h 6h] + 8d 9d Ah: 8 + 9 + 1 = 18 before lay-offs;
    # 8d then 9d go on 5d-6d-7d -> Ah = 1 left. (8d 9d Td as a run would leave Tc Th Ah = 21.)
    # undercut: 8 - 1 + 25 = 32
    knocker = "5d 6d 7d Js Jh Jc 2s 3s 4s 8c"
    defender = "8d 9d 3h 4h 5h 6h Tc Td Th Ah"
    result = both_pass_then_stock(setup(knocker, defender, "Qc", "Ks")).apply("knock Ks").result
    assert result is not None
    assert result.kind == "undercut"
    assert names(lo.card for lo in result.layoffs) == {"8d", "9d"}
    assert result.deadwood == (8, 1)
    assert (result.winner, result.points) == (1, 32)


# --- gin ------------------------------------------------------------------------------------


def test_gin_scores_defender_deadwood_plus_25_without_lay_offs() -> None:
    # GIN_BUT_7D draws 5c and goes gin discarding 7d. DEF57 holds Qh (fits 9h-Jh), Kh
    # (the fourth king) and 6c (fits 2c-5c), but nothing is laid off on gin:
    # 57 + 25 = 82 (with lay-offs it would have been 57 - 26 + 25 = 56)
    state = both_pass_then_stock(setup(GIN_BUT_7D, DEF57, "Js", "5c"))
    assert "gin 7d" in state.legal_actions()
    result = state.apply("gin 7d").result
    assert result is not None
    assert result.kind == "gin"
    assert result.winner == 0
    assert result.knocker == 0
    assert result.layoffs == ()
    assert result.deadwood == (0, 57)
    assert result.points == 82
    assert str(result.knock_card) == "7d"


def test_gin_is_never_undercut() -> None:
    # defender [3h 4h 5h] [6s 7s 8s] [9d Td Jd Qd] = 0 too; gin still wins 0 + 25 = 25
    defender = "3h 4h 5h 6s 7s 8s 9d Td Jd Qd"
    result = both_pass_then_stock(setup(GIN_BUT_7D, defender, "Js", "5c")).apply("gin 7d").result
    assert result is not None
    assert result.kind == "gin"
    assert result.winner == 0
    assert result.deadwood == (0, 0)
    assert result.points == 25


def test_knock_with_zero_deadwood_is_gin_not_a_knock() -> None:
    # engine decision (the tournament rules are silent; docs/rules.md records it): with
    # nothing left, the ending is gin
    state = both_pass_then_stock(setup(GIN_BUT_7D, DEF57, "Js", "5c"))
    assert "knock 7d" not in state.legal_actions()
    assert error_code(state, "knock 7d") == "action/is-gin"


def test_gin_claim_with_deadwood_is_refused() -> None:
    # KNOCK10 + Ks: discard Ks keeps 6s 4d = 10, not gin
    state = both_pass_then_stock(setup(KNOCK10, DEF58, "Tc", "Ks"))
    assert not [a for a in state.legal_actions() if a.startswith("gin")]
    assert error_code(state, "gin Ks") == "action/not-gin"


# --- Big Gin --------------------------------------------------------------------------------


def test_big_gin_under_tournament() -> None:
    # ALL_MELDED draws Qh: [2c-5c] [9h-Qh] [Ks Kd Kc], all eleven cards melded.
    # No discard; no lay-offs (DEF55's 6c and 8h would fit, Kh too): 55 + 31 = 86
    state = both_pass_then_stock(setup(ALL_MELDED, DEF55, "Td", "Qh"))
    assert "big-gin" in state.legal_actions()
    state = state.apply("big-gin")
    result = state.result
    assert result is not None
    assert result.kind == "big-gin"
    assert result.winner == 0
    assert result.knock_card is None
    assert len(result.hands[0]) == 11
    assert result.layoffs == ()
    assert result.deadwood == (0, 55)
    assert result.points == 86
    assert [str(c) for c in state.discard_pile] == ["Td"]  # nothing discarded


def test_big_gin_bonus_is_an_option() -> None:
    # Big Gin bonus 50: 55 + 50 = 105
    rules = replace(TOURNAMENT, big_gin_bonus=50)
    state = both_pass_then_stock(setup(ALL_MELDED, DEF55, "Td", "Qh", rules=rules))
    result = state.apply("big-gin").result
    assert result is not None
    assert result.points == 105


def test_big_gin_refused_under_classic() -> None:
    state = both_pass_then_stock(setup(ALL_MELDED, DEF55, "Td", "Qh", rules=CLASSIC))
    legal = state.legal_actions()
    assert "big-gin" not in legal
    assert "gin Qh" in legal  # plain gin is still there
    assert error_code(state, "big-gin") == "action/big-gin-off"
    # gin with the extra card: 55 + 25 = 80
    result = state.apply("gin Qh").result
    assert result is not None
    assert (result.kind, result.points) == ("gin", 80)


def test_big_gin_needs_all_eleven_cards_melded() -> None:
    # ALL_MELDED draws 7s: the ten are melded, 7s is not -> gin 7s, but no Big Gin
    state = both_pass_then_stock(setup(ALL_MELDED, DEF55, "Td", "7s"))
    legal = state.legal_actions()
    assert "big-gin" not in legal
    assert "gin 7s" in legal
    with pytest.raises(ginrummy.IllegalActionError) as info:
        state.apply("big-gin")
    assert info.value.code == "action/not-big-gin"


# --- lay-offs -------------------------------------------------------------------------------

LAYOFF_KNOCKER = "5d 6d 7d Js Jh Jc 2s 3s 4s Ah"  # [5d-7d] [JJJ] [2s-4s], Ah = 1


def test_lay_offs_chain_onto_both_ends_of_a_run() -> None:
    # defender 3d 4d 8d 9d + Kh Qc 7s 9h 6c 2c (no meld):
    # 3 + 4 + 8 + 9 = 24 laid off (4d then 3d below 5d, 8d then 9d above 7d);
    # left Kh 10 + Qc 10 + 7s 7 + 9h 9 + 6c 6 + 2c 2 = 44. 44 - 1 = 43
    defender = "3d 4d 8d 9d Kh Qc 7s 9h 6c 2c"
    state = both_pass_then_stock(setup(LAYOFF_KNOCKER, defender, "Tc", "Ks"))
    result = state.apply("knock Ks").result
    assert result is not None
    assert result.kind == "knock"
    assert names(lo.card for lo in result.layoffs) == {"3d", "4d", "8d", "9d"}
    run = next(m for m in result.arrangements[0].melds if "5d" in names(m))
    for lo in result.layoffs:
        assert result.arrangements[0].melds[lo.meld] == run
    assert result.deadwood == (1, 44)
    assert result.points == 43


def test_lay_off_the_fourth_card_of_a_set() -> None:
    # knocker [7s 7h 7c] [2d 3d 4d] [9c Tc Jc] Ah = 1
    # defender 7d Qs 5h 9s Kd 3h 8h 6s 2c Qh (no meld):
    # 7 + 10 + 5 + 9 + 10 + 3 + 8 + 6 + 2 + 10 = 70; 7d goes on the sevens -> 63. 63 - 1 = 62
    knocker = "7s 7h 7c 2d 3d 4d 9c Tc Jc Ah"
    defender = "7d Qs 5h 9s Kd 3h 8h 6s 2c Qh"
    result = both_pass_then_stock(setup(knocker, defender, "Td", "Ks")).apply("knock Ks").result
    assert result is not None
    assert names(lo.card for lo in result.layoffs) == {"7d"}
    target = result.arrangements[0].melds[result.layoffs[0].meld]
    assert names(target) == {"7s", "7h", "7c"}
    assert result.deadwood == (1, 63)
    assert result.points == 62


def test_lay_off_card_fitting_a_set_or_a_run_goes_where_it_saves_most() -> None:
    # knocker [4d 5d 6d] [7s 7h 7c] [9c Tc Jc] Ah = 1
    # defender 7d 8d + Qs 5h 9s Kh 3h 2s Qh 2c:
    # 7d could go on the sevens or on the run; only on the run can 8d follow it.
    # 7 + 8 + 10 + 5 + 9 + 10 + 3 + 2 + 10 + 2 = 66; 7d 8d laid off -> 51. 51 - 1 = 50
    knocker = "7s 7h 7c 4d 5d 6d 9c Tc Jc Ah"
    defender = "7d 8d Qs 5h 9s Kh 3h 2s Qh 2c"
    result = both_pass_then_stock(setup(knocker, defender, "Td", "Ks")).apply("knock Ks").result
    assert result is not None
    assert names(lo.card for lo in result.layoffs) == {"7d", "8d"}
    for lo in result.layoffs:
        assert names(result.arrangements[0].melds[lo.meld]) == {"4d", "5d", "6d"}
    assert result.deadwood == (1, 51)
    assert result.points == 50


def test_defender_keeps_own_set_rather_than_lay_off() -> None:
    # knocker LAYOFF_KNOCKER (Ah = 1). defender 8d 8s 8c 9d Kh Qc 6h 3h 2c 5c:
    #   own set [8s 8c 8d], 9d loose: 9 + 10 + 10 + 6 + 3 + 2 + 5 = 45
    #   lay off 8d 9d on 5d-7d, 8s 8c loose: 16 + 36 = 52
    # the defender keeps the set: 45. 45 - 1 = 44
    defender = "8d 8s 8c 9d Kh Qc 6h 3h 2c 5c"
    state = both_pass_then_stock(setup(LAYOFF_KNOCKER, defender, "Tc", "Ks"))
    result = state.apply("knock Ks").result
    assert result is not None
    assert result.layoffs == ()
    assert frozenset({"8s", "8c", "8d"}) in {
        frozenset(names(m)) for m in result.arrangements[1].melds
    }
    assert result.deadwood == (1, 45)
    assert result.points == 44


def test_defender_splits_own_four_card_set_to_lay_off() -> None:
    # knocker LAYOFF_KNOCKER (Ah = 1). defender 8d 8s 8c 8h 9d Kh Qc 6h 3h 2c:
    #   four eights as a set, 9d loose: 9 + 10 + 10 + 6 + 3 + 2 = 40
    #   set [8s 8c 8h], lay off 8d then 9d: 10 + 10 + 6 + 3 + 2 = 31   <- least
    # 31 - 1 = 30
    defender = "8d 8s 8c 8h 9d Kh Qc 6h 3h 2c"
    state = both_pass_then_stock(setup(LAYOFF_KNOCKER, defender, "Tc", "Ks"))
    result = state.apply("knock Ks").result
    assert result is not None
    assert names(lo.card for lo in result.layoffs) == {"8d", "9d"}
    assert frozenset({"8s", "8c", "8h"}) in {
        frozenset(names(m)) for m in result.arrangements[1].melds
    }
    assert result.deadwood == (1, 31)
    assert result.points == 30


# --- the knocker's tie-break ----------------------------------------------------------------

# 2h 3h 4h 3s 3d + [9c Tc Jc Qc Kc]: run [2h 3h 4h] leaves 3s 3d = 6; set [3s 3h 3d] leaves
# 2h 4h = 6. Both are deadwood-minimal; the knock card is Ks.
TIE_KNOCKER = "2h 3h 4h 3s 3d 9c Tc Jc Qc Kc"


def test_tie_break_knocker_has_two_minimal_arrangements() -> None:
    arrangements = ginrummy.all_min_arrangements(parse_cards(TIE_KNOCKER))
    assert {frozenset(names(a.deadwood)) for a in arrangements} == {
        frozenset({"3s", "3d"}),
        frozenset({"2h", "4h"}),
    }
    assert {a.deadwood_points for a in arrangements} == {6}


def test_tie_break_uses_set_so_defender_cannot_lay_off_on_the_run() -> None:
    # defender 5h 9s 9d Kh Qd 7s 6d As 2d 4s (no meld):
    # 5 + 9 + 9 + 10 + 10 + 7 + 6 + 1 + 2 + 4 = 63
    #   with the run 2h-4h the defender lays off 5h: 58
    #   with the set 3s3h3d nothing fits (no 3c): 63   <- more for the defender: chosen
    # 63 - 6 = 57
    defender = "5h 9s 9d Kh Qd 7s 6d As 2d 4s"
    result = both_pass_then_stock(setup(TIE_KNOCKER, defender, "8s", "Ks")).apply("knock Ks").result
    assert result is not None
    assert names(result.arrangements[0].deadwood) == {"2h", "4h"}
    assert result.layoffs == ()
    assert result.deadwood == (6, 63)
    assert result.points == 57


def test_tie_break_uses_run_so_defender_cannot_lay_off_on_the_set() -> None:
    # defender 3c 9s 9d Kh Qd 7s 6d As 2d 4s (no meld):
    # 3 + 9 + 9 + 10 + 10 + 7 + 6 + 1 + 2 + 4 = 61
    #   with the set the defender lays off 3c: 58
    #   with the run nothing fits (no Ah, no 5h): 61   <- chosen
    # 61 - 6 = 55
    defender = "3c 9s 9d Kh Qd 7s 6d As 2d 4s"
    result = both_pass_then_stock(setup(TIE_KNOCKER, defender, "8s", "Ks")).apply("knock Ks").result
    assert result is not None
    assert names(result.arrangements[0].deadwood) == {"3s", "3d"}
    assert result.layoffs == ()
    assert result.deadwood == (6, 61)
    assert result.points == 55


def test_tie_break_when_defender_could_lay_off_on_either() -> None:
    # defender 5h 3c 9s 9d Kh Qd 7s 6d As 2d (no meld):
    # 5 + 3 + 9 + 9 + 10 + 10 + 7 + 6 + 1 + 2 = 62
    #   run: 5h laid off -> 57;  set: 3c laid off -> 59   <- chosen
    # 59 - 6 = 53
    defender = "5h 3c 9s 9d Kh Qd 7s 6d As 2d"
    result = both_pass_then_stock(setup(TIE_KNOCKER, defender, "8s", "Ks")).apply("knock Ks").result
    assert result is not None
    assert names(result.arrangements[0].deadwood) == {"2h", "4h"}
    assert names(lo.card for lo in result.layoffs) == {"3c"}
    assert result.deadwood == (6, 59)
    assert result.points == 53


# --- void hands -----------------------------------------------------------------------------


def short_stock_to_last_turn(seat0: str, seat1: str, upcard: str, stock: str) -> HandState:
    """Five-card stock: both pass; seat 0, seat 1 draw and throw their stock card back;
    seat 0's next stock draw leaves two cards."""
    state = setup(seat0, seat1, upcard, stock, stock_size=5)
    first, second = str(state.stock[0]), str(state.stock[1])
    state = play(state, "pass", "pass", "stock", f"discard {first}")
    assert not state.is_last_turn
    state = play(state, "stock")
    assert state.stock_size == 3
    assert not state.is_last_turn  # three cards left is not the end
    state = play(state, f"discard {second}", "stock")
    assert state.stock_size == 2
    assert state.is_last_turn
    return state


def test_void_when_last_stock_draw_is_followed_by_a_discard() -> None:
    state = short_stock_to_last_turn(KNOCK10, DEF58, "Tc", "Kc Ks Ts 2d Ah")
    assert state.to_act == 0
    assert "discard Ts" in state.legal_actions()
    state = state.apply("discard Ts")
    assert state.is_over
    assert state.to_act is None
    result = state.result
    assert result is not None
    assert result.kind == "void"
    assert result.winner is None
    assert result.knocker is None
    assert result.points == 0


def test_knock_still_legal_on_the_last_turn() -> None:
    # KNOCK10 draws Ts as the stock goes to two: knock Ts, 6s 4d = 10 vs DEF58 58: 48
    state = short_stock_to_last_turn(KNOCK10, DEF58, "Tc", "Kc Ks Ts 2d Ah")
    assert "knock Ts" in state.legal_actions()
    result = state.apply("knock Ts").result
    assert result is not None
    assert result.kind == "knock"
    assert (result.winner, result.points) == (0, 48)


def test_gin_still_legal_on_the_last_turn() -> None:
    # GIN_BUT_7D draws 5c as the stock goes to two: gin 7d vs DEF57: 57 + 25 = 82
    state = short_stock_to_last_turn(GIN_BUT_7D, DEF57, "Js", "Qs 9c 5c Td Ah")
    assert "gin 7d" in state.legal_actions()
    result = state.apply("gin 7d").result
    assert result is not None
    assert result.kind == "gin"
    assert (result.winner, result.points) == (0, 82)


# --- illegal actions ------------------------------------------------------------------------


def snapshot(state: HandState) -> tuple[Any, ...]:
    return (
        state.phase,
        state.to_act,
        state.legal_actions(),
        state.hand(0),
        state.hand(1),
        state.discard_pile,
        state.stock,
        state.taken_from_pile,
        state.is_over,
        state.action_count,
    )


@pytest.mark.parametrize(
    ("before", "action", "code"),
    [
        ((), "stock", "action/wrong-phase"),
        ((), "pile", "action/wrong-phase"),
        ((), "discard 5c", "action/wrong-phase"),
        (("pass",), "stock", "action/wrong-phase"),
        (("pass", "pass"), "pile", "action/first-draw-stock"),
        (("pass", "pass"), "take", "action/first-draw-stock"),
        (("pass", "pass"), "discard 5c", "action/wrong-phase"),
        (("take",), "discard Ks", "action/discard-taken"),
        (("take",), "discard 2h", "action/not-in-hand"),
        (("take",), "stock", "action/wrong-phase"),
        # seat 0 holds As2s3s 777 JdQdKd 5c + 2h: gin 5c keeps 2h = 2
        (("pass", "pass", "stock"), "gin 5c", "action/not-gin"),
        # knock 7h keeps 7d 7c 5c 2h = 21
        (("pass", "pass", "stock"), "knock 7h", "action/knock-too-high"),
        (("pass", "pass", "stock"), "big-gin", "action/not-big-gin"),
        (("pass", "pass", "stock"), "pile", "action/wrong-phase"),
        (("pass", "pass", "stock", "discard 2h"), "discard 4h", "action/wrong-phase"),
        (("pass", "pass", "stock", "discard 2h"), "take", "action/wrong-phase"),
        (("pass", "pass", "stock", "discard 2h", "pile"), "discard 2h", "action/discard-taken"),
    ],
)
def test_illegal_action_raises_and_leaves_state_unchanged(
    before: tuple[str, ...], action: str, code: str
) -> None:
    state = play(opening(), *before)
    was = snapshot(state)
    assert action not in state.legal_actions()
    assert not state.is_legal(action)
    with pytest.raises(ginrummy.IllegalActionError) as info:
        state.apply(action)
    assert info.value.code == code
    assert isinstance(info.value, ValueError)
    assert snapshot(state) == was
    # and the state still plays on exactly as before
    next_action = state.legal_actions()[0]
    assert snapshot(state.apply(next_action)) != was


def test_action_out_of_turn_is_refused() -> None:
    state = opening()
    was = snapshot(state)
    assert error_code(state, "pass", seat=1) == "action/not-your-turn"
    assert error_code(state, "take", seat=1) == "action/not-your-turn"
    assert snapshot(state) == was
    state = state.apply("pass", seat=0)
    assert state.to_act == 1
    assert error_code(state, "take", seat=0) == "action/not-your-turn"
    state = state.apply("pass", seat=1).apply("stock", seat=0)
    assert error_code(state, "discard 4h", seat=1) == "action/not-your-turn"


def test_no_action_after_the_hand_is_over() -> None:
    state = both_pass_then_stock(setup(KNOCK3, DEF58, "Tc", "Ks")).apply("knock Ks")
    assert state.is_over
    assert state.legal_actions() == []
    assert state.to_act is None
    for action in ("stock", "pile", "discard 2c", "pass", "big-gin"):
        assert error_code(state, action) == "action/hand-over"


@pytest.mark.parametrize(
    "text", ["fly away", "", "discard", "discard 5x", "knock 5c 6c", "stock 5c", "draw"]
)
def test_garbage_action_text_is_a_syntax_error(text: str) -> None:
    state = opening()
    was = snapshot(state)
    with pytest.raises(ginrummy.IllegalActionError) as info:
        state.apply(text)
    assert isinstance(info.value, ginrummy.ActionSyntaxError)
    assert info.value.code == "action/syntax"
    assert snapshot(state) == was


def test_action_text_is_tolerant_of_case_and_card_forms() -> None:
    state = both_pass_then_stock(opening())
    state = state.apply("Discard 2♥")
    assert str(state.discard_pile[-1]) == "2h"


def test_old_state_is_unchanged_by_apply() -> None:
    state = opening()
    was = snapshot(state)
    later = play(state, "take", "discard 5c", "stock")
    assert snapshot(state) == was
    assert later.to_act == 1


# --- Oklahoma -------------------------------------------------------------------------------

# Oklahoma defender: no meld, nothing fits 2c-5c or 9s-Qs:
# Kh 10 + 9d 9 + Kd 10 + 7s 7 + 7d 7 + 2h 2 + 5h 5 + 6d 6 + Jc 10 + 8c 8 = 74
OK_DEFENDER = "Kh 9d Kd 7s 7d 2h 5h 6d Jc 8c"


def test_oklahoma_seven_upcard_knock_at_seven_legal() -> None:
    # [2c-5c] [9s-Qs] 3d 4h = 7 <= 7; 74 - 7 = 67 (upcard a heart: not doubled)
    knocker = "2c 3c 4c 5c 9s Ts Js Qs 3d 4h"
    state = setup(knocker, OK_DEFENDER, "7h", "Kc", rules=OKLAHOMA)
    assert state.knock_limit == 7
    state = both_pass_then_stock(state)
    assert "knock Kc" in state.legal_actions()
    result = state.apply("knock Kc").result
    assert result is not None
    assert result.kind == "knock"
    assert result.multiplier == 1
    assert (result.winner, result.points) == (0, 67)


def test_oklahoma_seven_upcard_knock_at_eight_refused() -> None:
    # [2c-5c] [9s-Qs] 3d 5d = 8 > 7 (it would be a legal knock with the usual limit 10)
    knocker = "2c 3c 4c 5c 9s Ts Js Qs 3d 5d"
    state = both_pass_then_stock(setup(knocker, OK_DEFENDER, "7h", "Kc", rules=OKLAHOMA))
    assert knocks(state) == []
    with pytest.raises(ginrummy.IllegalActionError) as info:
        state.apply("knock Kc")
    assert info.value.code == "action/knock-too-high"
    assert "7" in str(info.value)
    plain = both_pass_then_stock(setup(knocker, OK_DEFENDER, "7h", "Kc"))
    assert "knock Kc" in plain.legal_actions()


def test_oklahoma_face_card_upcard_sets_ten() -> None:
    # upcard Qh: limit 10. [2c-5c] [9s-Qs] 6h 4d = 10; 74 - 10 = 64
    knocker = "2c 3c 4c 5c 9s Ts Js Qs 6h 4d"
    state = setup(knocker, OK_DEFENDER, "Qh", "Kc", rules=OKLAHOMA)
    assert state.knock_limit == 10
    state = both_pass_then_stock(state)
    assert "knock Kc" in state.legal_actions()
    result = state.apply("knock Kc").result
    assert result is not None
    assert (result.kind, result.points, result.multiplier) == ("knock", 64, 1)


def test_oklahoma_ace_upcard_means_gin_only() -> None:
    # upcard Ad: limit 0. 2c 3c 4c 9h Th Jh Ks Kd Kc As draws 5c:
    # knock 5c would keep [2c-4c] [9h-Jh] [KKK] As = 1 -> refused; gin As is legal.
    # defender Qh 6c Kh 8d 8s 4s 5s 2d 3h 7d (no meld, no lay-off on gin):
    # 10 + 6 + 10 + 8 + 8 + 4 + 5 + 2 + 3 + 7 = 63; gin 63 + 25 = 88
    knocker = "2c 3c 4c 9h Th Jh Ks Kd Kc As"
    defender = "Qh 6c Kh 8d 8s 4s 5s 2d 3h 7d"
    state = setup(knocker, defender, "Ad", "5c", rules=OKLAHOMA)
    assert state.knock_limit == 0
    state = both_pass_then_stock(state)
    assert knocks(state) == []
    assert error_code(state, "knock 5c") == "action/knock-too-high"
    assert "gin As" in state.legal_actions()
    result = state.apply("gin As").result
    assert result is not None
    assert (result.kind, result.points, result.multiplier) == ("gin", 88, 1)


def test_oklahoma_spade_upcard_doubles_a_knock() -> None:
    # upcard 5s: limit 5, doubled. Ah 2d = 3 <= 5; (58 - 3) x 2 = 110
    state = setup(KNOCK3, DEF58, "5s", "Ks", rules=OKLAHOMA)
    assert state.knock_limit == 5
    assert state.multiplier == 2
    result = both_pass_then_stock(state).apply("knock Ks").result
    assert result is not None
    assert result.kind == "knock"
    assert result.multiplier == 2
    assert (result.winner, result.points) == (0, 110)


def test_oklahoma_spade_upcard_doubles_a_gin() -> None:
    # upcard Qs: limit 10, doubled. gin vs DEF57: (57 + 25) x 2 = 164
    state = setup(GIN_BUT_7D, DEF57, "Qs", "5c", rules=OKLAHOMA)
    assert (state.knock_limit, state.multiplier) == (10, 2)
    result = both_pass_then_stock(state).apply("gin 7d").result
    assert result is not None
    assert (result.kind, result.multiplier, result.points) == ("gin", 2, 164)


def test_oklahoma_limit_is_set_by_the_first_upcard_only() -> None:
    # upcard 7h sets 7 for the whole hand. Seat 0 takes it and discards Kc, so a king is
    # on top of the pile; the dealer (seat 1) draws Kd and would knock with 3d 5d = 8:
    # still refused, the limit stays 7.
    seat0 = "Kc 9d 9h 6s 2h Ah 7c Jd Qh 6d"
    seat1 = "2c 3c 4c 5c 9s Ts Js Qs 3d 5d"
    state = setup(seat0, seat1, "7h", "Kd", rules=OKLAHOMA)
    state = play(state, "take", "discard Kc")
    assert str(state.discard_pile[-1]) == "Kc"
    assert state.knock_limit == 7
    state = state.apply("stock")
    assert state.to_act == 1
    assert state.knock_limit == 7
    assert knocks(state) == []
    assert error_code(state, "knock Kd") == "action/knock-too-high"
    # the same position without Oklahoma: 8 <= 10 is a legal knock
    plain = play(setup(seat0, seat1, "7h", "Kd"), "take", "discard Kc", "stock")
    assert "knock Kd" in plain.legal_actions()


def test_oklahoma_off_by_default_in_every_preset() -> None:
    for name in ("tournament", "classic", "app", "parlor"):
        rules = Rules.preset(name)
        assert rules.oklahoma is False
        state = setup(KNOCK3, DEF58, "5s", "Ks", rules=rules)
        assert (state.knock_limit, state.multiplier) == (10, 1)
