"""Each puzzle's grades, declared beside its viewpoints: nested rungs that name real
viewpoints, options and backends able to propagate at the root, then search; an unknown
grade lists the puzzle's grades in order."""

from __future__ import annotations

import pytest

from puzzlelab.errors import OptionError, UnknownName
from puzzles import PUZZLES
from solvers import BACKENDS
from viewpoints import LADDERS, get_viewpoint
from viewpoints.grades import SEARCH, RootPropagation


@pytest.mark.parametrize("puzzle", PUZZLES.names())
def test_every_puzzle_has_a_ladder_of_nested_rungs_then_search(puzzle: str) -> None:
    ladder = LADDERS.get(puzzle)
    assert ladder.grades[-1] == SEARCH and len(ladder.grades) == len(set(ladder.grades)) >= 2
    assert all(rung.meaning and rung.runs.describe() for rung in ladder.rungs)
    for rung in ladder.rungs:
        if isinstance(rung.runs, RootPropagation):
            get_viewpoint(puzzle, rung.runs.viewpoint).resolve_options(rung.runs.options)
            declared = BACKENDS.get(rung.runs.backend).capabilities
            assert declared.root_propagation
            assert not rung.runs.probing or "root" in declared.probing
    get_viewpoint(puzzle, ladder.search.viewpoint).resolve_options(ladder.search.options)


def test_an_unknown_grade_lists_the_puzzles_grades_in_order() -> None:
    with pytest.raises(OptionError, match="weak, strong, probing, search"):
        LADDERS.get("sudoku").level("hard")
    with pytest.raises(UnknownName, match="sudoku"):
        LADDERS.get("chess")
    assert set(LADDERS.names()) == set(PUZZLES.names())
