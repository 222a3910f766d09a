"""``cp``'s auto search in slices: two impact measures in turn, restarted from the root when
a slice spends its failures, and never cut once it has found a solution."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

import solvers.backends.cp as cp_backend
from solvers import Status, solve
from solvers.backends.cp import impact_slices
from tests.solvers.test_search_and_statistics import pigeonhole
from tests.solvers.test_search_trees import queens


def record_slices(monkeypatch: pytest.MonkeyPatch, first: int) -> list[tuple[int, int]]:
    """Slices of ``first`` failures to start with; the slices the searches start, recorded."""
    started: list[tuple[int, int]] = []
    original = impact_slices.slices

    def recorded(measures: int, _: int | None = None) -> Iterator[tuple[int, int]]:
        for item in original(measures, first):
            started.append(item)
            yield item

    monkeypatch.setattr(cp_backend, "slices", recorded)
    return started


@pytest.fixture
def tiny_slices(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Slices of one failure to start with, recorded."""
    return record_slices(monkeypatch, 1)


def test_slices_alternate_the_measures_and_double_every_two() -> None:
    assert list(itertools.islice(impact_slices.slices(2, 5), 6)) == [
        (0, 5), (1, 5), (0, 10), (1, 10), (0, 20), (1, 20)]
    assert next(impact_slices.slices(2)) == (0, impact_slices.FIRST_SLICE_FAILURES)


def test_a_cut_slice_counts_the_failures_up_to_its_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut at 200 failures, the sum measure's slice adds exactly 200 to the backtracks of
    the value measure's search (not the failures OR-tools counts while unwinding it)."""
    def backtracks(plan: list[tuple[int, int]]) -> int | None:
        monkeypatch.setattr(cp_backend, "slices", lambda measures, first=None: iter(plan))
        model = queens(14)
        result = solve(model, "cp", "auto", time_limit=60)
        assert result.status is Status.SOLVED and result.assignment is not None
        assert all(c.holds(result.assignment) for c in model.constraints)
        return result.statistics.backtracks

    alone = backtracks([(1, 10**9)])
    assert alone is not None and backtracks([(0, 200), (1, 10**9)]) == 200 + alone


def test_counting_runs_on_from_the_slice_that_found_a_solution(
        tiny_slices: list[tuple[int, int]]) -> None:
    """Counting starts no slice after the one that found the first solution, and finds
    each of the 92 once."""
    solve(queens(8), "cp", "auto", time_limit=60)
    to_the_first = len(tiny_slices)
    tiny_slices.clear()
    result = solve(queens(8), "cp", "auto", max_solutions=0, time_limit=60)
    assert result.complete and result.statistics.solutions == 92
    assert len(tiny_slices) == to_the_first


def test_a_proof_of_no_solution_runs_through_cut_slices_to_a_whole_search(
        tiny_slices: list[tuple[int, int]]) -> None:
    result = solve(pigeonhole(6), "cp", "auto", time_limit=60)
    assert result.status is Status.UNSATISFIABLE and result.complete
    assert len(tiny_slices) > 2
    assert result.statistics.restarts == len(tiny_slices) - 1  # every slice but the first


def test_one_search_has_no_restart() -> None:
    for heuristic in ("auto", "first-fail/min"):
        result = solve(pigeonhole(5), "cp", heuristic, time_limit=60)
        assert result.status is Status.UNSATISFIABLE and result.statistics.restarts == 0


def test_a_search_within_the_first_slice_is_the_single_impact_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Below the first budget nothing changes: the same counts as one uncut search."""
    counted = solve(queens(7), "cp", "auto", max_solutions=0).statistics
    monkeypatch.setattr(impact_slices, "FIRST_SLICE_FAILURES", 10**12)
    uncut = solve(queens(7), "cp", "auto", max_solutions=0).statistics
    assert counted.solutions == uncut.solutions == 40
    assert (counted.backtracks, counted.branches) == (uncut.backtracks, uncut.branches)


def test_named_heuristics_and_probing_search_once(tiny_slices: list[tuple[int, int]]) -> None:
    for heuristic in ("first-fail/min", "auto+probe"):
        assert solve(queens(6), "cp", heuristic, max_solutions=0).statistics.solutions == 4
    assert tiny_slices == []


def test_the_time_limit_stops_the_slices_and_keeps_their_counts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    started = record_slices(monkeypatch, 50)
    result = solve(pigeonhole(12), "cp", "auto", time_limit=0.5)
    assert result.status is Status.TIMEOUT and not result.complete
    assert len(started) > 2
    cut = sum(failures for _, failures in started[:-1])
    assert result.statistics.backtracks is not None and result.statistics.backtracks >= cut
