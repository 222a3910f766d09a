"""Lazy rounds, fast: ``connected`` finds its groups without networkx (and agrees with
it), and CP-SAT adds each round's cuts to the model it searched instead of building it
again, with the same answer and the same figures."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers import BACKENDS, Model, connected, linear, load_backends, solve

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
