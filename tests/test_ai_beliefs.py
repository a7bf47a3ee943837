"""The learned opponent model: its features, its probabilities, and the shipped weights."""

from __future__ import annotations

import json
import math
import random
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginrummy
from ginrummy.ai import player
from ginrummy.ai.beliefs import (
    FEATURES,
    LearnedOpponentModel,
    card_features,
    card_probabilities,
    shipped_weights,
)
from ginrummy.ai.knowledge import Knowledge
from ginrummy.cards import NAMES, parse_cards, shuffled_deck

CLASSIC = ginrummy.Rules.preset("classic")


def position() -> ginrummy.HandState:
    """Seat 1 passes 9s, seat 0 passes; seat 1 draws Jc and discards Tc; seat 0 takes Tc
    from the pile and discards 5c (as in tests/test_ai.py's knowledge test)."""
    state = ginrummy.new_hand(
        CLASSIC,
        0,
        hands=("As 2s 3s 7h 7d 7c Kd Qd Jd 5c", "Ah 2h 3h 4c 5d 6s 8c 9d Tc Jh"),
        upcard="9s",
        stock="Jc 2d 8h 6h 6c 7s Js Kc Ks Ad 5h 4d Qc Th 8d 5s 6d Ac Qs 9h Td",
    )
    for action in ("pass", "pass", "stock", "discard Tc", "pile", "discard 5c"):
        state = state.apply(action)
    return state


def features_of(state: ginrummy.HandState, seat: int) -> dict[str, dict[str, float]]:
    k = Knowledge.of(state.view(seat))
    return {NAMES[c]: dict(zip(FEATURES, x, strict=True)) for c, x in card_features(k)}


def test_features_worked_by_hand() -> None:
    """Seat 1's view: the opponent holds Tc (taken), discarded 5c, passed 9s, drew once."""
    f = features_of(position(), 1)
    # unseen by seat 1: 52 - its 10 - the pile (9s 5c) - Tc, known in the opponent's hand
    assert len(f) == 39
    assert "Tc" not in f and "9s" not in f and "Jc" not in f
    ts = f["Ts"]
    assert ts["bias"] == 1.0
    assert ts["base_logit"] == pytest.approx(math.log(9 / 30))  # 9 hidden of 39 unseen
    assert ts["points"] == 1.0 and ts["run_windows"] == 1.0
    assert ts["held_rank"] == 1.0  # Tc
    assert ts["held_suit1"] == ts["held_suit2"] == 0.0
    assert ts["took_gone_rank"] == ts["took_gone_suit1"] == 0.0  # Tc is still held
    assert ts["discard_rank"] == ts["discard_suit1"] == ts["discard_suit2"] == 0.0
    assert ts["declined_rank"] == 0.0 and ts["declined_suit1"] == 1.0  # 9s passed by
    # out of play for the opponent: 9s in the pile (Js unseen; Tc held, not out of play)
    assert ts["dead_rank"] == 0.0 and ts["dead_suit1"] == 1.0 and ts["dead_suit2"] == 0.0
    assert ts["progress"] == pytest.approx(1 / 15)  # one draw: Tc from the pile
    assert ts["points_late"] == pytest.approx(1 / 15)
    assert ts["discarded_points_mean"] == 0.5  # 5c
    c6 = f["6c"]
    assert c6["points"] == pytest.approx(0.6)
    assert c6["discard_suit1"] == 1.0 and c6["recent_discard_suit1"] == 1.0  # 5c
    assert c6["discard_suit2"] == 0.0 and c6["discard_rank"] == 0.0
    # 6s in seat 1's hand; 5c in the pile (7c unseen); 4c and 8c in seat 1's hand
    assert (c6["dead_rank"], c6["dead_suit1"], c6["dead_suit2"]) == (1.0, 1.0, 2.0)
    assert f["As"]["run_windows"] == pytest.approx(1 / 3)
    assert f["Qs"]["run_windows"] == pytest.approx(2 / 3)
    assert f["As"]["points"] == pytest.approx(0.1)


def test_the_learned_chances_add_up_to_the_hidden_cards() -> None:
    state = position()
    k = Knowledge.of(state.view(1))
    model = LearnedOpponentModel(k)
    assert set(model.probability) == {int(c) for c in ginrummy.cards.cards_of(k.unseen)}
    assert sum(model.probability.values()) == pytest.approx(9)
    assert all(0.0 <= p <= 1.0 for p in model.probability.values())
    # the opponent took Tc, so the other tens are likelier than the card passed by's partner
    p = {NAMES[c]: v for c, v in model.probability.items()}
    assert p["Th"] > p["8s"]
    hand = model.sample_hand(random.Random(1))
    assert hand.bit_count() == 10 and hand >> int(parse_cards("Tc")[0]) & 1


def oracle_features(state: ginrummy.HandState, seat: int) -> dict[str, list[float]]:
    """The features again, slowly, from the view's card lists (names, not masks)."""
    view = state.view(seat)
    opp = 1 - seat
    pile = [NAMES[view.upcard]]
    took: list[str] = []
    discards: list[str] = []
    declined: list[str] = []
    draws = 0
    for e in view.history:
        word, _, card = e.action.partition(" ")
        if word in ("take", "pile"):
            top = pile.pop()
            if e.seat == opp:
                took.append(top)
                draws += 1
        elif word in ("pass", "stock"):
            if e.seat == opp:
                if pile:
                    declined.append(pile[-1])
                draws += word == "stock"
        elif card:
            pile.append(card)
            if e.seat == opp:
                discards.append(card)
    held = [NAMES[c] for c in view.known_cards[opp]]
    gone = [c for c in took if c not in held]
    # a card passed by twice (the upcard, then left on top for the stock) counts once
    declined = [c for c in dict.fromkeys(declined) if c not in took]
    mine = [NAMES[c] for c in view.hand]
    in_pile = [NAMES[c] for c in view.discard_pile]
    unseen = [n for n in NAMES if n not in mine + in_pile + held]
    dead = [n for n in NAMES if n not in unseen and n not in held]
    ranks = "A23456789TJQK"

    def rank(n: str) -> int:
        return ranks.index(n[0])

    def rel(c: str, cards: list[str], kind: str) -> float:
        def related(o: str) -> bool:
            if o == c:
                return False
            if kind == "rank":
                return rank(o) == rank(c)
            gap = abs(rank(o) - rank(c))
            return o[1] == c[1] and gap == (1 if kind == "suit1" else 2)

        return float(sum(1 for o in cards if related(o)))

    hidden = view.hand_sizes[opp] - len(held)
    share = min(max(hidden, 0.5), len(unseen) - 0.5) / len(unseen)
    progress = min(1.0, draws / 15)
    out = {}
    for c in unseen:
        r = rank(c)
        windows = sum(1 for lo in (r - 2, r - 1, r) if 0 <= lo <= 10)
        points = min(10, r + 1) / 10
        out[c] = [
            1.0,
            math.log(share / (1 - share)),
            points,
            windows / 3,
            rel(c, held, "rank"),
            rel(c, held, "suit1"),
            rel(c, held, "suit2"),
            rel(c, gone, "rank"),
            rel(c, gone, "suit1"),
            rel(c, discards, "rank"),
            rel(c, discards, "suit1"),
            rel(c, discards, "suit2"),
            rel(c, discards[-3:], "rank"),
            rel(c, discards[-3:], "suit1"),
            rel(c, declined, "rank"),
            rel(c, declined, "suit1"),
            rel(c, dead, "rank"),
            rel(c, dead, "suit1"),
            rel(c, dead, "suit2"),
            points * progress,
            progress,
            sum(min(10, rank(d) + 1) for d in discards) / (10 * len(discards)) if discards else 0.5,
        ]
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), seat=st.integers(0, 1))
def test_features_match_the_oracle(seed: int, steps: int, seat: int) -> None:
    """Any position of a game between two levels: the fast features equal the oracle's."""
    state = ginrummy.deal(CLASSIC, seed % 2, shuffled_deck(f"beliefs-{seed}"))
    bots = {0: player("expert", f"{seed}/0"), 1: player("hard", f"{seed}/1")}
    for _ in range(steps):
        if state.is_over:
            break
        to_act = state.to_act
        assert to_act is not None
        state = state.apply(bots[to_act].choose(state.view(to_act)), to_act)
    if state.is_over:
        return
    fast = {c: [float(v) for v in f.values()] for c, f in features_of(state, seat).items()}
    slow = oracle_features(state, seat)
    assert fast.keys() == slow.keys()
    for c in fast:
        assert fast[c] == pytest.approx(slow[c]), c


def test_the_shipped_weights_are_read_and_checked() -> None:
    params = json.loads(
        resources.files("ginrummy.ai").joinpath("params/beliefs.json").read_text("utf-8")
    )
    assert params["features"] == list(FEATURES)
    assert len(shipped_weights()) == len(FEATURES)
    k = Knowledge.of(position().view(1))
    assert card_probabilities(k) == card_probabilities(k, shipped_weights())
    from ginrummy.ai.beliefs import weights_of

    with pytest.raises(ValueError, match="other features"):
        weights_of({**params, "features": params["features"][:-1]})


def test_training_reproduces_on_a_small_setting() -> None:
    """The script run twice on a few hands (one process, then two) gives the same data and
    weights, and the weights fit the data better than the base rate alone."""
    pytest.importorskip("numpy")
    from ginrummy.learn.beliefs import SelfPlay, collect, digest, fit, log_loss, train

    job = SelfPlay("beliefs-test", "hard")
    one = train(job, 24, workers=1)
    two = train(job, 24, workers=2)
    assert one == two
    rows = collect(job, 24)
    assert one["trained_on"]["data_sha256"] == digest(rows)
    assert one["trained_on"]["rows"] == len(rows) > 1000
    base_only = fit([((x[0], x[1]), y) for x, y in rows])
    assert one["log_loss"] < log_loss([((x[0], x[1]), y) for x, y in rows], base_only)


def test_the_shipped_weights_are_what_the_script_trains() -> None:
    """The shipped parameter file is the training script's output for its recorded run
    (python -m ginrummy.learn beliefs; about half a minute on two processes)."""
    pytest.importorskip("numpy")
    from ginrummy.learn.beliefs import SHIPPED, SHIPPED_HANDS, dumps, train

    shipped = resources.files("ginrummy.ai").joinpath("params/beliefs.json").read_text("utf-8")
    recorded = json.loads(shipped)["trained_on"]
    assert (recorded["seed"], recorded["level"], recorded["hands"]) == (
        SHIPPED.seed,
        SHIPPED.level,
        SHIPPED_HANDS,
    )
    assert dumps(train(SHIPPED, SHIPPED_HANDS, workers=2)) == shipped
