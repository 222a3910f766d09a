"""Step-wise explanations (``puzzlelab explain``): from the clues to the solution, each
step a fact derived from a minimal set of a viewpoint's constraints and earlier facts,
the cheapest available step first (Bogaerts, Gamba, Claes and Guns's step-wise
explanations), every step checked sound by CP-SAT, which did not find it.

Any viewpoint of any puzzle is explained the same way: its model's named arrays are what
a person sees, its constraints' labels are the reasons, and the puzzle's terms
(:mod:`viewpoints.terms`) put both in words. How a step is found:
:mod:`.explain_engine`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

from experiments.reasoning.explain_engine import Filter, Found, OutOfTime, Removes, StepFinder
from experiments.reasoning.explain_units import Board, Domains
from experiments.reasoning.steps import (
    CONTRADICTION,
    SOLVED,
    STEP_LIMIT,
    STUCK,
    TIME_LIMIT,
    Explanation,
    Step,
)
from puzzlelab.errors import PuzzleLabError, SolverError, UnsupportedCombination


def default_filter(deadline: float | None = None) -> Filter:
    """Exact filtering of one constraint, or of several together (a search of them
    given up at ``deadline``, a ``time.perf_counter()`` time)."""
    from solvers.filtering import filter_conjunction, filter_constraint

    def exact(constraints: Any, domains: Domains) -> Domains | None:
        if len(constraints) == 1:
            filtered = filter_constraint(constraints[0], domains)
            return None if filtered is None else {**domains, **filtered}
        return filter_conjunction(constraints, domains, deadline)

    return exact


def default_removes(deadline: float | None = None) -> Removes:
    """Whether exact filtering rules out an asked value, without filtering whole."""
    from solvers.filtering import removes_any

    def removes(constraints: Any, domains: Domains, asked: Domains, pool: list[Any]) -> bool:
        return removes_any(constraints, domains, asked, deadline, pool)

    return removes


def step_finder(board: Board, deadline: float | None = None) -> StepFinder:
    """The step finder on ``board`` over the exact filters, every search of which is
    given up at ``deadline`` (a ``time.perf_counter()`` time)."""
    return StepFinder(board, default_filter(deadline), deadline, default_removes(deadline))


def explain(instance: Any, *, viewpoint: str | None = None,
            options: Mapping[str, Any] | None = None, time_limit: float | None = None,
            entries: Mapping[tuple[str, tuple[int, ...]], int] | None = None,
            steps: int | None = None, check: bool = True) -> Explanation:
    """The steps that explain ``instance`` on ``viewpoint`` (its puzzle's default one
    when None), from its clues (and ``entries``: values a person put in, by array and
    index, in the puzzle's values) to the solution, or as far as deductions go.

    ``time_limit`` (seconds) and ``steps`` end the sequence early, saying so in its
    ending. With ``check``, each step is checked sound by CP-SAT before it is kept.
    """
    from puzzles import puzzle_of
    from solvers.filtering import FilteringTimeout
    from viewpoints import DEFAULTS, get_viewpoint

    started = time.perf_counter()
    kind = puzzle_of(instance)
    chosen = get_viewpoint(kind.name, viewpoint or DEFAULTS.get(kind.name).viewpoint)
    built = chosen.build(instance, options)
    board = Board(built.model, instance, kind.name)
    if not board.visible:
        raise UnsupportedCombination(f"viewpoint {chosen.key} cannot be explained: its "
                                     f"model names no arrays, so no fact can be stated")
    known = board.start()
    if entries:
        known.update(entered(board, entries))
    givens = tuple(board.known(v, known[v]) for v in board.visible
                   if known[v] != board.universe[v])
    deadline = None if time_limit is None else started + time_limit
    finder = step_finder(board, deadline)
    taken: list[Step] = []
    ending = TIME_LIMIT
    try:
        for found, before in walk(finder, known, steps):
            if check:
                from experiments.reasoning.explain_check import refuted

                if not refuted(built.model, found, before, board.universe):
                    raise SolverError(f"a step failed its soundness check: "
                                      f"{worded(board, found, before).text}")
            taken.append(worded(board, found, before))
        ending = _ending(board, known, taken, steps)
    except (OutOfTime, FilteringTimeout):
        pass
    solution = _solution(kind, built, known) if ending == SOLVED else None
    return Explanation(kind.instance_name(instance), kind.name, chosen.key, givens,
                       tuple(taken), ending, solution, _note(ending, taken, time_limit),
                       time.perf_counter() - started)


def explained_difficulty(instance: Any, *, viewpoint: str | None = None,
                         time_limit: float | None = None, check: bool = True
                         ) -> int | None:
    """The difficulty (hardest step's cost) of explaining ``instance`` to its solution;
    None when the explanation does not get there (time limit, several solutions, none):
    what ``grade`` shows beside the grade and ``generate --explained-difficulty`` keeps
    instances by."""
    explained = explain(instance, viewpoint=viewpoint, time_limit=time_limit, check=check)
    return explained.difficulty if explained.ending == SOLVED else None


def walk(finder: StepFinder, known: Domains, steps: int | None = None
         ) -> Iterator[tuple[Found, Domains]]:
    """Each step found from ``known`` on, with what was known before it; ``known`` is
    updated as they go, and the walk ends at a contradiction, when every variable has
    one value, when no step follows, or after ``steps`` steps."""
    taken = 0
    while not finder.board.settled(known):
        if steps is not None and taken >= steps:
            return
        found = finder.next_step(known)
        if found is None:
            return
        before = dict(known)
        for variable, removed in found.removed:
            known[variable] = known[variable] - removed
        taken += 1
        yield found, before
        if found.contradiction:
            return


def _ending(board: Board, known: Domains, taken: list[Step], steps: int | None) -> str:
    if taken and taken[-1].contradiction:
        return CONTRADICTION
    if board.settled(known):
        return SOLVED
    return STEP_LIMIT if steps is not None and len(taken) >= steps else STUCK


def worded(board: Board, found: Found, known: Domains) -> Step:
    """``found`` in the puzzle's words, its facts read from ``known`` (what was known
    before it), its premises as weak as the step found them."""
    facts = tuple(board.fact(v, known[v] - removed, removed) for v, removed in found.removed)
    premises = tuple(board.known(v, values) for v, values in found.given().items())
    return Step(facts, tuple(unit.reason for unit in found.units), premises, found.cost,
                found.contradiction)


def entered(board: Board, entries: Mapping[tuple[str, tuple[int, ...]], int]
            ) -> Domains:
    """The entries as known values; one outside its variable's values is an error."""
    arrays = board.model.arrays
    known: Domains = {}
    for (name, index), value in entries.items():
        array = arrays[name]
        variable = array.at(index)
        if value - array.offset not in board.universe[variable]:
            raise PuzzleLabError(f"{board.subject(variable).name} cannot hold {value}")
        known[variable] = frozenset({value - array.offset})
    return known


def _solution(kind: Any, built: Any, known: Domains) -> Any:
    """The puzzle's JSON solution of the values the steps fixed (auxiliaries found by
    CP-SAT within them)."""
    from solvers import solve
    from solvers.constraints import Table

    fixed = [(v, next(iter(values))) for v, values in known.items()]
    model = built.model.with_cuts([Table((v,), ((value,),)) for v, value in fixed])
    result = solve(model, "cpsat", "auto", time_limit=60)
    if result.assignment is None:
        return None
    return kind.solution_to_json(built.decode(result.assignment))


def _note(ending: str, taken: list[Step], time_limit: float | None) -> str:
    if ending == SOLVED:
        return f"solved in {len(taken)} steps"
    if ending == CONTRADICTION:
        return "the clues admit no solution: the last step shows why"
    if ending == STUCK:
        return (f"no step follows after {len(taken)} steps: the puzzle has several "
                f"solutions from here")
    if ending == TIME_LIMIT:
        return f"stopped by the time limit ({time_limit:g} s) after {len(taken)} steps"
    return f"stopped after the {len(taken)} steps asked"
