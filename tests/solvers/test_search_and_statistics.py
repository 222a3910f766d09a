"""Heuristic names, statistics that mean what they say, time limits and unsupported cases."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import pytest

from puzzlelab.errors import UnknownName, UnsupportedCombination
from puzzles import PUZZLES
from solvers import Heuristic, Model, Status, all_different, get_backend, linear, solve
from solvers.backend_contract import Backend, LoweredModel
from solvers.capabilities import Capabilities
from solvers.constraints import AllDifferent
from solvers.heuristics import plan_search
from solvers.limits import Deadline
from solvers.lowering import lower
from tests.paths import NONOGRAM_DATA
from tests.solvers.tiny_models import TINY_MODELS
from viewpoints import get_viewpoint

BACKEND_NAMES = ["cp", "cpsat", "python-constraint"]


def pigeonhole(pigeons: int) -> Model:
    """``pigeons`` pigeons in one hole fewer, with pairwise disequalities: hard to refute."""
    model = Model(f"pigeonhole-{pigeons}")
    items = [model.int_var(0, pigeons - 2, f"p{i}") for i in range(pigeons)]
    for i, first in enumerate(items):
        for second in items[i + 1:]:
            model.add(linear([(1, first), (-1, second)], "!=", 0))
    return model


def test_heuristic_names_parse() -> None:
    assert Heuristic.parse("first-fail") == Heuristic("first-fail", "min")
    assert str(Heuristic.parse("random/max")) == "random/max"
    assert Heuristic.parse("auto").is_auto


def test_unknown_orders_list_the_valid_ones() -> None:
    model = pigeonhole(3)
    with pytest.raises(UnknownName, match="first-fail"):
        plan_search(model, "smallest/min")
    with pytest.raises(UnknownName, match="max"):
        plan_search(model, "input/middle")
    with pytest.raises(UnknownName, match="unknown value order ''"):
        plan_search(model, "first-fail/")
    with pytest.raises(UnknownName, match="unknown heuristic 'auto/max'"):
        plan_search(model, "auto/max")


def test_dom_deg_breaks_ties_by_degree() -> None:
    model = Model()
    lonely, busy, middle = (model.int_var(0, 3, n) for n in ("lonely", "busy", "middle"))
    model.add(all_different([busy, middle]))
    model.add(all_different([busy, lonely, middle]))
    model.add(all_different([busy]))
    plan = plan_search(model, "dom-deg/min")
    assert [v.name for v in plan.variables] == ["busy", "middle", "lonely"]
    assert plan.selection == "smallest-domain"


def test_random_orders_follow_the_seed() -> None:
    model = Model()
    for i in range(12):
        model.int_var(0, 5, f"x{i}")
    first, again = plan_search(model, "random/random", 7), plan_search(model, "random/random", 7)
    other = plan_search(model, "random/random", 8)
    assert first.variables == again.variables and first.value_rank == again.value_rank
    assert first.variables != other.variables


def test_viewpoint_orders_are_heuristics() -> None:
    """x != y: the first solution shows which variable was chosen first, and how."""
    model = Model()
    x, y = model.int_var(0, 2, "x"), model.int_var(0, 2, "y")
    model.add(all_different([x, y]))
    model.add_variable_order("y-first", [y, x])
    model.add_value_order("middle-first", {x: [1, 0, 2], y: [1, 2, 0]})
    for backend in ("cp", "python-constraint"):
        # y takes its first value, 1; x then its first value left, 0 (x first: x 1, y 2)
        assert solve(model, backend, "y-first/middle-first").assignment == {x: 0, y: 1}
        assert solve(model, backend, "input/middle-first").assignment == {x: 1, y: 2}
    with pytest.raises(UnsupportedCombination, match="value ranking"):
        solve(model, "cpsat", "y-first/middle-first")
    assert solve(model, "cpsat", "y-first/max").assignment == {x: 1, y: 2}
    assert solve(model, "cpsat", "input/max").assignment == {x: 2, y: 1}


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_deterministic_backends_repeat_their_counts(backend: str) -> None:
    runs = [solve(pigeonhole(6), backend, "first-fail/min") for _ in range(2)]
    assert runs[0].status is Status.UNSATISFIABLE and runs[0].complete
    first, second = (run.statistics for run in runs)
    assert (first.backtracks, first.branches, first.conflicts) == (
        second.backtracks, second.branches, second.conflicts)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_a_solve_lowers_the_model_once_and_counts_it_in_build_time(
        backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lowering that checks the model before search is the one the backend posts."""
    lowerings: list[LoweredModel] = []

    def counted_lower(model: Model, chosen: Backend) -> LoweredModel:
        lowered = lower(model, chosen)
        lowered.lowering_s = 100.0  # stands out in build_s if and only if it is counted
        lowerings.append(lowered)
        return lowered

    monkeypatch.setattr("solvers.solving.lower", counted_lower)
    result = solve(pigeonhole(3), backend, "input/min")
    assert result.status is Status.UNSATISFIABLE
    assert len(lowerings) == 1
    assert result.statistics.build_s is not None
    assert 100.0 <= result.statistics.build_s < 110.0


def test_building_inside_the_search_moves_to_build_time(monkeypatch) -> None:
    """What a backend says was building (here more than its whole search) leaves solve_s
    for build_s, never more than the search took."""
    from solvers.backends.cp import ClassicCpBackend

    monkeypatch.setattr(ClassicCpBackend, "building_s", lambda self, compiled: 1000.0)
    plus = PUZZLES.get("nonogram").load(NONOGRAM_DATA / "small" / "plus_3x3.non")
    model = get_viewpoint("nonogram", "regular").build(plus).model
    figures = solve(model, "cp", "input/min").statistics
    assert figures.solve_s == 0.0
    assert figures.build_s is not None and 0.0 < figures.build_s < 1000.0


def test_missing_figures_are_none_not_zero() -> None:
    cp = solve(pigeonhole(5), "cp", "input/min").statistics
    assert cp.backtracks and cp.branches and cp.conflicts is None and cp.propagations is None
    sat = solve(pigeonhole(5), "cpsat", "input/min").statistics
    assert sat.backtracks is None and sat.branches is not None and sat.conflicts is not None
    assert isinstance(sat.restarts, int) and cp.restarts == 0  # cp: one search
    baseline = solve(pigeonhole(5), "python-constraint", "input/min").statistics
    assert baseline.backtracks and baseline.propagations and baseline.conflicts is None
    assert baseline.restarts is None


def permutations(size: int) -> Model:
    model = Model(f"permutations-{size}")
    model.add(all_different([model.int_var(0, size - 1) for _ in range(size)]))
    return model


@pytest.mark.parametrize(("backend", "problem"), [
    *((backend, "count-permutations") for backend in BACKEND_NAMES),
    ("cp", "refute-pigeonhole"), ("python-constraint", "refute-pigeonhole"),
])
def test_time_limit_ends_in_timeout_near_the_limit(backend: str, problem: str) -> None:
    limit = 0.5
    if problem == "count-permutations":  # 12! solutions: no backend counts them in time
        model, max_solutions = permutations(12), None
    else:
        model, max_solutions = pigeonhole(13), 1
    started = time.perf_counter()
    result = solve(model, backend, "input/min", time_limit=limit, max_solutions=max_solutions)
    elapsed = time.perf_counter() - started
    assert result.status is Status.TIMEOUT
    assert not result.complete
    assert limit * 0.9 <= result.statistics.solve_s <= limit + 1.5
    assert elapsed <= limit + 3.0
    assert result.statistics.branches


def test_strong_all_different_is_refused_by_python_constraint() -> None:
    model = Model()
    model.add(all_different([model.int_var(0, 1), model.int_var(0, 1)], "strong"))
    with pytest.raises(UnsupportedCombination, match="weak"):
        solve(model, "python-constraint", "input/min")


def test_auto_is_refused_by_python_constraint() -> None:
    with pytest.raises(UnsupportedCombination, match="auto"):
        solve(pigeonhole(3), "python-constraint", "auto")


def test_a_wrong_answer_from_a_backend_becomes_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class WrongBackend(Backend[None]):
        name = "wrong"
        capabilities = Capabilities("none", "answers x = y, against all_different",
                                    native=frozenset({AllDifferent}),
                                    statistics=frozenset({"branches"}))

        def compile(self, model: Model, lowered: object, request: object,
                    limits: object) -> None:
            return None

        def search(self, compiled: None) -> Iterator[tuple[int, ...]]:
            yield (0, 0)

        def counters(self, compiled: None) -> dict[str, int | None]:
            return {"branches": 1}

    monkeypatch.setattr("solvers.solving.get_backend", lambda name: WrongBackend())
    model = Model()
    model.add(all_different([model.int_var(0, 1), model.int_var(0, 1)]))
    result = solve(model, "wrong", "input/min")
    assert result.status is Status.ERROR and result.assignment is None
    assert "all-different" in result.message
    assert result.statistics.branches == 1 and result.statistics.solve_s is not None  # kept


def test_memory_running_out_in_a_backend_measures_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Times the backend never got to measure are None, not 0.0 (a run that took no time)."""
    def out_of_memory(self: Backend, model: Model, lowered: object, request: object,
                      limits: object) -> None:
        raise MemoryError

    monkeypatch.setattr(type(get_backend("cp")), "compile", out_of_memory)
    result = solve(pigeonhole(3), "cp", "input/min")
    assert result.status is Status.MEMORY_OUT and result.assignment is None
    statistics = result.statistics
    assert (statistics.build_s, statistics.solve_s, statistics.branches) == (None, None, None)
    assert statistics.solutions == 0


@pytest.mark.parametrize("backend", ["cp", "cpsat", "python-constraint"])
def test_memory_running_out_while_posting_the_model_is_a_memory_out_run(
        monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """Lowering a model too large for the memory left gives a run record, not a raise."""
    def out_of_memory(model: Model, chosen: Backend) -> object:
        raise MemoryError

    monkeypatch.setattr("solvers.solving.lower", out_of_memory)
    result = solve(pigeonhole(3), backend, "input/min+symmetric")
    assert result.status is Status.MEMORY_OUT and result.assignment is None
    assert "posting the model" in result.message
    assert (result.backend, result.heuristic) == (backend, "input/min+symmetric")
    assert result.statistics.build_s is None and result.statistics.solutions == 0


def test_a_cp_timeout_adds_no_backtracks_of_its_own() -> None:
    """OR-tools counts a failure for each choice point it unwinds after a limit; a search
    with no failed node must still report 0 backtracks when it times out."""
    model = Model("free")
    for i in range(20):
        model.bool_var(f"x{i}")
    result = solve(model, "cp", "input/min", time_limit=0.2, max_solutions=0)
    assert result.status is Status.TIMEOUT and result.statistics.backtracks == 0
    assert result.statistics.branches >= 2 * result.statistics.solutions - 20


def test_a_deadline_counts_from_its_restart() -> None:
    deadline = Deadline(0.01)
    time.sleep(0.02)
    assert deadline.passed()
    deadline.restart()
    assert not deadline.passed() and not deadline.crossed


def test_cp_refuses_probing_beside_a_python_propagator() -> None:
    """Probing on ``cp`` next to ``connected`` would crash the interpreter: refused up front."""
    with pytest.raises(UnsupportedCombination, match="connected"):
        solve(TINY_MODELS["connected"](), "cp", "input/min+probe-all", max_solutions=0)
    plain = solve(TINY_MODELS["connected"](), "cp", "input/min", max_solutions=0)
    assert plain.complete and plain.statistics.solutions > 1


@pytest.mark.parametrize("heuristic", ["input/min", pytest.param(
    "first-fail/min+probe-all", marks=pytest.mark.slow)])  # probing: the same limit, 5 s more
def test_a_cp_search_with_a_time_limit_leaves_no_solver_alive(heuristic: str) -> None:
    """A worker runs thousands of searches: each one's solver must be freed after it, or
    the worker grows by megabytes a run and its peak memory stops being the run's own."""
    def solvers_alive() -> int:
        gc.collect()
        return sum(type(item).__name__ == "Solver" and "constraint_solver" in
                   type(item).__module__ for item in gc.get_objects())

    before = solvers_alive()
    for _ in range(3):
        assert solve(pigeonhole(4), "cp", heuristic, time_limit=10).complete
    assert solvers_alive() == before


@pytest.mark.parametrize("backend", ["cp", "cpsat", "python-constraint"])
def test_each_search_says_when_it_starts_and_with_which_limit(backend: str) -> None:
    """The runner's kill timer starts there: building the model is not search time."""
    heard: list[float | None] = []
    result = solve(pigeonhole(3), backend, "input/min", time_limit=7.5,
                   on_search_start=heard.append)
    assert result.complete and heard == [7.5]
    model = Model("swap")
    pair = [model.int_var(0, 1, f"x{i}") for i in range(2)]
    model.add(all_different(pair))
    model.add_symmetry("swap", {pair[0]: pair[1], pair[1]: pair[0]})
    heard.clear()
    result = solve(model, backend, "input/min+symmetric", time_limit=7.5,
                   on_search_start=heard.append)  # no symmetric solution: two searches
    assert result.status is Status.SOLVED and len(heard) == 2
    assert heard[0] == 7.5 and heard[1] is not None and 7.0 < heard[1] < 7.5
