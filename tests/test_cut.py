"""The cut for the first dealer: the cards each seat cut (the table shows them; its own
JavaScript cut is checked against this one in test_web_fairness.py)."""

from __future__ import annotations

import itertools

import pytest

import ginrummy
from ginrummy.cards import shuffled_deck
from ginrummy.engine.game import cut_cards, cut_for_deal


def test_the_cut_is_the_first_two_cards_of_its_own_deck() -> None:
    deck = shuffled_deck(b"game-2/cut")
    pairs = cut_cards("game-2")
    assert pairs[0] == (deck[0], deck[1])
    assert len(pairs) == 1  # this seed's first two ranks differ
    assert cut_for_deal("game-2") == (0 if deck[0].rank > deck[1].rank else 1)


def test_equal_ranks_cut_again_and_the_last_pair_decides() -> None:
    # search seeds for a tie: about one cut in 17 starts with two equal ranks
    tied = next(s for s in (f"tie-{i}" for i in itertools.count()) if len(cut_cards(s)) > 1)
    pairs = cut_cards(tied)
    deck = shuffled_deck(f"{tied}/cut".encode())
    assert [c for pair in pairs for c in pair] == list(deck[: 2 * len(pairs)])
    assert all(a.rank == b.rank for a, b in pairs[:-1])
    last = pairs[-1]
    assert last[0].rank != last[1].rank
    assert cut_for_deal(tied) == (0 if last[0].rank > last[1].rank else 1)


def test_a_bad_seed_is_refused() -> None:
    with pytest.raises(ginrummy.SetupError, match="text or bytes"):
        cut_cards(7)  # type: ignore[arg-type]
