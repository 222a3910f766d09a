"""A step judged by a backend that took no part in explaining: OR-tools' classic CP
solver (``cp``), on a model of the step's constraints alone, over fresh variables that
hold the premises' given domains and every other variable's array's values."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from experiments.reasoning.explain_engine import Found
from experiments.reasoning.explain_units import Board, Unit
from solvers import IntVar, Model, Status, solve
from solvers.builders import clause, equivalent_to_equality
from solvers.constraints import Constraint


def _remapped(item: Any, fresh: dict[IntVar, IntVar]) -> Any:
    """``item`` (a constraint, or a part of one) over the ``fresh`` variables."""
    if isinstance(item, IntVar):
        return fresh[item]
    if isinstance(item, tuple):
        return tuple(_remapped(part, fresh) for part in item)
    if isinstance(item, list):
        return [_remapped(part, fresh) for part in item]
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        changes = {f.name: _remapped(getattr(item, f.name), fresh)
                   for f in dataclasses.fields(item) if f.init}
        return dataclasses.replace(item, **changes)
    return item


def falsifiable(board: Board, units: Sequence[Unit],
                premises: Mapping[IntVar, frozenset[int]], found: Found) -> bool:
    """Whether ``units`` with ``premises`` (each within its domain; other variables
    within their arrays' values) have a solution in which one of ``found``'s facts is
    false (for a contradiction: any solution), by ``cp``."""
    model = Model("step")
    fresh: dict[IntVar, IntVar] = {}
    scope = dict.fromkeys(v for unit in units for c in unit.constraints
                          for v in c.variables())
    scope.update(dict.fromkeys(v for v, _ in found.removed))
    for variable in scope:
        if variable in board.universe:
            values = premises.get(variable, board.universe[variable])
        else:
            values = frozenset(variable.domain)
        fresh[variable] = model.int_var_from_values(values, variable.name)
    constraints: list[Constraint] = [_remapped(c, fresh) for unit in units
                                     for c in unit.constraints]
    for constraint in constraints:
        model.add(constraint)
    if not found.contradiction:
        flags = []
        for variable, removed in found.removed:
            for value in sorted(removed):
                flag = model.bool_var(f"{variable.name}_is_{value}")
                model.add(equivalent_to_equality(flag, fresh[variable], value))
                flags.append(flag)
        model.add(clause(flags))
    result = solve(model, "cp", "first-fail/min", time_limit=60)
    assert result.status in (Status.SOLVED, Status.UNSATISFIABLE), result.status
    return result.status == Status.SOLVED
