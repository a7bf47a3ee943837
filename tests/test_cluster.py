"""The arena on a Dask cluster: a local cluster of two workers gives exactly the serial
result; a bad address or a missing engine is a clear error."""

from __future__ import annotations

import subprocess
import sys

import pytest

import ginrummy
from ginrummy.arena import run_arena
from ginrummy.cluster import check_cluster
from ginrummy.errors import GinRummyError

pytest.importorskip("distributed", reason="the cluster extra is not installed")

RULES = ginrummy.Rules.preset("classic")


def test_deal_pairs_on_a_local_cluster_equal_the_serial_run() -> None:
    serial = run_arena("easy", "normal", RULES, deals=24, seed="cluster")
    clustered = run_arena("easy", "normal", RULES, deals=24, seed="cluster", cluster="local:2")
    assert clustered.to_dict() == serial.to_dict()
    assert serial.points_per_hand.n == 24


def test_game_pairs_on_a_local_cluster_equal_the_serial_run() -> None:
    import dataclasses

    rules = dataclasses.replace(RULES, target=30)
    serial = run_arena("baseline", "easy", rules, games=3, seed="g")
    clustered = run_arena("baseline", "easy", rules, games=3, seed="g", cluster="local:2")
    assert clustered.to_dict() == serial.to_dict()
    assert serial.game_win_rate is not None and serial.game_win_rate.n == 6


def test_knocker_data_on_a_local_cluster_equal_the_serial_run() -> None:
    """The hedge's training data (``python -m ginrummy.learn knocker --cluster``) come out the
    same on a cluster."""
    from ginrummy.learn.knocker import KnockerRun, collect

    run = KnockerRun("cluster", 2)
    serial = collect(run)
    assert collect(run, cluster="local:2") == serial
    assert sum(len(hand) for hands in serial.values() for hand in hands) > 0


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    """``ginrummy arena easy baseline ARGS``."""
    return subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "arena", "easy", "baseline", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_command_line_on_a_local_cluster() -> None:
    serial = arena("--deals", "8", "--seed", "cli")
    clustered = arena("--deals", "8", "--seed", "cli", "--cluster", "local:2")
    assert serial.returncode == clustered.returncode == 0, clustered.stderr
    assert clustered.stdout == serial.stdout


@pytest.mark.parametrize("address", ["local:0", "local:", "lokal:2", "http://x:1", "", "tcp://"])
def test_a_bad_cluster_address_is_a_clear_error(address: str) -> None:
    with pytest.raises(GinRummyError) as refused:
        check_cluster(address)
    assert refused.value.code == "cluster/bad-address"
    assert "local:N" in refused.value.message


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    done = arena("--deals", "2", "--cluster", "tcp://127.0.0.1:1")
    assert done.returncode == 1
    assert "cannot reach the cluster's scheduler at tcp://127.0.0.1:1" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_the_cluster_extra_it_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(GinRummyError) as refused:
        check_cluster("local:2")
    assert refused.value.code == "cluster/not-installed"
    assert "pip install 'ginrummy[cluster]'" in refused.value.message
    # the rest of the package does not need it
    assert run_arena("easy", "baseline", RULES, deals=2).points_per_hand.n == 2
