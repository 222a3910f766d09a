"""Each fact in one place: the record, the store, the tables, ``list`` and the pages
(``tests/architecture/test_docs.py``) read the statistics and the backends' capabilities
from their declarations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from experiments.analysis.tables import known_metrics
from experiments.campaign.store import ResultsStore
from experiments.cli.reference import section
from puzzlelab.statistics import STATISTICS, Statistic, run_statistics
from solvers import BACKENDS, Statistics, load_backends, solve
from tests.expected_refusals import expected_refusal
from tests.solvers.tiny_models import TINY_MODELS

load_backends()
DECLARED = [STATISTICS.get(name) for name in STATISTICS]


def test_the_record_holds_exactly_the_declared_run_statistics() -> None:
    assert list(Statistics().as_dict()) == [s.name for s in run_statistics()]
    with pytest.raises(TypeError, match="undeclared"):
        Statistics(nodes=3)


def test_the_store_has_a_column_per_declared_statistic(tmp_path: Path) -> None:
    with ResultsStore(tmp_path / "runs.sqlite"):
        pass
    with sqlite3.connect(tmp_path / "runs.sqlite") as connection:
        columns = {row[1]: row[2] for row in connection.execute("PRAGMA table_info(runs)")}
    for statistic in DECLARED:
        assert columns[statistic.name] == ("INTEGER" if statistic.integer else "REAL")


def test_the_tables_have_a_metric_per_declared_statistic() -> None:
    metrics = known_metrics()
    assert [metric.column for metric in metrics.values()] == [s.name for s in DECLARED]
    assert all(metrics[s.metric].integer == s.integer for s in DECLARED)


@pytest.mark.parametrize("backend", BACKENDS.names())
def test_a_backend_reports_what_it_declares_and_nothing_else(backend: str) -> None:
    declared = BACKENDS.get(backend)
    if declared.unavailable():
        pytest.skip(f"backend {backend!r} is unavailable here: {declared.unavailable()}")
    loop = {s.name for s in run_statistics() if s.measured_by == "loop"}
    name = next(n for n, factory in TINY_MODELS.items()
                if expected_refusal(declared.capabilities, factory(), "input/min") is None
                and n not in ("constant-true", "constant-false"))
    result = solve(TINY_MODELS[name](), backend, "input/min", max_solutions=0)
    given = {key for key, value in result.statistics.as_dict().items() if value is not None}
    assert given <= loop | declared.capabilities.statistics
    assert declared.capabilities.statistics <= set(STATISTICS)


def test_a_statistic_declared_by_a_module_of_its_own_becomes_a_field_a_column_and_a_metric(
        tmp_path: Path) -> None:
    """A figure declared outside the core (by a backend's module, say) is declared like the
    core figures and shows everywhere."""
    joined = Statistic("islands_joined", "islands joined by the first bridge laid",
                       "count", metric="islands-joined", header="joined")
    with STATISTICS.registered(joined.name, joined):
        assert Statistics(islands_joined=4).islands_joined == 4
        assert known_metrics()["islands-joined"].column == "islands_joined"
        with ResultsStore(tmp_path / "runs.sqlite"):
            pass
        with sqlite3.connect(tmp_path / "runs.sqlite") as connection:
            columns = {row[1] for row in connection.execute("PRAGMA table_info(runs)")}
        assert "islands_joined" in columns
        assert "islands_joined" in section("statistics")
    with pytest.raises(TypeError, match="undeclared"):
        Statistics(islands_joined=4)
