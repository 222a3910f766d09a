"""The model language as a MiniZinc model: one ``.mzn`` file, data inline.

Each variable keeps its model name (made a valid MiniZinc identifier), each constraint
becomes the MiniZinc global that means the same (``alldifferent``, ``inverse``,
``table``, ``regular``, ``global_cardinality``, ``count_eq``, ``diffn``) or a plain
expression (linear sums, reified equalities, clauses), and ``connected`` its flow
decomposition (:mod:`solvers.export.lowering`). The heuristic is the search annotation
(:mod:`solvers.export.minizinc_search`). Each solution prints as one line of JSON, the
model's variables by identifier, which :func:`read_solution` reads back.

>>> from solvers import Model, all_different
>>> model = Model("pair")
>>> x, y = model.int_var(1, 2, "x"), model.int_var(1, 2, "y")
>>> _ = model.add(all_different([x, y], strength="strong"))
>>> text = write(model, "input/max")
>>> print(text[text.index("var "):text.index("output")].strip())
var 1..2: x;
var 1..2: y;
<BLANKLINE>
constraint alldifferent([x, y]) :: domain_propagation;
<BLANKLINE>
solve :: int_search([x, y], input_order, indomain_max) satisfy;
>>> read_solution('{"x": 2, "y": 1}', model) == {x: 2, y: 1}
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from puzzlelab.errors import SolverError, UnsupportedCombination
from solvers.backend_contract import LoweredModel
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
from solvers.export.lowering import lower_for
from solvers.export.minizinc_search import annotation, described, others, refusal
from solvers.export.names import identifiers
from solvers.heuristics import Heuristic, SearchPlan, plan_search
from solvers.model import Model
from solvers.variables import Assignment, IntOrVar, IntVar

SUFFIX = ".mzn"

STRENGTHS = {"weak": "value_propagation", "strong": "domain_propagation",
             "hall": "bounds_propagation"}

Name = Callable[[IntOrVar], str]


def write(model: Model, heuristic: str = "first-fail/min", seed: int = 0) -> str:
    """``model``, searched as ``heuristic``, as the text of one MiniZinc file."""
    parsed = Heuristic.parse(heuristic)
    refused = refusal(parsed)
    if refused:
        raise UnsupportedCombination(f"cannot export heuristic {parsed} to MiniZinc: "
                                     f"{refused}")
    lowering = lower_for(model, NATIVE, "MiniZinc")
    plan = plan_search(model, parsed, seed)
    rest = len(others(plan, lowering.lowered.variables))
    return write_lowered(model, lowering.lowered, plan,
                         [*lowering.notes, described(parsed, plan, seed, rest)])


def write_lowered(model: Model, lowered: LoweredModel, plan: SearchPlan,
                  notes: Sequence[str] = ()) -> str:
    """The MiniZinc file of ``lowered`` (every constraint in :data:`NATIVE`), searched as
    ``plan``, printing ``model``'s variables; ``notes`` head the file as comments."""
    variables = lowered.variables
    names = identifiers(variables)

    def name(term: IntOrVar) -> str:
        return str(term) if isinstance(term, int) else names[term.index]

    notes = list(notes)
    if any(isinstance(c, AllDifferent) and c.strength == "hall" for c in lowered.constraints):
        notes.append("all_different of strength hall (ic_global's) asks for "
                     "bounds_propagation, the nearest MiniZinc annotation")
    lines = [f"% {model.name}: exported by PuzzleLab",
             *(f"% - {note}" for note in notes), "",
             'include "globals.mzn";', ""]
    lines += [f"var {_domain(variable)}: {name(variable)};" for variable in variables]
    lines.append("")
    lines += [POSTERS[type(c)](c, name) for c in lowered.constraints]
    lines.append("")
    search = annotation(plan, variables, name)
    lines.append(f"solve{f' :: {search}' if search else ''} satisfy;")
    lines.append("")
    lines += _output(model.variables, name)
    return "\n".join(lines) + "\n"


def read_solution(line: str, model: Model) -> Assignment:
    """The assignment one printed solution (a line of JSON) gives the model's variables."""
    try:
        values = json.loads(line)
    except json.JSONDecodeError as error:
        raise SolverError(f"MiniZinc printed a solution that is not JSON: {line[:80]!r} "
                          f"({error.msg})") from None
    names = identifiers(model.variables)
    missing = [name for name in names if name not in values]
    if missing:
        raise SolverError(f"MiniZinc's solution lacks {', '.join(missing[:5])}")
    return {variable: int(values[name]) for variable, name in zip(model.variables, names)}


def _domain(variable: IntVar) -> str:
    if variable.is_contiguous:
        return f"{variable.lb}..{variable.ub}"
    return "{" + ", ".join(map(str, variable.domain)) + "}"


def _output(variables: Sequence[IntVar], name: Name) -> list[str]:
    """One JSON object per solution, on one line, the model's own variables only."""
    quote, open_value = '\\"', "\\("
    entries = [f'"{"{" if i == 0 else ", "}{quote}{name(v)}{quote}: {open_value}{name(v)})"'
               for i, v in enumerate(variables)]
    return ["output [", *(f"  {entry}," for entry in entries), '  "}\\n"', "];"]


def _array(terms: Iterable[IntOrVar], name: Name) -> str:
    return "[" + ", ".join(name(term) for term in terms) + "]"


def _sum(terms: Iterable[tuple[int, IntVar]], name: Name) -> str:
    text = " + ".join(name(v) if c == 1 else f"{c}*{name(v)}" for c, v in terms) or "0"
    return text.replace("+ -", "- ")


def _all_different(c: AllDifferent, name: Name) -> str:
    return f"constraint alldifferent({_array(c.items, name)}) :: {STRENGTHS[c.strength]};"


def _inverse(c: Inverse, name: Name) -> str:
    size = len(c.forward)
    return (f"constraint inverse(array1d(0..{size - 1}, {_array(c.forward, name)}), "
            f"array1d(0..{size - 1}, {_array(c.backward, name)}));")


def _linear(c: Linear, name: Name) -> str:
    comparison = "=" if c.comparison == "==" else c.comparison
    return f"constraint {_sum(c.terms, name)} {comparison} {c.rhs};"


def _element(c: Element, name: Name) -> str:
    array = f"array1d(0..{len(c.array) - 1}, {_array(c.array, name)})"
    return f"constraint {name(c.value)} = {array}[{name(c.index)}];"


def _count(c: Count, name: Name) -> str:
    return f"constraint count_eq({_array(c.items, name)}, {c.value}, {name(c.count)});"


def _cardinality(c: GlobalCardinality, name: Name) -> str:
    values = "[" + ", ".join(str(value) for value, _ in c.counts) + "]"
    counts = _array((count for _, count in c.counts), name)
    return f"constraint global_cardinality({_array(c.items, name)}, {values}, {counts});"


def _table(c: Table, name: Name) -> str:
    if not c.allowed:
        return f"constraint false;  % table on {_array(c.items, name)} allows no tuple"
    rows = "\n    | ".join(", ".join(map(str, row)) for row in c.allowed)
    return f"constraint table({_array(c.items, name)}, [|\n      {rows}\n    |]);"


def _regular(c: Regular, name: Name) -> str:
    """MiniZinc's ``regular`` reads states 1..Q and symbols 1..S (state 0 fails): ours are
    renumbered, and the items shifted where the smallest symbol is not 1."""
    states = {state: number for number, state in enumerate(c.states(), start=1)}
    symbols = {s for _, s, _ in c.transitions} | {v for item in c.items for v in item.domain}
    low, high = min(symbols), max(symbols)
    shift = 1 - low
    items = "[" + ", ".join(name(item) if shift == 0 else f"{name(item)} + {shift}"
                            for item in c.items) + "]"
    rows = [", ".join(str(states[target]) if (target := c.next_state(state, s)) is not None
                      else "0" for s in range(low, high + 1)) for state in c.states()]
    table = "[|\n      " + "\n    | ".join(rows) + "\n    |]"
    accepting = "{" + ", ".join(str(states[s]) for s in c.accepting) + "}"
    return (f"constraint regular({items}, {len(states)}, {high - low + 1}, {table}, "
            f"{states[c.initial]}, {accepting});")


def _reified(c: ReifiedEquality, name: Name) -> str:
    return f"constraint {name(c.flag)} = bool2int({name(c.variable)} = {c.value});"


def _clause(c: Clause, name: Name) -> str:
    literals = [f"{name(v)} = 1" for v in c.positive] + [f"{name(v)} = 0" for v in c.negative]
    return "constraint " + r" \/ ".join(literals) + ";"


def _exactly_one(c: ExactlyOne, name: Name) -> str:
    return f"constraint sum({_array(c.items, name)}) = 1;"


def _at_most_one(c: AtMostOne, name: Name) -> str:
    return f"constraint sum({_array(c.items, name)}) <= 1;"


def _no_overlap(c: NoOverlap2D, name: Name) -> str:
    rectangles = c.rectangles
    columns = [_array((getattr(r, side) for r in rectangles), name)
               for side in ("x", "y", "width", "height")]
    return f"constraint diffn({', '.join(columns)});"


#: the constraints MiniZinc states directly, each with the function that writes it
POSTERS: dict[type[Constraint], Callable[[Constraint, Name], str]] = {
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

#: the constraints a MiniZinc file states directly; the rest are decomposed
NATIVE: frozenset[type[Constraint]] = frozenset(POSTERS)
