"""``generate --difficulty``: unique instances of every grade asked, each grade's own
generator options under the user's, a grade out of reach stopped at the budget saying
what was drawn and what to change, an unknown grade listing the puzzle's."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.generate import BudgetSpent, generate, solution_count
from experiments.reasoning import difficulty, grade, ladder_of
from puzzlelab.errors import OptionError
from puzzles import PUZZLES
from tests.experiments.cli.commands import run_cli
from tests.experiments.reasoning.rungs import solved_at
from tests.facts import states
from viewpoints import LADDERS
from viewpoints.grades import SEARCH

SMALL = {"sudoku": {}, "hashi": {"size": "6x6", "islands": "8"}, "nonogram": {"size": "8x8"},
         "shikaku": {"size": "6x6"}}
"""Each puzzle's options for the quick cases: small sizes, the grade's other options."""
SMALL_FOR = {("shikaku", "sub"): {"size": "6x6", "max-area": "16"}}
"""A quick case's own options, where they differ from its puzzle's."""
SLOW = {("sudoku", "search"), ("nonogram", "search"), ("shikaku", "gcc"), ("shikaku", "sac")}
"""Grades made at the grade's own options only, in tens of seconds."""


def _every_grade() -> list[object]:
    cases: list[object] = []
    for puzzle in LADDERS.names():
        ladder = LADDERS.get(puzzle)
        for wanted in ladder.grades:
            if not ladder.generation_of(wanted).reached:
                continue
            slow = (puzzle, wanted) in SLOW
            small = SMALL_FOR.get((puzzle, wanted), SMALL[puzzle])
            cases.append(pytest.param(puzzle, {} if slow else small, wanted,
                                      marks=[pytest.mark.slow] if slow else [],
                                      id=f"{puzzle}-{wanted}"))
    return cases


@pytest.mark.parametrize(("puzzle", "options", "wanted"), _every_grade())
def test_every_grade_generated_is_that_grade_with_one_solution(
        tmp_path: Path, puzzle: str, options: dict[str, str], wanted: str) -> None:
    [made] = generate(puzzle, options, seed=3, output=tmp_path, time_limit=600,
                      difficulty=wanted)
    kind, place = PUZZLES.get(puzzle), ladder_of(puzzle).level(wanted)
    [instance] = kind.read(made.path)
    assert grade(puzzle, instance, time_limit=60).grade == wanted
    assert solution_count(puzzle, instance, time_limit=60) == 1  # the puzzle's own count
    if place < len(ladder_of(puzzle).rungs):
        assert solved_at(puzzle, place, instance)
    assert place == 0 or not solved_at(puzzle, place - 1, instance)


def test_a_grade_no_generated_instance_reaches_says_what_to_ask_instead(
        tmp_path: Path) -> None:
    [(puzzle, wanted, made)] = [(puzzle, name, made) for puzzle in LADDERS.names()
                                for name, made in LADDERS.get(puzzle).generation.items()
                                if not made.reached]
    with pytest.raises(BudgetSpent) as stopped:
        next(generate(puzzle, seed=1, output=tmp_path, time_limit=1, difficulty=wanted))
    assert "--difficulty" in made.otherwise and made.otherwise in str(stopped.value)


def test_a_grades_own_options_apply_unless_given(tmp_path: Path) -> None:
    [made] = generate("sudoku", seed=3, output=tmp_path / "own", difficulty="probing")
    assert "clues0" in made.path.name  # thinned as far as the grade allows
    [given] = generate("sudoku", {"clues": "30"}, seed=3, output=tmp_path / "given",
                       difficulty="probing")
    [instance] = PUZZLES.get("sudoku").read(given.path)
    assert "clues30" in given.path.name
    assert sum(1 for row in instance.givens for value in row if value) <= 30  # a ceiling
    [plain] = generate("sudoku", seed=3, output=tmp_path / "plain", unique=True)
    assert "clues32" in plain.path.name  # no grade: the generator's own default


@pytest.mark.parametrize(("given", "shown"), [
    ({}, ("size 12x12", "density 0.4")), ({"size": "9x9"}, ("size 9x9", "density 0.4")),
    ({"density": "0.5"}, ("size 12x12", "density 0.5"))])
def test_the_options_a_grade_was_asked_with_are_the_grades_under_the_users(
        tmp_path: Path, given: dict[str, str], shown: tuple[str, str]) -> None:
    with pytest.raises(BudgetSpent) as stopped:
        next(generate("nonogram", given, output=tmp_path, time_limit=0.3,
                      difficulty=SEARCH))
    assert states(str(stopped.value), *shown)


def test_out_of_reach_the_message_names_the_option_to_change(tmp_path: Path) -> None:
    own = ladder_of("sudoku").generation_of(SEARCH)
    with pytest.raises(BudgetSpent) as stopped:
        next(generate("sudoku", output=tmp_path, time_limit=0.5, difficulty=SEARCH))
    assert own.otherwise and own.otherwise in str(stopped.value)  # the declared advice
    with pytest.raises(BudgetSpent) as stopped:
        next(generate("sudoku", {"clues": "30"}, output=tmp_path, time_limit=0.5,
                      difficulty=SEARCH))
    assert states(str(stopped.value), "--clues 0")  # back to the grade's own clues


def test_a_grade_out_of_reach_stops_at_the_budget_saying_what_was_drawn(tmp_path: Path) -> None:
    made = generate("sudoku", {"box": "2"}, output=tmp_path, time_limit=1.5,
                    difficulty=SEARCH)
    with pytest.raises(BudgetSpent) as stopped:
        next(made)
    assert "of grade search" in str(stopped.value)
    assert "the unique candidates graded weak" in str(stopped.value)
    made = generate("sudoku", {"box": "2"}, output=tmp_path, max_candidates=3,
                    difficulty=SEARCH)
    with pytest.raises(OptionError, match="of grade search found in 3 candidates"):
        next(made)


def test_an_unknown_difficulty_lists_the_puzzles_grades() -> None:
    with pytest.raises(OptionError, match="ini, set, red, gcc, sub, sac, search"):
        difficulty("shikaku", "hard")


def test_generate_difficulty_writes_instances_of_that_grade(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "sudoku", "--difficulty", "strong",
                           "--seed", "5", "--output", str(tmp_path))
    assert code == 0 and "grade strong" in out
    [written] = tmp_path.iterdir()
    [instance] = PUZZLES.get("sudoku").read(written)
    found = grade("sudoku", instance, time_limit=30)
    assert (found.solutions, found.grade) == (1, "strong")
