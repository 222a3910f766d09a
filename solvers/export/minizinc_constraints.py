"""Each constraint of the model language as MiniZinc writes it, on the names and values
of :class:`~solvers.export.minizinc_terms.Terms` (slices of named arrays, the puzzle's
own values), with the global's library file a model includes to use it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solvers.constraints import (
    AllDifferent,
    AtMostOne,
    Clause,
    Constraint,
    Count,
    Element,
    ExactlyOne,
    GlobalCardinality,
    Inverse,
    Linear,
    NoOverlap2D,
    Regular,
    ReifiedEquality,
    Table,
)
from solvers.export.minizinc_terms import Items, Terms
from solvers.variables import IntOrVar

STRENGTHS = {"weak": "value_propagation", "strong": "domain_propagation",
             "hall": "bounds_propagation"}


def _list(values: Iterable[object]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _indexed(items: Items, start: int, size: int) -> str:
    """A 1-d array of ``items`` whose indices start at ``start``."""
    flat = items.flat()
    return flat if start == 1 else f"array1d({start}..{start + size - 1}, {flat})"


def _all_different(c: AllDifferent, terms: Terms) -> str:
    return f"alldifferent({terms.items(c.items).text}) :: {STRENGTHS[c.strength]}"


def _inverse(c: Inverse, terms: Terms) -> str:
    """``forward[i] = j`` exactly when ``backward[j] = i``, 0-based in the model: in the
    file each array's indices start at the other's offset, so the values stay its own."""
    size = len(c.forward)
    forward, backward = terms.items(c.forward), terms.items(c.backward)
    if forward.offset is None or backward.offset is None:
        forward, backward = (Items(_list(terms.model_value(t) for t in side), 0)
                             for side in (c.forward, c.backward))
    assert forward.offset is not None and backward.offset is not None  # set just above
    return (f"inverse({_indexed(forward, backward.offset, size)}, "
            f"{_indexed(backward, forward.offset, size)})")


def _linear(c: Linear, terms: Terms) -> str:
    rhs = c.rhs + sum(coefficient * terms.offset(v) for coefficient, v in c.terms)
    text = " + ".join(terms.ref(v) if k == 1 else f"{k}*{terms.ref(v)}"
                      for k, v in c.terms) or "0"
    comparison = "=" if c.comparison == "==" else c.comparison
    return f"{text.replace('+ -', '- ')} {comparison} {rhs}"


def _element(c: Element, terms: Terms) -> str:
    """``value = array[index]``, 0-based in the model: in the file the array is indexed
    from the index's own first value, and its constants are in the value's values."""
    start, shift = terms.offset(c.index), terms.offset(c.value)
    constants = [t for t in c.array if isinstance(t, int)]
    if len(constants) == len(c.array):
        items = _list(t + shift for t in constants)
        array = items if start == 1 else f"array1d({start}..{start + len(c.array) - 1}, {items})"
        return f"{terms.ref(c.value)} = {array}[{terms.ref(c.index)}]"
    array = f"array1d(0..{len(c.array) - 1}, {_list(terms.model_value(t) for t in c.array)})"
    return f"{terms.model_value(c.value)} = {array}[{terms.model_value(c.index)}]"


def _count(c: Count, terms: Terms) -> str:
    items = terms.items(c.items)
    return (f"count_eq({items.flat()}, {c.value + (items.offset or 0)}, "
            f"{terms.model_value(c.count)})")


def _cardinality(c: GlobalCardinality, terms: Terms) -> str:
    items = terms.items(c.items)
    values = _list(value + (items.offset or 0) for value, _ in c.counts)
    counts = _list(terms.model_value(count) for _, count in c.counts)
    return f"global_cardinality({items.flat()}, {values}, {counts})"


def _table(c: Table, terms: Terms) -> str:
    items = terms.items(c.items)
    if not c.allowed:
        return f"false  % table on {items.flat()} allows no tuple"
    shift = items.offset or 0
    rows = "\n    | ".join(", ".join(str(v + shift) for v in row) for row in c.allowed)
    return f"table({items.flat()}, [|\n      {rows}\n    |])"


def _regular(c: Regular, terms: Terms) -> str:
    """MiniZinc's ``regular`` reads states 1..Q and symbols 1..S (state 0 fails): ours are
    renumbered, and the items shifted where the smallest symbol is not 1."""
    states = {state: number for number, state in enumerate(c.states(), start=1)}
    symbols = {s for _, s, _ in c.transitions} | {v for item in c.items for v in item.domain}
    low, high = min(symbols), max(symbols)
    shift = 1 - low
    items = terms.items(c.items)
    if items.offset is not None and items.offset == shift:
        sequence = items.flat()
    else:
        sequence = _list(_plus(terms.model_value(i), shift) for i in c.items)
    rows = [", ".join(str(states[target]) if (target := c.next_state(state, s)) is not None
                      else "0" for s in range(low, high + 1)) for state in c.states()]
    table = "[|\n      " + "\n    | ".join(rows) + "\n    |]"
    accepting = "{" + ", ".join(str(states[s]) for s in c.accepting) + "}"
    return (f"regular({sequence}, {len(states)}, {high - low + 1}, {table}, "
            f"{states[c.initial]}, {accepting})")


def _plus(expression: str, shift: int) -> str:
    return expression if shift == 0 else f"{expression} + {shift}"


def _reified(c: ReifiedEquality, terms: Terms) -> str:
    value = c.value + terms.offset(c.variable)
    return f"{terms.model_value(c.flag)} = bool2int({terms.ref(c.variable)} = {value})"


def _clause(c: Clause, terms: Terms) -> str:
    literals = ([f"{terms.model_value(v)} = 1" for v in c.positive]
                + [f"{terms.model_value(v)} = 0" for v in c.negative])
    return r" \/ ".join(literals)


def _ones(items: Iterable[IntOrVar], terms: Terms, comparison: str) -> str:
    listed = terms.items(items)
    text = listed.text if listed.offset == 0 else _list(terms.model_value(t) for t in items)
    return f"sum({text}) {comparison} 1"


def _exactly_one(c: ExactlyOne, terms: Terms) -> str:
    return _ones(c.items, terms, "=")


def _at_most_one(c: AtMostOne, terms: Terms) -> str:
    return _ones(c.items, terms, "<=")


def _no_overlap(c: NoOverlap2D, terms: Terms) -> str:
    """Where all x (or all y) share an offset they are written as they are: moving every
    rectangle alike moves no overlap."""
    columns = []
    for side in ("x", "y", "width", "height"):
        values = [getattr(r, side) for r in c.rectangles]
        items = terms.items(values)
        shifting = side in ("x", "y") and items.offset is not None
        columns.append(items.flat() if shifting or items.offset == 0
                       else _list(terms.model_value(v) for v in values))
    return f"diffn({', '.join(columns)})"


Poster = Callable[[Constraint, Terms], str]

#: the constraints MiniZinc states directly: how each is written, and the library file
#: of the global it uses (None: plain expressions)
POSTERS: dict[type[Constraint], tuple[Poster, str | None]] = {
    AllDifferent: (_all_different, "alldifferent"),  # type: ignore[dict-item]
    Inverse: (_inverse, "inverse"),  # type: ignore[dict-item]
    Linear: (_linear, None),  # type: ignore[dict-item]
    Element: (_element, None),  # type: ignore[dict-item]
    Count: (_count, "count_eq"),  # type: ignore[dict-item]
    GlobalCardinality: (_cardinality, "global_cardinality"),  # type: ignore[dict-item]
    Table: (_table, "table"),  # type: ignore[dict-item]
    Regular: (_regular, "regular"),  # type: ignore[dict-item]
    ReifiedEquality: (_reified, None),  # type: ignore[dict-item]
    Clause: (_clause, None),  # type: ignore[dict-item]
    ExactlyOne: (_exactly_one, None),  # type: ignore[dict-item]
    AtMostOne: (_at_most_one, None),  # type: ignore[dict-item]
    NoOverlap2D: (_no_overlap, "diffn"),  # type: ignore[dict-item]
}
