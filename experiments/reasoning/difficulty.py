"""Generated instances of one grade (``puzzlelab generate --difficulty``): the test a unique
candidate must pass to be kept, and the one the generator may steer with while it thins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from experiments.reasoning.grading import ladder_of, lowest_rung
from viewpoints.grades import SEARCH


@dataclass(frozen=True)
class Wanted:
    """What else a kept instance must be, beside unique.

    Attributes:
        asked: what is asked, for messages (``of grade strong``).
        holds: the test of a unique candidate before it is written.
        steer: a test the generator may steer with beside uniqueness (a Sudoku takes a
            clue away only while both hold), or None to leave the generator alone.
        seen: what the candidates checked so far were, for the message of a search that
            gives up (``; the unique candidates graded weak 3``), or empty.
    """

    asked: str
    holds: Callable[[Any], bool]
    steer: Callable[[Any], bool] | None = None
    seen: Callable[[], str] = str


def difficulty(puzzle: str, wanted_grade: str) -> Wanted:
    """The test ``generate --difficulty`` keeps instances with: exactly ``wanted_grade``
    on the puzzle's ladder, among the unique candidates the generator checks. Where the
    ladder says the generator may be steered, it is also told to stay at or below the
    grade while it thins. An unknown grade is an ``OptionError`` listing the puzzle's
    grades."""
    ladder = ladder_of(puzzle)
    level = ladder.level(wanted_grade)
    last: list[tuple[object, int | None]] = []  # the instance graded last, its lowest rung
    seen: Counter[str] = Counter()

    def lowest(instance: object) -> int | None:
        """The first rung, up to the wanted one, that solves ``instance`` (remembered for
        the instance asked last: the steering test and the final one share it)."""
        if not last or last[0][0] is not instance:
            last[:] = [(instance, lowest_rung(ladder, instance, up_to=level))]
        return last[0][1]

    def holds(instance: object) -> bool:
        place = lowest(instance)
        seen[ladder.grades[place] if place is not None
             else SEARCH if level == len(ladder.rungs) else f"above {wanted_grade}"] += 1
        return place == level if level < len(ladder.rungs) else place is None

    def steer(instance: object) -> bool:
        return lowest(instance) is not None

    def grades_seen() -> str:
        if not seen:
            return ""
        return "; the unique candidates graded " + ", ".join(
            f"{name} {number}" for name, number in seen.most_common())

    steers = ladder.steers_generator and level < len(ladder.rungs)
    return Wanted(f"of grade {wanted_grade}", holds, steer if steers else None, grades_seen)
