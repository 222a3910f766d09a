"""A wrong "unsatisfiable" is marked wrong: against the file's solution when the run is
made, against another run's checked solution when both are stored (in either order),
in the store, in the tables, and in the outcome the runner counts."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from experiments.analysis.report_data import plot_cells
from experiments.analysis.tables import CampaignRuns, build_tables
from experiments.campaign.executors.worker import execute
from experiments.campaign.grid import RunTask, expand
from experiments.campaign.record import RunRecord
from experiments.campaign.spec import load_spec
from experiments.campaign.store import ResultsStore
from experiments.campaign.store.rows import to_row
from experiments.campaign.stored_campaign import read_campaign
from experiments.campaign.verdicts import (
    FALSE_UNSATISFIABLE,
    Verdict,
    summary_status,
    with_contradictions,
)
from solvers import BACKENDS, Model, load_backends
from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.capabilities import OWN_SEARCH, VALUE_RANKING, Capabilities
from solvers.limits import SearchLimits
from solvers.record import Status
from tests.experiments.records import session_of
from tests.facts import states
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


def stored(store: ResultsStore) -> dict[str, RunRecord]:
    return {run.identity.solver: run for run in store.runs()}


def test_unsatisfiable_where_the_file_gives_a_solution_is_wrong(tmp_path: Path,
                                                                broken_backend: None) -> None:
    [task] = tasks(tmp_path, SUDOKU_DATA / "small_4x4.txt", [ClaimsNoSolution.name])
    record = execute(task)
    assert (record.status, record.verdict) == (Status.ERROR, Verdict.WRONG)
    assert record.message == FALSE_UNSATISFIABLE
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        store.record_run(record)
        run = stored(store)[ClaimsNoSolution.name]
        assert (run.status, run.verdict) == (Status.ERROR, Verdict.WRONG)
        cells = dict(build_tables(store.runs())[0].rows)
    assert cells["small_4x4#1"] == ("WRONG", "WRONG")


@pytest.mark.parametrize("broken_first", [True, False])
def test_unsatisfiable_where_another_run_found_a_solution_is_wrong(
        tmp_path: Path, broken_backend: None, broken_first: bool) -> None:
    unsolved = tmp_path / "unsolved.txt"  # a puzzle whose file gives no solution
    unsolved.write_text("....13...24.....\n")
    cp, broken = tasks(tmp_path, unsolved, ["cp", ClaimsNoSolution.name])
    records = {task.identity.solver: execute(task) for task in (cp, broken)}
    assert records[broken.identity.solver].status is Status.UNSATISFIABLE  # nothing to judge it by
    assert records[broken.identity.solver].verdict is Verdict.UNCHECKED
    assert records["cp"].verdict is Verdict.CORRECT
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        order = (broken, cp) if broken_first else (cp, broken)
        results = [store.record_run(records[task.identity.solver]) for task in order]
        run = stored(store)[ClaimsNoSolution.name]
        assert (run.status, run.verdict) == (Status.ERROR, Verdict.WRONG)
        # the run whose checked solution contradicts the claim
        assert states(run.message, "classic on cp", "input/min", "repeat 0")
        assert stored(store)["cp"].verdict is Verdict.CORRECT
        [table] = build_tables(store.runs(), by="solver", metrics=["solutions"])
    # the second run stored makes the contradiction known, and says which run it marked
    assert [others for _, others in results] == [[], [broken.identity.key] if broken_first else []]
    # a run found wrong as it is stored comes back so, for the runner's counts
    assert (results[-1][0].verdict is Verdict.WRONG) == (not broken_first)
    assert dict(table.rows)["unsolved#1"] == ("1", "WRONG")


def test_a_claim_stored_before_is_contradicted_by_a_solution_stored_after_reopening(
        tmp_path: Path, broken_backend: None) -> None:
    """A campaign resumed: the claim was stored by an earlier session, which the store
    opened again must still know of when the solution comes."""
    unsolved = tmp_path / "unsolved.txt"
    unsolved.write_text("....13...24.....\n")
    cp, broken = tasks(tmp_path, unsolved, ["cp", ClaimsNoSolution.name])
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        store.record_run(execute(broken))
    with ResultsStore(tmp_path / "runs.sqlite") as store:
        _, others = store.record_run(execute(cp))
        run = stored(store)[ClaimsNoSolution.name]
    assert others == [broken.identity.key]
    assert (run.status, run.verdict) == (Status.ERROR, Verdict.WRONG)


def test_a_store_without_the_mark_still_shows_the_contradicted_run_wrong(
        tmp_path: Path, broken_backend: None) -> None:
    """Stores written before the cross-check: reading them applies it, the tables too."""
    unsolved = tmp_path / "unsolved.txt"
    unsolved.write_text("....13...24.....\n")
    cp, broken = tasks(tmp_path, unsolved, ["cp", ClaimsNoSolution.name])
    runs = [execute(task) for task in (cp, broken)]
    assert runs[1].status is Status.UNSATISFIABLE
    [table] = build_tables(runs, by="solver", metrics=["solutions"])
    assert dict(table.rows)["unsolved#1"] == ("1", "WRONG")
    database = tmp_path / "old" / "runs.sqlite"
    with ResultsStore(database) as store:  # rows as an older store left them: unmarked
        for run in runs:
            row = to_row(run)
            store.connection.execute(f"INSERT INTO runs ({', '.join(row)}) VALUES "
                                     f"({', '.join('?' for _ in row)})", list(row.values()))
        store.connection.commit()
        assert [run.verdict for run in store.runs()] == [Verdict.CORRECT, Verdict.UNCHECKED]
    read = read_campaign(database).runs
    assert [(r.status, r.verdict) for r in read] == [(Status.SOLVED, Verdict.CORRECT),
                                                      (Status.ERROR, Verdict.WRONG)]


def test_every_path_judges_a_run_the_same_way(tmp_path: Path, broken_backend: None) -> None:
    """The solve path, the store, the campaign read back, the tables and the report's
    plot cells all come to the same verdict, since one module decides for them all."""
    unsolved = tmp_path / "unsolved.txt"
    unsolved.write_text("....13...24.....\n")
    cp, broken = tasks(tmp_path, unsolved, ["cp", ClaimsNoSolution.name])
    runs = [execute(task) for task in (cp, broken)]
    expected = with_contradictions(runs)
    assert [summary_status(run) for run in expected] == ["solved", "wrong"]
    database = tmp_path / "campaign" / "runs.sqlite"
    with ResultsStore(database) as store:
        store.start_campaign(session_of("judged", planned=2))
        stored_back = [store.record_run(run)[0] for run in runs]  # the claim comes second
        in_store = store.runs()
    campaign = read_campaign(database)
    for path in (stored_back, in_store, campaign.runs):
        assert [(r.status, r.verdict, r.message) for r in path] == \
               [(r.status, r.verdict, r.message) for r in expected]
    cells = {cell.group: cell.mark for cell in plot_cells(CampaignRuns.of(campaign), "solver")}
    assert cells == {"cp": None, ClaimsNoSolution.name: "WRONG"}
    [table] = build_tables(runs, by="solver", metrics=["solutions"])
    assert dict(table.rows)["unsolved#1"] == ("1", "WRONG")
