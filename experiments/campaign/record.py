"""The run record: one run of a campaign, typed from the worker to the report.

A :class:`RunRecord` holds a run's identity (the instance, the viewpoint with its
options, the solver, the heuristic, the repeat), how it ended, its verdict
(:mod:`experiments.campaign.verdicts`), its solution in the puzzle's JSON form and its
statistics (:mod:`puzzlelab.statistics`). The worker makes it, the pool and the Dask
executor pass it on, the store keeps it, the tables, the report and ``--json`` read
it. Dictionaries appear only where it meets SQLite (:func:`to_row`, :func:`from_row`)
and JSON (:meth:`RunRecord.to_json`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from experiments.campaign.verdicts import Verdict
from puzzlelab.statistics import STATISTICS
from solvers.record import PortfolioAnswer, Statistics, Status, SymmetricSearch

if TYPE_CHECKING:
    from experiments.campaign.grid import RunTask
    from experiments.campaign.solving import PuzzleRun

RUNNER_STATISTICS = ("wall_s", "cpu_s")
"""The figures the runner measures around a run (the rest are the solve's own)."""
GROUPINGS = ("viewpoint", "heuristic", "solver")
"""The dimensions of a campaign's grid that tables and plots group runs by."""


@dataclass(frozen=True)
class RunRecord:
    """One run: who it is, how it ended, what it found and what it measured.

    ``solution`` is the puzzle's JSON form of the solution found (its
    ``solution_to_json``; :meth:`answer` reads it back), None when none was found.
    ``campaign`` and ``puzzle`` are the campaign's, filled in where a store is read.
    """

    key: str
    position: int
    instance_file: str
    instance: str  # its label: unique within the campaign
    instance_position: int
    viewpoint: str  # its label in the tables
    viewpoint_name: str
    options: Mapping[str, Any]
    solver: str
    heuristic: str
    repeat: int
    seed: int
    time_limit: float | None
    memory_limit_mb: int | None
    status: Status
    complete: bool = False
    message: str = ""
    verdict: Verdict = Verdict.UNCHECKED
    violations: tuple[str, ...] | None = None
    matches_known: bool | None = None
    solution: Any = None
    statistics: Statistics = field(default_factory=Statistics)
    wall_s: float | None = None
    cpu_s: float | None = None
    worker: str | None = None
    finished_at: str | None = None
    symmetric: SymmetricSearch | None = None
    portfolio: PortfolioAnswer | None = None
    campaign: str = ""
    puzzle: str = ""
    row_id: int | None = field(default=None, compare=False)

    @property
    def instance_name(self) -> str:
        """The puzzle's name for the instance, unique within its file (the label may be
        a title or the end of a path instead)."""
        return key_instance(self.key)

    @property
    def finished(self) -> bool:
        """The run gave an answer that was not judged wrong."""
        return self.status.finished and self.verdict is not Verdict.WRONG

    def figure(self, name: str) -> float | None:
        """The figure of statistic ``name``: the solve's own, or the runner's."""
        if name == "wall_s":
            return self.wall_s
        if name == "cpu_s":
            return self.cpu_s
        value: float | None = getattr(self.statistics, name)
        return value

    def answer(self) -> Any:
        """The solution found, read back into the puzzle's solution type (None: none)."""
        if self.solution is None:
            return None
        from puzzles import PUZZLES

        return PUZZLES.get(self.puzzle).solution_from_json(self.solution)

    def to_json(self) -> dict[str, Any]:
        """The run as one JSON object (``puzzlelab solve --json``)."""
        return {"puzzle": self.puzzle, "instance": self.instance,
                "instance_file": self.instance_file, "viewpoint": self.viewpoint_name,
                "options": dict(self.options), "solver": self.solver,
                "heuristic": self.heuristic, "status": self.status.value,
                "complete": self.complete, "message": self.message,
                "verdict": self.verdict.value, "solution": self.solution,
                "stats": self.statistics.as_dict(),
                **{name: self.figure(name) for name in RUNNER_STATISTICS},
                "check": None if self.violations is None else list(self.violations),
                "matches_known_solution": self.matches_known,
                "symmetric": None if self.symmetric is None else self.symmetric.as_json(),
                "portfolio": None if self.portfolio is None else self.portfolio.as_json()}


def run_key(instance_file: str, instance: str, viewpoint: str, solver: str, heuristic: str,
            repeat: int) -> str:
    """The identity of a run in the store: what resuming compares. ``instance`` is the
    puzzle's name for it, unique within its file (not its label, which depends on the
    other files of the campaign)."""
    return json.dumps([instance_file, instance, viewpoint, solver, heuristic, repeat])


def key_instance(key: str) -> str:
    """The puzzle's name for the instance of a run, read back from its ``run_key``."""
    return str(json.loads(key)[1])


def begun(task: RunTask, status: Status, message: str = "") -> RunRecord:
    """The record of ``task`` with no answer yet: a crash, a kill or a refusal ends so."""
    return RunRecord(task.key, task.position, task.instance_file, task.instance,
                     task.instance_position, task.viewpoint, task.viewpoint_name,
                     dict(task.options), task.solver, task.heuristic, task.repeat, task.seed,
                     task.time_limit, task.memory_limit_mb, status, message=message,
                     puzzle=task.puzzle)


def of_run(run: PuzzleRun, task: RunTask | None = None, instance_file: str = "") -> RunRecord:
    """The record of a finished solve: in a campaign, under ``task``'s identity; alone
    (``puzzlelab solve``), under the names the run itself gives."""
    from puzzles import PUZZLES

    if task is None:
        base = RunRecord(run_key(instance_file, run.instance, run.viewpoint, run.solver,
                                 run.heuristic, 0), 0, instance_file, run.instance, 0,
                         run.viewpoint, run.viewpoint, dict(run.options), run.solver,
                         run.heuristic, 0, run.seed, run.time_limit, None, run.status,
                         puzzle=run.puzzle)
    else:
        base = begun(task, run.status)
    result = run.result
    solution = (None if run.solution is None
                else PUZZLES.get(run.puzzle).solution_to_json(run.solution))
    return RunRecord(
        **{name: getattr(base, name) for name in IDENTITY_FIELDS}, status=run.status,
        complete=result.complete, message=run.message, verdict=run.verdict,
        violations=None if run.violations is None else tuple(run.violations),
        matches_known=run.known_solution_matches, solution=solution,
        statistics=result.statistics, symmetric=result.symmetric, portfolio=result.portfolio,
        puzzle=run.puzzle)


IDENTITY_FIELDS = ("key", "position", "instance_file", "instance", "instance_position",
                   "viewpoint", "viewpoint_name", "options", "solver", "heuristic", "repeat",
                   "seed", "time_limit", "memory_limit_mb")

# ------------------------------------------------------------------ the store's row

IDENTITY_COLUMNS = {
    "run_key": "TEXT NOT NULL UNIQUE", "position": "INTEGER NOT NULL",
    "instance_file": "TEXT NOT NULL",
    "instance": "TEXT NOT NULL", "instance_position": "INTEGER NOT NULL",
    "viewpoint": "TEXT NOT NULL", "viewpoint_name": "TEXT NOT NULL",
    "options": "TEXT NOT NULL", "solver": "TEXT NOT NULL", "heuristic": "TEXT NOT NULL",
    "repeat": "INTEGER NOT NULL", "seed": "INTEGER NOT NULL", "time_limit": "REAL NOT NULL",
    "memory_limit_mb": "INTEGER NOT NULL",
}
OUTCOME_COLUMNS = {
    "status": "TEXT NOT NULL", "complete": "INTEGER NOT NULL", "message": "TEXT NOT NULL",
    "verdict": "TEXT NOT NULL", "violations": "TEXT", "matches_known": "INTEGER",
    "solution": "TEXT",
}
RUNNER_COLUMNS = {"worker": "TEXT", "finished_at": "TEXT", "extra": "TEXT"}
"""Where and when the run ended; ``extra``: its symmetric search and portfolio accounts,
as JSON (the column kept its name from when it held a free dictionary)."""


def statistic_columns() -> dict[str, str]:
    """A column per declared statistic (:mod:`puzzlelab.statistics`), runner's included."""
    return {s.name: "INTEGER" if s.integer else "REAL"
            for s in (STATISTICS.get(name) for name in STATISTICS)}


def outcome_columns() -> dict[str, str]:
    """The columns a finished run fills: its verdict, its statistics, where it ran."""
    return {**OUTCOME_COLUMNS, **statistic_columns(), **RUNNER_COLUMNS}


def run_columns() -> dict[str, str]:
    """Every column of the runs table."""
    return dict(_run_columns(STATISTICS.version))


@functools.lru_cache(maxsize=8)
def _run_columns(version: int) -> tuple[tuple[str, str], ...]:
    """:func:`run_columns`, made once for each ``version`` of the declared statistics
    (its cache key): every stored run asks for them."""
    return tuple({**IDENTITY_COLUMNS, **outcome_columns()}.items())


_sorted_json = json.JSONEncoder(sort_keys=True).encode
"""``json.dumps(..., sort_keys=True)`` without making an encoder at every call: every
stored run encodes its options."""


def to_row(record: RunRecord) -> dict[str, Any]:
    """The record as a row of the runs table (every column but the row id)."""
    details = {}
    if record.symmetric is not None:
        details["symmetric"] = record.symmetric.as_json()
    if record.portfolio is not None:
        details["portfolio"] = record.portfolio.as_json()
    figures = {**record.statistics.as_dict(),
               **{name: record.figure(name) for name in RUNNER_STATISTICS}}
    row = {"run_key": record.key, "position": record.position,
           "instance_file": record.instance_file, "instance": record.instance,
           "instance_position": record.instance_position, "viewpoint": record.viewpoint,
           "viewpoint_name": record.viewpoint_name,
           "options": _sorted_json(dict(record.options)),
           "solver": record.solver, "heuristic": record.heuristic, "repeat": record.repeat,
           "seed": record.seed, "time_limit": record.time_limit,
           "memory_limit_mb": record.memory_limit_mb, "status": record.status.value,
           "complete": record.complete, "message": record.message,
           "verdict": record.verdict.value,
           "violations": ("null" if record.violations is None
                          else json.dumps(list(record.violations))),
           "matches_known": record.matches_known,
           "solution": None if record.solution is None else json.dumps(record.solution),
           "worker": record.worker, "finished_at": record.finished_at,
           "extra": json.dumps(details) if details else "{}"}
    return {column: figures[column] if column in figures else row[column]
            for column, _ in _run_columns(STATISTICS.version)}


def from_row(row: Mapping[str, Any], campaign: str = "", puzzle: str = "") -> RunRecord:
    """The record a row of the runs table holds (a row of an older store too: a column it
    lacks reads as None, its ``extra`` as the accounts it held)."""
    details = json.loads(row.get("extra") or "{}")
    violations = json.loads(row["violations"]) if row.get("violations") else None
    matches = row.get("matches_known")
    return RunRecord(
        key=str(row["run_key"]), position=int(row["position"]),
        instance_file=str(row["instance_file"]), instance=str(row["instance"]),
        instance_position=int(row.get("instance_position") or 0),
        viewpoint=str(row["viewpoint"]),
        viewpoint_name=str(row.get("viewpoint_name") or row["viewpoint"]),
        options=json.loads(row.get("options") or "{}"), solver=str(row["solver"]),
        heuristic=str(row["heuristic"]), repeat=int(row.get("repeat") or 0),
        seed=int(row.get("seed") or 0), time_limit=row.get("time_limit"),
        memory_limit_mb=row.get("memory_limit_mb"), status=Status(row["status"]),
        complete=bool(row.get("complete")), message=str(row.get("message") or ""),
        verdict=Verdict(row.get("verdict") or Verdict.UNCHECKED.value),
        violations=None if violations is None else tuple(violations),
        matches_known=None if matches is None else bool(matches),
        solution=None if row.get("solution") is None else json.loads(row["solution"]),
        statistics=Statistics(**{name: row[name] for name in Statistics.names() if name in row}),
        wall_s=row.get("wall_s"), cpu_s=row.get("cpu_s"), worker=row.get("worker"),
        finished_at=row.get("finished_at"),
        symmetric=(SymmetricSearch.from_json(details["symmetric"])
                   if details.get("symmetric") else None),
        portfolio=(PortfolioAnswer.from_json(details["portfolio"])
                   if details.get("portfolio") else None),
        campaign=campaign, puzzle=puzzle, row_id=row.get("id"))
