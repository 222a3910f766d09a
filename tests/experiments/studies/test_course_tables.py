"""The course-tables study: the committed sudoku-eclipse runs reproduce every published
figure, and its comparison is what ``course-tables.md`` holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.studies.course_tables import comparison, published_figures, read_runs
from puzzlelab.errors import PuzzleLabError
from tests.experiments.cli.commands import run_cli
from tests.paths import ROOT

RESULTS = ROOT / "results" / "sudoku-eclipse"


def test_the_published_figures_are_kept_with_their_source() -> None:
    published = published_figures()
    assert set(published) == {"ic", "ic_global"}
    assert all(len(column) == 14 for order in published.values() for column in order.values())
    assert sum(published["ic"]["input"].values()) == 44443  # the report's total


def test_the_committed_runs_reproduce_every_published_cell() -> None:
    runs = read_runs(RESULTS / "runs.csv")
    for propagation, orders in published_figures().items():
        for puzzle, figure in orders["input"].items():
            ours = {solver: count for (label, solver, heuristic, name), count in runs.items()
                    if label == propagation and heuristic == "input/min+dway"
                    and name == puzzle}
            assert ours and set(ours.values()) == {figure}, (propagation, puzzle, ours)


def test_the_committed_comparison_is_the_studys(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    made = "\n".join(comparison(read_runs(RESULTS / "runs.csv"), published_figures()))
    assert (RESULTS / "course-tables.md").read_text(encoding="utf-8") == made
    code, out, _ = run_cli(monkeypatch, capsys, "study", "course-tables",
                           str(RESULTS / "runs.csv"))
    assert code == 0 and out == made
    assert made.count("14/14") == 4  # ic on three solvers, ic_global on one: every cell


def test_runs_without_the_figure_are_refused_saying_why(tmp_path: Path) -> None:
    old = tmp_path / "runs.csv"
    old.write_text("id,viewpoint,solver,heuristic,instance,status\n1,ic,cp,input,x,solved\n",
                   encoding="utf-8")
    with pytest.raises(PuzzleLabError, match="no deep_backtracks column"):
        read_runs(old)
    with pytest.raises(PuzzleLabError, match="cannot read the runs"):
        read_runs(tmp_path / "missing.csv")
