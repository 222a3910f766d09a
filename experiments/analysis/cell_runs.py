"""What a table needs of one cell's repeats (one instance under one viewpoint, solver and
heuristic), summed up: how many there are, how they failed, the medians of their figures.

A cell's figures come from here whether its runs were read as records (a campaign in
memory, :func:`cells_of_runs`) or aggregated in the store by a query engine without
reading them (:mod:`experiments.analysis.store_cells`): the tables
(:mod:`experiments.analysis.tables`) read only :class:`CellRuns`, so both give the same
figures, and a test holds them equal on every committed store.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from experiments.analysis.table_format import FAILED, MEMORY_OUT, REFUSED, TIMEOUT, WRONG
from experiments.campaign.record import RunRecord
from experiments.campaign.verdicts import Verdict, with_contradictions
from solvers.record import Status

Group = tuple[str, str, str]
"""A cell's viewpoint, solver and heuristic (labels, as the runs carry them)."""
GROUP_FIELDS = ("viewpoint", "solver", "heuristic")
"""The identity fields of a :data:`Group`, in its order."""
SEARCH_TIME = "solve_s"
"""The statistic the spec's ``time_limit`` bounds: PAR-2 and the virtual best read it."""
STATUS_MARKS = {Status.TIMEOUT: TIMEOUT, Status.MEMORY_OUT: MEMORY_OUT,
                Status.REFUSED: REFUSED, Status.ERROR: FAILED}
"""The mark of each status a run ends in without an answer."""


@dataclass(frozen=True)
class FailedRun:
    """The run whose message explains a failed cell: its first wrong one, else its first
    one that did not finish."""

    message: str
    time_limit: float | None
    memory_limit_mb: int | None


@dataclass(frozen=True)
class CellRuns:
    """One cell's repeats, summed up.

    Attributes:
        count: the repeats stored.
        failed: those that gave no answer, or one judged wrong.
        wrong: whether one of them was judged wrong.
        first_failed: the status of the first failed repeat (in grid order).
        explaining: the failed run whose message the cell's note gives.
        time_limit: the largest time limit a repeat ran under.
        stopped_with_counts: every repeat was stopped by a limit and stored its counts.
        medians: each figure's median over the repeats that have it (None: none has).
        low_medians: the lower median (a value some repeat has).
    """

    count: int
    failed: int = 0
    wrong: bool = False
    first_failed: Status | None = None
    explaining: FailedRun | None = None
    time_limit: float | None = None
    stopped_with_counts: bool = False
    medians: Mapping[str, float | None] = field(default_factory=dict)
    low_medians: Mapping[str, float | None] = field(default_factory=dict)

    @classmethod
    def of(cls, repeats: Sequence[RunRecord], columns: Iterable[str]) -> CellRuns:
        """The summary of ``repeats`` (in grid order), with the medians of ``columns``."""
        failed = [r for r in repeats if not r.finished]
        wrong = next((r for r in failed if r.verdict is Verdict.WRONG), None)
        explaining = wrong or (failed[0] if failed else None)
        limits = [r.identity.time_limit for r in repeats if r.identity.time_limit is not None]
        medians, low = {}, {}
        for column in {*columns, SEARCH_TIME}:
            present = [v for v in (r.figure(column) for r in repeats) if v is not None]
            medians[column] = statistics.median(present) if present else None
            low[column] = statistics.median_low(present) if present else None
        return cls(len(repeats), len(failed), wrong is not None,
                   failed[0].status if failed else None,
                   None if explaining is None else FailedRun(
                       explaining.message, explaining.identity.time_limit,
                       explaining.identity.memory_limit_mb),
                   max(limits) if limits else None,
                   all(r.status.stopped_by_limit and r.figure(SEARCH_TIME) is not None
                       for r in repeats), medians, low)


def failure_mark(cell: CellRuns) -> str | None:
    """The mark of a cell some of whose repeats did not finish correctly (``WRONG``
    before any status), else None; ``t/o (1/3)`` when not all of them."""
    if not cell.failed:
        return None
    assert cell.first_failed is not None
    mark = WRONG if cell.wrong else STATUS_MARKS.get(cell.first_failed,
                                                      cell.first_failed.value)
    return mark if cell.failed == cell.count else f"{mark} ({cell.failed}/{cell.count})"


@dataclass
class CampaignCells:
    """One campaign's cells, in the order its runs come (each group and instance where
    its first run is), and how many runs they hold."""

    cells: dict[tuple[Group, str], CellRuns] = field(default_factory=dict)
    instances: dict[str, int] = field(default_factory=dict)
    """Each instance's label, with its place among the campaign's instances."""
    groups: dict[Group, None] = field(default_factory=dict)
    runs: int = 0


def cells_of_runs(runs: Sequence[RunRecord], columns: Iterable[str]) -> CampaignCells:
    """The cells of runs read as records, in their order, with the medians of
    ``columns``."""
    chosen = list(columns)
    by_cell: dict[tuple[Group, str], list[RunRecord]] = {}
    made = CampaignCells(runs=len(runs))
    for run in prepared(runs):
        identity = run.identity
        group = (identity.viewpoint, identity.solver, identity.heuristic)
        made.groups.setdefault(group)
        made.instances.setdefault(identity.instance, identity.instance_position)
        by_cell.setdefault((group, identity.instance), []).append(run)
    made.cells = {key: CellRuns.of(repeats, chosen) for key, repeats in by_cell.items()}
    return made


def prepared(runs: Sequence[RunRecord]) -> list[RunRecord]:
    """The runs as the tables read them: a label that a store made before labels were
    unique gives to several files is prefixed with the file; a contradicted
    "unsatisfiable" is judged wrong (:mod:`experiments.campaign.verdicts`)."""
    files: dict[str, set[str]] = {}
    for run in runs:
        files.setdefault(run.identity.instance, set()).add(run.identity.instance_file)
    return with_contradictions([
        replace(run, identity=replace(
            run.identity, instance=f"{run.identity.instance_file}:{run.identity.instance}"))
        if len(files[run.identity.instance]) > 1 else run for run in runs])
