"""The lightest hitting set, which every cheapest step's premises rest on, against
enumerating every subset."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from experiments.reasoning.explain_sets import smallest_hitting_set


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[frozenset[int]], list[int], int]:
    size = draw(st.integers(1, 8))
    weights = draw(st.lists(st.integers(1, 4), min_size=size, max_size=size))
    sets = draw(st.lists(st.frozensets(st.integers(0, size - 1), min_size=1), max_size=7))
    bound = draw(st.integers(0, sum(weights) + 1))
    return sets, weights, bound


@settings(max_examples=300, deadline=None)
@given(problems())
def test_the_hitting_set_is_a_lightest_one_below_the_bound(
        problem: tuple[list[frozenset[int]], list[int], int]) -> None:
    sets, weights, bound = problem
    lightest = min((sum(weights[i] for i in chosen)
                    for k in range(len(weights) + 1)
                    for chosen in combinations(range(len(weights)), k)
                    if all(s & set(chosen) for s in sets)), default=None)
    found = smallest_hitting_set(sets, weights, bound)
    if lightest is None or lightest >= bound:
        assert found is None
    else:
        assert found is not None and all(s & set(found) for s in sets)
        assert sum(weights[i] for i in found) == lightest
