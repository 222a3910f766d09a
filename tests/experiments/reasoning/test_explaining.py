"""Every step of an explanation is sound (its constraints and premises leave none of its
facts false), minimal (without any one of them, or, in a step of one or two constraints,
with a premise one value weaker where that is cheaper, not all its facts follow) and a
cheapest available (against every set of up to two constraints and every set of premise
facts, each any domain that holds what is known of its variable):
soundness and minimality judged by ``cp`` on the step alone, cheapest-first by
enumerating assignments; neither shares anything with the engine's filters. Every
viewpoint of every puzzle is explained through the same path, to a checked solution."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import product
from typing import Any

import pytest

from experiments.reasoning.explain_engine import Found, StepFinder, step_cost
from experiments.reasoning.explain_units import Board, Domains, Unit
from experiments.reasoning.explaining import default_filter, default_removes, explain, walk
from puzzles import PUZZLES
from tests.experiments.reasoning.brute_force import subsets
from tests.experiments.reasoning.second_opinion import falsifiable
from viewpoints import VIEWPOINTS, load_viewpoints

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
    return Board(chosen.build(instance).model, instance, chosen.puzzle)


load_viewpoints()
EVERY = VIEWPOINTS.names()


def _domains(board: Board, units: Sequence[Unit], premises: Mapping[Any, frozenset[int]]
             ) -> Domains:
    domains: Domains = {}
    for unit in units:
        for variable in unit.visible:
            domains[variable] = premises.get(variable, board.universe[variable])
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


def _weaker(known: frozenset[int], universe: frozenset[int]) -> list[frozenset[int]]:
    """Every premise fact about a variable: a domain holding ``known``, short of all."""
    extra = sorted(universe - known)
    return [known | frozenset(chosen) for chosen in subsets(extra)
            if len(chosen) < len(extra)]


def _premise_sets(board: Board, variables: Sequence[Any], known: Domains
                  ) -> Iterator[dict[Any, frozenset[int]]]:
    """Every choice of premise facts about ``variables`` (each none or one fact)."""
    if not variables:
        yield {}
        return
    first, rest = variables[0], variables[1:]
    for chosen in _premise_sets(board, rest, known):
        yield chosen
        for values in _weaker(known[first], board.universe[first]):
            yield {first: values, **chosen}


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
            for premises in _premise_sets(board, narrowed, known):
                cost = step_cost(units, premises, board)
                if best is not None and cost >= best:
                    continue
                supported: dict[Any, set[int]] = {v: set() for v in scope}
                empty = True
                for assignment in _assignments(units, _domains(board, units, premises)):
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
        given = found.given()
        assert found.contradiction or found.removed
        assert all(known[v] <= values < board.universe[v] for v, values in given.items())
        assert not falsifiable(board, found.units, given, found)
        for dropped in range(len(found.units)):
            fewer = found.units[:dropped] + found.units[dropped + 1:]
            assert falsifiable(board, fewer, given, found)
        for variable, values in given.items():
            without = {v: d for v, d in given.items() if v != variable}
            assert falsifiable(board, found.units, without, found)
            if found.search:
                continue  # a search step's premises are all that is known of them
            universe = board.universe[variable]
            for value in universe - values:
                if board.premise_cost(variable, values | {value}) < board.premise_cost(
                        variable, values):
                    weaker = {**given, variable: values | {value}}
                    assert falsifiable(board, found.units, weaker, found)


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


def test_a_hidden_single_takes_only_what_it_needs_of_each_premise() -> None:
    """Three cells of a row that cannot hold a value leave it one place: each premise
    says only that its cell cannot hold it, and costs that much, not all it knows."""
    board = _board("sudoku/classic")
    row = next(u for u in board.units if u.reason.group == "rows")
    first, *others = row.visible
    universe = board.universe[first]
    value, other = sorted(universe)[:2]
    known = {v: board.universe[v] for v in board.visible}
    for variable in others:
        known[variable] = universe - {value}
    known[others[-1]] = universe - {value, other}
    found = StepFinder(board, default_filter(), removes=default_removes()).next_step(known)
    assert found is not None and found.units == (row,)
    assert found.given() == {v: universe - {value} for v in others}
    assert dict(found.removed) == {first: universe - {value}}
    assert found.cost == _cheapest(board, known) == row.reason.weight + len(others)


def test_a_premise_costs_its_puzzles_weight_per_value_ruled_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A puzzle's declared weight per ruled-out value prices its open premises; a placed
    value costs the fixed weight on every puzzle."""
    from experiments.reasoning import explain_units

    monkeypatch.setattr(explain_units, "RULED_OUT_WEIGHTS", {"hashi": 5})  # as read there
    hashi, sudoku = _board("hashi/bridges"), _board("sudoku/classic")
    bridges = next(v for v in hashi.visible if len(hashi.universe[v]) == 3)
    assert hashi.premise_cost(bridges, hashi.universe[bridges] - {0}) == 5
    assert hashi.premise_cost(bridges, frozenset({2})) == explain_units.FIXED_PREMISE_WEIGHT
    cell = sudoku.visible[0]
    assert sudoku.premise_cost(cell, sudoku.universe[cell] - {0, 1}) == 2
