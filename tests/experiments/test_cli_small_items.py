"""Smaller command-line items: picking an instance, a file of another puzzle, printing the
solutions ``--all`` counts, whole sentences in ``list``, no value placeholders beside flags
in ``--help``."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from experiments import cli
from tests.experiments.test_cli import run_cli
from tests.paths import ROOT, SUDOKU_DATA
from viewpoints import get_viewpoint

MULTI_4X4 = str(SUDOKU_DATA / "multi_4x4.txt")  # four instances; the second has 12 solutions
HASHI = ROOT / "puzzles" / "data" / "hashi" / "small" / "several.txt"


@pytest.mark.parametrize("command", ["solve", "draw"])
def test_a_file_of_several_instances_says_how_to_pick_one(monkeypatch, capsys,
                                                          command: str) -> None:
    code, out, err = run_cli(monkeypatch, capsys, command, "sudoku", MULTI_4X4)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "--instance" in err and "4 instances" in err
    assert all(f"multi_4x4#{number}" in err for number in range(1, 5))


def test_a_file_of_another_puzzle_keeps_its_error_and_names_the_puzzle(monkeypatch,
                                                                       capsys) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(HASHI))
    assert code == 2 and "Traceback" not in err
    assert re.search(rf"{re.escape(str(HASHI))}:\d+", err)  # the original file and line
    assert "puzzlelab solve hashi" in err
    code, _, err = run_cli(monkeypatch, capsys, "draw", "shikaku", str(HASHI))
    assert code == 2 and "puzzlelab draw hashi" in err


def test_a_file_no_puzzle_reads_gets_no_hint(monkeypatch, capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1.a.........4...\n")
    code, _, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(bad))
    assert code == 2 and f"{bad}:1:3" in err and "reads as" not in err


def printed_solutions(out: str) -> dict[int, str]:
    """The solutions after the first that ``solve`` prints, by number, as drawn."""
    parts = re.split(r"^solution (\d+) of \d+: correct$", out, flags=re.M)
    return {int(number): grid.split("...")[0].strip()
            for number, grid in zip(parts[1::2], parts[2::2], strict=True)}


@pytest.mark.parametrize(("extra", "printed", "left"), [
    ([], 10, 2),  # the default: 10 printed, then how many more
    (["--print", "3"], 3, 9),
    (["--print", "0"], 12, 0),  # every one
])
def test_solve_all_prints_the_solutions_it_counts(monkeypatch, capsys, extra: list[str],
                                                  printed: int, left: int) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", MULTI_4X4, "--instance",
                           "2", "--solver", "cp", "--all", *extra)
    assert code == 0 and "WRONG" not in out
    shown = printed_solutions(out)
    assert sorted(shown) == list(range(2, printed + 1))
    first = out.split("status:")[0].split("\n", 1)[1].strip()  # the grid under the header
    assert len({first, *shown.values()}) == printed  # all different
    assert (f"{left} more solution" in out) == (left > 0)


def test_one_solution_prints_no_more(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", MULTI_4X4, "--instance", "2")
    assert code == 0 and "solution 2 of" not in out and "more solution" not in out


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
