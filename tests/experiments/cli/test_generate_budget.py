"""A generation stopped by its time limit names the size its unique candidates came down
to (Sudoku's clues), and the sizes that limit allows."""

from __future__ import annotations

import re
from pathlib import Path

import experiments.generate
import puzzles.sudoku
from tests.experiments.cli.commands import run_cli
from tests.facts import states


def test_a_stopped_sudoku_generation_names_the_fewest_clues_it_reached(
        monkeypatch, capsys, tmp_path: Path) -> None:
    """17 clues on a 9x9: random thinning all but never gets there in a second. The
    fewest clues named are those of the thinnest puzzle found unique on the way, by
    singles alone or by a count."""
    unique_clues: list[int] = []
    counting, singles = experiments.generate.solution_count, puzzles.sudoku.solved_by_singles

    def clues(givens) -> int:  # type: ignore[no-untyped-def]
        return sum(1 for row in givens for digit in row if digit)

    def counted(puzzle: str, instance, time_limit=None):  # type: ignore[no-untyped-def]
        found = counting(puzzle, instance, time_limit)
        if found == 1:
            unique_clues.append(clues(instance.givens))
        return found

    def by_singles(givens, box: int) -> bool:  # type: ignore[no-untyped-def]
        if singles(givens, box):
            unique_clues.append(clues(givens))
            return True
        return False

    monkeypatch.setattr(experiments.generate, "solution_count", counted)
    monkeypatch.setattr(puzzles.sudoku, "solved_by_singles", by_singles)
    code, _, err = run_cli(monkeypatch, capsys, "generate", "sudoku", "--clues", "17",
                           "--unique", "--time-limit", "1", "--output", str(tmp_path))
    [stopped] = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and unique_clues
    reached = re.search(r"came down to (\d+) clues", stopped)
    assert reached is not None, stopped
    fewest = int(reached.group(1))
    assert fewest == min(unique_clues) > 17
    # the target asked, what this limit allows, and the way to ask for fewer
    assert states(stopped, "--clues 17 asked", f"--clues {fewest} or more", "--time-limit")


def test_a_grade_names_no_clue_target(monkeypatch, capsys, tmp_path: Path) -> None:
    """With --difficulty the clues are a ceiling, not a target: nothing is said of them."""
    code, _, err = run_cli(monkeypatch, capsys, "generate", "sudoku", "--difficulty",
                           "search", "--time-limit", "0.5", "--output", str(tmp_path))
    stopped = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and stopped and "came down to" not in stopped[0]
