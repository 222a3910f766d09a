"""Every step of an explanation is sound (its constraints and premises leave none of its
facts false), minimal (without any one of them, not all its facts follow) and a
cheapest available (against every set of up to two constraints and every premise set),
judged by enumerating assignments, which shares nothing with the engine's filters."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

import pytest

from experiments.reasoning.explain_engine import Found, StepFinder, step_cost
from experiments.reasoning.explain_units import Board, Domains, Unit
from experiments.reasoning.explaining import default_filter, default_removes, walk
from puzzles import PUZZLES
from tests.experiments.reasoning.brute_force import subsets
from viewpoints import TERMS, get_viewpoint

SUDOKU_4 = "1..........3.2..\n"  # 4x4 with clues in three boxes
SMALL: list[tuple[str, str, str]] = [
    ("sudoku", "classic", SUDOKU_4),
    ("sudoku", "value-position", SUDOKU_4),
]


def _board(puzzle: str, viewpoint: str, text: str) -> Board:
    kind = PUZZLES.get(puzzle)
    instance = kind.parse(text)[0]
    built = get_viewpoint(puzzle, viewpoint).build(instance)
    return Board(built.model, instance, TERMS.get(puzzle))


def _domains(board: Board, units: Sequence[Unit], premises: Sequence[Any],
             known: Domains) -> Domains:
    domains: Domains = {}
    for unit in units:
        for variable in unit.visible:
            domains[variable] = known[variable] if variable in premises else (
                board.universe[variable])
        for variable in unit.hidden:
            domains[variable] = frozenset(variable.domain)
    return domains


def _assignments(units: Sequence[Unit], domains: Domains):
    """Every assignment of the units' variables within ``domains`` that they satisfy."""
    constraints = [c for unit in units for c in unit.constraints]
    variables = list(domains)
    for values in product(*(sorted(domains[v]) for v in variables)):
        assignment = dict(zip(variables, values, strict=True))
        if all(c.holds(assignment) for c in constraints):
            yield assignment


def _all_follow(board: Board, units: Sequence[Unit], premises: Sequence[Any],
                known: Domains, found: Found) -> bool:
    """Whether no assignment of ``units`` within ``premises`` falsifies a fact of
    ``found`` (for a contradiction: whether there is no assignment at all)."""
    domains = _domains(board, units, premises, known)
    for variable, _ in found.removed:  # a fact's variable is free where no unit names it
        domains.setdefault(variable, board.universe[variable])
    for assignment in _assignments(units, domains):
        if found.contradiction:
            return False
        if any(v in assignment and assignment[v] in removed for v, removed in found.removed):
            return False
    return True


def _cheapest(board: Board, known: Domains) -> int | None:
    """The least cost of a step of one or two units, by enumeration."""
    best = None
    for size in (1, 2):
        for units in subsets(board.units, size):
            if len(units) != size:
                continue
            if best is not None and sum(u.reason.weight for u in units) >= best:
                continue
            scope = list(dict.fromkeys(v for unit in units for v in unit.visible))
            narrowed = [v for v in scope if known[v] != board.universe[v]]
            for premises in subsets(narrowed):
                cost = step_cost(units, premises, known)
                if best is not None and cost >= best:
                    continue
                supported: dict[Any, set[int]] = {v: set() for v in scope}
                empty = True
                for assignment in _assignments(units, _domains(board, units, premises,
                                                               known)):
                    empty = False
                    for variable in scope:
                        supported[variable].add(assignment[variable])
                if empty or any(known[v] - supported[v] for v in scope):
                    best = cost
    return best


def _walked(board: Board) -> list[tuple[Found, Domains]]:
    return list(walk(StepFinder(board, default_filter(), removes=default_removes()),
                     board.start()))


@pytest.mark.parametrize(("puzzle", "viewpoint", "text"), SMALL,
                         ids=[f"{p}-{v}" for p, v, _ in SMALL])
def test_every_step_is_sound_and_minimal(puzzle: str, viewpoint: str, text: str) -> None:
    board = _board(puzzle, viewpoint, text)
    steps = _walked(board)
    assert steps
    for found, known in steps:
        assert found.contradiction or found.removed
        assert _all_follow(board, found.units, found.premises, known, found)
        for dropped in range(len(found.units)):
            fewer = found.units[:dropped] + found.units[dropped + 1:]
            assert not _all_follow(board, fewer, found.premises, known, found)
        for dropped in range(len(found.premises)):
            fewer_premises = found.premises[:dropped] + found.premises[dropped + 1:]
            assert not _all_follow(board, found.units, fewer_premises, known, found)


@pytest.mark.parametrize(("puzzle", "viewpoint", "text"), SMALL[:1],
                         ids=[f"{p}-{v}" for p, v, _ in SMALL[:1]])
def test_each_step_is_a_cheapest_available(puzzle: str, viewpoint: str, text: str) -> None:
    board = _board(puzzle, viewpoint, text)
    for found, known in _walked(board):
        cheapest = _cheapest(board, known)
        if len(found.units) <= 2:
            assert found.cost == cheapest
        else:
            assert cheapest is None
