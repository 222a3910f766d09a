"""Answers recovered for a store that holds none: each instance's answer found again by
solving one of its correct runs under its recorded settings, kept only where every
stored count is reproduced, so a rebuilt store's report draws the campaign's answers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from experiments.analysis.report_pictures import draw_puzzles
from experiments.campaign.answers import main, recover_answers
from experiments.campaign.from_csv import store_from_csv
from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.stored_campaign import read_campaign
from experiments.campaign.verdicts import Verdict
from puzzlelab.errors import PuzzleLabError
from tests.facts import facts, states

SPEC = """
name = "answers"
puzzle = "sudoku"
instances = [{ file = "{data}/small_4x4.txt", select = [1, 2] }]
viewpoints = ["classic"]
solvers = ["cp", "cpsat"]
heuristics = ["input/min"]
time_limit = 10
"""


@pytest.fixture
def campaign(write_spec, tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A campaign's spec and store, and the answer each run stored, by key; the store's
    answers are then forgotten, as a store rebuilt from runs.csv has none."""
    spec = write_spec(SPEC)
    run_campaign(load_spec(spec), jobs=1, results_root=tmp_path, show_progress=False)
    database = tmp_path / "answers" / "runs.sqlite"
    with sqlite3.connect(database) as connection:
        found = dict(connection.execute("SELECT run_key, solution FROM runs").fetchall())
        connection.execute("UPDATE runs SET solution = NULL")
    return spec, database, found


def stored_answers(database: Path) -> dict[str, str]:
    with sqlite3.connect(database) as connection:
        return dict(connection.execute(
            "SELECT run_key, solution FROM runs WHERE solution IS NOT NULL").fetchall())


def test_each_instance_gets_the_answer_its_first_correct_run_found(campaign) -> None:
    _, database, found = campaign
    outcomes = recover_answers(database)
    assert [(o.instance, o.run is not None, o.already) for o in outcomes] == [
        ("small_4x4#1", True, False), ("small_4x4#2", True, False)]
    recovered = stored_answers(database)
    # the first correct run of each instance (cp, before cpsat), its answer as it was
    assert {key: found[key] for key in recovered} == recovered
    assert {read_campaign(database).runs[0].identity.key} < set(recovered)
    assert len(recovered) == 2
    again = recover_answers(database)  # nothing left to do
    assert all(o.already for o in again) and stored_answers(database) == recovered


def test_a_run_that_does_not_reproduce_its_counts_is_passed_over(campaign) -> None:
    _, database, _ = campaign
    first = read_campaign(database).runs[0].identity
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE runs SET backtracks = 999 WHERE run_key = ?", (first.key,))
    outcome = recover_answers(database, [first.instance])[0]
    assert outcome.run is not None and outcome.run.identity.key != first.key
    assert outcome.run.identity.instance == first.instance
    # the run passed over, the count, the stored figure and today's
    assert states(outcome.said(), "classic on cp with input/min", "backtracks", "999")
    assert first.key not in stored_answers(database)


def test_an_instance_no_run_reproduces_is_left_without_and_said(campaign, capsys) -> None:
    _, database, _ = campaign
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE runs SET branches = branches + 1")
    assert main([str(database), "--instances", "small_4x4#2"]) == 1
    out = capsys.readouterr().out
    assert states(out, "small_4x4#2", "no answer recovered", "branches", "0 of 1 instances")
    assert not stored_answers(database)


def test_an_unknown_instance_is_refused_naming_the_campaigns(campaign) -> None:
    _, database, _ = campaign
    with pytest.raises(PuzzleLabError, match=facts("'lambda'", "small_4x4#1")):
        recover_answers(database, ["lambda"])


def test_a_store_rebuilt_from_runs_csv_draws_the_campaigns_answers(campaign,
                                                                   tmp_path) -> None:
    spec, database, _ = campaign
    csv_path = tmp_path / "runs.csv"
    from experiments.campaign.store import runs_as_csv

    csv_path.write_text(runs_as_csv(read_campaign(database).runs), encoding="utf-8")
    rebuilt = tmp_path / "rebuilt.sqlite"
    store_from_csv(csv_path, spec, rebuilt)
    unsolved, _ = draw_puzzles(read_campaign(rebuilt), (), tmp_path / "before", "x")
    assert not any("campaign's answer" in p.caption for p in unsolved)
    assert main([str(rebuilt)]) == 0
    stored = read_campaign(rebuilt)
    assert all(run.solution is not None for run in stored.runs
               if run.identity.position in (0, 2))  # each instance's first run: on cp
    assert all(run.verdict is Verdict.CORRECT for run in stored.runs)
    drawn, notes = draw_puzzles(stored, (), tmp_path / "after", "x")
    assert not notes and len(drawn) == 2
    assert all(states(p.caption, "the campaign's answer", "classic on cp") for p in drawn)
