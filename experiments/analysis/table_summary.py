"""The closing rows of a table: what each column group solved, and figures that compare
the same work.

Totals and means are taken over the instances every group of the table solved
(the row says how many), so a group that gave up on the hard instances does not
look fastest. A refused cell (``n/a``: the viewpoint would not build its model) is
no failed search: it is left out of its group's solved count (the cell says how
many were), and an instance some group refused is left out of PAR-2 and the
virtual best, which compare every group on the same instances. PAR-2 takes every
other instance, an unsolved one at twice its time limit.
The virtual best is the fastest group on each instance: its row counts, under each
group, the instances on which that group is it, and a note says what it solves.
Where a campaign is compared with a first one, each figure has a ratio column.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from experiments.analysis.table_format import MISSING, NOT_REPORTED, REFUSED, UNPLANNED, Metric
from puzzlelab.wording import counted

Figure = tuple[str, float | None]
"""A cell's text and the number behind it (None: no number, so no ratio either)."""


@dataclass(frozen=True)
class Cell:
    """One instance under one column group: its figures and what it solved."""

    figures: tuple[Figure, ...]  # one per metric
    planned: bool = True
    solved: bool = False
    search_s: float | None = None
    """The median search time of a solved cell, in seconds."""
    penalised_s: float | None = None
    """Its PAR-2 time: the search time when solved, twice the limit when not, None while
    runs are still to come."""
    refused: bool = False
    """Every repeat was refused (``n/a``): no search ran."""
    footnote: int | None = None
    """The number of the note under the table that says why the cell shows its mark."""


@dataclass(frozen=True)
class Group:
    """A column group: its label, and the group its ratios divide by (None: no ratios)."""

    label: str
    base: int | None = None


def format_figure(value: float, metric: Metric) -> str:
    """A figure as the tables print it: counts whole, the rest with one decimal."""
    if metric.integer and abs(value - round(value)) < 1e-9:
        return str(round(value))
    return f"{value:.1f}"


def format_ratio(value: float | None, base: float | None) -> str:
    """``value / base`` ("" where either is missing): two decimals, two significant
    digits below 0.1, none from 100 on.

    >>> [format_ratio(v, 10.0) for v in (5.0, 0.012, 1500.0, None)]
    ['0.50', '0.0012', '150', '']
    """
    if value is None or base is None:
        return ""
    if base == 0:
        return "1.00" if value == 0 else "∞"
    ratio = value / base
    if ratio >= 100:
        return f"{ratio:.0f}"
    return f"{ratio:.2f}" if ratio >= 0.1 or ratio == 0 else f"{ratio:.2g}"


def columns(groups: Sequence[Group], figures: Mapping[int, Sequence[Figure]]) -> tuple[str, ...]:
    """One row's cells in column order: each group's figures, each followed by its ratio
    to the base group's where the group has one."""
    cells: list[str] = []
    for index, group in enumerate(groups):
        for position, (text, value) in enumerate(figures[index]):
            cells.append(text)
            if group.base is not None:
                cells.append(format_ratio(value, figures[group.base][position][1]))
    return tuple(cells)


def summary_rows(groups: Sequence[Group], instances: Sequence[str],
                 cells: Mapping[tuple[str, int], Cell], metrics: Sequence[Metric],
                 time_index: int | None) -> tuple[list[tuple[str, tuple[str, ...]]], list[str]]:
    """The closing rows, and the note on the virtual best (when time is a column)."""
    active = [g for g in range(len(groups)) if any(cells[(i, g)].planned for i in instances)]
    common = [i for i in instances if all(cells[(i, g)].solved for g in active)]
    planned = [i for i in instances if all(cells[(i, g)].planned for g in active)]
    everywhere = [i for i in planned if not any(cells[(i, g)].refused for g in active)]
    refused = len(planned) - len(everywhere)
    rows = [("solved", _solved(groups, instances, cells, metrics, active)),
            (f"total ({len(common)} solved by all)",
             _over_common(groups, common, cells, metrics, active, sum)),
            (f"geo. mean ({len(common)} solved by all)",
             _over_common(groups, common, cells, metrics, active, shifted_geometric_mean))]
    if time_index is None or not planned:
        return [(label, columns(groups, figures)) for label, figures in rows], []
    time = metrics[time_index]
    left_out = f", {refused} {REFUSED} out" if refused else ""
    rows.append((f"PAR-2 ({counted(len(everywhere), 'instance')}{left_out})", _only(
        groups, metrics, time_index,
        {g: _par2(everywhere, cells, g, time) for g in range(len(groups))})))
    best = _fastest(everywhere, cells, active)
    rows.append(("virtual best picks", _only(groups, metrics, time_index, {
        g: (str(sum(g in best[i] for i in everywhere)), None) if g in active else (UNPLANNED, None)
        for g in range(len(groups))})))
    return ([(label, columns(groups, figures)) for label, figures in rows],
            [_virtual_best(everywhere, common, cells, active, time, refused)])


def _solved(groups: Sequence[Group], instances: Sequence[str],
            cells: Mapping[tuple[str, int], Cell], metrics: Sequence[Metric],
            active: Sequence[int]) -> dict[int, list[Figure]]:
    """Solved of the planned instances the group did not refuse: ``2/3 (1 n/a)``."""
    figures: dict[int, list[Figure]] = {}
    for g in range(len(groups)):
        planned = [i for i in instances if cells[(i, g)].planned]
        refused = sum(cells[(i, g)].refused for i in planned)
        solved = sum(cells[(i, g)].solved for i in planned)
        first = (f"{solved}/{len(planned) - refused}" + (f" ({refused} {REFUSED})" if refused
                                                          else "")) if g in active else UNPLANNED
        figures[g] = [(first, None), *[("", None) for _ in metrics[1:]]]
    return figures


def _over_common(groups: Sequence[Group], common: Sequence[str],
                 cells: Mapping[tuple[str, int], Cell], metrics: Sequence[Metric],
                 active: Sequence[int], combine: Callable[[Sequence[float]], float]
                 ) -> dict[int, list[Figure]]:
    """``combine`` (sum or a mean) of each metric over the instances all groups solved."""
    figures: dict[int, list[Figure]] = {}
    for g in range(len(groups)):
        figures[g] = []
        for m, metric in enumerate(metrics):
            values = [cells[(i, g)].figures[m][1] for i in common]
            if g not in active:
                figures[g].append((UNPLANNED, None))
            elif not common:
                figures[g].append(("", None))
            elif any(v is None for v in values):
                figures[g].append((NOT_REPORTED, None))
            else:
                value = combine([v for v in values if v is not None])
                figures[g].append((format_figure(value, metric), value))
    return figures


def _only(groups: Sequence[Group], metrics: Sequence[Metric], index: int,
          shown: Mapping[int, Figure]) -> dict[int, list[Figure]]:
    """A row with a figure in one metric's column of each group, the others empty."""
    return {g: [shown[g] if m == index else ("", None) for m in range(len(metrics))]
            for g in range(len(groups))}


def _par2(instances: Sequence[str], cells: Mapping[tuple[str, int], Cell], group: int,
          time: Metric) -> Figure:
    penalties = [cells[(i, group)].penalised_s for i in instances]
    if not instances:  # every instance refused by some group
        return "", None
    if not any(cells[(i, group)].planned for i in instances):
        return UNPLANNED, None
    if any(p is None for p in penalties):
        return MISSING, None
    value = sum(p for p in penalties if p is not None) / len(penalties) * time.scale
    return format_figure(value, time), value


def _fastest(instances: Sequence[str], cells: Mapping[tuple[str, int], Cell],
             active: Sequence[int]) -> dict[str, set[int]]:
    """The groups with the least search time on each instance (ties: all of them)."""
    best: dict[str, set[int]] = {}
    for instance in instances:
        times: dict[int, float] = {}
        for g in active:
            search = cells[(instance, g)].search_s
            if cells[(instance, g)].solved and search is not None:
                times[g] = search
        fastest = min(times.values(), default=None)
        best[instance] = {g for g, t in times.items() if t == fastest}
    return best


def _virtual_best(instances: Sequence[str], common: Sequence[str],
                  cells: Mapping[tuple[str, int], Cell], active: Sequence[int],
                  time: Metric, refused: int) -> str:
    """What the virtual best solves, its PAR-2 and its total over the commonly solved
    (``refused``: instances left out, some group having refused them)."""
    solved = sum(any(cells[(i, g)].solved for g in active) for i in instances)
    figures = []
    penalties = [[cells[(i, g)].penalised_s for g in active] for i in instances]
    if instances and all(p is not None for row in penalties for p in row):
        mean = sum(min(p for p in row if p is not None) for row in penalties) / len(instances)
        figures.append(f"PAR-2 {format_figure(mean * time.scale, time)}")
    if common:
        total = sum(min(cells[(i, g)].search_s or 0.0 for g in active) for i in common)
        figures.append(f"total {format_figure(total * time.scale, time)} on the "
                       f"{len(common)} solved by all")
    over = " instances no group refused" if refused else ""
    return (f"Virtual best (the fastest group on each instance): solves {solved}/"
            f"{len(instances)}{over}"
            + (f"; {time.header}: " + ", ".join(figures) if figures else "") + ".")


def shifted_geometric_mean(numbers: Sequence[float], shift: float = 1.0) -> float:
    """``exp(mean(log(v + shift))) - shift``: zeros and tiny figures neither wipe the
    mean out nor dominate it.

    >>> round(shifted_geometric_mean([0.0, 3.0]), 3)
    1.0
    """
    return math.exp(sum(math.log(n + shift) for n in numbers) / len(numbers)) - shift
