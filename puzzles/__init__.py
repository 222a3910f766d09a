"""Puzzles: instances, file formats, independent checkers, rendering. Knows nothing of solving."""

from puzzlelab.registry import import_submodules
from puzzles.kind import PUZZLES, PuzzleKind

__all__ = ["PUZZLES", "PuzzleKind", "load_puzzle_modules"]

#: modules of this package that hold machinery (shared, or a puzzle's file syntax), not a puzzle
INFRASTRUCTURE_MODULES = ("kind", "text_input", "svg", "nonogram_formats", "nonogram_symmetry")


def load_puzzle_modules() -> None:
    """Import every puzzle module so each registers its ``PuzzleKind``."""
    import puzzles

    import_submodules(puzzles, skip=INFRASTRUCTURE_MODULES)


load_puzzle_modules()
