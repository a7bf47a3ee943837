"""The repository stands on its own: its links stay inside it, nothing needs a folder beside it,
``python -m ginrummy`` is the ``ginrummy`` command, and docs/rules.md keeps up with the code."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import sys
import tomllib
from enum import Enum
from pathlib import Path

import pytest

import ginrummy
from ginrummy.cli import main as cli_main
from ginrummy.rules import Rules, Shutout, WinnerRule

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "docs" / "rules.md"
OUTSIDE = "../" + "shared"  # written in two parts so that this file does not contain it
HISTORY_DOCS: frozenset[str] = frozenset()
"""Tracked files allowed to name the old folder beside the repository because they tell the
project's history (none today)."""

_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)=["']([^"']+)["']""", re.I)
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:, ...


def _git_files() -> list[str]:
    """Files git tracks, and new ones it does not ignore (so uncommitted work counts too)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    return sorted({name for name in out.decode().split("\0") if name})


def _ignored(path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    check = subprocess.run(["git", "check-ignore", "-q", rel], cwd=ROOT, check=False)
    return check.returncode == 0


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(md: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", md.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


def _markdown_files() -> list[Path]:
    docs = sorted((ROOT / "docs").glob("*.md"))
    return [ROOT / "README.md", *docs]


def _links(md: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", md.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    return [m.group(1) for m in (*_LINK.finditer(text), *_HTML_LINK.finditer(text))]


def test_markdown_files_are_found() -> None:
    files = _markdown_files()
    assert RULES_MD in files and all(f.is_file() for f in files)


@pytest.mark.parametrize("md", _markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve_inside_the_repository(md: Path) -> None:
    problems = []
    for link in _links(md):
        if _EXTERNAL.match(link):
            continue
        target, _, anchor = link.partition("#")
        path = (md.parent / target).resolve() if target else md
        if not path.is_relative_to(ROOT):
            problems.append(f"{link}: points outside the repository")
        elif not path.exists():
            problems.append(f"{link}: no such file")
        elif (ROOT / ".git").exists() and _ignored(path):
            problems.append(f"{link}: a file git ignores (not in a clone)")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            problems.append(f"{link}: no heading #{anchor} in {path.name}")
    assert not problems, f"{md.name}: " + "; ".join(problems)


def test_links_are_seen() -> None:
    # the link checker must actually find the README's links (a broken pattern finds none)
    links = _links(ROOT / "README.md")
    assert "docs/rules.md" in links and "docs/table.png" in links
    assert "docs/table-phone.png" in links  # an <img src=...>


def test_no_tracked_file_needs_the_folder_beside_the_repository() -> None:
    offenders = []
    for name in _git_files():
        path = ROOT / name
        if name in HISTORY_DOCS or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary
        if OUTSIDE.encode() in data:
            offenders.append(name)
    assert not offenders, f"{OUTSIDE} is named in: {', '.join(offenders)}"


def test_python_dash_m_is_the_console_script() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["ginrummy"] == "ginrummy.cli:main"
    main_py = (ROOT / "src" / "ginrummy" / "__main__.py").read_text()
    assert "from ginrummy.cli import main" in main_py


def test_python_dash_m_ginrummy_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ginrummy", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Usage:" in result.stdout and "Commands:" in result.stdout
    commands = sorted(cli_main.commands)
    assert {"analyze", "play", "rules", "serve"} <= set(commands)
    for command in commands:
        assert re.search(rf"^\s+{re.escape(command)}\b", result.stdout, re.M), command


def test_rules_md_names_every_preset_field_and_choice() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    assert Rules.PRESET_NAMES
    for name in Rules.PRESET_NAMES:
        assert f"`{name}`" in text, f"preset {name} is not in docs/rules.md"
    for field in dataclasses.fields(Rules):
        assert f"`{field.name}`" in text, f"option {field.name} is not in docs/rules.md"
    for choice in (*Shutout, *WinnerRule):
        assert f"`{choice.value}`" in text, f"{choice.value} is not in docs/rules.md"


def _cell_value(cell: str) -> object:
    """A value of the presets table: ``10``, ``off (`None`)``, ``0 (off)``, ```none```, off/on."""
    cell = cell.strip()
    if "`None`" in cell:
        return None
    number = re.match(r"\d+", cell)
    if number:
        return int(number.group())
    code = re.fullmatch(r"`([^`]+)`", cell)
    if code:
        return code.group(1)
    return {"off": False, "on": True}[cell]


def test_rules_md_presets_table_matches_the_code() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    rows = [line.strip().strip("|").split("|") for line in text.splitlines() if "|" in line]
    header = next(r for r in rows if r[0].strip() == "option" and "`tournament`" in r[1])
    presets = [c.strip().strip("`") for c in header[1:]]
    assert presets == list(Rules.PRESET_NAMES)
    table = {r[0].strip().strip("`"): r[1:] for r in rows if len(r) == len(header)}
    for field in dataclasses.fields(Rules):
        if field.name == "name":
            continue
        assert field.name in table, f"{field.name} has no row in the presets table"
        for preset, cell in zip(presets, table[field.name], strict=True):
            value = getattr(Rules.preset(preset), field.name)
            expected = value.value if isinstance(value, Enum) else value
            assert _cell_value(cell) == expected, f"{preset} {field.name}: {cell.strip()}"


def test_the_default_rules_are_the_tournament_preset() -> None:
    assert Rules() == Rules.preset("tournament") == ginrummy.Rules.preset("default")
