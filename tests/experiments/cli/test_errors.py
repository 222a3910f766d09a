"""Mistakes on the command line are one clear ``error:`` line, never a traceback: a bad
argument or option (what was given and what is valid), a missing or unreadable file (its
line and column), a file of several instances (how to pick one), a file of another puzzle
(the command that reads it), a path that cannot be a folder, a bad scheduler address,
running out of memory, and a model too big for its viewpoint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import experiments.campaign.solving
from tests.experiments.cli.commands import MULTI_4X4, run_cli
from tests.facts import states
from tests.paths import NONOGRAM_DATA, ROOT
from tests.paths import SUDOKU_DATA as DATA
from viewpoints import get_viewpoint

#: solve the first small 4x4 Sudoku; the cases below add the options under test
SMALL = ["solve", "sudoku", str(DATA / "small_4x4.txt"), "--instance", "1"]
HASHI = ROOT / "puzzles" / "data" / "hashi" / "small" / "several.txt"


@pytest.mark.parametrize(("arguments", "stated"), [
    (["solve", "sudoku", "missing.txt"], ("missing.txt", "no such file")),
    (["solve", "sudoku", str(DATA / "kul_named_9x9.txt"), "--instance", "nope"],
     ("kul_named_9x9.txt", "'nope'", "lambda", "hard17")),  # the names there are
    (["solve", "chess", str(DATA / "small_4x4.txt")], ("puzzle", "'chess'", "nonogram", "sudoku")),
    ([*SMALL, "--viewpoint", "x"], ("sudoku viewpoint", "'x'", "classic", "channeled")),
    ([*SMALL, "--solver", "z3"], ("solver", "'z3'", "cp", "cpsat")),
    ([*SMALL, "--viewpoint", ""], ("sudoku viewpoint", "''", "classic")),
    ([*SMALL, "--solver", ""], ("solver", "''", "cp")),
    ([*SMALL, "--heuristic", "first-fail/"], ("value order", "''", "min", "max")),
    ([*SMALL, "-o", "alldiff=best"], ("alldiff", "'best'", "weak", "strong")),
    ([*SMALL, "-o", "alldiff"], ("'alldiff'", "NAME=VALUE")),
    ([*SMALL, "-o", "alldiff=weak", "-o", "alldiff = strong"],
     ("'alldiff'", "twice", "alldiff=weak", "alldiff=strong")),
    ([*SMALL, "--heuristic", "+symmetric"],
     ("'+symmetric'", "'first-fail+symmetric'", "'auto+symmetric'")),
    ([*SMALL, "--solver", "python-constraint", "-o", "alldiff=strong"],
     ("python-constraint", "strong", "alldiff=weak")),
    ([*SMALL, "--bogus"], ("unrecognized", "--bogus")),
    (["nosuch"], ("command", "'nosuch'", "solve", "run")),
    (["solve", "sudoku"], ("required", "FILE")),
    (["generate", "nonogram", "--count", "x"], ("--count", "int", "'x'")),
    ([*SMALL, "--time-limit", "-1"], ("--time-limit", "above 0", "-1.0")),
    ([*SMALL, "--time-limit", "nan"], ("--time-limit", "above 0", "nan")),
    ([*SMALL, "--max-solutions", "-3"], ("--max-solutions", "at least 0", "-3")),
    ([*SMALL, "--all", "--max-solutions", "2"], ("--all", "leave out --max-solutions")),
    (["run", str(ROOT / "experiments" / "specs" / "sudoku-course.toml"), "--jobs", "0"],
     ("--jobs", "at least 1", "0")),
])
def test_errors_are_one_clear_line(monkeypatch, capsys, arguments: list[str],
                                   stated: tuple[str, ...]) -> None:
    code, _, err = run_cli(monkeypatch, capsys, *arguments)
    assert code == 2 and "Traceback" not in err
    [error] = [line for line in err.splitlines() if line.startswith("error:")]
    assert states(error, *stated), error  # what was given, and what is valid or to do


def test_bad_file_error_names_file_and_line(monkeypatch, capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1...........4...\n1.a.........4...\n")
    code, _, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(bad), "--instance", "2")
    assert code == 2
    assert f"{bad}:2:3" in err.replace("\n", "")


@pytest.mark.parametrize("command", ["solve", "draw"])
def test_a_file_of_several_instances_says_how_to_pick_one(monkeypatch, capsys,
                                                          command: str) -> None:
    code, out, err = run_cli(monkeypatch, capsys, command, "sudoku", MULTI_4X4)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "--instance" in err and "4 instances" in err
    assert all(f"multi_4x4#{number}" in err for number in range(1, 5))


def test_a_file_of_another_puzzle_keeps_its_error_and_names_the_puzzle(monkeypatch,
                                                                       capsys) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(HASHI))
    assert code == 2 and "Traceback" not in err
    assert re.search(rf"{re.escape(str(HASHI))}:\d+", err)  # the original file and line
    assert "puzzlelab solve hashi" in err
    code, _, err = run_cli(monkeypatch, capsys, "draw", "shikaku", str(HASHI))
    assert code == 2 and "puzzlelab draw hashi" in err


def test_a_file_no_puzzle_reads_gets_no_hint(monkeypatch, capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1.a.........4...\n")
    code, _, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(bad))
    assert code == 2 and f"{bad}:1:3" in err and "reads as" not in err


def test_a_reader_that_breaks_while_hinting_is_logged_as_a_bug(monkeypatch, capsys, caplog,
                                                               tmp_path: Path) -> None:
    """Asking the other puzzles' readers is for a hint: a reader that fails otherwise than
    by refusing the file is a bug, logged with its traceback, never a hint; the user's
    own error stays as it was."""
    from puzzles import PUZZLES

    def broken(path: object) -> list[object]:
        raise RuntimeError("a reader's own bug")

    monkeypatch.setattr(PUZZLES.get("hashi"), "read", broken)
    bad = tmp_path / "bad.txt"
    bad.write_text("1.a.........4...\n")
    with caplog.at_level("ERROR"):
        code, _, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(bad))
    assert code == 2 and f"{bad}:1:3" in err and "reads as" not in err
    [logged] = [r for r in caplog.records if r.exc_info]
    assert "hashi reader" in logged.getMessage() and "a reader's own bug" in caplog.text


def test_a_path_that_cannot_be_a_folder_is_one_clear_line(monkeypatch, capsys,
                                                          tmp_path: Path) -> None:
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    code, _, err = run_cli(monkeypatch, capsys, "generate", "nonogram", "--output", str(a_file))
    assert code == 2 and states(err, f"--output {a_file}", "folder")
    code, _, err = run_cli(monkeypatch, capsys, "run",
                           str(ROOT / "experiments" / "specs" / "sudoku-course.toml"), "--results",
                           str(a_file))
    assert code == 2 and states(err, str(a_file / "sudoku-course"), "Not a directory")
    assert "Traceback" not in err


def test_a_scheduler_that_is_no_address_is_one_clear_line(monkeypatch, capsys,
                                                          tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    code, _, err = run_cli(monkeypatch, capsys, "run",
                           str(ROOT / "experiments" / "specs" / "sudoku-course.toml"), "--results",
                           str(tmp_path), "--executor", "dask", "--scheduler", "nonsense",
                           "--no-progress")
    assert code == 2 and states(err, "Dask scheduler", "nonsense")
    assert "Traceback" not in err


def test_running_out_of_memory_is_one_clear_line(monkeypatch, capsys) -> None:
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(experiments.campaign.solving, "solve_model", exhausted)
    code, out, err = run_cli(monkeypatch, capsys, *SMALL)
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith("error:") and "out of memory" in err


def test_a_refused_model_is_one_clear_line_even_with_json(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "solve", "nonogram",
                             str(NONOGRAM_DATA / "webpbn_survey" / "faase.non"),
                             "--viewpoint", "line-table", "--json")
    assert code == 2 and out == "" and "Traceback" not in err
    limit = get_viewpoint("nonogram", "line-table").options["max_placements"].default
    assert err.startswith("error:") and err.count("\n") == 1  # the line, its size, the option
    assert states(err, "line-table", "row 3", "clue 3,5,4,2", "766,480",
                  f"max_placements={limit:,}")
