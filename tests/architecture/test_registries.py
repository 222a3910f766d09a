"""Registries: filled by decorators, duplicates rejected, unknown names list the valid ones."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import puzzles
import solvers.backends
import viewpoints
from puzzlelab.errors import DuplicateName, UnknownName
from puzzlelab.registry import Registry
from puzzles import PUZZLES
from solvers import BACKENDS, load_backends
from tests.architecture.test_layers import LAYERS
from tests.facts import states
from tests.paths import ROOT
from viewpoints import DEFAULTS, VIEWPOINTS, counting_defaults, get_viewpoint

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


def test_an_ordered_registry_lists_by_its_key_not_by_import_order() -> None:
    registry = Registry[str]("module", order=lambda module: module)
    for name, module in (("z", "pkg.c"), ("a", "pkg.b"), ("m", "pkg.a")):
        registry.add(name, module)
    assert registry.names() == list(registry) == ["m", "a", "z"]


def test_backends_are_listed_in_the_packages_module_order() -> None:
    """A module that imports one backend early (the Shikaku levels import cp's root
    propagation) must not move that backend up in ``list`` and the README."""
    modules = [BACKENDS.get(name).__module__ for name in BACKENDS.names()]
    assert modules == sorted(modules)


def imported_submodules(package: str, files: Iterable[Path]) -> set[str]:
    """The modules of ``package`` (``puzzles``: ``sudoku``, ``svg``, ...) that ``files`` import."""
    imported = set()
    for file in files:
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                # from puzzles import svg; from puzzles.svg import text
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue  # the project writes no relative imports
            imported |= {name[len(package) + 1:].split(".")[0] for name in names
                         if name.startswith(f"{package}.")}
    return imported


def files_of(package: ModuleType, module: str) -> list[Path]:
    """The source files of a module, or of every module of a sub-package."""
    path = Path(package.__path__[0]) / module
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


def used_from_outside(package: ModuleType) -> set[str]:
    """Modules of ``package`` that the project's code outside it imports (not the tests)."""
    inside = Path(package.__path__[0])
    files = [path for layer in LAYERS for path in (ROOT / layer).rglob("*.py")
             if inside not in path.parents]
    return imported_submodules(package.__name__, files)


def dead_modules(package: ModuleType, registering: set[str]) -> set[str]:
    """Modules of ``package`` that register nothing and serve nothing: neither a module
    that registers (directly or through other helpers) nor the code of another layer."""
    modules = {info.name for info in pkgutil.iter_modules(package.__path__)
               if not info.name.startswith("_")}
    used, waiting = set(), [*registering, *used_from_outside(package)]
    while waiting:
        module = waiting.pop()
        if module in modules and module not in used:
            used.add(module)
            waiting += imported_submodules(package.__name__, files_of(package, module))
    return modules - used


def module_of(entry_module: str, package: ModuleType) -> str:
    """The package's own module an entry was defined in: ``puzzles.sudoku`` -> ``sudoku``."""
    return entry_module[len(package.__name__) + 1:].split(".")[0]


@pytest.mark.parametrize(("package", "registry", "defined_in"), [
    (puzzles, PUZZLES, lambda entry: type(entry).__module__),
    (viewpoints, VIEWPOINTS, lambda entry: entry.build_function.__module__),
    (solvers.backends, BACKENDS, lambda entry: entry.__module__),
], ids=["puzzles", "viewpoints", "backends"])
def test_every_module_registers_something_or_serves_one_that_does(
        package: ModuleType, registry: Registry[Any], defined_in: Callable[[Any], str]) -> None:
    """A module that registers nothing and that nothing uses is dead weight (or a
    forgotten decorator). No list of helper modules is kept: the registry says which
    modules are puzzles, viewpoints or backends, the imports which are their helpers."""
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
    registering = {module_of(defined_in(registry.get(name)), package) for name in registry}
    assert registering, f"{package.__name__}: nothing is registered"
    assert not dead_modules(package, registering), (
        f"{package.__name__}: modules that neither register something nor serve one that "
        f"does: {sorted(dead_modules(package, registering))}")


def test_a_module_that_serves_nothing_is_found(tmp_path: Path) -> None:
    """The rule above can fail: a stray module beside the puzzles is named."""
    folder = tmp_path / "fake"
    folder.mkdir()
    (folder / "game.py").write_text("from fake import helper\nfrom fake.rules import x\n")
    for name in ("helper", "rules", "stray"):
        (folder / f"{name}.py").write_text("x = 1\n")
    fake = ModuleType("fake")
    fake.__path__ = [str(folder)]
    assert dead_modules(fake, {"game"}) == {"stray"}


def test_every_viewpoint_is_of_a_registered_puzzle() -> None:
    """A puzzle module that forgot to register is found by its viewpoints."""
    assert {VIEWPOINTS.get(key).puzzle for key in VIEWPOINTS} <= set(PUZZLES)


def test_every_puzzle_with_viewpoints_has_defaults() -> None:
    puzzles_with_viewpoints = {VIEWPOINTS.get(key).puzzle for key in VIEWPOINTS}
    for puzzle in puzzles_with_viewpoints:
        for defaults in (DEFAULTS.get(puzzle), counting_defaults(puzzle)):
            assert get_viewpoint(puzzle, defaults.viewpoint)
            assert defaults.solver in BACKENDS
        assert "+symmetric" not in counting_defaults(puzzle).heuristic


def test_reading_the_sources_names_what_importing_registers() -> None:
    """The registries name their entries from the modules' sources, without importing
    them; importing every module must register exactly those names, in that order."""
    script = """
import json
from puzzles import PUZZLES, load_puzzle_modules
from solvers import BACKENDS, load_backends
from viewpoints import DEFAULTS, VIEWPOINTS, load_viewpoints
registries = {"puzzles": PUZZLES, "backends": BACKENDS, "viewpoints": VIEWPOINTS,
              "defaults": DEFAULTS}
named = {name: registry.names() for name, registry in registries.items()}
load_puzzle_modules(); load_backends(); load_viewpoints()
print(json.dumps([named, {name: r.names() for name, r in registries.items()}]))
"""
    import json
    import subprocess
    import sys

    finished = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                              text=True, timeout=120, check=True)
    named, registered = json.loads(finished.stdout)
    assert named == registered
    assert len(named["puzzles"]) == 4 and "sudoku/classic" in named["viewpoints"]


def test_a_module_that_does_not_register_what_its_source_names_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "ghostly"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "real.py").write_text('from tests.architecture import test_registries as t\n'
                                     't.SCANNED.add("real", 1)\n')
    (package / "ghost.py").write_text('"""Would say: @register("ghost")"""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry[int]("thing")
    monkeypatch.setattr(f"{__name__}.SCANNED", registry, raising=False)
    registry.expect_from_sources("ghostly", package, r'add\("(\w+)"')
    registry.expect_from_sources("ghostly", package, r'@register\("(\w+)"\)')
    assert registry.names() == ["real", "ghost"] and "ghost" in registry
    assert registry.get("real") == 1
    with pytest.raises(LookupError) as raised:
        registry.get("ghost")
    # the module at fault, the registry's kind and the missing name; not the one it did add
    assert states(str(raised.value), "ghostly.ghost", "thing", "'ghost'")
    assert "real" not in str(raised.value)
