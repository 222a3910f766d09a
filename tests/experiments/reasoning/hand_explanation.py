"""An explanation made by hand from the step types, on a 4x4 Sudoku with three empty
cells: one step each, each with its own constraint, premises, cell and cost, so a page
that shows the wrong step shows the wrong cells."""

from __future__ import annotations

from typing import Any

from experiments.reasoning.steps import SOLVED, Explanation, Fact, Reason, Step
from puzzles import PUZZLES

TEXT = "== tiny\nproblem:\n4 4\n1 2 3 -\n3 4 - 2\n2 1 4 3\n- 3 2 1\n"
DIGITS = (1, 2, 3, 4)
NOUNS = {"rows": "row", "columns": "column", "boxes": "box"}


def tiny() -> Any:
    """The instance: empty at (0, 3), (1, 2) and (3, 0)."""
    return PUZZLES.get("sudoku").parse(TEXT)[0]


def fact(row: int, column: int, value: int) -> Fact:
    """``rRcC = value`` of the cell at (row, column), 0-based."""
    return Fact(f"r{row + 1}c{column + 1} = {value}", "cell", (row, column), (value,),
                tuple(d for d in DIGITS if d != value), ((row, column),), str(value))


def step(reason: str, group: str, weight: int, cells: list[tuple[int, int]],
         premises: list[Fact], derived: Fact) -> Step:
    """One step from ``reason`` (on ``cells``) and ``premises`` to ``derived``."""
    used = Reason(reason, group, f"each {NOUNS[group]} holds each digit once", weight,
                  tuple(cells))
    return Step((derived,), (used,), tuple(premises), weight + len(premises))


def hand_explanation(note: str = "") -> Explanation:
    """Row 1 fills (0, 3), column 3 fills (1, 2), box 3 fills (3, 0)."""
    instance = tiny()
    givens = tuple(fact(r, c, v) for r, row in enumerate(instance.givens)
                   for c, v in enumerate(row) if v)
    steps = (
        step("row 1", "rows", 1, [(0, c) for c in range(4)],
             [fact(0, 0, 1), fact(0, 1, 2), fact(0, 2, 3)], fact(0, 3, 4)),
        step("column 3", "columns", 2, [(r, 2) for r in range(4)],
             [fact(0, 2, 3), fact(2, 2, 4), fact(3, 2, 2)], fact(1, 2, 1)),
        step("box 3", "boxes", 3, [(2, 0), (2, 1), (3, 0), (3, 1)],
             [fact(2, 0, 2), fact(2, 1, 1), fact(3, 1, 3)], fact(3, 0, 4)),
    )
    solution = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    return Explanation("tiny", "sudoku", "sudoku/classic", givens, steps, SOLVED,
                       solution=solution, note=note)


def cells_text(cells: tuple[tuple[int, int], ...]) -> str:
    """Cells as the page's ``data-cells`` lists them: ``r,c`` each, space-separated."""
    return " ".join(f"{r},{c}" for r, c in cells)
