"""Each decomposition is exact: tested against the constraint's meaning on tiny domains."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers import Model, connected, connected_by_flow, count, global_cardinality, inverse, regular
from solvers.backend_contract import LoweredModel
from solvers.constraints import Constraint
from solvers.decompositions import DECOMPOSITIONS, decompose


def _decomposition_holds(lowered: LoweredModel, parts: list[Constraint],
                         fixed: dict) -> bool:
    """Whether some values of the auxiliary variables satisfy every part, by brute force."""
    auxiliaries = lowered.variables[len(fixed):]
    for values in itertools.product(*(v.domain for v in auxiliaries)):
        assignment = {**fixed, **dict(zip(auxiliaries, values))}
        if all(part.holds(assignment) for part in parts):
            return True
    return False


def assert_exact(model: Model, constraint: Constraint) -> None:
    """For every assignment of the original variables, decomposition == meaning."""
    lowered = LoweredModel(list(model.variables))
    parts = decompose(constraint, lowered.new_var, "test")
    for values in itertools.product(*(v.domain for v in model.variables)):
        fixed = dict(zip(model.variables, values))
        assert _decomposition_holds(lowered, parts, fixed) == constraint.holds(fixed), fixed


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 3), st.integers(0, 2), st.booleans())
def test_count(size: int, value: int, variable_count: bool) -> None:
    model = Model()
    items = [model.int_var(0, 2) for _ in range(size)]
    occurrences = model.int_var(0, size) if variable_count else 1
    assert_exact(model, count(items, value, occurrences))


def test_global_cardinality() -> None:
    model = Model()
    items = [model.int_var(0, 2) for _ in range(3)]
    assert_exact(model, global_cardinality(items, {0: 1, 1: model.int_var(0, 2)}))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(0, 2)),
                max_size=6, unique_by=lambda t: t[:2]),
       st.lists(st.integers(0, 2), min_size=1, max_size=2), st.integers(1, 3))
def test_regular(transitions: list, accepting: list, length: int) -> None:
    model = Model()
    items = [model.int_var(0, 1) for _ in range(length)]
    assert_exact(model, regular(items, transitions, 0, accepting))


@pytest.mark.parametrize("size", [1, 2, 3])
def test_inverse(size: int) -> None:
    model = Model()
    forward = [model.int_var(0, size - 1) for _ in range(size)]
    backward = [model.int_var(0, size - 1) for _ in range(size)]
    assert_exact(model, inverse(forward, backward))


@pytest.mark.parametrize("edges", [
    [("a", "b")],
    [("a", "b"), ("b", "c")],
    [("a", "b"), ("b", "c"), ("a", "c")],
])
@pytest.mark.parametrize("build", [connected, connected_by_flow])
def test_connected_as_flow(edges: list[tuple[str, str]], build) -> None:
    model = Model()
    nodes = sorted({node for edge in edges for node in edge})
    weights = [model.int_var(0, 1) for _ in edges]
    assert_exact(model, build(nodes, [(u, v, w) for (u, v), w in zip(edges, weights)]))


def test_every_decomposition_is_tested_here() -> None:
    tested = {"Count", "GlobalCardinality", "Regular", "Inverse", "Connected",
              "ConnectedByFlow"}
    assert {kind.__name__ for kind in DECOMPOSITIONS} == tested
