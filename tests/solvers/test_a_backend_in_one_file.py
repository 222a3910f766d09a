"""A backend written in one file, here in the tests, runs through the whole grid.

It is what ``docs/adding-a-backend.md`` describes: a declaration and three hooks.
Its hooks hand the work to the ``cp`` backend's, but its declaration offers less
(no search of its own, no value ranking, no probing), so the grid must expect
exactly the refusals that declaration implies, and every run it accepts must pass
the puzzle's checker. Nothing outside this file changes for it.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

import pytest

from puzzlelab.errors import UnsupportedCombination
from solvers import BACKENDS, Model, Status, all_different, load_backends, solve
from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.capabilities import OWN_SEARCH, VALUE_RANKING, Capabilities
from solvers.limits import SearchLimits
from tests.facts import facts
from tests.grid import assert_solves, grid
from tests.paths import NONOGRAM_DATA, SUDOKU_DATA

load_backends()
CP = BACKENDS.get("cp")()


class DelegatingBackend(Backend[Any]):
    """The classic CP solver under a smaller declaration."""

    name = "one-file"
    capabilities = Capabilities(
        library="OR-tools classic CP solver, through cp's hooks",
        summary="a backend written in one test file",
        native=CP.capabilities.native,
        value_choices=frozenset({"min", "max"}),
        statistics=frozenset({"backtracks", "branches"}),
        reasons={OWN_SEARCH: "this test backend offers named heuristics only",
                 VALUE_RANKING: "this test backend orders values by min or max only"})

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> Any:
        return CP.compile(model, lowered, request, limits)

    def search(self, compiled: Any) -> Generator[tuple[int, ...], None, None]:
        return CP.search(compiled)

    def counters(self, compiled: Any) -> dict[str, int | None]:
        figures = CP.counters(compiled)
        return {"backtracks": figures["backtracks"], "branches": figures["branches"]}


@pytest.fixture
def one_file_backend() -> Any:
    with BACKENDS.registered(DelegatingBackend.name, DelegatingBackend):
        yield DelegatingBackend


def test_the_backend_runs_through_the_whole_grid(one_file_backend: Any) -> None:
    from puzzles import PUZZLES

    instances = {"sudoku": PUZZLES.get("sudoku").load(SUDOKU_DATA / "small_4x4.txt", 1),
                 "nonogram": PUZZLES.get("nonogram").load(NONOGRAM_DATA / "small" /
                                                         "plus_3x3.non")}
    cells = [cell for puzzle in instances for cell in grid(puzzle)
             if cell.backend == one_file_backend.name]
    assert {cell.viewpoint.puzzle for cell in cells} == set(instances)
    refused = 0
    for cell in cells:
        assert_solves(cell, [instances[cell.viewpoint.puzzle]])
        refused += cell.refusal(instances[cell.viewpoint.puzzle]) is not None
    assert 0 < refused < len(cells)  # its declaration rules some cells out, not all


def test_its_refusals_name_the_capability_it_lacks(one_file_backend: Any) -> None:
    model = Model("three")
    cells = [model.int_var(1, 3) for _ in range(3)]
    model.add(all_different(cells))
    with pytest.raises(UnsupportedCombination, match=re.escape(f"lacks {OWN_SEARCH}: this test")):
        solve(model, "one-file", "auto")
    with pytest.raises(UnsupportedCombination, match=re.escape(f"lacks {VALUE_RANKING}")):
        solve(model, "one-file", "input/random")
    result = solve(model, "one-file", "input/min", max_solutions=0)
    assert result.status is Status.SOLVED and result.statistics.solutions == 6
    assert result.statistics.probes is None  # not declared, so not reported


def test_root_propagation_is_declared_exactly_by_a_root_propagator() -> None:
    """The declaration that tables and refusals read, and the method propagate_root
    calls, cannot disagree: a backend is refused where it is defined."""
    import dataclasses

    from solvers.backend_contract import RootPropagator

    declaring = dataclasses.replace(DelegatingBackend.capabilities, root_propagation=True)
    # the backend, what it declares, and what it must therefore be
    with pytest.raises(TypeError, match=facts("Claims", "root_propagation", "True",
                                              "must be a RootPropagator")):
        type("Claims", (DelegatingBackend,), {"capabilities": declaring})
    with pytest.raises(TypeError, match=facts("Hides", "root_propagation", "False",
                                              "must not be a RootPropagator")):
        type("Hides", (DelegatingBackend, RootPropagator),
             {"root_domains": lambda self, compiled: None})
    assert issubclass(type(CP), RootPropagator) and CP.capabilities.root_propagation
