"""A wrong "unsatisfiable" is marked wrong: against the file's solution when the run is
made, against another run's checked solution when both are stored (in either order),
in the store, in the tables, and in the outcome the runner counts."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from experiments.analysis.tables import build_tables
from experiments.campaign.executors.worker import execute
from experiments.campaign.grid import RunTask, expand
from experiments.campaign.spec import load_spec
from experiments.campaign.store import ResultsStore
from solvers import BACKENDS, Model, load_backends
from solvers.backends.base import Backend, LoweredModel, SolveRequest
from solvers.capabilities import OWN_SEARCH, VALUE_RANKING, Capabilities
from solvers.limits import SearchLimits
from tests.paths import SUDOKU_DATA

load_backends()
CP = BACKENDS.get("cp")()


class ClaimsNoSolution(Backend[Any]):
    """Builds the model as cp does, then searches nothing: every puzzle "unsatisfiable"."""

    name = "claims-no-solution"
    capabilities = Capabilities(
        library="none: a deliberately broken test backend",
        summary="answers unsatisfiable to everything",
        native=CP.capabilities.native,
        value_choices=frozenset({"min", "max"}),
        reasons={OWN_SEARCH: "a broken test backend", VALUE_RANKING: "a broken test backend"})

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> Any:
        return CP.compile(model, lowered, request, limits)

    def search(self, compiled: Any) -> Generator[tuple[int, ...], None, None]:
        yield from ()

    def counters(self, compiled: Any) -> dict[str, int | None]:
        return {}


@pytest.fixture
def broken_backend() -> Iterator[None]:
    with BACKENDS.registered(ClaimsNoSolution.name, ClaimsNoSolution):
        yield


def tasks(tmp_path: Path, file: Path, solvers: list[str]) -> list[RunTask]:
    spec = tmp_path / "spec.toml"
    listed = ", ".join(f'"{solver}"' for solver in solvers)
    spec.write_text(f'name = "verdicts"\npuzzle = "sudoku"\n'
                    f'instances = [{{ file = "{file.as_posix()}", select = [1] }}]\n'
                    f'viewpoints = ["classic"]\nsolvers = [{listed}]\n'
                    f'heuristics = ["input/min"]\ntime_limit = 10\n')
    return list(expand(load_spec(spec)).tasks)


def stored(store: ResultsStore) -> dict[str, dict[str, Any]]:
    return {row["solver"]: row for row in store.runs()}


def test_unsatisfiable_where_the_file_gives_a_solution_is_wrong(tmp_path: Path,
                                                                broken_backend: None) -> None:
    [task] = tasks(tmp_path, SUDOKU_DATA / "small_4x4.txt", [ClaimsNoSolution.name])
    outcome = execute(task)
    assert (outcome["status"], outcome["verdict"]) == ("error", "wrong")
    assert "the instance file gives one" in outcome["message"]
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        store.record_run(task, outcome)
        row = stored(store)[ClaimsNoSolution.name]
        assert (row["status"], row["verdict"]) == ("error", "wrong")
        cells = dict(build_tables(store.runs())[0].rows)
    assert cells["small_4x4#1"] == ("WRONG", "WRONG")


@pytest.mark.parametrize("broken_first", [True, False])
def test_unsatisfiable_where_another_run_found_a_solution_is_wrong(
        tmp_path: Path, broken_backend: None, broken_first: bool) -> None:
    unsolved = tmp_path / "unsolved.txt"  # a puzzle whose file gives no solution
    unsolved.write_text("....13...24.....\n")
    cp, broken = tasks(tmp_path, unsolved, ["cp", ClaimsNoSolution.name])
    outcomes = {task.solver: execute(task) for task in (cp, broken)}
    assert outcomes[broken.solver]["status"] == "unsatisfiable"  # nothing to judge it by yet
    assert outcomes[broken.solver]["verdict"] == "unchecked"
    assert outcomes["cp"]["verdict"] == "correct"
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        order = (broken, cp) if broken_first else (cp, broken)
        marked = [store.record_run(task, outcomes[task.solver]) for task in order]
        row = stored(store)[ClaimsNoSolution.name]
        assert (row["status"], row["verdict"]) == ("error", "wrong")
        assert row["message"] == ("claims there is no solution, but classic on cp with "
                                  "input/min (repeat 0) found one the checker accepts")
        assert stored(store)["cp"]["verdict"] == "correct"
        [table] = build_tables(store.runs(), by="solver", metrics=["solutions"])
    # the second run stored makes the contradiction known, and says which run it marked
    assert marked == [[], [broken.key]]
    # a run found wrong as it is stored: its outcome says so too, for the runner's counts
    assert (outcomes[broken.solver]["status"] == "error") == (not broken_first)
    assert dict(table.rows)["unsolved#1"] == ("1", "WRONG")


def test_a_store_without_the_mark_still_shows_the_contradicted_run_wrong(
        tmp_path: Path, broken_backend: None) -> None:
    """Stores written before the cross-check: the tables apply it as they read them."""
    unsolved = tmp_path / "unsolved.txt"
    unsolved.write_text("....13...24.....\n")
    cp, broken = tasks(tmp_path, unsolved, ["cp", ClaimsNoSolution.name])
    rows = [{**execute(task), "instance": task.instance, "instance_file": task.instance_file,
             "instance_position": 0, "viewpoint": task.viewpoint, "solver": task.solver,
             "heuristic": task.heuristic, "repeat": 0, "time_limit": 10.0}
            for task in (cp, broken)]
    assert rows[1]["status"] == "unsatisfiable"
    [table] = build_tables(rows, by="solver", metrics=["solutions"])
    assert dict(table.rows)["unsolved#1"] == ("1", "WRONG")
