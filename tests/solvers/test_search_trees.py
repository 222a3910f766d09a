"""Recorded search trees hold the run's own counts, on every backend that records them."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from puzzlelab.errors import OptionError, UnsupportedCombination
from solvers import BACKENDS, Heuristic, Model, linear, load_backends, solve
from solvers.capabilities import SEARCH_TREE_UNDER_OWN_SEARCH
from solvers.search_tree import NodeKind, SearchTree
from tests.expected_refusals import expected_refusal
from tests.solvers.test_search_and_statistics import pigeonhole
from tests.solvers.tiny_models import TINY_MODELS

load_backends()
RECORDERS = [name for name in BACKENDS if BACKENDS.get(name).capabilities.search_tree
             and BACKENDS.get(name).unavailable() is None]
HEURISTICS = ["first-fail/min", "input/max", "first-fail/min+dway", "input/min+probe",
              "first-fail/min+probe-all", "auto"]


def queens(size: int) -> Model:
    """``size`` queens, one per row, as pairwise disequalities: a tree of a few dozen nodes."""
    model = Model(f"queens-{size}")
    rows = [model.int_var(0, size - 1, f"q{i}") for i in range(size)]
    for i, first in enumerate(rows):
        for j in range(i + 1, size):
            for shift in (0, j - i, i - j):
                model.add(linear([(1, first), (-1, rows[j])], "!=", shift))
    return model


def booleans_with_search() -> Model:
    """Six 0/1 variables, exactly three set, no two neighbours set: the 0/1 backends search."""
    model = Model("spaced-ones")
    bits = [model.int_var(0, 1, f"b{i}") for i in range(6)]
    model.add(linear([(1, b) for b in bits], "==", 3))
    for first, second in itertools.pairwise(bits):
        model.add(linear([(1, first), (1, second)], "<=", 1))
    return model


MODELS = {"queens-6": lambda: queens(6), "pigeonhole-5": lambda: pigeonhole(5),
          "spaced-ones": booleans_with_search, **TINY_MODELS}


def _recorded(backend: str, model: str, heuristic: str, solutions: int | None):
    """The run with its tree; None, once checked, where the backend's declaration refuses
    the combination (the search, the model, or a tree of its own search)."""
    capabilities = BACKENDS.get(backend).capabilities
    refusal = expected_refusal(capabilities, MODELS[model](), heuristic)
    if refusal is None and Heuristic.parse(heuristic).is_auto \
            and not capabilities.search_tree_under_own_search:
        refusal = SEARCH_TREE_UNDER_OWN_SEARCH
    if refusal is not None:
        with pytest.raises(UnsupportedCombination, match=f"lacks {re.escape(refusal)}"):
            solve(MODELS[model](), backend, heuristic, max_solutions=solutions,
                  record_tree=True)
        return None
    return solve(MODELS[model](), backend, heuristic, max_solutions=solutions,
                 record_tree=True)


@pytest.mark.parametrize("solutions", [1, None], ids=["one", "all"])
@pytest.mark.parametrize("heuristic", HEURISTICS)
@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("backend", RECORDERS)
def test_a_recorded_tree_holds_the_runs_counts(backend: str, model: str, heuristic: str,
                                               solutions: int | None) -> None:
    result = _recorded(backend, model, heuristic, solutions)
    if result is None:  # refused as declared
        return
    tree = result.tree
    assert tree is not None and not tree.truncated
    counts = tree.counts()
    statistics = result.statistics
    # a root that fails before any branch is a failure leaf of the tree; ic and
    # python-constraint count backtracks as failed tries, so it is none of theirs
    untried = counts["branches"] == 0 and tree.kind(0) is NodeKind.FAILURE
    assert counts["failures"] == statistics.backtracks or (untried and
                                                           statistics.backtracks == 0)
    if statistics.branches is not None:
        assert counts["branches"] == statistics.branches
    assert counts["solutions"] == statistics.solutions
    if result.complete:
        assert counts["open"] == 0
    depth = tree.depths()
    assert all(depth[n] == depth[tree.parent(n)] + 1 for n in range(1, len(tree)))
    for leaf in tree.nodes_of(NodeKind.SOLUTION):  # a solution's path holds its decisions
        assert tree.label(leaf) != "" or leaf == 0


@pytest.mark.parametrize("backend", RECORDERS)
def test_a_tree_past_its_cap_says_it_is_truncated(backend: str) -> None:
    """On the first model the backend takes whose whole tree has more than 8 nodes: a cap
    of half its nodes truncates it, and the search still finds every solution."""
    capabilities = BACKENDS.get(backend).capabilities
    taken = [name for name, make in MODELS.items()
             if expected_refusal(capabilities, make(), "input/min") is None]
    fulls = {name: solve(MODELS[name](), backend, "input/min", max_solutions=0,
                         record_tree=True) for name in taken}
    name = next(name for name, full in fulls.items() if len(full.tree or ()) > 8)
    full = fulls[name]
    assert full.tree is not None
    cap = len(full.tree) // 2
    result = solve(MODELS[name](), backend, "input/min", max_solutions=0, record_tree=cap)
    assert result.tree is not None and result.tree.truncated and len(result.tree) == cap, name
    assert result.statistics.solutions == full.statistics.solutions  # the search goes on
    assert json.loads(json.dumps(result.tree.as_json()))["truncated"] is True


def test_a_tree_reads_back_from_its_json() -> None:
    tree = solve(queens(6), "cp", "first-fail/min", max_solutions=0,
                 record_tree=True).tree
    assert tree is not None
    again = SearchTree.from_json(json.loads(json.dumps(tree.as_json())))
    assert again.counts() == tree.counts()
    assert [again.label(n) for n in range(len(again))] == \
        [tree.label(n) for n in range(len(tree))]
    first = tree.as_json()["nodes"][1]
    assert first["parent"] == 0 and first["depth"] == 1 and first["decision"] == "q0 = 0"


@pytest.mark.parametrize("backend", [name for name in BACKENDS if name not in RECORDERS])
def test_a_backend_without_trees_refuses_and_names_those_with(backend: str) -> None:
    if BACKENDS.get(backend).unavailable():
        pytest.skip(f"{backend} is unavailable here")
    with pytest.raises(UnsupportedCombination) as refused:
        solve(queens(4), backend, "first-fail/min", record_tree=True)
    assert "search trees" in str(refused.value)
    assert all(name in str(refused.value) for name in RECORDERS)


def test_cp_refuses_a_tree_under_its_own_search() -> None:
    with pytest.raises(UnsupportedCombination, match="own search"):
        solve(queens(4), "cp", "auto", record_tree=True)


def test_a_tree_of_several_searches_is_refused() -> None:
    from tests.solvers.test_after_search_and_lazy import graph_model

    with pytest.raises(UnsupportedCombination, match="symmetric"):
        solve(queens(4), "cp", "first-fail/min+symmetric", record_tree=True)
    lazy, _ = graph_model("lazy")
    with pytest.raises(UnsupportedCombination, match=r"lazy constraints \(connected\)"):
        solve(lazy, "cp", "first-fail/min", record_tree=True)
    checked, _ = graph_model("after-search")  # one search: its tree is recorded
    assert solve(checked, "cp", "first-fail/min", record_tree=True).tree is not None
    with pytest.raises(OptionError, match="at least 1"):
        solve(queens(4), "cp", record_tree=0)


def test_recording_is_off_unless_asked() -> None:
    assert solve(queens(5), "cp", "first-fail/min").tree is None
