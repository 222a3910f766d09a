"""The Sudoku generator of the puzzle layer: random full grids, clues read off them, and
clues taken away while a uniqueness test (given by the caller) holds."""

from __future__ import annotations

import random

import pytest

from puzzlelab.errors import OptionError
from puzzles.sudoku import SUDOKU, Grid, SudokuInstance, SudokuSolution, check
from puzzles.sudoku_generator import full_grid, read_off, solved_by_singles, thinned
from tests.facts import facts


def clue_count(grid: Grid) -> int:
    return sum(v != 0 for row in grid for v in row)


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_a_full_grid_is_a_solution_and_the_seed_decides_it(box: int) -> None:
    grid = full_grid(box, random.Random(7))
    empty = SudokuInstance("empty", box, tuple((0,) * box**2 for _ in range(box**2)))
    assert check(empty, SudokuSolution(grid)) == []
    assert full_grid(box, random.Random(7)) == grid
    assert full_grid(box, random.Random(8)) != grid


def test_clues_read_off_are_the_grids_own_digits() -> None:
    solution = full_grid(3, random.Random(1))
    givens = read_off(solution, 30, random.Random(2))
    assert clue_count(givens) == 30
    assert all(g in (0, s) for given_row, row in zip(givens, solution)
               for g, s in zip(given_row, row))


def test_thinning_tries_each_cell_once_and_stops_at_the_target() -> None:
    solution = full_grid(2, random.Random(3))
    asked: list[Grid] = []

    def every_second_removal(givens: Grid) -> bool:
        asked.append(givens)
        return len(asked) % 2 == 1

    givens = thinned(solution, 10, random.Random(4), every_second_removal)
    assert givens is not None and clue_count(givens) == 10
    assert len(asked) == 11  # 6 removals kept, 5 refused, out of 16 cells
    # each question is about one clue fewer than the puzzle kept so far
    assert [clue_count(grid) for grid in asked] == [15 - (index + 1) // 2
                                                   for index in range(len(asked))]


def test_thinning_gives_none_when_the_puzzle_is_minimal_above_the_target() -> None:
    solution = full_grid(2, random.Random(3))
    asked: list[Grid] = []

    def never(givens: Grid) -> bool:
        asked.append(givens)
        return False

    assert thinned(solution, 10, random.Random(4), never) is None
    assert len(asked) == 16  # every cell tried once, none could go


def test_with_enough_the_target_is_a_ceiling_and_thinning_stops_at_the_first_puzzle_enough(
        ) -> None:
    solution = full_grid(2, random.Random(3))
    asked: list[int] = []

    def below_eight(givens: Grid) -> bool:
        asked.append(clue_count(givens))
        return clue_count(givens) < 8

    givens = thinned(solution, 10, random.Random(4), lambda givens: True, enough=below_eight)
    assert givens is not None and clue_count(givens) == 7  # past the ceiling, to enough
    assert asked == [10, 9, 8, 7]  # asked only at or below the ceiling


def test_with_enough_a_puzzle_no_clue_can_leave_is_returned_for_the_caller_to_test(
        ) -> None:
    solution = full_grid(2, random.Random(3))

    def at_least_six(givens: Grid) -> bool:
        return clue_count(givens) >= 6

    givens = thinned(solution, 10, random.Random(4), at_least_six, enough=lambda g: False)
    assert givens is not None and clue_count(givens) == 6
    minimal = thinned(solution, 0, random.Random(4), at_least_six, enough=lambda g: True)
    assert minimal is not None and clue_count(minimal) == 6  # clues 0: never enough to ask
    assert thinned(solution, 0, random.Random(4), at_least_six) is None  # no enough: target


def test_thinning_keeps_only_puzzles_the_test_accepts() -> None:
    """With a real test (brute force on 4x4 here), every kept removal leaves one solution."""
    instance = SUDOKU.generate(SUDOKU.resolve_generator_options({"box": 2, "clues": 5}),
                               random.Random(5), "small", lambda i: count(i.givens) == 1)
    assert instance is not None and clue_count(instance.givens) == 5
    assert count(instance.givens) == 1 and instance.known_solution is not None
    assert check(instance, instance.known_solution) == []


def count(givens: Grid, most: int = 2) -> int:
    """Solutions of a 4x4 grid, up to ``most``, by brute force."""
    cells = [(r, c) for r in range(4) for c in range(4) if not givens[r][c]]
    grid = [list(row) for row in givens]

    def fits(r: int, c: int, digit: int) -> bool:
        top, left = r // 2 * 2, c // 2 * 2
        return (digit not in grid[r] and all(grid[k][c] != digit for k in range(4))
                and all(grid[top + i][left + j] != digit for i in range(2) for j in range(2)))

    def search(position: int) -> int:
        if position == len(cells):
            return 1
        r, c = cells[position]
        found = 0
        for digit in range(1, 5):
            if found < most and fits(r, c, digit):
                grid[r][c] = digit
                found += search(position + 1)
                grid[r][c] = 0
        return found

    return search(0)


@pytest.mark.parametrize(("given", "clues"), [
    ({}, 32), ({"box": "2"}, 6), ({"box": 4}, 102), ({"box": 2, "clues": "16"}, 16),
])
def test_the_clue_count_defaults_to_40_percent_of_the_cells(given: dict[str, object],
                                                            clues: int) -> None:
    assert SUDOKU.resolve_generator_options(given).integer("clues") == clues


def test_more_clues_than_cells_is_an_option_error() -> None:
    with pytest.raises(OptionError, match=facts("--clues", "at most 81", "box 3", "82")):
        SUDOKU.resolve_generator_options({"clues": 82})


def test_without_a_uniqueness_test_the_clues_are_read_off_at_random() -> None:
    values = SUDOKU.resolve_generator_options({"box": 3, "clues": 25})
    made = SUDOKU.generate(values, random.Random(9), "nine")
    assert made is not None and made.name == "nine" and clue_count(made.givens) == 25
    assert made.known_solution is not None and check(made, made.known_solution) == []


@pytest.mark.parametrize("seed", range(6))
def test_what_singles_fill_in_has_exactly_one_solution(seed: int) -> None:
    """Singles are a sufficient test: every 4x4 puzzle they fill in counts one solution,
    and a puzzle with two solutions is never filled in."""
    solution = full_grid(2, random.Random(seed))
    for clues in range(4, 12):
        givens = read_off(solution, clues, random.Random(seed * 100 + clues))
        if solved_by_singles(givens, 2):
            assert count(givens) == 1
        if count(givens) == 2:
            assert not solved_by_singles(givens, 2)


def test_singles_fill_in_a_full_grid_less_one_and_not_an_empty_one() -> None:
    solution = full_grid(3, random.Random(2))
    one_gone = tuple(tuple(0 if (r, c) == (4, 4) else v for c, v in enumerate(row))
                     for r, row in enumerate(solution))
    assert solved_by_singles(one_gone, 3)
    assert not solved_by_singles(tuple((0,) * 9 for _ in range(9)), 3)


def test_the_cheap_pass_comes_first_and_the_full_test_sees_only_what_is_left() -> None:
    solution = full_grid(2, random.Random(3))
    cheap_asked: list[int] = []
    full_asked: list[int] = []

    def cheap(givens: Grid) -> bool:
        cheap_asked.append(clue_count(givens))
        return clue_count(givens) >= 12  # takes 4 clues away, then refuses

    def full(givens: Grid) -> bool:
        full_asked.append(clue_count(givens))
        return True

    givens = thinned(solution, 5, random.Random(4), full, cheap)
    assert givens is not None and clue_count(givens) == 5
    assert cheap_asked == [15, 14, 13, 12] + [11] * 12
    assert full_asked == [11, 10, 9, 8, 7, 6, 5]


def test_unique_25x25_defaults_to_281_clues() -> None:
    assert SUDOKU.resolve_generator_options({"box": 5}).integer("clues") == 281
