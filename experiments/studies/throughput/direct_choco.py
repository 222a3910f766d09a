"""The direct pychoco script, solved in this process: the classic model with AC
alldifferent, smallest domain first (:func:`experiments.studies.sudoku_direct.choco_model`).

``backtracks`` is Choco's backtrack count; ``branches`` is None, since pychoco 0.4's
``Solver.get_node_count`` answers the time count instead of the node count. pychoco is
optional: it is imported on the first solve, so this module loads without it.
"""

from __future__ import annotations

import importlib

from experiments.studies.sudoku_direct import choco_model
from experiments.studies.throughput.direct import DirectAnswer


def available() -> bool:
    """Whether pychoco can be imported here (installed, and its native library loads)."""
    try:
        importlib.import_module("pychoco")
    except (ImportError, OSError):
        return False
    return True


def solve(puzzle: str) -> DirectAnswer:
    """Build and solve the classic model of one 81-character puzzle line."""
    solver, cells = choco_model(puzzle)
    if not solver.solve():
        return DirectAnswer(None, solver.get_backtrack_count(), None)
    digits = "".join(str(cell.get_value()) for cell in cells)
    return DirectAnswer(digits, solver.get_backtrack_count(), None)
