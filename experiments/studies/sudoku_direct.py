"""A direct pychoco script: every 9x9 Sudoku of files of 81-character lines solved with
Choco, as a user would write it without PuzzleLab (the start-up and campaign benchmarks'
other side; the throughput benchmark solves with its model in process)."""

import sys
from typing import Any

WHY_THIS_SCRIPT = (
    "The direct script is pychoco (Choco, all_different with arc consistency, the smallest "
    "domain first): of the direct scripts measured for Sudoku, Choco solves the most puzzles "
    "a second (docs/sudoku-throughput.md: about three times CP-SAT's), and Choco is the "
    "default Sudoku solver, so the script is the same search without PuzzleLab.")
"""Which direct script the benchmarks compare with, and why: their READMEs say it."""

GROUPS = ([[9 * r + c for c in range(9)] for r in range(9)]
          + [[9 * r + c for r in range(9)] for c in range(9)]
          + [[9 * (3 * br + i) + 3 * bc + j for i in range(3) for j in range(3)]
             for br in range(3) for bc in range(3)])


def choco_model(puzzle: str) -> tuple[Any, list[Any]]:
    """The solver and cells of one puzzle line: all_different AC on every row, column and
    box, the smallest domain first."""
    from pychoco import Model

    model = Model("sudoku")
    cells = [model.intvar(int(c), int(c)) if c not in ".0" else model.intvar(1, 9)
             for c in puzzle]
    for group in GROUPS:
        model.all_different([cells[i] for i in group], "AC").post()
    solver = model.get_solver()
    solver.set_min_dom_lb_search(*cells)
    return solver, cells


def solve(puzzle: str) -> str:
    """The solution of one puzzle line, as 81 digits."""
    solver, cells = choco_model(puzzle)
    if not solver.solve():
        raise SystemExit(f"no solution: {puzzle}")
    return "".join(str(cell.get_value()) for cell in cells)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                if line.strip()[:1] not in ("", "#"):
                    print(solve(line.strip()))
