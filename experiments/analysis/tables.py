"""Course-style result tables: one row per instance, a column group per viewpoint.

Within each group come the chosen metrics (time in ms, backtracks, ...); repeats
of a run are summarised by their median. The dimensions that are not the column
groups (solver and heuristic when grouping by viewpoint) each get a table of their
own, and every table has the same groups. A cell that has no figure shows a mark
(``MARKS`` in :mod:`experiments.analysis.table_format`, printed as a legend under each
table): ``t/o``, ``m/o``, ``n/a`` (refused), ``err``, ``WRONG``, ``–`` where no run
was planned, ``·`` where runs are still to come (``· (1/3)``: one of three
repeats stored), ``n/r`` for a figure the solver does not report, and with
``reached`` the count a run stopped by a limit had reached (``≥1075462``). A refused,
failed, out-of-memory or wrong cell points to a note under its table that gives its
stored reason once for every cell sharing it (``n/a¹``,
:mod:`experiments.analysis.table_reasons`). The
closing rows (:mod:`experiments.analysis.table_summary`) compare the same work: solved
counts, totals and means over the instances every group solved, PAR-2 and the
virtual best.

Several campaigns (stores) go side by side with :func:`build_comparison`: their
instances matched by label, each campaign a column group within each viewpoint,
and ratio columns dividing by the first campaign's figures.

A run that claims "unsatisfiable" where another run of the instance found a
solution the checker accepts is shown ``WRONG``
(:func:`experiments.campaign.verdicts.contradicted`, which the store applies too).

>>> from experiments.campaign.identity import RunIdentity
>>> from experiments.campaign.record import RunRecord
>>> from experiments.campaign.verdicts import Verdict
>>> from solvers import Statistics, Status
>>> run = RunIdentity(puzzle="sudoku", instance_file="f", instance_name="p1", instance="p1",
...                   viewpoint_name="classic", viewpoint="classic", solver="cp",
...                   heuristic="input/min", time_limit=10.0)
>>> runs = [RunRecord(identity=run, status=Status.SOLVED, verdict=Verdict.CORRECT,
...                   statistics=Statistics(solve_s=0.0042, backtracks=7))]
>>> print(format_table(runs, fmt="markdown").split("Virtual best")[0].strip())
### solver cp · heuristic input/min
<BLANKLINE>
| instance | classic time (ms) | classic backtracks |
|---|---:|---:|
| p1 | 4.2 | 7 |
| solved | 1/1 |  |
| total (1 solved by all) | 4.2 | 7 |
| geo. mean (1 solved by all) | 4.2 | 7 |
| PAR-2 (1 instance) | 4.2 |  |
| virtual best picks | 1 |  |
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from experiments.analysis.table_format import (
    FAILED,
    FORMATS,
    MEMORY_OUT,
    MISSING,
    NOT_REPORTED,
    REFUSED,
    TIMEOUT,
    UNPLANNED,
    WRONG,
    ColumnGroup,
    Metric,
    ResultTable,
    latex_escape,
    legend,
    render,
)
from experiments.analysis.table_reasons import Footnotes, reason_of
from experiments.analysis.table_summary import (
    Cell,
    Figure,
    Group,
    columns,
    format_figure,
    summary_rows,
)
from experiments.campaign.record import RunRecord
from experiments.campaign.spec import GROUPINGS as BY_CHOICES
from experiments.campaign.stored_campaign import StoredCampaign
from experiments.campaign.verdicts import Verdict, with_contradictions
from puzzlelab.errors import OptionError
from puzzlelab.statistics import STATISTICS
from solvers.record import Status

__all__ = ["BY_CHOICES", "FORMATS", "CampaignRuns", "Metric", "ResultTable", "build_comparison",
           "build_tables", "format_campaigns", "format_table", "known_metrics", "latex_escape",
           "render", "render_campaigns"]


def known_metrics() -> dict[str, Metric]:
    """Every table metric, one per declared statistic (:mod:`puzzlelab.statistics`)."""
    return {s.metric: Metric(s.metric, s.header, s.name, s.table_scale, s.integer)
            for s in (STATISTICS.get(name) for name in STATISTICS) if s.metric}


STATUS_MARKS = {Status.TIMEOUT: TIMEOUT, Status.MEMORY_OUT: MEMORY_OUT,
                Status.REFUSED: REFUSED, Status.ERROR: FAILED}
"""The mark of each status a run ends in without an answer."""
SEARCH_TIME = "solve_s"
"""The statistic the spec's ``time_limit`` bounds: PAR-2 and the virtual best read it."""
NOTES = ("Rows: figures are medians of the repeats; solved: instances whose runs all "
         "finished, none WRONG, of those the group did not refuse (n/a: the model was never "
         "built, so no search failed; the cell counts them); total and geo. mean (shifted: of "
         "figure + 1, less 1): over the instances every group solved; PAR-2: mean search "
         "time over the instances no group refused, an unsolved instance counting twice its "
         "time limit; virtual best picks: instances on which the group is fastest.")


@dataclass(frozen=True)
class CampaignRuns:
    """The stored runs of one campaign, and the name its column groups carry beside
    other campaigns'. ``repeats``/``planned_runs``: what the campaign plans, if known."""

    name: str
    runs: Sequence[RunRecord]
    repeats: int | None = None
    planned_runs: int | None = None

    @classmethod
    def of(cls, campaign: StoredCampaign) -> CampaignRuns:
        """The runs of a campaign read from its store."""
        return cls(campaign.name, campaign.runs, campaign.repeats, campaign.planned_runs)


def build_tables(runs: Sequence[RunRecord], by: str = "viewpoint",
                 metrics: Sequence[str] = ("time", "backtracks"),
                 reached: bool = False, repeats: int | None = None) -> list[ResultTable]:
    """Group the runs of one campaign into course-style tables (see the module docstring).

    ``repeats``: the runs the campaign plans per cell (the store knows it); a cell
    with fewer stored shows how many it has. None: every stored cell is complete.
    """
    return build_comparison([CampaignRuns("", runs, repeats)], by, metrics, reached)


def build_comparison(campaigns: Sequence[CampaignRuns], by: str = "viewpoint",
                     metrics: Sequence[str] = ("time", "backtracks"),
                     reached: bool = False) -> list[ResultTable]:
    """The tables of one or several campaigns side by side, instances matched by label."""
    if by not in BY_CHOICES:
        raise OptionError(f"unknown --by {by!r}; valid: {', '.join(BY_CHOICES)}")
    chosen = tuple(_metric(name) for name in metrics)
    if not chosen:
        raise OptionError(f"name at least one metric; valid: {', '.join(known_metrics())}")
    others = [d for d in ("solver", "heuristic", "viewpoint") if d != by]
    grid = _Grid(campaigns, by, others)
    names = [c.name for c in campaigns]
    groups = [Group(value if len(campaigns) == 1 else f"{names[c]}: {value}",
                    None if c == 0 else grid.values.index(value) * len(campaigns))
              for value in grid.values for c in range(len(campaigns))]
    time_index = next((m for m, metric in enumerate(chosen) if metric.column == SEARCH_TIME),
                      None)
    notes = [NOTES, legend()]
    if len(campaigns) > 1:
        notes.append(f"Ratio: the campaign's figure ÷ the first campaign's ({names[0]}), same "
                     f"instance and group; empty where either has no figure.")
    tables = []
    for key in grid.keys:
        footnotes = Footnotes()
        cells = {(instance, g): grid.cell(c, key, value, instance, chosen, reached, footnotes)
                 for instance in grid.instances
                 for g, (value, c) in enumerate((v, c) for v in grid.values
                                                for c in range(len(campaigns)))}
        body = [(instance, columns(groups, {g: cells[(instance, g)].figures
                                            for g in range(len(groups))}))
                for instance in grid.instances]
        closing, virtual_best = summary_rows(groups, grid.instances, cells, chosen, time_index)
        headers = tuple(header for metric in chosen for header in
                        (metric.header, f"{metric.name} ratio"))
        column_groups = tuple(ColumnGroup(group.label, headers if group.base is not None
                                          else tuple(m.header for m in chosen))
                              for group in groups)
        starts = [sum(len(g.headers) for g in column_groups[:index])
                  for index in range(len(groups))]
        noted: dict[tuple[str, int], int] = {}
        for (instance, g), cell in cells.items():
            if cell.footnote is not None:  # on the group's first column
                noted[(instance, starts[g])] = cell.footnote
        tables.append(ResultTable(" · ".join(f"{d} {v}" for d, v in zip(others, key)),
                                  column_groups, tuple(body + closing), len(body),
                                  tuple(footnotes.notes() + virtual_best + notes),
                                  noted))
    return tables


class _Grid:
    """The stored runs of the campaigns, by campaign, table, group and instance."""

    def __init__(self, campaigns: Sequence[CampaignRuns], by: str, others: Sequence[str]):
        self.campaigns = campaigns
        self.keys: dict[tuple[str, ...], None] = {}
        values: dict[str, None] = {}
        order: dict[str, tuple[int, int]] = {}
        self.runs: dict[tuple[int, tuple[str, ...], str, str], list[RunRecord]] = {}
        self.planned: set[tuple[int, tuple[str, ...], str]] = set()
        self.present: set[tuple[int, str]] = set()
        for index, campaign in enumerate(campaigns):
            for run in _prepared(campaign.runs):
                key, value = tuple(dimension(run, d) for d in others), dimension(run, by)
                self.keys.setdefault(key)
                values.setdefault(value)
                order.setdefault(run.identity.instance, (index, run.identity.instance_position))
                self.runs.setdefault((index, key, value, run.identity.instance), []).append(run)
                self.planned.add((index, key, value))
                self.present.add((index, run.identity.instance))
        self.values = list(values)
        self.instances = sorted(order, key=lambda name: order[name])

    def cell(self, campaign: int, key: tuple[str, ...], value: str, instance: str,
             metrics: Sequence[Metric], reached: bool, footnotes: Footnotes) -> Cell:
        """What the tables show of ``instance`` in one group of one table; a mark's
        reason goes to the table's ``footnotes``, the mark carrying its number."""
        if (campaign, key, value) not in self.planned or (campaign, instance) not in \
                self.present:
            return Cell(tuple((UNPLANNED, None) for _ in metrics), planned=False)
        repeats = self.runs.get((campaign, key, value, instance), [])
        planned = self.campaigns[campaign].repeats or 1
        if not repeats:
            return Cell(tuple((MISSING, None) for _ in metrics))
        failure = failure_mark(repeats)
        if failure is not None:
            limits = [r.identity.time_limit for r in repeats if r.identity.time_limit is not None]
            return Cell(tuple(((_reached(repeats, m) if reached else None) or failure, None)
                              for m in metrics),
                        penalised_s=2 * max(limits) if limits else None,
                        refused=failure == REFUSED,
                        footnote=footnotes.number(reason_of(repeats, failure.split(" (")[0])))
        if len(repeats) < planned:
            return Cell(tuple((f"{MISSING} ({len(repeats)}/{planned})", None)
                              for _ in metrics))
        figures: list[Figure] = []
        for metric in metrics:
            value_shown = _median(repeats, metric)
            figures.append((NOT_REPORTED, None) if value_shown is None else
                           (format_figure(value_shown, metric), value_shown))
        search = _median(repeats, Metric("", "", SEARCH_TIME))
        return Cell(tuple(figures), solved=True, search_s=search, penalised_s=search)


def dimension(run: RunRecord, name: str) -> str:
    """The run's value of a table dimension (``viewpoint``, ``solver`` or ``heuristic``)."""
    if name not in BY_CHOICES:
        raise OptionError(f"unknown --by {name!r}; valid: {', '.join(BY_CHOICES)}")
    return str(getattr(run.identity, name))


def _prepared(runs: Sequence[RunRecord]) -> list[RunRecord]:
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


def _metric(name: str) -> Metric:
    known = known_metrics()
    if name not in known:
        raise OptionError(f"unknown metric {name!r}; valid: {', '.join(known)}")
    return known[name]


def failure_mark(repeats: Sequence[RunRecord]) -> str | None:
    """The mark of a cell some of whose repeats did not finish correctly (``WRONG``
    before any status), else None; ``t/o (1/3)`` when not all of them."""
    failed = [r for r in repeats if not r.finished]
    if not failed:
        return None
    wrong = any(r.verdict is Verdict.WRONG for r in failed)
    mark = WRONG if wrong else STATUS_MARKS.get(failed[0].status, failed[0].status.value)
    return mark if len(failed) == len(repeats) else f"{mark} ({len(failed)}/{len(repeats)})"


def _reached(repeats: Sequence[RunRecord], metric: Metric) -> str | None:
    """``≥count`` for a count column of runs all stopped by a limit, else None.

    A run killed from outside (no ``solve_s`` stored) has no counts at all, so its cell
    keeps its status. The count shown is the lower median: one some run reached.
    """
    if not metric.integer or any(not r.status.stopped_by_limit
                                 or r.figure(SEARCH_TIME) is None for r in repeats):
        return None
    value = _median(repeats, metric, low=True)
    return NOT_REPORTED if value is None else f"≥{format_figure(value, metric)}"


def _median(repeats: Sequence[RunRecord], metric: Metric, low: bool = False) -> float | None:
    """The median of the figures present; ``low``: the lower median, a value some run has."""
    present = [value for value in (r.figure(metric.column) for r in repeats)
               if value is not None]
    if not present:
        return None
    return (statistics.median_low if low else statistics.median)(present) * metric.scale


def format_table(runs: Sequence[RunRecord], by: str = "viewpoint",
                 metrics: Sequence[str] = ("time", "backtracks"), fmt: str = "text",
                 reached: bool = False, repeats: int | None = None,
                 planned_runs: int | None = None, width: int | None = None) -> str:
    """Build the tables of one campaign's ``runs`` and render them in ``fmt`` (see
    :func:`format_campaigns`)."""
    return format_campaigns([CampaignRuns("", runs, repeats, planned_runs)], by, metrics,
                            fmt, reached, width)


def format_campaigns(campaigns: Sequence[CampaignRuns], by: str = "viewpoint",
                     metrics: Sequence[str] = ("time", "backtracks"), fmt: str = "text",
                     reached: bool = False, width: int | None = None) -> str:
    """The tables of the campaigns in ``fmt`` (text within ``width`` columns, if given),
    after a note for each campaign with fewer runs stored than it plans (see
    :func:`render_campaigns`)."""
    return render_campaigns(build_comparison(campaigns, by, metrics, reached), campaigns, fmt,
                            width)


def render_campaigns(tables: Sequence[ResultTable], campaigns: Sequence[CampaignRuns],
                     fmt: str = "text", width: int | None = None) -> str:
    """Built ``tables`` in ``fmt``, after a note for each campaign with fewer runs stored
    than it plans, as after an interruption: instances and groups with no run stored yet
    are not in the tables."""
    text = render(tables, fmt, width)
    notes = [f"partial: {f'{c.name}: ' if len(campaigns) > 1 else ''}{len(c.runs)} of "
             f"{c.planned_runs} planned runs stored; run the spec again to finish"
             for c in campaigns if c.planned_runs is not None and len(c.runs) < c.planned_runs]
    if not notes or fmt == "csv":
        return text
    prefix = {"text": "", "markdown": "> ", "latex": "% "}[fmt]
    return "".join(f"{prefix}{note}\n" for note in notes) + "\n" + text
