"""Cards, card sets, notation parsing, actions and the published shuffle."""

from __future__ import annotations

import hashlib

import pytest

import ginrummy
from ginrummy.actions import Action, parse_action
from ginrummy.cards import Card, CardSet, parse_card, parse_cards, shuffled_deck


def test_card_text_and_values() -> None:
    assert [str(c) for c in parse_cards("As 7h Td Kc")] == ["As", "7h", "Td", "Kc"]
    assert [c.points for c in parse_cards("As 7h Td Kc Jd Qs 2c")] == [1, 7, 10, 10, 10, 10, 2]
    assert Card("As") == 0 and Card("Kc") == 51 and Card(13) is Card("Ah")
    assert repr(Card("Td")) == "Card('Td')" and eval(repr(Card("Td"))) == Card("Td")
    assert Card("9d").rank == 8 and Card("9d").suit == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10h", "Th"),
        ("7♥", "7h"),
        ("q♠", "Qs"),
        ("a♦", "Ad"),
        ("K♣", "Kc"),
        ("td", "Td"),
        ("10♡", "Th"),
        ("JS", "Js"),
    ],
)
def test_other_card_notations_are_accepted(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize(
    ("text", "token"),
    [("As Xs", "Xs"), ("As 1h", "1h"), ("As 7x", "7x"), ("A", "A"), ("As 11h", "11h")],
)
def test_bad_card_names_the_token(text: str, token: str) -> None:
    with pytest.raises(ginrummy.CardParseError) as info:
        parse_cards(text)
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError) and info.value.code == "card/parse"


def test_duplicate_card_is_refused() -> None:
    with pytest.raises(ginrummy.CardParseError, match="given twice"):
        parse_cards("As 7h as")


def test_cardset() -> None:
    s = CardSet.parse("Kc As 7h")
    assert str(s) == "As 7h Kc" and len(s) == 3 and "7h" in s and Card("2s") not in s
    assert s.points == 18
    assert (s - CardSet.parse("As")) == CardSet.parse("7h Kc")
    assert eval(repr(s)) == s


def test_actions_parse_and_print() -> None:
    assert parse_action("discard 7h") == Action("discard", Card("7h"))
    assert parse_action("  KNOCK   10♥ ") == Action("knock", Card("Th"))
    assert str(parse_action("Big Gin")) == "big-gin"
    assert str(parse_action("gin td")) == "gin Td"
    for bad, needle in [
        ("", "empty"),
        ("fold", "unknown action"),
        ("discard", "exactly one card"),
        ("discard 7h 8h", "exactly one card"),
        ("discard Zz", "bad card"),
        ("stock 7h", "takes no card"),
    ]:
        with pytest.raises(ginrummy.ActionSyntaxError, match=needle):
            parse_action(bad)


def reference_shuffle(seed: str) -> list[int]:
    """The shuffle exactly as documented in ginrummy.cards.shuffled_deck, written plainly."""
    seed_bytes = seed.encode()
    order = list(range(52))
    stream = b""
    counter = 0
    pos = 0
    for i in range(51, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound
        while True:
            while pos + 4 > len(stream):
                stream += hashlib.sha256(
                    b"ginrummy-shuffle-v1" + seed_bytes + counter.to_bytes(8, "big")
                ).digest()
                counter += 1
            word = int.from_bytes(stream[pos : pos + 4], "big")
            pos += 4
            if word < limit:
                break
        j = word % bound
        order[i], order[j] = order[j], order[i]
    return order


def test_shuffle_matches_its_documentation() -> None:
    for n in range(300):
        assert [int(c) for c in shuffled_deck(f"doc-{n}")] == reference_shuffle(f"doc-{n}")
    assert shuffled_deck(b"bytes") == shuffled_deck("bytes")
    assert shuffled_deck("a") != shuffled_deck("b")


def test_shuffle_without_its_fast_path_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limits no word passes force the general loop (the one that rejects words): it gives
    the documented order too, so both paths are checked against the reference."""
    import ginrummy.cards as cards_module

    fast = [shuffled_deck(f"doc-{n}") for n in range(40)]
    monkeypatch.setattr(cards_module, "_STEP_LIMITS", (0,) * 51)
    for n in range(40):
        slow = shuffled_deck(f"doc-{n}")
        assert slow == fast[n]
        assert [int(c) for c in slow] == reference_shuffle(f"doc-{n}")


def test_card_of_a_wrong_kind_is_a_card_parse_error_not_a_type_error() -> None:
    for bad in (None, 1.5, b"As", [0], True, 52, -1):
        with pytest.raises(ginrummy.CardParseError):
            Card(bad)  # type: ignore[arg-type]
    assert Card(Card("Kc")) is Card("Kc") is Card(51) is Card("kc")
    assert CardSet("Kc As") == CardSet.parse("Kc As") == CardSet([51, "As"]) == CardSet(1 | 1 << 51)
