"""Run records and sessions made by hand, for tests of the store, the tables and the
report that need a campaign of known figures without running one."""

from __future__ import annotations

import json
from typing import Any

from experiments.campaign.grid import RunTask
from experiments.campaign.identity import RunIdentity
from experiments.campaign.record import RunRecord
from experiments.campaign.store import Session
from experiments.campaign.verdicts import Verdict
from solvers import Statistics, Status


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
