"""Every step of an explanation is sound (its constraints and premises leave none of its
facts false), minimal (without any one of them, not all its facts follow) and a
cheapest available (against every set of up to two constraints and every premise set):
soundness and minimality judged by ``cp`` on the step alone, cheapest-first by
enumerating assignments; neither shares anything with the engine's filters. Every
viewpoint of every puzzle is explained through the same path, to a checked solution."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

import pytest

from experiments.reasoning.explain_engine import Found, StepFinder, step_cost
from experiments.reasoning.explain_units import Board, Domains, Unit
from experiments.reasoning.explaining import default_filter, default_removes, explain, walk
from puzzles import PUZZLES
from tests.experiments.reasoning.brute_force import subsets
from tests.experiments.reasoning.second_opinion import falsifiable
from viewpoints import TERMS, VIEWPOINTS, load_viewpoints

SMALL: dict[str, tuple[str, str | None]] = {
    "nonogram": ("small/nonogram-4x4-d0.5-s3-1.non", None),
    "shikaku": ("small/small.txt", "tiny"),
    "hashi": ("small/small.txt", "puzzle_4"),
}
SUDOKU_4 = "2x2:c1_1f3_2c"  # a 4x4 of sgt-solo's, one solution from four clues


def _instance(puzzle: str) -> Any:
    kind = PUZZLES.get(puzzle)
    if puzzle == "sudoku":
        return kind.parse(SUDOKU_4 + "\n")[0]
    path, name = SMALL[puzzle]
    return kind.load(kind.data_folder() / path, name)


def _board(viewpoint: str) -> Board:
    chosen = VIEWPOINTS.get(viewpoint)
    instance = _instance(chosen.puzzle)
    return Board(chosen.build(instance).model, instance, TERMS.get(chosen.puzzle))


load_viewpoints()
EVERY = VIEWPOINTS.names()


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


@pytest.mark.parametrize("viewpoint", EVERY)
def test_every_viewpoint_is_explained_to_its_checked_solution(viewpoint: str) -> None:
    chosen = VIEWPOINTS.get(viewpoint)
    kind = PUZZLES.get(chosen.puzzle)
    instance = _instance(chosen.puzzle)
    explained = explain(instance, viewpoint=viewpoint, time_limit=60)
    assert explained.ending == "solved"
    assert not kind.check(instance, kind.solution_from_json(explained.solution))
    assert explained.difficulty == max(step.cost for step in explained.steps)
    for step in explained.steps:
        assert step.facts and step.constraints and all(f.text for f in step.facts)


@pytest.mark.parametrize("viewpoint", EVERY)
def test_every_step_is_sound_and_minimal(viewpoint: str) -> None:
    board = _board(viewpoint)
    steps = _walked(board)
    assert steps
    for found, known in steps[:12]:
        assert found.contradiction or found.removed
        assert not falsifiable(board, found.units, found.premises, known, found)
        for dropped in range(len(found.units)):
            fewer = found.units[:dropped] + found.units[dropped + 1:]
            assert falsifiable(board, fewer, found.premises, known, found)
        for dropped in range(len(found.premises)):
            fewer_premises = found.premises[:dropped] + found.premises[dropped + 1:]
            assert falsifiable(board, found.units, fewer_premises, known, found)


CHEAPEST = ["sudoku/classic", "nonogram/regular", "shikaku/patterns", "hashi/bridges"]


@pytest.mark.parametrize("viewpoint", CHEAPEST)
def test_each_step_is_a_cheapest_available(viewpoint: str) -> None:
    board = _board(viewpoint)
    for found, known in _walked(board)[:8]:
        cheapest = _cheapest(board, known)
        if len(found.units) <= 2:
            assert found.cost == cheapest
        else:
            assert cheapest is None
