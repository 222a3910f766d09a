"""Grades: an instance graded at a rung is solved without search there and not at the rung
below (propagated here both ways, without the grader), Shikaku's grades follow its
levels, and instances with no solution or several get no grade."""

from __future__ import annotations

from typing import Any

import pytest

from experiments.reasoning import grade, ladder_of
from tests.experiments.reasoning.rungs import instance_of, solved_at
from viewpoints.grades import SEARCH

GRADED = [  # puzzle, file, instance, its grade
    ("sudoku", "small_4x4.txt", None, "weak"),
    ("sudoku", "kul_named_9x9.txt", "clue17", "strong"),
    ("sudoku", "norvig_hardest.txt", "norvig_hardest#1", "strong"),  # bounds cannot
    ("sudoku", "norvig_hardest.txt", "norvig_hardest#3", "probing"),
    ("sudoku", "norvig_hardest.txt", "norvig_hardest#2", SEARCH),
    ("nonogram", "small/plus_3x3.non", None, "line"),
    ("nonogram", "webpbn_survey/webpbn-00023.non", None, "probing"),
    ("hashi", "small/small.txt", "puzzle_3", "rules"),
    ("hashi", "small/small.txt", "square", "improved"),
    ("hashi", "small/small.txt", "puzzle_2", SEARCH),
]


@pytest.mark.parametrize(("puzzle", "file", "name", "expected"), GRADED,
                         ids=[f"{p}-{n or f}-{g}" for p, f, n, g in GRADED])
def test_a_grade_is_the_first_rung_that_solves_without_search(
        puzzle: str, file: str, name: str | None, expected: str) -> None:
    instance = instance_of(puzzle, file, name)
    found = grade(puzzle, instance, time_limit=30)
    assert (found.solutions, found.grade) == (1, expected)
    ladder = ladder_of(puzzle)
    place = ladder.level(expected)
    if expected == SEARCH:
        assert found.branches is not None and found.branches >= 1
    else:
        assert found.branches is None and solved_at(puzzle, place, instance)
    if place > 0:  # not at the rung below
        assert not solved_at(puzzle, place - 1, instance)


def assert_graded_at_the_first_level_that_solves(puzzle: str, instances: list[Any]) -> set[str]:
    """Each instance's grade is a level the study's own sweep solves it at, and not the
    level below; the grades found."""
    ladder, grades = ladder_of(puzzle), set()
    for instance in instances:
        found = grade(puzzle, instance, time_limit=60)
        assert found.solutions == 1 and found.grade in ladder.grades[:-1]
        place = ladder.level(found.grade)
        assert solved_at(puzzle, place, instance)
        assert place == 0 or not solved_at(puzzle, place - 1, instance)
        grades.add(found.grade)
    return grades


def test_shikaku_grades_are_the_levels_of_the_study() -> None:
    """The study's levels are its own (they may move); a grade follows them. Of these
    two, the first is solved by set partitioning alone and the second is not."""
    instances = [instance_of("shikaku", "kul_aplai_2016.txt", name)
                 for name in ("p(0,1)", "p(1,3)")]
    assert len(assert_graded_at_the_first_level_that_solves("shikaku", instances)) == 2


@pytest.mark.slow
def test_larger_shikakus_are_graded_at_the_levels_of_the_study() -> None:
    instances = [instance_of("shikaku", "kul_aplai_2016.txt", name)
                 for name in ("p(3,4)", "p(4,3)", "p(6,1)")]
    instances.append(instance_of("shikaku", "carlsson_sicstus_shikaku.txt", "nikoliweb10"))
    assert assert_graded_at_the_first_level_that_solves("shikaku", instances) != {"ini"}


@pytest.mark.parametrize(("puzzle", "file", "name", "solutions", "said"), [
    ("sudoku", "multi_4x4.txt", None, 2, "several solutions"),
    ("nonogram", "small/six_solutions_3x3.non", None, 2, "several solutions"),
    ("hashi", "small/several.txt", "two-pairs", 0, "no solution"),
])
def test_an_instance_without_exactly_one_solution_gets_no_grade(
        puzzle: str, file: str, name: str | None, solutions: int, said: str) -> None:
    found = grade(puzzle, instance_of(puzzle, file, name), time_limit=30)
    assert (found.solutions, found.grade, found.verdict) == (solutions, None, said)
    assert found.to_json()["grade"] is None
