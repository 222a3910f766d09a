"""The experiment files the README shows how to run load, expand, and have their
complete, up-to-date results committed next to them."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from experiments.campaign.grid import expand
from experiments.campaign.spec import load_spec
from experiments.campaign.store import CSV_LEFT_OUT, run_columns
from tests.paths import ROOT

SPECS = sorted((ROOT / "experiments" / "specs").glob("*.toml"))


def test_the_shipped_experiments_are_found() -> None:
    assert {path.stem for path in SPECS} >= {"sudoku-course", "nonogram-viewpoints",
                                              "nonogram-probing", "nonogram-hard"}


@pytest.mark.parametrize("path", SPECS, ids=lambda path: path.stem)
def test_a_shipped_experiment_has_one_committed_run_per_grid_cell(path: Path) -> None:
    spec = load_spec(path)
    assert spec.name == path.stem
    results = ROOT / "results" / spec.name
    for table in ("runs.csv", "table.md", "table.tex"):
        assert (results / table).is_file(), f"{results / table} is missing: run and commit it"
    with (results / "runs.csv").open(encoding="utf-8", newline="") as stream:
        stored = [row["run_key"] for row in csv.DictReader(stream)]
    planned = {task.identity.key for task in expand(spec).tasks}
    assert len(stored) == len(set(stored)), "a run is stored twice"
    assert set(stored) == planned, "the committed results do not match the spec: re-run it"


RESULTS = sorted(path for path in (ROOT / "results").glob("*/runs.csv")
                 if (ROOT / "experiments" / "specs" / f"{path.parent.name}.toml").is_file())
"""The campaigns' runs.csv (a study's, as the start-up benchmark's, has its own columns)."""


@pytest.mark.parametrize("path", RESULTS, ids=lambda path: path.parent.name)
def test_a_committed_runs_csv_has_the_current_stores_columns(path: Path) -> None:
    """What runs.csv holds is what the store holds (but the solutions): a committed one
    made by an older PuzzleLab is rerun, so its columns read as today's."""
    with path.open(encoding="utf-8", newline="") as stream:
        header = next(csv.reader(stream))
    assert header == ["id", *(c for c in run_columns() if c not in CSV_LEFT_OUT)]
