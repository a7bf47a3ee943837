"""Property tests: the fast meld code against the slow oracle, and random-play invariants."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ginrummy
import oracle
from ginrummy.actions import ACTIONS
from ginrummy.cards import (
    DECK,
    FULL_DECK_MASK,
    POINTS,
    format_cards,
    mask_of,
    parse_cards,
    shuffled_deck,
)
from ginrummy.melds import (
    all_min_arrangements,
    arrange_mask,
    best_discard_mask,
    deadwood_after_discards_mask,
    deadwood_mask,
    is_meld,
    lay_off_mask,
)

# --- strategies -------------------------------------------------------------------------------

uniform_hands = st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True)


@st.composite
def meld_rich_hands(draw: Any, max_size: int = 11) -> list[int]:
    """Hands from a few ranks in all suits plus neighbouring ranks: many sets, runs and
    4-card sets that must be split."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=4, unique=True))
    pool = sorted(
        {s * 13 + r2 for r in ranks for s in range(4) for r2 in (r - 1, r, r + 1) if 0 <= r2 < 13}
    )
    size = draw(st.integers(0, min(max_size, len(pool))))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


any_hands = st.one_of(uniform_hands, meld_rich_hands())


def check_arrangement(cards: list[int]) -> None:
    m = mask_of(cards)
    arr = arrange_mask(m)
    used = 0
    for meld in arr.melds:
        assert is_meld(meld), meld
        assert list(meld) == sorted(meld, key=lambda c: (c % 13, c // 13))
        mm = mask_of(meld)
        assert not used & mm, "a card is in two melds"
        used |= mm
    assert used | mask_of(arr.deadwood) == m
    assert not used & mask_of(arr.deadwood)
    assert arr.deadwood_points == sum(POINTS[c % 13] for c in arr.deadwood)


# --- melds against the oracle -----------------------------------------------------------------


@settings(max_examples=600, deadline=None)
@given(any_hands)
def test_min_deadwood_equals_oracle(cards: list[int]) -> None:
    expected = oracle.min_deadwood(cards)
    m = mask_of(cards)
    assert deadwood_mask(m) == expected
    assert arrange_mask(m).deadwood_points == expected
    check_arrangement(cards)
    for arr in all_min_arrangements(m):
        assert arr.deadwood_points == expected


@settings(max_examples=300, deadline=None)
@given(st.one_of(meld_rich_hands().filter(lambda h: len(h) >= 1), uniform_hands.filter(bool)))
def test_best_discard_equals_oracle(cards: list[int]) -> None:
    m = mask_of(cards)
    value, card = best_discard_mask(m)
    assert value == oracle.best_discard_value(cards)
    assert card in cards
    assert deadwood_mask(m & ~(1 << card)) == value
    after = deadwood_after_discards_mask(m)
    assert after == {c: oracle.min_deadwood([x for x in cards if x != c]) for c in cards}


@settings(max_examples=300, deadline=None)
@given(any_hands)
def test_meld_outs_are_the_cards_that_join_a_meld(cards: list[int]) -> None:
    """``meld_outs`` (mask arithmetic) against ``joins_meld`` card by card, and both against
    the oracle: a card joins when some meld of the hand plus it contains it."""
    from ginrummy.ai.knowledge import joins_meld, meld_outs

    m = mask_of(cards)
    outs = meld_outs(m)
    for card in range(52):
        if m >> card & 1:
            assert not outs >> card & 1
            continue
        joins = any(card in meld for meld in oracle.all_melds([*cards, card]))
        assert bool(outs >> card & 1) == joins_meld(card, m) == joins, card


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        meld_rich_hands(max_size=10),
        st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True),
    ).filter(bool),
    st.lists(st.integers(0, 51), min_size=1, max_size=42, unique=True),
    st.sampled_from([(-1, 0.0), (10, 10.0), (5, 3.5)]),
    st.sampled_from([0.0, 25.0]),
)
def test_expected_after_draw_equals_searching_every_draw(
    kept: list[int], drawn: list[int], knock: tuple[int, float], gin: float
) -> None:
    """The expected deadwood after a draw re-searches only the drawn cards that can join a
    meld; it must equal searching the hand again for every drawn card."""
    from ginrummy.ai.evaluate import expected_after_draw

    m = mask_of(kept)
    draws = [(c, 1.0 / (i + 2)) for i, c in enumerate(drawn) if not m >> c & 1]
    limit, bonus = knock
    slow = 0.0
    for card, weight in draws:
        value = oracle.best_discard_value([*kept, card])
        slow += weight * (_bonused(value, limit, bonus, gin))
    fast = expected_after_draw(m, draws, limit, bonus, gin)
    assert fast == pytest.approx(slow, abs=1e-9)


def _bonused(value: float, limit: int, bonus: float, gin: float) -> float:
    """A deadwood as the draw searches count it: at or under the knock limit ``bonus`` less,
    at none (gin) ``gin`` less again."""
    if value > limit:
        return value
    return value - bonus - (gin if value == 0 else 0.0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        meld_rich_hands(max_size=10),
        st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True),
    ).filter(lambda cards: len(cards) == 10),
    st.lists(st.integers(0, 51), min_size=1, max_size=7, unique=True),
    st.sampled_from([(-1, 0.0), (10, 10.0), (30, 3.5)]),
    st.integers(1, 3),
    st.sampled_from([0.0, 25.0]),
)
def test_expected_after_two_draws_equals_the_oracle(
    kept: list[int], drawn: list[int], knock: tuple[int, float], replies: int, gin: float
) -> None:
    """The two-draw search against a slow one on the oracle's deadwood: every first draw,
    the ``replies`` discards leaving least deadwood (or a knock), every second draw."""
    from ginrummy.ai.evaluate import expected_after_two_draws

    draws = [(c, 1.0 / (i + 2)) for i, c in enumerate(drawn) if c not in kept]
    limit, bonus = knock
    slow = 0.0
    for first, weight in draws:
        hand = [*kept, first]
        after = {c: oracle.min_deadwood([x for x in hand if x != c]) for c in hand}
        best = sorted(after, key=lambda c: (after[c], -(c % 13), c))[:replies]
        if after[best[0]] <= limit:
            slow += weight * _bonused(after[best[0]], limit, bonus, gin)
            continue
        second = [(c, w) for c, w in draws if c != first]
        if not second:
            slow += weight * after[best[0]]
            continue
        total = sum(w for _, w in second)
        values = []
        for card in best:
            rest = [x for x in hand if x != card]
            value = 0.0
            for c, w in second:
                v = oracle.best_discard_value([*rest, c])
                value += w / total * _bonused(v, limit, bonus, gin)
            values.append(value)
        slow += weight * min(values)
    fast = expected_after_two_draws(mask_of(kept), draws, limit, bonus, replies, gin)
    assert fast == pytest.approx(slow, abs=1e-9)


@st.composite
def knock_positions(draw: Any) -> tuple[list[int], list[int]]:
    """A knocker's 10 cards and a defender's 10 cards from a meld-rich pool of 20+."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=3, max_size=5, unique=True))
    pool = sorted(
        {s * 13 + r2 for r in ranks for s in range(4) for r2 in (r - 2, r, r + 1) if 0 <= r2 < 13}
    )
    rest = [c for c in range(52) if c not in pool]
    rng = random.Random(draw(st.integers(0, 10**6)))
    rng.shuffle(pool)
    rng.shuffle(rest)
    cards = (pool + rest)[:20]
    rng.shuffle(cards)
    return cards[:10], cards[10:]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(knock_positions())
def test_lay_off_equals_oracle(position: tuple[list[int], list[int]]) -> None:
    knocker, defender = position
    arrangement = arrange_mask(mask_of(knocker))
    melds = [frozenset(m) for m in arrangement.melds]
    reading = lay_off_mask(mask_of(defender), arrangement.meld_masks)
    assert reading.deadwood_points == oracle.layoff_deadwood(defender, melds)
    # the reading is consistent: own melds + lay-offs + deadwood = the defender's hand
    laid = mask_of(lo.card for lo in reading.layoffs)
    own = reading.arrangement
    assert laid | mask_of(c for m in own.melds for c in m) | mask_of(own.deadwood) == mask_of(
        defender
    )
    assert own.deadwood_points == reading.deadwood_points
    groups: dict[int, set[int]] = {}
    for lo in reading.layoffs:
        groups.setdefault(lo.meld, set()).add(lo.card)
    for index, cards in groups.items():
        assert oracle.can_lay_off(melds[index], frozenset(cards))


# --- random legal play ------------------------------------------------------------------------

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][shdc])(?![A-Za-z0-9])")


def cards_in(obj: Any) -> set[int]:
    """Every card mentioned anywhere in a JSON-able object (keys and strings)."""
    found: set[int] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            found |= cards_in(k) | cards_in(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            found |= cards_in(v)
    elif isinstance(obj, str):
        for token in CARD_TOKEN.findall(obj):
            found.add(int(parse_cards(token)[0]))
    return found


def check_invariants(state: ginrummy.HandState, out_of_play: int) -> None:
    h0, h1 = state.hand_mask(0), state.hand_mask(1)
    pile = mask_of(state.discard_pile)
    stock = mask_of(state.stock)
    parts = [h0, h1, pile, stock, out_of_play]
    total = sum(p.bit_count() for p in parts)
    union = h0 | h1 | pile | stock | out_of_play
    assert total == 52 and union == FULL_DECK_MASK, "a card was lost or duplicated"
    assert len(state.discard_pile) == pile.bit_count()
    sizes = sorted((h0.bit_count(), h1.bit_count()))
    if state.is_over:
        assert sizes in ([10, 10], [10, 11])
    else:
        assert sizes in ([10, 10], [10, 11])
        if state.phase.value == "discard":
            assert state.hand_mask(state.to_act).bit_count() == 11  # type: ignore[arg-type]
    assert state.known_mask(0) & ~h0 == 0 and state.known_mask(1) & ~h1 == 0


def check_views(state: ginrummy.HandState, public: int, drawn: list[int]) -> None:
    """No view mentions a card its seat may not know; the stock order never shows."""
    stock = mask_of(state.stock)
    for seat in (0, 1, None):
        allowed = public
        if seat is not None:
            allowed |= state.hand_mask(seat) | drawn[seat]
        if state.is_over:
            allowed |= state.hand_mask(0) | state.hand_mask(1)
        seen = mask_of(cards_in(state.view(seat).to_dict()))
        leaked = seen & ~allowed
        assert not leaked, f"seat {seat} view leaks {ginrummy.CardSet(leaked)}"
        assert not seen & stock, "a view shows a stock card"


def check_result(state: ginrummy.HandState) -> None:
    r = state.result
    assert r is not None
    rules = state.rules
    if r.kind == "void":
        assert (r.winner, r.points, r.knocker) == (None, 0, None)
        return
    k = r.knocker
    assert k is not None
    dk, dd = r.deadwood[k], r.deadwood[1 - k]
    m = r.multiplier
    if r.kind == "knock":
        assert r.winner == k and 0 < dk < dd and r.points == (dd - dk) * m
        assert dk <= state.knock_limit
    elif r.kind == "undercut":
        assert r.winner == 1 - k and dd <= dk and r.points == (dk - dd + rules.undercut_bonus) * m
    elif r.kind == "gin":
        assert r.winner == k and dk == 0 and not r.layoffs
        assert r.points == (dd + rules.gin_bonus) * m
    else:
        assert r.kind == "big-gin" and r.winner == k and len(r.hands[k]) == 11
        assert r.points == (dd + (rules.big_gin_bonus or 0)) * m


RULESETS = [ginrummy.Rules.preset(n) for n in ginrummy.Rules.PRESET_NAMES] + [
    __import__("dataclasses").replace(ginrummy.Rules.preset("tournament"), oklahoma=True)
]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(RULESETS), st.integers(0, 1), st.booleans())
def test_random_play_invariants(
    seed: int, rules: ginrummy.Rules, dealer: int, greedy: bool
) -> None:
    """Random legal play (optionally preferring to end the hand) always ends, never loses or
    duplicates a card, keeps every view clean and scores consistently."""
    rng = random.Random(seed)
    state = ginrummy.deal(rules, dealer, shuffled_deck(str(seed)))
    public = 1 << state.upcard
    drawn = [0, 0]
    for _ in range(2000):
        check_invariants(state, 0)
        check_views(state, public, drawn)
        if state.is_over:
            break
        legal = state.legal_actions()
        enders = [a for a in legal if a.split()[0] in ("knock", "gin", "big-gin")]
        action = rng.choice(enders) if greedy and enders else rng.choice(legal)
        seat = state.to_act
        assert seat is not None
        before = state.stock_size
        state = state.apply(action)
        if action == "stock":
            drawn[seat] |= 1 << state.history[-1].card  # type: ignore[operator]
            assert state.stock_size == before - 1
        for card in state.discard_pile:
            public |= 1 << card
    assert state.is_over, "random play did not end"
    check_result(state)


def test_apply_accepts_exactly_the_legal_actions() -> None:
    """Over many random positions every action string is accepted iff it is listed."""
    rng = random.Random(3)
    rules = ginrummy.Rules.preset("tournament")
    everything = list(ACTIONS)
    positions = 0
    for n in range(30):
        state = ginrummy.deal(rules, n % 2, shuffled_deck(f"legal-{n}"))
        while not state.is_over:
            legal = set(state.legal_actions())
            for action in rng.sample(everything, 25) + sorted(legal):
                try:
                    state.apply(action)
                    accepted = True
                except ginrummy.IllegalActionError:
                    accepted = False
                assert accepted == (action in legal), (action, state)
                assert state.is_legal(action) == (action in legal)
            assert set(state.legal_actions()) == legal  # refused actions changed nothing
            positions += 1
            state = state.apply(rng.choice(sorted(legal)))
    assert positions > 1000


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULESETS))
def test_game_scores_add_up_and_record_replays(seed: int, rules: ginrummy.Rules) -> None:
    from ginrummy import record
    from ginrummy.playout import random_game

    small = __import__("dataclasses").replace(rules, target=40)
    game = random_game(small, str(seed))
    points = [0, 0]
    won = [0, 0]
    for r in game.results:
        if r.winner is not None:
            points[r.winner] += r.points
            won[r.winner] += 1
    assert tuple(points) == game.points and tuple(won) == game.hands_won
    assert max(points) >= small.target and min(points) < small.target
    assert game.outcome == ginrummy.score_game(small, points, won)
    text = record.dumps(record.record_of(game))
    again = record.replay(record.loads(text))
    assert again.points == game.points and again.outcome == game.outcome
    assert again.results == game.results
    assert [h.history for h in again.finished_hands] == [h.history for h in game.finished_hands]


def test_deck_of_shuffle_is_a_permutation() -> None:
    for n in range(200):
        deck = shuffled_deck(f"perm-{n}")
        assert sorted(deck) == list(DECK)


@settings(max_examples=200, deadline=None)
@given(knock_positions())
def test_knock_value_fast_path_equals_settlement(position: tuple[list[int], list[int]]) -> None:
    from ginrummy.melds import knock_deadwoods_mask, settle_knock_mask

    knocker, defender = mask_of(position[0]), mask_of(position[1])
    arrangement, reading = settle_knock_mask(knocker, defender)
    assert knock_deadwoods_mask(knocker, defender) == (
        arrangement.deadwood_points,
        reading.deadwood_points,
    )


@settings(max_examples=300, deadline=None)
@given(any_hands)
def test_melded_mask_is_the_arrangements_melds(cards: list[int]) -> None:
    from ginrummy.melds import melded_mask

    m = mask_of(cards)
    arrangement = arrange_mask(m)
    assert melded_mask(m) == mask_of(c for meld in arrangement.melds for c in meld)


# --- fast paths of the self-play loop against the oracle --------------------------------------


@settings(max_examples=400, deadline=None)
@given(any_hands, st.integers(0, 51))
def test_joins_meld_equals_oracle(cards: list[int], card: int) -> None:
    from ginrummy.ai.knowledge import joins_meld

    hand = [c for c in cards if c != card]
    expected = any(card in meld for meld in oracle.all_melds([*hand, card]))
    assert joins_meld(card, mask_of(hand)) == expected


@settings(max_examples=300, deadline=None)
@given(any_hands)
def test_arrange_mask_is_the_first_minimal_arrangement(cards: list[int]) -> None:
    m = mask_of(cards)
    first = all_min_arrangements(m)[0]
    got = arrange_mask(m)
    assert (got.melds, got.deadwood, got.deadwood_points, got.meld_masks) == (
        first.melds,
        first.deadwood,
        first.deadwood_points,
        first.meld_masks,
    )


@st.composite
def eleven_card_positions(draw: Any) -> tuple[list[int], list[int]]:
    """Eleven cards (often meld-rich) to discard from, and the other 41 in some order."""
    cards = draw(st.one_of(meld_rich_hands(max_size=11), uniform_hands))
    rest = [c for c in range(52) if c not in cards]
    rng = random.Random(draw(st.integers(0, 10**6)))
    rng.shuffle(rest)
    fill = 11 - len(cards)
    return cards + rest[:fill], rest[fill:]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(eleven_card_positions(), st.sampled_from(RULESETS))
def test_knock_and_gin_actions_equal_oracle(
    position: tuple[list[int], list[int]], rules: ginrummy.Rules
) -> None:
    """The legal knocks and gins (found with a deadwood bound first) are exactly the discards
    the oracle says leave at most the knock limit (zero: gin)."""
    eleven, others = position
    # seat 0 (non-dealer) holds ten, both pass the upcard, and it draws the eleventh
    state = ginrummy.new_hand(
        rules, 1, (eleven[:10], others[:10]), others[10], [eleven[10], *others[11:41]]
    )
    state = state.apply("pass").apply("pass").apply("stock")
    assert state.hand_mask(0) == mask_of(eleven)
    limit = state.knock_limit
    expected = set()
    for c in eleven:
        dw = oracle.min_deadwood([x for x in eleven if x != c])
        if dw == 0:
            expected.add(f"gin {DECK[c]}")
        elif dw <= limit:
            expected.add(f"knock {DECK[c]}")
    if rules.big_gin_bonus is not None and oracle.min_deadwood(eleven) == 0:
        expected.add("big-gin")
    legal = state.legal_actions()
    assert {a for a in legal if not a.startswith("discard")} == expected
    assert sorted(a for a in legal if a.startswith("discard")) == sorted(
        f"discard {DECK[c]}" for c in eleven
    )


def test_runs_at_the_ends_of_adjacent_suits_stay_apart() -> None:
    """Ks and Ah are neighbouring bits of a card mask, never neighbouring cards."""
    cards = parse_cards("Js Qs Ks Ah 2h 3h Qd Kd Ac 2c")
    arrangement = arrange_mask(mask_of(cards))
    assert [format_cards(m) for m in arrangement.melds] == ["Ah 2h 3h", "Js Qs Ks"]
    assert arrangement.deadwood_points == 23
    check_arrangement(cards)


@settings(max_examples=400, deadline=None)
@given(any_hands)
def test_deadwood_floor_is_the_cards_in_no_meld(cards: list[int]) -> None:
    from ginrummy.melds import deadwood_floor_mask

    melds = oracle.all_melds(cards)
    loose = [c for c in cards if not any(c in meld for meld in melds)]
    m = mask_of(cards)
    floor = deadwood_floor_mask(m)
    assert floor == oracle.points(loose)
    assert floor <= deadwood_mask(m)
    if not any(len(meld) >= 3 and len({c % 13 for c in meld}) == 1 for meld in melds):
        assert floor == deadwood_mask(m)  # exact without sets


def test_from_melds_orders_any_cards_by_rank() -> None:
    """Melds come out by rank then suit, even a group that is not one suit or one rank."""
    hand = mask_of(parse_cards("Kd 2s 2c 7h 3s 8h 9h"))
    odd = mask_of(parse_cards("Kd 2s 2c"))
    arrangement = ginrummy.Arrangement.from_melds(hand, [odd, mask_of(parse_cards("7h 8h 9h"))])
    assert [format_cards(m) for m in arrangement.melds] == ["2s 2c Kd", "7h 8h 9h"]
    assert format_cards(arrangement.deadwood) == "3s"
