"""Master's hedge: the chance of a knocker from the opponent's play this hand, and the
shipped regression's reproduction (ginrummy.learn.knocker)."""

from __future__ import annotations

import math
import sys
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginrummy.ai import player
from ginrummy.ai.master import MasterPlayer, hedge_weights, learned_params, predicted_edge
from ginrummy.ai.signals import (
    KNOCKER_FEATURES,
    KNOCKER_SIGNALS,
    knocker_chance,
    knocker_features,
    knocker_signals,
)
from ginrummy.learn.knocker import (
    OPPONENTS,
    SHIPPED,
    SHIPPED_DATA,
    SHIPPED_NAME,
    KnockerRun,
    collect,
    logistic_fit,
    read_data,
    rows_of,
    write_data,
)
from test_ai_learned_knock import chances_to_knock
from test_ai_signals import view_with

DATA = Path(__file__).parent / "data"


def test_knocker_features_worked_by_hand() -> None:
    # four discards, two takes, one low take, two low discards, one rise, one taken card
    # thrown, 6 points a discard, two feeds, 20 stock cards left
    signals = (4.0, 2.0, 1.0, 2.0, 1.0, 1.0, 6.0, 2.0, 20.0)
    x = knocker_features(signals)
    assert len(x) == len(KNOCKER_FEATURES) == 2 + 2 * len(KNOCKER_SIGNALS)
    assert x == (1.0, *signals, 1.0, 0.5, 0.25, 0.5, 0.25, 0.25, 1.5, 0.5, 5.0, 1.6)
    # before any discard the counts are not divided (by at least one) and the square is 0
    nothing = (0.0,) * 8 + (31.0,)
    assert knocker_features(nothing) == (1.0, *nothing, *nothing, 0.0)
    # the square stops at twelve discards
    assert knocker_features((15.0,) + (0.0,) * 8)[-1] == pytest.approx(14.4)


def test_knocker_chance_is_the_logistic_of_the_features() -> None:
    signals = (4.0, 2.0, 1.0, 2.0, 1.0, 1.0, 6.0, 2.0, 20.0)
    weights = [0.0] * len(KNOCKER_FEATURES)
    assert knocker_chance(weights, signals) == 0.5
    weights[0], weights[7] = 0.5, -0.25  # the bias, and 6 points a discard
    assert knocker_chance(weights, signals) == pytest.approx(1 / (1 + math.exp(1.0)))
    weights[0] = 1000.0  # clamped, not an overflow
    assert knocker_chance(weights, signals) == pytest.approx(1 / (1 + math.exp(-30.0)))


def test_the_signals_come_from_the_public_play() -> None:
    view = view_with([(1, "take", "2c"), (1, "discard Kd", None), (0, "stock", "Qd")])
    assert knocker_signals(view) == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 10.0, 1.0, view.stock_size)


def test_a_logistic_fit_recovers_known_weights() -> None:
    """On rows whose labels are exactly as likely as a known logistic says (each row
    repeated with both labels in those proportions), the fit finds those weights (up to the
    small ridge)."""
    pytest.importorskip("numpy")
    true = (-1.0, 2.0)
    x: list[tuple[float, ...]] = []
    y: list[float] = []
    for v in (-1.0, -0.5, 0.0, 0.5, 1.0, 1.5):
        p = 1 / (1 + math.exp(-(true[0] + true[1] * v)))
        ones = round(1000 * p)
        x += [(1.0, v)] * 1000
        y += [1.0] * ones + [0.0] * (1000 - ones)
    w = logistic_fit(x, y, ridge=0.0)
    assert w == pytest.approx(true, abs=0.01)


def test_the_shipped_data_are_what_the_run_plays() -> None:
    """The chances shipped with the tests begin with what the collection plays for the run's
    first hands against each opponent (so every later hand follows from the same code)."""
    run, chances = read_data(DATA / SHIPPED_DATA)
    assert run == SHIPPED
    assert [len(chances[label]) for label, _ in OPPONENTS] == [run.hands] * len(OPPONENTS)
    small = collect(KnockerRun(run.seed, 2))
    for label, _ in OPPONENTS:
        assert small[label] == chances[label][:2], label
    assert sum(len(hand) for hands in small.values() for hand in hands) >= 10


def test_the_shipped_weights_are_the_fit_of_the_shipped_data() -> None:
    """``python -m ginrummy.learn knocker --from-data`` on the shipped chances writes the
    shipped parameter file exactly."""
    pytest.importorskip("numpy")
    from ginrummy.learn.__main__ import main

    shipped = resources.files("ginrummy.ai").joinpath(f"params/{SHIPPED_NAME}.json")
    result = CliRunner().invoke(main, ["knocker", "--from-data", str(DATA / SHIPPED_DATA)])
    assert result.exit_code == 0, result.output
    assert result.output == shipped.read_text("utf-8")
    assert MasterPlayer.hedge_params == SHIPPED_NAME
    assert learned_params(SHIPPED_NAME)[0] == KNOCKER_FEATURES


def test_the_shipped_chance_tells_knockers_apart() -> None:
    """On the shipped chances, the fitted chance is higher against the players that knock at
    once than against the others (it ranks a knocker's chance above another's in at least
    seven pairs of ten), and no chance is certain."""
    _, chances = read_data(DATA / SHIPPED_DATA)
    x, y = rows_of(chances)
    w = hedge_weights(SHIPPED_NAME)
    p = [1 / (1 + math.exp(-sum(a * b for a, b in zip(w, row, strict=True)))) for row in x]
    knockers = sorted(q for q, label in zip(p, y, strict=True) if label == 1)
    others = sorted(q for q, label in zip(p, y, strict=True) if label == 0)
    below = 0
    at = 0
    for q in knockers:  # how many others' chances each knocker's is above (a merge count)
        while at < len(others) and others[at] < q:
            at += 1
        below += at
    assert below / (len(knockers) * len(others)) >= 0.7
    assert sum(knockers) / len(knockers) > sum(others) / len(others) + 0.1
    assert min(p) > 0.0 and max(p) < 1.0


def test_master_hedges_by_the_hands_public_play() -> None:
    """Before a game shows the opponent's style, master mixes its own learned knock and the
    one against knockers by the regression's chance from the opponent's play this hand
    (``master-2026-12`` by the fixed prior: tests/test_ai_learned_knock.py)."""
    weights = hedge_weights(SHIPPED_NAME)
    chances = set()
    for k, options in chances_to_knock(range(2)):
        master = MasterPlayer("hedge")
        model = master.model(k)
        assert model is not None and master.opponent_kind(k) is None
        est = master.knock_estimate(k, options, model)
        x = master.chance_features(k, est)
        own, knocker = predicted_edge(x), predicted_edge(x, "knock-vs-knocker")
        p = knocker_chance(weights, knocker_signals(k.view))
        assert master.hedge_chance(k) == p
        assert master.learned_edge(k, est) == pytest.approx(p * knocker + (1 - p) * own)
        no_adapt = player("master-no-adapt", "hedge")
        assert isinstance(no_adapt, MasterPlayer) and no_adapt.hedge_chance(k) == 0.0
        chances.add(round(p, 6))
    assert len(chances) >= 4  # the chance moves with the hand's play


def test_hedge_weights_refuse_other_features() -> None:
    with pytest.raises(ValueError, match="fitted on other features"):
        hedge_weights("knock-vs-knocker")


def test_fitting_data_that_are_not_knocker_data_says_so(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from ginrummy.learn.__main__ import main

    other = DATA / "knock-vs-knocker.jsonl.gz"  # knock positions, not knocker chances
    result = CliRunner().invoke(main, ["knocker", "--from-data", str(other)])
    assert result.exit_code == 1
    assert "does not hold knocker data" in result.output
    wrong = tmp_path / "wrong.json.gz"
    write_data(KnockerRun("x", 1), {"baseline": [[[1.0, 2.0]]]}, wrong)
    result = CliRunner().invoke(main, ["knocker", "--from-data", str(wrong)])
    assert result.exit_code == 1 and "not the opponents" in result.output


def test_training_without_numpy_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from ginrummy.learn.__main__ import main

    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails
    result = CliRunner().invoke(main, ["knocker", "--from-data", str(DATA / SHIPPED_DATA)])
    assert result.exit_code == 1
    assert "pip install 'ginrummy[train]'" in result.output
