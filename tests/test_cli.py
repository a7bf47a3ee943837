"""The command line: output, and errors on stderr with a non-zero status."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from ginrummy.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_analyze_ten_cards() -> None:
    code, out, _ = run("analyze", "As 2s 3s 7h 7d 7c Kd Qd Jd 5c")
    assert code == 0
    assert "meld     As 2s 3s" in out and "meld     7h 7d 7c" in out
    assert "meld     Jd Qd Kd" in out and "deadwood 5c  = 5" in out
    assert "best discard" not in out


def test_analyze_eleven_cards_knock_gin_big_gin() -> None:
    code, out, _ = run("analyze", "As 2s 3s 7h 7d 7c Kd Qd Jd 5c 9h")
    assert code == 0 and "best discard: 9h, leaving 5 deadwood" in out
    assert "can knock: 5 deadwood, limit 10" in out
    _, out, _ = run("analyze", "As", "2s", "3s", "4s", "7h", "7d", "7c", "Kd", "Qd", "Jd", "5c")
    assert "gin: discard 5c" in out
    _, out, _ = run("analyze", "As 2s 3s 4s 7h 7d 7c Kd Qd Jd Td")
    assert "Big Gin" in out
    _, out, _ = run("analyze", "--preset", "classic", "As 2s 3s 4s 7h 7d 7c Kd Qd Jd Td")
    assert "Big Gin" not in out and "gin: discard" in out
    _, out, _ = run("analyze", "As 5s 9s 7h Jd 7c Kd Qh 2d 5c 9h")
    assert "cannot knock" in out


def test_analyze_accepts_other_notations() -> None:
    code, out, _ = run("analyze", "10h Jh Qh 7♠ 7♦ 7♣")
    assert code == 0 and "meld     Th Jh Qh" in out and "deadwood (none)  = 0" in out


def test_bad_card_is_an_error_on_stderr() -> None:
    code, out, err = run("analyze", "As 2s Xz")
    assert code == 1 and out == ""
    assert "bad card 'Xz'" in err and "Traceback" not in err
    code, _, err = run("analyze", "As As")
    assert code == 1 and "given twice" in err
    code, _, err = run("analyze", "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs")
    assert code == 1 and "at most 11" in err


def test_rules_command() -> None:
    code, out, _ = run("rules")
    assert code == 0 and "rules: tournament" in out and "Big Gin bonus    31" in out
    code, out, _ = run("rules", "parlor", "--json")
    assert code == 0 and json.loads(out)["shutout"] == "double-game-bonus"
    code, out, _ = run("rules", "--all")
    assert all(f"rules: {n}" in out for n in ("tournament", "classic", "app", "parlor"))
    code, _, err = run("rules", "hollywood")
    assert code == 1 and "unknown preset 'hollywood'" in err


def test_selfplay_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, _ = run("selfplay", "--seed", "11", "--preset", "classic", "--out", str(path))
    assert code == 0 and "wins" in out
    code, out, _ = run("replay", str(path))
    assert code == 0 and "hand 1: dealer seat" in out and "game over:" in out
    code, out, _ = run("replay", "--actions", str(path))
    assert "seat 0: " in out or "seat 1: " in out


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("selfplay", "--seed", "12", "--out", str(path))
    data = json.loads(path.read_text())
    data["hands"][0]["result"]["points"] += 1
    path.write_text(json.dumps(data))
    code, _, err = run("replay", str(path))
    assert code == 1 and "hand 1" in err and "differs" in err
    code, _, err = run("replay", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read" in err


def test_help_documents_every_command() -> None:
    code, out, _ = run("--help")
    assert code == 0
    for command in ("analyze", "rules", "replay", "selfplay"):
        assert command in out
        sub_code, sub_out, _ = run(command, "--help")
        assert sub_code == 0 and "Usage:" in sub_out


def test_installed_entry_point_prints_no_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "analyze", "Zz"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1 and "bad card 'Zz'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_verify_proves_every_deal_fair(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("selfplay", "--seed", "21", "--preset", "classic", "--out", str(path))
    code, out, err = run("verify", str(path))
    assert code == 0, err
    hands = json.loads(path.read_text())["hands"]
    assert out.count(": fair: seed matches commitment") == len(hands)
    assert "every action legal, every score matches" in out


def test_verify_catches_a_changed_commitment_or_seed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("selfplay", "--seed", "22", "--preset", "classic", "--out", str(path))
    data = json.loads(path.read_text())
    data["hands"][0]["commitment"] = "0" * 64
    path.write_text(json.dumps(data))
    code, out, err = run("verify", str(path))
    assert code == 1 and "hand 1: UNFAIR: the revealed seed does not match the commitment" in out
    assert "does not prove every deal fair" in err or "commitment" in err
    data = json.loads(path.read_text())
    del data["hands"][0]["commitment"]
    del data["hands"][0]["seed"]
    path.write_text(json.dumps(data))
    code, out, _ = run("verify", str(path))
    assert code == 1 and "hand 1: NOT VERIFIABLE: no commitment and no seed recorded\n" in out


def test_verify_names_what_is_missing(tmp_path: Path) -> None:
    """A hand without its seed, or without its commitment, cannot be proven fair: the
    message names what is missing."""
    path = tmp_path / "game.json"
    run("selfplay", "--seed", "23", "--preset", "classic", "--out", str(path))
    good = json.loads(path.read_text())
    for field, other in (("seed", "commitment"), ("commitment", "seed")):
        data = json.loads(json.dumps(good))
        del data["hands"][1][field]
        path.write_text(json.dumps(data))
        code, out, err = run("verify", str(path))
        assert code == 1 and err == "error: the record does not prove every deal fair\n"
        assert f"hand 2: NOT VERIFIABLE: no {field} recorded\n" in out
        assert other not in out.splitlines()[1]
        assert out.splitlines()[0].startswith("hand 1: fair: ")


def test_dash_means_standard_input_and_standard_output(tmp_path: Path) -> None:
    code, text, _ = run("selfplay", "--seed", "31", "--out", "-")
    assert code == 0 and text.startswith("{")
    result = CliRunner().invoke(main, ["verify", "-"], input=text)
    assert result.exit_code == 0, result.stderr
    result = CliRunner().invoke(main, ["replay", "-"], input=text)
    assert result.exit_code == 0 and "game over:" in result.stdout


def test_verify_refuses_a_record_without_hands(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("selfplay", "--seed", "32", "--out", str(path))
    data = json.loads(path.read_text())
    data["hands"], data["outcome"] = [], None
    path.write_text(json.dumps(data))
    code, _, err = run("verify", str(path))
    assert code == 1 and "no hands" in err


def test_analyze_refuses_no_cards_and_rules_refuses_a_preset_with_all() -> None:
    code, _, err = run("analyze", "")
    assert code == 1 and "no cards" in err
    code, _, err = run("rules", "--all", "classic")
    assert code == 2 and "not both" in err


def test_arena_help_names_every_level_it_plays() -> None:
    """The levels in ``arena --help`` come from ginrummy.ai, so they cannot fall behind it:
    every level and every measuring level, each whole on one line (never split at a
    hyphen)."""
    from ginrummy.ai import LEVELS, TEST_LEVELS

    code, out, _ = run("arena", "--help")
    assert code == 0
    paragraph = next(p for p in out.split("\n\n") if "A and B are levels" in p)
    assert " ".join(paragraph.split()) == (
        f"A and B are levels: {', '.join(LEVELS)}; and, for measuring: {', '.join(TEST_LEVELS)}."
    )
    assert "master-knock-kA" in TEST_LEVELS and "master-no-adapt" in TEST_LEVELS
    for level in [*LEVELS, *TEST_LEVELS]:
        assert re.search(rf"(?<![\w-]){re.escape(level)}(?![\w-])", paragraph), level


def test_replay_and_selfplay_show_a_shutout_doubling_as_play_does(tmp_path: Path) -> None:
    """Seat 1 wins no hand of this random game: under tournament rules seat 0's 107 hand
    points are doubled, under app (seat 1 scored nothing) its line and game bonuses; the
    end of the game says so as ``play`` does, with the same table."""
    path = tmp_path / "game.json"
    code, out, _ = run("selfplay", "--seed", "7", "--out", str(path))
    tournament = (
        "game over:\n"
        "                               seat 0          seat 1\n"
        "  Hands won                    3               0\n"
        "  Hand points                  107 × 2 = 214   0\n"
        "  Line bonus (25 a hand won)   3 × 25 = 75     0 × 25 = 0\n"
        "  Game bonus                   100             0\n"
        "  Grand total                  389             0\n"
        "  seat 0 reached the target of 100 first\n"
        "  Shutout: seat 1 won no hand, so seat 0's hand points are doubled.\n"
        "  seat 0 wins\n"
    )
    assert code == 0 and out == f"235 hands, the record written to {path}\n" + tournament
    code, out, _ = run("replay", str(path))
    assert code == 0 and out.endswith("  score: seat 0 107, seat 1 0\n" + tournament)
    code, out, _ = run("selfplay", "--seed", "7", "--preset", "app", "--out", str(path))
    assert code == 0 and out.endswith(
        "  Hand points                  107                0\n"
        "  Line bonus (25 a hand won)   3 × 25 × 2 = 150   0 × 25 = 0\n"
        "  Game bonus                   100 × 2 = 200      0\n"
        "  Grand total                  457                0\n"
        "  seat 0 reached the target of 100 first\n"
        "  Shutout: seat 1 scored no points, so seat 0's line and game bonuses are doubled.\n"
        "  seat 0 wins\n"
    )
    assert run("replay", str(path))[1].endswith(out.split("\n", 1)[1])


def test_wording_one_card_analyze_and_flag_defaults() -> None:
    code, out, _ = run("analyze", "Kd")
    assert code == 0 and out == "hand (1 card): Kd\n  deadwood Kd  = 10\n"
    assert run("analyze", "Kd Qd")[1].startswith("hand (2 cards): Qd Kd\n")
    top = run("--help")[1]
    assert "Gin Rummy: analyze hands, show rules, replay and play games." in top
    assert "analyse" not in top
    replay_help = " ".join(run("replay", "--help")[1].split())
    assert "--actions / --no-actions List every action. [default: no-actions]" in replay_help
    arena_help = " ".join(run("arena", "--help")[1].split())
    assert "stderr is a terminal). [default: progress]" in arena_help
