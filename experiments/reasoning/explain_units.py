"""What an explanation reasons with, read off a viewpoint's model: its constraints
gathered by their labels into units (every constraint posted as ``row 3`` is one
reason), the variables a person can see (those of the model's named arrays), the values
each could take before any clue, and the puzzle's words for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from experiments.reasoning.steps import Fact, Reason
from solvers import IntVar, Model
from solvers.constraints import Constraint
from solvers.structure import VarArray
from viewpoints.terms import RULED_OUT_WEIGHTS, TERMS, Cell, Subject, Terms

Domains = dict[IntVar, frozenset[int]]

UNIT_WEIGHT = 10
"""What using one constraint (one label's constraints) costs a step, against one per
premise: a step with one more constraint is dearer than one with up to nine more placed
values as premises, which is how Bogaerts, Gamba, Claes and Guns weigh a step (a
reason costs more than a fact)."""
GROUP_WEIGHTS: Mapping[str, int] = {"connected": 2 * UNIT_WEIGHT}
"""Groups dearer than :data:`UNIT_WEIGHT`: reasoning over every island at once
(connectivity) is harder to see than over one island."""


FIXED_PREMISE_WEIGHT = 1
"""What using an earlier fact that fixes a variable (``r3c1 = 5``) costs a step: a placed
value is read off the grid at a glance."""
RULED_OUT_WEIGHT = 1
"""What a premise costs for each value of its array's it rules out when it leaves
several (``r3c1 is not 5`` one, ``r3c1 is 4 or 7`` seven on a 9x9): a premise says only
what its step needs (:mod:`.explain_engine` widens it), so its cost is what a person
must have noticed about the variable, one ruled-out value at a time. A puzzle whose values
say more declares its own weight beside its terms (:func:`viewpoints.terms.set_terms`)."""

def premise_weight(values: frozenset[int], universe: frozenset[int],
                   ruled_out: int = RULED_OUT_WEIGHT) -> int:
    """What using the fact that a variable takes one of ``values`` (of its array's
    ``universe``) costs: by the values it rules out, or :data:`FIXED_PREMISE_WEIGHT`
    when it fixes the variable and that is cheaper (a placed value is seen whole).

    It is the least total weight of *atoms* that state it (``v = x`` at
    :data:`FIXED_PREMISE_WEIGHT`, ``v is not y`` at ``ruled_out`` each), so the engine's
    lightest set of atoms is a cheapest set of premise facts."""
    cost = ruled_out * len(universe - values)
    return min(FIXED_PREMISE_WEIGHT, cost) if len(values) == 1 else cost


def group_weight(group: str) -> int:
    """What using one constraint of ``group`` costs."""
    return GROUP_WEIGHTS.get(group, UNIT_WEIGHT)


@dataclass(frozen=True, eq=False)
class Unit:
    """The constraints posted under one label: one reason of a step."""

    number: int
    constraints: tuple[Constraint, ...]
    reason: Reason
    visible: tuple[IntVar, ...]
    hidden: tuple[IntVar, ...]

    @cached_property
    def scope(self) -> frozenset[IntVar]:
        return frozenset(self.visible) | frozenset(self.hidden)


class Board:
    """A built model seen as a person sees the puzzle: the named arrays' variables, the
    words for them, the units of constraints."""

    def __init__(self, model: Model, instance: Any, puzzle: str) -> None:
        self.model, self.instance = model, instance
        self.terms: Terms = TERMS.get(puzzle)
        self.ruled_out = RULED_OUT_WEIGHTS.get(puzzle, RULED_OUT_WEIGHT)  # after TERMS.get
        self.array_of: dict[IntVar, VarArray] = {
            variable: array for array in model.arrays.values() for variable in array.variables}
        self.universe: Domains = {}
        for array in model.arrays.values():
            low, high = array.domain()
            values = frozenset(range(low - array.offset, high - array.offset + 1))
            for variable in array.variables:
                self.universe[variable] = values
        self.visible = tuple(self.array_of)
        self.units = self._units()

    def _units(self) -> list[Unit]:
        model = self.model
        gathered: dict[tuple[str, str], list[Constraint]] = {}
        for index, constraint in enumerate(model.constraints):
            group = model.groups.get(index, constraint.kind)
            label = model.labels.get(index, f"{group} ({index + 1})")
            gathered.setdefault((group, label), []).append(constraint)
        for unposted in (*model.after_search, *model.lazy):
            assert isinstance(unposted, Constraint)  # add_lazy takes constraints only
            gathered.setdefault((unposted.kind, unposted.kind), []).append(unposted)
        units = []
        for number, ((group, label), constraints) in enumerate(gathered.items()):
            scope = dict.fromkeys(v for c in constraints for v in c.variables())
            visible = tuple(v for v in scope if v in self.array_of)
            hidden = tuple(v for v in scope if v not in self.array_of)
            reason = Reason(label, group, model.group_descriptions.get(group, ""),
                            group_weight(group), self.cells_of(visible))
            units.append(Unit(number, tuple(constraints), reason, visible, hidden))
        return units

    def premise_cost(self, variable: IntVar, values: frozenset[int]) -> int:
        """What the premise that ``variable`` takes one of ``values`` costs a step."""
        return premise_weight(values, self.universe[variable], self.ruled_out)

    def subject(self, variable: IntVar) -> Subject:
        array = self.array_of[variable]
        return self.terms.subject(self.instance, array.name, array.position(variable))

    def cells_of(self, variables: tuple[IntVar, ...]) -> tuple[Cell, ...]:
        cells = dict.fromkeys(cell for v in variables for cell in self.subject(v).cells)
        return tuple(cells)

    def fact(self, variable: IntVar, values: frozenset[int], removed: frozenset[int],
             premise: bool = False) -> Fact:
        """``variable`` now takes one of ``values`` (model values), ``removed`` ruled out
        (a ``premise`` with one value left is worded by that value alone)."""
        array = self.array_of[variable]
        subject = self.subject(variable)
        puzzle_values = tuple(sorted(value + array.offset for value in values))
        puzzle_removed = tuple(sorted(value + array.offset for value in removed))
        worded = () if premise and len(values) == 1 else puzzle_removed
        text = self.terms.fact(subject, array.name, puzzle_values, worded)
        index = array.position(variable)
        mark = (self.terms.mark(array.name, index, puzzle_values[0])
                if len(puzzle_values) == 1 else "")
        return Fact(text, array.name, index, puzzle_values, puzzle_removed, subject.cells,
                    mark)

    def known(self, variable: IntVar, values: frozenset[int]) -> Fact:
        """What is known of ``variable`` (a premise): every value ruled out so far."""
        return self.fact(variable, values, self.universe[variable] - values, premise=True)

    def settled(self, known: Domains) -> bool:
        """Whether every variable a person sees has one value left in ``known``."""
        return all(len(known[variable]) == 1 for variable in self.visible)

    def start(self) -> Domains:
        """What the model says before any step: the clues' values, every other variable
        free within its array's values."""
        return {variable: frozenset(variable.domain) for variable in self.visible}
