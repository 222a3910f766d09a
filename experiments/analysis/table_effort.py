"""The tables' ``effort`` column: for each solver, the search effort its runs report.

Solvers count effort differently: OR-tools' CP solver, Choco and ECLiPSe count
backtracks, CP-SAT branches (and conflicts) only. A column headed "backtracks" over
CP-SAT's runs would read ``n/r`` on every row; so the ``effort`` metric
(:data:`~puzzlelab.statistics.EFFORT`) shows, for each solver, the first of
:data:`~puzzlelab.statistics.EFFORT_STATISTICS` some median of its cells gives, and its
column is headed by that statistic's name: one table of CP-SAT's branches, another of
``cp``'s backtracks, or, grouped by solver, both side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from experiments.analysis.cell_runs import CellRuns
from experiments.analysis.table_format import Metric
from puzzlelab.statistics import EFFORT, EFFORT_STATISTICS

PLACEHOLDER = Metric(EFFORT, EFFORT, EFFORT, 1.0, True)
"""The ``effort`` metric before its solver's statistic is known."""


def measured(metrics: Sequence[Metric], known: Mapping[str, Metric]) -> list[Metric]:
    """The metrics whose medians the cells need: those chosen, ``effort`` standing for
    each statistic it may show."""
    found = [metric for metric in metrics if metric.column != EFFORT]
    if any(metric.column == EFFORT for metric in metrics):
        found += [_metric_of(statistic, known) for statistic in EFFORT_STATISTICS]
    return found


def effort_by_solver(cells: Iterable[tuple[str, CellRuns]]) -> dict[str, str]:
    """Each solver's effort statistic, from its cells (``(solver, cell)`` pairs): the
    first of :data:`EFFORT_STATISTICS` that a median of its cells gives (the first, shown
    ``n/r``, when none does)."""
    reported: dict[str, set[str]] = {}
    for solver, cell in cells:
        given = reported.setdefault(solver, set())
        given.update(name for name in EFFORT_STATISTICS if cell.medians.get(name) is not None)
    return {solver: next((name for name in EFFORT_STATISTICS if name in given),
                         EFFORT_STATISTICS[0])
            for solver, given in reported.items()}


def resolver(metrics: Sequence[Metric], efforts: Mapping[str, str],
             known: Mapping[str, Metric]) -> Callable[[str], tuple[Metric, ...]]:
    """The metrics a column group of ``solver`` shows: ``effort`` as its statistic."""
    def of(solver: str) -> tuple[Metric, ...]:
        statistic = efforts.get(solver, EFFORT_STATISTICS[0])
        return tuple(_metric_of(statistic, known) if metric.column == EFFORT else metric
                     for metric in metrics)

    return of


def _metric_of(statistic: str, known: Mapping[str, Metric]) -> Metric:
    return next(metric for metric in known.values() if metric.column == statistic)
