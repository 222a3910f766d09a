"""Puzzles: instances, file formats, independent checkers, rendering. Knows nothing of solving.

A puzzle module registers a :class:`PuzzleKind` in ``PUZZLES`` (the registry, not a list
kept here, says which modules are puzzles). Each is named from its module's source when
this package is imported, and imported when first asked for: a Sudoku solve does not
read the Hashi modules.
"""

from pathlib import Path

from puzzles.kind import PUZZLES, DataSet, PuzzleKind, puzzle_of, register
from puzzles.options import Option, OptionValues, Size
from puzzles.picking import pick_instance

__all__ = ["PUZZLES", "DataSet", "Option", "OptionValues", "PuzzleKind", "Size",
           "load_puzzle_modules", "pick_instance", "puzzle_of", "register"]


def load_puzzle_modules() -> None:
    """Import every puzzle module (the registry's whole listing, the test grid)."""
    PUZZLES.load()


# a puzzle module's kind says ``name = "..."`` and the module calls ``register(...)``
PUZZLES.expect_from_sources(__name__, Path(__file__).parent,
                            r'(?ms)^class \w+\(PuzzleKind\[.*?^    name = "([\w-]+)"$'
                            r'(?=.*^\w+ = register\()')
