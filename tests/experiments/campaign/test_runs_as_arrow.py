"""A store's runs where analysts want them: ``table DB --format parquet --output FILE``
writes every run of the grid as a typed Parquet row, read back by pandas and polars with
the same figures as the stored records; ``runs_frame`` gives them as a DataFrame."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.api import read_runs, runs_frame
from experiments.campaign.store import ResultsStore
from experiments.campaign.store.arrow import run_batches
from tests.experiments.cli.commands import run_cli
from tests.experiments.records import small_store

TIMES = {"lambda": 0.004, "hard17": 0.010, "coloin": None, "easy": 0.001}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """Four runs of one campaign, one of them a timeout (no backtracks counted past it)."""
    return small_store(tmp_path / "grid" / "runs.sqlite", "grid", TIMES,
                       timed_out_backtracks=None)


def test_every_run_becomes_a_typed_parquet_row(monkeypatch, capsys, store: Path,
                                               tmp_path: Path) -> None:
    output = tmp_path / "runs.parquet"
    code, out, err = run_cli(monkeypatch, capsys, "table", str(store), "--format", "parquet",
                             "--output", str(output))
    assert code == 0, err
    assert "4 runs" in out + err
    records = read_runs(store)
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_parquet(output)
    assert list(frame["instance"]) == [run.identity.instance for run in records]
    assert list(frame["status"]) == [run.status.value for run in records]
    assert list(frame["solve_s"]) == [run.statistics.solve_s for run in records]
    polars = pytest.importorskip("polars")
    read = polars.read_parquet(output)
    assert read.schema["backtracks"] == polars.Int64  # a count, with a null for the timeout
    assert read.schema["solve_s"] == polars.Float64
    assert read["backtracks"].to_list() == [run.statistics.backtracks for run in records]
    assert read["backtracks"].null_count() == 1


def test_the_frame_keeps_counts_whole_beside_missing_ones(store: Path) -> None:
    pytest.importorskip("pandas")
    frame = runs_frame(store)
    assert len(frame) == len(TIMES)
    assert str(frame["backtracks"].dtype) == "Int64"
    assert frame["backtracks"].isna().sum() == 1
    assert frame.loc[frame["instance"] == "hard17", "backtracks"].item() == 10


def test_runs_are_read_a_batch_at_a_time(store: Path) -> None:
    with ResultsStore.open_existing(store) as opened:
        batches = list(run_batches(opened, rows=3))
    assert [batch.num_rows for batch in batches] == [3, 1]


def test_a_parquet_export_without_a_file_is_refused(monkeypatch, capsys, store: Path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "table", str(store), "--format", "parquet")
    assert code == 2 and "--output" in err and "Traceback" not in err


def test_a_parquet_export_takes_one_campaign(monkeypatch, capsys, store: Path,
                                             tmp_path: Path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "table", str(store), str(store), "--format",
                           "parquet", "--output", str(tmp_path / "x.parquet"))
    assert code == 2 and "one database" in err and not (tmp_path / "x.parquet").exists()
