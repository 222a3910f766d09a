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
from viewpoints.terms import Cell, Subject, Terms

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
"""What using an earlier fact that fixes a variable (``r3c1 = 5``) costs a step."""
OPEN_PREMISE_WEIGHT = 1
"""The least that using an earlier fact that leaves a variable several values (``r3c1 is
not 5``) costs a step."""
WIDE_PREMISE_VALUES = 5
"""An open premise costs one more for each value it leaves below this many: a variable
that has lost a value or two is read off the grid, one narrowed to two or three candidates
is held only with its candidates written down (two values left cost 4, three 3, four 2).
Chosen on the training seeds of results/explain-difficulty, where it ranks puzzles much as
an outside generator's levels do, better than a flat weight."""


def premise_weight(values: frozenset[int]) -> int:
    """What using a variable's known ``values`` as a premise costs: a placed value
    :data:`FIXED_PREMISE_WEIGHT`, candidates the dearer the fewer they are."""
    if len(values) == 1:
        return FIXED_PREMISE_WEIGHT
    return OPEN_PREMISE_WEIGHT + max(0, WIDE_PREMISE_VALUES - len(values))


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

    def __init__(self, model: Model, instance: Any, terms: Terms) -> None:
        self.model, self.instance, self.terms = model, instance, terms
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
