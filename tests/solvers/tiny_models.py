"""Tiny models, one per constraint type, whose solutions can be counted by brute force."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from solvers import (
    Model,
    Rectangle,
    all_different,
    at_most_one,
    clause,
    connected,
    count,
    element,
    equivalent_to_equality,
    exactly_one,
    global_cardinality,
    inverse,
    linear,
    no_overlap_2d,
    regular,
    table,
)


def _all_different(strength: str) -> Model:
    model = Model(f"all-different-{strength}")
    items = [model.int_var(0, 2, f"x{i}") for i in range(3)] + [model.int_var(1, 3, "y")]
    model.add(all_different(items, strength))  # type: ignore[arg-type]
    return model


def _inverse() -> Model:
    model = Model("inverse")
    forward = [model.int_var(0, 2, f"f{i}") for i in range(3)]
    backward = [model.int_var(0, 2, f"b{i}") for i in range(3)]
    model.add(inverse(forward, backward))
    return model


def _linear() -> Model:
    model = Model("linear")
    x, y, z = (model.int_var(-1, 3, n) for n in "xyz")
    model.add(linear([(2, x), (-1, y), (1, z)], "==", 3))
    model.add(linear([(1, x), (1, y)], "<=", 3))
    model.add(linear([(1, y), (3, z)], ">=", 1))
    model.add(linear([(1, x), (-1, z)], "!=", 0))
    return model


def _plain_sums() -> Model:
    model = Model("plain-sums")
    items = [model.int_var(0, 3, f"x{i}") for i in range(3)]
    model.add(linear([(1, v) for v in items], "==", 5))
    model.add(linear([(1, items[0]), (1, items[1])], ">=", 2))
    model.add(linear([(1, items[1]), (1, items[2])], "<=", 4))
    return model


def _element() -> Model:
    model = Model("element")
    index = model.int_var(-1, 3, "index")
    value = model.int_var(0, 4, "value")
    free = model.int_var(0, 2, "free")
    model.add(element([3, free, 1, 4], index, value))
    return model


def _count() -> Model:
    model = Model("count")
    items = [model.int_var(0, 2, f"x{i}") for i in range(4)]
    occurrences = model.int_var(0, 4, "n")
    model.add(count(items, 1, occurrences))
    model.add(count(items[:2], 2, 1))
    return model


def _cardinality() -> Model:
    model = Model("global-cardinality")
    items = [model.int_var(0, 2, f"x{i}") for i in range(4)]
    model.add(global_cardinality(items, {0: 1, 2: model.int_var(1, 2, "twos")}))
    return model


def _table() -> Model:
    model = Model("table")
    items = [model.int_var(0, 2, f"x{i}") for i in range(3)]
    model.add(table(items, [(0, 1, 2), (2, 2, 2), (1, 0, 0), (0, 0, 3)]))
    return model


def _regular() -> Model:
    """Words over {0, 1} of length 5 whose 1s form exactly one block of length 2."""
    model = Model("regular")
    items = [model.int_var(0, 1, f"x{i}") for i in range(5)]
    transitions = [(0, 0, 0), (0, 1, 1), (1, 1, 2), (2, 0, 3), (3, 0, 3)]
    model.add(regular(items, transitions, 0, [2, 3]))
    return model


def _logic() -> Model:
    model = Model("logic")
    x = model.int_var(0, 3, "x")
    flags = [model.bool_var(f"b{i}") for i in range(4)]
    model.add(equivalent_to_equality(flags[0], x, 2))
    model.add(clause([flags[1], flags[2]], [flags[0]]))
    model.add(exactly_one(flags[1:]))
    model.add(at_most_one([flags[0], flags[3]]))
    return model


def _no_overlap() -> Model:
    model = Model("no-overlap-2d")
    rectangles = [
        Rectangle(model.int_var(0, 2, "x0"), model.int_var(0, 1, "y0"), 2, 1),
        Rectangle(model.int_var(0, 2, "x1"), model.int_var(0, 1, "y1"),
                  model.int_var(1, 2, "w1"), 1),
        Rectangle(model.int_var(0, 3, "x2"), 0, 1, model.int_var(1, 2, "h2")),
    ]
    model.add(no_overlap_2d(rectangles))
    return model


def _connected() -> Model:
    """A 4-cycle plus a chord, each edge weighted 0..2; weights sum to at most 4."""
    model = Model("connected")
    pairs = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")]
    weights = [model.int_var(0, 2, f"w_{u}{v}") for u, v in pairs]
    model.add(connected("abcd", [(u, v, w) for (u, v), w in zip(pairs, weights)]))
    model.add(linear([(1, w) for w in weights], "<=", 4))
    return model


def _connected_with_a_loop() -> Model:
    """A path a-b-c whose weights may be 0 or 1, and a loop on b that must not count."""
    model = Model("connected-loop")
    pairs = [("a", "b"), ("b", "c"), ("b", "b")]
    weights = [model.int_var(0, 1, f"w_{u}{v}") for u, v in pairs]
    model.add(connected("abc", [(u, v, w) for (u, v), w in zip(pairs, weights)]))
    return model


def _constant(holds: bool) -> Model:
    """A constraint on no variable (what an empty sum becomes), true or false."""
    model = Model(f"constant-{holds}")
    model.int_var(0, 2, "x")
    model.add(linear([], "==", 0 if holds else 1))
    return model


def _booleans() -> Model:
    """Every constraint type the automata backend takes, on 0/1 variables only."""
    model = Model("booleans")
    x = [model.bool_var(f"x{i}") for i in range(7)]
    fixed = model.int_var(1, 1, "one")
    model.add(clause(positive=(x[0], x[1]), negative=(x[2],)))
    model.add(exactly_one(x[1:4]))
    model.add(at_most_one([x[3], x[4], x[5]]))
    model.add(linear([(2, x[0]), (-1, x[4]), (3, x[5]), (1, fixed)], "<=", 4))
    model.add(linear([(1, x[1]), (1, x[6])], "!=", 1))
    model.add(linear([(1, x[0]), (1, x[2]), (1, x[6])], ">=", 1))
    model.add(table([x[4], x[5], x[6]], [(0, 0, 0), (1, 0, 1), (0, 1, 1), (1, 1, 0)]))
    model.add(equivalent_to_equality(x[2], x[6], 0))
    model.add(regular([x[0], x[2], x[4]], [(0, 0, 0), (0, 1, 1), (1, 0, 0)], 0, [0, 1]))
    return model


def _unsatisfiable() -> Model:
    model = Model("pigeons")
    items = [model.int_var(0, 2, f"p{i}") for i in range(4)]
    model.add(all_different(items))
    return model


TINY_MODELS: dict[str, Callable[[], Model]] = {
    "all-different-weak": lambda: _all_different("weak"),
    "all-different-strong": lambda: _all_different("strong"),
    "inverse": _inverse,
    "linear": _linear,
    "plain-sums": _plain_sums,
    "element": _element,
    "count": _count,
    "global-cardinality": _cardinality,
    "table": _table,
    "regular": _regular,
    "logic": _logic,
    "no-overlap-2d": _no_overlap,
    "connected": _connected,
    "connected-with-a-loop": _connected_with_a_loop,
    "constant-true": lambda: _constant(True),
    "constant-false": lambda: _constant(False),
    "unsatisfiable": _unsatisfiable,
    "booleans": _booleans,
}


def brute_force_count(model: Model) -> int:
    """Number of full assignments that satisfy every constraint's meaning."""
    domains = [variable.domain for variable in model.variables]
    return sum(
        model.satisfied_by(dict(zip(model.variables, values)))
        for values in itertools.product(*domains))
