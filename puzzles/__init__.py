"""Puzzles: instances, file formats, independent checkers, rendering. Knows nothing of solving.

Every module of the package is imported; those that are puzzles register a
:class:`PuzzleKind` in ``PUZZLES`` (the registry, not a list kept here, says which
modules are puzzles), and the others are helpers that the puzzles import.
"""

from puzzlelab.registry import import_submodules
from puzzles.kind import PUZZLES, DataSet, PuzzleKind, pick_instance, register
from puzzles.options import Option, OptionValues, Size

__all__ = ["PUZZLES", "DataSet", "Option", "OptionValues", "PuzzleKind", "Size",
           "load_puzzle_modules", "pick_instance", "register"]


def load_puzzle_modules() -> None:
    """Import every module of the package, so that each puzzle registers its kind."""
    import puzzles

    import_submodules(puzzles)


load_puzzle_modules()
