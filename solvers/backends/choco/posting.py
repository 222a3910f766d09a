"""How each of our constraints is posted on Choco, one poster per constraint type.

The posters go through pychoco's low-level calls (``pychoco.backend``) on a
:class:`ChocoModel`, which records every Java handle it makes and frees them all at
the end. pychoco's own factories make a Java array for each call and never free its
handle, which keeps the whole model alive in Choco's heap: about half a megabyte a
channeled Sudoku, gigabytes over a campaign in one worker process.

Choco reports a bad argument (an empty array, a value out of its range) by ending the
process from its native image, not by an exception Python could catch, so every
poster settles the edge cases (no items, constants) in Python first.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

from puzzlelab.errors import UnsupportedCombination
from solvers.constraints import (
    COMPARISONS,
    AllDifferent,
    AtMostOne,
    Clause,
    Connected,
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

#: the largest magnitude of a value Choco takes (``IntVar.MAX_INT_BOUND``, 2^31 / 100)
CHOCO_BOUND = 21_474_836
#: the largest symbol code Choco's finite automata read
AUTOMATON_SYMBOLS = 65_535
#: Choco's names of our all_different strengths: value-based, and arc consistency
ALL_DIFFERENT = {"weak": "FC", "strong": "AC"}
OPERATORS = {"==": "=", "!=": "!=", "<=": "<=", ">=": ">="}


class ChocoModel:
    """A Choco model and the Java handles made for it, freed together by :meth:`free`."""

    def __init__(self, name: str) -> None:
        self.api: Any = importlib.import_module("pychoco.backend")
        # the compiled calls behind ``api``'s wrappers, for the arrays' elements: a Sudoku
        # sets four hundred of them, a large share of posting it
        self.set_intvar = self.api._backend.intvar_array_set
        self.set_boolvar = self.api._backend.boolvar_array_set
        self.set_int = self.api._backend.int_array_set
        self.made: list[Any] = []
        self.handle = self.keep(self.api.create_model_s(name))
        self.callbacks: list[Any] = []  # Python functions Choco calls back: kept alive

    def keep(self, handle: Any) -> Any:
        """Record ``handle`` for :meth:`free`; returns it."""
        self.made.append(handle)
        return handle

    def free(self) -> None:
        """Let Choco's heap reclaim everything made for this model."""
        for handle in reversed(self.made):
            self.api.chocosolver_handles_destroy(handle)
        self.made.clear()
        self.callbacks.clear()

    def int_var(self, name: str, domain: tuple[int, ...]) -> Any:
        """A variable over ``domain`` (a Boolean one for a domain within 0/1, as Choco's
        clauses and Boolean sums want)."""
        if set(domain) <= {0, 1}:
            if len(domain) == 1:
                return self.keep(self.api.boolvar_sb(self.handle, name, bool(domain[0])))
            return self.keep(self.api.boolvar_s(self.handle, name))
        if len(domain) == domain[-1] - domain[0] + 1:
            return self.keep(self.api.intvar_sii(self.handle, name, domain[0], domain[-1]))
        return self.keep(self.api.intvar_s_arr(self.handle, name, self.ints(domain)))

    def constant(self, value: int) -> Any:
        return self.keep(self.api.intvar_i(self.handle, value))

    def ints(self, values: Iterable[int]) -> Any:
        """A Java ``int[]``."""
        values = list(values)
        array = self.keep(self.api.create_int_array(len(values)))
        for i, value in enumerate(values):
            self.set_int(array, value, i)
        return array

    def rows(self, rows: Iterable[Iterable[int]]) -> Any:
        """A Java ``int[][]``."""
        rows = [self.ints(row) for row in rows]
        array = self.keep(self.api.create_int_2d_array(len(rows)))
        for i, row in enumerate(rows):
            self.api.int_2d_array_set(array, row, i)
        return array

    def variables(self, handles: list[Any]) -> Any:
        """A Java ``IntVar[]``."""
        array = self.keep(self.api.create_intvar_array(len(handles)))
        for i, handle in enumerate(handles):
            self.set_intvar(array, handle, i)
        return array

    def booleans(self, handles: list[Any]) -> Any:
        """A Java ``BoolVar[]``."""
        array = self.keep(self.api.create_boolvar_array(len(handles)))
        for i, handle in enumerate(handles):
            self.set_boolvar(array, handle, i)
        return array

    def post(self, constraint: Any) -> None:
        self.api.post(self.keep(constraint))

    def false(self) -> None:
        """A constraint that never holds (an empty sum compared falsely, say)."""
        self.post(self.api.arithm_iv_cst(self.handle, self.constant(0), "=", 1))


ChocoVars = dict[IntVar, Any]
Poster = Callable[[ChocoModel, ChocoVars, Any], None]


def _term(model: ChocoModel, choco: ChocoVars, term: IntOrVar) -> Any:
    return model.constant(term) if isinstance(term, int) else choco[term]


def _vars(model: ChocoModel, choco: ChocoVars, items: Iterable[IntVar]) -> Any:
    return model.variables([choco[item] for item in items])


def _post_all_different(model: ChocoModel, choco: ChocoVars, c: AllDifferent) -> None:
    if len(c.items) > 1:
        model.post(model.api.all_different(model.handle, _vars(model, choco, c.items),
                                           ALL_DIFFERENT[c.strength]))


def _post_linear(model: ChocoModel, choco: ChocoVars, c: Linear) -> None:
    if not c.terms:  # a sum of nothing is 0
        if not COMPARISONS[c.comparison](0, c.rhs):
            model.false()
        return
    model.post(model.api.scalar_i(model.handle, _vars(model, choco, (v for _, v in c.terms)),
                                  model.ints(k for k, _ in c.terms), OPERATORS[c.comparison],
                                  c.rhs))


def _post_element(model: ChocoModel, choco: ChocoVars, c: Element) -> None:
    api, value, index = model.api, choco[c.value], choco[c.index]
    constants = [entry for entry in c.array if isinstance(entry, int)]
    if len(constants) == len(c.array):
        array = model.ints(constants)
        model.post(api.element_iv_iarray_iv_i(model.handle, value, array, index, 0))
    else:
        array = model.variables([_term(model, choco, entry) for entry in c.array])
        model.post(api.element_iv_ivarray_iv_i(model.handle, value, array, index, 0))


def _post_count(model: ChocoModel, choco: ChocoVars, c: Count) -> None:
    if not c.items:
        if isinstance(c.count, int):
            if c.count != 0:
                model.false()
        else:
            model.post(model.api.arithm_iv_cst(model.handle, choco[c.count], "=", 0))
        return
    model.post(model.api.count_i(model.handle, c.value, _vars(model, choco, c.items),
                                 _term(model, choco, c.count)))


def _post_cardinality(model: ChocoModel, choco: ChocoVars, c: GlobalCardinality) -> None:
    if not c.items:
        for value, occurrences in c.counts:
            _post_count(model, choco, Count((), value, occurrences))
    elif c.counts:
        occurrences = model.variables([_term(model, choco, n) for _, n in c.counts])
        model.post(model.api.global_cardinality(
            model.handle, _vars(model, choco, c.items), model.ints(v for v, _ in c.counts),
            occurrences, False, "BC"))


def _post_table(model: ChocoModel, choco: ChocoVars, c: Table) -> None:
    if not c.items:  # the empty tuple is allowed, or nothing is
        if not c.allowed:
            model.false()
        return
    model.post(model.api.table(model.handle, _vars(model, choco, c.items),
                               model.rows(c.allowed), True, "CT+"))


def _post_regular(model: ChocoModel, choco: ChocoVars, c: Regular) -> None:
    if not c.items or not c.accepting:  # the empty word, or an automaton accepting nothing
        if not c.items and c.initial in c.accepting:
            return
        model.false()
        return
    api = model.api
    symbols = sorted({symbol for _, symbol, _ in c.transitions}) or [0]
    shift = -symbols[0]  # Choco's automata read symbols (and values) 0..65535 only
    if symbols[-1] + shift > AUTOMATON_SYMBOLS:
        raise UnsupportedCombination(
            f"backend 'choco' reads regular's symbols in a range of {AUTOMATON_SYMBOLS + 1} "
            f"values (Choco's automata), and these span {symbols[0]}..{symbols[-1]}")
    automaton = model.keep(api.create_fa())
    state = {ours: api.add_state(automaton) for ours in c.states()}
    for source, symbol, target in c.transitions:
        api.add_transition(automaton, state[source], state[target], model.ints([symbol + shift]))
    api.set_initial_state(automaton, state[c.initial])
    api.set_final(automaton, model.ints(state[s] for s in c.accepting))
    items = [_readable(model, choco[item], item, symbols, shift) for item in c.items]
    model.post(api.regular(model.handle, model.variables(items), automaton))


def _readable(model: ChocoModel, variable: Any, ours: IntVar, symbols: list[int],
              shift: int) -> Any:
    """``variable + shift`` as the automaton reads it: a view when all its values are
    codes it reads, else a copy restricted to the symbols it may take."""
    if ours.lb + shift >= 0 and ours.ub + shift <= AUTOMATON_SYMBOLS:
        return variable if shift == 0 else model.keep(model.api.int_offset_view(variable, shift))
    allowed = sorted(set(symbols) & set(ours.domain))
    if not allowed:
        model.false()
        return model.constant(0)
    copy = model.int_var(f"{ours.name}_symbol", tuple(value + shift for value in allowed))
    model.post(model.api.arithm_iv_iv_cst(model.handle, copy, "=", variable, "+", shift))
    return copy


def _post_inverse(model: ChocoModel, choco: ChocoVars, c: Inverse) -> None:
    if c.forward:
        model.post(model.api.inverse_channeling(model.handle, _vars(model, choco, c.forward),
                                                _vars(model, choco, c.backward), 0, 0, False))


def _post_sum(model: ChocoModel, choco: ChocoVars, items: tuple[IntVar, ...],
              comparison: str) -> None:
    model.post(model.api.sum_iv_i(model.handle, _vars(model, choco, items), comparison, 1))


def _post_exactly_one(model: ChocoModel, choco: ChocoVars, c: ExactlyOne) -> None:
    if c.items:
        _post_sum(model, choco, c.items, "=")
    else:
        model.false()


def _post_at_most_one(model: ChocoModel, choco: ChocoVars, c: AtMostOne) -> None:
    if len(c.items) > 1:
        _post_sum(model, choco, c.items, "<=")


def _post_clause(model: ChocoModel, choco: ChocoVars, c: Clause) -> None:
    model.api.add_clauses(model.handle, model.booleans([choco[v] for v in c.positive]),
                          model.booleans([choco[v] for v in c.negative]))


def _post_no_overlap(model: ChocoModel, choco: ChocoVars, c: NoOverlap2D) -> None:
    if len(c.rectangles) < 2:
        return

    def terms(attribute: str) -> Any:
        return model.variables([_term(model, choco, getattr(r, attribute))
                                for r in c.rectangles])

    model.post(model.api.diff_n(model.handle, terms("x"), terms("y"), terms("width"),
                                terms("height"), True))


def _post_connected(model: ChocoModel, choco: ChocoVars, c: Connected) -> None:
    """A graph variable on every node, its edges ``weight != 0`` (parallel edges: any of
    them), under Choco's ``graph_connected``; a loop joins nothing and is left out."""
    if len(c.nodes) <= 1:
        return
    api, number = model.api, {node: i for i, node in enumerate(c.nodes)}
    weights: dict[tuple[int, int], list[Any]] = {}
    for u, v, weight in c.edges:
        if u != v:
            pair = (min(number[u], number[v]), max(number[u], number[v]))
            weights.setdefault(pair, []).append(choco[weight])
    least, most = (model.keep(api.create_graph(model.handle, len(c.nodes), "BITSET",
                                               "BIPARTITE_SET", False)) for _ in range(2))
    for node in range(len(c.nodes)):
        api.add_node(least, node)
        api.add_node(most, node)
    for u, v in weights:
        api.add_edge(most, u, v)
    graph = model.keep(api.create_graphvar(model.handle, "connected", least, most))
    for (u, v), parallel in weights.items():
        present = []
        for weight in parallel:
            present.append(model.int_var("edge_present", (0, 1)))
            api.reify_x_ne_c(model.handle, weight, 0, present[-1])
        edge = present[0]
        if len(present) > 1:
            edge = model.int_var("edge_present", (0, 1))
            model.post(api.max_iv_ivarray(model.handle, edge, model.variables(present)))
        model.post(api.graph_edge_channeling(model.handle, graph, edge, u, v))
    model.post(api.graph_connected(model.handle, graph))


POSTERS: dict[type[Constraint], Poster] = {
    AllDifferent: _post_all_different,
    Inverse: _post_inverse,
    Linear: _post_linear,
    Element: _post_element,
    Count: _post_count,
    GlobalCardinality: _post_cardinality,
    Table: _post_table,
    Regular: _post_regular,
    ReifiedEquality: lambda m, v, c: m.api.reify_x_eq_c(m.handle, v[c.variable], c.value,
                                                        v[c.flag]),
    Clause: _post_clause,
    ExactlyOne: _post_exactly_one,
    AtMostOne: _post_at_most_one,
    NoOverlap2D: _post_no_overlap,
    Connected: _post_connected,
}
