"""A direct pychoco script: one 9x9 Sudoku of a file of 81-character lines solved with
Choco, as a user would write it without PuzzleLab (the start-up benchmark's other side)."""

import sys

from pychoco import Model


def main(path: str, number: int) -> None:
    """Solve puzzle ``number`` (1-based) of the file (all_different AC, first-fail), print."""
    with open(path, encoding="utf-8") as lines:
        puzzles = [line.strip() for line in lines if line.strip()[:1] not in ("", "#")]
    givens = [0 if c in ".0" else int(c) for c in puzzles[number - 1]]
    model = Model("sudoku")
    cells = [model.intvar(g, g) if g else model.intvar(1, 9) for g in givens]
    groups = [[9 * r + c for c in range(9)] for r in range(9)]
    groups += [[9 * r + c for r in range(9)] for c in range(9)]
    groups += [[9 * (3 * br + i) + 3 * bc + j for i in range(3) for j in range(3)]
               for br in range(3) for bc in range(3)]
    for group in groups:
        model.all_different([cells[i] for i in group], "AC").post()
    solver = model.get_solver()
    solver.set_min_dom_lb_search(*cells)
    if not solver.solve():
        raise SystemExit("no solution")
    print("".join(str(cell.get_value()) for cell in cells))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
