"""The difficulty benchmark: its check grades a written file apart from the generator,
a run is correct only with the grade asked and one solution, and its README says of each
grade whether every seed reached it within the budget."""

from __future__ import annotations

from pathlib import Path

from experiments.studies import difficulty_benchmark as bench
from experiments.studies.kit import Row
from tests.facts import states

WEAK = ("== made\nproblem:\n4 4\n1 2 3 -\n3 4 - 2\n2 1 4 3\n- 3 2 1\n"
        "solution:\n4 4\n1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n")


def _written(folder: Path, name: str, text: str) -> Path:
    folder.mkdir()
    (folder / name).write_text(text)
    return folder


def test_the_check_grades_the_file_and_counts_its_solutions_apart(tmp_path: Path) -> None:
    made = _written(tmp_path / "made", "sudoku-box2-clues13-s1-1.txt", WEAK)
    assert bench.independent_check("sudoku", made) == {
        "options": "box2-clues13", "size": "13", "found": "weak", "solutions": "1",
        "checked": "1"}
    assert bench.independent_check("sudoku", tmp_path / "none")["checked"] == "0"


def _row(**cells: str) -> Row:
    return {"side": bench.OURS, "puzzle": "sudoku", "grade": "weak", "seed": "1",
            "seconds": "0.3", "exit": "0", "options": "box3-clues32", "size": "32",
            "found": "weak", "solutions": "1", "checked": "1", **cells}


def test_a_run_is_correct_only_with_the_grade_asked_one_solution_and_a_checked_one() -> None:
    assert bench.correct(_row())
    for cells in ({"found": "strong"}, {"solutions": "2"}, {"checked": "0"}, {"exit": "1"}):
        assert not bench.correct(_row(**cells))
    assert bench.wrong(_row(found="strong")) is not None
    assert bench.wrong(_row(exit="1", found="", options="")) is None  # budget spent: no file
    assert bench.wrong(_row(side="base abc", found="strong")) is None  # the base's own


def test_the_readme_says_of_each_grade_whether_every_seed_reached_it_in_the_budget() -> None:
    rows = [_row(), _row(seed="2", seconds="0.4"),
            _row(grade="search", options="box3-clues0", found="search", seconds="6.0"),
            _row(grade="search", seed="2", seconds="60.2", exit="1", found="", options="",
                 size="0", solutions="-1", checked="0"),
            _row(side="base abc", grade="search", seconds="60.3", exit="1", found="",
                 options="", size="0", solutions="-1", checked="0")]
    text = bench.report(rows, "cmd")
    summary = text.split("## Each run")[0]
    lines = {tuple(cell.strip() for cell in line.split("|")[1:3]): line
             for line in summary.splitlines() if line.startswith("| sudoku")}
    assert states(lines["sudoku", "weak"], "2/2", "**met**")
    assert states(lines["sudoku", "search"], "0/1", "1/2", "**not met**", "`box3-clues0`")
    assert bench.remade_by(rows) == "--seeds 2 --base abc --base-seeds 1"
