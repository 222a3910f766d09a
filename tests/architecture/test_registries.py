"""Registries: filled by decorators, duplicates rejected, unknown names list the valid ones."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import puzzles
import solvers.backends
import viewpoints
from puzzlelab.errors import DuplicateName, UnknownName
from puzzlelab.registry import Registry
from puzzles import PUZZLES
from solvers import BACKENDS, load_backends
from viewpoints import DEFAULTS, VIEWPOINTS, get_viewpoint

load_backends()


def test_duplicate_names_are_errors() -> None:
    registry = Registry[int]("number")
    registry.add("one", 1)
    with pytest.raises(DuplicateName, match="one"):
        registry.add("one", 2)


def test_unknown_names_list_the_valid_ones() -> None:
    with pytest.raises(UnknownName, match="cpsat"):
        BACKENDS.get("gecode")
    with pytest.raises(UnknownName, match="classic"):
        get_viewpoint("sudoku", "diagonal")


@pytest.mark.parametrize(("package", "registry", "owner"), [
    (puzzles, PUZZLES, lambda entry: entry.name),
    (viewpoints, VIEWPOINTS, lambda entry: entry.build_function.__module__.split(".")[-1]),
    (solvers.backends, BACKENDS, lambda entry: entry.__module__.split(".")[-1]),
])
def test_every_module_registers_something(package, registry, owner) -> None:
    """A module that registers nothing is dead weight (or a forgotten decorator)."""
    skip = set(package.INFRASTRUCTURE_MODULES)
    modules = {info.name for info in pkgutil.iter_modules(package.__path__)
               if not info.name.startswith("_") and info.name not in skip}
    for module in modules:
        importlib.import_module(f"{package.__name__}.{module}")
    owners = {owner(registry.get(name)).replace("-", "_") for name in registry}
    assert modules <= owners, f"modules registering nothing: {sorted(modules - owners)}"


def test_every_puzzle_with_viewpoints_has_defaults() -> None:
    puzzles_with_viewpoints = {VIEWPOINTS.get(key).puzzle for key in VIEWPOINTS}
    for puzzle in puzzles_with_viewpoints:
        defaults = DEFAULTS.get(puzzle)
        assert get_viewpoint(puzzle, defaults.viewpoint)
        assert defaults.solver in BACKENDS
