"""The report's effort figures: a box per group of the search effort of its solved cells,
one statistic to a figure.

Solvers count effort differently: OR-tools' CP solver and Choco count backtracks, CP-SAT
only branches. A box mixing the two, or a figure titled "backtracks" whose boxes show
branches, compares what does not compare; so each solver is measured by the first of
:data:`~experiments.analysis.report_data.EFFORT_STATISTICS` that all its solved cells
report, and the solvers measured alike share a figure, its title and axis naming the
statistic and the solvers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt

from experiments.analysis.figure_style import (
    COLOURS,
    HATCHES,
    HEIGHT,
    WIDTH,
    DrawnFigure,
    log_scale,
    save,
)
from experiments.analysis.report_data import PlotCell, groups_of
from puzzlelab.statistics import EFFORT_STATISTICS


@dataclass(frozen=True)
class EffortPlan:
    """One effort figure: the statistic it draws and the solvers whose cells it holds."""

    statistic: str
    solvers: tuple[str, ...]


@dataclass(frozen=True)
class EffortPlans:
    """The effort figures of a campaign, and the solvers left out of every one of them
    (their solved cells report none of the statistics)."""

    figures: tuple[EffortPlan, ...]
    unmeasured: tuple[str, ...]


def effort_plans(cells: Sequence[PlotCell]) -> EffortPlans:
    """Each solver with solved cells measured by the first statistic all of them report;
    one figure per statistic, in the order of :data:`EFFORT_STATISTICS`.

    >>> from experiments.analysis.report_data import PlotCell
    >>> cells = [PlotCell("classic", "", "lambda", solver, None,
    ...                   figures={"backtracks": backtracks, "branches": 9.0})
    ...          for solver, backtracks in (("cp", 4.0), ("cpsat", None))]
    >>> [(plan.statistic, plan.solvers) for plan in effort_plans(cells).figures]
    [('backtracks', ('cp',)), ('branches', ('cpsat',))]
    """
    chosen: dict[str, list[str]] = {}
    unmeasured = []
    for solver in dict.fromkeys(cell.solver for cell in cells):
        solved = [c for c in cells if c.solver == solver and c.solved]
        if not solved:
            continue
        statistic = next((name for name in EFFORT_STATISTICS
                          if all(c.figures.get(name) is not None for c in solved)), None)
        if statistic is None:
            unmeasured.append(solver)
        else:
            chosen.setdefault(statistic, []).append(solver)
    return EffortPlans(tuple(EffortPlan(name, tuple(chosen[name]))
                             for name in EFFORT_STATISTICS if name in chosen),
                       tuple(unmeasured))


def effort_title(plan: EffortPlan, by: str) -> str:
    """``Backtracks per viewpoint (cp, choco)``: the statistic drawn, and whose."""
    return f"{plan.statistic.capitalize()} per {by} ({', '.join(plan.solvers)})"


def effort(cells: Sequence[PlotCell], plan: EffortPlan, others: Sequence[EffortPlan],
           folder: Path, name: str, by: str) -> DrawnFigure:
    """A box per group of ``plan.statistic`` over its solved cells on ``plan.solvers``;
    ``others`` are the campaign's other effort figures, which the caption points to."""
    mine = [c for c in cells if c.solver in plan.solvers]
    data, labels = [], []
    for group in groups_of(mine):
        values = [float(c.figures[plan.statistic] or 0) + 1 for c in mine
                  if c.group == group and c.solved]
        data.append(values or [float("nan")])
        labels.append(group if values else f"{group} (none solved)")
    figure, axes = plt.subplots(figsize=(WIDTH, HEIGHT))
    boxes = axes.boxplot(data, patch_artist=True, widths=0.6,
                         flierprops={"marker": ".", "markersize": 3})
    for index, box in enumerate(boxes["boxes"]):
        box.set_facecolor(COLOURS[index % len(COLOURS)] + "55")
        box.set_hatch(HATCHES[index % len(HATCHES)])
    axes.set_xticks(range(1, len(labels) + 1), labels, rotation=30 if len(labels) > 3 else 0,
                    ha="right" if len(labels) > 3 else "center", fontsize=7)
    log_scale(axes, "y")  # a plan has solved cells: some box holds a figure
    axes.set_ylabel(f"{plan.statistic} + 1, log")
    figure.tight_layout()
    apart = "".join(f" The {other.statistic} of {_listed(other.solvers)} are drawn apart, "
                    f"in their own figure." for other in others)
    why = ("" if plan.statistic == EFFORT_STATISTICS[0] else
           f" {_listed(plan.solvers)} report{'s' if len(plan.solvers) == 1 else ''} no "
           f"{EFFORT_STATISTICS[0]}.")
    caption = (f"Search effort per {by} over its solved cells on {_listed(plan.solvers)}: "
               f"{plan.statistic} + 1 on a log scale; boxes span the quartiles, the line is "
               f"the median. Unsolved cells are not counted.{why}{apart}")
    return save(figure, folder, name, effort_title(plan, by), caption)


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
