"""The run record survives the store: record -> row -> record -> row, for every way a run
can end, and the figures, accounts and solution it carries come back as they went in."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from experiments.campaign.record import RunRecord
from experiments.campaign.store import ResultsStore, runs_as_csv
from experiments.campaign.store.rows import from_row, to_row
from experiments.campaign.verdicts import Verdict
from solvers import Statistics, Status
from solvers.record import ConfigurationRun, PortfolioAnswer, SymmetricSearch
from tests.experiments.records import record_of, task_of

SOLUTION = [[1, 2], [2, 1]]
PORTFOLIO = PortfolioAnswer("cpsat auto+symmetric", "first here, then in parallel processes", (
    ConfigurationRun("cpsat auto+symmetric", "auto+symmetric", "this process", 0.5, "solved",
                     Statistics(solve_s=0.1, branches=7, solutions=1), True, "", 0.12,
                     SymmetricSearch(("mirror",), "symmetric solutions")),
    ConfigurationRun("automata auto", "auto", "child process", 9.5, "stopped",
                     message="killed: another run answered first")))


def ended_every_way() -> dict[str, RunRecord]:
    """A record for every way a run ends, each with what such a run carries."""
    figures = {"solve_s": 0.25, "build_s": 0.01, "solve_cpu_s": 0.2, "backtracks": 12,
               "branches": 30, "solutions": 1, "peak_memory_mb": 80.5, "first_branches": 30}

    def made(number: int, status: str, **changes: object) -> RunRecord:
        task = task_of(f"p{number}", position=number, instance_position=number)
        base = record_of(task, status, **figures)  # type: ignore[arg-type]
        return replace(base, wall_s=0.4, cpu_s=0.3, worker="host:1",
                       finished_at="2026-11-26T12:00:00.000+00:00", **changes)  # type: ignore[arg-type]

    return {
        "solved": made(1, "solved", solution=SOLUTION, violations=(), matches_known=True,
                       complete=True, symmetric=SymmetricSearch(("mirror",), "whole model")),
        "unsatisfiable": made(2, "unsatisfiable", complete=True),
        "timeout": made(3, "timeout", message="search stopped at its time limit"),
        "memory-out": made(4, "memory-out", message="out of memory: the run needed more "
                                                    "than 2048 MB",
                           statistics=Statistics()),
        "killed": replace(made(5, "timeout", statistics=Statistics()), wall_s=11.5,
                          cpu_s=None, message="killed: still running 1.5 s after its 10 s "
                                              "time limit"),
        "error": made(6, "error", verdict=Verdict.WRONG, solution=SOLUTION,
                      violations=("row 1 holds 2 twice",), matches_known=False,
                      message="the puzzle checker rejected the solution: row 1 holds 2 twice"),
        "refused": made(7, "refused", statistics=Statistics(),
                        message="line-table: row 9 has 296,010 placements, more than "
                                "max_placements=100,000"),
        "portfolio": made(8, "solved", solution=SOLUTION, violations=(), portfolio=PORTFOLIO),
    }


@pytest.mark.parametrize("way", list(ended_every_way()))
def test_a_record_survives_the_store_unchanged(way: str, tmp_path: Path) -> None:
    record = ended_every_way()[way]
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        stored, others = store.record_run(record)
        [again] = store.runs()
    assert others == [] and stored == record
    assert again == record  # every field, the accounts and the solution included
    assert to_row(again) == to_row(record)
    assert from_row(json.loads(json.dumps(to_row(record)))) == record
    assert RunRecord.from_json(json.loads(json.dumps(record.to_json()))) == record


def test_every_status_is_a_way_a_run_ends_here() -> None:
    assert {record.status for record in ended_every_way().values()} == set(Status)


def test_a_stored_answer_reads_back_into_the_puzzles_solution() -> None:
    record = ended_every_way()["solved"]
    answer = record.answer()
    assert answer is not None and answer.grid == ((1, 2), (2, 1))
    assert ended_every_way()["timeout"].answer() is None


def test_runs_csv_has_a_column_per_store_column_but_the_solution(tmp_path: Path) -> None:
    records = list(ended_every_way().values())
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        for record in records:
            store.record_run(record)
        text = runs_as_csv(store.runs())
        columns = [row[1] for row in store.connection.execute("PRAGMA table_info(runs)")]
    header, *lines = text.splitlines()
    assert header.split(",") == [column for column in columns if column != "solution"]
    assert len(lines) == len(records)


def test_a_row_of_an_older_store_reads_with_what_it_has() -> None:
    """A store from before the after-search statistics and the typed accounts: missing
    columns read as None, and an ``extra`` holding the old free dictionary's entries
    becomes the typed accounts."""
    solved = ended_every_way()["solved"]
    row = to_row(solved)
    for column in ("rejected", "lazy_rounds", "lazy_cuts", "instance_name", "puzzle",
                   "max_solutions", "solver_name", "solver_options"):
        del row[column]
    row["extra"] = json.dumps({"symmetric": {"imposed": ["mirror"], "answered_by": "whole "
                                                                                   "model"}})
    record = from_row(row, defaults={"puzzle": "sudoku", "max_solutions": 0})
    assert record.statistics.rejected is None and record.statistics.backtracks == 12
    assert record.symmetric == SymmetricSearch(("mirror",), "whole model")
    # the columns a store made before the identity had them: its key and its campaign's
    assert record.identity.instance_name == solved.identity.instance_name == "p1"
    assert (record.identity.puzzle, record.identity.max_solutions) == ("sudoku", 0)
    # made before solver labels: the solver stood for its backend, with no options
    assert record.identity.solver_name == record.identity.solver == solved.identity.solver
    assert record.identity.solver_options == {}


def test_a_run_record_written_by_an_older_solve_json_reads_back() -> None:
    """An older ``solve --json`` named the statistics ``stats``, the checker's list
    ``check``, and gave the viewpoint's registry name as ``viewpoint``."""
    solved = ended_every_way()["solved"]
    older = {key: value for key, value in solved.to_json().items()
             if key not in ("statistics", "violations", "matches_known", "viewpoint_name",
                            "instance_name")}
    older.update(stats=solved.statistics.as_dict(), check=[], matches_known_solution=True)
    record = RunRecord.from_json(older)
    assert record.statistics == solved.statistics and record.violations == ()
    assert record.matches_known is True
    assert record.identity.viewpoint_name == record.identity.viewpoint == "classic"


def test_an_older_solve_json_of_minizinc_options_parts_viewpoint_and_backend_options() -> None:
    """An older ``--json`` kept ``-o solver=chuffed`` among the viewpoint's options: it
    reads back as the backend's own."""
    solved = ended_every_way()["solved"]
    older = {key: value for key, value in solved.to_json().items()
             if key not in ("solver_name", "solver_options")}
    older.update(solver="minizinc", options={"alldiff": "weak", "solver": "chuffed"})
    identity = RunRecord.from_json(older).identity
    assert identity.options == {"alldiff": "weak"}
    assert (identity.solver_name, identity.solver_options) == ("minizinc", {"solver": "chuffed"})
