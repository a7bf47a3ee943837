"""Master's learned knock: its features, its rule, and the shipped weights' reproduction."""

from __future__ import annotations

import json
import statistics
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

import ginrummy
from ginrummy.ai import player
from ginrummy.ai.base import can_end, discard_options
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import (
    KNOCK_FEATURES,
    MASTER_KNOCK,
    MasterPlayer,
    knock_features,
    knock_weights,
    learned_params,
    predicted_edge,
    quadratic,
)
from ginrummy.ai.signals import knock_signals
from ginrummy.ai.strong import KnockEstimate
from ginrummy.cards import shuffled_deck
from ginrummy.learn.knock import RUNS, KnockSelfPlay, collect, read_data

DATA = Path(__file__).parent / "data"
CLASSIC = ginrummy.Rules.preset("classic")


def test_quadratic_worked_by_hand() -> None:
    # the bias, the features, then a*a, a*b, a*c, b*b, b*c, c*c
    assert quadratic((1.0, 2.0, 3.0, 5.0)) == (1.0, 2.0, 3.0, 5.0, 4.0, 6.0, 10.0, 9.0, 15.0, 25.0)
    features, _ = learned_params(MASTER_KNOCK)
    assert features == KNOCK_FEATURES[: len(features)]
    m = len(features) - 1
    assert len(knock_weights()) == len(features) + m * (m + 1) // 2


def test_hand_utility_is_master_at_love_all() -> None:
    from ginrummy.learn.knock import hand_utility

    assert hand_utility(0) == pytest.approx(0.0)
    assert hand_utility(20) == pytest.approx(-hand_utility(-20))
    assert 0 < hand_utility(10) < hand_utility(30) < 100
    view_player = player("master", 1)
    state = ginrummy.deal(CLASSIC, 0, shuffled_deck("utility"))
    k = Knowledge(state.view(1))
    assert isinstance(view_player, MasterPlayer)
    assert view_player.utility(k, 25) == pytest.approx(hand_utility(25))


def chances_to_knock(seeds: range) -> list[tuple[Knowledge, dict[int, int]]]:
    """Positions of master self-play where the seat to act may knock (not gin)."""
    found = []
    for n in seeds:
        bots = {s: player("master-2026-11", f"kn/{n}/{s}") for s in (0, 1)}
        state = ginrummy.deal(CLASSIC, n % 2, shuffled_deck(f"kn/{n}"))
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if view.phase == "discard" and view.stock_size > 2 and can_end(view):
                k = Knowledge(view)
                options = discard_options(k)
                if 0 < min(options.values()) <= k.knock_limit:
                    found.append((k, options))
            state = state.apply(bots[seat].choose(view), seat)
    return found


def test_master_knocks_by_the_learned_edge() -> None:
    """Where master may knock, it knocks exactly when the learned edge of playing on is at
    most zero (its estimate computed as the decision computes it): in a game's first hand,
    the edge of its own learned knock and of the one against knockers, mixed by the hedge's
    chance of a knocker (from the opponent's play this hand)."""
    positions = chances_to_knock(range(6))
    assert len(positions) >= 8
    knocked = played_on = 0
    for k, options in positions:
        seed = "rule"
        master = MasterPlayer(seed)
        action = master.choose(k.view)
        probe = MasterPlayer(seed)
        model = probe.model(k)
        assert model is not None
        est: KnockEstimate = probe.knock_estimate(k, options, model)
        x = probe.chance_features(k, est)
        # no finished hand shows the opponent's style: the two learned knocks mixed
        prior = probe.hedge_chance(k)
        assert 0.0 < prior < 1.0
        edge = (1 - prior) * predicted_edge(x) + prior * predicted_edge(x, "knock-vs-knocker")
        assert action.startswith("knock") == (edge <= 0), (action, edge)
        knocked += action.startswith("knock")
        played_on += not action.startswith("knock")
        assert len(x) == len(KNOCK_FEATURES) and x[0] == 1.0
        assert x[:12] == knock_features(k, est)
        assert x[1] == est.knock_value / 10 and x[2] == est.on_value / 10
        assert x[4] == k.stock_size / 31
        named = dict(zip(KNOCK_FEATURES, x, strict=True))
        assert named["turn"] == k.turn / 30
        assert named["on_deadwood"] == options[est.play_on] / 10
        for share in ("opp_within_10", "opp_within_20", "on_gin_share", "on_ginned_share"):
            assert 0.0 <= named[share] <= 1.0
        assert named["opp_within_10"] <= named["opp_within_20"]
        # the expected deadwood two draws ahead counts the knock bonus, so it is lower
        assert named["after_two_draws"] <= named["after_one_draw"] <= named["on_deadwood"]
        # the spread and shares are those of playing on's points over the estimate's deals
        on = [b for _, b in est.points]
        assert named["on_gin_share"] == sum(b >= 25 for b in on) / len(on)
        assert named["on_spread"] == pytest.approx(statistics.pstdev(on) / 10)
        # the last eight: the opponent's public play this hand
        assert x[-8:] == knock_signals(k.view) and named["opp_turns"] > 0
    assert knocked and played_on


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_shipped_data_are_what_self_play_gives(name: str) -> None:
    """The positions shipped with the tests for each shipped parameter file begin with what
    the script plays for its run's first hands (so every later hand follows from the same
    code; a file made before later features were added holds the first of them)."""
    run = RUNS[name]
    assert run.data[0][1] == 0
    for path, first in run.data:
        data = read_data(DATA / path)
        width = len(data[0].features)
        start = i = 0
        while i < 3 or start < 4:
            hand = collect(run.job, 1, first=first + i)
            rows = [replace(p, features=p.features[:width]) for p in hand]
            assert data[start : start + len(rows)] == rows, f"{path}: hand {first + i}"
            start += len(rows)
            i += 1


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_shipped_weights_are_the_fit_of_the_shipped_data(name: str) -> None:
    """``python -m ginrummy.learn knock --from-data`` on each run's shipped positions, with
    the run's options, writes the shipped parameter file exactly; the default options are
    master's."""
    pytest.importorskip("numpy")
    from ginrummy.learn.__main__ import MASTER, main

    run = RUNS[name]
    shipped = resources.files("ginrummy.ai").joinpath(f"params/{name}.json").read_text("utf-8")
    options = [] if run is MASTER else run.arguments()
    data = [arg for path, _ in run.data for arg in ("--from-data", str(DATA / path))]
    if run.mix is not None:
        mixed = RUNS[run.mix[0]]
        data += [arg for path, _ in mixed.data for arg in ("--mix-data", str(DATA / path))]
    result = CliRunner().invoke(main, ["knock", *options, *data])
    assert result.exit_code == 0, result.output
    assert result.output == shipped
    recorded = json.loads(shipped)["trained_on"]
    assert recorded["hands"] == run.hands and recorded["seed"] == run.job.seed
    assert len(json.loads(shipped)["features"]) == run.features
    if run.mix is not None:
        other = recorded["mixed_with"]
        assert (other["seed"], other["hands"]) == (mixed.job.seed, mixed.hands)
        assert other["share"] == run.mix[1]


def test_a_mixed_fit_weighs_the_other_run_by_its_share() -> None:
    """The mixed fit is weighted least squares: the other run's positions at share 1 fit as if
    they were the run's own, at share 2 as if each were written twice."""
    pytest.importorskip("numpy")
    from ginrummy.learn.knock import KnockPosition, fit

    rows = [
        KnockPosition(
            (1.0, 0.5 * i, (i % 3) / 2.0), knock=float(i % 4), on=float(i % 5), chose_knock=False
        )
        for i in range(12)
    ]
    own, other = rows[:8], rows[8:]
    assert fit(own, 3, 1.0, other, 1.0) == fit(rows, 3, 1.0)
    # share 2: each of the other run's positions counts as if written twice
    twice = [*own, *other, *other]
    assert fit(own, 3, 1.0, other, 2.0) == pytest.approx(fit(twice, 3, 1.0), abs=2e-5)
    assert fit(own, 3, 1.0, other, 0.5) != fit(rows, 3, 1.0)


def test_fitting_written_data_of_a_mixed_run_needs_the_other_runs_data() -> None:
    from ginrummy.learn.__main__ import main

    data = str(DATA / RUNS["knock-kA"].data[0][0])
    result = CliRunner().invoke(main, ["knock", "--from-data", data, "--mix", "knock-vs-knocker"])
    assert result.exit_code == 2 and "--mix-data" in result.output


def test_a_run_against_fixed_opponents() -> None:
    """Against fixed opponents the learner changes seat every two hands and the opponent
    every four; only the learner's chances are kept; an unknown opponent is refused."""
    from ginrummy.learn.__main__ import main

    job = KnockSelfPlay("seats", players="knock-kA", opponents=("style-knock", "baseline"))
    assert [job.seats(i) for i in range(5)] == [(0,), (0,), (1,), (1,), (0,)]
    levels = [{seat: p.level for seat, p in job.players_of(i, "t").items()} for i in (0, 2, 4, 6)]
    assert levels == [
        {0: "master-knock-kA", 1: "style-knock"},
        {1: "master-knock-kA", 0: "style-knock"},
        {0: "master-knock-kA", 1: "baseline"},
        {1: "master-knock-kA", 0: "baseline"},
    ]
    assert KnockSelfPlay("self").seats(3) == (0, 1)
    result = CliRunner().invoke(main, ["knock", "--opponents", "style-knock,nobody"])
    assert result.exit_code == 2 and "unknown level 'nobody'" in result.output


def test_gain_worked_by_hand() -> None:
    from ginrummy.learn.knock import KnockPosition, gain

    a = KnockPosition((1.0,), knock=10.0, on=4.0, chose_knock=False)
    b = KnockPosition((1.0,), knock=-5.0, on=3.0, chose_knock=True)
    # knocking in both: +6 at a (10 instead of 4), 0 at b (the players knocked too)
    assert gain([a, b], [True, True]) == pytest.approx(3.0)
    # playing on in both: 0 at a, +8 at b
    assert gain([a, b], [False, False]) == pytest.approx(4.0)


def test_draw_data_reproduce() -> None:
    """The draw experiment's positions (ginrummy.learn.draw) are the same each time, and
    each close draw is one master searches (the expert's pile edge within its margin)."""
    from ginrummy.learn import draw

    job = draw.DrawSelfPlay("draw-test")
    first = [p for i in range(3) for p in draw.positions_of_hand((job, i))]
    assert first == [p for i in range(3) for p in draw.positions_of_hand((job, i))]
    assert first
    for p in first:
        assert len(p.features) == len(draw.DRAW_FEATURES) and p.features[0] == 1.0
        assert abs(p.features[1] * 3) <= MasterPlayer.draw_margin
        assert -100 <= p.pile <= 100 and -100 <= p.stock <= 100
        named = dict(zip(draw.DRAW_FEATURES, p.features, strict=True))
        assert named["pile_knocks"] in (0.0, 1.0) and named["pile_gin"] <= named["pile_knocks"]
        assert 0.0 <= named["stock_knocks"] <= 1.0
    # a wider margin keeps more draws, and the same ones within the searched window (seeded
    # by the position, not by how many were kept before)
    wide = [
        p
        for i in range(3)
        for p in draw.positions_of_hand((draw.DrawSelfPlay("draw-test", margin=6.0), i))
    ]
    assert len(wide) > len(first)
    assert [p for p in wide if abs(p.features[1] * 3) <= MasterPlayer.draw_margin] == first


def test_master_values_a_hand_as_at_love_all_whatever_the_score() -> None:
    """Since 2026-12-05 (night) master values a hand's points as at 0-0 at every score
    (``score_weight`` 0); ``master-2026-11`` still by the chance of winning the game from the
    real score, and a weight between mixes the two."""
    from ginrummy.ai.master import game_utility

    state = ginrummy.deal(CLASSIC, 0, shuffled_deck("utility"))
    half = type("Half", (MasterPlayer,), {"score_weight": 0.5})("h")
    for score in ((0, 0), (60, 85), (85, 20)):
        k = Knowledge(state.view(0)._replace(points=score))
        for points in (-30, -5, 10, 25):
            at_love_all = game_utility(100, 0, 0, points)
            real = game_utility(100, score[0], score[1], points)
            assert MasterPlayer("m").utility(k, points) == at_love_all
            assert player("master-2026-11", "m").utility(k, points) == real
            assert half.utility(k, points) == pytest.approx((real + at_love_all) / 2)
    assert game_utility(100, 60, 85, 20) != game_utility(100, 0, 0, 20)


class ScoreMaster(MasterPlayer):
    """Master valuing hands by the chance of winning the game from the real score, as it did
    until 2026-12-05 (night)."""

    score_weight = 1.0
    knocker_prior = 0.0  # its own learned knock alone, as then
    hedge_params = None


def test_the_fixed_hedge_until_the_game_shows_the_opponent() -> None:
    """Before a game shows the opponent's style the learned edge of ``master-2026-12`` (and
    of master without the regression, :attr:`MasterPlayer.hedge_params` None) is its own
    knock's and the knock against knockers' mixed by ``knocker_prior``; without adapting
    (or with a prior of 0) its own alone (master's hedge by the hand's play:
    tests/test_ai_knocker.py)."""
    assert MasterPlayer.knocker_prior == 0.4
    checked = 0
    for k, options in chances_to_knock(range(2)):
        master = player("master-2026-12", "hedge")
        assert isinstance(master, MasterPlayer) and master.hedge_params is None
        model = master.model(k)
        assert model is not None
        est = master.knock_estimate(k, options, model)
        x = master.chance_features(k, est)
        own, knocker = predicted_edge(x), predicted_edge(x, "knock-vs-knocker")
        assert master.opponent_kind(k) is None
        assert master.learned_edge(k, est) == pytest.approx(0.6 * own + 0.4 * knocker)
        for other in (player("master-no-adapt", "hedge"), ScoreMaster("hedge")):
            assert isinstance(other, MasterPlayer)
            assert other.learned_edge(k, est) == pytest.approx(own)
        checked += own != knocker
    assert checked >= 4


def test_the_learned_correction_is_scaled_to_the_score() -> None:
    """Learned at 0-0, the correction is carried to other scores: the simulations' edge at
    the real score plus the learned correction at 0-0 times what a point is worth there
    relative to 0-0 (worked here from the per-deal points the estimate keeps), for a master
    that values the score (``score_weight`` 1)."""
    from ginrummy.ai.master import game_utility

    assert game_utility(100, 0, 0, 0) == pytest.approx(0.0)
    assert game_utility(100, 90, 0, 10) == 100.0 and game_utility(100, 0, 95, -5) == -100.0
    assert game_utility(500, 30, 40, -7) == -7.0
    checked = 0
    for k, options in chances_to_knock(range(3)):
        for score in ((0, 0), (60, 85), (85, 20)):
            view = k.view._replace(points=score)
            kk = Knowledge(view)
            master = ScoreMaster("scaled")
            model = master.model(kk)
            assert model is not None
            est = master.knock_estimate(kk, options, model)
            n = len(est.points)
            assert n == master.knock_samples

            def u(p: int, mine: int = score[k.seat], theirs: int = score[1 - k.seat]) -> float:
                return game_utility(100, mine, theirs, p)

            def u0(p: int) -> float:
                return game_utility(100, 0, 0, p)

            assert est.knock_value == pytest.approx(sum(u(a) for a, _ in est.points) / n)
            knock0 = sum(u0(a) for a, _ in est.points) / n
            on0 = sum(u0(b) for _, b in est.points) / n
            even = est._replace(knock_value=knock0, on_value=on0)
            learned0 = predicted_edge(master.chance_features(kk, even))
            slope = (u(10) - u(-10)) / (u0(10) - u0(-10))
            edge = est.on_value - est.knock_value + slope * (learned0 - (on0 - knock0))
            if score == (0, 0):
                assert edge == pytest.approx(learned0)
            if abs(edge) > 1e-6:
                assert master.knocks(kk, est) == (edge <= 0)
                checked += 1
    assert checked >= 10
