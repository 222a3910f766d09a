"""The viewpoint registry: each viewpoint is one function registered under ``puzzle/name``.

A viewpoint is typed by its puzzle: ``Viewpoint[SudokuInstance, SudokuSolution]``
builds from a Sudoku instance a model whose decoder gives Sudoku solutions. Its
options are declared (:class:`puzzles.options.Option`: type, allowed values,
default, one-line doc); the command line, the spec checks and ``list`` read them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Concatenate, Generic, TypeAlias, TypeVar

from puzzlelab.errors import OptionError, UnknownName
from puzzlelab.registry import Registry
from puzzlelab.wording import first_sentence
from puzzles.options import Option, OptionValue, resolve
from solvers import Assignment, Heuristic, Model

__all__ = ["DEFAULTS", "VIEWPOINTS", "BuiltModel", "Defaults", "Option", "Viewpoint",
           "counting_defaults", "get_viewpoint", "set_defaults", "viewpoint", "viewpoints_of"]

InstanceT = TypeVar("InstanceT")
SolutionT = TypeVar("SolutionT")


@dataclass(frozen=True)
class BuiltModel(Generic[SolutionT]):
    """What a viewpoint returns: the model, and a decoder from its solutions to a puzzle's."""

    model: Model
    decode: Callable[[Assignment], SolutionT]


Builder: TypeAlias = Callable[Concatenate[InstanceT, ...], BuiltModel[SolutionT]]
"""A viewpoint function: ``(instance, **options) -> BuiltModel``."""


@dataclass(frozen=True)
class Viewpoint(Generic[InstanceT, SolutionT]):
    """A registered viewpoint: ``build(instance, options)`` gives a :class:`BuiltModel`."""

    puzzle: str
    name: str
    build_function: Builder[InstanceT, SolutionT]
    options: Mapping[str, Option] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """Registry key, ``puzzle/name``."""
        return f"{self.puzzle}/{self.name}"

    @property
    def summary(self) -> str:
        """The first sentence of the viewpoint's docstring, whole."""
        return first_sentence(inspect.getdoc(self.build_function) or "")

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, OptionValue]:
        """Defaults overlaid with ``given`` (text from the command line, or typed from a
        spec); unknown names and values outside the declaration raise ``OptionError``."""
        resolved = resolve(self.options, given or {}, f"viewpoint {self.key}",
                           lambda name: f"viewpoint {self.key}: option {name}")
        unset = [name for name, value in resolved.items() if value is None]
        if unset:  # a viewpoint has no other options to derive a default from
            raise OptionError(f"viewpoint {self.key}: give a value for {', '.join(unset)}")
        return {name: value for name, value in resolved.items() if value is not None}

    def build(self, instance: InstanceT,
              options: Mapping[str, Any] | None = None) -> BuiltModel[SolutionT]:
        """Build the model of ``instance`` under ``options`` (defaults for those not given)."""
        return self.build_function(instance, **self.resolve_options(options))


VIEWPOINTS: Registry[Viewpoint[Any, Any]] = Registry("viewpoint")


@dataclass(frozen=True)
class Defaults:
    """A viewpoint (with options), solver and heuristic, by name: what ``puzzlelab solve``
    and a spec use for a puzzle when they name nothing, and what ``generate --unique``
    counts with."""

    viewpoint: str
    solver: str
    heuristic: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """``viewpoint (options), solver, heuristic``, as ``list`` shows it."""
        options = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return (f"{self.viewpoint}{f' ({options})' if options else ''}, {self.solver}, "
                f"{self.heuristic}")


DEFAULTS: Registry[Defaults] = Registry("puzzle defaults")
COUNTING_DEFAULTS: Registry[Defaults] = Registry("puzzle counting defaults")


def viewpoint(puzzle: str, name: str, options: Mapping[str, Option] | None = None
              ) -> Callable[[Builder[InstanceT, SolutionT]], Builder[InstanceT, SolutionT]]:
    """Register the decorated function as the viewpoint ``puzzle/name``."""

    def register(function: Builder[InstanceT, SolutionT]) -> Builder[InstanceT, SolutionT]:
        VIEWPOINTS.add(f"{puzzle}/{name}", Viewpoint(puzzle, name, function, dict(options or {})))
        return function

    return register


def set_defaults(puzzle: str, viewpoint: str, solver: str, heuristic: str,
                 counting: Defaults | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
    """Record the default viewpoint (with ``options``), solver and heuristic of
    ``puzzle`` (once), and the ones that count its solutions, when they differ from
    :func:`counting_defaults`'s."""
    DEFAULTS.add(puzzle, Defaults(viewpoint, solver, heuristic, dict(options or {})))
    if counting is not None:
        COUNTING_DEFAULTS.add(puzzle, counting)


def counting_defaults(puzzle: str) -> Defaults:
    """What counts the solutions of a ``puzzle`` instance up to 2 (``generate --unique``):
    the puzzle's own counting choice, or its solving defaults without ``+symmetric``
    (which looks for one solution and cannot count)."""
    solving = DEFAULTS.get(puzzle)  # imports the module that sets both, if need be
    if puzzle in COUNTING_DEFAULTS:
        return COUNTING_DEFAULTS.get(puzzle)
    heuristic = str(Heuristic.parse(solving.heuristic).without_symmetric())
    return Defaults(solving.viewpoint, solving.solver, heuristic, solving.options)


def get_viewpoint(puzzle: str, name: str) -> Viewpoint[Any, Any]:
    """The viewpoint ``name`` of ``puzzle``; an unknown one lists the puzzle's viewpoints."""
    key = name if "/" in name else f"{puzzle}/{name}"
    if key not in VIEWPOINTS:
        raise UnknownName(f"{puzzle} viewpoint", name, [v.name for v in viewpoints_of(puzzle)])
    return VIEWPOINTS.get(key)


def viewpoints_of(puzzle: str) -> list[Viewpoint[Any, Any]]:
    """Every viewpoint registered for ``puzzle``, in registration order."""
    return [VIEWPOINTS.get(k) for k in VIEWPOINTS if VIEWPOINTS.get(k).puzzle == puzzle]
