"""Run records and sessions made by hand, for tests of the store, the tables and the
report that need a campaign of known figures without running one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from experiments.campaign.grid import RunTask
from experiments.campaign.identity import RunIdentity
from experiments.campaign.record import RunRecord
from experiments.campaign.store import ResultsStore, Session
from experiments.campaign.verdicts import Verdict
from solvers import Statistics, Status
from tests.paths import SUDOKU_DATA


def task_of(instance: str, viewpoint: str = "classic", solver: str = "cp",
            heuristic: str = "input/min", repeat: int = 0, position: int = 0,
            instance_file: str = "f.txt", puzzle: str = "sudoku", time_limit: float = 10.0,
            instance_position: int = 0, memory_limit_mb: int = 2048) -> RunTask:
    """The task of one run of a Sudoku campaign (no payload: nothing will solve it)."""
    return RunTask(RunIdentity(
        puzzle=puzzle, instance_file=instance_file, instance_name=instance, instance=instance,
        viewpoint_name=viewpoint, viewpoint=viewpoint, solver=solver, heuristic=heuristic,
        repeat=repeat, time_limit=time_limit, memory_limit_mb=memory_limit_mb, position=position,
        instance_position=instance_position))


def record_of(task: RunTask, status: str = "solved", verdict: str | None = None,
              solution: Any = None, wall_s: float | None = None, message: str = "",
              **figures: float | None) -> RunRecord:
    """The record of ``task`` ending in ``status`` with ``figures`` (declared statistics);
    the verdict is ``correct`` for a solved run unless given."""
    judged = verdict or ("correct" if status == "solved" else "unchecked")
    return RunRecord(identity=task.identity, status=Status(status), message=message,
                     verdict=Verdict(judged), statistics=Statistics(**figures),
                     solution=solution, wall_s=wall_s)


def session_of(name: str = "known", puzzle: str = "sudoku", repeats: int = 1,
               planned: int | None = None, spec_text: str | None = None,
               spec_path: str = "/nowhere/spec.toml", **settings: Any) -> Session:
    """A finished-looking session of a campaign of ``puzzle``."""
    return Session(name=name, spec_path=spec_path,
                   spec_text=spec_text if spec_text is not None else f'name = "{name}"\n',
                   settings=json.dumps({"puzzle": puzzle, "repeats": repeats,
                                        "time_limit": 10.0, "memory_limit_mb": 2048,
                                        **settings}),
                   started_at="2026-01-01T00:00:00", executor="local", jobs=1,
                   planned_runs=planned, package_versions=json.dumps({"puzzlelab": "0.1.0"}),
                   python="3.11", platform="Linux", cpu_model="Test CPU", cores=2,
                   git_commit="abc123")


SUDOKUS = (SUDOKU_DATA / "kul_named_9x9.txt").as_posix()
"""The file whose instances a known campaign's runs name."""

Run = tuple[str, str, str, float | None, int | None]
"""(instance, viewpoint, status, search seconds, backtracks) of one stored run."""


def wide_runs() -> list[Run]:
    """Six viewpoints with long figures on three instances: a table wider than a page."""
    viewpoints = ["classic", "value-position", "channeled", "classic-weak", "boolean-sat",
                  "channeled-strong"]
    return [(instance, viewpoint, "solved", 1.2345 * (v + 1) * (i + 1), 1234567 * (v + 1))
            for i, instance in enumerate(("lambda", "hard17", "coloin"))
            for v, viewpoint in enumerate(viewpoints)]


def known_store(path: Path, runs: list[Run], repeats: int = 1, planned: int | None = None,
                name: str = "known", table: str = "") -> Path:
    """A store of a Sudoku campaign on cp with input order, runs as given (a repeat number
    counts up for each run of the same cell); ``table`` is its spec's table line."""
    with ResultsStore(path) as store:
        store.start_campaign(session_of(
            name, repeats=repeats, planned=planned if planned is not None else len(runs),
            spec_text=f'name = "{name}"\ndescription = "A known campaign."\n{table}\n'))
        seen: dict[tuple[str, str], int] = {}
        for position, (instance, viewpoint, status, seconds, backtracks) in enumerate(runs):
            repeat = seen.get((instance, viewpoint), 0)
            seen[(instance, viewpoint)] = repeat + 1
            task = task_of(instance, viewpoint, repeat=repeat, position=position,
                           instance_file=SUDOKUS)
            store.record_run(record_of(task, status, solve_s=seconds, backtracks=backtracks))
    return path


COMPLETE: list[Run] = [
    ("lambda", "classic", "solved", 0.004, 4), ("lambda", "channeled", "solved", 0.002, 2),
    ("hard17", "classic", "solved", 0.010, 10), ("hard17", "channeled", "solved", 0.005, 5),
    ("coloin", "classic", "solved", 0.020, 20), ("coloin", "channeled", "timeout", 10.0, 99999),
]


def small_store(path: Path, name: str, times: dict[str, float | None],
                timed_out_backtracks: int | None = 10_000) -> Path:
    """A store of one campaign: classic on cp, one run per instance of ``times`` (None: a
    timeout at 10 s, which counted ``timed_out_backtracks``), a millisecond's backtracks
    per microsecond of a solved run's search."""
    with ResultsStore(path) as store:
        store.start_campaign(session_of(name, planned=len(times), spec_path="spec.toml",
                                        spec_text=""))
        for position, (instance, seconds) in enumerate(times.items()):
            task = task_of(instance, position=position, instance_file="set.txt",
                           instance_position=position)
            store.record_run(record_of(
                task, "solved" if seconds is not None else "timeout",
                solve_s=10.0 if seconds is None else seconds,
                backtracks=timed_out_backtracks if seconds is None
                else round(1000 * seconds)))
    return path
