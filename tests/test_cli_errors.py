"""Every command of the command line, given bad input: a message on stderr, a non-zero exit
status (1 for bad input, 2 for a malformed command line, 130 for Ctrl-C), never a traceback.

Most cases run in-process through click's CliRunner (fast); a few run the real program in a
subprocess: standard input, Ctrl-C, the progress bar and a port in use.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ginrummy import record as rec
from ginrummy.cli import main

COMMANDS = ("analyze", "arena", "play", "replay", "rules", "selfplay", "serve", "verify")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Good and bad records and other files, made once."""
    d = tmp_path_factory.mktemp("cli-errors")
    good = d / "good.json"
    assert CliRunner().invoke(main, ["selfplay", "--seed", "e1", "--out", str(good)]).exit_code == 0
    data = json.loads(good.read_text())

    def variant(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        bad = copy.deepcopy(data)
        change(bad)
        (d / name).write_text(json.dumps(bad))

    variant("version-true.json", lambda x: x.update(version=True))
    variant("version-float.json", lambda x: x.update(version=1.0))
    variant("dealer-true.json", lambda x: x["hands"][0].update(dealer=True))
    variant("points-true.json", lambda x: x["hands"][0]["result"].update(points=True))
    variant("points-changed.json", lambda x: x["hands"][0]["result"].update(points=999))
    variant("no-result.json", lambda x: x["hands"][0].update(result=None))
    variant("no-outcome.json", lambda x: x.update(outcome=None))
    variant("outcome-draw.json", lambda x: x["outcome"].update(winner=None))
    variant("shutout-int.json", lambda x: x["outcome"].update(shutout=0))
    variant("commitment-bad.json", lambda x: x["hands"][0].update(commitment="\ud800"))
    variant("seed-surrogate.json", lambda x: x["hands"][0].update(seed="\ud800"))
    variant("name-surrogate.json", lambda x: x["rules"].update(name="\ud800"))
    variant("long-action.json", lambda x: x["hands"][0]["actions"].__setitem__(0, "x" * 100_000))
    text = good.read_text()
    first_seed = data["hands"][0]["seed"]
    (d / "seed-twice.json").write_text(
        text.replace(f'"seed": "{first_seed}"', f'"seed": "forged", "seed": "{first_seed}"', 1)
    )
    (d / "nested.json").write_text("[" * 100_000 + "]" * 100_000)
    (d / "nested-inside.json").write_text(
        text.replace(
            '"first_dealer": ', '"first_dealer": ' + "[" * 5000 + "]" * 5000 + ', "x": ', 1
        )
    )
    (d / "huge-number.json").write_text('{"format": ' + "7" * 10_000 + "}")
    (d / "huge-number-inside.json").write_text(
        text.replace('"first_dealer": ', '"first_dealer": ' + "1" * 10_000 + ', "x": ', 1)
    )
    (d / "nan.json").write_text(text.replace('"version": 1', '"version": NaN', 1))
    (d / "garbage.json").write_bytes(b"\x00\xff\xfe garbage \x80")
    (d / "truncated.json").write_text(text[: len(text) // 2])
    (d / "empty.json").write_text("")
    (d / "list.json").write_text("[1, 2, 3]")
    with open(d / "oversize.json", "wb") as f:  # sparse: 315 MB on paper, nothing on disk
        f.truncate(315_000_000)
    (d / "folder").mkdir()
    (d / "not-a-db.db").write_text("hello, I am not SQLite")
    (d / "a-file").write_text("")
    return {p.name: p for p in d.iterdir()} | {"dir": d}


def check_error(result: Any, code: int | tuple[int, ...] = (1, 2)) -> str:
    """The exit status is ``code``, stderr says something, no traceback anywhere."""
    codes = (code,) if isinstance(code, int) else code
    everything = result.stdout + result.stderr
    assert result.exit_code in codes, (result.exit_code, everything[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.stderr.strip(), "no message on stderr"
    assert "Traceback" not in everything
    assert "internal error" not in everything, everything[-2000:]
    stderr: str = result.stderr
    return stderr


def invoke(*args: str, stdin: bytes | str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=stdin)


# --- the group ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [[], ["nosuch"], ["--bogus"], ["analyze", "--bogus", "As"]])
def test_the_group_refuses_unknown_commands_and_options(args: list[str]) -> None:
    check_error(invoke(*args), 2)


def test_help_lists_every_command_and_the_exit_statuses() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in COMMANDS:
        assert f"  {command} " in result.stdout
    for status in ("0 ", "1 ", "2 ", "130 "):
        assert f"\n    {status}" in result.stdout
    for command in COMMANDS:
        assert invoke(command, "--help").exit_code == 0
    assert "docs/rules.md" in invoke("rules", "--help").stdout


def test_the_help_says_which_bad_level_is_which_status() -> None:
    """A level not among play --level's choices is a usage error (2, click's three lines);
    an unknown level named as an argument of arena is an error (1, one line): as the help's
    table of exit statuses says."""
    epilog = invoke("--help").stdout.split("Exit status:")[1]
    one, two = epilog.split("\n    1 ")[1].split("\n    2 ")
    assert "AI level given as an argument (arena A B)" in " ".join(one.split())
    assert "not among an option's choices (play --level)" in " ".join(two.split())
    assert "(--workers 0, --cluster local:0)" in " ".join(two.split())
    play = invoke("play", "--level", "genius", stdin="")
    assert check_error(play, 2).splitlines()[3].startswith("Error: Invalid value for '--level'")
    arena = invoke("arena", "easy", "genius")
    assert check_error(arena, 1).startswith("error: unknown AI level 'genius'; levels are ")
    assert len(arena.stderr.splitlines()) == 1


# --- analyze --------------------------------------------------------------------------------

ANALYZE = [
    ([], 2, "Missing argument"),
    ([""], 1, "no cards"),
    (["   "], 1, "no cards"),
    (["foo"], 1, "'foo'"),
    (["Zz"], 1, "'Zz'"),
    (["As As"], 1, "given twice"),
    (["As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"], 1, "at most 11"),
    (["As", "--preset", "nope"], 1, "unknown preset 'nope'"),
    (["As", "--preset", ""], 1, "no preset named"),
    (["As", "--preset"], 2, "requires an argument"),
    (["\udcff\udcfe"], 1, "bad card"),
]


@pytest.mark.parametrize(("args", "code", "needle"), ANALYZE)
def test_analyze_errors(args: list[str], code: int, needle: str) -> None:
    assert needle in check_error(invoke("analyze", *args), code)


def test_analyze_reports_the_card_as_typed() -> None:
    err = check_error(invoke("analyze", "As foo"), 1)
    assert "'foo'" in err and "FO" not in err


# --- rules ----------------------------------------------------------------------------------

RULES = [
    (["nope"], 1, "unknown preset 'nope'"),
    ([""], 1, "no preset named"),
    (["--json", "hollywood"], 1, "unknown preset 'hollywood'"),
    (["--all", "classic"], 2, "not both"),
    (["classic", "parlor"], 2, "unexpected extra argument"),
    (["--bogus"], 2, "No such option"),
]


@pytest.mark.parametrize(("args", "code", "needle"), RULES)
def test_rules_errors(args: list[str], code: int, needle: str) -> None:
    assert needle in check_error(invoke("rules", *args), code)


# --- replay and verify ----------------------------------------------------------------------

RECORDS = [
    ("missing.json", "cannot read"),
    ("folder", "cannot read"),
    ("empty.json", "empty"),
    ("garbage.json", "not valid JSON"),
    ("truncated.json", "not valid JSON"),
    ("list.json", "JSON object"),
    ("nested.json", "nested too deeply"),
    ("nested-inside.json", "nested too deeply"),
    ("huge-number.json", "10,000 digits"),
    ("huge-number-inside.json", "10,000 digits"),
    ("nan.json", "NaN"),
    ("oversize.json", "315,000,000 bytes"),
    ("version-true.json", "version"),
    ("version-float.json", "version"),
    ("dealer-true.json", "dealer must be 0 or 1"),
    ("points-true.json", "points must be a whole number"),
    ("shutout-int.json", "shutout must be true or false"),
    ("commitment-bad.json", "commitment"),
    ("seed-surrogate.json", "seed must be a string"),
    ("name-surrogate.json", "name"),
    ("long-action.json", "illegal"),
    ("points-changed.json", "points: 999 in the record"),
    ("no-result.json", "no result is stored"),
    ("no-outcome.json", "none is stored"),
    ("outcome-draw.json", "winner: no one (a drawn game) in the record, seat"),
    ("seed-twice.json", "error: not a valid record: the key 'seed' appears twice in one object\n"),
]


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize(("name", "needle"), RECORDS, ids=[r[0] for r in RECORDS])
def test_bad_records(files: dict[str, Path], command: str, name: str, needle: str) -> None:
    path = files.get(name, files["dir"] / name)
    err = check_error(invoke(command, str(path)), 1)
    assert needle in err, err
    # in words: no Python dicts, no None, no enormous echo of the input
    assert "{" not in err and "None" not in err and len(err) < 1200, err


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize(
    ("args", "code"),
    [([], 2), ([""], 1), (["/no/such/folder/x.json"], 1), (["a.json", "b.json"], 2)],
)
def test_record_arguments(command: str, args: list[str], code: int) -> None:
    check_error(invoke(command, *args), code)


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        (b"", "empty"),
        (b"garbage", "not valid JSON"),
        (b"[" * 50_000, "nested too deeply"),
        (b"\xff\xfe\xfd", "not valid JSON"),
        (b"x" * (rec.MAX_RECORD_BYTES + 10), "more than 20,000,000 bytes"),
    ],
    ids=["empty", "garbage", "nested", "not-utf8", "too-large"],
)
def test_bad_standard_input(command: str, stdin: bytes, needle: str) -> None:
    assert needle in check_error(invoke(command, "-", stdin=stdin), 1)


def test_dash_reads_standard_input(files: dict[str, Path]) -> None:
    text = files["good.json"].read_bytes()
    result = invoke("replay", "-", stdin=text)
    assert result.exit_code == 0 and "game over:" in result.stdout
    result = invoke("verify", "-", stdin=text)
    assert result.exit_code == 0 and "every score matches" in result.stdout


def test_one_size_limit_one_message(files: dict[str, Path]) -> None:
    """replay and verify say the same, with the file's true size (from stat)."""
    path = str(files["oversize.json"])
    assert check_error(invoke("replay", path), 1) == check_error(invoke("verify", path), 1)
    assert "315,000,000 bytes (the limit is 20,000,000)" in check_error(invoke("verify", path), 1)


# --- selfplay -------------------------------------------------------------------------------


def test_selfplay_errors(files: dict[str, Path]) -> None:
    d = files["dir"]
    cases: list[tuple[list[str], int, str]] = [
        (["--out", str(d / "no" / "such" / "x.json")], 1, "does not exist"),
        (["--out", ""], 1, "no file name"),
        (["--out", str(d / "folder")], 1, "is a folder"),
        (["--out", str(d / "a-file" / "x.json")], 1, "not a folder"),
        (["--preset", "nope"], 1, "unknown preset"),
        (["--seed", "\udcff"], 2, "not UTF-8"),
        (["--out"], 2, "requires an argument"),
        (["extra"], 2, "unexpected extra argument"),
    ]
    for args, code, needle in cases:
        assert needle in check_error(invoke("selfplay", *args), code), args
    assert not (d / "no").exists()


# --- arena ----------------------------------------------------------------------------------

ARENA = [
    (["easy", "genius"], 1, "unknown AI level 'genius'"),
    (["", "easy"], 1, "unknown AI level"),
    (["easy"], 2, "Missing argument"),
    (["easy", "easy", "--deals", "0"], 2, "--deals"),
    (["easy", "easy", "--games", "0"], 2, "--games"),
    (["easy", "easy", "--deals", "-3"], 2, "--deals"),
    (["easy", "easy", "--deals", "many"], 2, "--deals"),
    (["easy", "easy", "--deals", "1e400"], 2, "--deals"),
    (["easy", "easy", "--deals", "9" * 5000], 2, "--deals"),
    (["easy", "easy", "--deals", "2", "--games", "2"], 2, "not both"),
    (["easy", "easy", "--workers", "0"], 2, "--workers"),
    (["easy", "easy", "--workers", "100000"], 2, "--workers"),
    (["easy", "easy", "--preset", "nope"], 1, "unknown preset"),
    (["easy", "easy", "--seed", "\udcff"], 2, "not UTF-8"),
    (["easy", "easy", "--json", ""], 1, "no file name"),
    (["easy", "easy", "--cluster", "local:0"], 2, "Invalid value for '--cluster'"),
    (["easy", "easy", "--cluster", "local:100"], 2, "Invalid value for '--cluster'"),
    (["easy", "easy", "--cluster", "http://x:1"], 2, "Invalid value for '--cluster'"),
    (["easy", "easy", "--cluster", ""], 2, "Invalid value for '--cluster'"),
    (["easy", "easy", "--cluster", "local:2", "--workers", "2"], 2, "not both"),
]


@pytest.mark.parametrize(("args", "code", "needle"), ARENA)
def test_arena_errors(args: list[str], code: int, needle: str) -> None:
    assert needle in check_error(invoke("arena", *args), code)


def test_a_bad_cluster_is_a_usage_error_a_missing_engine_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A --cluster value out of range or of the wrong shape is refused like --workers 0
    (status 2, click's usage message); a well-formed one without Dask installed is an
    error of the run (status 1, one line saying how to install it)."""
    result = invoke("arena", "easy", "easy", "--cluster", "local:0")
    assert check_error(result, 2) == (
        "Usage: main arena [OPTIONS] A B\n"
        "Try 'main arena --help' for help.\n\n"
        "Error: Invalid value for '--cluster': 'local:0' is not a cluster; give local:N (N "
        "workers on this machine, 1 to 99) or a scheduler's address such as "
        "tcp://10.0.0.5:8786\n"
    )
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    result = invoke("arena", "easy", "easy", "--cluster", "local:2")
    assert check_error(result, 1) == (
        "error: --cluster needs Dask's distributed, which is not installed: "
        "pip install 'ginrummy[cluster]'\n"
    )


def test_arena_checks_its_output_file_before_playing(files: dict[str, Path]) -> None:
    d = files["dir"]
    for target, needle in [
        (d / "nope" / "r.json", "does not exist"),
        (d / "folder", "is a folder"),
        (d / "a-file" / "r.json", "not a folder"),
    ]:
        start = time.monotonic()
        # 100,000 game pairs would take hours: the refusal must come first
        result = invoke("arena", "master", "master", "--games", "100000", "--json", str(target))
        assert needle in check_error(result, 1)
        assert time.monotonic() - start < 5


def test_arena_writes_valid_json_for_rates_of_nothing(tmp_path: Path) -> None:
    """A side that never knocks has no mean deadwood at knock: null, not NaN."""
    out = tmp_path / "r.json"
    result = invoke("arena", "random", "random", "--deals", "1", "--json", str(out))
    assert result.exit_code == 0, result.output
    json.loads(out.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))


# --- play (the terminal game) ---------------------------------------------------------------

PLAY = [
    (["--level", "genius"], 2, "--level"),
    (["--preset", "nope"], 1, "unknown preset"),
    (["--seat", "2"], 2, "--seat"),
    (["--seat", "x"], 2, "--seat"),
    (["extra"], 2, "unexpected extra argument"),
    (["--seed", "\udcff"], 2, "--seed"),
]


@pytest.mark.parametrize(("args", "code", "needle"), PLAY)
def test_play_errors(args: list[str], code: int, needle: str) -> None:
    assert needle in check_error(invoke("play", *args, stdin=""), code)


# --- serve ----------------------------------------------------------------------------------


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A case that wrongly gets as far as starting the server fails instead of serving (and
    the user's own data folder is never touched)."""
    import uvicorn

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))

    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("the server was started")

    monkeypatch.setattr(uvicorn, "run", refuse)


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_serve_errors(files: dict[str, Path], no_server: None, busy_port: int) -> None:
    d = files["dir"]
    db = str(d / "games.db")
    # the cases that must get past the port check use a port that is free now, not the
    # default 8000, which a server of the user's own may hold while the tests run
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free = ["--port", str(sock.getsockname()[1])]
    cases: list[tuple[list[str], int, str]] = [
        (["--port", "0"], 2, "--port"),
        (["--port", "70000"], 2, "--port"),
        (["--port", "http"], 2, "--port"),
        (["--max-rate", "0"], 2, "--max-rate"),
        (["--max-rate", "nan"], 2, "--max-rate"),
        (["--http-rate", "inf"], 2, "--http-rate"),
        (["--connections-per-client", "0"], 2, "--connections-per-client"),
        (["--db", ""], 1, "--db is empty"),
        (["--db", str(d / "no" / "such" / "games.db")], 1, "does not exist"),
        (["--db", str(d / "a-file" / "games.db")], 1, "not a folder"),
        (["--db", str(d / "folder")], 1, "is a folder"),
        (["--db", "mysql://user:secret@localhost/games"], 1, "SQLite and PostgreSQL"),
        (["--db", "sqlite:///games.db"], 1, "file path itself"),
        (["--db", "postgres://user@localhost/games"], 1, "postgresql://"),
        (["--db", "postgresql://user:secret@127.0.0.1:1/games", *free], 1, "cannot connect"),
        (["--db", str(files["not-a-db.db"]), "--port", "0"], 2, "--port"),
        (["--db", db, "--port", str(busy_port)], 1, "already in use"),
        (["--db", db, "--host", "no-such-host.invalid", *free], 1, "no such host"),
    ]
    for args, code, needle in cases:
        result = invoke("serve", *args)
        err = check_error(result, code)
        assert needle in err, (args, err)
        assert "secret" not in result.output, args
        assert "ginrummy server on" not in result.output, args
    assert not (d / "no").exists()


def test_serve_refuses_a_file_that_is_not_a_database(
    files: dict[str, Path], no_server: None
) -> None:
    err = check_error(invoke("serve", "--db", str(files["not-a-db.db"]), "--port", "1"), 1)
    assert "not-a-db.db" in err and "cannot open the database" in err


def test_serve_creates_the_default_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_server: None, busy_port: int
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    err = check_error(invoke("serve", "--port", str(busy_port)), 1)
    assert "already in use" in err
    assert (tmp_path / "data" / "ginrummy").is_dir()


# --- the real program -----------------------------------------------------------------------


def run(*args: str, stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", *args],
        input=stdin.decode("latin-1"),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_program_with_bad_standard_input() -> None:
    for command in ("replay", "verify"):
        proc = run(command, "-", stdin=b'{"a": ' * 20_000)
        assert proc.returncode == 1 and "nested too deeply" in proc.stderr
        assert "Traceback" not in proc.stderr + proc.stdout


def test_program_port_in_use_says_so_before_anything_else(busy_port: int, tmp_path: Path) -> None:
    proc = run("serve", "--port", str(busy_port), "--db", str(tmp_path / "g.db"))
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == "" and "already in use" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_program_progress_bar_only_on_a_terminal() -> None:
    proc = run("arena", "random", "random", "--deals", "3", "--progress")
    assert proc.returncode == 0 and proc.stderr == ""


def test_ctrl_c_during_a_match_with_workers() -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ginrummy.cli",
            "arena",
            "easy",
            "normal",
            "--deals",
            "100000",
            "--workers",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        # as a terminal starts it: Ctrl-C not ignored (a test run started in the background,
        # with nohup or `&`, passes SIGINT ignored to its children, and Python keeps that)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        # wait for the two workers (then a moment: hands being played)
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        deadline = time.monotonic() + 30
        if children.exists():
            while time.monotonic() < deadline and len(children.read_text().split()) < 2:
                time.sleep(0.05)
            time.sleep(0.5)
        else:  # a kernel without the children list
            time.sleep(3)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip() == "interrupted", err
    assert "Traceback" not in out + err


def test_a_file_name_with_a_nul_character_is_a_clear_error() -> None:
    """Found by the command-line fuzzing (``verify '\\x00'`` was an internal error)."""
    from click.testing import CliRunner

    from ginrummy.cli import main

    for args, said in (
        (["verify", "\x00"], "cannot read '\\x00': a file name cannot hold a NUL character"),
        (["replay", "a\x00b"], "cannot read 'a\\x00b': a file name cannot hold a NUL character"),
        (
            ["selfplay", "--out", "a\x00b"],
            "cannot write 'a\\x00b': a file name cannot hold a NUL character",
        ),
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert result.output.strip() == f"error: {said}", (args, result.output)
