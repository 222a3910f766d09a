"""Lazy rounds, fast: ``connected`` finds its groups without networkx (and agrees with
it); CP-SAT adds each round's cuts to the model it searched instead of building it
again, with the same answer and the same figures; a repaired run searches near its
cuts first; and CP-SAT takes its own parameters, from a run or from the model."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.errors import ModelError, OptionError
from solvers import BACKENDS, Model, Status, connected, linear, load_backends, solve
from solvers.backends import cpsat

load_backends()


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 7), st.data())
def test_connected_groups_and_cuts_agree_with_networkx(nodes: int, data: st.DataObject
                                                       ) -> None:
    model = Model("random graph")
    pairs = [pair for pair in itertools.combinations(range(nodes), 2)
             if data.draw(st.booleans())]
    edges = [(u, v, model.int_var(0, 2, f"{u}-{v}")) for u, v in pairs]
    graph = connected(tuple(range(nodes)), edges)
    assignment = {weight: data.draw(st.integers(0, 2)) for _, _, weight in edges}
    drawn = nx.Graph()
    drawn.add_nodes_from(range(nodes))
    drawn.add_edges_from((u, v) for u, v, weight in edges if assignment[weight])
    groups = list(nx.connected_components(drawn))
    assert graph.holds(assignment) == (len(groups) == 1)
    expected: dict[tuple[str, ...], None] = {}
    for group in groups if len(groups) > 1 else []:
        expected[tuple(w.name for u, v, w in edges if (u in group) != (v in group))] = None
    cuts = graph.cuts(assignment)
    assert [tuple(weight.name for weight in cut.variables()) for cut in cuts] == list(expected)
    assert not any(cut.holds(assignment) for cut in cuts)


def complete_graph(size: int) -> Model:
    """K_size with a 0/1 weight on each edge and every node's degree 1 or 2: its local
    solutions are the unions of paths and cycles covering the nodes, and the first ones
    (in input order) are disconnected, so a search goes through several rounds."""
    model = Model(f"k{size}")
    edges = [(u, v, model.int_var(0, 1, f"{u}{v}"))
             for u, v in itertools.combinations(range(size), 2)]
    for node in range(size):
        touching = [(1, weight) for u, v, weight in edges if node in (u, v)]
        model.add(linear(touching, ">=", 1))
        model.add(linear(touching, "<=", 2))
    model.add_lazy(connected(tuple(range(size)), edges))
    return model


def grid_graph(rows: int, columns: int) -> Model:
    """The grid graph's edges with a 0/1 weight each, every node's degree 1 or 2: as
    :func:`complete_graph`, but each edge shares constraints with few others, so the
    neighbourhood of a cut is a small part of the model."""
    model = Model(f"grid-{rows}x{columns}")
    nodes = [(r, c) for r in range(rows) for c in range(columns)]
    edges = [((r, c), (r + down, c + 1 - down), model.int_var(0, 1, f"{r}{c}{'rd'[down]}"))
             for r, c in nodes for down in (0, 1)
             if r + down < rows and c + 1 - down < columns]
    for node in nodes:
        touching = [(1, weight) for u, v, weight in edges if node in (u, v)]
        model.add(linear(touching, ">=", 1))
        model.add(linear(touching, "<=", 2))
    model.add_lazy(connected(tuple(nodes), edges))
    return model


def test_cpsat_adds_each_rounds_cuts_to_the_model_it_searched(
        monkeypatch: pytest.MonkeyPatch) -> None:
    backend = BACKENDS.get("cpsat")
    compiled: list[int] = []
    compile_ = backend.compile

    def counting(self, model, lowered, request, limits):  # type: ignore[no-untyped-def]
        compiled.append(len(lowered.constraints))
        return compile_(self, model, lowered, request, limits)

    monkeypatch.setattr(backend, "compile", counting)
    model = complete_graph(10)
    added = solve(model, "cpsat", "input/min")
    assert added.statistics.lazy_rounds is not None and added.statistics.lazy_rounds >= 2
    assert compiled == [len(model.constraints)]  # once, the cuts posted on it after
    monkeypatch.setattr(backend, "add_cuts", lambda *args: None)  # build each round again
    compiled.clear()
    again = solve(model, "cpsat", "input/min")
    assert len(compiled) == again.statistics.lazy_rounds + 1
    assert again.assignment == added.assignment
    figures = ("lazy_rounds", "lazy_cuts", "branches", "conflicts", "posted_constraints",
               "posted_variables", "model_constraints")
    assert ({name: getattr(added.statistics, name) for name in figures}
            == {name: getattr(again.statistics, name) for name in figures})
    assert added.statistics.posted_constraints == (len(model.constraints)
                                                   + added.statistics.lazy_cuts)


def searches_of(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Each CP-SAT search of the runs to come: how many variables it keeps, and whether
    it gave any solution (a list filled as they go)."""
    backend = BACKENDS.get("cpsat")
    search_ = backend.search
    searches: list[tuple[int, bool]] = []

    def recording(self, compiled):  # type: ignore[no-untyped-def]
        found = False
        try:
            for values in search_(self, compiled):
                found = True
                yield values
        finally:
            searches.append((len(compiled.kept), found))

    monkeypatch.setattr(backend, "search", recording)
    return searches


@pytest.mark.parametrize(("graph", "radius"), [("k10", 0), ("grid", 0), ("grid", 1)])
def test_a_repaired_run_searches_near_its_cuts_and_answers_as_the_model_says(
        graph: str, radius: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds after the first keep the variables far from the cuts (the whole model
    next when that finds nothing); the answer is connected, and every round's cuts
    count as in a plain lazy run."""
    searches = searches_of(monkeypatch)
    model = complete_graph(10) if graph == "k10" else grid_graph(4, 4)
    model.repair_lazy_rounds(radius)
    result = solve(model, "cpsat", "input/min")
    figures = result.statistics
    assert result.status is Status.SOLVED and result.assignment is not None
    assert model.satisfied_by(result.assignment)
    assert searches[0][0] == 0 and any(kept for kept, _ in searches[1:])
    for (kept, found), after in itertools.pairwise(searches):
        if kept and not found:  # nothing near the cuts: the whole model, same cuts
            assert after[0] == 0
    rounds_searched = sum(1 for kept, found in searches[:-1] if found)
    assert figures.lazy_rounds == rounds_searched
    assert figures.posted_constraints == len(model.constraints) + figures.lazy_cuts


def test_a_repaired_run_counts_as_a_plain_lazy_one() -> None:
    """Counting solutions needs the whole model each round: no round is repaired."""
    plain = solve(complete_graph(5), "cpsat", "input/min", max_solutions=None)
    model = complete_graph(5)
    model.repair_lazy_rounds(1)
    repaired = solve(model, "cpsat", "input/min", max_solutions=None)
    assert repaired.statistics.solutions == plain.statistics.solutions > 1
    assert repaired.statistics.lazy_rounds == plain.statistics.lazy_rounds


def test_a_repair_radius_counts_constraints() -> None:
    with pytest.raises(ModelError, match="0 or more"):
        Model("m").repair_lazy_rounds(-1)


def parameters_used(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The CP-SAT parameters of each search to come, as text."""
    backend = BACKENDS.get("cpsat")
    search_ = backend.search
    seen: list[str] = []

    def recording(self, compiled):  # type: ignore[no-untyped-def]
        seen.append(str(compiled.solver.parameters))
        yield from search_(self, compiled)

    monkeypatch.setattr(backend, "search", recording)
    return seen


def test_cpsat_takes_its_own_parameters_and_a_model_may_ask_for_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = parameters_used(monkeypatch)
    model = complete_graph(5)
    solve(model, "cpsat", "auto",
          options={"parameters": "linearization_level:0 search_branching:FIXED_SEARCH "
                                 "cp_model_presolve:false max_time_in_seconds:2.5"})
    assert all(part in seen[-1] for part in ("linearization_level: 0", "cp_model_presolve: false",
                                             "search_branching: FIXED_SEARCH",
                                             "max_time_in_seconds: 2.5"))
    model.suggest_options("cpsat", {"parameters": "linearization_level:0"})
    solve(model, "cpsat", "auto")
    assert "linearization_level: 0" in seen[-1]
    solve(model, "cpsat", "auto", options={"parameters": "linearization_level:2"})
    assert "linearization_level: 2" in seen[-1]  # the run's own options win
    solve(model, "cp", "auto")  # another backend is not asked


@pytest.mark.parametrize(("text", "message"), [
    ("linearisation_level:0", "no parameter 'linearisation_level'"),
    ("linearization_level:none", "no value of linearization_level"),
    ("cp_model_presolve:no", "no value of cp_model_presolve"),
    ("search_branching:SIDEWAYS", "no value of search_branching"),
    ("catch_sigint_signal:true", "leaves to the user"),
    ("num_workers", "not name:value"),
])
def test_cpsat_parameters_are_checked(text: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        solve(complete_graph(4), "cpsat", "auto", options={"parameters": text})


@pytest.mark.parametrize("budget", [cpsat.REPAIR_CONFLICTS, 0])
def test_a_repair_round_that_finds_nothing_is_searched_whole(
        budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bridge ``a`` joins the two nodes and ``b`` must equal it: the cut ``a >= 1``
    cannot hold while ``b`` (beyond radius 0) keeps its 0, so that round's search finds
    nothing (or gives up at its conflict budget) and the whole model is searched."""
    monkeypatch.setattr(cpsat, "REPAIR_CONFLICTS", budget)
    searches = searches_of(monkeypatch)
    model = Model("chain")
    a, b = model.int_var(0, 1, "a"), model.int_var(0, 1, "b")
    model.add(linear([(1, a), (-1, b)], "==", 0))
    model.add_lazy(connected(("p", "q"), (("p", "q", a),)))
    model.repair_lazy_rounds(0)
    result = solve(model, "cpsat", "input/min")
    assert searches == [(0, True), (1, False), (0, True)]
    assert result.assignment == {a: 1, b: 1}
    assert (result.statistics.lazy_rounds, result.statistics.lazy_cuts) == (1, 1)
