"""What a report reads from a results database: the campaign's facts, and one figure per
instance and column group for the plots and the summary lines.

The tables come from :mod:`experiments.analysis.tables`; this module gives the plots the same
view of the runs: a cell is one instance under one group (a viewpoint, heuristic or
solver, as ``by`` says) and one setting of the other dimensions, its figures are the
medians of its repeats, and a cell some of whose repeats did not finish correctly
shows the same mark as in the tables (``t/o``, ``n/a``, ``WRONG``, ...), never a number.
"""

from __future__ import annotations

import json
import statistics
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.analysis.table_format import MISSING, TIMEOUT, WRONG
from experiments.analysis.tables import (
    BY_CHOICES,
    FINISHED,
    SEARCH_TIME,
    STATUS_MARKS,
    contradicted_unsatisfiable,
)
from experiments.campaign.spec import table_settings
from experiments.campaign.store import ResultsStore
from puzzlelab.errors import OptionError, PuzzleLabError
from solvers.record import Status

EFFORT_STATISTICS = ("backtracks", "branches")
"""What the effort plot shows, in order of preference: a group whose solver has no
backtracks is shown by its branches."""


@dataclass(frozen=True)
class PlotCell:
    """One instance under one group and one setting of the other dimensions."""

    group: str
    setting: str
    instance: str
    mark: str | None
    """None: solved (every repeat finished correctly); else the table's mark."""
    time_s: float | None = None
    figures: Mapping[str, float | None] = field(default_factory=dict)
    time_limit: float | None = None

    @property
    def solved(self) -> bool:
        """Every repeat finished correctly, so the cell has figures."""
        return self.mark is None


@dataclass(frozen=True)
class RunCounts:
    """How many runs the campaign plans, stores, and how the stored ones ended."""

    planned: int | None
    stored: int
    solved: int
    unsatisfiable: int
    timed_out: int
    memory_out: int
    refused: int
    failed: int
    wrong: int


@dataclass(frozen=True)
class CampaignData:
    """One results database, read once for every part of the report."""

    name: str
    database: Path
    rows: Sequence[Mapping[str, Any]]
    session: Mapping[str, Any]
    """The latest session that ran the spec (empty when none was recorded)."""
    repeats: int | None
    planned_runs: int | None

    @property
    def settings(self) -> dict[str, Any]:
        """The spec's settings that decide the runs."""
        return dict(json.loads(self.session.get("settings") or "{}"))

    @property
    def puzzle(self) -> str | None:
        """The campaign's puzzle, as the spec names it."""
        puzzle = self.settings.get("puzzle")
        return str(puzzle) if puzzle else None

    @property
    def description(self) -> str:
        """The spec's ``description``, or its leading comment lines when it has none."""
        text = str(self.session.get("spec_text") or "")
        try:
            described = tomllib.loads(text).get("description")
        except tomllib.TOMLDecodeError:
            described = None
        if described:
            return str(described).strip()
        comments = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            comments.append(line.lstrip("#").strip())
        return " ".join(c for c in comments if c)

    def table_settings(self) -> dict[str, Any]:
        """The stored spec's ``table`` settings (``table_by``, ``table_metrics``, ...): what
        the report shows unless told otherwise, as ``puzzlelab run`` did."""
        return table_settings(str(self.session.get("spec_text") or ""),
                              Path(str(self.session.get("spec_path") or "spec.toml")))

    def spec_shown(self) -> str:
        """The spec's path as a reader should see it: relative to the current folder when
        inside it (a committed report names no one's home folder), else as stored."""
        path = Path(str(self.session.get("spec_path") or "?"))
        try:
            return path.relative_to(Path.cwd()).as_posix() if path.is_absolute() else str(path)
        except ValueError:
            return str(path)

    def spec_base(self) -> Path | None:
        """The folder the spec's instance paths are relative to."""
        path = self.session.get("spec_path")
        return Path(str(path)).parent if path else None

    def counts(self) -> RunCounts:
        """The runs planned and stored, and how the stored ones ended."""
        statuses = [str(row["status"]) for row in self.rows]
        wrong = sum(row.get("verdict") == "wrong" for row in self.rows)
        return RunCounts(
            planned=self.planned_runs, stored=len(self.rows),
            solved=sum(s == Status.SOLVED.value and r.get("verdict") != "wrong"
                       for s, r in zip(statuses, self.rows)),
            unsatisfiable=statuses.count(Status.UNSATISFIABLE.value),
            timed_out=statuses.count(Status.TIMEOUT.value),
            memory_out=statuses.count(Status.MEMORY_OUT.value),
            refused=statuses.count(Status.REFUSED.value),
            failed=sum(s == Status.ERROR.value and r.get("verdict") != "wrong"
                       for s, r in zip(statuses, self.rows)),
            wrong=wrong)

    def facts(self) -> list[tuple[str, str]]:
        """The campaign as a list of (what, value): machine, versions, commit, limits."""
        session, settings = self.session, self.settings
        versions = json.loads(session.get("package_versions") or "{}")
        counts = self.counts()
        planned = "unknown" if counts.planned is None else str(counts.planned)
        facts = [("puzzle", self.puzzle or "unknown"),
                 ("runs", f"{planned} planned, {counts.stored} stored: {counts.solved} solved, "
                          f"{counts.unsatisfiable} unsatisfiable, {counts.timed_out} timed out, "
                          f"{counts.memory_out} out of memory, {counts.refused} refused, "
                          f"{counts.failed} failed, {counts.wrong} wrong"),
                 ("repeats", str(self.repeats or 1)),
                 ("limits", f"{settings.get('time_limit', 'default')} s search, "
                            f"{settings.get('memory_limit_mb', 'default')} MB per run"),
                 ("sessions", f"last began {session.get('started_at', '?')}, ended "
                              f"{session.get('ended_at') or 'not recorded'} "
                              f"({session.get('end_state') or 'unknown'}); "
                              f"{session.get('executor', '?')}, {session.get('jobs', '?')} "
                              f"run(s) at a time"),
                 ("machine", f"{session.get('cpu_model', '?')}, {session.get('cores', '?')} "
                             f"cores, {session.get('platform', '?')}"),
                 ("Python", str(session.get("python", "?"))),
                 ("versions", ", ".join(f"{k} {v}" for k, v in versions.items()) or "unknown"),
                 ("commit", str(session.get("git_commit") or "unknown"))]
        return facts


def read_campaign(path: str | Path) -> CampaignData:
    """Open one results database for a report: it must exist and hold runs."""
    path = Path(path)
    with ResultsStore.open_existing(path) as store:
        rows = store.runs()
        sessions = store.campaigns()
        plan = store.plan()
    if not rows:
        raise PuzzleLabError(f"{path}: the results database holds no runs yet; run the "
                             f"campaign first (puzzlelab run SPEC)")
    session = sessions[-1] if sessions else {}
    name = str(session.get("name") or path.resolve().parent.name)
    return CampaignData(name, path, rows, session, plan.repeats, plan.runs)


def setting_of(row: Mapping[str, Any], by: str) -> str:
    """The title of the table a run is in: the dimensions that are not the column groups."""
    return " · ".join(f"{d} {row[d]}" for d in ("solver", "heuristic", "viewpoint") if d != by)


def plot_cells(campaign: CampaignData, by: str) -> list[PlotCell]:
    """Every cell of the campaign's tables, in grid order, with its mark or its figures."""
    if by not in BY_CHOICES:
        raise OptionError(f"unknown --by {by!r}; valid: {', '.join(BY_CHOICES)}")
    rows = [dict(row) for row in campaign.rows]
    for index, message in contradicted_unsatisfiable(rows).items():
        rows[index].update(status=Status.ERROR.value, verdict="wrong", message=message)
    grouped: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        key = (str(row[by]), setting_of(row, by), str(row["instance"]))
        grouped.setdefault(key, []).append(row)
    planned = campaign.repeats or 1
    return [_cell(group, setting, instance, repeats, planned)
            for (group, setting, instance), repeats in grouped.items()]


def _cell(group: str, setting: str, instance: str, repeats: Sequence[Mapping[str, Any]],
          planned: int) -> PlotCell:
    limits = [float(r["time_limit"]) for r in repeats if r.get("time_limit") is not None]
    limit = max(limits) if limits else None
    failed = [r for r in repeats if r["status"] not in FINISHED or r.get("verdict") == "wrong"]
    if failed:
        wrong = any(r.get("verdict") == "wrong" for r in failed)
        mark = WRONG if wrong else STATUS_MARKS.get(str(failed[0]["status"]),
                                                    str(failed[0]["status"]))
        return PlotCell(group, setting, instance, mark, time_limit=limit)
    if len(repeats) < planned:
        return PlotCell(group, setting, instance, f"{MISSING} ({len(repeats)}/{planned})",
                        time_limit=limit)
    figures = {name: _median([r.get(name) for r in repeats]) for name in EFFORT_STATISTICS}
    return PlotCell(group, setting, instance, None, _median([r.get(SEARCH_TIME)
                                                             for r in repeats]),
                    figures, limit)


def _median(values: Sequence[Any]) -> float | None:
    present = [float(v) for v in values if v is not None]
    return statistics.median(present) if present else None


def groups_of(cells: Sequence[PlotCell]) -> list[str]:
    """The column groups, in grid order."""
    return list(dict.fromkeys(cell.group for cell in cells))


def summary_line(cells: Sequence[PlotCell], setting: str) -> str:
    """One sentence on one table, stated from its numbers: which group solved most, which
    was fastest in total and which needed fewest backtracks over the instances all solved."""
    mine = [c for c in cells if c.setting == setting]
    groups = groups_of(mine)
    if not mine:
        return ""
    solved = {g: sum(c.solved for c in mine if c.group == g) for g in groups}
    planned = {g: sum(c.group == g for c in mine) for g in groups}
    best = max(solved.values())
    leaders = [g for g in groups if solved[g] == best]
    parts = [f"{_names(leaders)} solved most ({best}/{planned[leaders[0]]})"
             if len(leaders) < len(groups) else f"every group solved {best} of its "
                                                f"{planned[groups[0]]} instances"]
    instances = list(dict.fromkeys(c.instance for c in mine))
    by_key = {(c.group, c.instance): c for c in mine}
    common = [i for i in instances
              if all((g, i) in by_key and by_key[(g, i)].solved for g in groups)]
    if common:
        totals = {g: sum(by_key[(g, i)].time_s or 0.0 for i in common) for g in groups}
        fastest = min(totals, key=lambda g: totals[g])
        parts.append(f"fastest in total on the {len(common)} solved by all: {fastest} "
                     f"({totals[fastest] * 1000:.1f} ms)")
        effort = {g: [by_key[(g, i)].figures.get("backtracks") for i in common] for g in groups}
        counted = {g: sum(v for v in values if v is not None) for g, values in effort.items()
                   if all(v is not None for v in values)}
        if counted:
            fewest = min(counted, key=lambda g: counted[g])
            parts.append(f"fewest backtracks: {fewest} ({round(counted[fewest])})")
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
