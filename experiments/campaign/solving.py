"""Solving one puzzle instance end to end: build the viewpoint, search, decode, check."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from experiments.campaign.verdicts import Verdict, judge
from puzzles import PUZZLES
from puzzles.options import OptionValue
from solvers import BACKENDS, SolveResult, Status, solve
from solvers.solving import SearchStart
from viewpoints import BuiltModel, get_viewpoint


@dataclass(frozen=True)
class PuzzleRun:
    """One instance solved by one viewpoint, solver and heuristic, and judged.

    ``result`` is the solver's record, with the run's judged status and message
    (:func:`experiments.campaign.verdicts.judge`: a solution the checker rejects, or a
    false "unsatisfiable", is an ``error``). ``violations`` is the checker's list
    (empty when the solution is correct) and None when there is no solution to check.
    """

    puzzle: str
    instance: str
    viewpoint: str
    options: dict[str, OptionValue]
    solver: str
    heuristic: str
    result: SolveResult
    solution: Any
    violations: list[str] | None
    known_solution_matches: bool | None = field(default=None)
    verdict: Verdict = Verdict.UNCHECKED
    seed: int = 0
    time_limit: float | None = None

    @property
    def correct(self) -> bool:
        """True when a solution was found and the checker found nothing wrong."""
        return self.verdict is Verdict.CORRECT

    @property
    def status(self) -> Status:
        """How the run ended, once judged."""
        return self.result.status

    @property
    def message(self) -> str:
        """What went wrong, if anything."""
        return self.result.message


def split_options(options: Mapping[str, OptionValue] | None, solver: str
                  ) -> tuple[dict[str, OptionValue], dict[str, str]]:
    """``options`` parted into the viewpoint's and the backend's own (the names the
    backend declares, such as ``solver`` on ``minizinc``)."""
    declared = BACKENDS.get(solver).capabilities.options
    given = dict(options or {})
    return ({k: v for k, v in given.items() if k not in declared},
            {k: str(v) for k, v in given.items() if k in declared})


def rebuilt(run: PuzzleRun, instance: Any) -> BuiltModel[Any]:
    """The model ``run`` searched, built again from its viewpoint and options (building
    is deterministic): to decode more of its solutions, or to profile it."""
    viewpoint_options, _ = split_options(run.options, run.solver)
    return get_viewpoint(run.puzzle, run.viewpoint).build(instance, viewpoint_options)


def solve_instance(puzzle: str, instance: Any, viewpoint: str, solver: str, heuristic: str,
                   options: Mapping[str, Any] | None = None, *, time_limit: float | None = None,
                   max_solutions: int | None = 1, seed: int = 0,
                   on_search_start: SearchStart | None = None,
                   record_tree: bool | int = False) -> PuzzleRun:
    """Build ``viewpoint`` for ``instance``, solve it, decode and judge the first solution.

    >>> from puzzles import PUZZLES
    >>> sudoku = PUZZLES.get("sudoku")
    >>> four = sudoku.parse("1...........4...")[0]
    >>> run = solve_instance("sudoku", four, "classic", "cp", "first-fail/min")
    >>> run.status.value, run.verdict.value, run.violations
    ('solved', 'correct', [])
    """
    kind = PUZZLES.get(puzzle)
    chosen = get_viewpoint(puzzle, viewpoint)
    given, backend_given = split_options(options, solver)
    resolved = chosen.resolve_options(given)
    built = chosen.build(instance, resolved)
    result = solve(built.model, solver, heuristic, time_limit=time_limit,
                   max_solutions=max_solutions, seed=seed, on_search_start=on_search_start,
                   options=backend_given, record_tree=record_tree)
    solution = None if result.assignment is None else built.decode(result.assignment)
    violations = None if solution is None else kind.check(instance, solution)
    known = kind.known_solution(instance)
    matches = None if known is None or solution is None else solution == known
    judged = judge(result.status, result.message, violations, known is not None)
    result = replace(result, status=judged.status, message=judged.message)
    return PuzzleRun(puzzle, kind.instance_name(instance), chosen.name,
                     {**resolved, **backend_given}, solver,
                     result.heuristic, result, solution, violations, matches, judged.verdict,
                     seed, time_limit)
