"""Sudoku viewpoints: cell -> value, value -> position, both channeled, and one-hot Booleans.

Values are 0-based inside every model (variable value ``d`` means digit ``d + 1``),
so the ``inverse`` channeling can join cells and positions directly; the decoders
add the 1 back.
"""

from __future__ import annotations

from puzzles.sudoku import SudokuInstance, SudokuSolution
from solvers import (
    Assignment,
    IntVar,
    Model,
    all_different,
    element,
    equivalent_to_equality,
    exactly_one,
    inverse,
)
from solvers.constraints import Strength
from viewpoints.grades import Generation, RootPropagation, Rung, Search, set_ladder
from viewpoints.registry import BuiltModel, Option, set_defaults, viewpoint
from viewpoints.sudoku_terms import SudokuTerms
from viewpoints.terms import set_terms

ALLDIFF = Option("weak", ("weak", "strong", "hall"),
                 "all_different propagation: weak (value-based), strong (bounds/domain) or "
                 "hall (ECLiPSe ic_global's check, on the ic solver)")
CHANNEL = Option("inverse", ("inverse", "reified"),
                 "channeling: the inverse global per row, or cell==v <-> pos==c reified pairs")
SEARCH_SIDE = Option("cells", ("cells", "positions"),
                     "branch on the cell variables or on the value->position variables")

Grid = list[list[IntVar]]

# the fastest combination of the throughput benchmark; why: docs/defaults.md
set_defaults("sudoku", viewpoint="classic", options={"alldiff": "strong"}, solver="choco",
             heuristic="first-fail/min")

set_terms("sudoku", SudokuTerms())

MINIMAL = {"clues": "0"}
"""Clues 0 under ``--difficulty``: as few as uniqueness (and the grade) allow."""

set_ladder("sudoku", (
    Rung("weak", RootPropagation("classic", {"alldiff": "weak"}),
         "weak all_different: a placed digit leaves its row, column and box (naked singles)"),
    Rung("strong", RootPropagation("classic", {"alldiff": "strong"}, backend="choco"),
         "strong (domain) all_different: a digit that no way of filling its unit leaves "
         "to a cell leaves it (naked and hidden pairs, triples...: Choco's arc "
         "consistency)"),
    Rung("probing", RootPropagation("classic", {"alldiff": "strong"}, probing=True),
         "root probing (singleton consistency) over strong all_different: a digit whose "
         "trial fails at once leaves its cell (on cp, whose strong all_different is "
         "bounds consistency; on the course's puzzles it solves all the rung below does)"),
), Search("classic", "first-fail/min", {"alldiff": "strong"}), steers_generator=True,
    generation={
        # measured: results/difficulty-benchmark (a minimal puzzle is the hardest its grid
        # and thinning order give; 32 clues are rarely beyond the strong rung)
        "probing": Generation(MINIMAL, "clues taken away until none can go, staying at or "
                              "below the grade", "a longer --time-limit (120)"),
        "search": Generation(MINIMAL, "clues taken away until none can go",
                             "a longer --time-limit (180)"),
    })


def _boxes(size: int, box: int) -> list[list[tuple[int, int]]]:
    """The cells of each box, box by box in row-major order."""
    return [[(top + r, left + c) for r in range(box) for c in range(box)]
            for top in range(0, size, box) for left in range(0, size, box)]


def post_cells(model: Model, instance: SudokuInstance, strength: Strength) -> Grid:
    """``cell[r][c]`` = digit - 1 at row r, column c; rows, columns and boxes all different."""
    size = instance.size
    cells = [[model.int_var(instance.givens[r][c] - 1, instance.givens[r][c] - 1, f"cell_{r}_{c}")
              if instance.givens[r][c] else model.int_var(0, size - 1, f"cell_{r}_{c}")
              for c in range(size)] for r in range(size)]
    model.name_array("cell", cells, offset=1)
    model.describe_group("rows", "each row holds each digit once")
    model.describe_group("columns", "each column holds each digit once")
    model.describe_group("boxes", "each box holds each digit once")
    for i in range(size):  # row i, then column i: the order ECLiPSe's Sudoku program posts
        model.add(all_different(cells[i], strength), f"row {i + 1}", "rows")
        model.add(all_different((cells[r][i] for r in range(size)), strength),
                  f"column {i + 1}", "columns")
    for number, box in enumerate(_boxes(size, instance.box), start=1):
        model.add(all_different((cells[r][c] for r, c in box), strength), f"box {number}",
                  "boxes")
    return cells


def post_positions(model: Model, instance: SudokuInstance, strength: Strength) -> Grid:
    """``pos[v][r]`` = column of digit v + 1 in row r.

    Each row places its digits in different columns; each digit sits in different
    columns on different rows; and within a band of rows a digit's box-columns
    (``pos // box``, through an element constraint) differ, which is the box rule.
    """
    size, box = instance.size, instance.box
    given_column = {(instance.givens[r][c] - 1, r): c
                    for r in range(size) for c in range(size) if instance.givens[r][c]}
    positions = [[model.int_var(given_column[v, r], given_column[v, r], f"pos_{v}_{r}")
                  if (v, r) in given_column else model.int_var(0, size - 1, f"pos_{v}_{r}")
                  for r in range(size)] for v in range(size)]
    box_column_of = [column // box for column in range(size)]
    model.name_array("pos", positions, offset=1)
    model.describe_group("rows", "each row places its digits in different columns")
    model.describe_group("digits", "each digit stands in a different column on each row")
    model.describe_group("box columns", "the box column of each digit's column")
    model.describe_group("boxes", "within a band of rows, a digit's box columns differ")
    for r in range(size):
        model.add(all_different((positions[v][r] for v in range(size)), strength),
                  f"row {r + 1}", "rows")
    box_columns = []
    for v in range(size):
        model.add(all_different(positions[v], strength), f"digit {v + 1}", "digits")
        band_columns = []
        for r in range(size):
            box_column = model.int_var(0, box - 1, f"boxcol_{v}_{r}")
            model.add(element(box_column_of, positions[v][r], box_column),
                      f"digit {v + 1} in row {r + 1}", "box columns")
            band_columns.append(box_column)
        for top in range(0, size, box):
            model.add(all_different(band_columns[top:top + box], strength),
                      f"digit {v + 1} in rows {top + 1}-{top + box}", "boxes")
        box_columns.append(band_columns)
    model.name_array("boxcol", box_columns, offset=1)
    return positions


def _decode_cells(cells: Grid):
    def decode(assignment: Assignment) -> SudokuSolution:
        return SudokuSolution(tuple(tuple(assignment[v] + 1 for v in row) for row in cells))

    return decode


@viewpoint("sudoku", "classic", {"alldiff": ALLDIFF})
def classic(instance: SudokuInstance, alldiff: Strength) -> BuiltModel:
    """Cell -> value: one variable per cell, all_different on rows, columns and boxes.

    Variables: ``cell[r][c]`` in 0..n-1 (digit - 1); givens fix their cell.
    Search: the cells in row-major order.
    """
    model = Model(f"sudoku-classic-{instance.name}")
    cells = post_cells(model, instance, alldiff)
    model.branch_on([v for row in cells for v in row])
    return BuiltModel(model, _decode_cells(cells))


@viewpoint("sudoku", "value-position", {"alldiff": ALLDIFF})
def value_position(instance: SudokuInstance, alldiff: Strength) -> BuiltModel:
    """Value -> position: for every digit and row, the column where the digit stands.

    Variables: ``pos[v][r]`` in 0..n-1, plus ``boxcol[v][r] = pos[v][r] // k``.
    Constraints: all_different per row (over digits) and per digit (over rows); the
    box rule as all_different of a digit's box-columns within each band.
    Search: ``pos`` digit by digit, row by row.
    """
    size = instance.size
    model = Model(f"sudoku-value-position-{instance.name}")
    positions = post_positions(model, instance, alldiff)
    model.branch_on([v for row in positions for v in row])

    def decode(assignment: Assignment) -> SudokuSolution:
        grid = [[0] * size for _ in range(size)]
        for digit, row_columns in enumerate(positions):
            for r, variable in enumerate(row_columns):
                grid[r][assignment[variable]] = digit + 1
        return SudokuSolution(tuple(tuple(row) for row in grid))

    return BuiltModel(model, decode)


@viewpoint("sudoku", "channeled",
           {"alldiff": ALLDIFF, "channel": CHANNEL, "search": SEARCH_SIDE})
def channeled(instance: SudokuInstance, alldiff: Strength, channel: str, search: str) -> BuiltModel:
    """Both viewpoints joined by channeling: ``cell[r][c] == v <-> pos[v][r] == c``.

    Posts the classic and the value-position models unchanged and adds, per row,
    either ``inverse(cells of row r, pos[.][r])`` or, for every r, c, v, a 0/1
    ``b`` with ``b <-> cell[r][c] == v`` and ``b <-> pos[v][r] == c``.
    Search: on the cells or on the positions (option ``search``).
    """
    size = instance.size
    model = Model(f"sudoku-channeled-{instance.name}")
    cells = post_cells(model, instance, alldiff)
    positions = post_positions(model, instance, alldiff)
    model.describe_group("channeling", "a cell holds a digit exactly when the digit's "
                         "position in that row is the cell's column")
    at: list[list[list[IntVar]]] = []
    for r in range(size):
        row_positions = [positions[v][r] for v in range(size)]
        if channel == "inverse":
            model.add(inverse(cells[r], row_positions), f"row {r + 1}", "channeling")
            continue
        at.append([])
        for c in range(size):
            at[r].append([])
            for v in range(size):
                same = model.bool_var(f"at_{r}_{c}_{v}")
                at[r][c].append(same)
                label = f"r{r + 1}c{c + 1} = {v + 1}"
                model.add(equivalent_to_equality(same, cells[r][c], v), label, "channeling")
                model.add(equivalent_to_equality(same, positions[v][r], c), label,
                          "channeling")
    if at:
        model.name_array("at", at)
    side = cells if search == "cells" else positions
    model.branch_on([v for row in side for v in row])
    return BuiltModel(model, _decode_cells(cells))


@viewpoint("sudoku", "boolean")
def boolean(instance: SudokuInstance) -> BuiltModel:
    """One-hot (SAT-style): ``x[r][c][v]`` is 1 when cell (r, c) holds digit v + 1.

    Constraints: exactly one per cell, and exactly one per row, column and box for
    each digit. Givens fix their Boolean to 1. Search: the Booleans cell by cell.
    """
    size = instance.size
    model = Model(f"sudoku-boolean-{instance.name}")
    ones = [[[model.bool_var(f"x_{r}_{c}_{v}") if not instance.givens[r][c]
              else model.int_var(int(instance.givens[r][c] == v + 1),
                                 int(instance.givens[r][c] == v + 1), f"x_{r}_{c}_{v}")
              for v in range(size)] for c in range(size)] for r in range(size)]
    model.name_array("x", ones)
    model.describe_group("cells", "each cell holds one digit")
    model.describe_group("rows", "each digit once in each row")
    model.describe_group("columns", "each digit once in each column")
    model.describe_group("boxes", "each digit once in each box")
    for r in range(size):
        for c in range(size):
            model.add(exactly_one(ones[r][c]), f"r{r + 1}c{c + 1}", "cells")
    for v in range(size):
        for r in range(size):
            model.add(exactly_one(ones[r][c][v] for c in range(size)),
                      f"digit {v + 1} in row {r + 1}", "rows")
        for c in range(size):
            model.add(exactly_one(ones[r][c][v] for r in range(size)),
                      f"digit {v + 1} in column {c + 1}", "columns")
        for number, box in enumerate(_boxes(size, instance.box), start=1):
            model.add(exactly_one(ones[r][c][v] for r, c in box),
                      f"digit {v + 1} in box {number}", "boxes")
    model.branch_on([v for row in ones for cell in row for v in cell])

    def decode(assignment: Assignment) -> SudokuSolution:
        return SudokuSolution(tuple(
            tuple(next(v + 1 for v in range(size) if assignment[ones[r][c][v]] == 1)
                  for c in range(size)) for r in range(size)))

    return BuiltModel(model, decode)
