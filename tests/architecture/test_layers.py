"""The layers import one way (docs/architecture.md), and our packages are the ones Python
imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.paths import ROOT

LAYERS = ("puzzles", "solvers", "viewpoints", "experiments")
#: which project packages each layer may import (puzzlelab is the shared kernel)
ALLOWED = {
    "puzzlelab": {"puzzlelab"},
    "puzzles": {"puzzlelab", "puzzles"},
    "solvers": {"puzzlelab", "solvers"},
    "viewpoints": {"puzzlelab", "puzzles", "solvers", "viewpoints"},
    "experiments": {"puzzlelab", "puzzles", "solvers", "viewpoints", "experiments"},
}


def imported_packages(path: Path) -> set[str]:
    """Top-level names of every module the file imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", ALLOWED)
def test_imports_go_one_way(layer: str) -> None:
    project = set(ALLOWED)
    for path in sorted((ROOT / layer).rglob("*.py")):
        forbidden = (imported_packages(path) & project) - ALLOWED[layer]
        assert not forbidden, f"{path.relative_to(ROOT)} imports {sorted(forbidden)}"


def test_only_the_cp_backend_package_touches_pywrapcp() -> None:
    users = [path.relative_to(ROOT).as_posix() for layer in ALLOWED
             for path in (ROOT / layer).rglob("*.py") if "pywrapcp" in path.read_text()]
    assert users and all(user.startswith("solvers/backends/cp/") for user in users), users


@pytest.mark.parametrize("package", [*LAYERS, "puzzlelab"])
def test_our_packages_resolve_inside_the_repository(package: str) -> None:
    module = __import__(package)
    assert Path(module.__file__).resolve().parent == ROOT / package
