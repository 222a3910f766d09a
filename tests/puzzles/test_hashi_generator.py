"""The Hashi generator's repair: another solution is ruled out where it differs, and the
known one stays a solution."""

from __future__ import annotations

import random

import pytest

from puzzles.hashi import Bridge, HashiSolution, check, laid_instance
from puzzles.hashi_generator import random_layout, told_apart
from puzzles.options import Size

SQUARE = [((0, 0), (0, 2), 1), ((0, 0), (2, 0), 2), ((0, 2), (2, 2), 2), ((2, 0), (2, 2), 1)]
"""Four islands of 3 on a square's corners: the counts can go round the other way."""
ROUND_THE_OTHER_WAY = {((0, 0), (0, 2)): 2, ((0, 0), (2, 0)): 1, ((0, 2), (2, 2)): 1,
                       ((2, 0), (2, 2)): 2}


@pytest.mark.parametrize("seed", range(8))
def test_the_repair_keeps_the_known_solution_and_rules_the_other_out(seed: int) -> None:
    cells = [(0, 0), (0, 2), (2, 0), (2, 2)]
    before = laid_instance("square", Size(3, 3), cells, SQUARE)
    other = HashiSolution(tuple(Bridge(first, second, count)
                                for (first, second), count in ROUND_THE_OTHER_WAY.items()))
    assert check(before, other) == []  # really another solution before the repair
    laid = told_apart(SQUARE, ROUND_THE_OTHER_WAY, random.Random(seed))
    after = laid_instance("square", Size(3, 3), cells, laid)
    assert after.known_solution is not None and check(after, after.known_solution) == []
    assert check(after, other) != []
    changed = [b for b in laid if b not in SQUARE]
    assert len(changed) + (len(SQUARE) - len(laid)) == 1  # one bridge changed or gone


@pytest.mark.parametrize("seed", range(5))
def test_a_repaired_random_layout_stays_a_solution(seed: int) -> None:
    rng = random.Random(seed)
    cells, laid = random_layout(12, 12, 30, rng)
    other = {(first, second): 3 - count for first, second, count in laid}
    repaired = told_apart(laid, other, rng)
    instance = laid_instance("r", Size(12, 12), cells, repaired)
    assert instance.known_solution is not None
    assert check(instance, instance.known_solution) == []
    assert len(instance.islands) == 30
