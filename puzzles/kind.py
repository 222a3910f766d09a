"""What every puzzle module offers, bundled so the upper layers can treat puzzles alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlelab.errors import InstanceNotFound
from puzzlelab.registry import Registry


@dataclass(frozen=True)
class PuzzleKind:
    """The puzzle-level operations the CLI, the runner and the tests rely on.

    Attributes:
        name: registry key, e.g. ``"sudoku"``.
        read_file: every instance of a file, in file order (raises ``ParseError``).
        check: the independent checker: the list of violated rules, empty when solved.
        render_text: plain-text picture of the puzzle, or of a (partial) solution.
        render_svg: SVG picture for reports.
        solution_to_json: a JSON-ready form of a solution (for ``--json``).
        instance_name: the name an instance is picked by.
        known_solution: the solution a file ships with the instance, if any.
    """

    name: str
    read_file: Callable[[Path], Sequence[Any]]
    check: Callable[[Any, Any], list[str]]
    render_text: Callable[..., str]
    render_svg: Callable[..., str]
    solution_to_json: Callable[[Any], Any]
    instance_name: Callable[[Any], str]
    known_solution: Callable[[Any], Any]

    def load(self, path: str | Path, selector: str | int | None = None) -> Any:
        """One instance of ``path``: by name, by 1-based index, or the only one."""
        path = Path(path)
        instances = self.read_file(path)
        return pick_instance(instances, selector, path, self.instance_name)


def pick_instance(instances: Sequence[Any], selector: str | int | None, path: Path,
                  name_of: Callable[[Any], str]) -> Any:
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


def _some_names(instances: Sequence[Any], name_of: Callable[[Any], str], most: int = 20) -> str:
    names = [name_of(i) for i in instances[:most]]
    more = f", ... ({len(instances) - most} more)" if len(instances) > most else ""
    return ", ".join(names) + more


PUZZLES: Registry[PuzzleKind] = Registry("puzzle")
