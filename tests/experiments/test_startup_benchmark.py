"""The start-up benchmark: every process checked, its runs.csv the source of its figures."""

from __future__ import annotations

import csv
from pathlib import Path

from experiments.studies import startup


def test_one_round_checks_both_answers_and_the_report_is_recomputed_from_runs_csv(
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


def test_a_wrong_solution_is_not_counted_correct(tmp_path: Path) -> None:
    file = tmp_path / "one.txt"
    puzzle = startup.PUZZLE_FILE.read_text().splitlines()[0]
    file.write_text(puzzle + "\n")
    assert startup.checked(startup.DIRECT_NAME, "1" * 81, 0, file) == (False, "1" * 81)
    assert startup.checked(startup.DIRECT_NAME, "no solution", 1, file) == (False, None)
    assert startup.checked(startup.SOLVE, "status: solved  check: WRONG", 0, file)[0] is False
