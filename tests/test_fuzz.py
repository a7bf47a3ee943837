"""Fuzzing the command line and the record reader with generated input (hypothesis).

* Every command but ``serve`` (which would start a server) runs in process with arguments
  drawn from its own options and from odd values - text, numbers, cards, paths that exist,
  do not exist or hold garbage, ``-`` with odd standard input. It must end with one of the
  documented exit statuses, and never with a traceback or the catch-all "internal error"
  (a bug caught only by the last line of defence is still a bug).
* A real game record, mutated at random (a value replaced by any JSON value, a key dropped,
  an item added), must either load or be refused with a ``RecordError``.

The server's own inputs are fuzzed in ``test_server_fuzz.py``.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import tempfile
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrummy import Rules, record
from ginrummy.cli import main
from ginrummy.errors import RecordError
from ginrummy.playout import random_game

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")

WORK = Path(tempfile.mkdtemp(prefix="ginrummy-fuzz-"))
"""Files the generated arguments may name (made once for the module)."""
GOOD_RECORD = record.dumps(
    record.record_of(random_game(dataclasses.replace(Rules.preset("classic"), target=30), "fuzz"))
)
(WORK / "good.json").write_text(GOOD_RECORD)
(WORK / "garbage.json").write_bytes(b"\xff\xfe{[[[[nested" * 10)
(WORK / "deep.json").write_text("[" * 5000 + "]" * 5000)
(WORK / "folder").mkdir()

PATHS = st.sampled_from(
    [
        str(WORK / "good.json"),
        str(WORK / "garbage.json"),
        str(WORK / "deep.json"),
        str(WORK / "folder"),
        str(WORK / "missing.json"),
        str(WORK / "no-such-folder" / "out.json"),
        str(WORK / "out.json"),
        "-",
        "",
    ]
)
VALUES = (
    st.text(max_size=20)
    | st.integers(min_value=-(10**25), max_value=10**25).map(str)
    | st.sampled_from(["0", "-1", "nan", "inf", "1e999", "3.5", "As 2s 3s", "Zz", "10h 7♥"])
    | st.sampled_from(["easy", "master", "genius", "classic", "parlor", "x" * 200])
    | PATHS
)
EXIT_STATUSES = {0, 1, 2, 130}
SKIPPED = {"serve"}
"""Commands not fuzzed here: serve would start a server (test_server_hardening and
test_cli_errors give it odd arguments one by one)."""
COMMANDS = sorted(set(main.commands) - SKIPPED)


def options_of(command: click.Command) -> list[str]:
    names: list[str] = []
    for param in command.params:
        if isinstance(param, click.Option):
            names.extend(name for name in param.opts if name != "--workers")
    return names


def arguments(command: str) -> st.SearchStrategy[list[str]]:
    names = options_of(main.commands[command])
    word = st.sampled_from(names) | VALUES if names else VALUES
    return st.lists(word, max_size=6)


@pytest.mark.parametrize("command", COMMANDS)
@given(
    data=st.data(),
    stdin=st.text(max_size=200) | st.just(GOOD_RECORD) | st.just("[" * 3000),
)
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
def test_every_command_ends_in_a_documented_status_never_a_traceback(
    command: str, data: st.DataObject, stdin: str
) -> None:
    args = data.draw(arguments(command))
    if command == "arena":  # bounded: one deal pair, one process (a later option wins)
        args = [*args, "--deals", "1"]
    if command == "play":  # against a quick level
        args = [*args, "--level", "random"]
    # relative paths land in a scratch folder, not in the checkout
    with tempfile.TemporaryDirectory(dir=WORK) as scratch, contextlib.chdir(scratch):
        result = CliRunner().invoke(main, [command, *args], input=stdin)
    output = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code in EXIT_STATUSES, (command, args, result.exit_code, output[-500:])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        command,
        args,
        repr(result.exception),
    )
    assert "Traceback" not in output, (command, args, output[-1500:])
    assert "internal error" not in output, (command, args, output[-500:])


# --- records ---------------------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON value."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):  # the long lists: their first items
            found += places(item, (*path, index))
    return found


BASE = json.loads(GOOD_RECORD)
PLACES = [p for p in places(BASE) if p]


@given(
    where=st.sampled_from(PLACES),
    how=st.sampled_from(["replace", "drop", "add"]),
    value=JSON,
)
@settings(max_examples=300, deadline=None)
def test_a_mutated_record_loads_or_is_refused_with_a_record_error(
    where: tuple[Any, ...], how: str, value: Any
) -> None:
    data = copy.deepcopy(BASE)
    parent = data
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    if how == "replace":
        parent[last] = value
    elif how == "drop":
        del parent[last]
    elif isinstance(parent, list):
        parent.insert(last, value)
    else:
        parent[f"{last}-extra"] = value
    text = json.dumps(data)
    try:
        record.loads(text)
    except RecordError as exc:
        assert exc.message and len(exc.message) < 1000
