"""The explained-difficulty study: its rank correlation is Spearman's with tied values
sharing their average rank, its README and figures come from its rows alone (the target
judged on the test sample), and the generators it runs make IDs our readers take."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from experiments.studies import explain_difficulty as study
from experiments.studies.kit import Row, read_rows
from experiments.studies.kit.tatham import generated, missing, program
from experiments.studies.rank_correlation import average_ranks, pearson, spearman
from puzzles import PUZZLES


def test_tied_values_share_their_average_rank() -> None:
    assert average_ranks([10, 20, 20, 30]) == [1.0, 2.5, 2.5, 4.0]
    assert average_ranks([5, 5, 5]) == [2.0, 2.0, 2.0]
    assert average_ranks([]) == []


def test_spearman_is_exact_on_known_cases_with_and_without_ties() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 3], [10, 30, 20]) == pytest.approx(0.5)
    # ranks (1.5, 1.5, 3.5, 3.5) against (1, 2, 3, 4): 4 / (2 * sqrt 5)
    assert spearman([1, 1, 2, 2], [1, 2, 3, 4]) == pytest.approx(2 / math.sqrt(5))
    # both sides tied: ranks (1.5, 1.5, 3, 4) against (1, 2.5, 2.5, 4)
    assert spearman([7, 7, 8, 9], [1, 5, 5, 6]) == pytest.approx(3.75 / 4.5)
    assert spearman([1, 2, 3], [3, 3, 3]) is None
    assert spearman([1], [1]) is None
    with pytest.raises(ValueError):
        pearson([1, 2], [1, 2, 3])


def _row(level: int, difficulty: int, sample: str = "test", **cells: str) -> Row:
    names = [name for _, name in study.LADDERS["hashi"].levels]
    return {"puzzle": "hashi", "sample": sample, "level": names[level - 1],
            "rank": str(level), "seed": str(len(names) * level + difficulty),
            "game_id": "7x7:a2b", "exit": "0", "difficulty": str(difficulty),
            "total_cost": "100", "steps": "20", "ending": "solved", "seconds": "1.0",
            "costs": "constraint 10", **cells}


def _rows(sample: str, hard: int) -> list[Row]:
    return [_row(1, 12, sample), _row(1, 12, sample), _row(2, 14, sample),
            _row(2, 13, sample), _row(3, hard, sample), _row(3, 40, sample)]


def _judged(report: str, sample: str) -> list[str]:
    """The cells of ``sample``'s line in the table of rho (the one with a seeds column)."""
    return next([cell.strip() for cell in line.split("|")[1:-1]]
                for line in report.splitlines()
                if line.startswith(f"| {sample} |") and ".." in line)


def test_the_readme_gives_rho_per_sample_and_judges_the_test_sample_only() -> None:
    rows = [*_rows("train", 12), *_rows("test", 30)]
    made = study.report(rows, "cmd")
    train, test = _judged(made, "train"), _judged(made, "test")
    expected = spearman([1, 1, 2, 2, 3, 3], [12, 12, 14, 13, 30, 40])
    assert test[3] == f"{expected:.3f}" and test[4] == "**met**"
    assert float(train[3]) < float(test[3]) and "met" not in train[4]
    assert study.figure_name("hashi") in made


def test_an_unfinished_explanation_is_left_out_of_rho_and_said_so() -> None:
    rows = [*_rows("test", 30), _row(3, 11, ending="time limit")]
    made = study.report(rows, "cmd")
    assert _judged(made, "test")[2] == "6"
    assert "(time limit)" in made
    assert study.rho(rows) == study.rho(rows[:-1])
    low = study.report([*_rows("test", 12), _row(1, 50), _row(1, 50)], "cmd")
    assert _judged(low, "test")[4] == "**not met**"


def test_a_failed_process_is_a_wrong_answer_but_a_time_limit_is_not() -> None:
    assert study.wrong(_row(1, 12)) is None
    assert study.wrong(_row(1, 12, ending="time limit")) is None
    assert study.wrong(_row(1, 12, exit="1")) is not None


def test_the_rows_make_the_readme_and_a_figure_again(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    rows = [*_rows("train", 12), *_rows("test", 30)]
    source = tmp_path / "runs.csv"
    study.STUDY.rows.write(rows, source)
    assert read_rows(source) == rows
    code = study.main(["--from", str(source), "--output", str(tmp_path / "out")])
    printed = capsys.readouterr().out
    assert code == 0
    assert (tmp_path / "out" / "README.md").read_text(encoding="utf-8") == printed
    figure = tmp_path / "out" / study.figure_name("hashi")
    assert figure.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert not (tmp_path / "out" / study.figure_name("sudoku")).exists()


@pytest.mark.parametrize("puzzle", list(study.LADDERS))
def test_each_level_of_the_generators_makes_an_id_our_reader_takes(puzzle: str) -> None:
    if program(puzzle) is None:
        pytest.skip(missing(puzzle))
    ladder = study.LADDERS[puzzle]
    for letter, _ in ladder.levels:
        game_id = generated(puzzle, f"{ladder.parameters.format(letter)}#1")[0]
        instance = PUZZLES.get(puzzle).parse(game_id + "\n")[0]
        assert PUZZLES.get(puzzle).game_id(instance) == game_id
