"""User modules an experiment imports first, so their viewpoints (or puzzles) register.

An entry is a dotted module name or a ``.py`` file relative to the spec. Loading is
idempotent: a module already loaded is not executed again (its registrations would
clash), which lets the runner, its workers and the tests load the same spec repeatedly.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

from puzzlelab.errors import PuzzleLabError


def resolve_modules(entries: Iterable[str], base: Path) -> list[str]:
    """Entries with ``.py`` files made absolute (from ``base``), dotted names kept."""
    return [str((base / entry).resolve()) if entry.endswith(".py") else entry
            for entry in entries]


def load_modules(entries: Iterable[str], base: Path = Path()) -> list[ModuleType]:
    """Import every entry once; a missing module or a failing import is a ``PuzzleLabError``."""
    return [_load(entry) for entry in resolve_modules(entries, base)]


def _load(entry: str) -> ModuleType:
    if not entry.endswith(".py"):
        try:
            return importlib.import_module(entry)
        except ImportError as error:
            raise PuzzleLabError(f"cannot import module {entry!r}: {error}") from None
    path = Path(entry)
    name = f"puzzlelab_user_{path.stem}_{hashlib.sha1(entry.encode()).hexdigest()[:8]}"
    if name in sys.modules:
        return sys.modules[name]
    if not path.is_file():
        raise PuzzleLabError(f"module file {path} not found")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PuzzleLabError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise PuzzleLabError(f"importing {path} failed: {type(error).__name__}: {error}") from None
    return module
