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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from experiments.analysis.cell_runs import (
    GROUP_FIELDS,
    SEARCH_TIME,
    CampaignCells,
    CellRuns,
    cells_of_runs,
    failure_mark,
)
from experiments.analysis.table_effort import PLACEHOLDER, effort_by_solver, measured, resolver
from experiments.analysis.table_format import (
    FORMATS,
    MISSING,
    NOT_REPORTED,
    REFUSED,
    UNPLANNED,
    ColumnGroup,
    Metric,
    ResultTable,
    latex_escape,
    legend,
    printed,
    render,
)
from experiments.analysis.table_reasons import Footnotes, Reason
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
from experiments.campaign.spec.settings import DEFAULT_METRICS
from experiments.campaign.stored_campaign import StoredCampaign
from puzzlelab.errors import OptionError
from puzzlelab.statistics import EFFORT, STATISTICS, metric_names

__all__ = ["BY_CHOICES", "FORMATS", "CampaignRuns", "Metric", "ResultTable", "build_comparison",
           "build_tables", "format_campaigns", "format_table", "known_metrics", "latex_escape",
           "render", "render_campaigns"]


def known_metrics() -> dict[str, Metric]:
    """Every table metric, one per declared statistic (:mod:`puzzlelab.statistics`)."""
    return {s.metric: Metric(s.metric, s.header, s.name, s.table_scale, s.integer)
            for s in (STATISTICS.get(name) for name in STATISTICS) if s.metric}


AGGREGATED_FROM_RUNS = 20_000
"""The stored runs from which ``table`` and ``report`` ask the store rather than read the
runs (``read_campaigns(..., whole_below=AGGREGATED_FROM_RUNS)``): starting DuckDB costs
about 0.8 s, reading records about 0.1 s per 1,000 runs (results/scale), so
below this a small campaign's tables come sooner; both give the same."""
NOTES = ("Rows: figures are medians of the repeats; solved: instances whose runs all "
         "finished, none WRONG, of those the group did not refuse (n/a: the model was never "
         "built, so no search failed; the cell counts them); total and geo. mean (shifted: of "
         "figure + 1, less 1): over the instances every group solved; PAR-2: mean search "
         "time over the instances no group refused, an unsolved instance counting twice its "
         "time limit; virtual best picks: instances on which the group is fastest.")


@dataclass(frozen=True)
class CampaignRuns:
    """The stored runs of one campaign, and the name its column groups carry beside
    other campaigns'. ``repeats``/``planned_runs``: what the campaign plans, if known.
    ``aggregated``: the cells made another way than from ``runs`` (a query over its
    store, :mod:`experiments.analysis.store_cells`), given the columns whose medians
    the tables show; ``stored``: then, how many of the grid's runs are stored."""

    name: str
    runs: Sequence[RunRecord] = ()
    repeats: int | None = None
    planned_runs: int | None = None
    aggregated: Callable[[Sequence[str]], CampaignCells] | None = None
    stored: int | None = None

    @classmethod
    def of(cls, campaign: StoredCampaign) -> CampaignRuns:
        """The runs of a campaign read from its store: its records, or for one read
        without them, its cells aggregated in the store."""
        if not campaign.read_whole:
            return cls.in_store(campaign)
        return cls(campaign.name, campaign.runs, campaign.repeats, campaign.planned_runs)

    @classmethod
    def in_store(cls, campaign: StoredCampaign) -> CampaignRuns:
        """A campaign's runs as cells aggregated in its store (one read without its runs,
        :func:`~experiments.campaign.stored_campaign.read_header`, or any other)."""
        from experiments.analysis.store_cells import StoreCells

        cells = StoreCells(campaign.database, only_grid=campaign.outside_grid > 0)
        return cls(campaign.name, (), campaign.repeats, campaign.planned_runs, cells.cells,
                   campaign.stored_runs)

    def stored_runs(self) -> int:
        """How many runs the campaign's tables read."""
        return len(self.runs) if self.stored is None else self.stored

    def cells(self, columns: Sequence[str]) -> CampaignCells:
        """The campaign's cells, with the medians of ``columns``."""
        if self.aggregated is not None:
            return self.aggregated(columns)
        return cells_of_runs(self.runs, columns)


def build_tables(runs: Sequence[RunRecord], by: str = "viewpoint",
                 metrics: Sequence[str] = DEFAULT_METRICS,
                 reached: bool = False, repeats: int | None = None) -> list[ResultTable]:
    """Group the runs of one campaign into course-style tables (see the module docstring).

    ``repeats``: the runs the campaign plans per cell (the store knows it); a cell
    with fewer stored shows how many it has. None: every stored cell is complete.
    """
    return build_comparison([CampaignRuns("", runs, repeats)], by, metrics, reached)


def build_comparison(campaigns: Sequence[CampaignRuns], by: str = "viewpoint",
                     metrics: Sequence[str] = DEFAULT_METRICS,
                     reached: bool = False) -> list[ResultTable]:
    """The tables of one or several campaigns side by side, instances matched by label."""
    if by not in BY_CHOICES:
        raise OptionError(f"unknown --by {by!r}; valid: {', '.join(BY_CHOICES)}")
    chosen = tuple(_metric(name) for name in metrics)
    if not chosen:
        raise OptionError(f"name at least one metric; valid: {', '.join(metric_names())}")
    others = [d for d in ("solver", "heuristic", "viewpoint") if d != by]
    known = known_metrics()
    grid = _Grid(campaigns, by, others, _columns(chosen, known))
    names = [c.name for c in campaigns]
    placed = [(value, c) for value in grid.values for c in range(len(campaigns))]
    groups = [Group(value if len(campaigns) == 1 else f"{names[c]}: {value}",
                    None if c == 0 else grid.values.index(value) * len(campaigns))
              for value, c in placed]

    def solver_of(key: tuple[str, ...], value: str) -> str:
        return value if by == "solver" else key[others.index("solver")]

    shown = resolver(chosen, effort_by_solver(
        (solver_of(key, value), cell) for (_, key, value, _), cell in grid.cells.items()),
        known)
    time_index = next((m for m, metric in enumerate(chosen) if metric.column == SEARCH_TIME),
                      None)
    notes = [NOTES, legend()]
    if len(campaigns) > 1:
        notes.append(f"Ratio: the campaign's figure ÷ the first campaign's ({names[0]}), same "
                     f"instance and group; empty where either has no figure.")
    tables = []
    for key in grid.keys:
        footnotes = Footnotes()
        cells = {(instance, g): grid.cell(c, key, value, instance,
                                          shown(solver_of(key, value)), reached, footnotes)
                 for instance in grid.instances for g, (value, c) in enumerate(placed)}
        body = [(instance, columns(groups, {g: cells[(instance, g)].figures
                                            for g in range(len(groups))}))
                for instance in grid.instances]
        closing, virtual_best = summary_rows(groups, grid.instances, cells, chosen, time_index)
        column_groups = tuple(ColumnGroup(group.label, _headers(
            shown(solver_of(key, value)), group.base is not None))
            for group, (value, _) in zip(groups, placed))
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


def _headers(metrics: Sequence[Metric], ratios: bool) -> tuple[str, ...]:
    """A column group's headers: each metric's, with its ratio's after it."""
    return tuple(header for metric in metrics for header in
                 ((metric.header, f"{metric.name} ratio") if ratios else (metric.header,)))


class _Grid:
    """The cells of the campaigns, by campaign, table, group and instance."""

    def __init__(self, campaigns: Sequence[CampaignRuns], by: str, others: Sequence[str],
                 columns: Sequence[str]):
        self.campaigns = campaigns
        self.keys: dict[tuple[str, ...], None] = {}
        values: dict[str, None] = {}
        order: dict[str, tuple[int, int]] = {}
        self.cells: dict[tuple[int, tuple[str, ...], str, str], CellRuns] = {}
        self.planned: set[tuple[int, tuple[str, ...], str]] = set()
        self.present: set[tuple[int, str]] = set()
        where = {name: index for index, name in enumerate(GROUP_FIELDS)}
        for index, campaign in enumerate(campaigns):
            made = campaign.cells(columns)
            for group in made.groups:
                key = tuple(group[where[d]] for d in others)
                self.keys.setdefault(key)
                values.setdefault(group[where[by]])
                self.planned.add((index, key, group[where[by]]))
            for instance, position in made.instances.items():
                order.setdefault(instance, (index, position))
                self.present.add((index, instance))
            for (group, instance), cell in made.cells.items():
                key = tuple(group[where[d]] for d in others)
                self.cells[(index, key, group[where[by]], instance)] = cell
        self.values = list(values)
        self.instances = sorted(order, key=lambda name: order[name])

    def cell(self, campaign: int, key: tuple[str, ...], value: str, instance: str,
             metrics: Sequence[Metric], reached: bool, footnotes: Footnotes) -> Cell:
        """What the tables show of ``instance`` in one group of one table; a mark's
        reason goes to the table's ``footnotes``, the mark carrying its number."""
        if (campaign, key, value) not in self.planned or (campaign, instance) not in \
                self.present:
            return Cell(tuple((UNPLANNED, None) for _ in metrics), planned=False)
        repeats = self.cells.get((campaign, key, value, instance))
        planned = self.campaigns[campaign].repeats or 1
        if repeats is None:
            return Cell(tuple((MISSING, None) for _ in metrics))
        failure = failure_mark(repeats)
        if failure is not None:
            limit = repeats.time_limit
            return Cell(tuple(((_reached(repeats, m) if reached else None) or failure, None)
                              for m in metrics),
                        penalised_s=2 * limit if limit is not None else None,
                        refused=failure == REFUSED,
                        footnote=footnotes.number(_reason(repeats, failure.split(" (")[0])))
        if repeats.count < planned:
            return Cell(tuple((f"{MISSING} ({repeats.count}/{planned})", None)
                              for _ in metrics))
        figures: list[Figure] = []
        for metric in metrics:
            median = repeats.medians.get(metric.column)
            value_shown = None if median is None else median * metric.scale
            figures.append((NOT_REPORTED, None) if value_shown is None else
                           (format_figure(value_shown, metric), value_shown))
        search = repeats.medians.get(SEARCH_TIME)
        return Cell(tuple(figures), solved=True, search_s=search, penalised_s=search)


def _reason(cell: CellRuns, mark: str) -> Reason:
    """The reason of a failed cell shown ``mark`` (without ``(k/n)``): the message of its
    first wrong run, else of its first unfinished one (first line)."""
    run = cell.explaining
    assert run is not None  # a failed cell has one
    lines = run.message.strip().splitlines()
    return Reason(mark, lines[0].strip() if lines else "", run.time_limit, run.memory_limit_mb)


def table_columns(metrics: Sequence[str]) -> list[str]:
    """The figures whose medians tables of ``metrics`` read (``effort`` each statistic it
    may show, and the search time, which PAR-2 and the virtual best read)."""
    return _columns([_metric(name) for name in metrics], known_metrics())


def _columns(chosen: Sequence[Metric], known: Mapping[str, Metric]) -> list[str]:
    return sorted({*(metric.column for metric in measured(chosen, known)), SEARCH_TIME})


def _metric(name: str) -> Metric:
    if name == EFFORT:
        return PLACEHOLDER
    known = known_metrics()
    if name not in known:
        raise OptionError(f"unknown metric {name!r}; valid: {', '.join(metric_names())}")
    return known[name]


def _reached(repeats: CellRuns, metric: Metric) -> str | None:
    """``≥count`` for a count column of runs all stopped by a limit, else None.

    A run killed from outside (no ``solve_s`` stored) has no counts at all, so its cell
    keeps its status. The count shown is the lower median: one some run reached.
    """
    if not metric.integer or not repeats.stopped_with_counts:
        return None
    value = repeats.low_medians.get(metric.column)
    return NOT_REPORTED if value is None else f"≥{format_figure(value * metric.scale, metric)}"


def format_table(runs: Sequence[RunRecord], by: str = "viewpoint",
                 metrics: Sequence[str] = DEFAULT_METRICS, fmt: str = "text",
                 reached: bool = False, repeats: int | None = None,
                 planned_runs: int | None = None, width: int | None = None) -> str:
    """Build the tables of one campaign's ``runs`` and render them in ``fmt`` (see
    :func:`format_campaigns`)."""
    return format_campaigns([CampaignRuns("", runs, repeats, planned_runs)], by, metrics,
                            fmt, reached, width)


def format_campaigns(campaigns: Sequence[CampaignRuns], by: str = "viewpoint",
                     metrics: Sequence[str] = DEFAULT_METRICS, fmt: str = "text",
                     reached: bool = False, width: int | None = None) -> str:
    """The tables of the campaigns in ``fmt`` (text within ``width`` columns, if given),
    after a note for each campaign with fewer runs stored than it plans (see
    :func:`render_campaigns`)."""
    return render_campaigns(build_comparison(campaigns, by, metrics, reached), campaigns, fmt,
                            width)


def render_campaigns(tables: Sequence[ResultTable], campaigns: Sequence[CampaignRuns],
                     fmt: str = "text", width: int | None = None, page: bool = False) -> str:
    """Built ``tables`` in ``fmt`` (with ``page``, split to fit a printed page:
    :func:`printed`), after a note for each campaign with fewer runs stored than it
    plans, as after an interruption: instances and groups with no run stored yet are not
    in the tables."""
    text = printed(tables, fmt) if page else render(tables, fmt, width)
    notes = [f"partial: {f'{c.name}: ' if len(campaigns) > 1 else ''}{c.stored_runs()} of "
             f"{c.planned_runs} planned runs stored; run the spec again to finish"
             for c in campaigns
             if c.planned_runs is not None and c.stored_runs() < c.planned_runs]
    if not notes or fmt == "csv":
        return text
    prefix = {"text": "", "markdown": "> ", "latex": "% "}[fmt]
    return "".join(f"{prefix}{note}\n" for note in notes) + "\n" + text
