"""One constraint filtered exactly: the table of rules by constraint type, and the
generic filter (enumeration, else CP-SAT) for the types without one."""

from __future__ import annotations

from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Connected,
    ConnectedByFlow,
    Constraint,
    Count,
    Element,
    ExactlyOne,
    Inverse,
    Linear,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.filtering.arithmetic import filter_count, filter_element, filter_linear
from solvers.filtering.base import Domains, Filter, Filtered
from solvers.filtering.extensional import filter_regular, filter_table
from solvers.filtering.generic import filter_generic
from solvers.filtering.graph import filter_connected
from solvers.filtering.logic import (
    filter_at_most_one,
    filter_clause,
    filter_exactly_one,
    filter_reified_equality,
)
from solvers.filtering.permutation import filter_all_different, filter_inverse

#: the constraint types with an exact rule of their own; the rest use ``filter_generic``
FILTERS: dict[type[Constraint], Filter] = {
    AllDifferent: filter_all_different,  # type: ignore[dict-item]
    Inverse: filter_inverse,  # type: ignore[dict-item]
    Linear: filter_linear,  # type: ignore[dict-item]
    Element: filter_element,  # type: ignore[dict-item]
    Count: filter_count,  # type: ignore[dict-item]
    Table: filter_table,  # type: ignore[dict-item]
    Regular: filter_regular,  # type: ignore[dict-item]
    ReifiedEquality: filter_reified_equality,  # type: ignore[dict-item]
    Clause: filter_clause,  # type: ignore[dict-item]
    ExactlyOne: filter_exactly_one,  # type: ignore[dict-item]
    AtMostOne: filter_at_most_one,  # type: ignore[dict-item]
    Connected: filter_connected,  # type: ignore[dict-item]
    ConnectedByFlow: filter_connected,  # type: ignore[dict-item]
}


def filter_for(constraint: Constraint) -> Filter:
    """The exact filter of ``constraint``'s type (its own rule, else the generic one)."""
    return FILTERS.get(type(constraint), filter_generic)


def filter_constraint(constraint: Constraint, domains: Domains) -> Filtered:
    """For each variable of ``constraint.variables()``, the values of its domain in some
    assignment within ``domains`` that satisfies the constraint (generalised arc
    consistency); None when no such assignment exists.

    ``domains`` needs an entry for every variable of the scope; an unchanged domain is
    returned as the very frozenset given, so a caller can spot changes by identity.

    >>> from solvers.model import Model
    >>> model = Model()
    >>> x, y, z = (model.int_var(1, 3) for _ in range(3))
    >>> filtered = filter_constraint(AllDifferent((x, y, z)),
    ...                              {x: frozenset({1, 2}), y: frozenset({1, 2}),
    ...                               z: frozenset({1, 2, 3})})
    >>> sorted(filtered[z])
    [3]
    """
    return FILTERS.get(type(constraint), filter_generic)(constraint, domains)
