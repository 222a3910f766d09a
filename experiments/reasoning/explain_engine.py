"""The cheapest next step: which constraints, with which earlier facts, derive something
new, at the least cost (their weights plus their premises': :mod:`.explain_units`).

A step's constraints are one unit (a label's constraints), or two units that share a
variable when no one unit derives anything; when no pair does either, every unit
together, cut down by deletion to a set from which nothing can go, for one variable's
values (a *search* step: what a person would need to try values for).

A premise is the weakest fact about its variable that the step needs, not all that is
known of it: a domain that holds the known one (``r1c2 is not 5`` where ``r1c2 is 2 or
4`` is known). For one set of units the premises are found as the lightest set of
*atoms* (``v = x``, ``v is not y``, each within what is known) that derives anything
(:func:`~.explain_sets.fewest`); a set of premise facts costs what its cheapest atoms do
(:func:`~.explain_units.premise_weight`), so among steps of one and two units the one
taken is a cheapest over every choice of variables and of facts about them. A search
step is minimal, not cheapest: its units and then its premises are cut down by deletion,
each premise all that is known of its variable (widening them value by value was
measured: it multiplied the time of the hardest Sudokus tenfold and ranked them no
better, results/explain-difficulty). Every derivation is exact filtering
of the units' constraints within the premises' values (:mod:`solvers.filtering`): a
value survives only if some solution of those constraints takes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from experiments.reasoning.explain_sets import deletion_minimal, fewest
from experiments.reasoning.explain_units import FIXED_PREMISE_WEIGHT, Board, Domains, Unit
from solvers import IntVar
from solvers.constraints import Constraint

Filter = Callable[[Sequence[Constraint], Domains], "Domains | None"]
"""Exact filtering: for each variable of the constraints, the values some solution
within ``domains`` gives it; None when there is no solution."""
Removes = Callable[[Sequence[Constraint], Domains, Domains, list[Any]], bool]
"""Whether exact filtering within ``domains`` (the second argument) would leave some
value of the third (values of some variables) without a solution, or find none; the
fourth is a pool of earlier solutions of the same constraints it may use and fill."""


def removes_by_filter(exact: Filter) -> Removes:
    """:data:`Removes` answered by filtering whole."""
    def removes(constraints: Sequence[Constraint], domains: Domains, asked: Domains,
                pool: list[Any]) -> bool:
        filtered = exact(constraints, domains)
        return filtered is None or any(values - filtered[v] for v, values in asked.items())

    return removes


Atom = tuple[IntVar, int, bool]
"""The least premise: ``(v, x, True)`` says ``v = x``, ``(v, y, False)`` says ``v is not
y``; a variable's premise is what its atoms say together."""


def step_cost(units: Sequence[Unit], premises: Mapping[IntVar, frozenset[int]],
              board: Board) -> int:
    """What a step using ``units`` and ``premises`` (each variable's premise domain)
    costs on ``board``."""
    return (sum(unit.reason.weight for unit in units)
            + sum(board.premise_cost(v, values) for v, values in premises.items()))


def atoms_of(variable: IntVar, known: frozenset[int], universe: frozenset[int]
             ) -> list[Atom]:
    """Every atom true of ``variable`` when its ``known`` values are known."""
    fixed: list[Atom] = [(variable, next(iter(known)), True)] if len(known) == 1 else []
    return fixed + [(variable, value, False) for value in sorted(universe - known)]


def atom_weight(board: Board) -> Callable[[Atom], int]:
    """What one atom costs on ``board`` (:meth:`~.explain_units.Board.premise_cost` is
    their least sum)."""
    return lambda atom: FIXED_PREMISE_WEIGHT if atom[2] else board.ruled_out


def held(atoms: Sequence[Atom], universe: Domains) -> Domains:
    """The premise domain each variable of ``atoms`` keeps under them."""
    domains: Domains = {}
    for variable, value, fixes in atoms:
        values = domains.get(variable, universe[variable])
        domains[variable] = values & {value} if fixes else values - {value}
    return domains


class OutOfTime(Exception):
    """The explanation's time limit has passed."""


@dataclass(frozen=True)
class Found:
    """A step before it is put in words: the units and premises it uses, and for each
    variable it narrows, the values it rules out (none: a contradiction)."""

    units: tuple[Unit, ...]
    premises: tuple[IntVar, ...]
    held: tuple[frozenset[int], ...]
    removed: tuple[tuple[IntVar, frozenset[int]], ...]
    contradiction: bool
    cost: int
    search: bool = False
    """A search step: minimal, not cheapest, its premises all that is known of them."""

    def given(self) -> Domains:
        """Each premise's domain: the weakest fact about it the step uses."""
        return dict(zip(self.premises, self.held, strict=True))


class StepFinder:
    """Finds the cheapest next step on a board, remembering what each set of units
    derives until a value in its scope changes."""

    def __init__(self, board: Board, exact: Filter, deadline: float | None = None,
                 removes: Removes | None = None) -> None:
        self.board, self.exact, self.deadline = board, exact, deadline
        self.removes = removes or removes_by_filter(exact)
        self._memo: dict[tuple[object, ...], tuple[Found | None, float]] = {}
        self._pools: dict[tuple[int, ...], list[Any]] = {}
        by_variable: dict[IntVar, list[Unit]] = {}
        for unit in board.units:
            for variable in unit.scope:
                by_variable.setdefault(variable, []).append(unit)
        self._pairs = sorted({(a.number, b.number): (a, b) for units in by_variable.values()
                              for a, b in combinations(units, 2)}.values(),
                             key=lambda pair: sum(u.reason.weight for u in pair))

    def _tick(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime

    def derive(self, units: Sequence[Unit], premises: Mapping[IntVar, frozenset[int]]
               ) -> Domains | None:
        """What ``units`` filter to when ``premises`` keep their given values and every
        other variable may take its array's (an auxiliary, its model's) values."""
        return self.exact([c for unit in units for c in unit.constraints],
                          self._domains(units, premises))

    def derives(self, units: Sequence[Unit], premises: Mapping[IntVar, frozenset[int]],
                known: Domains) -> bool:
        """Whether :meth:`derive` would rule out a known value (or find no solution)."""
        asked = {v: known[v] for unit in units for v in unit.visible}
        return self.removes([c for unit in units for c in unit.constraints],
                            self._domains(units, premises), asked, self._pool(units))

    def _pool(self, units: Sequence[Unit]) -> list[Any]:
        """Solutions of ``units`` found so far (each a solution under any premises)."""
        return self._pools.setdefault(tuple(sorted(u.number for u in units)), [])

    def _domains(self, units: Sequence[Unit], premises: Mapping[IntVar, frozenset[int]]
                 ) -> Domains:
        self._tick()
        universe = self.board.universe
        domains: Domains = {}
        for unit in units:
            for variable in unit.visible:
                domains[variable] = premises.get(variable, universe[variable])
            for variable in unit.hidden:
                domains[variable] = frozenset(variable.domain)
        return domains

    def news(self, units: Sequence[Unit], filtered: Domains | None, known: Domains
             ) -> tuple[tuple[IntVar, frozenset[int]], ...] | None:
        """What ``filtered`` rules out of the known values (None: a contradiction)."""
        if filtered is None:
            return None
        seen: dict[IntVar, None] = {}
        for unit in units:
            seen.update(dict.fromkeys(unit.visible))
        return tuple((v, known[v] - filtered[v]) for v in seen if known[v] - filtered[v])

    def cheapest_with(self, units: tuple[Unit, ...], known: Domains,
                      below: int | None = None) -> Found | None:
        """The cheapest step using exactly these units (lightest premises), or None when
        there is none (costing less than ``below``, when given)."""
        scope = tuple(dict.fromkeys(v for unit in units for v in unit.visible))
        key = (tuple(u.number for u in units), *(known[v] for v in scope))
        remembered, none_below = self._memo.get(key, (None, -1.0))
        limit = float("inf") if below is None else below
        if remembered is not None or none_below >= limit:
            return remembered  # the cheapest, or known to cost ``below`` or more
        weight = sum(unit.reason.weight for unit in units)
        universe = self.board.universe
        candidates = [atom for v in scope if known[v] != universe[v]
                      for atom in atoms_of(v, known[v], universe[v])]
        atoms = fewest(candidates,
                       lambda chosen: self.derives(units, held(chosen, universe), known),
                       atom_weight(self.board), None if below is None else below - weight)
        found = None
        if atoms is not None:
            premises = held(atoms, universe)
            found = self._found(units, premises, known)
        self._memo[key] = (found, limit)
        return found

    def _found(self, units: Sequence[Unit], premises: Domains, known: Domains,
               search: bool = False) -> Found:
        """The step ``units`` with ``premises`` (each one's domain) take from ``known``."""
        news = self.news(units, self.derive(units, premises), known)
        return Found(tuple(units), tuple(premises), tuple(premises.values()), news or (),
                     news is None, step_cost(units, premises, self.board), search)

    def next_step(self, known: Domains) -> Found | None:
        """The cheapest step from ``known``: one unit, else two, else a search step;
        None when nothing more follows."""
        best: Found | None = None
        for unit in sorted(self.board.units, key=lambda u: u.reason.weight):
            if best is not None and unit.reason.weight >= best.cost:
                break
            found = self.cheapest_with((unit,), known, None if best is None else best.cost)
            if found is not None and (best is None or found.cost < best.cost):
                best = found
        if best is not None:
            return best
        for pair in self._pairs:
            if best is not None and sum(u.reason.weight for u in pair) >= best.cost:
                break
            shared = pair[0].scope & pair[1].scope
            if len(shared) == 1 and next(iter(shared)) in self.board.universe:
                continue  # one visible variable shared: each alone says all the pair does
            found = self.cheapest_with(pair, known, None if best is None else best.cost)
            if found is not None and (best is None or found.cost < best.cost):
                best = found
        return best or self.search_step(known)

    def search_step(self, known: Domains) -> Found | None:
        """A step over every unit, cut down to what one variable's new values need."""
        units = tuple(self.board.units)
        universe = self.board.universe
        everything = {v: known[v] for v in self.board.visible if known[v] != universe[v]}
        news = self.news(units, self.derive(units, everything), known)
        if news is not None and not news:
            return None
        target = None if news is None else news[0]

        def derives_all(chosen: Sequence[Unit], premises: Domains) -> bool:
            return self._still_derives(chosen, premises, target)

        kept_units = deletion_minimal(list(units), lambda chosen: derives_all(
            chosen, everything))
        in_scope = {v for unit in kept_units for v in unit.visible}
        kept = deletion_minimal([v for v in everything if v in in_scope], lambda chosen:
                                derives_all(kept_units, {v: known[v] for v in chosen}))
        return self._found(kept_units, {v: known[v] for v in kept}, known, search=True)

    def _still_derives(self, units: Sequence[Unit], premises: Domains,
                       target: tuple[IntVar, frozenset[int]] | None) -> bool:
        """Whether ``units`` with ``premises`` (each one's domain) leave the ``target``
        variable none of its values (for no target: have no solution), each value asked
        alone so that a value with a solution is given up at the first."""
        constraints = [c for unit in units for c in unit.constraints]
        domains = self._domains(units, premises)
        pool = self._pool(units)
        if target is None:
            return self.removes(constraints, domains, {}, pool)
        variable, removed = target
        if variable not in domains:
            return False
        return all(self.removes(constraints, domains, {variable: frozenset({value})}, pool)
                   for value in removed)
