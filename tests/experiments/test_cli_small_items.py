"""Smaller command-line items (issue 44, item 6): picking an instance, a file of another
puzzle, printing the solutions ``--all`` counts, whole sentences in ``list``, no value
placeholders beside flags in ``--help``, and a portfolio's build kept out of its search."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from experiments import cli
from puzzles import PUZZLES
from solvers import solve
from solvers.portfolio import Outcome
from solvers.portfolio.backend import PortfolioBackend
from solvers.record import Status
from tests.experiments.test_cli import run_cli
from tests.paths import NONOGRAM_DATA, ROOT, SUDOKU_DATA
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
    # Hashi's channeled viewpoint: a first sentence over three docstring lines
    assert "and the west (north) count at its second island." in out


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


def test_a_portfolio_s_answering_build_is_build_time_not_search_time() -> None:
    """The configuration that answered built the model inside the portfolio's search (in a
    child: the automata engine's first compile there took 4.5 s of a 5.5 s search): that
    build, not the build of a run that did not answer, is what the portfolio says was
    building (the solve loop moves it from solve_s to build_s)."""
    budget = Outcome("cpsat auto+symmetric", "auto+symmetric", "this process", 0.5,
                     "timeout", statistics={"build_s": 0.25, "solve_s": 0.25})
    answer = Outcome("automata auto", "auto", "child process", None, "solved", (1,),
                     statistics={"build_s": 4.5, "solve_s": 0.5})
    run = cast(Any, SimpleNamespace(outcomes=[budget, answer], answer=answer))
    assert PortfolioBackend().building_s(run) == pytest.approx(4.5)
    run.answer = None
    assert PortfolioBackend().building_s(run) == 0.0


def test_building_inside_the_search_moves_to_build_time(monkeypatch) -> None:
    """What a backend says was building (here more than its whole search) leaves solve_s
    for build_s, never more than the search took."""
    from solvers.backends.cp import ClassicCpBackend

    monkeypatch.setattr(ClassicCpBackend, "building_s", lambda self, compiled: 1000.0)
    plus = PUZZLES.get("nonogram").load(NONOGRAM_DATA / "small" / "plus_3x3.non")
    model = get_viewpoint("nonogram", "regular").build(plus).model
    figures = solve(model, "cp", "input/min").statistics
    assert figures.solve_s == 0.0
    assert figures.build_s is not None and 0.0 < figures.build_s < 1000.0


def test_a_real_portfolio_run_counts_its_answer_s_build() -> None:
    plus = PUZZLES.get("nonogram").load(NONOGRAM_DATA / "small" / "plus_3x3.non")
    model = get_viewpoint("nonogram", "regular").build(plus).model
    result = solve(model, "auto", "auto")
    assert result.portfolio is not None and result.status is Status.SOLVED
    answered = [run.statistics for run in result.portfolio.runs
                if run.configuration == result.portfolio.answered_by
                and run.statistics is not None]
    assert answered and result.statistics.build_s >= answered[-1].build_s
