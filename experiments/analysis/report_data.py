"""What a report reads from a results database for its plots and summary lines: one
figure per instance and column group (the campaign's facts: :mod:`report_facts`).

The tables come from :mod:`experiments.analysis.tables`; this module gives the plots
the same view of the runs: a cell is one instance under one group (a viewpoint, heuristic or
solver, as ``by`` says) and one setting of the other dimensions, its figures are the
medians of its repeats, and a cell some of whose repeats did not finish correctly
shows the same mark as in the tables (``t/o``, ``n/a``, ``WRONG``, ...), never a number.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from experiments.analysis.cell_runs import SEARCH_TIME, CellRuns, failure_mark
from experiments.analysis.table_format import MISSING, REFUSED, TIMEOUT
from experiments.analysis.tables import dimension
from experiments.campaign.record import RunRecord
from experiments.campaign.spec import GROUPINGS
from experiments.campaign.stored_campaign import StoredCampaign
from experiments.campaign.verdicts import with_contradictions
from puzzlelab.errors import OptionError
from puzzlelab.wording import counted

EFFORT_STATISTICS = ("backtracks", "branches")
"""What the effort figures show, in order of preference: a solver that reports no
backtracks is shown by its branches, in a figure of its own."""


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


def setting_of(run: RunRecord, by: str) -> str:
    """The title of the table a run is in: the dimensions that are not the column groups."""
    return " · ".join(f"{d} {dimension(run, d)}" for d in ("solver", "heuristic", "viewpoint")
                      if d != by)


def plot_cells(campaign: StoredCampaign, by: str) -> list[PlotCell]:
    """Every cell of the campaign's tables, in grid order, with its mark or its figures."""
    if by not in GROUPINGS:
        raise OptionError(f"unknown --by {by!r}; valid: {', '.join(GROUPINGS)}")
    grouped: dict[tuple[str, str, str, str], list[RunRecord]] = {}
    for run in with_contradictions(campaign.runs):
        key = (dimension(run, by), setting_of(run, by), run.identity.instance,
               run.identity.solver)
        grouped.setdefault(key, []).append(run)
    planned = campaign.repeats or 1
    return [_cell(group, setting, instance, solver, repeats, planned)
            for (group, setting, instance, solver), repeats in grouped.items()]


def _cell(group: str, setting: str, instance: str, solver: str, repeats: Sequence[RunRecord],
          planned: int) -> PlotCell:
    limits = [r.identity.time_limit for r in repeats if r.identity.time_limit is not None]
    limit = max(limits) if limits else None
    mark = failure_mark(CellRuns.of(repeats, ()))
    if mark is not None:
        return PlotCell(group, setting, instance, solver, mark.split(" (")[0],
                        time_limit=limit)
    if len(repeats) < planned:
        return PlotCell(group, setting, instance, solver,
                        f"{MISSING} ({len(repeats)}/{planned})", time_limit=limit)
    figures = {name: _median([r.figure(name) for r in repeats]) for name in EFFORT_STATISTICS}
    return PlotCell(group, setting, instance, solver, None,
                    _median([r.figure(SEARCH_TIME) for r in repeats]), figures, limit)


def _median(values: Sequence[float | None]) -> float | None:
    present = [float(v) for v in values if v is not None]
    return statistics.median(present) if present else None


def groups_of(cells: Sequence[PlotCell]) -> list[str]:
    """The column groups, in grid order."""
    return list(dict.fromkeys(cell.group for cell in cells))


def summary_line(cells: Sequence[PlotCell], setting: str) -> str:
    """One sentence on one table, stated from its numbers: which group solved most (of the
    instances it did not refuse, as the table counts), which was fastest in total and
    which needed fewest backtracks, naming the instances those totals are over."""
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
        effort = {g: [by_key[(g, i)].figures.get("backtracks") for i in common] for g in groups}
        counted_ = {g: sum(v for v in values if v is not None) for g, values in effort.items()
                    if all(v is not None for v in values)}
        if counted_:
            fewest = min(counted_, key=lambda g: counted_[g])
            parts.append(f"fewest backtracks over the same: {fewest} ({round(counted_[fewest])})")
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
