"""Puzzles graded by the reasoning they need: each instance's place on its puzzle's ladder
(declared beside the puzzle's viewpoints, :mod:`viewpoints.grades`), from the weakest
propagation that solves it without search up to search itself, with the branches that
takes (``puzzlelab grade``).

An instance is graded only when it has exactly one solution: a count to two on the
ladder's search model (``cp`` or ``cpsat``) says so first, and an instance with none or
several gets that said instead of a grade. A propagation that fixes every unknown of a
model has then found the only assignment it leaves, the solution, so a grade says what
reasoning *proves* the solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from viewpoints.grades import SEARCH, Ladder, Memo


def ladder_of(puzzle: str) -> Ladder:
    """``puzzle``'s ladder; an unknown puzzle, or one without a ladder, is an
    ``UnknownName`` listing the graded puzzles."""
    from puzzles import PUZZLES
    from viewpoints import LADDERS

    return LADDERS.get(PUZZLES.get(puzzle).name)


def lowest_rung(ladder: Ladder, instance: Any, up_to: int | None = None) -> int | None:
    """The place of the first rung (up to ``up_to``, inclusive) that solves ``instance``
    without search; None when none does."""
    memo: Memo = {}
    last = len(ladder.rungs) - 1 if up_to is None else min(up_to, len(ladder.rungs) - 1)
    for place, rung in enumerate(ladder.rungs[:last + 1]):
        if rung.runs.solves(ladder.puzzle, instance, memo):
            return place
    return None


@dataclass(frozen=True)
class Grade:
    """One instance's grade, or why it has none.

    Attributes:
        instance: the instance's name.
        solutions: its solutions counted up to 2 (None: the count did not finish).
        grade: the lowest rung that solves it without search, or ``search``; None when
            it does not have exactly one solution.
        branches: for ``search``, the branches its search took on the ladder's backend
            (None: it did not finish).
        note: why there is no grade (or no branch count), else empty.
        difficulty: the difficulty of its explanation on the puzzle's default viewpoint
            (:func:`~experiments.reasoning.explaining.explained_difficulty`), when asked
            for and explained to its solution in time, else None.
    """

    instance: str
    solutions: int | None
    grade: str | None
    branches: int | None = None
    note: str = ""
    difficulty: int | None = None

    @property
    def verdict(self) -> str:
        """The grade, or what was found instead (``several solutions``)."""
        return self.grade or self.note

    def to_json(self) -> dict[str, object]:
        """The record as ``grade --json`` prints it."""
        return {"instance": self.instance, "grade": self.grade, "solutions": self.solutions,
                "branches": self.branches, "difficulty": self.difficulty, "note": self.note}


def count_solutions(ladder: Ladder, instance: Any, time_limit: float | None = None
                    ) -> tuple[int | None, str, int | None]:
    """``instance``'s solutions up to 2 on the ladder's search model; when that count is
    not a finished answer, why; and the branches its search took to the first solution
    (the branches of a search for that one: it is the same depth-first search)."""
    from experiments.campaign.solving import solve
    from solvers import Status

    search = ladder.search
    run = solve(instance, viewpoint=search.viewpoint, solver=search.backend,
                heuristic=search.heuristic, options=search.options, time_limit=time_limit,
                max_solutions=2)
    status, figures = run.status, run.statistics
    found, first = figures.solutions, figures.first_branches
    if status is Status.UNSATISFIABLE:
        return 0, "no solution", None
    if status is Status.SOLVED and (found >= 2 or run.result.complete):
        return found, "" if found == 1 else "several solutions", first
    if status is Status.TIMEOUT:
        return None, "count unfinished" + (f" in {time_limit:g} s" if time_limit else ""), first
    return None, f"count failed: {run.message or status.value}", first


def grade(puzzle: str, instance: Any, time_limit: float | None = None,
          explained: bool = False) -> Grade:
    """Count ``instance``'s solutions; with exactly one, its grade (for ``search``, with
    the branches its search takes), and with ``explained`` its explanation's difficulty.
    ``time_limit`` bounds each search and the explanation, in seconds."""
    from experiments.reasoning.explaining import explained_difficulty
    from puzzles import PUZZLES

    ladder = ladder_of(puzzle)
    name = PUZZLES.get(puzzle).instance_name(instance)
    solutions, note, branches = count_solutions(ladder, instance, time_limit)
    if solutions != 1:
        return Grade(name, solutions, None, note=note)
    difficulty = explained_difficulty(instance, time_limit=time_limit) if explained else None
    place = lowest_rung(ladder, instance)
    if place is not None:
        return Grade(name, 1, ladder.rungs[place].name, difficulty=difficulty)
    return Grade(name, 1, SEARCH, branches, difficulty=difficulty)
