"""The README's Python example runs as written, and its examples of errors are what the
command line prints."""

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from ginrummy.cli import main

README = Path(__file__).parent.parent / "README.md"


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "the README has a Python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_errors_are_printed_as_it_says() -> None:
    """The README's example of an error (status 1: one line, ``error: ...``) and of a usage
    error (status 2: click's usage, the help hint, a blank line and ``Error: ...``), run: the
    same standard error, byte for byte, and nothing on standard output."""
    text = README.read_text()
    found = re.search(r"For example \(status 1, then 2\):\n\n```console\n(.*?)```", text, re.S)
    assert found, "the README shows an error and a usage error"
    examples = re.split(r"^\$ ", found.group(1), flags=re.M)[1:]
    statuses = []
    for example in examples:
        command, _, expected = example.partition("\n")
        args = shlex.split(command)
        assert args[0] == "ginrummy"
        result = CliRunner().invoke(main, args[1:], prog_name="ginrummy", input="")
        assert result.stdout == ""
        assert result.stderr == expected, command
        statuses.append(result.exit_code)
        if result.exit_code == 1:
            assert len(expected.splitlines()) == 1 and expected.startswith("error: ")
        else:
            lines = expected.splitlines()
            assert len(lines) == 4 and lines[0].startswith("Usage: ") and lines[2] == ""
            assert lines[1].startswith("Try ") and lines[3].startswith("Error: ")
    assert statuses == [1, 2]
