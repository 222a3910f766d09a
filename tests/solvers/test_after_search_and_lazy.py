"""Constraints checked after search, and lazy constraints: on every backend, the
solutions kept are the connected ones, counted exactly (against brute force), with the
rejected solutions, rounds and cuts counted as declared."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from experiments.campaign.store import run_columns
from puzzlelab.errors import ModelError, UnsupportedCombination
from solvers import (
    BACKENDS,
    IntVar,
    Model,
    Status,
    all_different,
    connected,
    linear,
    load_backends,
    solve,
)
from solvers.capabilities import AFTER_SEARCH, AFTER_SEARCH_STATISTICS
from solvers.constraints import Connected, Linear
from tests.expected_refusals import expected_refusal

load_backends()
NODES = "abcd"
WAYS = ("after-search", "lazy")
STATISTIC_NAMES = sorted(AFTER_SEARCH_STATISTICS)


def graph_model(way: str | None, most: int = 1) -> tuple[Model, Connected]:
    """K4 with a weight ``0..most`` on each edge and every node's degree 1 or 2: among
    its local solutions are the three perfect matchings, disconnected, and the first
    solution in input order (ad and bc) is one of them."""
    model = Model(f"k4-{way}-{most}")
    edges = [(u, v, model.int_var(0, most, f"{u}{v}"))
             for u, v in itertools.combinations(NODES, 2)]
    for node in NODES:
        touching = [(1, weight) for u, v, weight in edges if node in (u, v)]
        model.add(linear(touching, ">=", 1))
        model.add(linear(touching, "<=", 2))
    graph = connected(NODES, edges)
    if way == "after-search":
        model.add_after_search(graph)
    elif way == "lazy":
        model.add_lazy(graph)
    return model, graph


def brute_force(model: Model, graph: Connected) -> tuple[int, int]:
    """(local solutions, connected ones) over every assignment."""
    local = connected_count = 0
    for values in itertools.product(*(v.domain for v in model.variables)):
        assignment = dict(zip(model.variables, values))
        if model.posted_satisfied_by(assignment):
            local += 1
            connected_count += graph.holds(assignment)
    return local, connected_count


def runnable(backend: str, model: Model) -> bool:
    """Whether ``backend`` runs ``model``; if not, check that it refuses it as declared."""
    declared = BACKENDS.get(backend)
    if declared.unavailable():
        pytest.skip(f"backend {backend!r} is unavailable here: {declared.unavailable()}")
    refusal = expected_refusal(declared.capabilities, model, "input/min")
    if refusal:
        with pytest.raises(UnsupportedCombination, match=re.escape(f"lacks {refusal}")):
            solve(model, backend, "input/min")
        return False
    return True


@pytest.mark.parametrize("most", [1, 2])
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("backend", BACKENDS.names())
def test_every_connected_solution_is_counted_once_and_no_other(backend: str, way: str,
                                                                most: int) -> None:
    model, graph = graph_model(way, most)
    if not runnable(backend, model):
        return
    local, expected = brute_force(model, graph)
    assert 0 < expected < local
    constraints, lazy = list(model.constraints), list(model.lazy)
    result = solve(model, backend, "input/min", max_solutions=0, time_limit=60)
    assert result.status is Status.SOLVED and result.complete, result.message
    assert result.statistics.solutions == expected
    assert result.assignment is not None and model.satisfied_by(result.assignment)
    figures = result.statistics
    if way == "after-search":
        assert figures.rejected == local - expected
        assert figures.lazy_rounds is None and figures.lazy_cuts is None
    else:
        assert figures.rejected is None
        assert 0 < figures.lazy_rounds <= figures.lazy_cuts
        assert model.constraints == constraints and model.lazy == lazy  # no cut added here


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("backend", BACKENDS.names())
def test_one_solution_is_a_connected_one_though_the_first_found_is_not(backend: str,
                                                                       way: str) -> None:
    """A backend told to stop at one solution keeps going past the rejected ones."""
    model, graph = graph_model(way)
    if not runnable(backend, model):
        return
    result = solve(model, backend, "input/min", time_limit=60)
    assert result.status is Status.SOLVED, result.message
    assert result.statistics.solutions == 1
    assert result.assignment is not None and graph.holds(result.assignment)
    assert model.posted_satisfied_by(result.assignment)
    if way == "after-search":
        assert result.statistics.rejected >= 1
    else:
        assert result.statistics.lazy_rounds >= 1


@pytest.mark.parametrize("backend", BACKENDS.names())
def test_a_group_no_edge_leaves_makes_the_lazy_model_unsatisfiable(backend: str) -> None:
    """Node c has no edge: its cut is an empty sum >= 1, which no backend satisfies
    (the group {a, b} makes the same cut, added once)."""
    model = Model("island")
    ab = model.bool_var("ab")
    model.add(linear([(1, ab)], "==", 1))
    model.add_lazy(connected("abc", [("a", "b", ab)]))
    if not runnable(backend, model):
        return
    result = solve(model, backend, "input/min", max_solutions=0, time_limit=60)
    assert result.status is Status.UNSATISFIABLE and result.complete, result.message
    assert (result.statistics.lazy_rounds, result.statistics.lazy_cuts) == (1, 1)
    assert result.statistics.solutions == 0


def test_the_portfolio_refuses_constraints_it_cannot_check() -> None:
    for way in WAYS:
        model, _ = graph_model(way)
        with pytest.raises(UnsupportedCombination, match=re.escape(f"lacks {AFTER_SEARCH}")):
            solve(model, "auto", "auto")


@pytest.mark.parametrize("backend", BACKENDS.names())
def test_a_model_without_such_constraints_reports_none(backend: str) -> None:
    model, _ = graph_model(None)
    if not runnable(backend, model):
        return
    figures = solve(model, backend, "input/min", max_solutions=0).statistics
    assert [getattr(figures, name) for name in STATISTIC_NAMES] == [None] * len(STATISTIC_NAMES)


def test_the_declared_after_search_figures_are_those_such_constraints_add() -> None:
    """The reference tables say only backends taking after-search constraints report
    these figures: they must be exactly the figures such a model adds to a plain one's."""

    def given(way: str | None) -> set[str]:
        figures = solve(graph_model(way)[0], "cp", "input/min", max_solutions=0).statistics
        return {name for name, value in figures.as_dict().items() if value is not None}

    assert (given("after-search") | given("lazy")) - given(None) == AFTER_SEARCH_STATISTICS


def test_lazy_figures_are_the_sums_of_its_searches() -> None:
    """On cp (deterministic) the lazy run does what adding the cuts by hand does."""
    model, _ = graph_model("lazy")
    lazy = solve(model, "cp", "input/min")
    plain, graph = graph_model(None)
    by_hand, rounds, cuts, backtracks, branches = plain, 0, 0, 0, 0
    while True:
        step = solve(by_hand, "cp", "input/min")
        assert step.assignment is not None
        backtracks += step.statistics.backtracks
        branches += step.statistics.branches
        found = graph.cuts(step.assignment)
        if not found:
            break
        rounds, cuts = rounds + 1, cuts + len(found)
        by_hand = by_hand.with_cuts(found)
    assert len(plain.constraints) == 8  # with_cuts copies
    figures = lazy.statistics
    assert (figures.lazy_rounds, figures.lazy_cuts) == (rounds, cuts) == (1, 1)
    assert (figures.backtracks, figures.branches) == (backtracks, branches)
    assert figures.first_branches == branches
    assert lazy.assignment is not None
    assert list(lazy.assignment.values()) == list(step.assignment.values())


@pytest.mark.parametrize("way", WAYS)
def test_symmetric_search_keeps_the_checks(way: str) -> None:
    """+symmetric searches the restricted model, then the whole one: both checked."""
    model, graph = graph_model(way)
    variables = {v.name: v for v in model.variables}
    swap = {"ab": "cd", "cd": "ab", "ac": "bd", "bd": "ac"}  # a<->d and b<->c, say
    model.add_symmetry("swap", {variables[k]: variables[v] for k, v in swap.items()})
    result = solve(model, "cp", "input/min+symmetric")
    assert result.status is Status.SOLVED and result.assignment is not None
    assert graph.holds(result.assignment)
    name = "rejected" if way == "after-search" else "lazy_rounds"
    assert getattr(result.statistics, name) >= 1


def test_connected_cuts_name_the_edges_leaving_each_group() -> None:
    model, graph = graph_model(None)
    weights = {v.name: v for v in model.variables}
    matching = {v: int(v.name in ("ad", "bc")) for v in model.variables}
    cuts = graph.cuts(matching)
    assert all(isinstance(cut, Linear) for cut in cuts)
    assert [sorted(v.name for v in cut.variables()) for cut in cuts] == [
        ["ab", "ac", "bd", "cd"]]  # {a, d} and {b, c}: the same four edges leave both
    assert all(isinstance(cut, Linear) and cut.comparison == ">=" and cut.rhs == 1
               for cut in cuts)
    assert not any(cut.holds(matching) for cut in cuts)
    assert graph.cuts({v: 1 for v in weights.values()}) == []


def test_only_a_constraint_with_cuts_can_be_lazy_and_only_on_the_model() -> None:
    model = Model("m")
    cells = [model.int_var(1, 2, f"x{i}") for i in range(2)]
    with pytest.raises(ModelError, match="cannot be lazy"):
        model.add_lazy(all_different(cells))  # type: ignore[arg-type]
    stranger = IntVar(5, "stranger", (0, 1))
    with pytest.raises(ModelError, match="not of model"):
        model.add_after_search(linear([(1, stranger)], "==", 1))


def test_the_figures_reach_the_record_json_and_store(tmp_path: Path) -> None:
    model, _ = graph_model("after-search")
    result = solve(model, "cp", "input/min", max_solutions=0)
    stats = json.loads(json.dumps(result.statistics.as_dict()))  # as --json prints them
    assert stats["rejected"] == result.statistics.rejected > 0
    assert {"lazy_rounds": None, "lazy_cuts": None}.items() <= stats.items()
    columns = run_columns()
    assert all(columns[name].startswith("INTEGER") for name in STATISTIC_NAMES)


class SlowConnected(Connected):
    """``connected`` that takes a while to check: a search spends its time in checks."""

    def holds(self, assignment: Mapping[IntVar, int]) -> bool:
        time.sleep(0.03)
        return super().holds(assignment)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("backend", ["cp", "cpsat"])
def test_the_time_limit_covers_every_search_and_check_of_the_run(backend: str,
                                                                  way: str) -> None:
    model, graph = graph_model(None)
    slow = SlowConnected(graph.nodes, graph.edges)
    model.add_after_search(slow) if way == "after-search" else model.add_lazy(slow)
    result = solve(model, backend, "input/min", max_solutions=0, time_limit=0.1)
    assert result.status is Status.TIMEOUT and not result.complete
    assert result.statistics.solve_s < 0.1 + 0.08  # two checks at most past the deadline


def test_each_lazy_round_after_the_first_is_hinted_where_the_last_one_stopped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint (what CP-SAT starts from) is the disconnected solution the round before
    stopped on; the first round has none, and the answer is the one found without."""
    model, graph = graph_model("lazy")
    backend = BACKENDS.get("cp")
    hints: list[tuple[int, ...] | None] = []
    compile_ = backend.compile

    def recording(self, model_, lowered, request, limits):  # type: ignore[no-untyped-def]
        hints.append(request.hint)
        return compile_(self, model_, lowered, request, limits)

    monkeypatch.setattr(backend, "compile", recording)
    result = solve(model, "cp", "input/min")
    assert len(hints) == result.statistics.lazy_rounds + 1 >= 2 and hints[0] is None
    for hint in hints[1:]:
        assert hint is not None
        assert not graph.holds(dict(zip(model.variables, hint)))
    monkeypatch.undo()
    assert solve(model, "cp", "input/min").assignment == result.assignment


@pytest.mark.parametrize("way", WAYS)
def test_what_a_check_during_search_needs_is_loaded_as_build_time(
        way: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first import a check needs (a library's, 0.15 s, say) inside the search would
    be charged to the first run of each worker as search time: it is loaded while
    building instead."""
    loaded: list[type[Connected]] = []

    def slow_load(cls: type[Connected]) -> None:
        time.sleep(0.3)
        loaded.append(cls)

    monkeypatch.setattr(Connected, "load", classmethod(slow_load))
    model, _ = graph_model(way)
    result = solve(model, "cp", "input/min", max_solutions=0)
    assert result.status is Status.SOLVED and len(loaded) == 1
    assert result.statistics.build_s >= 0.3 > result.statistics.solve_s
