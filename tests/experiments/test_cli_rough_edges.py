"""What a new user ran into: where ``run`` writes, ``--version``,
a closed pipe, the known solution in text ``solve``, and pictures from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import pytest

import experiments.campaign.solving
import puzzlelab
from solvers import Status, solve
from tests.experiments.test_cli import run_cli
from tests.experiments.test_cli_runner import line_with
from tests.facts import states
from tests.paths import NONOGRAM_DATA, ROOT, SUDOKU_DATA

SMALL_4X4 = str(SUDOKU_DATA / "small_4x4.txt")  # with known solutions (a companion file)
MULTI_4X4 = str(SUDOKU_DATA / "multi_4x4.txt")  # without


def test_version(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "--version")
    assert code == 0 and out == f"puzzlelab {puzzlelab.__version__}\n"


@pytest.mark.parametrize("arguments", [
    ["list"],
    ["solve", "sudoku", SMALL_4X4, "--instance", "1", "--json"],
    ["draw", "sudoku", SMALL_4X4, "--instance", "1"],
])
def test_a_closed_pipe_ends_the_command_quietly_with_status_0(arguments: list[str]) -> None:
    """As ``puzzlelab list | head`` once head has its lines: the reader end is closed
    before the command writes, so every write meets the closed pipe."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        finished = subprocess.run([sys.executable, "-m", "experiments", *arguments], cwd=ROOT,
                                  stdout=writer, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(writer)
    assert (finished.returncode, finished.stderr) == (0, "")


def test_a_closed_pipe_keeps_the_status_of_a_command_that_had_failed() -> None:
    reader, writer = os.pipe()
    os.close(reader)
    try:
        finished = subprocess.run([sys.executable, "-m", "experiments", "solve", "sudoku",
                                   "missing.txt"], cwd=ROOT, stdout=writer,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(writer)
    assert finished.returncode == 2 and finished.stderr.count("\n") == 1
    assert finished.stderr.startswith("error:")
    assert states(finished.stderr, "missing.txt", "no such file")


def known_solution_line(out: str) -> str:
    [status] = [line for line in out.splitlines() if line.startswith("status:")]
    return status.split("known solution: ", 1)[1]


def test_text_solve_says_whether_the_known_solution_matches(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", SMALL_4X4, "--instance", "1")
    assert code == 0 and known_solution_line(out) == "matches"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", MULTI_4X4, "--instance", "1")
    assert code == 0 and known_solution_line(out) == "none in the file"


def test_text_solve_says_when_the_solution_found_is_another_one(monkeypatch, capsys,
                                                               tmp_path: Path) -> None:
    """Two files of a 2x2 nonogram with two solutions, one giving each as its goal: the
    solver finds one of them, so one file matches and the other differs, as --json says."""
    text = (NONOGRAM_DATA / "small" / "two_solutions_2x2.non").read_text()
    said, matches = [], []
    for goal in ("1001", "0110"):
        path = tmp_path / f"goal_{goal}.non"
        path.write_text(f'{text}\ngoal "{goal}"\n')
        code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", str(path))
        assert code == 0
        said.append(known_solution_line(out))
        code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", str(path), "--json")
        matches.append(json.loads(out)["matches_known"])
    assert sorted(said)[1] == "matches" and [phrase == "matches" for phrase in said] == matches
    differs = sorted(said)[0]  # and why the other differs though it is correct
    assert differs.startswith("differs") and states(differs, "both are correct",
                                                     "more than one solution")


def test_text_solve_without_a_solution_compares_nothing(monkeypatch, capsys) -> None:
    def out_of_time(*args, **kwargs):
        return replace(solve(*args, **kwargs), status=Status.TIMEOUT, assignment=None)

    monkeypatch.setattr(experiments.campaign.solving, "solve_model", out_of_time)
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", SMALL_4X4, "--instance", "1")
    assert code == 0 and states(known_solution_line(out), "not compared", "no solution found")


def svg_texts(path: Path) -> list[str]:
    """The texts of an SVG picture (digits and clues), in document order."""
    return [node.text or "" for node in ElementTree.parse(path).iter()
            if node.tag.endswith("text")]


def test_solve_writes_the_solved_grid_as_svg(monkeypatch, capsys, tmp_path: Path) -> None:
    picture = tmp_path / "solved.svg"
    code, out, err = run_cli(monkeypatch, capsys, "solve", "sudoku", SMALL_4X4, "--instance",
                             "1", "--svg", str(picture))
    assert code == 0 and f"wrote {picture}" in out and err == ""
    assert len(svg_texts(picture)) == 16  # every cell filled
    code, out, err = run_cli(monkeypatch, capsys, "solve", "sudoku", SMALL_4X4, "--instance",
                             "1", "--json", "--svg", str(tmp_path / "again.svg"))
    assert code == 0 and json.loads(out)["status"] == "solved"
    assert f"wrote {tmp_path / 'again.svg'}" in err  # stdout stays one JSON object
    assert (tmp_path / "again.svg").read_bytes() == picture.read_bytes()


def test_a_file_option_makes_its_folder_or_is_refused_before_solving(
        monkeypatch, capsys, tmp_path: Path) -> None:
    picture, tree = tmp_path / "new" / "solved.svg", tmp_path / "trees" / "t.json"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", SMALL_4X4, "--instance",
                           "1", "--svg", str(picture), "--tree", str(tree), "--solver", "cp",
                           "--heuristic", "input/min")
    assert code == 0 and picture.is_file() and json.loads(tree.read_text())["nodes"]
    exported = tmp_path / "deeper" / "still" / "model.mzn"
    code, _, _ = run_cli(monkeypatch, capsys, "export", "sudoku", SMALL_4X4, "--instance", "1",
                         "--format", "minizinc", "--output", str(exported))
    assert code == 0 and "solve" in exported.read_text()
    monkeypatch.setattr(experiments.campaign.solving, "solve_model", None)  # refused before solving
    code, out, err = run_cli(monkeypatch, capsys, "solve", "sudoku", SMALL_4X4, "--instance",
                             "1", "--svg", str(tmp_path))
    assert code == 2 and "--svg" in err and str(tmp_path) in err and "folder" in err
    assert out == ""


def test_draw_shows_an_instance_without_solving_it(monkeypatch, capsys, tmp_path: Path) -> None:
    monkeypatch.setattr(experiments.campaign.solving, "solve_model", None)  # drawing must not solve
    code, out, _ = run_cli(monkeypatch, capsys, "draw", "sudoku", SMALL_4X4, "--instance", "1")
    # the grid as drawn is the product: its first rows are compared as they are drawn
    assert code == 0 and out.startswith(" . . | . .\n 1 3 | . .\n-----+-----\n")
    assert out.count("\n") == 5
    puzzle, solution = tmp_path / "puzzle.svg", tmp_path / "solution.svg"
    code, out, _ = run_cli(monkeypatch, capsys, "draw", "sudoku", SMALL_4X4, "--instance", "1",
                           "--svg", str(puzzle))
    assert code == 0 and out == f"wrote {puzzle}\n"
    assert svg_texts(puzzle) == ["1", "3", "2", "4"]  # the givens alone
    code, _, _ = run_cli(monkeypatch, capsys, "draw", "sudoku", SMALL_4X4, "--instance", "1",
                         "--solution", "--svg", str(solution))
    assert code == 0 and len(svg_texts(solution)) == 16
    code, out, _ = run_cli(monkeypatch, capsys, "draw", "nonogram",
                           str(NONOGRAM_DATA / "small" / "plus_3x3.non"))
    assert code == 0 and "?" in out


def test_draw_refuses_a_solution_the_file_does_not_give(monkeypatch, capsys) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "draw", "sudoku", MULTI_4X4, "--instance",
                             "2", "--solution")
    assert code == 2 and out == "" and err.startswith("error:") and err.count("\n") == 1
    assert states(err, MULTI_4X4, "'multi_4x4#2'", "no known solution")


SPEC = """
name = "where"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1] }]
viewpoints = ["classic"]
solvers = ["cp"]
heuristics = ["input/min"]
"""


def test_run_writes_to_runs_in_the_current_folder_and_says_so(monkeypatch, capsys, write_spec,
                                                             tmp_path: Path) -> None:
    spec = write_spec(SPEC)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress", "--jobs", "1")
    assert code == 0
    # said first: the folder, and the files it will hold
    assert states(out.splitlines()[0], f"{Path('runs', 'where')}{os.sep}", "runs.sqlite",
                  "table.md", "table.tex", "runs.csv")
    assert (here / "runs" / "where" / "runs.sqlite").is_file()
    assert sorted(p.name for p in here.iterdir()) == ["runs"]
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress")
    assert code == 0 and states(line_with(out, "this session"), "0 runs", "none", "1 of 1",
                                "stored before")


def test_out_names_the_folder_and_results_the_folder_above(monkeypatch, capsys, write_spec,
                                                           tmp_path: Path) -> None:
    spec = write_spec(SPEC)
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress", "--out",
                           str(tmp_path / "mine"))
    assert code == 0 and states(out.splitlines()[0], f"{tmp_path / 'mine'}{os.sep}")
    assert (tmp_path / "mine" / "runs.sqlite").is_file()
    code, out, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress",
                           "--results", str(tmp_path / "above"))
    assert code == 0 and (tmp_path / "above" / "where" / "runs.sqlite").is_file()
    code, _, err = run_cli(monkeypatch, capsys, "run", str(spec), "--out", str(tmp_path / "a"),
                           "--results", str(tmp_path / "b"))
    assert code == 2 and states(err, "--out", "--results", "one of them")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_runs_stored_where_campaigns_went_before_are_pointed_at(monkeypatch, capsys,
                                                                write_spec,
                                                                tmp_path: Path) -> None:
    spec = write_spec(SPEC)
    monkeypatch.chdir(tmp_path)
    code, _, _ = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress", "--out",
                         str(Path("results", "where")))
    assert code == 0
    code, out, err = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress")
    # a new folder: nothing to resume
    assert code == 0 and states(line_with(out, "this session"), "1 run", "0 of 1")
    # the store there, and the option that resumes its runs
    assert err.startswith("note:") and states(err, str(Path('results', 'where', 'runs.sqlite')),
                                              f"--out {Path('results', 'where')}", "resume")
    code, _, err = run_cli(monkeypatch, capsys, "run", str(spec), "--no-progress")
    assert code == 0 and err == ""  # the new folder holds the runs now: nothing to say
