"""The report's figures, drawn with matplotlib in the style of
:mod:`experiments.analysis.figure_style`, each written as SVG (HTML, Markdown) and PDF
(LaTeX): a cactus plot, two instance-by-instance scatter plots and the effort figures
(:mod:`experiments.analysis.report_effort`).

A cell that was not solved is never drawn as a number: the scatter plots put it on a
border line beyond every figure, labelled with what it is (``t/o``, or ``unsolved``
where other failures share it). The axes fit the figures of the solved cells; a figure
with nothing to plot (no cell solved, one group only) is left out, and the report says
why in one line.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from experiments.analysis.figure_style import (
    COLOURS,
    HEIGHT,
    WIDTH,
    DrawnFigure,
    log_scale,
    look,
    save,
    styled,
)
from experiments.analysis.report_data import (
    EFFORT_STATISTICS,
    PlotCell,
    groups_of,
    is_timeout,
)
from experiments.analysis.report_effort import effort, effort_plans

LIMIT_REACH = 20
"""The cactus plot draws the time limit when it is at most this many times the slowest
solved cell's time: the axes fit the data, not a limit far above it."""


def planned_figures(cells: Sequence[PlotCell], folder: Path, prefix: str, by: str
                    ) -> tuple[list[Callable[[], DrawnFigure]], list[str]]:
    """Every figure of one campaign that has something to plot, as a call that draws it
    (files named ``prefix-<figure>``; each may be drawn in a process of its own), and a
    line for each reason some were left out, naming them."""
    drawers: list[Callable[[], DrawnFigure]] = []
    absent: dict[str, list[str]] = {}
    groups = groups_of(cells)
    if any(c.solved and c.time_s is not None for c in cells):
        drawers.append(styled(functools.partial(cactus, cells, folder, f"{prefix}-cactus",
                                                 by)))
    else:
        absent.setdefault(_none_solved(cells), []).append("the cactus plot")
    pair = compared_pair(cells)
    if pair is None:
        absent.setdefault(f"one {by} only ({', '.join(groups)}), none to compare it with",
                          []).append("the scatter plots")
    else:
        mine = [c for c in cells if c.group in pair]
        for metric in ("time", "backtracks"):
            if any(c.solved and _value(c, metric) is not None for c in mine):
                drawers.append(styled(functools.partial(
                    scatter, cells, pair, metric, folder, f"{prefix}-scatter-{metric}")))
                continue
            why = (_none_solved(mine) if not any(c.solved for c in mine)
                   else f"no solved cell of {pair[0]} or {pair[1]} has {metric}")
            absent.setdefault(why, []).append(f"the {metric} scatter plot")
    plans = effort_plans(cells)
    for plan in plans.figures:
        others = [other for other in plans.figures if other != plan]
        drawers.append(styled(functools.partial(
            effort, cells, plan, others, folder,
            f"{prefix}-effort" + (f"-{plan.statistic}" if others else ""), by)))
    if not any(c.solved for c in cells):
        absent.setdefault(_none_solved(cells), []).append("the effort plot")
    elif plans.unmeasured:
        absent.setdefault(f"their solved cells do not all report "
                          f"{' or '.join(EFFORT_STATISTICS)}", []).append(
            f"the effort of {_listed(plans.unmeasured)}" if plans.figures
            else "the effort plot")
    return drawers, [f"{_listed(figures)}: {why}" for why, figures in absent.items()]


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _none_solved(cells: Sequence[PlotCell]) -> str:
    """Why a figure of solved cells has nothing to plot: ``no cell was solved (2 n/a)``."""
    marks = [c.mark for c in cells if c.mark is not None]
    counts = ", ".join(f"{marks.count(m)} {m}" for m in dict.fromkeys(marks))
    return "no cell was solved" + (f" ({counts})" if counts else "")


def cactus(cells: Sequence[PlotCell], folder: Path, name: str, by: str) -> DrawnFigure:
    """Cells solved against the search time each needed, one line per group."""
    figure, axes = plt.subplots(figsize=(WIDTH, HEIGHT))
    groups = groups_of(cells)
    plotted = False
    for index, group in enumerate(groups):
        times = sorted(max(c.time_s or 0.0, 1e-6) * 1000 for c in cells
                       if c.group == group and c.solved)
        plotted = plotted or bool(times)
        axes.plot(range(1, len(times) + 1), times, label=group, markersize=4,
                  markevery=max(1, len(times) // 12), **look(index))
    limits = [c.time_limit for c in cells if c.time_limit is not None]
    slowest = max((max(c.time_s or 0.0, 1e-6) * 1000 for c in cells if c.solved), default=0.0)
    # the limit line only where the points come near it: far above, it would squash them
    limit_drawn = bool(limits) and max(limits) * 1000 <= LIMIT_REACH * slowest
    if limit_drawn:
        axes.axhline(max(limits) * 1000, color="grey", linewidth=0.8, linestyle=(0, (1, 3)))
        axes.annotate("time limit", (0.01, max(limits) * 1000), xycoords=("axes fraction",
                      "data"), va="bottom", fontsize=7, color="grey")
    total = len({(c.setting, c.instance) for c in cells})
    if plotted:  # a log scale needs a point: with none solved, the axes stay empty
        log_scale(axes, "y")
    axes.set_xlabel(f"cells solved (of {total} per group)")
    axes.set_ylabel("search time (ms, log)")
    axes.legend(fontsize=7, ncol=2 if len(groups) > 6 else 1, frameon=False)
    unsolved = sum(not c.solved for c in cells)
    caption = (f"Cactus plot: for each {by}, its solved cells (an instance under one setting "
               f"of the other dimensions) sorted by search time; further right and lower is "
               f"better. {unsolved} unsolved cells (timeouts, refusals, failures, repeats "
               f"to come) are not points: a line stops where its group stops solving."
               + (f" The time limit ({max(limits):g} s) is far above every point: not drawn."
                  if limits and not limit_drawn else ""))
    return save(figure, folder, name, f"Cactus plot by {by}", caption)


def compared_pair(cells: Sequence[PlotCell]) -> tuple[str, str] | None:
    """The first group, and the other group with the lowest PAR-2 search time: the
    baseline and its strongest challenger (None with one group)."""
    groups = groups_of(cells)
    if len(groups) < 2:
        return None

    def par2(group: str) -> float:
        mine = [c for c in cells if c.group == group]
        return sum((c.time_s or 0.0) if c.solved else 2 * (c.time_limit or 0.0)
                   for c in mine) / max(1, len(mine))

    return groups[0], min(groups[1:], key=par2)


def _value(cell: PlotCell, metric: str) -> float | None:
    if metric == "time":
        return None if cell.time_s is None else max(cell.time_s * 1000, 1e-3)
    value = cell.figures.get(metric)
    return None if value is None else value + 1


@dataclass(frozen=True)
class ScatterPoints:
    """Where the scatter plot puts each pair of cells: both solved at their figures, the
    others on the border of the group that did not solve (by what they are)."""

    low: float
    border: float
    both: list[tuple[float, float]]
    marks: dict[str, list[tuple[float, float]]]
    """``t/o`` (every unsolved cell of the pair ran out of time) or ``unsolved``."""
    unreported: int
    """Pairs both solved where a group has no such figure: left out."""


def scatter_points(cells: Sequence[PlotCell], pair: tuple[str, str],
                   metric: str) -> ScatterPoints:
    """The points of the scatter plot of ``pair`` on ``metric`` (time or backtracks)."""
    first, second = pair
    by_key = {(c.group, c.setting, c.instance): c for c in cells}
    keys = list(dict.fromkeys((c.setting, c.instance) for c in cells))
    points = [(by_key[(first, *k)], by_key[(second, *k)]) for k in keys
              if (first, *k) in by_key and (second, *k) in by_key]
    # the axes fit the figures of solved cells (an unsolved one has none): from a little
    # below the least to the border line a little above the greatest
    values = [v for a, b in points for c in (a, b) if c.solved
              for v in (_value(c, metric),) if v is not None]
    low = min(values, default=1.0) / 1.5
    border = max(values, default=10.0) * 2
    both, unreported = [], 0
    marks: dict[str, list[tuple[float, float]]] = {}
    for a, b in points:
        x, y = _value(a, metric), _value(b, metric)
        if a.solved and b.solved:
            if x is None or y is None:
                unreported += 1
            else:
                both.append((x, y))
            continue
        label = ("t/o" if all(is_timeout(c) for c in (a, b) if not c.solved)
                 else "unsolved")
        marks.setdefault(label, []).append((border if not a.solved else (x or low),
                                            border if not b.solved else (y or low)))
    return ScatterPoints(low, border, both, marks, unreported)


def scatter(cells: Sequence[PlotCell], pair: tuple[str, str], metric: str, folder: Path,
            name: str) -> DrawnFigure:
    """The two groups of ``pair`` instance by instance on ``metric`` (time or backtracks),
    log-log with the diagonal; a cell one group did not solve sits on that group's border."""
    first, second = pair
    placed = scatter_points(cells, pair, metric)
    unit = _scatter_unit(metric)
    caption = (f"{second} against {first}, one point per instance and setting, {unit} on "
               f"log scales; below the diagonal {second} is better. Cells a group did not "
               f"solve lie on its dotted border line, marked t/o (time limit) or unsolved "
               f"(refused, failed, wrong or repeats to come), never at a figure"
               + (f"; {placed.unreported} pairs without a reported {metric} are left out"
                  if placed.unreported else "") + ".")
    return save(scatter_figure(placed, pair, metric), folder, name,
                f"{second} against {first}: {metric}", caption)


def _scatter_unit(metric: str) -> str:
    return "search time (ms)" if metric == "time" else f"{metric} + 1"


def scatter_figure(placed: ScatterPoints, pair: tuple[str, str], metric: str) -> Figure:
    """The scatter plot of ``placed``, its legend above the axes: inside them, wherever it
    went, it would hide points."""
    first, second = pair
    low, border, both, marks = placed.low, placed.border, placed.both, placed.marks
    figure, axes = plt.subplots(figsize=(WIDTH * 0.75, WIDTH * 0.75), layout="constrained")
    if both:
        # plot, not scatter: one marker defined once in the SVG, however many points
        axes.plot([x for x, _ in both], [y for _, y in both], linestyle="none", marker="o",
                  markersize=3.5, markerfacecolor="none", color=COLOURS[0], label="both solved")
    for index, (label, where) in enumerate(sorted(marks.items())):
        axes.plot([x for x, _ in where], [y for _, y in where], linestyle="none",
                  marker="x^"[index % 2], markersize=4.5, color=COLOURS[1 + index],
                  label=f"{label} (on the border)", clip_on=False)
    axes.plot([low, border], [low, border], color="grey", linewidth=0.8, linestyle="--")
    for edge in ("x", "y"):
        line = axes.axvline if edge == "x" else axes.axhline
        line(border, color="grey", linewidth=0.6, linestyle=":")
    log_scale(axes, "x", "y")
    axes.set_xlim(low, border * 1.6)
    axes.set_ylim(low, border * 1.6)
    unit = _scatter_unit(metric)
    axes.set_xlabel(f"{first}: {unit}")
    axes.set_ylabel(f"{second}: {unit}")
    axes.text(border, low, " unsolved ", rotation=90, va="bottom", ha="right", fontsize=7,
              color="grey")
    axes.text(low, border, " unsolved", va="bottom", ha="left", fontsize=7, color="grey")
    if both or marks:
        figure.legend(fontsize=7, frameon=False, loc="outside upper center",
                      ncol=1 + len(marks))
    return figure
