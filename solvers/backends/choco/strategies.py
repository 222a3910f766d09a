"""The searches a plan asks of Choco: its own strategies, a value ranking in Python, and
the check that stops a search from Python.

Choco calls Python back through C function pointers (pychoco's custom search and
custom propagator); the callbacks are kept on the :class:`ChocoModel` until it is freed.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

from solvers.backends.choco.posting import ChocoModel, ChocoVars
from solvers.heuristics import SearchPlan
from solvers.variables import IntVar

#: Choco's own strategy for each (variable selection, value choice) of a plan
STRATEGIES = {
    ("first-unbound", "min"): "set_input_order_lb_search",
    ("first-unbound", "max"): "set_input_order_ub_search",
    ("smallest-domain", "min"): "set_min_dom_lb_search",
    ("smallest-domain", "max"): "set_min_dom_ub_search",
    ("weighted-degree", "min"): "set_dom_over_w_deg_search",
}
# the C signatures of Choco's calls back into Python
_PROPAGATE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
_CHOOSE_VARIABLE = ctypes.CFUNCTYPE(ctypes.c_int)
_CHOOSE_VALUE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)


def set_search(model: ChocoModel, solver: Any, choco: ChocoVars, plan: SearchPlan,
               rest: list[IntVar]) -> None:
    """Choco's strategy for ``plan`` on its decision variables (all of them for ``auto``)."""
    api = model.api
    if plan.auto:
        api.set_default_search(solver)
    elif plan.value_choice == "ranked":
        _set_ranked_search(model, solver, choco, plan, rest)
    elif plan.variables:
        strategy = getattr(api, STRATEGIES[plan.selection, plan.value_choice])
        strategy(solver, model.variables([choco[v] for v in plan.variables]))
    elif rest:
        api.set_input_order_lb_search(solver, model.variables([choco[v] for v in rest]))


def _domain(api: Any, variable: Any) -> list[int]:
    """The values left in a Choco variable's domain (freeing the array Choco makes)."""
    values = api.get_domain_values(variable)
    try:
        return [api.int_array_get(values, i) for i in range(api.int_array_length(values))]
    finally:
        api.chocosolver_handles_destroy(values)


def _set_ranked_search(model: ChocoModel, solver: Any, choco: ChocoVars, plan: SearchPlan,
                       rest: list[IntVar]) -> None:
    """A value ranking: a search in Python that Choco calls back at each node.

    Variables as the plan selects them, then the others first unbound; the decision
    variables take their best-ranked value left, the others their smallest.
    """
    api = model.api
    variables = [choco[v] for v in plan.variables + tuple(rest)]
    decided = len(plan.variables)
    ranks = [plan.value_rank[v] for v in plan.variables] if plan.value_rank else []
    smallest = plan.selection == "smallest-domain"

    def open_(index: int) -> bool:
        return bool(api.get_intvar_lb(variables[index]) != api.get_intvar_ub(variables[index]))

    def choose_variable() -> int:
        candidates = [i for i in range(decided) if open_(i)]
        if candidates:  # the first of the smallest domains, or the first open
            return min(candidates, key=lambda i: len(_domain(api, variables[i]))
                       ) if smallest else candidates[0]
        return next((i for i in range(decided, len(variables)) if open_(i)), -1)

    def choose_value(index: int) -> int:
        values = _domain(api, variables[index])
        return min(values, key=ranks[index].__getitem__) if index < decided else min(values)

    callbacks = [_CHOOSE_VARIABLE(choose_variable), _CHOOSE_VALUE(choose_value)]
    model.callbacks += callbacks
    api.set_custom_search(solver, model.variables(variables),
                          *(ctypes.cast(c, ctypes.c_void_p).value for c in callbacks))


#: custom constraints this process may still post: pychoco 0.4 crashes the process
#: (segmentation fault) at about the 4,100th custom constraint of a process, whatever
#: the models (measured with pychoco's own ``custom_constraint``); past this budget the
#: stop check is left out, and Ctrl-C then waits for the search to end
STOP_CHECKS_LEFT = [3500]


def post_stop_check(model: ChocoModel, variables: list[Any],
                    must_stop: Callable[[], bool]) -> bool:
    """Once ``must_stop()``, fail each node that changes one of ``variables``: the
    failures unwind the search at once (one per open choice point). False when the
    process has used up its budget of custom constraints (nothing is posted).

    pychoco holds the GIL while Choco searches, so neither Ctrl-C's handler nor any
    other thread runs until the search returns; inside this call Python runs them.
    """
    if STOP_CHECKS_LEFT[0] <= 0:
        return False
    STOP_CHECKS_LEFT[0] -= 1
    def check(_: int, __: int) -> int:
        return -1 if must_stop() else 0  # -1: a contradiction

    callback = _PROPAGATE(check)
    model.callbacks.append(callback)
    unary = 1  # Choco's priority for the cheapest propagators, run first
    model.post(model.api.create_custom_constraint(
        model.variables(variables), ctypes.cast(callback, ctypes.c_void_p).value, 0, unary))
    return True
