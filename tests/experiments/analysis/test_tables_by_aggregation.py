"""``puzzlelab table`` aggregates a store's cells in a query engine instead of reading
its runs: the same tables as from the runs read as records, on every committed store
and on a store made to hold every kind of cell (failures and their reasons, a
contradicted claim, a label on two files, a cell still missing repeats, counts
reached under a limit)."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from experiments.analysis.tables import CampaignRuns, build_comparison, render_campaigns
from experiments.campaign.store import ResultsStore, runs_as_csv
from experiments.campaign.store.rows import write_runs_csv
from experiments.campaign.stored_campaign import StoredCampaign, read_campaign, read_header
from experiments.campaign.verdicts import judged_against
from tests.experiments.records import record_of, session_of, task_of
from tests.paths import ROOT

COMMITTED = sorted((ROOT / "results").glob("*/runs.sqlite"))
SHAPES = [({"by": "viewpoint", "metrics": ("time", "backtracks"), "reached": False}, False),
          ({"by": "solver", "metrics": ("time", "branches", "conflicts", "wall"),
            "reached": True}, True),
          ({"by": "heuristic", "metrics": ("build", "propagations", "memory"),
            "reached": True}, False)]


def both_ways(database: Path, shape: dict, all_runs: bool,
              records: StoredCampaign | None = None) -> tuple[str, str]:
    """The tables in Markdown from the records (read already, when given), then by
    aggregation in the store."""
    read = records or read_campaign(database, all_runs=all_runs)
    from_records = [CampaignRuns.of(read)]
    aggregated = [CampaignRuns.in_store(read_header(database, all_runs))]
    return tuple(render_campaigns(build_comparison(campaigns, **shape), campaigns, "markdown")
                 for campaigns in (from_records, aggregated))  # type: ignore[return-value]


@pytest.mark.parametrize("database", COMMITTED, ids=[p.parent.name for p in COMMITTED])
def test_every_committed_store_gives_the_same_tables_and_runs_csv(database: Path) -> None:
    """The tables both ways, and ``runs.csv`` written as the runs come from the store
    (each contradicted claim judged on the way) against the records read whole."""
    read = {all_runs: read_campaign(database, all_runs=all_runs) for all_runs in (False, True)}
    for shape, all_runs in SHAPES:
        from_records, aggregated = both_ways(database, shape, all_runs, read[all_runs])
        assert aggregated == from_records
    streamed = io.StringIO()
    with ResultsStore.open_existing(database) as store:
        write_runs_csv(judged_against(store.iter_runs(grid_only=True), store.first_answers()),
                       streamed)
    assert streamed.getvalue() == runs_as_csv(read[False].runs)


@pytest.fixture
def every_kind_of_cell(tmp_path: Path) -> Path:
    """Two repeats planned per cell; instance ``b`` is on two files under one label."""
    path = tmp_path / "cells" / "runs.sqlite"
    runs = [  # (instance, file, viewpoint, repeat, status, verdict, figures, message)
        ("a", "f.txt", "classic", 0, "solved", None, {"solve_s": 0.010, "backtracks": 4}, ""),
        ("a", "f.txt", "classic", 1, "solved", None, {"solve_s": 0.030, "backtracks": 7}, ""),
        ("a", "f.txt", "dual", 0, "timeout", None, {"solve_s": 10.0, "backtracks": 90}, ""),
        ("a", "f.txt", "dual", 1, "timeout", None, {"solve_s": 10.0, "backtracks": 80}, ""),
        ("b", "f.txt", "classic", 0, "solved", None, {"solve_s": 0.020, "backtracks": 1}, ""),
        ("b", "f.txt", "classic", 1, "unsatisfiable", None, {"solve_s": 0.020}, ""),
        ("b", "g.txt", "classic", 0, "error", "wrong", {"solve_s": 0.5}, "row 1 twice\nmore"),
        ("b", "g.txt", "classic", 1, "refused", None, {}, "too big to build"),
        ("b", "f.txt", "dual", 0, "solved", None, {"solve_s": 0.040, "backtracks": 2}, ""),
        ("c", "f.txt", "classic", 0, "memory-out", None, {}, ""),
        ("c", "f.txt", "classic", 1, "solved", None, {"solve_s": 1.0, "backtracks": 3}, ""),
    ]
    with ResultsStore(path) as store:
        store.start_campaign(session_of("cells", repeats=2, planned=12))
        for position, (instance, file, viewpoint, repeat, status, verdict, figures,
                       message) in enumerate(runs):
            task = task_of(instance, viewpoint, repeat=repeat, position=position,
                           instance_file=file, instance_position=ord(instance) - ord("a"))
            store.record_run(record_of(task, status, verdict, message=message, **figures))
    with sqlite3.connect(path) as connection:  # as a store made before claims were judged
        connection.execute("UPDATE runs SET status = 'unsatisfiable', verdict = 'unchecked', "
                           "message = '' WHERE instance = 'b' AND repeat = 1 AND "
                           "viewpoint = 'classic' AND instance_file = 'f.txt'")
    return path


def test_every_kind_of_cell_reads_the_same_both_ways(every_kind_of_cell: Path) -> None:
    for shape, all_runs in SHAPES:
        from_records, aggregated = both_ways(every_kind_of_cell, shape, all_runs)
        assert aggregated == from_records
    shape = {"by": "viewpoint", "metrics": ("time", "backtracks"), "reached": True}
    text = both_ways(every_kind_of_cell, shape, False)[1]
    for shown in ("f.txt:b", "g.txt:b", "WRONG", "≥80", "n/a", "m/o (1/2)", "· (1/2)",
                  "row 1 twice", "claims there is no solution", "partial: 11 of 12"):
        assert shown in text


def test_a_large_store_is_aggregated_where_it_is_stored(every_kind_of_cell: Path, monkeypatch,
                                                    capsys) -> None:
    from tests.experiments.cli.commands import run_cli

    monkeypatch.setattr("experiments.analysis.tables.AGGREGATED_FROM_RUNS", 1)
    monkeypatch.setattr(
        "experiments.campaign.stored_campaign.ResultsStore.runs",
        lambda *args, **kwargs: pytest.fail("the table read the runs as records"))
    code, out, err = run_cli(monkeypatch, capsys, "table", str(every_kind_of_cell),
                             "--format", "markdown")
    assert code == 0, err
    assert "f.txt:b" in out and "WRONG" in out


def test_a_small_store_is_read_as_records(every_kind_of_cell: Path) -> None:
    """Starting the query engine costs more than reading a few thousand runs."""
    from experiments.analysis.tables import AGGREGATED_FROM_RUNS
    from experiments.campaign.stored_campaign import read_campaigns

    [campaign] = read_campaigns([every_kind_of_cell], whole_below=AGGREGATED_FROM_RUNS)
    assert campaign.read_whole and len(campaign.runs) == campaign.stored_runs == 11
    assert CampaignRuns.of(campaign).aggregated is None


def test_a_contradicted_claim_reads_wrong_in_runs_csv(every_kind_of_cell: Path) -> None:
    from experiments.analysis.outputs import write_outputs

    write_outputs(every_kind_of_cell, report=False)
    written = (every_kind_of_cell.parent / "runs.csv").read_text()
    assert written == runs_as_csv(read_campaign(every_kind_of_cell).runs)
    assert "claims there is no solution" in written


def reports_both_ways(database: Path, tmp_path: Path) -> dict[str, tuple[str, str]]:
    """The report's pages from the runs read as records, then from the store asked."""
    from experiments.analysis.report import report_of
    from experiments.campaign.stored_campaign import read_campaigns

    whole = read_campaigns([database], require_runs=True)
    asked = read_campaigns([database], require_runs=True, whole_below=0)
    assert whole[0].read_whole and not asked[0].read_whole
    report_of(whole, tmp_path / "records")
    report_of(asked, tmp_path / "store")
    return {name: ((tmp_path / "records" / name).read_text(),
                   (tmp_path / "store" / name).read_text())
            for name in ("report.md", "report.tex", "index.html")}


def test_every_kind_of_cell_reports_the_same_both_ways(every_kind_of_cell: Path,
                                                         tmp_path: Path) -> None:
    pages = reports_both_ways(every_kind_of_cell, tmp_path)
    for from_records, asked in pages.values():
        assert asked == from_records
    page = pages["index.html"][1]
    assert "11 stored" in page and "2 wrong" in page  # counted in the store


@pytest.mark.slow  # every committed store's report drawn twice: a minute
@pytest.mark.parametrize("database", COMMITTED, ids=[p.parent.name for p in COMMITTED])
def test_every_committed_store_reports_the_same_both_ways(database: Path,
                                                            tmp_path: Path) -> None:
    for from_records, asked in reports_both_ways(database, tmp_path).values():
        assert asked == from_records


def test_runs_outside_the_grid_are_left_out_both_ways(every_kind_of_cell: Path) -> None:
    """A campaign whose spec dropped a cell keeps its runs in the store: the tables of
    the grid leave them out whichever way they are read, and show them with all runs."""
    with ResultsStore(every_kind_of_cell) as store:
        kept = [run.identity for run in store.runs() if run.identity.instance != "c"]
        store.set_grid(kept)
    shape = {"by": "viewpoint", "metrics": ("time", "backtracks"), "reached": True}
    for all_runs in (False, True):
        from_records, aggregated = both_ways(every_kind_of_cell, shape, all_runs)
        assert aggregated == from_records
        assert ("| c |" in aggregated) == all_runs
