"""The direct OR-tools CP-SAT script: the classic model written plainly, one worker.

81 integer variables 1..9 (a given fixes its domain), ``add_all_different`` on every
row, column and box; CP-SAT's own search. ``backtracks`` is None, as for PuzzleLab's
``cpsat`` backend; ``branches`` is CP-SAT's own count.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from experiments.studies.sudoku_direct import GROUPS
from experiments.studies.throughput.direct import DirectAnswer

EMPTY = ".0"


def solve(puzzle: str) -> DirectAnswer:
    """Build and solve the classic model of one 81-character puzzle line."""
    model = cp_model.CpModel()
    cells = [model.new_int_var(1, 9, f"cell_{index}") if char in EMPTY
             else model.new_int_var(int(char), int(char), f"cell_{index}")
             for index, char in enumerate(puzzle)]
    for unit in GROUPS:
        model.add_all_different([cells[index] for index in unit])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return DirectAnswer(None, None, solver.num_branches)
    digits = "".join(str(solver.value(cell)) for cell in cells)
    return DirectAnswer(digits, None, solver.num_branches)
