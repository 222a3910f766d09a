"""What a backend must refuse, worked out in the tests from its declaration alone.

The solving layer refuses from the same declaration; this is an independent reading
of it (never of a backend's name), so a refusal given where the declaration allows
the combination, or missing where it does not, fails a test.
"""

from __future__ import annotations

from solvers import Heuristic, Model
from solvers.backend_contract import LoweredModel
from solvers.capabilities import (
    AFTER_SEARCH,
    DWAY_BESIDE_PYTHON,
    DWAY_LABELLING,
    HALL_ALL_DIFFERENT,
    INTEGER_VARIABLES,
    OWN_SEARCH,
    PROBING,
    PROBING_BESIDE_PYTHON,
    PROBING_EVERY_NODE,
    PROBING_WITH_OWN_SEARCH,
    STRONG_ALL_DIFFERENT,
    VALUE_RANKING,
    WEIGHTED_DEGREE,
    Capabilities,
)
from solvers.constraints import AllDifferent, Constraint
from solvers.decompositions import DECOMPOSITIONS, decompose


def expected_refusal(capabilities: Capabilities, model: Model, heuristic: str) -> str | None:
    """The capability the declaration says is missing for this run, or None.

    The heuristic is judged first, then the model (as a user would read a refusal:
    what was asked of the search, then what the model needs).
    """
    parsed = Heuristic.parse(heuristic)
    if parsed.is_auto and capabilities.own_search is None:
        return OWN_SEARCH
    value = parsed.value_order if parsed.value_order in ("min", "max") else "ranked"
    if parsed.variable_order == "dom-wdeg":
        if not capabilities.weighted_degree:
            return WEIGHTED_DEGREE
        if value not in capabilities.weighted_degree:
            return f"{WEIGHTED_DEGREE} with value choice {value}"
    if not parsed.is_auto and value == "ranked" and "ranked" not in capabilities.value_choices:
        return VALUE_RANKING
    if parsed.dway and not capabilities.dway:
        return DWAY_LABELLING
    if parsed.dway and any(type(c) in capabilities.python_propagated for c in model.constraints):
        return DWAY_BESIDE_PYTHON
    if parsed.probing != "none":
        if "root" not in capabilities.probing:
            return PROBING
        allowed = capabilities.probing_with_own_search if parsed.is_auto else \
            capabilities.probing
        if parsed.probing not in allowed:
            return PROBING_WITH_OWN_SEARCH if parsed.is_auto else PROBING_EVERY_NODE
        if any(type(c) in capabilities.python_propagated for c in model.constraints):
            return PROBING_BESIDE_PYTHON
    return _model_refusal(capabilities, model)


def _model_refusal(capabilities: Capabilities, model: Model) -> str | None:
    if (model.after_search or model.lazy) and not capabilities.after_search:
        return AFTER_SEARCH
    if not capabilities.integer_variables and not all(v.is_boolean for v in model.variables):
        return INTEGER_VARIABLES
    native, missing = _native_constraints(capabilities, model)
    for constraint in native:
        if isinstance(constraint, AllDifferent) and \
                constraint.strength not in capabilities.all_different:
            return {"strong": STRONG_ALL_DIFFERENT, "hall": HALL_ALL_DIFFERENT}[
                constraint.strength]
        if not capabilities.integer_variables and not all(
                v.is_boolean for v in constraint.variables()):
            return INTEGER_VARIABLES
    return missing


def _native_constraints(capabilities: Capabilities,
                        model: Model) -> tuple[list[Constraint], str | None]:
    """The constraints the backend would post (the model's, decomposed until native, in
    the order the solve loop lowers them, up to the first it cannot), and the constraint
    it lacks with no decomposition, if any."""
    lowered = LoweredModel(list(model.variables))
    pending, native = list(reversed(model.constraints)), []
    while pending:
        constraint = pending.pop()
        if type(constraint) in capabilities.native:
            native.append(constraint)
        elif type(constraint) not in DECOMPOSITIONS:
            return native, f"the {constraint.kind} constraint"
        else:
            pending.extend(reversed(decompose(constraint, lowered.new_var, "test")))
    return native, None


def heuristics_offered(capabilities: Capabilities) -> list[str]:
    """A few heuristics that exercise what the declaration offers (and one it may not)."""
    chosen = ["input/min", "first-fail/max", "random/random", "dom-wdeg/min"]
    if capabilities.own_search is not None:
        chosen.append("auto")
    if "nodes" in capabilities.probing:
        chosen.append("first-fail/max+probe-all")
    return chosen
