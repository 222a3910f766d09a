"""Random Sudoku solution grids, and clues read off them: the puzzle side of ``generate``.

No solver here: whether a set of clues leaves one solution is the caller's test,
passed in as a function (``puzzlelab generate --unique`` counts solutions with a
viewpoint). The grids are plain tuples of rows; ``puzzles.sudoku`` makes instances.

>>> import random
>>> grid = full_grid(2, random.Random(1))
>>> sorted(grid[0]) == [1, 2, 3, 4] and len({row[0] for row in grid}) == 4
True
>>> sum(v != 0 for row in read_off(grid, 6, random.Random(1)) for v in row)
6
"""

from __future__ import annotations

import random
from collections.abc import Callable

Grid = tuple[tuple[int, ...], ...]


def full_grid(box: int, rng: random.Random) -> Grid:
    """A random filled grid of box size ``box`` (``box**2`` digits a side).

    Depth-first filling, most constrained cell first, digits in random order. A
    fill that has not finished after a few times ``n**2`` placements starts over
    (on 25x25 grids the search time has a long tail); every start draws from
    ``rng``, so the grid depends on the seed alone.
    """
    size = box * box
    while True:
        grid = _fill(box, rng, budget=4 * size * size)
        if grid is not None:
            return grid


def _fill(box: int, rng: random.Random, budget: int) -> Grid | None:
    """One attempt of :func:`full_grid`: the grid, or None when the budget ran out."""
    size = box * box
    every_digit = (1 << size) - 1
    grid = [[0] * size for _ in range(size)]
    # bit d - 1 of rows[r] (columns[c], boxes[b]) set: digit d is used there
    rows, columns, boxes = [0] * size, [0] * size, [0] * size

    def box_of(r: int, c: int) -> int:
        return (r // box) * box + c // box

    def place(r: int, c: int, digit: int) -> None:
        grid[r][c] = digit
        bit = 1 << (digit - 1)
        rows[r] |= bit
        columns[c] |= bit
        boxes[box_of(r, c)] |= bit

    def clear(r: int, c: int) -> None:
        bit = ~(1 << (grid[r][c] - 1))
        rows[r] &= bit
        columns[c] &= bit
        boxes[box_of(r, c)] &= bit
        grid[r][c] = 0

    def free(r: int, c: int) -> int:
        return every_digit & ~(rows[r] | columns[c] | boxes[box_of(r, c)])

    empty = [(r, c) for r in range(size) for c in range(size)]
    stack: list[tuple[tuple[int, int], list[int]]] = []  # a filled cell, digits left to try
    for _ in range(budget):
        if not empty:
            return tuple(tuple(row) for row in grid)
        best, fewest = 0, size + 1  # the empty cell with the fewest digits left
        for index, (r, c) in enumerate(empty):
            choices = free(r, c).bit_count()
            if choices < fewest:
                best, fewest = index, choices
                if choices <= 1:
                    break
        cell = empty.pop(best)
        digits = [d + 1 for d in range(size) if free(*cell) >> d & 1]
        rng.shuffle(digits)
        stack.append((cell, digits))
        while stack:  # place the next digit of the newest cell, backing up past dead ends
            (r, c), left = stack[-1]
            if grid[r][c]:
                clear(r, c)
            if left:
                place(r, c, left.pop())
                break
            stack.pop()
            empty.append((r, c))
        else:
            return None  # no grid at all: cannot happen from an empty grid
    return None


def read_off(solution: Grid, clues: int, rng: random.Random) -> Grid:
    """``solution`` with ``clues`` cells kept, chosen at random, and the others 0."""
    size = len(solution)
    kept = set(rng.sample([(r, c) for r in range(size) for c in range(size)], clues))
    return tuple(tuple(v if (r, c) in kept else 0 for c, v in enumerate(row))
                 for r, row in enumerate(solution))


def thinned(solution: Grid, clues: int, rng: random.Random,
            keeps_one_solution: Callable[[Grid], bool],
            cheap: Callable[[Grid], bool] | None = None,
            enough: Callable[[Grid], bool] | None = None,
            on_unique: Callable[[Grid], None] | None = None) -> Grid | None:
    """``solution`` with clues taken away one at a time, in random order, while
    ``keeps_one_solution`` holds of the rest, down to ``clues`` of them; None when a
    puzzle with more clues is already minimal (no clue can go).

    Each cell is tried once: a clue that cannot go now cannot go later either, since
    taking other clues away only adds solutions. With ``cheap`` (a sufficient test of
    uniqueness, such as :func:`solved_by_singles`), a first pass takes away every clue
    it allows, and ``keeps_one_solution`` is asked only of the clues left after it.

    With ``enough`` (the caller's test of a puzzle it would keep, such as one of a
    grade), ``clues`` is a ceiling rather than a target: thinning stops at the first
    puzzle at or below it that ``enough`` passes, goes on below it while none does, and
    returns the puzzle it ends at when no clue can go (the caller tests it again). So
    ``clues`` 0 thins to a minimal puzzle (``enough`` is never asked). ``on_unique``
    hears of each puzzle a clue's going leaves (each has one solution).
    """
    givens = [list(row) for row in solution]
    count = len(solution) ** 2
    cells = [(r, c) for r in range(len(solution)) for c in range(len(solution))]
    rng.shuffle(cells)

    def now() -> Grid:
        return tuple(tuple(row) for row in givens)

    def done() -> bool:
        return count <= clues and (enough is None or enough(now()))

    finished = done()
    for test in ([cheap] if cheap else []) + [keeps_one_solution]:
        for r, c in cells:
            if finished:
                break
            if not givens[r][c]:
                continue
            digit, givens[r][c] = givens[r][c], 0
            if test(now()):
                count -= 1
                if on_unique is not None:
                    on_unique(now())
                finished = done()
            else:
                givens[r][c] = digit
    return now() if finished or enough is not None else None


def solved_by_singles(givens: Grid, box: int) -> bool:
    """Do naked and hidden singles alone fill ``givens`` in? Then it has one solution.

    A sufficient test, no search: the thinning's first pass, so that most clues of a
    large grid go without a solver (singles alone thin a 25x25 grid to about 42 % of its
    cells in a few seconds, where each count of a solver takes seconds).
    """
    size = box * box
    every_digit = (1 << size) - 1
    grid = [list(row) for row in givens]
    used = [0] * (3 * size)  # digits used in each row, then column, then box

    def units_of(r: int, c: int) -> tuple[int, int, int]:
        return r, size + c, 2 * size + (r // box) * box + c // box

    def place(r: int, c: int, bit: int) -> None:
        grid[r][c] = bit.bit_length()
        for unit in units_of(r, c):
            used[unit] |= bit

    for r, row in enumerate(grid):
        for c, digit in enumerate(row):
            if digit:
                place(r, c, 1 << (digit - 1))
    empty = {(r, c) for r in range(size) for c in range(size) if not grid[r][c]}
    unit_cells = [[(r, c) for c in range(size)] for r in range(size)] + \
        [[(r, c) for r in range(size)] for c in range(size)] + \
        [[(top + i, left + j) for i in range(box) for j in range(box)]
         for top in range(0, size, box) for left in range(0, size, box)]

    def free(r: int, c: int) -> int:
        first, second, third = units_of(r, c)
        return every_digit & ~(used[first] | used[second] | used[third])

    progress = True
    while empty and progress:
        progress = False
        for r, c in sorted(empty):  # naked singles: one digit left in a cell
            left = free(r, c)
            if not left:
                return False
            if not left & (left - 1):
                place(r, c, left)
                empty.discard((r, c))
                progress = True
        for cells in unit_cells:  # hidden singles: one place left for a digit in a unit
            places: dict[int, list[tuple[int, int]]] = {}
            for cell in cells:
                if cell in empty:
                    left = free(*cell)
                    while left:
                        bit = left & -left
                        left ^= bit
                        places.setdefault(bit, []).append(cell)
            for bit, where in places.items():
                if len(where) == 1 and where[0] in empty and free(*where[0]) & bit:
                    place(*where[0], bit)
                    empty.discard(where[0])
                    progress = True
    return not empty
