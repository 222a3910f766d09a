"""The cheapest next step: which constraints, with which earlier facts, derive something
new, at the least cost (their weights plus their premises': :mod:`.explain_units`).

A step's constraints are one unit (a label's constraints), or two units that share a
variable when no one unit derives anything; when no pair does either, every unit
together, cut down by deletion to a set from which nothing can go, for one variable's
values (a *search* step: what a person would need to try values for). For one set of
units the fewest premises are found exactly (:func:`~.explain_sets.fewest`), so among
steps of one and two units the one taken is a cheapest; a search step is minimal, not
cheapest. Every derivation is exact filtering of the units' constraints within the
premises' values (:mod:`solvers.filtering`): a value survives only if some solution of
those constraints takes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from experiments.reasoning.explain_sets import deletion_minimal, fewest
from experiments.reasoning.explain_units import Board, Domains, Unit, premise_weight
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


def step_cost(units: Sequence[Unit], premises: Sequence[IntVar], known: Domains) -> int:
    """What a step using ``units`` and ``premises`` (their ``known`` values) costs."""
    return (sum(unit.reason.weight for unit in units)
            + sum(premise_weight(known[variable]) for variable in premises))


class OutOfTime(Exception):
    """The explanation's time limit has passed."""


@dataclass(frozen=True)
class Found:
    """A step before it is put in words: the units and premises it uses, and for each
    variable it narrows, the values it rules out (none: a contradiction)."""

    units: tuple[Unit, ...]
    premises: tuple[IntVar, ...]
    removed: tuple[tuple[IntVar, frozenset[int]], ...]
    contradiction: bool
    cost: int


class StepFinder:
    """Finds the cheapest next step on a board, remembering what each set of units
    derives until a value in its scope changes."""

    def __init__(self, board: Board, exact: Filter, deadline: float | None = None,
                 removes: Removes | None = None) -> None:
        self.board, self.exact, self.deadline = board, exact, deadline
        self.removes = removes or removes_by_filter(exact)
        self._memo: dict[tuple[object, ...], Found | None] = {}
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

    def derive(self, units: Sequence[Unit], premises: Sequence[IntVar], known: Domains
               ) -> Domains | None:
        """What ``units`` filter to when ``premises`` keep their known values and every
        other variable may take its array's (an auxiliary, its model's) values."""
        return self.exact([c for unit in units for c in unit.constraints],
                          self._domains(units, premises, known))

    def derives(self, units: Sequence[Unit], premises: Sequence[IntVar], known: Domains
                ) -> bool:
        """Whether :meth:`derive` would rule out a known value (or find no solution)."""
        asked = {v: known[v] for unit in units for v in unit.visible}
        return self.removes([c for unit in units for c in unit.constraints],
                            self._domains(units, premises, known), asked,
                            self._pool(units))

    def _pool(self, units: Sequence[Unit]) -> list[Any]:
        """Solutions of ``units`` found so far (each a solution under any premises)."""
        return self._pools.setdefault(tuple(sorted(u.number for u in units)), [])

    def _domains(self, units: Sequence[Unit], premises: Sequence[IntVar], known: Domains
                 ) -> Domains:
        self._tick()
        chosen = set(premises)
        domains: Domains = {}
        for unit in units:
            for variable in unit.visible:
                domains[variable] = (known[variable] if variable in chosen
                                     else self.board.universe[variable])
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

    def cheapest_with(self, units: tuple[Unit, ...], known: Domains) -> Found | None:
        """The cheapest step using exactly these units (fewest premises), or None."""
        scope = tuple(dict.fromkeys(v for unit in units for v in unit.visible))
        key = (tuple(u.number for u in units), *(known[v] for v in scope))
        if key in self._memo:
            return self._memo[key]
        candidates = [v for v in scope if known[v] != self.board.universe[v]]

        premises = fewest(candidates, lambda chosen: self.derives(units, chosen, known),
                          lambda v: premise_weight(known[v]))
        found = None
        if premises is not None:
            news = self.news(units, self.derive(units, premises, known), known)
            found = Found(units, tuple(premises), news or (), news is None,
                          step_cost(units, premises, known))
        self._memo[key] = found
        return found

    def next_step(self, known: Domains) -> Found | None:
        """The cheapest step from ``known``: one unit, else two, else a search step;
        None when nothing more follows."""
        best: Found | None = None
        for unit in sorted(self.board.units, key=lambda u: u.reason.weight):
            if best is not None and unit.reason.weight >= best.cost:
                break
            found = self.cheapest_with((unit,), known)
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
            found = self.cheapest_with(pair, known)
            if found is not None and (best is None or found.cost < best.cost):
                best = found
        return best or self.search_step(known)

    def search_step(self, known: Domains) -> Found | None:
        """A step over every unit, cut down to what one variable's new values need."""
        units = list(self.board.units)
        everything = [v for v in self.board.visible if known[v] != self.board.universe[v]]
        news = self.news(units, self.derive(units, everything, known), known)
        if news is not None and not news:
            return None
        target = None if news is None else news[0]
        kept_units = deletion_minimal(
            units, lambda chosen: self._still_derives(chosen, everything, known, target))
        in_scope = {v for unit in kept_units for v in unit.visible}
        kept_premises = deletion_minimal(
            [v for v in everything if v in in_scope],
            lambda chosen: self._still_derives(kept_units, chosen, known, target))
        final = self.news(kept_units, self.derive(kept_units, kept_premises, known), known)
        return Found(tuple(kept_units), tuple(kept_premises), final or (), final is None,
                     step_cost(kept_units, kept_premises, known))

    def _still_derives(self, units: Sequence[Unit], premises: Sequence[IntVar],
                       known: Domains, target: tuple[IntVar, frozenset[int]] | None
                       ) -> bool:
        """Whether ``units`` and ``premises`` leave the ``target`` variable none of its
        values (for no target: have no solution), each value asked alone so that a value
        with a solution is given up at the first."""
        constraints = [c for unit in units for c in unit.constraints]
        domains = self._domains(units, premises, known)
        pool = self._pool(units)
        if target is None:
            return self.removes(constraints, domains, {}, pool)
        variable, removed = target
        if variable not in domains:
            return False
        return all(self.removes(constraints, domains, {variable: frozenset({value})}, pool)
                   for value in removed)
