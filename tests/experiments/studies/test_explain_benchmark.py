"""The explanation speed benchmark: an instance meets the target only explained to the
end, its solution accepted by the checker, within the time; the README judges each
puzzle from its rows; the command it times is the explain command's own."""

from __future__ import annotations

from pathlib import Path

from experiments.studies import explain_benchmark as bench
from experiments.studies.kit import Row, Turn


def _row(puzzle: str = "hashi", **cells: str) -> Row:
    return {"puzzle": puzzle, "count": "2", "source": "sgt-bridges --generate 1 7x7#S",
            "instance": "seed 1", "seconds": "4.2", "exit": "0", "steps": "40",
            "difficulty": "31", "ending": "solved", "checked": "1", "explain_seconds": "3.1",
            **cells}


def _verdicts(report: str) -> dict[str, str]:
    """Each puzzle's verdict, by its section's title."""
    found, title = {}, ""
    for line in report.splitlines():
        if line.startswith("## "):
            title = line[3:].lower()
        elif "**" in line:
            found[title] = line[line.index("**"):]
    return found


def test_the_target_needs_the_whole_explanation_a_checked_solution_and_the_time() -> None:
    assert bench.in_time(_row())
    late = _row(seconds=f"{bench.TARGET_S + 0.1}")
    for missed in (late, _row(ending="time limit"), _row(checked="0"), _row(exit="1")):
        assert not bench.in_time(missed)
    report = bench.report([_row(), _row(instance="seed 2"), _row("shikaku"),
                           {**late, "puzzle": "shikaku", "instance": "seed 2"}], "cmd")
    assert _verdicts(report) == {"hashi": "**met**.", "shikaku": "**not met**."}
    assert "30.1" in report  # the late one's seconds, in its puzzle's table


def test_only_a_solution_the_checker_refuses_is_a_wrong_answer() -> None:
    assert bench.wrong(_row()) is None
    assert bench.wrong(_row(ending="time limit", checked="0")) is None
    assert bench.wrong(_row(checked="0")) is not None


def test_the_timed_command_is_explain_with_json_on_the_instance_asked(tmp_path: Path) -> None:
    process = bench.explaining("sudoku", tmp_path / "file.txt", "3", None)
    command = list(process.command(Turn(1, tmp_path)))
    explain = command.index("explain")
    assert command[explain:] == ["explain", "sudoku", str(tmp_path / "file.txt"),
                                 "--instance", "3", "--json"]
