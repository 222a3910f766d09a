"""Recorded trees on ic and automata hold their counts on the models those backends take.

The shared test (``test_search_trees.py``) runs every recorder on models of mixed
constraints, which ic refuses (it posts all_different alone) and automata refuses
beyond 0/1 variables: here ic labels small Latin squares, and automata searches
nonogram-like lines under every heuristic it takes, its own included.
"""

from __future__ import annotations

import itertools

import pytest

from solvers import Model, all_different, load_backends, regular, solve
from solvers.record import SolveResult
from solvers.search_tree import NodeKind, SearchTree
from tests.solvers.tiny_models import TINY_MODELS

load_backends()


def latin_square(size: int, clues: dict[tuple[int, int], int], boxes: int = 0,
                 strength: str = "weak") -> Model:
    """A ``size`` square, each row and column (and ``boxes`` x ``boxes`` box) of
    different values, some cells given."""
    model = Model(f"latin-{size}-{len(clues)}")
    cells = [[model.int_var(clues[r, c], clues[r, c], f"c{r}{c}") if (r, c) in clues
              else model.int_var(1, size, f"c{r}{c}") for c in range(size)]
             for r in range(size)]
    groups = [row for row in cells] + [list(column) for column in zip(*cells)]
    if boxes:
        groups += [[cells[r + i][c + j] for i in range(boxes) for j in range(boxes)]
                   for r in range(0, size, boxes) for c in range(0, size, boxes)]
    for group in groups:
        model.add(all_different(group, strength))  # type: ignore[arg-type]
    return model


IC_MODELS = {  # clues, and the side of the boxes (0: none)
    "latin-4-open": ({}, 0),
    "latin-4-clues": ({(0, 0): 1, (1, 2): 3, (3, 3): 2}, 0),
    "sudoku-4-clues": ({(0, 0): 1, (1, 2): 3, (3, 3): 2}, 2),
    "sudoku-4-open": ({}, 2),
    # found by search after propagation, under weak and hall alike
    "latin-4-unsatisfiable": ({(0, 0): 1, (1, 1): 1, (2, 3): 2, (3, 2): 3}, 0),
}
IC_HEURISTICS = ["input/min", "first-fail/min", "input/max", "input/min+dway",
                 "first-fail/max+dway"]


def recorded_tree(result: SolveResult) -> SearchTree:
    """The run's tree, whose failures, branches and solution leaves are its figures."""
    tree = result.tree
    assert tree is not None and not tree.truncated
    statistics = result.statistics
    counts = tree.counts()
    assert counts["failures"] == statistics.backtracks
    assert counts["branches"] == statistics.branches
    assert counts["solutions"] == statistics.solutions
    assert counts["open"] == 0
    assert all(tree.label(n) for n in range(1, len(tree)))
    return tree


@pytest.mark.parametrize("solutions", [1, None], ids=["one", "all"])
@pytest.mark.parametrize("strength", ["weak", "hall"])
@pytest.mark.parametrize("heuristic", IC_HEURISTICS)
@pytest.mark.parametrize("model", list(IC_MODELS))
def test_an_ic_tree_holds_its_counts(model: str, heuristic: str, strength: str,
                                     solutions: int | None) -> None:
    clues, boxes = IC_MODELS[model]
    result = solve(latin_square(4, clues, boxes, strength), "ic", heuristic,
                   max_solutions=solutions, record_tree=True)
    tree = recorded_tree(result)
    assert result.statistics.branches > 0  # clues leave a search to record
    relations = {tree.label(n).split()[1] for n in range(1, len(tree))}
    assert relations <= ({"="} if "+dway" in heuristic else {"=", "!="})


def test_an_ic_root_that_fails_is_a_failure_leaf_but_no_backtrack() -> None:
    """Posting fails before any value is tried: ECLiPSe counts no backtrack, and the
    root is a failure all the same (the shared test's failures == backtracks cannot
    hold there; python-constraint's, failing in its preprocessing, does the same)."""
    for backend, model in (("ic", latin_square(4, {(0, 0): 1, (0, 1): 1})),
                           ("python-constraint", TINY_MODELS["constant-false"]())):
        result = solve(model, backend, "input/min", max_solutions=0, record_tree=True)
        assert result.tree is not None and len(result.tree) == 1
        assert result.tree.kind(0) is NodeKind.FAILURE
        assert result.statistics.backtracks == 0 and result.statistics.branches == 0


def test_an_ic_tree_without_recording_is_none_and_counts_alike() -> None:
    clues, boxes = IC_MODELS["latin-4-clues"]
    plain = solve(latin_square(4, clues, boxes), "ic", "first-fail/min", max_solutions=0)
    recorded = solve(latin_square(4, clues, boxes), "ic", "first-fail/min",
                     max_solutions=0, record_tree=True)
    assert plain.tree is None
    assert (plain.statistics.backtracks, plain.statistics.branches) == \
        (recorded.statistics.backtracks, recorded.statistics.branches)


def test_an_ic_tree_past_its_cap_is_truncated_and_the_search_goes_on() -> None:
    result = solve(latin_square(4, {}), "ic", "input/min", max_solutions=0,
                   record_tree=10)
    assert result.tree is not None and result.tree.truncated and len(result.tree) == 10
    assert result.statistics.solutions == 576  # the 4x4 Latin squares


def nonogram(rows: list[list[int]], columns: list[list[int]]) -> Model:
    """A small nonogram as ``regular`` lines over 0/1 cells (one block run per clue)."""
    model = Model("nonogram")
    cells = [[model.bool_var(f"r{r}c{c}") for c in range(len(columns))]
             for r in range(len(rows))]
    for clue, line in itertools.chain(zip(rows, cells), zip(columns, zip(*cells))):
        model.add(regular(list(line), *_automaton(clue)))
    return model


def _automaton(clue: list[int]) -> tuple[list[tuple[int, int, int]], int, list[int]]:
    """The transitions, start and accepting states of lines with ``clue``'s blocks."""
    pattern: list[int] = []  # per state: the symbol it must read next (-1: 0 or gap)
    for number, block in enumerate(clue):
        pattern += [1] * block + ([0] if number < len(clue) - 1 else [])
    transitions = [(0, 0, 0)]
    state = 0
    for symbol in pattern:
        transitions.append((state, symbol, state + 1))
        state += 1
        if symbol == 0:
            transitions.append((state, 0, state))
    transitions.append((state, 0, state))
    return sorted(set(transitions)), 0, [state]


AUTOMATA_HEURISTICS = ["input/min", "first-fail/max", "input/min+probe",
                       "first-fail/min+probe-all", "auto"]


@pytest.mark.parametrize("solutions", [1, None], ids=["one", "all"])
@pytest.mark.parametrize("heuristic", AUTOMATA_HEURISTICS)
def test_an_automata_tree_holds_its_counts(heuristic: str, solutions: int | None) -> None:
    # a 5x5 nonogram of 18 solutions: every heuristic branches on it, and fails but
    # when probing at every node
    model = nonogram([[1, 1], [1, 1], [1], [1, 1], [1]], [[1], [1, 1], [1, 1], [1, 1], [1]])
    result = solve(model, "automata", heuristic, max_solutions=solutions, record_tree=True)
    tree = recorded_tree(result)
    assert result.statistics.branches > 0
    if solutions is None:
        assert result.statistics.solutions == 18
        assert (result.statistics.backtracks > 0) is ("probe-all" not in heuristic)
    assert all(tree.kind(n) is not NodeKind.OPEN for n in range(len(tree)))


@pytest.mark.parametrize("heuristic", ["input/min", "first-fail/max", "input/min+probe"])
def test_automata_and_cp_record_the_same_tree_on_a_nonogram(heuristic: str) -> None:
    """Both revise each line to domain consistency and branch alike (test_automata.py),
    so their trees are the same, node for node, label for label."""
    clues = [[1, 1], [1, 1], [1], [1, 1], [1]], [[1], [1, 1], [1, 1], [1, 1], [1]]
    trees = [solve(nonogram(*clues), backend, heuristic, max_solutions=0,
                   record_tree=True).tree for backend in ("cp", "automata")]
    cp, automata = (tree for tree in trees if tree is not None)
    assert [(cp.parent(n), cp.label(n), cp.kind(n)) for n in range(len(cp))] == \
        [(automata.parent(n), automata.label(n), automata.kind(n)) for n in range(len(automata))]
