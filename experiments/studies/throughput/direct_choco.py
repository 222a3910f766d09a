"""The direct pychoco script: the classic model with AC alldifferent, smallest domain first.

81 integer variables 1..9 (a given fixes its domain), ``all_different(..., "AC")``
(Régin's arc consistency, Zhang's improvement) on every row, column and box;
search ``set_min_dom_lb_search`` (smallest domain, then its lowest value).
``backtracks`` is Choco's backtrack count; ``branches`` is None, since pychoco 0.4's
``Solver.get_node_count`` answers the time count instead of the node count.

pychoco is optional: it is imported on the first solve, so this module loads without it.
"""

from __future__ import annotations

import importlib

from experiments.studies.throughput.direct import UNITS, DirectAnswer

EMPTY = ".0"


def available() -> bool:
    """Whether pychoco can be imported here (installed, and its native library loads)."""
    try:
        importlib.import_module("pychoco")
    except (ImportError, OSError):
        return False
    return True


def solve(puzzle: str) -> DirectAnswer:
    """Build and solve the classic model of one 81-character puzzle line."""
    from pychoco import Model

    model = Model()
    cells = [model.intvar(1, 9, f"cell_{index}") if char in EMPTY
             else model.intvar(int(char), int(char), f"cell_{index}")
             for index, char in enumerate(puzzle)]
    for unit in UNITS:
        model.all_different([cells[index] for index in unit], "AC").post()
    solver = model.get_solver()
    solver.set_min_dom_lb_search(*cells)
    if not solver.solve():
        return DirectAnswer(None, solver.get_backtrack_count(), None)
    digits = "".join(str(cell.get_value()) for cell in cells)
    return DirectAnswer(digits, solver.get_backtrack_count(), None)
