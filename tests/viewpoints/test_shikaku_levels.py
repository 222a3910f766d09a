"""Shikaku's propagation levels (the rungs of its grades, tabled by the shikaku-levels
study): each level decides at least what the one before did, a level with every cell
decided is the solution, and subset reasoning sets what it must to 0."""

from __future__ import annotations

from itertools import pairwise

import pytest

from puzzles import PUZZLES
from puzzles.shikaku import ShikakuInstance, check
from viewpoints.shikaku_levels import (
    CHANNELS,
    LEVELS,
    forced_solution,
    propagation_levels,
    subset_zeros,
)

CARLSSON = PUZZLES.get("shikaku").data_folder() / "carlsson_sicstus_shikaku.txt"
INSTANCES = {instance.name: instance for instance in PUZZLES.get("shikaku").read(CARLSSON)}



@pytest.mark.parametrize("channel", CHANNELS)
def test_each_level_decides_at_least_what_the_one_before_did(channel: str) -> None:
    states = list(propagation_levels(INSTANCES["nikoliweb6"], channel))
    assert [state.level for state in states] == list(LEVELS)
    for before, after in pairwise(states):
        assert after.undecided_cells <= before.undecided_cells
        assert after.open_placements <= before.open_placements
        for cell, labels in after.cell_rooms.items():
            assert labels and labels <= before.cell_rooms[cell]
    assert states[0].undecided_cells > 0 and states[-1].undecided_cells == 0


def test_a_level_at_zero_is_the_solution_and_an_open_one_is_not() -> None:
    instance = INSTANCES["nikoliweb6"]
    first, *_, last = propagation_levels(instance)
    solved = forced_solution(instance, last)
    assert check(instance, solved) == [] and solved == instance.known_solution
    partial = forced_solution(instance, first)
    undecided = sum(label is None for row in partial.rooms for label in row)
    assert undecided == first.undecided_cells > 0
    assert any("in no room" in problem for problem in check(instance, partial))


def test_subset_reasoning_sets_the_rest_of_the_bigger_equation_to_zero() -> None:
    a, b, c, d = range(4)
    assert subset_zeros([[a, c], [a, c, b]], lambda v: True) == {b}
    assert subset_zeros([[a, c], [a, b, c, d]], lambda v: v != d) == {b}  # d is 0 already
    assert subset_zeros([[a, b], [b, c]], lambda v: True) == set()
    assert subset_zeros([[a, b], [a, b]], lambda v: True) == set()  # equal: nothing


@pytest.mark.slow
def test_subset_reasoning_is_what_solves_nikoli_web_10() -> None:
    instance: ShikakuInstance = INSTANCES["nikoliweb10"]
    by_level = {state.level: state for state in propagation_levels(instance)}
    assert by_level["GCC"].undecided_cells > 0 and by_level["Sub"].undecided_cells == 0
    assert check(instance, forced_solution(instance, by_level["Sub"])) == []

