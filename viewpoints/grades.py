"""Grade ladders, declared beside each puzzle's viewpoints: the reasoning that grades an
instance, weakest first, each rung a propagation without search, and search above them.

An instance is *solved without search* at a rung when the rung's propagation leaves
every variable the search would branch on (the puzzle's unknowns) with one value. Its
grade is the lowest rung that does so; an instance no rung solves is graded ``search``.
A puzzle module declares its ladder with :func:`set_ladder`, beside ``set_defaults``,
with how ``generate --difficulty`` makes each grade (:class:`Generation`: the generator
options a grade needs, such as fewer clues or a larger grid); ``puzzlelab grade``,
``generate --difficulty``, their help and the documentation read :data:`LADDERS`
(``experiments.reasoning`` does the grading).

A rung runs any :class:`Reasoning`; :class:`RootPropagation` is the usual one (a
viewpoint, with options, propagated at the root by a backend that declares root
propagation, :func:`solvers.propagate_root`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from puzzlelab.errors import OptionError
from puzzlelab.registry import Registry
from viewpoints.registry import get_viewpoint

SEARCH = "search"
"""The grade above every rung: the instance needs search."""

Memo = dict[str, object]
"""What the rungs of one instance's grading share (levels computed in one sweep keep the
sweep here)."""


class Reasoning(Protocol):
    """What a rung runs: does it solve an instance without search?"""

    def describe(self) -> str:
        """What runs, in a few words (``classic (alldiff=weak) at the root on cp``)."""
        ...

    def solves(self, puzzle: str, instance: Any, memo: Memo) -> bool:
        """Whether it leaves every unknown of ``instance`` with one value."""
        ...


def options_text(options: Mapping[str, str]) -> str:
    """`` (name=value, ...)`` after a viewpoint's name, or nothing."""
    return f" ({', '.join(f'{k}={v}' for k, v in options.items())})" if options else ""


@dataclass(frozen=True)
class RootPropagation:
    """A viewpoint, with options, propagated at the root by ``backend`` (one declaring root
    propagation), after probing the root with ``probing`` (as ``+probe`` does).

    Constraints the search leaves out (checked after search, lazy) take no part, as in
    :mod:`solvers.root_profile`.
    """

    viewpoint: str
    options: Mapping[str, str] = field(default_factory=dict)
    backend: str = "cp"
    probing: bool = False

    def describe(self) -> str:
        probe = ", probing the root" if self.probing else ""
        return (f"{self.viewpoint}{options_text(self.options)} at the root on "
                f"{self.backend}{probe}")

    def domains(self, puzzle: str, instance: Any) -> tuple[list[Any], dict[Any, Any] | None]:
        """The unknowns (search variables) of the rung's model, and the domains its root
        propagation leaves (None: it fails, so the instance has no solution)."""
        from solvers import propagate_root

        built = get_viewpoint(puzzle, self.viewpoint).build(instance, self.options)
        model = dataclasses.replace(built.model, after_search=[], lazy=[])
        return model.search_variables(), propagate_root(model, self.backend, self.probing)

    def solves(self, puzzle: str, instance: Any, memo: Memo) -> bool:
        unknowns, domains = self.domains(puzzle, instance)
        return domains is not None and all(len(domains[v]) == 1 for v in unknowns)


@dataclass(frozen=True)
class Rung:
    """One rung of a ladder: its name (the grade), what it runs and what it means."""

    name: str
    runs: Reasoning
    meaning: str


@dataclass(frozen=True)
class Search:
    """The last rung: a viewpoint searched by ``backend`` under ``heuristic``; its
    branches measure how much search the instance needs. The same model counts the
    solutions, up to 2, before grading."""

    viewpoint: str
    heuristic: str
    options: Mapping[str, str] = field(default_factory=dict)
    backend: str = "cp"
    meaning: str = "no rung solves it: search finds the solution"

    def describe(self) -> str:
        return (f"{self.viewpoint}{options_text(self.options)} searched on {self.backend}, "
                f"{self.heuristic}")


@dataclass(frozen=True)
class Generation:
    """How ``generate --difficulty`` makes instances of one grade: the generator options
    the grade takes unless the user gives them, why, and what to change when even they
    leave the grade out of reach of the time budget.

    Attributes:
        options: generator options by name, as typed after ``--NAME`` (``{"clues":
            "0"}``); an option the user gives wins over the grade's.
        why: what the options do for the grade, in a few words (for the documentation).
        otherwise: what to change when the grade is not reached in the budget with the
            grade's own options (``a longer --time-limit (300)``): the message that stops
            the command ends with it.
        reached: False when no generated instance measured had the grade (a rung that
            generated puzzles never need): ``otherwise`` then names what to ask instead.
    """

    options: Mapping[str, str] = field(default_factory=dict)
    why: str = ""
    otherwise: str = ""
    reached: bool = True


@dataclass(frozen=True)
class Ladder:
    """A puzzle's grades, weakest first: its rungs, then search.

    ``steers_generator``: the puzzle's generator thins a solution while its uniqueness
    test holds (a Sudoku takes clues away), so ``generate --difficulty`` may add "solved
    at this grade or below" to that test; other generators repair, and their test must
    stay uniqueness alone.

    ``generation``: how ``generate --difficulty`` makes each grade, by grade name (a
    grade not named takes the generator's own defaults).
    """

    puzzle: str
    rungs: tuple[Rung, ...]
    search: Search
    steers_generator: bool = False
    generation: Mapping[str, Generation] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.generation) - set(self.grades))
        if unknown:
            raise ValueError(f"{self.puzzle}: generation for grades it does not have: "
                             f"{', '.join(unknown)}")

    def generation_of(self, grade: str) -> Generation:
        """How ``generate --difficulty`` makes ``grade`` (an unknown grade is an
        ``OptionError`` listing the puzzle's grades)."""
        self.level(grade)
        return self.generation.get(grade, Generation())

    @property
    def grades(self) -> tuple[str, ...]:
        """The grade names, weakest first: the rungs', then ``search``."""
        return (*(rung.name for rung in self.rungs), SEARCH)

    def meanings(self) -> list[tuple[str, str, str]]:
        """(grade, meaning, what runs) for every grade, weakest first."""
        return [*((rung.name, rung.meaning, rung.runs.describe()) for rung in self.rungs),
                (SEARCH, self.search.meaning, self.search.describe())]

    def level(self, grade: str) -> int:
        """The place of ``grade`` on the ladder (0 is the weakest); an unknown grade is an
        ``OptionError`` listing the puzzle's grades in order."""
        if grade not in self.grades:
            raise OptionError(f"unknown {self.puzzle} grade {grade!r}; its grades, weakest "
                              f"first: {', '.join(self.grades)}")
        return self.grades.index(grade)


LADDERS: Registry[Ladder] = Registry("graded puzzle")
"""Every puzzle's ladder, by puzzle name (named from the viewpoint modules' sources, each
imported when its ladder is asked for)."""


def set_ladder(puzzle: str, rungs: tuple[Rung, ...], search: Search,
               steers_generator: bool = False,
               generation: Mapping[str, Generation] | None = None) -> None:
    """Declare ``puzzle``'s grades: its rungs, weakest first, then search, and how
    ``generate --difficulty`` makes those that need other generator options (once)."""
    LADDERS.add(puzzle, Ladder(puzzle, rungs, search, steers_generator,
                               dict(generation or {})))
