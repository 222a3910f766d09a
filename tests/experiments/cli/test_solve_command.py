"""``puzzlelab solve``: the grid and statistics it prints, its JSON, counting with
``--all`` or ``--max-solutions`` and printing the solutions counted, which search answered
a symmetric run, whether the known solution matches, a wrong answer's exit status, and the
files it writes (the solved grid as SVG, the search tree)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

import experiments.campaign.solving
from experiments.campaign.solving import default_heuristic
from experiments.campaign.verdicts import FALSE_UNSATISFIABLE, REJECTED
from puzzlelab.statistics import run_statistics
from solvers import Status, solve
from tests.experiments.cli.commands import MULTI_4X4, SMALL_4X4, run_cli, svg_texts
from tests.facts import states
from tests.paths import NONOGRAM_DATA
from tests.paths import SUDOKU_DATA as DATA


def test_solve_json(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "kul_named_9x9.txt"),
                           "--instance", "lambda", "--viewpoint", "channeled", "--solver", "cp",
                           "--heuristic", "first-fail", "-o", "alldiff=strong", "--json")
    assert code == 0
    result = json.loads(out)
    assert {"puzzle", "instance", "viewpoint", "solver", "heuristic", "status", "solution",
            "statistics", "violations"} <= set(result)
    assert result["status"] == "solved" and result["violations"] == []
    assert result["instance"] == "lambda" and result["options"]["alldiff"] == "strong"
    assert result["solution"][0] == [1, 8, 4, 9, 6, 3, 7, 2, 5]
    assert list(result["statistics"]) == [s.name for s in run_statistics()]  # the declaration's
    assert result["statistics"]["conflicts"] is None


def test_solve_says_which_search_answered_a_symmetric_run(monkeypatch, capsys) -> None:
    plus = str(NONOGRAM_DATA / "small" / "plus_3x3.non")
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", plus, "--heuristic",
                           "auto+symmetric", "--json")
    result = json.loads(out)
    assert code == 0 and result["violations"] == [] and result["heuristic"] == "auto+symmetric"
    assert result["symmetric"]["answered_by"] == "symmetric solutions"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", plus, "--heuristic",
                           "auto+symmetric")
    assert code == 0 and "answered by" in out and "symmetric solutions" in out
    code, _, err = run_cli(monkeypatch, capsys, "solve", "nonogram", plus, "--heuristic",
                           "auto+symmetric", "--all")
    assert code != 0 and "leave out +symmetric" in err and "Traceback" not in err


def test_counting_with_the_default_heuristic_leaves_symmetric_search_out(monkeypatch,
                                                                        capsys) -> None:
    two = str(NONOGRAM_DATA / "small" / "two_solutions_2x2.non")
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", two, "--all", "--json")
    result = json.loads(out)
    assert code == 0 and result["heuristic"] == "auto" and result["complete"]
    assert result["statistics"]["solutions"] == 2
    # a default with +symmetric (which looks for one solution) keeps it for one solution
    # and drops it for counting, rather than refusing as a named one is
    assert default_heuristic("auto+symmetric", 1) == "auto+symmetric"
    assert default_heuristic("first-fail/min+symmetric", 0) == "first-fail/min"


def test_solve_all_counts_solutions(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "multi_4x4.txt"),
                           "--instance", "2", "--solver", "cp", "--heuristic", "input",
                           "--all", "--json")
    result = json.loads(out)
    assert code == 0 and result["statistics"]["solutions"] == 12 and result["complete"]


def test_solve_prints_grid_and_statistics(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "small_4x4.txt"),
                           "--instance", "1")
    assert code == 0
    assert "correct" in out and "backtracks" in out and "2 4 | 1 3" in out


def test_max_solutions_zero_counts_every_solution_as_all_does(monkeypatch, capsys) -> None:
    arguments = ["solve", "sudoku", str(DATA / "multi_4x4.txt"), "--instance", "2", "--solver",
                 "cpsat", "--json"]
    counted = [json.loads(run_cli(monkeypatch, capsys, *arguments, *extra)[1])
               for extra in (["--max-solutions", "0"], ["--all"])]
    assert [c["statistics"]["solutions"] for c in counted] == [12, 12]
    assert all(c["complete"] and c["status"] == "solved" for c in counted)


def printed_solutions(out: str) -> dict[int, str]:
    """The solutions after the first that ``solve`` prints, by number, as drawn."""
    parts = re.split(r"^solution (\d+) of \d+: correct$", out, flags=re.M)
    return {int(number): grid.split("...")[0].strip()
            for number, grid in zip(parts[1::2], parts[2::2], strict=True)}


@pytest.mark.parametrize(("extra", "printed", "left"), [
    ([], 10, 2),  # the default: 10 printed, then how many more
    (["--print", "3"], 3, 9),
    (["--print", "0"], 12, 0),  # every one
])
def test_solve_all_prints_the_solutions_it_counts(monkeypatch, capsys, extra: list[str],
                                                  printed: int, left: int) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", MULTI_4X4, "--instance",
                           "2", "--solver", "cp", "--all", *extra)
    assert code == 0 and "WRONG" not in out
    shown = printed_solutions(out)
    assert sorted(shown) == list(range(2, printed + 1))
    first = out.split("status:")[0].split("\n", 1)[1].strip()  # the grid under the header
    assert len({first, *shown.values()}) == printed  # all different
    assert (f"{left} more solution" in out) == (left > 0)


def test_one_solution_prints_no_more(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", MULTI_4X4, "--instance", "2")
    assert code == 0 and "solution 2 of" not in out and "more solution" not in out


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


@pytest.mark.parametrize("status", ["unsatisfiable", "solved"])
def test_solve_exits_1_on_a_wrong_answer(monkeypatch, capsys, status: str) -> None:
    def wrong(*args, **kwargs):
        result = solve(*args, **kwargs)
        if status == "unsatisfiable":
            return replace(result, status=Status.UNSATISFIABLE, assignment=None)
        return replace(result, assignment={variable: 0 for variable in result.assignment})

    monkeypatch.setattr(experiments.campaign.solving, "solve_model", wrong)
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(DATA / "kul_named_9x9.txt"),
                           "--instance", "lambda", "--json")
    result = json.loads(out)
    assert code == 1 and result["status"] == "error"
    message = result["message"]  # a rejection: the checker's list of what is broken follows
    assert message == FALSE_UNSATISFIABLE if status == "unsatisfiable" else (
        message.startswith(REJECTED) and message != REJECTED)


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
