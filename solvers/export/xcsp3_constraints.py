"""Each native constraint as its XCSP3 element, in the forms ACE 2.6 reads.

ACE reads fewer forms than XCSP3 allows (each limit below was met running ACE 2.6),
so some constraints are written with the help of extra variables, which change no
count of solutions (each is fixed by the model's own): ``element`` and ``noOverlap``
take a list of variables or of integers, not both, so a constant among variables
becomes a variable of that one value (``const_*``); where ACE needs a variable
written twice to be two, or a domain to be wider (``channel``) or narrower (an
``element`` index), the constraint takes a copy equal to the variable (``copy_*``).
``cardinality`` with both constant and variable counts becomes two. A table that
allows no tuple (an empty ``<supports>`` stops ACE) becomes a sum that cannot hold,
and an ``allDifferent`` ACE would turn into a table and fail on is that table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import permutations

from solvers.constraints import (
    COMPARISONS,
    AllDifferent,
    AtMostOne,
    Clause,
    Comparison,
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
from solvers.variables import IntOrVar, IntVar

#: XCSP3's name of each comparison
OPERATORS: dict[str, str] = {"==": "eq", "!=": "ne", "<=": "le", ">=": "ge"}


@dataclass
class Context:
    """The names of the exported variables, and the helper variables and constraints
    the writing adds (declared after the model's)."""

    names: list[str]
    helpers: list[str] = field(default_factory=list)
    helper_constraints: list[str] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.taken.update(self.names)

    def name(self, term: IntOrVar) -> str:
        """A variable's id, or a constant's digits."""
        return str(term) if isinstance(term, int) else self.names[term.index]

    def helper(self, stem: str, domain: str) -> str:
        """A new variable ``stem_N`` with ``domain``, declared among the helpers."""
        number = len(self.helpers)
        while f"{stem}_{number}" in self.taken:
            number += 1
        identifier = f"{stem}_{number}"
        self.taken.add(identifier)
        self.helpers.append(f'    <var id="{identifier}"> {domain} </var>')
        return identifier

    def constant(self, value: int) -> str:
        """A variable whose one value is ``value``."""
        return self.helper("const", str(value))

    def copy(self, variable: IntVar, domain: str | None = None) -> str:
        """A variable always equal to ``variable``, declared with ``domain`` (by default
        the variable's own)."""
        identifier = self.helper(f"copy_{self.name(variable)}", domain or domain_text(variable))
        self.helper_constraints.append(
            f"    <intension> eq({identifier},{self.name(variable)}) </intension>")
        return identifier

    def variables_only(self, terms: Sequence[IntOrVar]) -> list[str]:
        """``terms`` as ids; integers become one-value variables unless all are."""
        if all(isinstance(term, int) for term in terms):
            return [str(term) for term in terms]
        return [self.constant(t) if isinstance(t, int) else self.name(t) for t in terms]


def domain_text(variable: IntVar) -> str:
    """An XCSP3 domain: ``lb..ub`` when contiguous, else the values."""
    if variable.is_contiguous and len(variable.domain) > 1:
        return f"{variable.lb}..{variable.ub}"
    return " ".join(map(str, variable.domain))


def _list(ids: Iterable[str]) -> str:
    return " ".join(ids)


def _never(items: Sequence[IntVar], context: Context, why: str) -> str:
    """A constraint that cannot hold: the items' sum below its least value."""
    ids = [context.name(item) for item in items] or [context.constant(0)]
    least = sum(item.lb for item in items)
    return (f"    <sum> <list> {_list(ids)} </list> <condition> (lt,{least}) </condition> "
            f"</sum>  <!-- {why} -->")


def _all_different(c: AllDifferent, context: Context) -> str:
    """``allDifferent``; as a table of its permutations where ACE 2.6 would build that
    table itself and fail (3 or 4 items over as many values, one domain lacking some)."""
    if len(c.items) < 2:
        return ""
    values = sorted({value for item in c.items for value in item.domain})
    if (3 <= len(c.items) <= 4 and len(values) == len(c.items)
            and any(len(item.domain) < len(values) for item in c.items)):
        rows = tuple(row for row in permutations(values)
                     if all(v in item.domain for v, item in zip(row, c.items)))
        return _table(Table(c.items, rows), context).replace(
            "</extension>", "</extension>  <!-- allDifferent -->")
    return f"    <allDifferent> {_list(map(context.name, c.items))} </allDifferent>"


def _inverse(c: Inverse, context: Context) -> str:
    """``channel``, 0-based; ACE 2.6 wants every domain to be all of ``0..n-1``, so a
    variable with fewer values takes part through a copy that has them all."""
    size = len(c.forward)
    full = tuple(range(size))

    def ids(items: Sequence[IntVar]) -> str:
        return _list(context.name(v) if v.domain == full else context.copy(v, f"0..{size - 1}")
                     for v in items)

    return (f'    <channel> <list startIndex="0"> {ids(c.forward)} </list> '
            f'<list startIndex="0"> {ids(c.backward)} </list> </channel>')


def _sum(terms: Sequence[tuple[int, IntVar]], comparison: Comparison, rhs: int,
         context: Context) -> str:
    """``sum(coefficient * variable) <comparison> rhs``; a term times 0 is left out."""
    terms = [(coefficient, v) for coefficient, v in terms if coefficient != 0]
    if not terms:
        holds = COMPARISONS[comparison](0, rhs)
        return "" if holds else _never((), context, f"an empty sum {comparison} {rhs}")
    ids = _list(context.name(v) for _, v in terms)
    coefficients = ""
    if any(coefficient != 1 for coefficient, _ in terms):
        coefficients = f" <coeffs> {_list(str(c) for c, _ in terms)} </coeffs>"
    return (f"    <sum> <list> {ids} </list>{coefficients} <condition> "
            f"({OPERATORS[comparison]},{rhs}) "
            f"</condition> </sum>")


def _linear(c: Linear, context: Context) -> str:
    return _sum(c.terms, c.comparison, c.rhs, context)


def _exactly_one(c: ExactlyOne, context: Context) -> str:
    return _sum([(1, item) for item in c.items], "==", 1, context)


def _at_most_one(c: AtMostOne, context: Context) -> str:
    return _sum([(1, item) for item in c.items], "<=", 1, context)


def _element(c: Element, context: Context) -> str:
    """``element``, 0-based; ACE 2.6 fails on an index that may point outside a list of
    variables, so such an index takes part through a copy without those values."""
    array = _list(context.variables_only(c.array))
    inside = [v for v in c.index.domain if 0 <= v < len(c.array)]
    if not inside:
        return _never((c.index,), context, "an element index that points outside")
    index = (context.name(c.index) if len(inside) == len(c.index.domain)
             else context.copy(c.index, " ".join(map(str, inside))))
    return (f'    <element> <list startIndex="0"> {array} </list> <index> {index} </index> '
            f"<value> {context.name(c.value)} </value> </element>")


def _count(c: Count, context: Context) -> str:
    if not c.items:
        return _sum([(1, c.count)], "==", 0, context) if isinstance(c.count, IntVar) else (
            "" if c.count == 0 else _never((), context, "a count of no items"))
    return (f"    <count> <list> {_list(map(context.name, c.items))} </list> <values> "
            f"{c.value} </values> <condition> (eq,{context.name(c.count)}) </condition> "
            f"</count>")


def _cardinality(c: GlobalCardinality, context: Context) -> str:
    """One ``cardinality`` for the constant counts, one for the variable ones."""
    items = _list(map(context.name, c.items))
    lines = []
    for constant in (True, False):
        pairs = [(v, n) for v, n in c.counts if isinstance(n, int) == constant]
        if pairs:
            lines.append(f"    <cardinality> <list> {items} </list> <values> "
                         f"{_list(str(v) for v, _ in pairs)} </values> <occurs> "
                         f"{_list(context.name(n) for _, n in pairs)} </occurs> "
                         f"</cardinality>")
    return "\n".join(lines)


def _table(c: Table, context: Context) -> str:
    if not c.allowed:
        return _never(c.items, context, "a table that allows no tuple")
    if not c.items:
        return ""
    if len(c.items) == 1:
        rows = " ".join(str(row[0]) for row in c.allowed)
    else:
        rows = "".join("(" + ",".join(map(str, row)) + ")" for row in c.allowed)
    return (f"    <extension> <list> {_list(map(context.name, c.items))} </list> "
            f"<supports> {rows} </supports> </extension>")


def _state(state: int) -> str:
    return f"q{state}" if state >= 0 else f"qm{-state}"


def _regular(c: Regular, context: Context) -> str:
    transitions = "".join(f"({_state(s)},{symbol},{_state(t)})"
                          for s, symbol, t in c.transitions)
    return (f"    <regular> <list> {_list(map(context.name, c.items))} </list> "
            f"<transitions> {transitions} </transitions> <start> {_state(c.initial)} "
            f"</start> <final> {_list(map(_state, c.accepting))} </final> </regular>")


def _reified(c: ReifiedEquality, context: Context) -> str:
    return (f"    <intension> eq({context.name(c.flag)},eq({context.name(c.variable)},"
            f"{c.value})) </intension>")


def _clause(c: Clause, context: Context) -> str:
    literals = ([f"eq({context.name(v)},1)" for v in c.positive]
                + [f"eq({context.name(v)},0)" for v in c.negative])
    text = literals[0] if len(literals) == 1 else f"or({','.join(literals)})"
    return f"    <intension> {text} </intension>"


def _no_overlap(c: NoOverlap2D, context: Context) -> str:
    """Origins and lengths as variables (integer lengths when all are integers); a
    variable met a second time becomes a copy, as ACE needs distinct variables."""
    seen: set[IntVar] = set()

    def distinct(terms: Sequence[IntOrVar], integers_allowed: bool) -> list[str]:
        if integers_allowed and all(isinstance(term, int) for term in terms):
            return [str(term) for term in terms]
        ids = []
        for term in terms:
            if isinstance(term, int):
                ids.append(context.constant(term))
            elif term in seen:
                ids.append(context.copy(term))
            else:
                seen.add(term)
                ids.append(context.name(term))
        return ids

    rectangles = c.rectangles
    if len(rectangles) < 2:
        return ""
    xs = distinct([r.x for r in rectangles], False)
    ys = distinct([r.y for r in rectangles], False)
    lengths = distinct([t for r in rectangles for t in (r.width, r.height)], True)
    origins = "".join(f"({x},{y})" for x, y in zip(xs, ys))
    sizes = "".join(f"({w},{h})" for w, h in zip(lengths[::2], lengths[1::2]))
    return (f"    <noOverlap> <origins> {origins} </origins> <lengths> {sizes} </lengths> "
            f"</noOverlap>")


#: the constraints XCSP3 states directly, each with the function that writes it
POSTERS: dict[type[Constraint], Callable[[Constraint, Context], str]] = {
    AllDifferent: _all_different,  # type: ignore[dict-item]
    Inverse: _inverse,  # type: ignore[dict-item]
    Linear: _linear,  # type: ignore[dict-item]
    Element: _element,  # type: ignore[dict-item]
    Count: _count,  # type: ignore[dict-item]
    GlobalCardinality: _cardinality,  # type: ignore[dict-item]
    Table: _table,  # type: ignore[dict-item]
    Regular: _regular,  # type: ignore[dict-item]
    ReifiedEquality: _reified,  # type: ignore[dict-item]
    Clause: _clause,  # type: ignore[dict-item]
    ExactlyOne: _exactly_one,  # type: ignore[dict-item]
    AtMostOne: _at_most_one,  # type: ignore[dict-item]
    NoOverlap2D: _no_overlap,  # type: ignore[dict-item]
}
