"""Exact filters of the Boolean constraints: reified equality, clause, exactly-one and
at-most-one, each a direct rule on which literals can still be true."""

from __future__ import annotations

from solvers.constraints import AtMostOne, Clause, ExactlyOne, ReifiedEquality
from solvers.filtering.arithmetic import linear_supports
from solvers.filtering.base import Domains, Filtered, has_repeats, kept
from solvers.filtering.generic import filter_generic
from solvers.variables import IntVar

_TRUE, _FALSE = frozenset((1,)), frozenset((0,))


def filter_reified_equality(constraint: ReifiedEquality, domains: Domains) -> Filtered:
    """The flag can be 1 iff the variable can take the value, 0 iff it can take another;
    the variable keeps the value iff the flag can be 1, the others iff it can be 0."""
    flag, variable, value = constraint.flag, constraint.variable, constraint.value
    if flag is variable:
        return filter_generic(constraint, domains)
    flags, values = domains[flag], domains[variable]
    equal = 1 in flags and value in values
    other = values - {value} if 0 in flags else frozenset()
    if not equal and not other:
        return None
    truths = ({1} if equal else set()) | ({0} if other else set())
    return {flag: kept(domains, flag, truths),
            variable: kept(domains, variable, (other | {value}) if equal else other)}


def filter_clause(constraint: Clause, domains: Domains) -> Filtered:
    """A clause prunes only when exactly one of its literals can still be true: that
    literal must be. Literals are counted once each (a variable may be listed twice)."""
    able = {(variable, truth) for variables, truth in ((constraint.positive, 1),
                                                       (constraint.negative, 0))
            for variable in variables if truth in domains[variable]}
    if not able:
        return None
    result = {variable: domains[variable] for variable in constraint.variables()}
    if not all(result.values()):
        return None
    if len(able) == 1:
        variable, truth = next(iter(able))
        result[variable] = _TRUE if truth else _FALSE
    return result


def _sum_of_booleans(items: tuple[IntVar, ...], domains: Domains, comparison: str
                     ) -> Filtered:
    """``sum(items) <comparison> 1`` with a variable's repeats as its coefficient."""
    scope = tuple(dict.fromkeys(items))
    supports = linear_supports([(items.count(item), domains[item]) for item in scope],
                               comparison, 1)
    if supports is None:
        return None
    return {item: kept(domains, item, values) for item, values in zip(scope, supports)}


def filter_exactly_one(constraint: ExactlyOne, domains: Domains) -> Filtered:
    """Two items fixed to 1, or none able to be 1, fail; one fixed to 1 sets the others
    to 0; a single item able to be 1 must be 1."""
    items = constraint.items
    if has_repeats(items):
        return _sum_of_booleans(items, domains, "==")
    current = [domains[item] for item in items]
    able = [position for position, values in enumerate(current) if 1 in values]
    fixed = [position for position in able if len(current[position]) == 1]
    if len(fixed) > 1 or not able or not all(current):
        return None
    result = dict(zip(items, current))
    if fixed:
        for position in able:
            if position != fixed[0]:
                result[items[position]] = _FALSE
    elif len(able) == 1:
        result[items[able[0]]] = _TRUE
    return result


def filter_at_most_one(constraint: AtMostOne, domains: Domains) -> Filtered:
    """Two items fixed to 1 fail; one fixed to 1 sets the others to 0."""
    items = constraint.items
    if has_repeats(items):
        return _sum_of_booleans(items, domains, "<=")
    current = [domains[item] for item in items]
    fixed = [position for position, values in enumerate(current) if values == _TRUE]
    if len(fixed) > 1 or not all(current):
        return None
    result = dict(zip(items, current))
    if fixed:
        for position, values in enumerate(current):
            if position != fixed[0] and 1 in values:
                result[items[position]] = _FALSE
    return result
