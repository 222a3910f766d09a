"""Hints on a partly filled 4x4 Sudoku: the entries read off the grid, the next step from
them, a wrong entry named with a step to no solution, a changed or missing clue named,
and the same on the command line (``explain --from``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.api import hint
from experiments.reasoning.hints import entries_of
from puzzlelab.errors import PuzzleLabError
from puzzles import PUZZLES
from tests.experiments.cli.commands import run_cli
from viewpoints import TERMS

SUDOKU = PUZZLES.get("sudoku")
PUZZLE = "....13...24....."
RIGHT = "2...13...24....."  # r1c1 = 2 agrees with the solution
WRONG = "4...13...24....."  # r1c1 = 4 does not, though no clue of its row, column or box is 4


def grid(text: str) -> object:
    return SUDOKU.parse(f"{text}\n")[0]


def cell_name(row: int, column: int) -> str:
    return TERMS.get("sudoku").subject(grid(PUZZLE), "cell", (row, column)).name


def test_entries_are_the_values_beyond_the_clues() -> None:
    assert entries_of(grid(PUZZLE), grid(RIGHT)) == {("cell", (0, 0)): 2}
    assert entries_of(grid(PUZZLE), grid(PUZZLE)) == {}


def test_the_next_step_follows_from_the_clues_and_the_entries() -> None:
    found = hint(grid(PUZZLE), grid(RIGHT), steps=1)
    assert [(fact.index, fact.values) for fact in found.entries] == [((0, 0), (2,))]
    assert found.wrong == () and found.explanation is not None
    assert len(found.steps) == 1 and found.explanation.ending == "steps asked"
    assert found.steps[0].facts and found.steps[0].constraints


def test_a_wrong_entry_comes_with_a_step_to_no_solution() -> None:
    found = hint(grid(PUZZLE), grid(WRONG))
    (wrong,) = found.wrong
    assert (wrong.entry.index, wrong.entry.values) == ((0, 0), (4,))
    assert wrong.step is not None and wrong.step.contradiction
    assert wrong.step.constraints
    assert (0, 0) in [fact.index for fact in wrong.step.premises]
    assert found.steps == ()


@pytest.mark.parametrize("partial, row, column", [
    ("....23...24.....", 1, 0),  # the clue 1 at r2c1 became 2
    ("....1....24.....", 1, 1),  # the clue 3 at r2c2 is left out
])
def test_a_changed_or_missing_clue_is_named(partial: str, row: int, column: int) -> None:
    with pytest.raises(PuzzleLabError, match=cell_name(row, column)):
        entries_of(grid(PUZZLE), grid(partial))


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name, text in (("puzzle", PUZZLE), ("right", RIGHT), ("wrong", WRONG),
                       ("changed", "....23...24.....")):
        made[name] = tmp_path / f"{name}.txt"
        made[name].write_text(f"{text}\n", encoding="utf-8")
    return made


def test_from_partial_steps_1_gives_the_next_step(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  files: dict[str, Path]) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "explain", "sudoku", str(files["puzzle"]),
                           "--from", str(files["right"]), "--steps", "1", "--json")
    assert code == 0
    (record,) = json.loads(out)
    assert record["instance"] == "puzzle#1" and record["wrong"] == []
    assert [entry["values"] for entry in record["entries"]] == [[2]]
    assert len(record["explanation"]["steps"]) == 1


def test_from_partial_names_a_wrong_entry(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          files: dict[str, Path]) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "explain", "sudoku", str(files["puzzle"]),
                           "--from", str(files["wrong"]), "--steps", "1")
    assert code == 0
    wrong = [line for line in out.splitlines() if line.endswith("is wrong")]
    assert len(wrong) == 1 and cell_name(0, 0) in wrong[0]
    assert any(line.strip().startswith("constraints:") for line in out.splitlines())


def test_from_partial_with_a_changed_clue_is_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        files: dict[str, Path]) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "explain", "sudoku", str(files["puzzle"]),
                             "--from", str(files["changed"]), "--steps", "1")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and cell_name(1, 0) in err


SHIKAKU_TINY = "== tiny\n3 3\n4 - 2\n- - -\n- 3 -\n"


@pytest.mark.parametrize("partial", [
    SHIKAKU_TINY.replace("- 3 -", "- - 3"),  # a clue moved
    SHIKAKU_TINY + "solution:\n3 3\n1 1 2\n1 1 2\n- - -\n",  # rooms partly drawn
])
def test_a_shikaku_file_cannot_hold_a_partly_solved_grid(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        partial: str) -> None:
    (tmp_path / "puzzle.txt").write_text(SHIKAKU_TINY, encoding="utf-8")
    (tmp_path / "partial.txt").write_text(partial, encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, "explain", "shikaku",
                             str(tmp_path / "puzzle.txt"), "--from",
                             str(tmp_path / "partial.txt"), "--steps", "1")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
