"""Puzzles graded by the reasoning they need: each instance's place on its puzzle's ladder
(:mod:`.ladders`), from the weakest propagation that solves it without search up to
search itself, with the branches that takes (``puzzlelab grade``); and the test that
keeps generated instances of one grade (``puzzlelab generate --difficulty``).

An instance is graded only when it has exactly one solution: a count to two on the
ladder's search model (``cp`` or ``cpsat``) says so first, and an instance with none or
several gets that said instead of a grade.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from experiments.studies.grading.ladder import SEARCH, Ladder, Rung
from experiments.studies.grading.ladders import LADDERS

if TYPE_CHECKING:
    from experiments.generate import Wanted

__all__ = ["LADDERS", "SEARCH", "Grade", "Ladder", "Rung", "count_solutions", "difficulty",
           "grade", "ladder_of"]


def ladder_of(puzzle: str) -> Ladder:
    """``puzzle``'s ladder; an unknown puzzle, or one without a ladder, is an
    ``UnknownName`` listing the graded puzzles."""
    from puzzles import PUZZLES

    return LADDERS.get(PUZZLES.get(puzzle).name)


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
    """

    instance: str
    solutions: int | None
    grade: str | None
    branches: int | None = None
    note: str = ""

    @property
    def verdict(self) -> str:
        """The grade, or what was found instead (``several solutions``)."""
        return self.grade or self.note

    def to_json(self) -> dict[str, object]:
        """The record as ``grade --json`` prints it."""
        return {"instance": self.instance, "grade": self.grade, "solutions": self.solutions,
                "branches": self.branches, "note": self.note}


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
    status, figures = run.result.status, run.result.statistics
    found, first = figures.solutions, figures.first_branches
    if status is Status.UNSATISFIABLE:
        return 0, "no solution", None
    if status is Status.SOLVED and (found >= 2 or run.result.complete):
        return found, "" if found == 1 else "several solutions", first
    if status is Status.TIMEOUT:
        return None, "count unfinished" + (f" in {time_limit:g} s" if time_limit else ""), first
    return None, f"count failed: {run.result.message or status.value}", first


def grade(puzzle: str, instance: Any, time_limit: float | None = None) -> Grade:
    """Count ``instance``'s solutions; with exactly one, its grade (for ``search``, with
    the branches its search takes). ``time_limit`` bounds each search, in seconds."""
    from puzzles import PUZZLES

    ladder = ladder_of(puzzle)
    name = PUZZLES.get(puzzle).instance_name(instance)
    solutions, note, branches = count_solutions(ladder, instance, time_limit)
    if solutions != 1:
        return Grade(name, solutions, None, note=note)
    place = ladder.lowest_rung(instance)
    if place is not None:
        return Grade(name, 1, ladder.rungs[place].name)
    return Grade(name, 1, SEARCH, branches)


def difficulty(puzzle: str, wanted_grade: str) -> Wanted:
    """The test ``generate --difficulty`` keeps instances with (an
    :class:`experiments.generate.Wanted`): exactly ``wanted_grade`` on the puzzle's
    ladder, among the unique candidates the generator checks. Where the ladder says the
    generator may be steered, it is also told to stay at or below the grade while it
    thins. An unknown grade is an ``OptionError`` listing the puzzle's grades."""
    from experiments.generate import Wanted

    ladder = ladder_of(puzzle)
    level = ladder.level(wanted_grade)
    last: list[tuple[object, int | None]] = []  # the instance graded last, its lowest rung
    seen: Counter[str] = Counter()

    def lowest(instance: object) -> int | None:
        """The first rung, up to the wanted one, that solves ``instance`` (remembered for
        the instance asked last: the steering test and the final one share it)."""
        if not last or last[0][0] is not instance:
            last[:] = [(instance, ladder.lowest_rung(instance, up_to=level))]
        return last[0][1]

    def holds(instance: object) -> bool:
        place = lowest(instance)
        seen[ladder.grades[place] if place is not None
             else SEARCH if level == len(ladder.rungs) else f"above {wanted_grade}"] += 1
        return place == level if level < len(ladder.rungs) else place is None

    def steer(instance: object) -> bool:
        return lowest(instance) is not None

    def said() -> str:
        if not seen:
            return ""
        return "; the unique candidates graded " + ", ".join(
            f"{name} {number}" for name, number in seen.most_common())

    steers = ladder.steers_generator and level < len(ladder.rungs)
    return Wanted(f"of grade {wanted_grade}", holds, steer if steers else None, said)
