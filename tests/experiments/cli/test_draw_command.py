"""``puzzlelab draw``: an instance drawn as text or as an SVG picture, with its known
solution when asked and the file gives one, and never solved."""

from __future__ import annotations

from pathlib import Path

import experiments.campaign.solving
from tests.experiments.cli.commands import MULTI_4X4, SMALL_4X4, run_cli, svg_texts
from tests.facts import states
from tests.paths import NONOGRAM_DATA


def test_draw_shows_an_instance_without_solving_it(monkeypatch, capsys, tmp_path: Path) -> None:
    monkeypatch.setattr(experiments.campaign.solving, "solve_model", None)  # drawing must not solve
    code, out, _ = run_cli(monkeypatch, capsys, "draw", "sudoku", SMALL_4X4, "--instance", "1")
    # the grid as drawn is the product: its first rows are compared as they are drawn
    assert code == 0 and out.startswith(" . . | . .\n 1 3 | . .\n-----+-----\n")
    assert out.count("\n") == 5
    puzzle, solution = tmp_path / "puzzle.svg", tmp_path / "solution.svg"
    code, out, _ = run_cli(monkeypatch, capsys, "draw", "sudoku", SMALL_4X4, "--instance", "1",
                           "--svg", str(puzzle))
    assert code == 0 and out == f"wrote {puzzle}\n"
    assert svg_texts(puzzle) == ["1", "3", "2", "4"]  # the givens alone
    code, _, _ = run_cli(monkeypatch, capsys, "draw", "sudoku", SMALL_4X4, "--instance", "1",
                         "--solution", "--svg", str(solution))
    assert code == 0 and len(svg_texts(solution)) == 16
    code, out, _ = run_cli(monkeypatch, capsys, "draw", "nonogram",
                           str(NONOGRAM_DATA / "small" / "plus_3x3.non"))
    assert code == 0 and "?" in out


def test_draw_refuses_a_solution_the_file_does_not_give(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "draw", "sudoku", MULTI_4X4, "--instance",
                             "2", "--solution")
    assert code == 2 and out == "" and err.startswith("error:") and err.count("\n") == 1
    assert states(err, MULTI_4X4, "'multi_4x4#2'", "no known solution")
