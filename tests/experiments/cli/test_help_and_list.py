"""What the command line tells about itself: ``puzzlelab list`` (the registries, each
viewpoint's whole first sentence), ``--help`` for the program and for a command (every
command with its summary, no value placeholder beside a flag) and ``--version``."""

from __future__ import annotations

import inspect
import re

import pytest

import puzzlelab
from experiments import cli
from tests.experiments.cli.commands import run_cli
from viewpoints import get_viewpoint


def test_list_shows_the_registries(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "list")
    assert code == 0
    for word in ("sudoku", "classic", "value-position", "channeled", "boolean", "alldiff",
                 "cp", "cpsat", "python-constraint", "first-fail/min", "dom-deg/max"):
        assert word in out
    assert "``" not in out  # docstring markup is shown as plain text


def test_list_shows_each_viewpoint_s_whole_first_sentence(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "list")
    described = [line for line in out.splitlines() if line.startswith("  viewpoint ")]
    assert code == 0 and described
    assert all(line.endswith(".") for line in described)
    # Hashi's channeled viewpoint: a first sentence over two docstring lines, shown whole
    docstring = inspect.getdoc(get_viewpoint("hashi", "channeled").build_function) or ""
    first_paragraph = docstring.split("\n\n")[0]
    assert first_paragraph.count("\n") == 1 and first_paragraph.endswith(".")
    assert f"  viewpoint channeled: {' '.join(first_paragraph.split())}" in described


@pytest.mark.parametrize("arguments", [[], ["--help"], ["-h"]])
def test_help_lists_every_command_with_its_summary(monkeypatch, capsys,
                                                   arguments: list[str]) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, *arguments)
    assert code == 0
    for name, command in cli.COMMANDS.items():
        assert f"  {name}  " in out or f"  {name} " in out
        assert command.help.split(". ")[0].rstrip(".") in out


def test_help_shows_no_value_placeholder_beside_a_flag(monkeypatch, capsys) -> None:
    """An option that takes no value (``--all``, ``--json``, ``--unique``) is shown alone."""
    for name, command in cli.COMMANDS.items():
        if command.verbatim:
            continue
        parser = command.parser()
        shown = parser.format_help()
        assert "<bool>" not in shown, name
        flags = [flag for action in parser._actions if action.nargs == 0
                 for flag in action.option_strings]
        assert flags, name  # every command has --help at least
        for flag in flags:
            assert not re.search(rf"(?<![\w-]){re.escape(flag)} [A-Z<]", shown), (name, flag)


def test_version(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "--version")
    assert code == 0 and out == f"puzzlelab {puzzlelab.__version__}\n"


def test_version_and_a_command_help(monkeypatch, capsys) -> None:
    import puzzlelab

    code, out, _ = run_cli(monkeypatch, capsys, "--version")
    assert code == 0 and out.strip() == f"puzzlelab {puzzlelab.__version__}"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "--help")
    assert code == 0 and "--max-solutions" in out and "PUZZLE" in out
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "--help")
    assert code == 0 and "--clues" in out  # the generator options, made for --help only
