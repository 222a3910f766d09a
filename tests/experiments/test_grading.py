"""Grades: each puzzle's ladder is well declared, an instance graded at a rung is solved
without search there and not at the rung below (propagated here both ways, without the
grader), instances with no solution or several get no grade, and ``generate
--difficulty`` writes unique instances of the grade asked."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from experiments.generate import BudgetSpent, generate, solution_count
from experiments.studies.grading import LADDERS, SEARCH, difficulty, grade, ladder_of
from experiments.studies.grading.ladder import RootPropagation
from experiments.studies.grading.ladders import StudyLevel
from experiments.studies.shikaku_levels.levels import propagation_levels
from puzzlelab.errors import OptionError, UnknownName
from puzzles import PUZZLES
from solvers import BACKENDS, propagate_root
from viewpoints import get_viewpoint

DATA = {name: PUZZLES.get(name).data_folder() for name in PUZZLES.names()}


def instance_of(puzzle: str, file: str, name: str | None = None) -> Any:
    kind = PUZZLES.get(puzzle)
    every = kind.read(DATA[puzzle] / file)
    return every[0] if name is None else next(i for i in every if kind.instance_name(i) == name)


def solved_at(puzzle: str, place: int, instance: Any) -> bool:
    """Whether rung ``place`` of the puzzle's ladder leaves every unknown with one value,
    found without the grader: the rung's viewpoint propagated at the root here, or the
    levels study's own sweep."""
    runs = ladder_of(puzzle).rungs[place].runs
    if isinstance(runs, RootPropagation):
        model = get_viewpoint(puzzle, runs.viewpoint).build(instance, runs.options).model
        model = dataclasses.replace(model, after_search=[], lazy=[])
        domains = propagate_root(model, runs.backend, probing=runs.probing)
        return domains is not None and all(len(domains[v]) == 1
                                           for v in model.search_variables())
    assert isinstance(runs, StudyLevel)
    levels = (propagation_levels(instance) if runs.channel is None
              else propagation_levels(instance, runs.channel))
    states = {state.level: state for state in levels}
    return states[runs.level].undecided_cells == 0 and states[runs.level].open_placements == 0


# ---------------------------------------------------------------- the ladders


@pytest.mark.parametrize("puzzle", PUZZLES.names())
def test_every_puzzle_has_a_ladder_of_nested_rungs_then_search(puzzle: str) -> None:
    ladder = ladder_of(puzzle)
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
        ladder_of("sudoku").level("hard")
    with pytest.raises(UnknownName, match="sudoku"):
        ladder_of("chess")
    assert set(LADDERS.names()) == set(PUZZLES.names())


# ---------------------------------------------------------------- grading

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


# ---------------------------------------------------------------- generate --difficulty


@pytest.mark.parametrize(("puzzle", "options", "wanted"), [
    ("sudoku", {}, "weak"),
    ("sudoku", {}, "strong"),
    ("hashi", {"size": "6x6", "islands": "8"}, "improved"),
    ("nonogram", {"size": "8x8"}, "line"),
    ("shikaku", {"size": "6x6"}, "ini"),
])
def test_generated_instances_have_the_grade_asked_and_one_solution(
        tmp_path: Path, puzzle: str, options: dict[str, str], wanted: str) -> None:
    made = list(generate(puzzle, options, seed=3, count=2, output=tmp_path, time_limit=60,
                         wanted=difficulty(puzzle, wanted)))
    kind, place = PUZZLES.get(puzzle), ladder_of(puzzle).level(wanted)
    assert len(made) == 2
    for item in made:
        [instance] = kind.read(item.path)
        assert grade(puzzle, instance, time_limit=30).grade == wanted
        assert solution_count(puzzle, instance, time_limit=30) == 1  # the puzzle's own count
        assert solved_at(puzzle, place, instance)
        assert place == 0 or not solved_at(puzzle, place - 1, instance)


def test_a_grade_out_of_reach_stops_at_the_budget_saying_what_was_drawn(tmp_path: Path) -> None:
    made = generate("sudoku", {"box": "2"}, output=tmp_path, time_limit=1.5,
                    wanted=difficulty("sudoku", SEARCH))
    with pytest.raises(BudgetSpent) as stopped:
        next(made)
    assert "of grade search" in str(stopped.value)
    assert "the unique candidates graded weak" in str(stopped.value)
    made = generate("sudoku", {"box": "2"}, output=tmp_path, max_candidates=3,
                    wanted=difficulty("sudoku", SEARCH))
    with pytest.raises(OptionError, match="of grade search found in 3 candidates"):
        next(made)


def test_an_unknown_difficulty_lists_the_puzzles_grades() -> None:
    with pytest.raises(OptionError, match="ini, set, red, gcc, sub, sac, search"):
        difficulty("shikaku", "hard")
