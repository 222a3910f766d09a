"""Solving one puzzle instance end to end: build the viewpoint, search, decode, check.

:func:`solve` is the call a user makes: the instance, and by keyword whatever differs
from the puzzle's defaults. :func:`solve_run` is the campaign's: a run's whole identity
is given, as a worker, a re-solve for a search tree and a benchmark give it. Both return
a :class:`PuzzleRun`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from experiments.campaign.identity import RunIdentity, solutions_wanted, split_options
from experiments.campaign.record import facts_and_statistics, run_facts
from experiments.campaign.verdicts import Verdict, judge
from puzzlelab.notebook import display_method, side_by_side, svg_image
from puzzles import PUZZLES, puzzle_of
from solvers import SolveResult, Status
from solvers import solve as solve_model
from solvers.record import Statistics
from solvers.solving import SearchStart
from viewpoints import DEFAULTS, BuiltModel, get_viewpoint


@dataclass(frozen=True)
class PuzzleRun:
    """One instance solved by one viewpoint, solver and heuristic, and judged.

    ``identity`` is what was asked; ``result`` is the solver's record for the model
    (its assignment, search tree, accounts), with the run's judged status and message
    (:func:`experiments.campaign.verdicts.judge`: a solution the checker rejects, or a
    false "unsatisfiable", is an ``error``); ``solution`` the first solution in the
    puzzle's own type. ``violations`` is the checker's list (empty when the solution is
    correct) and None when there is no solution to check; ``matches_known`` says
    whether the solution is the one the instance's file gives (None: it gives none).
    ``instance`` is the instance solved: a notebook draws the solution on it.
    """

    identity: RunIdentity
    result: SolveResult
    solution: Any
    violations: tuple[str, ...] | None
    matches_known: bool | None = None
    verdict: Verdict = Verdict.UNCHECKED
    instance: Any = field(default=None, compare=False, repr=False)

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

    @property
    def statistics(self) -> Statistics:
        """The run's figures (:mod:`puzzlelab.statistics`): typed attributes, None where
        the solver does not give one."""
        return self.result.statistics

    @display_method
    def _repr_html_(self) -> str:
        """What a notebook shows of the run: the solved grid (the puzzle where nothing was
        found), what was asked, how the run ended and was judged, and its statistics."""
        asked = self.identity
        picture = "" if self.instance is None else svg_image(
            PUZZLES.get(asked.puzzle).render_svg(self.instance, self.solution),
            f"{asked.puzzle} {asked.instance}")
        facts = run_facts(asked, self.status, self.verdict, self.violations,
                          self.matches_known, self.message)
        return side_by_side(picture, facts_and_statistics(facts, self.statistics))


def rebuilt(run: PuzzleRun, instance: Any) -> BuiltModel[Any]:
    """The model ``run`` searched, built again from its viewpoint and options (building
    is deterministic): to decode more of its solutions, or to profile it."""
    identity = run.identity
    viewpoint = get_viewpoint(identity.puzzle, identity.viewpoint_name)
    return viewpoint.build(instance, viewpoint.resolve_options(identity.options))


def solve(instance: Any, *, viewpoint: str | None = None, solver: str | None = None,
          heuristic: str | None = None, options: Mapping[str, Any] | None = None,
          time_limit: float | None = None, max_solutions: int | None = 1, seed: int = 0,
          instance_file: str = "", on_search_start: SearchStart | None = None,
          record_tree: bool | int = False) -> PuzzleRun:
    """Solve ``instance`` and judge its first solution; what is not given is the puzzle's
    default (``puzzlelab list`` shows them).

    The puzzle is the instance's own. With no ``viewpoint`` the puzzle's default comes
    with its default options, under ``options``. ``max_solutions`` stops the search
    after that many solutions; 0 (or None) counts them all. ``options`` holds the
    viewpoint's options and the solver's own (``{"solver": "chuffed"}`` on
    ``minizinc``). ``record_tree`` keeps the search tree (up to that many nodes) in
    ``result.tree`` on a solver that records trees.

    >>> from puzzles import PUZZLES
    >>> four = PUZZLES.get("sudoku").parse("1...........4...")[0]
    >>> run = solve(four, solver="cp", heuristic="first-fail/min")
    >>> run.status.value, run.verdict.value, run.violations, run.statistics.solutions
    ('solved', 'correct', (), 1)
    """
    identity = identity_of_lone_run(
        instance, viewpoint=viewpoint, solver=solver, heuristic=heuristic, options=options,
        time_limit=time_limit, max_solutions=max_solutions, seed=seed,
        instance_file=instance_file)
    return solve_run(identity, instance, on_search_start=on_search_start,
                     record_tree=record_tree)


def identity_of_lone_run(instance: Any, *, viewpoint: str | None = None,
                         solver: str | None = None, heuristic: str | None = None,
                         options: Mapping[str, Any] | None = None,
                         time_limit: float | None = None, max_solutions: int | None = 1,
                         seed: int = 0, instance_file: str = "") -> RunIdentity:
    """The identity of a run outside a campaign, the puzzle's defaults filled in: its
    labels are the instance's and the viewpoint's names."""
    kind = puzzle_of(instance)
    defaults = DEFAULTS.get(kind.name)
    wanted = solutions_wanted(max_solutions)
    if viewpoint is None:  # the default viewpoint comes with its default options
        viewpoint, options = defaults.viewpoint, {**defaults.options, **(options or {})}
    name = kind.instance_name(instance)
    solver = defaults.solver if solver is None else solver
    viewpoint_options, solver_options = split_options(options, solver)
    return RunIdentity(
        puzzle=kind.name, instance_file=instance_file, instance_name=name, instance=name,
        viewpoint_name=viewpoint, viewpoint=viewpoint, options=viewpoint_options,
        solver=solver, solver_options=solver_options,
        heuristic=(default_heuristic(defaults.heuristic, wanted) if heuristic is None
                   else heuristic),
        seed=seed, time_limit=time_limit, max_solutions=wanted)


def default_heuristic(default: str, max_solutions: int) -> str:
    """The puzzle's default heuristic; ``+symmetric`` (which looks for one solution) is
    left out of it when the run counts solutions, rather than refused as a named one is."""
    from solvers.heuristics import Heuristic
    from solvers.symmetry import counting_refusal

    if counting_refusal(max_solutions) is None:
        return default
    return str(Heuristic.parse(default).without_symmetric())


def solve_run(identity: RunIdentity, instance: Any, *,
              on_search_start: SearchStart | None = None,
              record_tree: bool | int = False) -> PuzzleRun:
    """Build ``identity``'s viewpoint for ``instance``, solve it under its limits,
    decode and judge the first solution."""
    kind = PUZZLES.get(identity.puzzle)
    chosen = get_viewpoint(identity.puzzle, identity.viewpoint_name)
    built = chosen.build(instance, chosen.resolve_options(identity.options))
    result = solve_model(built.model, identity.solver_name, identity.heuristic,
                         time_limit=identity.time_limit,
                         max_solutions=identity.max_solutions, seed=identity.seed,
                         on_search_start=on_search_start, options=identity.solver_options,
                         record_tree=record_tree)
    solution = None if result.assignment is None else built.decode(result.assignment)
    violations = None if solution is None else tuple(kind.check(instance, solution))
    known = kind.known_solution(instance)
    matches = None if known is None or solution is None else solution == known
    judged = judge(result.status, result.message, violations, known is not None)
    result = replace(result, status=judged.status, message=judged.message)
    return PuzzleRun(identity, result, solution, violations, matches, judged.verdict,
                     instance)
