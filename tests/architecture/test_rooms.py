"""The rooms of ``experiments/`` import one way (command line -> analysis, reasoning
features and benchmarks -> campaign engine -> solving), no module is too long to read in
one sitting, and the code that serves every puzzle names none of them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from puzzles import PUZZLES
from tests.architecture.test_layers import ALLOWED
from tests.paths import ROOT

EXPERIMENTS = ROOT / "experiments"
#: the rooms of experiments/ each may import, beside itself (top-level modules by name)
ROOMS = {
    "campaign": set(),
    "analysis": {"campaign", "reasoning"},  # the report shows explanations
    "reasoning": {"campaign"},  # grading now; explanations and hints later
    "studies": {"campaign", "analysis", "generate", "reasoning"},
    "cli": {"campaign", "analysis", "reasoning", "studies", "generate", "api"},
    "generate": {"campaign", "reasoning"},
    "api": {"campaign", "analysis", "reasoning"},  # explain and hint
    "__main__": {"cli"},
    "__init__": {"api"},
}
MOST_LINES = 400
MOST_TOP_MODULES = 8
PUZZLE_NEUTRAL = [EXPERIMENTS / "cli", EXPERIMENTS / "campaign", EXPERIMENTS / "analysis",
                  EXPERIMENTS / "reasoning", ROOT / "solvers", ROOT / "puzzlelab"]


def room_of(path: Path) -> str:
    """The room a module of experiments/ is in: its sub-package, or its own name."""
    parts = path.relative_to(EXPERIMENTS).parts
    return parts[0] if len(parts) > 1 else Path(parts[0]).stem


def imported_rooms(path: Path) -> set[str]:
    """The rooms of experiments/ a module imports, at its top or inside functions."""
    rooms = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module] if isinstance(node, ast.ImportFrom) and node.module
                 and not node.level else [])
        for name in names:
            parts = name.split(".")
            if parts[0] == "experiments" and len(parts) > 1:
                rooms.add(parts[1])
    return rooms


MODULES = sorted(EXPERIMENTS.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(EXPERIMENTS)))
def test_a_room_imports_only_the_rooms_below_it(path: Path) -> None:
    room = room_of(path)
    assert room in ROOMS, f"{path.relative_to(ROOT)}: a new room; say what it may import"
    wrong = imported_rooms(path) - ROOMS[room] - {room}
    assert not wrong, f"{path.relative_to(ROOT)} ({room}) imports {sorted(wrong)}"


def test_the_engine_never_imports_the_analysis() -> None:
    engine = [path for path in MODULES if room_of(path) == "campaign"]
    assert engine and all("analysis" not in imported_rooms(path) for path in engine)


def test_experiments_has_few_modules_at_its_top() -> None:
    top = sorted(path.name for path in EXPERIMENTS.glob("*.py"))
    assert len(top) <= MOST_TOP_MODULES, top


def test_the_specs_are_data_in_a_folder_of_their_own() -> None:
    assert not list(EXPERIMENTS.glob("*.toml"))
    assert len(list((EXPERIMENTS / "specs").glob("*.toml"))) >= 10


@pytest.mark.parametrize("layer", [*sorted(ALLOWED), "tests"])
def test_no_module_is_longer_than_a_sitting(layer: str) -> None:
    long = {str(path.relative_to(ROOT)): count for path in (ROOT / layer).rglob("*.py")
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, f"modules over {MOST_LINES} lines: {long}"


def _code_words(path: Path) -> set[str]:
    """The names and string constants of a module's code: docstrings and comments left
    out (they may give a puzzle as an example)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            words.add(node.value)
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            words.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.add(node.module)
        elif isinstance(node, ast.alias):
            words.add(node.name)
    return words


@pytest.mark.parametrize("folder", PUZZLE_NEUTRAL, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_that_serves_every_puzzle_names_none(folder: Path) -> None:
    names = "|".join(re.escape(name.replace("-", "_")) for name in PUZZLES.names())
    pattern = re.compile(rf"(?i)\b\w*({names})\w*\b|({names})")
    named = {f"{path.relative_to(ROOT)}: {word!r}" for path in folder.rglob("*.py")
             for word in _code_words(path) if pattern.search(word.replace("-", "_"))}
    assert not named, sorted(named)


def test_untyped_records_stay_at_the_sqlite_and_json_boundaries() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}" for path in MODULES
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "dict[str, Any]" in line]
    assert len(found) <= 5, found
