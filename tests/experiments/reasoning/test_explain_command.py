"""``puzzlelab explain`` on the command line: steps as text, JSON and summaries on a 4x4
Sudoku, one-line errors with exit status 2, a failed soundness check with 1, and
``generate --explained-difficulty``."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from experiments.reasoning.explaining import explain
from puzzles import PUZZLES
from tests.experiments.cli.commands import run_cli

UNIQUE = "....13...24....."  # a 4x4 Sudoku with one solution
SUDOKU = PUZZLES.get("sudoku")


@pytest.fixture
def puzzle(tmp_path: Path) -> Path:
    path = tmp_path / "unique.txt"
    path.write_text(f"{UNIQUE}\n{UNIQUE}\n", encoding="utf-8")
    return path


def test_text_numbers_each_step_with_its_cost_and_ends_with_the_difficulty(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], puzzle: Path
) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "explain", "sudoku", str(puzzle),
                           "--instance", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[0] == "unique#1" and "unique#2" not in out
    costs = [int(cost) for cost in re.findall(r"^\s+\d+\. \[cost (\d+)\]", out, re.M)]
    assert costs and any(line.strip().startswith("premises:") for line in lines)
    assert any(line.startswith("solved:") for line in lines)
    difficulty = re.search(r"^difficulty (\d+), total cost (\d+)$", out, re.M)
    assert difficulty is not None
    assert (int(difficulty[1]), int(difficulty[2])) == (max(costs), sum(costs))


def test_json_holds_each_instance_with_its_steps_and_a_checked_solution(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], puzzle: Path
) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "explain", "sudoku", str(puzzle), "--json")
    assert code == 0
    records = json.loads(out)
    assert [record["instance"] for record in records] == ["unique#1", "unique#2"]
    first = records[0]
    assert first["ending"] == "solved"
    assert first["difficulty"] == max(step["cost"] for step in first["steps"])
    assert first["total_cost"] == sum(step["cost"] for step in first["steps"])
    step = first["steps"][0]
    assert {"facts", "constraints", "premises", "cost", "text"} <= set(step)
    assert step["constraints"] and step["facts"]
    instance = SUDOKU.read(puzzle)[0]
    assert SUDOKU.check(instance, SUDOKU.solution_from_json(first["solution"])) == []


@pytest.mark.parametrize("flags", [("--difficulty-only",), ("--json", "--difficulty-only")])
def test_difficulty_only_prints_summaries(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str], puzzle: Path,
                                          flags: tuple[str, ...]) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "explain", "sudoku", str(puzzle),
                           "--instance", "2", *flags)
    assert code == 0
    (summary,) = json.loads(out)
    expected = explain(SUDOKU.read(puzzle)[1])
    assert summary["instance"] == "unique#2" and "solution" not in summary
    assert (summary["difficulty"], summary["steps"], summary["ending"]) == (
        expected.difficulty, len(expected.steps), "solved")


def test_steps_gives_as_many_steps_as_asked(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            puzzle: Path) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "explain", "sudoku", str(puzzle),
                           "--instance", "1", "--steps", "1", "--json")
    assert code == 0
    (record,) = json.loads(out)
    assert len(record["steps"]) == 1 and record["ending"] == "steps asked"
    assert record["solution"] is None


@pytest.mark.parametrize("arguments, named", [
    (("--viewpoint", "nope"), "nope"),
    (("-o", "bad=1"), "bad"),
    (("--time-limit", "0"), "--time-limit"),
    (("--steps", "0"), "--steps"),
])
def test_bad_input_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str], puzzle: Path,
                                          arguments: tuple[str, ...], named: str) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "explain", "sudoku", str(puzzle),
                             *arguments)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and named in err


def test_a_step_that_fails_its_check_exits_1(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str],
                                             puzzle: Path) -> None:
    monkeypatch.setattr("experiments.reasoning.explain_check.refuted",
                        lambda *arguments, **keywords: False)
    code, out, err = run_cli(monkeypatch, capsys, "explain", "sudoku", str(puzzle))
    assert code == 1 and out == ""
    assert "soundness" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(importlib.util.find_spec("experiments.reasoning.explain_page") is None,
                    reason="the explanation page is not in this version")
def test_html_writes_the_page(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str], puzzle: Path,
                              tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    code, _, _ = run_cli(monkeypatch, capsys, "explain", "sudoku", str(puzzle), "--steps",
                         "2", "--html", str(page))
    assert code == 0 and "unique#1" in page.read_text(encoding="utf-8")


def test_generate_keeps_instances_of_the_explained_difficulty_asked(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    wanted = explain(SUDOKU.parse(f"{UNIQUE}\n")[0]).difficulty
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "sudoku", "--box", "2",
                           "--explained-difficulty", f"{wanted}-{wanted + 5}",
                           "--output", str(tmp_path))
    assert code == 0 and "explained difficulty" in out
    (written,) = tmp_path.glob("*.txt")
    found = explain(SUDOKU.read(written)[0]).difficulty
    assert wanted <= found <= wanted + 5


def test_generate_refuses_a_range_that_is_not_one(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "generate", "sudoku", "--box", "2",
                           "--explained-difficulty", "40-20", "--output", str(tmp_path))
    assert code == 2 and "--explained-difficulty" in err
