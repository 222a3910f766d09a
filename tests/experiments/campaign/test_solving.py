"""``solve_instance`` turns a wrong answer into an ``error`` run, whoever calls it (CLI,
runner, generator): a solution the checker rejects, or "unsatisfiable" for an instance
whose file gives a solution."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import experiments.campaign.solving
from experiments.campaign.solving import solve as solve_puzzle
from experiments.campaign.verdicts import FALSE_UNSATISFIABLE, REJECTED
from puzzles.sudoku import read
from solvers import SolveResult, Status, solve
from solvers.record import SymmetricSearch
from tests.paths import SUDOKU_DATA

EASY = read(SUDOKU_DATA / "easy_9x9.txt")
KEPT = SymmetricSearch(("kept",), "whole model")


def _patch_solve(monkeypatch: pytest.MonkeyPatch, change: dict[str, Any]) -> None:
    def wrong_solve(*args: Any, **kwargs: Any) -> SolveResult:
        return replace(solve(*args, **kwargs), symmetric=KEPT, **change)

    monkeypatch.setattr(experiments.campaign.solving, "solve_model", wrong_solve)


def test_unsatisfiable_against_the_files_solution_is_an_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert EASY[0].known_solution is not None
    _patch_solve(monkeypatch, {"status": Status.UNSATISFIABLE, "assignment": None})
    run = solve_puzzle(EASY[0], viewpoint="classic", solver="cpsat", heuristic="auto")
    assert run.result.status is Status.ERROR
    assert run.result.message == FALSE_UNSATISFIABLE
    assert run.result.symmetric == KEPT  # the rest of the record stays


def test_unsatisfiable_without_a_known_solution_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    instance = replace(EASY[0], known_solution=None)
    _patch_solve(monkeypatch, {"status": Status.UNSATISFIABLE, "assignment": None})
    run = solve_puzzle(instance, viewpoint="classic", solver="cpsat", heuristic="auto")
    assert run.result.status is Status.UNSATISFIABLE


def test_a_solution_the_checker_rejects_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def corrupted(*args: Any, **kwargs: Any) -> SolveResult:
        result = solve(*args, **kwargs)
        assert result.assignment is not None
        assignment = {variable: 0 for variable in result.assignment}  # every cell a 1
        return replace(result, assignment=assignment, symmetric=KEPT)

    monkeypatch.setattr(experiments.campaign.solving, "solve_model", corrupted)
    run = solve_puzzle(EASY[0], viewpoint="classic", solver="cpsat", heuristic="auto")
    assert run.result.status is Status.ERROR
    assert run.violations and not run.correct
    # what the checker found broken, after the verdict's own words
    message = run.result.message
    assert message.startswith(REJECTED) and all(v in message for v in run.violations)
    assert run.result.symmetric == KEPT  # the rest of the record stays
