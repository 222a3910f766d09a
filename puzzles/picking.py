"""Picking an instance out of a file, and trusting a file's known solution: what every
puzzle's reading shares, apart from the puzzle contract (:mod:`puzzles.kind`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from puzzlelab.errors import InstanceNotFound, ParseError

T = TypeVar("T")
SolutionT = TypeVar("SolutionT")


def pick_instance(instances: Sequence[T], selector: str | int | None, path: Path,
                  name_of: Callable[[T], str]) -> T:
    """Select by name or 1-based index; a string of digits that is no name counts as an index."""
    if selector is None:
        if len(instances) == 1:
            return instances[0]
        raise InstanceNotFound(
            f"{path}: holds {len(instances)} instances; pick one by name or 1-based index "
            f"(names: {_some_names(instances, name_of)})")
    if isinstance(selector, str):
        for instance in instances:
            if name_of(instance) == selector:
                return instance
        if not (selector.isascii() and selector.isdigit()):  # not "²", not "２"
            names = _some_names(instances, name_of)
            raise InstanceNotFound(f"{path}: no instance named {selector!r} (names: {names})")
        selector = int(selector)
    if not 1 <= selector <= len(instances):
        raise InstanceNotFound(f"{path}: index {selector} is out of range 1..{len(instances)}")
    return instances[selector - 1]


def known_solution_checked(instance: T, solution: SolutionT,
                           check: Callable[[T, SolutionT], list[str]], name: str,
                           source: str, line: int | None) -> SolutionT:
    """``solution``, once the puzzle's checker accepts it for ``instance``: a file's known
    solution is trusted by everything downstream, so a wrong one is a ``ParseError``
    pointing at the line where it starts."""
    wrong = check(instance, solution)
    if wrong:
        raise ParseError(f"the known solution of {name!r} is not one: {wrong[0]}",
                         source=source, line=line)
    return solution


def _some_names(instances: Sequence[T], name_of: Callable[[T], str], most: int = 20) -> str:
    names = [name_of(i) for i in instances[:most]]
    more = f", ... ({len(instances) - most} more)" if len(instances) > most else ""
    return ", ".join(names) + more
