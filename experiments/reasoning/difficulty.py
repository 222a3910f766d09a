"""Generated instances of one grade (``puzzlelab generate --difficulty``): the generator
options the grade takes (declared beside its ladder, :class:`viewpoints.grades.Generation`),
the test a unique candidate must pass to be kept, the ones the generator may steer and
stop with while it thins, and what to change when the grade is out of reach.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from experiments.reasoning.grading import ladder_of, lowest_rung
from puzzlelab.errors import OptionError
from viewpoints.grades import SEARCH, Generation


@dataclass(frozen=True)
class Wanted:
    """What else a kept instance must be, beside unique, and how to make it.

    Attributes:
        asked: what is asked, for messages (``of grade strong``).
        holds: the test of a unique candidate before it is written.
        steer: a test the generator may steer with beside uniqueness (a Sudoku takes a
            clue away only while both hold), or None to leave the generator alone.
        seen: what the candidates checked so far were, for the message of a search that
            gives up (``; the unique candidates graded weak 3``), or empty.
        reached: ``holds`` without being counted in ``seen``: the test a thinning
            generator may stop at (``enough`` of ``PuzzleKind.generate``).
        generation: how the grade is generated: its own generator options, and what to
            change when they do not reach it.
    """

    asked: str
    holds: Callable[[Any], bool]
    steer: Callable[[Any], bool] | None = None
    seen: Callable[[], str] = str
    reached: Callable[[Any], bool] | None = None
    generation: Generation = field(default_factory=Generation)

    def options(self, given: Mapping[str, object]) -> dict[str, object]:
        """The generator options to use: the grade's own, under those ``given``."""
        return {**self.generation.options, **given}

    def advice(self, given: Mapping[str, object]) -> str:
        """What to change when the grade was not reached (``; to reach it: ...``): the
        grade's own options the user replaced, else what the grade declares."""
        replaced = {name: value for name, value in self.generation.options.items()
                    if name in given and str(given[name]) != value}
        if replaced:
            return ("; the grade's own options reach it sooner: "
                    + " ".join(f"--{name} {value}" for name, value in replaced.items()))
        return f"; to reach it: {self.generation.otherwise}" if self.generation.otherwise else ""


def difficulty(puzzle: str, wanted_grade: str) -> Wanted:
    """The test ``generate --difficulty`` keeps instances with: exactly ``wanted_grade``
    on the puzzle's ladder, among the unique candidates the generator checks. Where the
    ladder says the generator may be steered, it is also told to stay at or below the
    grade while it thins, and that it may stop at the grade. An unknown grade is an
    ``OptionError`` listing the puzzle's grades."""
    ladder = ladder_of(puzzle)
    level = ladder.level(wanted_grade)
    last: list[tuple[object, int | None]] = []  # the instance graded last, its lowest rung
    seen: Counter[str] = Counter()

    def lowest(instance: object) -> int | None:
        """The first rung, up to the wanted one, that solves ``instance`` (remembered for
        the instance asked last, by value: the steering test, the stopping test and the
        final one share it)."""
        if not last or last[0][0] != instance:
            last[:] = [(instance, lowest_rung(ladder, instance, up_to=level))]
        return last[0][1]

    def reached(instance: object) -> bool:
        place = lowest(instance)
        return place == level if level < len(ladder.rungs) else place is None

    def holds(instance: object) -> bool:
        place = lowest(instance)
        seen[ladder.grades[place] if place is not None
             else SEARCH if level == len(ladder.rungs) else f"above {wanted_grade}"] += 1
        return reached(instance)

    def steer(instance: object) -> bool:
        return lowest(instance) is not None

    def grades_seen() -> str:
        if not seen:
            return ""
        return "; the unique candidates graded " + ", ".join(
            f"{name} {number}" for name, number in seen.most_common())

    steers = ladder.steers_generator and level < len(ladder.rungs)
    return Wanted(f"of grade {wanted_grade}", holds, steer if steers else None, grades_seen,
                  reached if ladder.steers_generator else None,
                  ladder.generation_of(wanted_grade))


def explained_range(text: str) -> tuple[int, int]:
    """``"20-40"`` (or ``"30"``, one value) as the inclusive range (20, 40) of
    ``generate --explained-difficulty``; anything else is an ``OptionError``."""
    low, dash, high = text.strip().partition("-")
    try:
        bounds = (int(low), int(high) if dash else int(low))
    except ValueError:
        raise OptionError(f"--explained-difficulty must be LOW-HIGH or one number (the "
                          f"hardest step's cost, as `puzzlelab explain` gives it), not "
                          f"{text!r}") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise OptionError(f"--explained-difficulty {text}: give LOW-HIGH with "
                          f"0 <= LOW <= HIGH")
    return bounds


def explained(bounds: tuple[int, int], time_limit: float | None = None) -> Wanted:
    """The test ``generate --explained-difficulty`` keeps instances with: the
    explanation's difficulty (its hardest step's cost) within ``bounds``, inclusive; an
    explanation that does not reach the solution in ``time_limit`` seconds fails it."""
    from experiments.reasoning.explaining import explained_difficulty

    low, high = bounds
    seen: Counter[str] = Counter()

    def holds(instance: object) -> bool:
        found = explained_difficulty(instance, time_limit=time_limit, check=False)
        seen["unexplained" if found is None else "below" if found < low
             else "above" if found > high else "within"] += 1
        return found is not None and low <= found <= high

    def explained_seen() -> str:
        return ("; their explanations' difficulties were " + ", ".join(
            f"{where} {number}" for where, number in seen.most_common())) if seen else ""

    return Wanted(f"of explained difficulty {low}-{high}", holds, seen=explained_seen)


def both(first: Wanted | None, second: Wanted | None) -> Wanted | None:
    """Instances that pass both tests (either may be None): the first one's way of
    making and steering them, its test first."""
    if first is None or second is None:
        return first or second
    return Wanted(f"{first.asked} and {second.asked}",
                  lambda instance: first.holds(instance) and second.holds(instance),
                  first.steer, lambda: first.seen() + second.seen(), first.reached,
                  first.generation)
