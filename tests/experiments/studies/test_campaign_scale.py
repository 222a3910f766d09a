"""The scale studies on a small sample: a campaign measured whole (the runner's own peak
memory, the store, table and report), its store's rows copied to a larger one that still
reads as one campaign, and a Dask row that lost or doubled a run named as wrong."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from experiments.studies import campaign_scale, dask_scale


@pytest.mark.slow  # a campaign, table and report as processes, and four engines: 9 s
def test_a_small_campaign_is_measured_and_its_rows_copied(tmp_path: Path) -> None:
    rows = campaign_scale.measure([60], replicate_to=200)
    ran, *engines, copied = rows
    assert ran["made_by"] == "run" and int(ran["runs"]) >= 60
    assert float(ran["runner_peak_mb"]) > 0 and float(ran["table_s"]) > 0
    assert [row["made_by"] for row in engines] == [
        f"engine: {name}" for name in campaign_scale.ENGINES]
    assert copied["made_by"] == "rows copied"
    assert 200 - int(ran["runs"]) < int(copied["runs"]) <= 200
    assert campaign_scale.remade_by(rows) == f"--runs {ran['runs']} --replicated {copied['runs']}"


def test_copied_rows_are_new_repeats_of_the_same_cells(tmp_path: Path) -> None:
    source = tmp_path / "a.sqlite"
    with sqlite3.connect(source) as connection:
        connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, run_key TEXT UNIQUE, "
                           "\"repeat\" INTEGER, position INTEGER)")
        connection.execute("CREATE TABLE grid (run_key TEXT)")
        connection.executemany("INSERT INTO runs (run_key, \"repeat\", position) VALUES "
                               "(?, ?, ?)", [(f'["f", "p", "v", "s", "h", {r}]', r, r)
                                             for r in range(3)])
    held = campaign_scale.replicated(source, tmp_path / "b.sqlite", 10)
    with sqlite3.connect(tmp_path / "b.sqlite") as connection:
        keys = [row[0] for row in connection.execute("SELECT run_key FROM runs")]
    assert held == len(keys) == len(set(keys)) == 9


def test_a_dask_campaign_that_lost_or_doubled_a_run_is_wrong() -> None:
    whole = {"executor": "dask", "workers": "2", "runs": "10", "stored": "10",
             "distinct": "10", "correct": "10"}
    assert dask_scale.lost([whole]) == []
    assert dask_scale.lost([{**whole, "distinct": "9"}])
    assert dask_scale.lost([{**whole, "stored": "9", "distinct": "9", "correct": "9"}])
