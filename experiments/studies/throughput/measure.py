"""Timing one combination or one direct script over a set of puzzles, every answer checked.

Puzzles per second per core is puzzles / CPU seconds of this process (every thread,
the solvers' own included) spent in the timed loop; wall time is kept beside it.
Each measurement first solves the first puzzle once, untimed, so that imports,
compilation and the solver's start-up are not charged to the first one timed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from experiments.campaign.executors.records import record_of_run
from experiments.campaign.record import RunRecord
from experiments.campaign.solving import solve_run
from experiments.studies.kit.records import Choice, checked
from experiments.studies.throughput.combinations import PUZZLE
from experiments.studies.throughput.direct import DirectSolve
from puzzles import PUZZLES
from solvers import prepare
from viewpoints import get_viewpoint


@dataclass
class Figures:
    """What one measured combination or direct script did over its puzzles."""

    name: str
    attempted: int = 0  # puzzles run in the timed loop, whatever their answer
    correct: int = 0  # solved, accepted by the checker and equal to the known solution
    cpu_s: float = 0.0
    wall_s: float = 0.0
    backtracks: list[int | None] = field(default_factory=list, repr=False)
    branches: list[int | None] = field(default_factory=list, repr=False)
    failures: list[str] = field(default_factory=list)
    stopped_early: bool = False  # the CPU budget ran out before the last puzzle

    @property
    def per_core(self) -> float:
        """Puzzles attempted per CPU second."""
        return self.attempted / self.cpu_s if self.cpu_s > 0 else 0.0

    @property
    def per_wall_second(self) -> float:
        """Puzzles attempted per wall-clock second."""
        return self.attempted / self.wall_s if self.wall_s > 0 else 0.0

    @property
    def mean_backtracks(self) -> float | None:
        """Mean backtracks, None when the solver does not count them."""
        return _mean(self.backtracks)

    @property
    def mean_branches(self) -> float | None:
        """Mean branches, None when the solver does not count them."""
        return _mean(self.branches)

    def to_json(self) -> dict[str, Any]:
        """The figures for ``--json``."""
        figures = asdict(self)
        del figures["backtracks"], figures["branches"]
        return figures | {"per_core": self.per_core, "per_wall_second": self.per_wall_second,
                          "mean_backtracks": self.mean_backtracks,
                          "mean_branches": self.mean_branches}


def _mean(values: list[int | None]) -> float | None:
    if not values or any(value is None for value in values):
        return None
    return sum(value for value in values if value is not None) / len(values)


class _Clock:
    """CPU and wall seconds since it was made."""

    def __init__(self) -> None:
        self.cpu, self.wall = time.process_time(), time.perf_counter()

    def cpu_s(self) -> float:
        return time.process_time() - self.cpu

    def wall_s(self) -> float:
        return time.perf_counter() - self.wall


def _run(combination: Choice, instance: Any, time_limit: float | None) -> RunRecord:
    """Solve, check and judge one puzzle through the campaign's solve path."""
    return record_of_run(solve_run(combination.identity(instance, time_limit=time_limit),
                                   instance))


def run_problem(record: RunRecord) -> str | None:
    """What is wrong with a run, or None when it solved the instance correctly."""
    name = record.identity.instance
    if not checked(record):
        return f"{name}: {record.status.value} {record.message}".strip()
    if record.matches_known is None:
        return f"{name}: no known solution to compare with"
    if not record.matches_known:
        return f"{name}: the solution differs from the known one"
    return None


def preflight(combination: Choice, instance: Any) -> None:
    """Build the model of one instance and check, without searching, that the backend can
    run it under the heuristic: a bad name or an unsupported combination raises here,
    before anything is timed."""
    chosen = get_viewpoint(PUZZLE, combination.viewpoint)
    built = chosen.build(instance, chosen.resolve_options(dict(combination.options)))
    prepare(built.model, combination.solver, combination.heuristic)


def measure_combination(combination: Choice, instances: Sequence[Any],
                        time_limit: float | None = None,
                        budget_s: float | None = None) -> Figures:
    """Solve every instance end to end (build, search, decode, check) and time it all.

    ``budget_s`` stops the loop once that many CPU seconds are spent (``stopped_early``).
    """
    figures = Figures(combination.name)
    if not instances:
        return figures
    _run(combination, instances[0], time_limit)
    clock = _Clock()
    for instance in instances:
        record = _run(combination, instance, time_limit)
        figures.attempted += 1
        problem = run_problem(record)
        if problem is None:
            figures.correct += 1
        else:
            figures.failures.append(problem)
        figures.backtracks.append(record.statistics.backtracks)
        figures.branches.append(record.statistics.branches)
        if budget_s is not None and clock.cpu_s() > budget_s:
            figures.stopped_early = figures.attempted < len(instances)
            break
    figures.cpu_s, figures.wall_s = clock.cpu_s(), clock.wall_s()
    return figures


def measure_direct(name: str, solve: DirectSolve, lines: Sequence[tuple[str, str]]) -> Figures:
    """Run a direct script on every (puzzle, solution) line, checking each answer."""
    figures = Figures(name)
    if not lines:
        return figures
    solve(lines[0][0])
    clock = _Clock()
    for number, (puzzle, solution) in enumerate(lines, 1):
        answer = solve(puzzle)
        figures.attempted += 1
        if answer.digits == solution:
            figures.correct += 1
        else:
            what = "no solution" if answer.digits is None else "a wrong solution"
            figures.failures.append(f"puzzle {number}: {what}")
        figures.backtracks.append(answer.backtracks)
        figures.branches.append(answer.branches)
    figures.cpu_s, figures.wall_s = clock.cpu_s(), clock.wall_s()
    return figures


def read_instances(path: Path) -> list[Any]:
    """Every instance of a Sudoku file, through PuzzleLab's reader (known solutions too)."""
    return list(PUZZLES.get(PUZZLE).read(path))
