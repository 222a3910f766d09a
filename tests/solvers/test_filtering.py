"""Exact filtering equals brute force: for random tiny constraints and domains, the
values kept are exactly those some satisfying assignment (by ``holds``) uses."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence

import pytest

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
    GlobalCardinality,
    Inverse,
    Linear,
    NoOverlap2D,
    Rectangle,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.filtering import FILTERS, FilteringTimeout, filter_conjunction, filter_constraint
from solvers.filtering.generic import filter_by_enumeration, filter_by_solver
from solvers.model import Model
from solvers.variables import IntVar

Domains = dict[IntVar, frozenset[int]]
Maker = Callable[[random.Random, Model], Constraint]


def brute_force(constraints: Sequence[Constraint], domains: Domains) -> Domains | None:
    """The supported values by trying every assignment of the scopes' variables."""
    scope = list(dict.fromkeys(v for c in constraints for v in c.variables()))
    supports: dict[IntVar, set[int]] = {v: set() for v in scope}
    found = False
    for values in itertools.product(*(sorted(domains[v]) for v in scope)):
        assignment = dict(zip(scope, values))
        if all(c.holds(assignment) for c in constraints):
            found = True
            for variable, value in assignment.items():
                supports[variable].add(value)
    return {v: frozenset(s) for v, s in supports.items()} if found else None


def random_domains(rng: random.Random, variables: Sequence[IntVar]) -> Domains:
    """Each variable's domain cut to 1-4 of its values."""
    return {v: frozenset(rng.sample(v.domain, rng.randint(1, min(4, len(v.domain)))))
            for v in variables}


def _pick(rng: random.Random, pool: list[IntVar], low: int, high: int) -> tuple[IntVar, ...]:
    return tuple(rng.sample(pool, rng.randint(low, min(high, len(pool)))))


def _ints(model: Model, count: int, low: int = 0, high: int = 4) -> list[IntVar]:
    return [model.int_var(low, high) for _ in range(count)]


def _bools(model: Model, count: int) -> list[IntVar]:
    return [model.bool_var() for _ in range(count)]


def make_all_different(rng: random.Random, model: Model) -> Constraint:
    return AllDifferent(_pick(rng, _ints(model, 5, 0, rng.randint(2, 5)), 1, 5),
                        rng.choice(["weak", "strong"]))


def make_inverse(rng: random.Random, model: Model) -> Constraint:
    size = rng.randint(1, 4)
    return Inverse(tuple(_ints(model, size, 0, size - 1)), tuple(_ints(model, size, 0, size - 1)))


def make_linear(rng: random.Random, model: Model) -> Constraint:
    items = _ints(model, rng.randint(1, 4), -1, 3)
    terms = tuple((rng.randint(-3, 3), item) for item in items)
    return Linear(terms, rng.choice(["==", "!=", "<=", ">="]), rng.randint(-4, 8))


def make_element(rng: random.Random, model: Model) -> Constraint:
    pool = _ints(model, 2, 0, 3)
    array = tuple(rng.choice([rng.randint(0, 3), *pool]) for _ in range(rng.randint(1, 4)))
    return Element(array, model.int_var(-1, 4), model.int_var(0, 3))


def make_count(rng: random.Random, model: Model) -> Constraint:
    items = tuple(_ints(model, rng.randint(1, 4), 0, 2))
    occurrences = rng.choice([rng.randint(0, 3), model.int_var(0, 4)])
    return Count(items, rng.randint(0, 2), occurrences)


def make_cardinality(rng: random.Random, model: Model) -> Constraint:
    items = tuple(_ints(model, rng.randint(1, 4), 0, 2))
    counts = tuple((value, rng.choice([rng.randint(0, 2), model.int_var(0, 3)]))
                   for value in rng.sample(range(3), rng.randint(1, 2)))
    return GlobalCardinality(items, counts)


def make_table(rng: random.Random, model: Model) -> Constraint:
    pool = _ints(model, 3, 0, 3)
    items = tuple(rng.choice(pool) for _ in range(rng.randint(1, 3)))  # repeats allowed
    rows = {tuple(rng.randint(0, 3) for _ in items) for _ in range(rng.randint(0, 8))}
    return Table(items, tuple(sorted(rows)))


def make_regular(rng: random.Random, model: Model) -> Constraint:
    pool = _ints(model, 4, 0, 2)
    size = rng.randint(1, 5)
    items = (tuple(rng.choice(pool) for _ in range(size)) if rng.random() < 0.2
             else tuple(_ints(model, size, 0, 2)))
    transitions = {(state, symbol): rng.randint(0, 3)
                   for state in range(4) for symbol in range(3) if rng.random() < 0.6}
    return Regular(items, tuple((s, a, t) for (s, a), t in transitions.items()), 0,
                   tuple(rng.sample(range(4), rng.randint(1, 2))))


def make_reified(rng: random.Random, model: Model) -> Constraint:
    flag = model.bool_var()
    variable = flag if rng.random() < 0.1 else model.int_var(0, 3)
    return ReifiedEquality(flag, variable, rng.randint(0, 3))


def make_clause(rng: random.Random, model: Model) -> Constraint:
    pool = _bools(model, 3)
    positive = tuple(rng.choice(pool) for _ in range(rng.randint(0, 3)))
    negative = tuple(rng.choice(pool) for _ in range(rng.randint(0 if positive else 1, 2)))
    return Clause(positive, negative)


def make_exactly_one(rng: random.Random, model: Model) -> Constraint:
    pool = _bools(model, 4)
    return ExactlyOne(tuple(rng.choice(pool) for _ in range(rng.randint(1, 4))))


def make_at_most_one(rng: random.Random, model: Model) -> Constraint:
    pool = _bools(model, 4)
    return AtMostOne(tuple(rng.choice(pool) for _ in range(rng.randint(1, 4))))


def make_no_overlap(rng: random.Random, model: Model) -> Constraint:
    rectangles = tuple(Rectangle(model.int_var(0, 3), model.int_var(0, 2),
                                 rng.choice([1, 2, model.int_var(1, 2)]), rng.randint(1, 2))
                       for _ in range(rng.randint(1, 3)))
    return NoOverlap2D(rectangles)


def make_connected(rng: random.Random, model: Model) -> Constraint:
    nodes = tuple(range(rng.randint(1, 5)))
    weights = _ints(model, 5, 0, 2)
    edges = tuple((rng.choice(nodes), rng.choice(nodes), rng.choice(weights))
                  for _ in range(rng.randint(0, 7)))
    return rng.choice([Connected, ConnectedByFlow])(nodes, edges)


MAKERS: dict[str, Maker] = {
    "all-different": make_all_different, "inverse": make_inverse, "linear": make_linear,
    "element": make_element, "count": make_count, "global-cardinality": make_cardinality,
    "table": make_table, "regular": make_regular, "reified-equality": make_reified,
    "clause": make_clause, "exactly-one": make_exactly_one, "at-most-one": make_at_most_one,
    "no-overlap-2d": make_no_overlap, "connected": make_connected,
}


def test_every_constraint_type_has_a_maker() -> None:
    from solvers.constraints import CONSTRAINT_TYPES

    made = {type(maker(random.Random(seed), Model())) for maker in MAKERS.values()
            for seed in range(20)}
    assert set(CONSTRAINT_TYPES) <= made


@pytest.mark.parametrize("kind", MAKERS)
def test_a_constraint_keeps_exactly_the_supported_values(kind: str) -> None:
    rng = random.Random(kind)
    outcomes = set()
    for _ in range(150):
        constraint = MAKERS[kind](rng, Model())
        domains = random_domains(rng, constraint.variables())
        expected = brute_force([constraint], domains)
        assert filter_constraint(constraint, domains) == expected, (constraint, domains)
        outcomes.add(expected is None)
    assert outcomes == {True, False}  # both failures and pruning were met


@pytest.mark.parametrize("kind", ["all-different", "linear", "global-cardinality",
                                  "no-overlap-2d", "connected", "inverse"])
def test_the_cpsat_support_search_agrees_with_enumeration(kind: str) -> None:
    rng = random.Random(f"cpsat-{kind}")
    for _ in range(8):
        constraint = MAKERS[kind](rng, Model())
        domains = random_domains(rng, constraint.variables())
        expected = filter_by_enumeration([constraint], domains)
        assert expected == brute_force([constraint], domains)
        assert filter_by_solver([constraint], domains) == expected, (constraint, domains)


def _shared_constraint(rng: random.Random, pool: list[IntVar]) -> Constraint:
    """A random constraint over variables of ``pool`` (integers 0..3)."""
    kind = rng.choice(["all-different", "linear", "table", "regular", "element", "count",
                       "cardinality"])
    items = _pick(rng, pool, 2, 4)
    if kind == "all-different":
        return AllDifferent(items)
    if kind == "linear":
        return Linear(tuple((rng.randint(-2, 2), v) for v in items),
                      rng.choice(["==", "!=", "<=", ">="]), rng.randint(-2, 6))
    if kind == "table":
        rows = {tuple(rng.randint(0, 3) for _ in items) for _ in range(rng.randint(1, 10))}
        return Table(items, tuple(rows))
    if kind == "regular":
        arcs = tuple((s, a, rng.randint(0, 2)) for s in range(3) for a in range(4)
                     if rng.random() < 0.7)
        return Regular(items, arcs, 0, (rng.randint(0, 2),))
    if kind == "element":
        return Element((*items[2:], 1, 3), items[0], items[1])
    if kind == "count":
        return Count(items[1:], rng.randint(0, 3), items[0])
    return GlobalCardinality(items, ((rng.randint(0, 3), rng.randint(0, 2)),))


def test_a_conjunction_keeps_exactly_the_values_of_its_solutions() -> None:
    rng = random.Random(7)
    outcomes = set()
    stronger = 0
    for _ in range(250):
        model = Model()
        pool = _ints(model, 5, 0, 3)
        constraints = [_shared_constraint(rng, pool) for _ in range(rng.randint(2, 3))]
        domains = random_domains(rng, pool)
        expected = brute_force(constraints, domains)
        filtered = filter_conjunction(constraints, domains)
        assert filtered == expected, (constraints, domains)
        outcomes.add(expected is None)
        if filtered is not None:  # exact beats the fixpoint of the single filters
            single = [filter_constraint(c, domains) for c in constraints]
            stronger += any(s is None or any(s[v] != filtered[v] for v in s) for s in single)
    assert outcomes == {True, False} and stronger


def test_a_conjunction_with_hidden_auxiliaries_and_the_solver_route() -> None:
    rng = random.Random(11)
    for _ in range(20):
        model = Model()
        pool = _ints(model, 4, 0, 3)
        hidden = model.int_var(0, 6)
        constraints = [Linear(((1, pool[0]), (1, pool[1]), (-1, hidden)), "==", 0),
                       _shared_constraint(rng, pool), _shared_constraint(rng, [*pool, hidden])]
        domains = random_domains(rng, [*pool, hidden])
        expected = brute_force(constraints, domains)
        assert filter_conjunction(constraints, domains) == expected
        assert filter_by_solver(constraints, domains) == expected


def test_a_large_constraint_without_a_rule_goes_to_cpsat() -> None:
    model = Model()
    items = _ints(model, 9, 0, 8)
    assert GlobalCardinality not in FILTERS
    gcc = GlobalCardinality(tuple(items), tuple((value, 1) for value in range(9)))
    domains = {item: frozenset(range(9)) for item in items}
    domains[items[0]] = frozenset({0})
    filtered = filter_conjunction([gcc, AllDifferent(tuple(items[:2]))], domains)
    assert filtered is not None
    assert filtered[items[1]] == frozenset(range(1, 9)) and filtered[items[0]] == {0}


def test_a_deadline_in_the_past_raises() -> None:
    model = Model()
    items = _ints(model, 6, 0, 5)
    domains = {item: frozenset(range(6)) for item in items}
    constraints = [AllDifferent(tuple(items)), Linear(((1, items[0]), (1, items[1])), "<=", 4)]
    past = time.perf_counter() - 1
    with pytest.raises(FilteringTimeout):
        filter_conjunction(constraints, domains, deadline=past)
    with pytest.raises(FilteringTimeout):
        filter_by_solver(constraints, domains, deadline=past)
    assert filter_conjunction(constraints, domains, deadline=time.perf_counter() + 60)


def test_domains_may_hold_values_beyond_a_variables_own() -> None:
    # an explanation frees a clue's cell to every value of its array: ones then zeros,
    # over a first cell whose own domain is the clue {1}, still sees the word 0 0
    model = Model("freed")
    first, second = model.int_var(1, 1, "first"), model.int_var(0, 1, "second")
    ones_then_zeros = Regular((first, second), ((0, 1, 0), (0, 0, 1), (1, 0, 1)), 0, (0, 1))
    freed = {first: frozenset({0, 1}), second: frozenset({0, 1})}
    assert filter_constraint(ones_then_zeros, freed) == brute_force([ones_then_zeros], freed)
    assert filter_constraint(ones_then_zeros, freed)[first] == {0, 1}
