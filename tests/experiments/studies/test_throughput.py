"""The throughput benchmark: every answer checked, figures positive, bad names refused."""

from __future__ import annotations

import json

import pytest

from experiments.studies.kit.records import Choice
from experiments.studies.throughput import cli, direct_choco
from experiments.studies.throughput.combinations import (
    BEST,
    BEST_BY_SOLVER,
    DEFAULTS,
    LEFT_OUT,
    PUZZLE,
    candidates,
    parse_combination,
    registered,
)
from experiments.studies.throughput.direct import DirectAnswer, read_lines
from experiments.studies.throughput.measure import measure_direct

PUZZLES = "3"


def run_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, dict]:
    code = cli.main(["--puzzles", PUZZLES, "--json", *arguments])
    return code, json.loads(capsys.readouterr().out)


def assert_all_checked(figures: dict) -> None:
    assert figures["attempted"] == figures["correct"] == int(PUZZLES), figures
    assert figures["failures"] == [] and not figures["stopped_early"]
    assert figures["cpu_s"] > 0 and figures["wall_s"] > 0
    assert figures["per_core"] > 0 and figures["per_wall_second"] > 0


def test_a_combination_and_the_direct_cpsat_script_solve_and_check_every_puzzle(capsys) -> None:
    code, report = run_json(capsys, "--combination", "cp:classic,alldiff=strong:first-fail/min",
                            "--combination", "cpsat", "--direct", "cpsat")
    assert code == 0
    names = [figures["name"] for figures in report["figures"]]
    assert names == ["cp:classic,alldiff=strong:first-fail/min",
                     "cpsat:classic,alldiff=strong:auto", "direct cpsat script"]
    for figures in report["figures"]:
        assert_all_checked(figures)
    cp, cpsat, direct = report["figures"]
    assert cp["mean_backtracks"] is not None and cp["mean_branches"] > 0
    assert cpsat["mean_backtracks"] is None and direct["mean_backtracks"] is None
    ratio = report["ratios"]["cpsat"]
    assert ratio["target"] == 1.0
    assert ratio["ratio"] == pytest.approx(cpsat["per_core"] / direct["per_core"])


@pytest.mark.skipif(not direct_choco.available(),
                    reason="pychoco is not installed: the direct Choco script cannot run")
def test_the_direct_choco_script_solves_and_checks_every_puzzle(capsys) -> None:
    code, report = run_json(capsys, "--combination", "cpsat", "--direct", "choco")
    assert code == 0
    choco = report["figures"][-1]
    assert choco["name"] == "direct choco script"
    assert_all_checked(choco)
    assert isinstance(choco["mean_backtracks"], float)  # Choco counts them; CP-SAT gives None


def test_the_table_shows_every_figure_and_the_ratio(capsys) -> None:
    assert cli.main(["--puzzles", "2", "--combination", "cpsat", "--direct", "cpsat"]) == 0
    out = capsys.readouterr().out
    assert "puzzles/s/core" in out and "2/2" in out and "direct cpsat script" in out
    assert "best cpsat combination / direct cpsat script:" in out


def test_a_wrong_answer_fails_the_run(capsys, monkeypatch) -> None:
    def wrong(puzzle: str) -> DirectAnswer:
        return DirectAnswer("1" * 81, 0, 0)

    monkeypatch.setitem(cli.DIRECT_SCRIPTS, "cpsat", wrong)
    code = cli.main(["--puzzles", "2", "--combination", "cpsat", "--direct", "cpsat"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED direct cpsat script: puzzle 1: a wrong solution" in out
    assert "best cpsat combination" not in out  # no ratio over a script that failed


def test_a_direct_answer_is_compared_with_the_known_solution() -> None:
    lines = read_lines(cli.DATA)[:2]
    right = {puzzle: solution for puzzle, solution in lines}
    figures = measure_direct("echo", lambda p: DirectAnswer(right[p], None, None), lines)
    assert (figures.attempted, figures.correct, figures.failures) == (2, 2, [])
    figures = measure_direct("none", lambda p: DirectAnswer(None, None, None), lines)
    assert figures.correct == 0 and figures.failures[0] == "puzzle 1: no solution"


@pytest.mark.parametrize(("name", "says"), [
    ("cpsat:classic", "is not of the form SOLVER:VIEWPOINT"),
    ("cpsta", "backends that may be named alone: cpsat, cp, choco"),
    ("nosolver:classic:first-fail/min", "unknown solver 'nosolver'"),
    ("cpsat:diagonal:first-fail/min", "unknown sudoku viewpoint 'diagonal'"),
    ("cpsat:classic,alldiff=medium:first-fail/min", "option alldiff must be one of"),
    ("cpsat:classic,alldiff:first-fail/min", "must be written OPTION=VALUE"),
    ("cpsat:classic:smallest-first", "smallest-first"),
])
def test_a_wrong_combination_name_is_a_clear_error(capsys, name: str, says: str) -> None:
    assert cli.main(["--puzzles", "1", "--combination", name, "--direct", "none"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ") and says in captured.err


def test_a_wrong_direct_script_name_is_a_clear_error(capsys) -> None:
    assert cli.main(["--puzzles", "1", "--combination", "cpsat", "--direct", "gecode"]) == 2
    assert "unknown direct script 'gecode'" in capsys.readouterr().err


def test_every_best_combination_is_named_as_it_parses_and_among_the_candidates() -> None:
    assert len(BEST_BY_SOLVER) == len(BEST)
    assert set(DEFAULTS) | {BEST_BY_SOLVER[solver] for solver in LEFT_OUT} == set(BEST)
    for combination in BEST:
        assert parse_combination(combination.name) == combination
        assert parse_combination(combination.solver) == combination
        if registered(combination):
            combination.check_names(PUZZLE)
            assert combination in candidates([combination.solver])


def test_the_default_run_takes_every_registered_best_and_notes_the_others(monkeypatch) -> None:
    absent = Choice("no-such-backend", "classic", "first-fail/min")
    monkeypatch.setattr(cli, "DEFAULTS", (*DEFAULTS, absent))
    combinations, notes = cli.chosen_combinations(cli.parse_arguments([]))
    assert absent not in combinations
    assert [c for c in DEFAULTS if registered(c)] == combinations
    assert f"skipped {absent.name}: backend 'no-such-backend' is not registered here" in notes
    assert any(note.startswith("left out python-constraint:") for note in notes)


def test_without_pychoco_the_direct_choco_script_is_skipped_with_a_note(monkeypatch) -> None:
    monkeypatch.setattr(direct_choco, "available", lambda: False)
    scripts, notes = cli.chosen_direct_scripts("cpsat,choco")
    assert scripts == ["cpsat"]
    assert notes == ["skipped the direct Choco script: pychoco cannot be imported here"]
