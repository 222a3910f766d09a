"""What a report reads from a results database for its plots and summary lines: one
figure per instance and column group (the campaign's facts: :mod:`report_facts`).

The tables come from :mod:`experiments.analysis.tables`; this module gives the plots
the same view of the runs: a cell is one instance under one group (a viewpoint, heuristic or
solver, as ``by`` says) and one setting of the other dimensions, its figures are the
medians of its repeats, and a cell some of whose repeats did not finish correctly
shows the same mark as in the tables (``t/o``, ``n/a``, ``WRONG``, ...), never a number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from experiments.analysis.cell_runs import GROUP_FIELDS, SEARCH_TIME, CellRuns, failure_mark
from experiments.analysis.table_format import MISSING, REFUSED, TIMEOUT
from experiments.analysis.tables import CampaignRuns
from experiments.campaign.spec import GROUPINGS
from puzzlelab.errors import OptionError
from puzzlelab.statistics import EFFORT_STATISTICS
from puzzlelab.wording import counted


@dataclass(frozen=True)
class PlotCell:
    """One instance under one group and one setting of the other dimensions."""

    group: str
    setting: str
    instance: str
    solver: str
    """The solver of the cell's runs: solvers count effort differently."""
    mark: str | None
    """None: solved (every repeat finished correctly); else the table's mark."""
    time_s: float | None = None
    figures: Mapping[str, float | None] = field(default_factory=dict)
    time_limit: float | None = None

    @property
    def solved(self) -> bool:
        """Every repeat finished correctly, so the cell has figures."""
        return self.mark is None


def setting_of(group: Sequence[str], by: str) -> str:
    """The title of the table a cell is in: the dimensions (of its viewpoint, solver and
    heuristic) that are not the column groups."""
    dimensions = dict(zip(GROUP_FIELDS, group))
    return " · ".join(f"{d} {dimensions[d]}" for d in ("solver", "heuristic", "viewpoint")
                      if d != by)


def plot_cells(runs: CampaignRuns, by: str) -> list[PlotCell]:
    """Every cell of the campaign's tables, in grid order, with its mark or its figures
    (the same cells as the tables', read from the runs or aggregated in the store)."""
    if by not in GROUPINGS:
        raise OptionError(f"unknown --by {by!r}; valid: {', '.join(GROUPINGS)}")
    made = runs.cells(EFFORT_STATISTICS)
    planned = runs.repeats or 1
    where = {name: index for index, name in enumerate(GROUP_FIELDS)}
    return [_cell(group[where[by]], setting_of(group, by), instance, group[where["solver"]],
                  cell, planned)
            for (group, instance), cell in made.cells.items()]


def _cell(group: str, setting: str, instance: str, solver: str, repeats: CellRuns,
          planned: int) -> PlotCell:
    limit = repeats.time_limit
    mark = failure_mark(repeats)
    if mark is not None:
        return PlotCell(group, setting, instance, solver, mark.split(" (")[0],
                        time_limit=limit)
    if repeats.count < planned:
        return PlotCell(group, setting, instance, solver,
                        f"{MISSING} ({repeats.count}/{planned})", time_limit=limit)
    figures = {name: _float(repeats.medians.get(name)) for name in EFFORT_STATISTICS}
    return PlotCell(group, setting, instance, solver, None,
                    _float(repeats.medians.get(SEARCH_TIME)), figures, limit)


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def groups_of(cells: Sequence[PlotCell]) -> list[str]:
    """The column groups, in grid order."""
    return list(dict.fromkeys(cell.group for cell in cells))


def summary_line(cells: Sequence[PlotCell], setting: str) -> str:
    """One sentence on one table, stated from its numbers: which group solved most (of the
    instances it did not refuse, as the table counts), which was fastest in total and
    which needed the least effort (backtracks, else branches), naming the instances those
    totals are over."""
    mine = [c for c in cells if c.setting == setting]
    groups = groups_of(mine)
    if not mine:
        return ""
    solved = {g: sum(c.solved for c in mine if c.group == g) for g in groups}
    refused = {g: sum(c.mark == REFUSED for c in mine if c.group == g) for g in groups}
    tried = {g: sum(c.group == g for c in mine) - refused[g] for g in groups}

    def out_of(group: str) -> str:
        return f"{solved[group]}/{tried[group]}" + (f", {refused[group]} {REFUSED}"
                                                    if refused[group] else "")

    best = max(solved.values())
    leaders = [g for g in groups if solved[g] == best]
    if len(leaders) < len(groups):
        parts = [f"{_names(leaders)} solved most ({out_of(leaders[0])})"]
    elif len(set(tried.values())) > 1:  # the same count out of different numbers tried
        parts = [f"every group solved {best} (" + ", ".join(f"{g} {out_of(g)}" for g in groups)
                 + ")"]
    else:
        parts = [f"every group solved {best} of its {counted(tried[groups[0]], 'instance')}"
                 + (" not refused" if any(refused.values()) else "")]
    instances = list(dict.fromkeys(c.instance for c in mine))
    by_key = {(c.group, c.instance): c for c in mine}
    common = [i for i in instances
              if all((g, i) in by_key and by_key[(g, i)].solved for g in groups)]
    if common:
        over = (f"the {counted(len(common), 'instance')} every group solved"
                if len(groups) > 1 else f"its {counted(len(common), 'solved instance')}")
        totals = {g: sum(by_key[(g, i)].time_s or 0.0 for i in common) for g in groups}
        fastest = min(totals, key=lambda g: totals[g])
        parts.append(f"fastest in total over {over}: {fastest} "
                     f"({totals[fastest] * 1000:.1f} ms)")
        for statistic in EFFORT_STATISTICS:  # the first some group counts on all of them
            effort = {g: [by_key[(g, i)].figures.get(statistic) for i in common]
                      for g in groups}
            counted_ = {g: sum(v for v in values if v is not None)
                        for g, values in effort.items() if all(v is not None for v in values)}
            if counted_:
                fewest = min(counted_, key=lambda g: counted_[g])
                parts.append(f"fewest {statistic} over the same: {fewest} "
                             f"({round(counted_[fewest])})")
                break
    else:
        parts.append("no instance was solved by every group, so no totals compare")
    failures = sorted({c.mark for c in mine if c.mark is not None})
    if failures:
        parts.append("unsolved cells: " + ", ".join(
            f"{sum(c.mark == m for c in mine)} {m}" for m in failures))
    return "; ".join(parts) + "."


def _names(groups: Sequence[str]) -> str:
    return groups[0] if len(groups) == 1 else ", ".join(groups[:-1]) + " and " + groups[-1]


def is_timeout(cell: PlotCell) -> bool:
    """The cell ran out of time (all or some of its repeats)."""
    return cell.mark is not None and cell.mark.startswith(TIMEOUT)
