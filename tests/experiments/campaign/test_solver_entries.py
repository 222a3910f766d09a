"""Solver entries with options and a label: one campaign compares a backend under two
of its own settings, the settings are each run's identity and store row, and a label
cannot come to stand for other settings under stored runs."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from experiments.analysis.tables import format_table
from experiments.campaign.grid import expand
from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.stored_campaign import read_campaign
from experiments.campaign.verdicts import Verdict
from puzzlelab.errors import SpecError
from solvers import BACKENDS
from tests.facts import facts

BASE = """
name = "settings"
puzzle = "sudoku"
instances = [{{ file = "{{data}}/small_4x4.txt", select = [1, 2] }}]
viewpoints = ["classic"]
solvers = {solvers}
heuristics = ["first-fail/min"]
time_limit = 10
"""
TWO_CPSATS = ('["cpsat", { name = "cpsat", options = { parameters = '
              '"cp_model_presolve:false" }, label = "cpsat-raw" }]')


def spec_of(write_spec: Callable[..., Path], solvers: str) -> Path:
    return write_spec(BASE.format(solvers=solvers))


def test_solver_entries_read_with_their_options_and_labels(write_spec) -> None:
    spec = load_spec(spec_of(write_spec, '["cp", { name = "minizinc", options = { solver = '
                                         '"gecode" } }, { name = "cpsat", options = { '
                                         'parameters = "num_workers:1" }, label = "cpsat-1" }]'))
    assert [(s.name, dict(s.options), s.label) for s in spec.solvers] == [
        ("cp", {}, "cp"), ("minizinc", {"solver": "gecode"}, "minizinc[solver=gecode]"),
        ("cpsat", {"parameters": "num_workers:1"}, "cpsat-1")]


@pytest.mark.parametrize(("solvers", "item", "said"), [
    ('["cp", { name = "cpsat", options = { workers = 2 } }]', "solvers[1]",
     ("no option 'workers'", "parameters")),
    ('["cp", { name = "cp", options = { solver = "x" } }]', "solvers[1]",
     ("no option 'solver'", "takes none")),
    ('["cp", "cp"]', "solvers[1]", ("label 'cp'", "twice")),
    ('["cp", { name = "cpsat", options = "fast" }]', "solvers[1]", ("'options'", "table")),
    ('[{ name = "cpsat", flags = 1 }]', "solvers[0]", ("unknown field 'flags'", "label")),
    ('["cp", { name = "gurobi" }]', "solvers[1]", ("gurobi", "cpsat")),
    ('[{ name = "cpsat", options = { parameters = ["a"] } }]', "solvers[0]",
     ("'parameters'", "string")),
])
def test_a_wrong_solver_entry_is_refused_on_its_item(write_spec, solvers: str, item: str,
                                                     said: tuple[str, ...]) -> None:
    with pytest.raises(SpecError, match=facts(f"key '{item}'", *said)):
        load_spec(spec_of(write_spec, solvers))


def test_a_backend_under_two_settings_is_two_column_groups(write_spec, tmp_path) -> None:
    spec = load_spec(spec_of(write_spec, TWO_CPSATS))
    # the label is in each run's key: the two settings' runs are kept apart
    assert {json.loads(task.identity.key)[3] for task in expand(spec).tasks} == {
        "cpsat", "cpsat-raw"}
    tally = run_campaign(spec, jobs=1, results_root=tmp_path, show_progress=False)
    assert tally.ran == 4
    runs = read_campaign(tmp_path / "settings" / "runs.sqlite").runs
    assert all(run.verdict is Verdict.CORRECT for run in runs)
    asked = {(r.identity.solver, r.identity.solver_name,
              json.dumps(dict(r.identity.solver_options))) for r in runs}
    assert asked == {("cpsat", "cpsat", "{}"),
                     ("cpsat-raw", "cpsat", '{"parameters": "cp_model_presolve:false"}')}
    assert len({run.identity.key for run in runs}) == 4
    table = format_table(runs, fmt="markdown")
    assert "cpsat-raw" in table and table.count("cpsat") >= 2


def test_a_solver_entrys_options_reach_its_backend(write_spec, tmp_path) -> None:
    """A parameter CP-SAT has no value for ends that cell's runs as errors naming it;
    the same backend without it solves: each cell's settings are its own."""
    spec = load_spec(spec_of(write_spec, '["cpsat", { name = "cpsat", options = { parameters '
                                         '= "search_branching:SIDEWAYS" }, label = "bad" }]'))
    run_campaign(spec, jobs=1, results_root=tmp_path, show_progress=False)
    runs = read_campaign(tmp_path / "settings" / "runs.sqlite").runs
    by_label = {label: {(r.status.value, "search_branching" in r.message) for r in runs
                        if r.identity.solver == label} for label in ("cpsat", "bad")}
    assert by_label == {"cpsat": {("solved", False)}, "bad": {("error", True)}}


def test_a_new_solver_entry_grows_the_campaign_and_a_changed_one_is_refused(
        write_spec, tmp_path) -> None:
    def campaign(solvers: str):  # type: ignore[no-untyped-def]
        return run_campaign(load_spec(spec_of(write_spec, solvers)), jobs=1,
                            results_root=tmp_path, show_progress=False)

    assert campaign('["cpsat"]').ran == 2
    assert campaign(TWO_CPSATS).ran == 2  # the new entry's cells only
    changed = TWO_CPSATS.replace("cp_model_presolve:false", "cp_model_presolve:true")
    # the item, its label, the options it stood for and stands for now, the ways out
    with pytest.raises(SpecError, match=facts("key 'solvers[1]'", "'cpsat-raw'",
                                              "cp_model_presolve:false", "cp_model_presolve:true",
                                              "--fresh")):
        campaign(changed)
    with pytest.raises(SpecError, match=facts("key 'solvers[0]'", "'cpsat'", "'cp'")):
        campaign('[{ name = "cp", label = "cpsat" }]')


def test_a_store_made_before_solver_labels_reads_its_solvers_as_themselves(
        write_spec, tmp_path) -> None:
    """Runs stored before the columns were kept: their solver is its own backend, with
    no options, and a spec naming it plainly grows the store."""
    first = run_campaign(load_spec(spec_of(write_spec, '["cpsat"]')), jobs=1,
                         results_root=tmp_path, show_progress=False)
    assert first.ran == 2
    database = tmp_path / "settings" / "runs.sqlite"
    with sqlite3.connect(database) as connection:
        for column in ("solver_name", "solver_options"):
            connection.execute(f"ALTER TABLE runs DROP COLUMN {column}")
    runs = read_campaign(database).runs
    assert {(r.identity.solver_name, len(r.identity.solver_options)) for r in runs} == {
        ("cpsat", 0)}
    grown = run_campaign(load_spec(spec_of(write_spec, TWO_CPSATS)), jobs=1,
                         results_root=tmp_path, show_progress=False)
    assert (grown.already_stored, grown.ran) == (2, 2)


@pytest.mark.skipif(BACKENDS.get("minizinc").unavailable() is not None,
                    reason="backend 'minizinc' is unavailable here")
def test_a_spec_chooses_minizincs_solver_without_the_environment(
        write_spec, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PUZZLELAB_MINIZINC_SOLVER", "no-such-solver")
    spec = load_spec(spec_of(write_spec, '[{ name = "minizinc", options = { solver = "gecode" '
                                         '}, label = "mzn-gecode" }]'))
    run_campaign(spec, jobs=1, results_root=tmp_path, show_progress=False)
    runs = read_campaign(tmp_path / "settings" / "runs.sqlite").runs
    assert [(r.identity.solver, r.verdict) for r in runs] == [("mzn-gecode", Verdict.CORRECT)] * 2
