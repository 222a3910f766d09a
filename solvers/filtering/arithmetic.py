"""Exact filters of ``linear``, ``element`` and ``count``.

An equality is filtered by dynamic programming over the partial sums the domains can
reach (the puzzles' domains and coefficients are small, so the sets stay small); the
inequalities by the best the other terms can do, which each term reaches on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.constraints import Count, Element, Linear
from solvers.filtering.base import Domains, Filtered, has_repeats, kept
from solvers.filtering.generic import filter_generic


def _equal_supports(terms: Sequence[tuple[int, frozenset[int]]], rhs: int
                    ) -> list[set[int]] | None:
    """Forward, the partial sums reachable after each term; backward, those that can still
    end on ``rhs``. A value is supported iff it leads from one such sum to the next."""
    reachable: list[set[int]] = [{0}]
    for coefficient, values in terms:
        steps = {coefficient * value for value in values}
        reachable.append({total + step for total in reachable[-1] for step in steps})
    if rhs not in reachable[-1]:
        return None
    alive = {rhs}
    supports: list[set[int]] = [set() for _ in terms]
    for position in range(len(terms) - 1, -1, -1):
        coefficient, values = terms[position]
        support = supports[position]
        before: set[int] = set()
        for total in reachable[position]:
            for value in values:
                if total + coefficient * value in alive:
                    before.add(total)
                    support.add(value)
        alive = before
    return supports


def _unequal_supports(terms: Sequence[tuple[int, frozenset[int]]], rhs: int
                      ) -> list[set[int]] | None:
    """A sum must avoid ``rhs``: with two terms still free every value has a support (the
    other free term moves the sum off ``rhs``); with one, it loses the value landing on it."""
    free = [p for p, (coefficient, values) in enumerate(terms) if coefficient and len(values) > 1]
    fixed = sum(coefficient * min(values) for coefficient, values in terms
                if not coefficient or len(values) == 1)
    supports = [set(values) for _, values in terms]
    if not free:
        return supports if fixed != rhs else None
    if len(free) == 1:
        coefficient, values = terms[free[0]]
        supports[free[0]] = {value for value in values if fixed + coefficient * value != rhs}
    return supports


def linear_supports(terms: Sequence[tuple[int, frozenset[int]]], comparison: str, rhs: int
                    ) -> list[set[int]] | None:
    """For each term ``(coefficient, domain)``, its values in some solution of
    ``sum(coefficient * value) <comparison> rhs``; None when there is none."""
    if not all(values for _, values in terms):
        return None
    if comparison == "==":
        return _equal_supports(terms, rhs)
    if comparison == "!=":
        return _unequal_supports(terms, rhs)
    sign = 1 if comparison == "<=" else -1  # ">=" is "<=" with every side negated
    least = [min(sign * coefficient * value for value in values) for coefficient, values in terms]
    slack = sign * rhs - sum(least)
    if slack < 0:
        return None
    return [{value for value in values if sign * coefficient * value - low <= slack}
            for (coefficient, values), low in zip(terms, least)]


def filter_linear(constraint: Linear, domains: Domains) -> Filtered:
    """Exact for every comparison (the constraint already merges a variable's terms)."""
    terms = [(coefficient, domains[variable]) for coefficient, variable in constraint.terms]
    supports = linear_supports(terms, constraint.comparison, constraint.rhs)
    if supports is None:
        return None
    return {variable: kept(domains, variable, values)
            for (_, variable), values in zip(constraint.terms, supports)}


def filter_element(constraint: Element, domains: Domains) -> Filtered:
    """An index is supported iff its entry can equal the value; a value iff some supported
    entry can take it. An array variable is free while a supported index points
    elsewhere; when all point at it, it must equal the value."""
    index, value, array = constraint.index, constraint.value, constraint.array
    entries = [entry for entry in array if not isinstance(entry, int)]
    if index is value or index in entries or value in entries:
        return filter_generic(constraint, domains)
    targets = domains[value]
    options = [frozenset((entry,)) if isinstance(entry, int) else domains[entry]
               for entry in array]
    indices = {i for i in domains[index] if 0 <= i < len(array) and not targets.isdisjoint(
        options[i])}
    if not indices:
        return None
    reached = set().union(*(targets & options[i] for i in indices))
    result = {index: kept(domains, index, indices), value: kept(domains, value, reached)}
    for entry in dict.fromkeys(entries):
        if all(array[i] is entry for i in indices):
            result[entry] = kept(domains, entry, domains[entry] & targets)
        else:
            result[entry] = domains[entry]
    return result


def filter_count(constraint: Count, domains: Domains) -> Filtered:
    """With ``must`` items fixed to the value and ``may`` able to take it, a count is
    supported iff it lies in ``must..may``; an undecided item may take the value iff some
    supported count exceeds ``must``, and avoid it iff some count is below ``may``."""
    items, target, count = constraint.items, constraint.value, constraint.count
    if has_repeats(items) or count in items:
        return filter_generic(constraint, domains)
    current = [domains[item] for item in items]
    if not all(current):
        return None
    must = sum(1 for values in current if values == {target})
    may = sum(1 for values in current if target in values)
    counts = frozenset((count,)) if isinstance(count, int) else domains[count]
    possible = {number for number in counts if must <= number <= may}
    if not possible:
        return None
    take, avoid = max(possible) > must, min(possible) < may
    result = {}
    for item, values in zip(items, current):
        if target in values and len(values) > 1 and not (take and avoid):
            values = frozenset((target,)) if take else values - {target}
        result[item] = values
    if not isinstance(count, int):
        result[count] = kept(domains, count, possible)
    return result
