"""The start-up benchmark: every process checked, its runs.csv the source of its figures."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from experiments.studies import startup
from experiments.studies.kit import Ended, Turn


@pytest.mark.slow  # a whole round of the study's processes (14 s)
def test_one_round_checks_every_answer_and_the_report_is_recomputed_from_runs_csv(
        tmp_path: Path, capsys) -> None:
    assert startup.main(["--rounds", "1", "--output", str(tmp_path)]) == 0
    with (tmp_path / "runs.csv").open(newline="", encoding="utf-8") as lines:
        rows = list(csv.DictReader(lines))
    assert sorted(row["command"] for row in rows) == sorted(startup.COMMANDS)
    assert all(row["correct"] == "1" and float(row["seconds"]) > 0 for row in rows)
    written = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in written for name in startup.COMMANDS)
    again = tmp_path / "again"
    again.mkdir()
    (again / "runs.csv").write_bytes((tmp_path / "runs.csv").read_bytes())
    assert startup.main(["--from", str(again / "runs.csv"), "--output", str(again)]) == 0
    assert (again / "README.md").read_text(encoding="utf-8") == written.replace(
        f"--output {tmp_path}", f"--output {again}")


def test_a_wrong_or_missing_solution_is_not_counted_correct(tmp_path: Path) -> None:
    turn = Turn(1, tmp_path)
    line = startup.puzzle_file(turn).read_text().strip()

    def ended(code: int, output: str) -> Ended:
        return Ended(turn, code, output, "", 0.1)

    solved = startup.sudoku_digits(startup.DIRECT_NAME, "1" * 81)
    assert solved == "1" * 81 and len(line) == 81
    assert not startup.sudoku_correct(startup.DIRECT_NAME, ended(0, "1" * 81))
    assert not startup.sudoku_correct(startup.DIRECT_NAME, ended(1, "no solution"))
    assert not startup.sudoku_correct(startup.SOLVE, ended(0, "status: solved  check: WRONG"))
