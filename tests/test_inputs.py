"""Every public function that takes cards takes text, Card sequences, card numbers, card sets
and masks alike, and refuses anything else with a ValueError that says what was expected
(issue 14: no traceback anywhere).

Property tests throw arbitrary input at each function: it returns normally or raises one of
the project's errors (``GinRummyError``, a ``ValueError``) with a message, never a
TypeError, AttributeError, IndexError, KeyError or RecursionError. Then valid cards written
each way give identical results; then the messages, worked out by hand.
"""

from __future__ import annotations

import random
import re
import reprlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ginrummy
from ginrummy import DECK, Card, CardInputError, CardParseError, CardSet, GinRummyError
from ginrummy.cards import (
    CARD_FORM,
    CARDS_FORM,
    card_list,
    format_cards,
    iter_cards,
    mask_of,
    parse_card,
    parse_cards,
    shuffled_deck,
    sort_by_rank,
    sort_by_suit,
    to_mask,
)
from ginrummy.melds import (
    all_min_arrangements,
    arrange,
    best_discard,
    deadwood_points,
    is_meld,
    lay_off,
)

KNOCKER = arrange("5d 6d 7d 7s 7h 7c")
KNOCKER_MASK = to_mask("5d 6d 7d 7s 7h 7c")

# --- every public card-taking function ------------------------------------------------------

CARD_FUNCTIONS: dict[str, Callable[[Any], object]] = {
    "arrange": arrange,
    "ginrummy.arrange": ginrummy.arrange,
    "all_min_arrangements": all_min_arrangements,
    "deadwood_points": deadwood_points,
    "best_discard": best_discard,
    "is_meld": is_meld,
    "lay_off (defender)": lambda v: lay_off(v, KNOCKER),
    "lay_off (knocker cards)": lambda v: lay_off("8d 2c", v),
    "lay_off (both)": lambda v: lay_off(v, v),
    "parse_cards": parse_cards,
    "parse_card": parse_card,
    "Card": Card,
    "CardSet": CardSet,
    "CardSet.parse": CardSet.parse,
    "CardSet |": lambda v: CardSet("As") | v,
    "| CardSet": lambda v: v | CardSet("As"),
    "CardSet &": lambda v: CardSet("As 2s") & v,
    "CardSet -": lambda v: CardSet("As 2s") - v,
    "- CardSet": lambda v: v - CardSet("As"),
    "in CardSet": lambda v: v in CardSet("As 2s"),
    "mask_of": mask_of,
    "to_mask": to_mask,
    "card_list": card_list,
    "iter_cards": lambda v: list(iter_cards(v)),
    "format_cards": format_cards,
    "sort_by_rank": sort_by_rank,
    "sort_by_suit": sort_by_suit,
    "shuffled_deck": shuffled_deck,
}

NEVER: tuple[type[BaseException], ...] = (
    TypeError,
    AttributeError,
    IndexError,
    KeyError,
    RecursionError,
)


def call_survives(fn: Callable[[Any], object], value: object) -> None:
    """``fn(value)`` returns, or raises one of our errors with a message."""
    try:
        fn(value)
    except GinRummyError as exc:
        assert isinstance(exc, ValueError)
        assert str(exc).strip(), f"empty message for {value!r}"
    except NEVER as exc:  # pragma: no cover - the failure being looked for
        raise AssertionError(f"{type(exc).__name__} for {reprlib.repr(value)}: {exc}") from exc


card_texts = st.sampled_from(
    ["As", "10h", "td", "Q♠", "7♥", "K♣", "a♦", "Kc", "7x", "Xs", "1h", "11d", "A", "10", ""]
)
ints = st.one_of(st.integers(-5, 60), st.integers(), st.sampled_from(DECK))
anything = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True),
        st.text(),
        card_texts,
        st.binary(),
        st.sampled_from(DECK),
        st.builds(CardSet, st.integers(0, ginrummy.cards.FULL_DECK_MASK)),
        st.just(KNOCKER),
        st.just(object()),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=14),
        st.tuples(inner, inner),
        st.frozensets(st.one_of(ints, card_texts), max_size=12),
        st.dictionaries(card_texts, inner, max_size=4),
    ),
    max_leaves=20,
)
inputs = st.one_of(
    st.text(),
    st.text(alphabet="AaTtJjQqKk23456789 10shdcSHDC♠♥♦♣,xX", max_size=40),
    st.lists(ints, max_size=14),
    st.lists(st.one_of(card_texts, st.text(max_size=4)), max_size=14),
    st.lists(st.one_of(ints, card_texts), max_size=14),
    st.lists(st.sampled_from(DECK), max_size=14),
    st.binary(),
    st.integers(),
    anything,
)


@pytest.mark.parametrize("name", sorted(CARD_FUNCTIONS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=inputs)
def test_any_input_returns_or_raises_a_clear_value_error(name: str, value: object) -> None:
    call_survives(CARD_FUNCTIONS[name], value)


@pytest.mark.parametrize("name", sorted(CARD_FUNCTIONS))
@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        1.5,
        float("nan"),
        b"As 2s",
        bytearray(b"\x00"),
        object(),
        [None],
        [[0, 1]],
        [b"As"],
        [1.0],
        [True],
        [-1],
        [52],
        [2**70],
        -1,
        2**52,
        2**200,
        "\udcff",
        "As\udcff",
        "🂡",
        "As 2s as",
        [0, "As"],
        "As " * 100,
        list(range(52)),
        DECK,
        range(60),
        iter([Card("As"), "2s"]),
        {"As": 1},
        KNOCKER,
    ],
    ids=lambda value: re.sub(r" at 0x[0-9a-f]+", "", repr(value)),  # same ids in every process
)
def test_awkward_inputs(name: str, value: object) -> None:
    call_survives(CARD_FUNCTIONS[name], value)


def test_deep_nesting_is_no_recursion_error() -> None:
    value: list[object] = []
    for _ in range(5000):
        value = [value]
    for fn in CARD_FUNCTIONS.values():
        call_survives(fn, value)


# --- the same cards, written every way ------------------------------------------------------

hands = st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True)

SPELLINGS: tuple[Callable[[Card], str], ...] = (
    str,
    lambda c: str(c).lower(),
    lambda c: str(c).upper(),
    lambda c: ("10" if c.rank == 9 else str(c)[0]) + str(c)[1],
    lambda c: str(c)[0] + "♠♥♦♣"[c.suit],
)


def as_text(cards: list[int], rng: random.Random) -> str:
    """The cards as text a person might type: mixed spellings and separators."""
    words = [rng.choice(SPELLINGS)(DECK[c]) for c in cards]
    return "".join(w + rng.choice([" ", ", ", ",", "  ", "\t"]) for w in words).strip(", \t")


def forms(cards: list[int], seed: int) -> list[object]:
    """Equivalent ways of giving ``cards``."""
    rng = random.Random(seed)
    card_objects = [DECK[c] for c in cards]
    return [
        as_text(cards, rng),
        " ".join(str(DECK[c]) for c in cards),
        card_objects,
        tuple(card_objects),
        list(cards),
        [str(c) for c in card_objects],
        [rng.choice([c, str(DECK[c]), DECK[c]]) for c in cards],
        CardSet(card_objects),
        mask_of(cards),
        (c for c in card_objects),
    ]


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(0, 2**32))
def test_every_form_gives_the_same_results(cards: list[int], seed: int) -> None:
    mask = mask_of(cards)
    expected_arrangement = arrange(mask)
    expected_min = all_min_arrangements(mask)
    expected_dw = deadwood_points(mask)
    expected_discard = best_discard(mask) if cards else None
    expected_meld = is_meld(mask)
    expected_layoff = lay_off(mask & ~KNOCKER_MASK, KNOCKER)
    for form in forms(cards, seed):
        assert to_mask(form) == mask  # type: ignore[arg-type]
    for form in forms(cards, seed):
        assert CardSet(form) == CardSet(mask)  # type: ignore[arg-type]
    for form in forms(cards, seed):
        assert arrange(form) == expected_arrangement  # type: ignore[arg-type]
    for form in forms(cards, seed):
        assert all_min_arrangements(form) == expected_min  # type: ignore[arg-type]
    for form in forms(cards, seed):
        assert deadwood_points(form) == expected_dw  # type: ignore[arg-type]
    for form in forms(cards, seed):
        assert is_meld(form) == expected_meld  # type: ignore[arg-type]
    if expected_discard is not None:
        for form in forms(cards, seed):
            assert best_discard(form) == expected_discard  # type: ignore[arg-type]
    free = [c for c in cards if not KNOCKER_MASK >> c & 1]
    for form in forms(free, seed):
        assert lay_off(form, KNOCKER) == expected_layoff  # type: ignore[arg-type]
    # order is kept where the form has one
    ordered = forms(cards, seed)[:7]
    for form in ordered:
        assert parse_cards(form) == [DECK[c] for c in cards]  # type: ignore[arg-type]
        assert format_cards(form) == " ".join(str(DECK[c]) for c in cards)  # type: ignore[arg-type]
    assert sort_by_rank(" ".join(str(DECK[c]) for c in cards)) == sorted(
        (DECK[c] for c in cards), key=lambda c: (c.rank, c.suit)
    )
    assert sort_by_suit(cards) == sorted(DECK[c] for c in cards)


def test_lay_off_against_cards_is_against_their_arrangement() -> None:
    # knocker 5d 6d 7d 7s 7h 7c: the run 5d 6d 7d and the set 7s 7h 7c; the defender lays
    # 4d and 8d off on the run and keeps 2c (2) and Kh (10): 12
    by_cards = lay_off("4d 8d 2c Kh", "5d 6d 7d 7s 7h 7c")
    assert by_cards == lay_off([Card("4d"), Card("8d"), 39 + 1, "Kh"], KNOCKER)
    assert {str(lo.card) for lo in by_cards.layoffs} == {"4d", "8d"}
    assert by_cards.deadwood_points == 12


def test_the_readme_examples_work_with_text() -> None:
    assert ginrummy.arrange("As 2s 3s 7h 7d 7c Kd Qd Jd 5c").deadwood_points == 5
    assert str(ginrummy.CardSet("As 2s")) == "As 2s"
    card, kept = ginrummy.best_discard("As 2s 3s 7h 7d 7c Kd Qd Jd 5c 9h")
    assert (str(card), kept.deadwood_points) == ("9h", 5)
    assert ginrummy.deadwood_points("As 2s 3s 7h 7d 7c Kd Qd Jd 5c") == 5
    assert ginrummy.all_min_arrangements("Jh Qh Kh Qs Qd")[0].deadwood_points == 20
    assert is_meld("Th Jh Qh") and is_meld(["7s", Card("7h"), 32]) and not is_meld("7s 7h")
    assert str(CardSet("As") | "2s" | [Card("3s")]) == "As 2s 3s"
    assert str("As 2s 3s" - CardSet("2s")) == "As 3s"
    assert str(CardSet("As 2s 3s") & "2s 9h") == "2s"


# --- the messages, exactly ------------------------------------------------------------------


def message(fn: Callable[[Any], object], value: object) -> str:
    with pytest.raises(CardParseError) as info:
        fn(value)
    assert info.value.code == "card/parse"
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_card_form_is_said_plainly() -> None:
    assert CARD_FORM == (
        "a card is a rank A 2-9 T J Q K (or 10) and a suit s h d c (or ♠ ♥ ♦ ♣), like 7h or Td"
    )
    assert CARDS_FORM == (
        "cards are text like 'As 7h Td' (separated by spaces or commas), a list of cards "
        "(Card objects, texts like '7h' or card numbers 0-51), a CardSet, or a card mask (an int)"
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        # the rank is quoted as typed: 'foo' is rank 'fo' (not 'FO') and suit 'o'
        ("foo", "bad card 'foo': unknown rank 'fo' and suit 'o'"),
        ("zZ", "bad card 'zZ': unknown rank 'z' and suit 'Z'"),
        ("xs", "bad card 'xs': unknown rank 'x'"),
        ("Xs", "bad card 'Xs': unknown rank 'X'"),
        ("1h", "bad card '1h': unknown rank '1'"),
        ("11d", "bad card '11d': unknown rank '11'"),
        ("7x", "bad card '7x': unknown suit 'x'"),
        ("qX", "bad card 'qX': unknown suit 'X'"),
        ("A", "bad card 'A': too short"),
        ("", "bad card '': no card given"),
        ("  ", "bad card '  ': no card given"),
        ("As 2s", "bad card 'As 2s': that is 2 words; give one card here (" + CARD_FORM + ")"),
    ],
)
def test_a_bad_card_is_quoted_as_given_and_a_card_is_described(text: str, problem: str) -> None:
    got = message(parse_card, text)
    if problem.endswith(")"):
        assert got == problem
    else:
        assert got == f"{problem}; {CARD_FORM}"
    if text.strip() and " " not in text:
        assert message(parse_cards, f"As {text} 2s") == got
        assert message(arrange, f"As {text}") == got


def test_cards_of_the_wrong_kind() -> None:
    assert message(arrange, None) == f"arrange: expected cards, got None; {CARDS_FORM}"
    assert message(parse_cards, 1.5) == f"expected cards, got 1.5 (type float); {CARDS_FORM}"
    assert message(CardSet, b"As") == (
        f"CardSet: expected cards, got b'As' (type bytes) (decode bytes to text first); "
        f"{CARDS_FORM}"
    )
    item_form = "each card is a Card, a text like '7h' or a card number 0-51"
    assert message(deadwood_points, ["As", None]) == (
        f"deadwood_points: item 2: None is not a card; {item_form}"
    )
    assert message(best_discard, [0, 2.0]) == (
        f"best_discard: item 2: 2.0 (type float) is not a card; {item_form}"
    )
    assert message(parse_cards, [True]) == f"item 1: True is not a card; {item_form}"
    assert message(parse_cards, [0, 52]) == (
        "item 2: card number 52 is out of range: card numbers are 0-51 (0 is As, 51 is Kc)"
    )
    assert message(Card, -1) == (
        "card number -1 is out of range: card numbers are 0-51 (0 is As, 51 is Kc)"
    )
    assert message(Card, None) == f"None is not a card; {item_form}"
    assert message(arrange, -1) == (
        "arrange: card mask -0x1 is out of range: a card mask is 0 to 2**52 - 1 "
        "(bit n set for card number n)"
    )
    with pytest.raises(CardParseError) as info:
        lay_off("8d", None)  # type: ignore[arg-type]
    assert str(info.value) == (
        f"lay_off's knocker (an Arrangement or cards): expected cards, got None; {CARDS_FORM}"
    )


def test_duplicates_and_counts() -> None:
    assert message(parse_cards, "As 7h as") == (
        "As is given twice ('As', then 'as'); each card can be given once"
    )
    assert message(parse_cards, "7h 7h") == "7h is given twice; each card can be given once"
    assert message(arrange, [Card("Td"), "10d"]) == (
        "arrange: Td is given twice (Td, then '10d'); each card can be given once"
    )
    assert message(CardSet, [0, 0]) == "CardSet: As is given twice; each card can be given once"
    assert message(arrange, "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs") == (
        "arrange takes at most 11 cards (a hand holds at most eleven); 12 given"
    )
    assert message(deadwood_points, DECK) == (
        "deadwood_points takes at most 11 cards (a hand holds at most eleven); 52 given"
    )
    assert message(all_min_arrangements, ginrummy.cards.FULL_DECK_MASK) == (
        "all_min_arrangements takes at most 11 cards (a hand holds at most eleven); 52 given"
    )
    assert message(best_discard, "") == "best_discard needs at least one card; none given"
    with pytest.raises(CardInputError) as info:
        lay_off("7d 8d", "7d 7s 7h 8d")
    assert str(info.value) == "lay_off: 7d 8d are in both the defender's and the knocker's cards"
    with pytest.raises(CardInputError) as info:
        lay_off("7d 2c", arrange("7d 7s 7h"))
    assert str(info.value) == "lay_off: 7d is in both the defender's and the knocker's cards"


def test_other_forms_are_taken() -> None:
    assert Card(Card("As")) is Card("As") and parse_card(13) is Card("Ah")
    assert Card("7♥️") is Card("7h")  # the emoji form of the suit symbol
    assert parse_cards(7) == parse_cards("As 2s 3s")  # a mask
    assert parse_cards(Card("Kc")) == [Card("Kc")]  # one card
    assert mask_of("As 2s") == 3 and mask_of([0, 0, 1]) == 3  # mask_of lets repeats collapse
    assert format_cards(7) == "As 2s 3s" and format_cards("as, 10h") == "As Th"
    assert "As" in CardSet("As") and None not in CardSet("As") and True not in CardSet("2s")


def test_shuffle_seeds() -> None:
    assert shuffled_deck(bytearray(b"x")) == shuffled_deck("x") == shuffled_deck(memoryview(b"x"))
    with pytest.raises(ginrummy.SetupError, match=r"^a shuffle seed is text or bytes, not None$"):
        shuffled_deck(None)  # type: ignore[arg-type]
    with pytest.raises(ginrummy.SetupError, match=r"not 5 \(type int\)$"):
        shuffled_deck(5)  # type: ignore[arg-type]
    with pytest.raises(ginrummy.SetupError, match="lone surrogates"):
        shuffled_deck("\udcff")


# --- the rest of the library's entry points --------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("ginrummy.engine.game").engine.game.cut_for_deal(None),
        lambda: ginrummy.Rules.preset(None),
        lambda: ginrummy.score_game(ginrummy.Rules.preset("classic"), None, None),
        lambda: ginrummy.score_game(ginrummy.Rules.preset("classic"), (True, 1), (0, 0)),
        lambda: __import__("ginrummy.ai").ai.player([1]),
        lambda: __import__("ginrummy.actions").actions.parse_action([1]),
    ],
    ids=["cut", "preset", "score-none", "score-bool", "ai-level", "action-list"],
)
def test_other_entry_points_refuse_odd_input_with_a_value_error(call: Any) -> None:
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value)


def test_an_action_quotes_its_card_as_typed() -> None:
    from ginrummy.actions import parse_action

    with pytest.raises(ValueError, match="'Zz'"):
        parse_action("discard Zz")
    assert str(parse_action("DISCARD th")) == "discard Th"
