"""``puzzlelab grade`` on the command line: a table or JSON records, an instance without
exactly one solution said and passed over, one-line errors, every grade in the help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.reasoning.explaining import explain
from puzzles import PUZZLES
from tests.experiments.cli.commands import run_cli
from viewpoints import LADDERS

UNIQUE, SEVERAL = "....13...24.....", "2..4413....3...."  # 4x4 Sudokus: 1 and 2 solutions


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.txt"
    path.write_text(f"{UNIQUE}\n{SEVERAL}\n", encoding="utf-8")
    return path


def test_grade_prints_a_table_and_says_which_instance_has_several_solutions(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], mixed: Path
) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "grade", "sudoku", str(mixed))
    assert code == 0
    header, first, second, *_ = out.splitlines()
    assert header.split()[:3] == ["instance", "grade", "difficulty"] and "branches" in header
    assert first.split()[:2] == ["mixed#1", "weak"] and first.split()[2].isdigit()
    assert second.split()[0] == "mixed#2" and "several solutions" in second


def test_grade_json_is_a_list_of_records(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], mixed: Path) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "grade", "sudoku", str(mixed), "--json")
    assert code == 0
    records = json.loads(out)
    assert [(r["instance"], r["grade"], r["solutions"]) for r in records] == [
        ("mixed#1", "weak", 1), ("mixed#2", None, 2)]
    assert records[0]["difficulty"] == explain(PUZZLES.get("sudoku").parse(UNIQUE)[0]).difficulty
    assert records[1]["difficulty"] is None


def test_search_is_reported_with_its_branches_on_cp(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    file = PUZZLES.get("sudoku").data_folder() / "norvig_hardest.txt"
    code, out, _ = run_cli(monkeypatch, capsys, "grade", "sudoku", str(file), "--instance",
                           "2", "--instance", "norvig_hardest#3", "--json", "--no-explain")
    assert code == 0
    first, second = json.loads(out)
    assert (first["instance"], first["grade"], second["grade"]) == (
        "norvig_hardest#2", "search", "probing")
    assert first["branches"] >= 1 and second["branches"] is None
    assert first["difficulty"] is None  # --no-explain


def test_grade_with_no_instance_graded_exits_1(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    path = tmp_path / "several.txt"
    path.write_text(f"{SEVERAL}\n", encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, "grade", "sudoku", str(path))
    assert code == 1 and "several solutions" in out
    assert err.startswith("error:") and len(err.splitlines()) == 1


@pytest.mark.parametrize(("arguments", "said"), [
    (["grade", "chess", "x.txt"], "unknown puzzle 'chess'"),
    (["grade", "sudoku", "{missing}"], "no such file"),
    (["grade", "sudoku", "{bad}"], "bad.txt:1:"),
    (["grade", "sudoku", "{mixed}", "--instance", "7"], "out of range"),
    (["generate", "sudoku", "--difficulty", "hard"], "weak, strong, probing, search"),
])
def test_errors_are_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                             mixed: Path, tmp_path: Path, arguments: list[str], said: str) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("12a.............\n", encoding="utf-8")
    paths = {"{missing}": str(tmp_path / "none.txt"), "{bad}": str(bad), "{mixed}": str(mixed)}
    code, _, err = run_cli(monkeypatch, capsys, *(paths.get(a, a) for a in arguments))
    assert code == 2 and said in err
    assert err.startswith("error:") and len(err.splitlines()) == 1


def test_help_derives_every_grade_from_the_ladders(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _, grade_help, _ = run_cli(monkeypatch, capsys, "grade", "--help")
    _, generate_help, _ = run_cli(monkeypatch, capsys, "generate", "--help")
    for puzzle in LADDERS.names():
        for name, meaning, _ in LADDERS.get(puzzle).meanings():
            assert f"{name}: {meaning}" in grade_help
            assert f"{name}: {meaning}" in generate_help
