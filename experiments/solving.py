"""Solving one puzzle instance end to end: build the viewpoint, search, decode, check."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from puzzles import PUZZLES
from solvers import SolveResult, Status, solve
from solvers.solving import SearchStart
from viewpoints import get_viewpoint


@dataclass(frozen=True)
class PuzzleRun:
    """One instance solved by one viewpoint, solver and heuristic, with the checker's verdict.

    ``violations`` is the checker's list (empty when the solution is correct) and
    None when there is no solution to check.
    """

    puzzle: str
    instance: str
    viewpoint: str
    options: dict[str, Any]
    solver: str
    heuristic: str
    result: SolveResult
    solution: Any
    violations: list[str] | None
    known_solution_matches: bool | None = field(default=None)

    @property
    def correct(self) -> bool:
        """True when a solution was found and the checker found nothing wrong."""
        return self.violations == []

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object of ``puzzlelab solve``."""
        kind = PUZZLES.get(self.puzzle)
        return {
            "puzzle": self.puzzle,
            "instance": self.instance,
            "viewpoint": self.viewpoint,
            "options": self.options,
            "solver": self.solver,
            "heuristic": self.heuristic,
            "status": self.result.status.value,
            "complete": self.result.complete,
            "message": self.result.message,
            "solution": None if self.solution is None else kind.solution_to_json(self.solution),
            "stats": self.result.statistics.as_dict(),
            "check": self.violations,
            "matches_known_solution": self.known_solution_matches,
            "extra": self.result.extra,
        }


def solve_instance(puzzle: str, instance: Any, viewpoint: str, solver: str, heuristic: str,
                   options: Mapping[str, Any] | None = None, *, time_limit: float | None = None,
                   max_solutions: int | None = 1, seed: int = 0,
                   on_search_start: SearchStart | None = None) -> PuzzleRun:
    """Build ``viewpoint`` for ``instance``, solve it, decode and check the first solution.

    A wrong answer becomes an ``error`` run: a solution the checker rejects, or
    "unsatisfiable" for an instance whose file gives a solution.
    """
    kind = PUZZLES.get(puzzle)
    chosen = get_viewpoint(puzzle, viewpoint)
    resolved = chosen.resolve_options(options)
    built = chosen.build(instance, resolved)
    result = solve(built.model, solver, heuristic, time_limit=time_limit,
                   max_solutions=max_solutions, seed=seed, on_search_start=on_search_start)
    solution = None if result.assignment is None else built.decode(result.assignment)
    violations = None if solution is None else kind.check(instance, solution)
    known = kind.known_solution(instance)
    matches = None if known is None or solution is None else solution == known
    if result.status is Status.SOLVED and violations:
        result = replace(result, status=Status.ERROR, message="the puzzle checker rejected "
                         "the solution: " + "; ".join(violations))
    elif result.status is Status.UNSATISFIABLE and known is not None:
        result = replace(result, status=Status.ERROR, message="the solver claims there is no "
                         "solution, but the instance file gives one")
    return PuzzleRun(puzzle, kind.instance_name(instance), chosen.name, resolved, solver,
                     result.heuristic, result, solution, violations, matches)
