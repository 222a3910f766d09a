"""The viewpoint registry: each viewpoint is one function registered under ``puzzle/name``."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from puzzlelab.errors import OptionError, UnknownName
from puzzlelab.registry import Registry
from solvers import Assignment, Model


@dataclass(frozen=True)
class Option:
    """One option of a viewpoint: its default, its allowed values and what it does."""

    default: Any
    choices: tuple[Any, ...]
    help: str


@dataclass(frozen=True)
class BuiltModel:
    """What a viewpoint returns: the model, and a decoder from its solutions to a puzzle's."""

    model: Model
    decode: Callable[[Assignment], Any]


Builder = Callable[..., BuiltModel]


@dataclass(frozen=True)
class Viewpoint:
    """A registered viewpoint: ``build(instance, **options)`` gives a :class:`BuiltModel`."""

    puzzle: str
    name: str
    build_function: Builder
    options: Mapping[str, Option] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """Registry key, ``puzzle/name``."""
        return f"{self.puzzle}/{self.name}"

    @property
    def summary(self) -> str:
        """First line of the viewpoint's docstring."""
        return (inspect.getdoc(self.build_function) or "").splitlines()[0]

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``given``; unknown names and bad values raise ``OptionError``."""
        resolved = {name: option.default for name, option in self.options.items()}
        for name, value in (given or {}).items():
            if name not in self.options:
                valid = ", ".join(self.options) or "none"
                raise OptionError(f"viewpoint {self.key} has no option {name!r} (options: {valid})")
            choices = self.options[name].choices
            by_text = {str(choice): choice for choice in choices}
            value = by_text.get(value, value) if isinstance(value, str) else value  # CLI text
            if value not in choices:
                raise OptionError(f"viewpoint {self.key}: option {name} must be one of "
                                  f"{', '.join(map(str, choices))}, not {value!r}")
            resolved[name] = value
        return resolved

    def build(self, instance: Any, options: Mapping[str, Any] | None = None) -> BuiltModel:
        """Build the model of ``instance`` under ``options`` (defaults for those not given)."""
        return self.build_function(instance, **self.resolve_options(options))


VIEWPOINTS: Registry[Viewpoint] = Registry("viewpoint")


@dataclass(frozen=True)
class Defaults:
    """What ``puzzlelab solve`` uses for a puzzle when the user names nothing."""

    viewpoint: str
    solver: str
    heuristic: str


DEFAULTS: Registry[Defaults] = Registry("puzzle defaults")


def viewpoint(puzzle: str, name: str,
              options: Mapping[str, Option] | None = None) -> Callable[[Builder], Builder]:
    """Register the decorated function as the viewpoint ``puzzle/name``."""

    def register(function: Builder) -> Builder:
        VIEWPOINTS.add(f"{puzzle}/{name}", Viewpoint(puzzle, name, function, dict(options or {})))
        return function

    return register


def set_defaults(puzzle: str, viewpoint: str, solver: str, heuristic: str) -> None:
    """Record the default viewpoint, solver and heuristic of ``puzzle`` (once)."""
    DEFAULTS.add(puzzle, Defaults(viewpoint, solver, heuristic))


def get_viewpoint(puzzle: str, name: str) -> Viewpoint:
    """The viewpoint ``name`` of ``puzzle``; an unknown one lists the puzzle's viewpoints."""
    key = name if "/" in name else f"{puzzle}/{name}"
    if key not in VIEWPOINTS:
        valid = [v.name for v in (VIEWPOINTS.get(k) for k in VIEWPOINTS) if v.puzzle == puzzle]
        raise UnknownName(f"{puzzle} viewpoint", name, valid)
    return VIEWPOINTS.get(key)


def viewpoints_of(puzzle: str) -> list[Viewpoint]:
    """Every viewpoint registered for ``puzzle``, in registration order."""
    return [VIEWPOINTS.get(k) for k in VIEWPOINTS if VIEWPOINTS.get(k).puzzle == puzzle]
