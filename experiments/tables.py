"""Course-style result tables: one row per instance, a column group per viewpoint.

Within each group come the chosen metrics (time in ms, backtracks, ...); repeats
of a run are summarised by their median. A run that did not finish shows why
(``timeout``, ``mem-out``, ``refused``, ``error``, ``wrong``), never a number. The dimensions
that are not the column groups (solver and heuristic when grouping by viewpoint)
each get a table of their own. Three closing rows follow the instances: ``total``
and ``shifted geo. mean`` over the cells that are numbers (the geometric mean of
``value + 1``, less 1, so that zeros and sub-millisecond times neither wipe it out
nor dominate it), and ``solved``, the instances whose runs all finished.

A cell with fewer runs stored than the campaign plans (after an interruption) shows
``·`` and how many are stored (``· (1/3)``), not the median of a part of its repeats,
unless a stored one failed, which it shows as a failure.

With ``reached``, a run stopped by its time or memory limit shows, in its count
columns (branches, conflicts, probes, ...), the count it had reached when stopped,
as a lower bound (``≥1075462``): how far the search got. Such cells stay out of
the closing rows.

>>> rows = [dict(instance="p1", instance_position=0, viewpoint="classic", solver="cp",
...              heuristic="input/min", status="solved", verdict="correct", solve_s=0.0042,
...              backtracks=7, repeat=0)]
>>> print(format_table(rows, fmt="markdown"))
### solver cp · heuristic input/min
<BLANKLINE>
| instance | classic time (ms) | classic backtracks |
|---|---:|---:|
| p1 | 4.2 | 7 |
| total | 4.2 | 7 |
| shifted geo. mean | 4.2 | 7 |
| solved | 1/1 |  |
<BLANKLINE>
"""

from __future__ import annotations

import csv
import io
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from puzzlelab.errors import OptionError
from puzzlelab.statistics import STATISTICS
from solvers.record import Status


@dataclass(frozen=True)
class Metric:
    """A table column: which run field, scaled how, under which header."""

    name: str
    header: str
    column: str
    scale: float = 1.0
    integer: bool = False


def known_metrics() -> dict[str, Metric]:
    """Every table metric, one per declared statistic (:mod:`puzzlelab.statistics`)."""
    return {s.metric: Metric(s.metric, s.header, s.name, s.table_scale, s.integer)
            for s in (STATISTICS.get(name) for name in STATISTICS) if s.metric}


BY_CHOICES = ("viewpoint", "heuristic", "solver")
FORMATS = ("text", "markdown", "latex", "csv")
FINISHED = tuple(status.value for status in Status if status.finished)
LIMITS = tuple(status.value for status in Status if status.stopped_by_limit)
#: how a cell shows a run that did not finish (the status itself, shortened to fit)
STATUS_LABELS = {status.value: status.value for status in Status if not status.finished
                 } | {Status.MEMORY_OUT.value: "mem-out"}
NO_FIGURE, MISSING = "–", "·"
SUMMARY_LABELS = ("total", "shifted geo. mean", "solved")


@dataclass(frozen=True)
class ResultTable:
    """One table: ``cells[instance][group]`` is a formatted string per metric."""

    title: str
    groups: tuple[str, ...]
    metrics: tuple[Metric, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    """(label, cells in group-major, metric-minor order): instance rows then summaries."""
    instance_count: int


def build_tables(rows: Sequence[Mapping[str, Any]], by: str = "viewpoint",
                 metrics: Sequence[str] = ("time", "backtracks"),
                 reached: bool = False, repeats: int | None = None) -> list[ResultTable]:
    """Group the runs into course-style tables (see the module docstring).

    ``repeats``: the runs the campaign plans per cell (the store knows it); a cell
    with fewer stored shows how many it has. None: every stored cell is complete.
    """
    if by not in BY_CHOICES:
        raise OptionError(f"unknown --by {by!r}; valid: {', '.join(BY_CHOICES)}")
    chosen = tuple(_metric(name) for name in metrics)
    if not chosen:
        raise OptionError(f"name at least one metric; valid: {', '.join(known_metrics())}")
    others = [d for d in ("solver", "heuristic", "viewpoint") if d != by]
    runs: dict[tuple[str, ...], dict[tuple[str, str], list[Mapping[str, Any]]]] = {}
    groups: dict[tuple[str, ...], dict[str, None]] = {}
    positions: dict[str, int] = {}
    for row in rows:
        table_key = tuple(str(row[d]) for d in others)
        runs.setdefault(table_key, {}).setdefault((row["instance"], row[by]), []).append(row)
        groups.setdefault(table_key, {})[row[by]] = None
        positions.setdefault(row["instance"], row.get("instance_position", len(positions)))
    instances = sorted(positions, key=lambda name: positions[name])
    return [_table(key, others, tuple(groups[key]), chosen, instances, cells, reached,
                   repeats or 1)
            for key, cells in runs.items()]


def _metric(name: str) -> Metric:
    known = known_metrics()
    if name not in known:
        raise OptionError(f"unknown metric {name!r}; valid: {', '.join(known)}")
    return known[name]


def _table(key: tuple[str, ...], others: list[str], groups: tuple[str, ...],
           metrics: tuple[Metric, ...], instances: list[str],
           runs: Mapping[tuple[str, str], list[Mapping[str, Any]]],
           reached: bool = False, planned: int = 1) -> ResultTable:
    title = " · ".join(f"{d} {v}" for d, v in zip(others, key))
    values: dict[tuple[str, str, str], float] = {}
    solved = dict.fromkeys(groups, 0)
    body = []
    for instance in instances:
        cells = []
        for group in groups:
            repeats = runs.get((instance, group), [])
            failure = _failure(repeats)
            partial = failure is None and len(repeats) < planned
            solved[group] += bool(repeats) and failure is None and not partial
            for metric in metrics:
                if not repeats:
                    cells.append(MISSING)
                elif failure is not None:
                    bound = _reached(repeats, metric) if reached else None
                    cells.append(bound or failure)
                elif partial:
                    cells.append(f"{MISSING} ({len(repeats)}/{planned})")
                else:
                    value = _median(repeats, metric)
                    cells.append(NO_FIGURE if value is None else _format(value, metric))
                    if value is not None:
                        values[(instance, group, metric.name)] = value
        body.append((instance, tuple(cells)))
    return ResultTable(title, groups, metrics,
                       tuple(body) + _summaries(groups, metrics, instances, values, solved),
                       len(instances))


def _failure(repeats: Sequence[Mapping[str, Any]]) -> str | None:
    """The label of a cell some of whose repeats did not finish correctly, else None."""
    failed = [r for r in repeats if r["status"] not in FINISHED or r.get("verdict") == "wrong"]
    if not failed:
        return None
    first = failed[0]
    label = "wrong" if first.get("verdict") == "wrong" else STATUS_LABELS.get(
        first["status"], first["status"])
    return label if len(failed) == len(repeats) else f"{label} ({len(failed)}/{len(repeats)})"


def _reached(repeats: Sequence[Mapping[str, Any]], metric: Metric) -> str | None:
    """``≥count`` for a count column of runs all stopped by a limit, else None.

    A run killed from outside (no ``solve_s`` stored) has no counts at all, so its cell
    keeps its status. The count shown is the lower median: one some run reached.
    """
    if not metric.integer or any(r["status"] not in LIMITS or r.get("solve_s") is None
                                 for r in repeats):
        return None
    value = _median(repeats, metric, low=True)
    return NO_FIGURE if value is None else f"≥{_format(value, metric)}"


def _median(repeats: Sequence[Mapping[str, Any]], metric: Metric,
            low: bool = False) -> float | None:
    """The median of the figures present; ``low``: the lower median, a value some run has."""
    present = [r[metric.column] for r in repeats if r.get(metric.column) is not None]
    if not present:
        return None
    return (statistics.median_low if low else statistics.median)(present) * metric.scale


def _format(value: float, metric: Metric) -> str:
    if metric.integer and abs(value - round(value)) < 1e-9:
        return str(round(value))
    return f"{value:.1f}"


def _summaries(groups: tuple[str, ...], metrics: tuple[Metric, ...], instances: list[str],
               values: Mapping[tuple[str, str, str], float],
               solved: Mapping[str, int]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    total, geometric, counts = [], [], []
    for group in groups:
        for index, metric in enumerate(metrics):
            numbers = [values[(i, group, metric.name)] for i in instances
                       if (i, group, metric.name) in values]
            total.append(_format(sum(numbers), metric) if numbers else NO_FIGURE)
            geometric.append(_format(_geometric_mean(numbers), metric) if numbers
                             else NO_FIGURE)
            counts.append(f"{solved[group]}/{len(instances)}" if index == 0 else "")
    return tuple(zip(SUMMARY_LABELS, (tuple(total), tuple(geometric), tuple(counts))))


def _geometric_mean(numbers: Sequence[float], shift: float = 1.0) -> float:
    """The shifted geometric mean: ``exp(mean(log(v + shift))) - shift``."""
    return math.exp(sum(math.log(n + shift) for n in numbers) / len(numbers)) - shift


def render(tables: Sequence[ResultTable], fmt: str = "text") -> str:
    """The tables as ``text``, ``markdown``, ``latex`` or ``csv``."""
    if fmt not in FORMATS:
        raise OptionError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    if fmt == "csv":
        return _csv(tables)
    renderer = {"text": _text, "markdown": _markdown, "latex": _latex}[fmt]
    return "\n".join(renderer(table) for table in tables)


def format_table(rows: Sequence[Mapping[str, Any]], by: str = "viewpoint",
                 metrics: Sequence[str] = ("time", "backtracks"), fmt: str = "text",
                 reached: bool = False, repeats: int | None = None,
                 planned_runs: int | None = None) -> str:
    """Build the tables of ``rows`` and render them in ``fmt``, after a note when fewer
    runs are stored than the campaign plans (``planned_runs``), as after an interruption:
    instances and groups with no run stored yet are not in the tables."""
    text = render(build_tables(rows, by, metrics, reached, repeats), fmt)
    if planned_runs is None or len(rows) >= planned_runs or fmt == "csv":
        return text
    note = (f"partial: {len(rows)} of {planned_runs} planned runs stored; run the spec "
            f"again to finish")
    return {"text": note, "markdown": f"> {note}", "latex": f"% {note}"}[fmt] + "\n\n" + text


def _headers(table: ResultTable) -> list[str]:
    return [f"{g} {m.header}" for g in table.groups for m in table.metrics]


def _text(table: ResultTable) -> str:
    width = len(table.metrics)
    label_width = max(len("instance"), *(len(label) for label, _ in table.rows))
    columns = [max(len(m.header), *(len(cells[i]) for _, cells in table.rows))
               for i, m in enumerate(table.metrics * len(table.groups))]
    spans = []
    for g, group in enumerate(table.groups):
        span = sum(columns[g * width:(g + 1) * width]) + 2 * (width - 1)
        if len(group) > span:
            columns[(g + 1) * width - 1] += len(group) - span
            span = len(group)
        spans.append(group.center(span))
    lines = [table.title, " " * label_width + "  " + "  ".join(spans),
             "instance".ljust(label_width) + "  " + "  ".join(
                 m.header.rjust(columns[i]) for i, m in
                 enumerate(table.metrics * len(table.groups)))]
    rule = "-" * len(lines[-1])
    lines.insert(1, rule)
    lines.append(rule)
    for index, (label, cells) in enumerate(table.rows):
        if index == table.instance_count:
            lines.append(rule)
        lines.append(label.ljust(label_width) + "  " + "  ".join(
            cell.rjust(columns[i]) for i, cell in enumerate(cells)))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _markdown(table: ResultTable) -> str:
    lines = [f"### {table.title}", "", "| instance | " + " | ".join(_headers(table)) + " |",
             "|---|" + "---:|" * len(_headers(table))]
    lines += ["| " + " | ".join((label, *cells)) + " |" for label, cells in table.rows]
    return "\n".join(lines) + "\n"


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                 "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                 "^": r"\textasciicircum{}", "≥": r"$\geq$"}


def latex_escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped: ``a_b`` becomes ``a\_b``."""
    return "".join(LATEX_SPECIAL.get(char, char) for char in text)


def _latex(table: ResultTable) -> str:
    width = len(table.metrics)
    spans = " & ".join(rf"\multicolumn{{{width}}}{{c}}{{{latex_escape(g)}}}"
                       for g in table.groups)
    rules = " ".join(rf"\cmidrule(lr){{{2 + g * width}-{1 + (g + 1) * width}}}"
                     for g in range(len(table.groups)))
    metric_headers = " & ".join(latex_escape(m.header) for _ in table.groups
                                for m in table.metrics)
    lines = [f"% {table.title}", r"\begin{tabular}{l" + "r" * width * len(table.groups) + "}",
             r"\toprule", f" & {spans} \\\\", rules, f"instance & {metric_headers} \\\\",
             r"\midrule"]
    for index, (label, cells) in enumerate(table.rows):
        if index == table.instance_count:
            lines.append(r"\midrule")
        lines.append(" & ".join(latex_escape(c) for c in (label, *cells)) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def _csv(tables: Sequence[ResultTable]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header: list[str] | None = None
    for table in tables:
        if _headers(table) != header:
            if header is not None:
                writer.writerow([])
            header = _headers(table)
            writer.writerow(["table", "instance", *header])
        for label, cells in table.rows:
            # a cell with runs still to come is empty: no figure to read yet
            writer.writerow([table.title, label,
                             *("" if c.startswith(MISSING) else c for c in cells)])
    return buffer.getvalue()
