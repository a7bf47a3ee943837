"""The arena: duplicate deals, statistics, reproducibility whatever the number of workers."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ginrummy
from ginrummy.ai.master import win_table
from ginrummy.arena import ArenaResult, HandSummary, Interval, Style, run_arena, style_of
from ginrummy.cli import main

CLASSIC = ginrummy.Rules.preset("classic")


def test_same_results_with_one_or_two_workers() -> None:
    one = run_arena("easy", "baseline", CLASSIC, deals=12, seed="w", workers=1)
    two = run_arena("easy", "baseline", CLASSIC, deals=12, seed="w", workers=2)
    assert one.to_dict() == two.to_dict()
    other = run_arena("easy", "baseline", CLASSIC, deals=12, seed="other", workers=1)
    assert other.to_dict() != one.to_dict()


def test_duplicate_deals_cancel_for_equal_players() -> None:
    """The same deterministic player on both sides of a duplicate pair nets exactly zero."""
    result = run_arena("easy", "easy", CLASSIC, deals=20, seed="dup")
    # easy breaks ties at random, so allow for that, but the mean must be small
    assert abs(result.points_per_hand.mean) < 5
    assert result.style_a.hands == result.style_b.hands == 40


def test_games_mode_counts_wins() -> None:
    small = dataclasses.replace(CLASSIC, target=30)
    result = run_arena("normal", "random", small, games=3, seed="g")
    assert result.game_win_rate is not None
    assert result.game_win_rate.mean == 1.0  # normal always beats random to 30
    assert result.mode == "games" and result.pairs == 3


def test_interval_and_style_by_hand() -> None:
    i = Interval.of([1.0, 3.0])  # two values: standard error 1, Student's t with df 1
    assert i.mean == 2.0 and round(i.high - i.mean, 6) == 12.706
    hands = [
        HandSummary(20, "knock", True, False, 5, None, 10),
        HandSummary(-30, "undercut", True, False, 8, None, 12),
        HandSummary(-40, "gin", False, True, None, None, 8),
        HandSummary(0, "void", False, False, None, None, 29),
    ]
    a = style_of(hands, "a")
    assert (a.knock, a.undercut_against, a.gin, a.void) == (0.5, 0.25, 0.0, 0.25)
    assert a.mean_deadwood_at_knock == 6.5 and a.mean_hand_length == 14.75
    b = style_of(hands, "b")
    assert (b.gin, b.undercut, b.knock) == (0.25, 0.25, 0.0)


def test_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        main,
        [
            "arena",
            "easy",
            "baseline",
            "--deals",
            "5",
            "--preset",
            "classic",
            "--seed",
            "7",
            "--no-progress",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "easy vs baseline: classic, 5 duplicate deal pairs, seed 7" in result.stdout
    assert "points per hand" in result.stdout and "95 % CI" in result.stdout
    data = json.loads(out.read_text())
    assert data["a"] == "easy" and data["pairs"] == 5
    bad = CliRunner().invoke(main, ["arena", "easy", "genius", "--deals", "1"])
    assert bad.exit_code == 1 and "unknown AI level 'genius'" in bad.stderr


def test_win_table_is_a_sane_probability_model() -> None:
    table = win_table(100)
    assert abs(table[100][100] - 0.5) < 1e-9  # symmetric start
    assert table[10][100] > table[50][100] > table[100][100] > table[100][50]
    assert table[0][40] == 1.0 and table[40][0] == 0.0
    for a in range(1, 101, 9):
        for b in range(1, 101, 9):
            assert abs(table[a][b] + table[b][a] - 1.0) < 1e-9  # zero-sum


class _PileLover:
    """Always takes the pile, never draws the stock, never knocks: a hand that never ends."""

    def choose(self, view: ginrummy.PlayerView) -> str:
        legal = view.legal_actions
        for action in ("take", "pile"):
            if action in legal:
                return action
        return min(a for a in legal if a.startswith("discard "))


def test_players_cycling_through_the_pile_stop_with_an_error() -> None:
    from ginrummy.arena import MAX_HAND_ACTIONS, _play_hand

    state = ginrummy.deal(ginrummy.Rules.preset("classic"), 0, ginrummy.shuffled_deck("cycle"))
    with pytest.raises(RuntimeError, match=f"deal 7: over {MAX_HAND_ACTIONS} actions"):
        _play_hand(state, {0: _PileLover(), 1: _PileLover()}, "deal 7")


def test_wilson_interval_stays_inside_zero_and_one() -> None:
    three_of_four = Interval.wilson(3, 4)
    assert three_of_four.mean == 0.75
    assert round(three_of_four.low, 3) == 0.301 and round(three_of_four.high, 3) == 0.954
    for wins, n in [(0, 1), (1, 1), (4, 4), (0, 4), (2.5, 5), (99, 100)]:
        i = Interval.wilson(wins, n)
        assert 0.0 <= i.low <= i.mean <= i.high <= 1.0, (wins, n, i)
    assert Interval.wilson(0, 0).n == 0


def test_a_mean_of_few_values_uses_students_t() -> None:
    """Up to 30 values the interval is Student's t standard errors either side (12.706 for
    df 1, 2.262 for df 9, 2.045 for df 29); from 31 on, 1.96 as it always was."""
    from ginrummy.arena import t975

    assert [t975(df) for df in (1, 2, 4, 9, 19, 29)] == [12.706, 4.303, 2.776, 2.262, 2.093, 2.045]
    assert t975(30) == t975(31) == t975(1999) == 1.96
    with pytest.raises(ValueError):
        t975(0)
    ten = [float(v) for v in range(10)]  # mean 4.5, standard error sqrt(55 / 6 / 10)
    i = Interval.of(ten)
    assert (i.low, i.high) == (4.5 - 2.262 * (55 / 60) ** 0.5, 4.5 + 2.262 * (55 / 60) ** 0.5)
    assert str(i) == "+4.50 [+2.33, +6.67]"
    assert str(Interval.of([-8.0, 8.0, -24.0])) == "-8.00 [-47.75, +31.75]"  # 4.303 × 16 / √3
    # 31 values and more: as before, 1.96 standard errors
    for n in (31, 32, 200):
        values = [float(v * v % 7) for v in range(n)]
        mean = sum(values) / n
        se = (sum((v - mean) ** 2 for v in values) / (n - 1) / n) ** 0.5
        got = Interval.of(values)
        assert (got.low, got.high) == (mean - 1.96 * se, mean + 1.96 * se)


def test_one_value_has_no_interval() -> None:
    one = Interval.of([3.0])
    assert one.mean == 3.0 and "no interval" in str(one)


def test_same_level_rows_are_told_apart_and_headings_are_words() -> None:
    small = dataclasses.replace(CLASSIC, target=30)
    result = run_arena("easy", "easy", small, games=2, seed="same")
    lines = result.lines()
    text = "\n".join(lines)
    assert lines[0].startswith("easy (A) vs easy (B):")
    assert any(line.startswith("  easy (A) ") for line in lines)
    assert any(line.startswith("  easy (B) ") for line in lines)
    assert "undercut'd" not in text and "dw@knock" not in text
    assert "got undercut" in text and "deadwood at knock" in text
    assert "of 4 games" in text and "Wilson" in text
    g = result.game_win_rate
    assert g is not None and g.n == 4 and 0 <= g.low <= g.high <= 1


def test_json_safe_turns_nan_into_null() -> None:
    from ginrummy.arena import json_safe

    assert json_safe({"a": [float("nan"), 1.0], "b": (2, float("nan"))}) == {
        "a": [None, 1.0],
        "b": [2, None],
    }


def test_arena_command_zero_and_both_are_refused() -> None:
    for args in (["--deals", "0"], ["--games", "0"], ["--deals", "1", "--games", "1"]):
        bad = CliRunner().invoke(main, ["arena", "easy", "easy", *args])
        assert bad.exit_code == 2, bad.output
    ok = CliRunner().invoke(
        main, ["arena", "random", "random", "--games", "1", "--preset", "classic", "--no-progress"]
    )
    assert ok.exit_code == 0 and "1 duplicate game pair, seed 1" in ok.stdout


def test_a_ctrl_c_while_the_workers_start_still_stops_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C is held back while the worker processes are forked (so that none is without
    its setting), and one pressed then stops the run once they are up, rather than being
    lost (CI once saw a match run on after a Ctrl-C that came just then)."""
    import multiprocessing
    import os
    import signal

    from ginrummy import arena

    real = multiprocessing.get_context("fork")

    class Context:
        def Pool(self, *args: Any, **kwargs: Any) -> Any:  # the name multiprocessing uses
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the workers are forked
            return real.Pool(*args, **kwargs)

    monkeypatch.setattr(arena.multiprocessing, "get_context", lambda _kind: Context())
    job = arena.Job("easy", "easy", ginrummy.Rules.preset("classic"), "held")
    with pytest.raises(KeyboardInterrupt):
        arena.deal_pairs_of(job, 50, workers=2)
    before = signal.getsignal(signal.SIGINT)
    with arena._sigint_held() as pending:
        os.kill(os.getpid(), signal.SIGINT)
    assert pending == [signal.SIGINT]
    assert signal.getsignal(signal.SIGINT) is before  # put back as it was


def test_the_style_table_lines_up_and_says_what_the_rules_play() -> None:
    """Each column is right-aligned to the wider of its heading and its cells (16.7% is wider
    than gin); no Big Gin column under rules without Big Gin; no negative zero; one pair is
    a pair."""
    nan = float("nan")
    result = ArenaResult(
        "master",
        "hard",
        "classic",
        "7",
        "deals",
        1,
        Interval(0.0, nan, nan, 1),
        None,
        Style(2, 0.0, 0.0, 1 / 6, 1 / 6, 0.0, 0.0, 8.0, 12.0),
        Style(2, 1 / 6, 0.0, 0.0, 2 / 3, 1 / 6, 0.0, 10.25, 112.5),
    )
    assert result.lines(big_gin=False) == [
        "master vs hard: classic, 1 duplicate deal pair, seed 7",
        "  points per hand  master: +0.00 [no interval from 1 value(s)]   hard: +0.00 [no "
        "interval from 1 value(s)]   (95 % CI)",
        "  style              gin  undercuts  knocks  got undercut  void  deadwood at knock  draws",
        "  master            0.0%      16.7%   16.7%          0.0%  0.0%               8.00   12.0",
        "  hard             16.7%       0.0%   66.7%         16.7%  0.0%              10.25  112.5",
        "  (gin to void: shares of the side's hands; deadwood at knock: its mean; draws: a hand, "
        "both players)",
    ]
    assert result.lines()[2:4] == [
        "  style              gin  Big Gin  undercuts  knocks  got undercut  void  "
        "deadwood at knock  draws",
        "  master            0.0%     0.0%      16.7%   16.7%          0.0%  0.0%  "
        "             8.00   12.0",
    ]
    assert str(Interval(-0.0, -0.004, 0.001, 2)) == "+0.00 [+0.00, +0.00]"
    assert str(Interval(-0.006, -0.01, 0.0, 2)) == "-0.01 [-0.01, +0.00]"


def test_the_arena_command_shows_big_gin_only_where_the_rules_play_it() -> None:
    for preset, shown in [("classic", False), ("parlor", False), ("tournament", True)]:
        result = CliRunner().invoke(
            main, ["arena", "random", "random", "--deals", "1", "--preset", preset]
        )
        assert result.exit_code == 0, result.output
        assert ("Big Gin" in result.stdout) is shown, preset
        assert f": {preset}, 1 duplicate deal pair, seed 1\n" in result.stdout
        assert "-0.00" not in result.stdout and "random (B): +0.00 [" in result.stdout
