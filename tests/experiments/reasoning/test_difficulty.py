"""``generate --difficulty``: unique instances of the grade asked, a grade out of reach
stopped at the budget saying what was drawn, an unknown grade listing the puzzle's."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.generate import BudgetSpent, generate, solution_count
from experiments.reasoning import difficulty, grade, ladder_of
from puzzlelab.errors import OptionError
from puzzles import PUZZLES
from tests.experiments.cli.commands import run_cli
from tests.experiments.reasoning.rungs import solved_at
from viewpoints.grades import SEARCH


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
                         difficulty=wanted))
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
