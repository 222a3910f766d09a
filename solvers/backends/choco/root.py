"""The domains Choco's propagation leaves at the root, before any decision.

Studies of propagation strength read them through :func:`solvers.solving.propagate_root`.
pychoco 0.4 exposes Choco's ``Solver.propagate`` only as a low-level call
(``pychoco.backend.propagate``, behind the private ``Solver._propagate``): it runs every
propagator to a fixpoint and answers 1, or 0 when a domain empties (Choco then flushes
its queue, so the answer, not a second call, says whether the root failed). The model is
the one a search would start from, compiled by the backend as for a search.
"""

from __future__ import annotations

from typing import Any

from solvers.variables import IntVar

Domains = dict[IntVar, tuple[int, ...]]


def _domain(api: Any, variable: Any) -> tuple[int, ...]:
    """The values left in a Choco variable's domain, in increasing order."""
    low, high = api.get_intvar_lb(variable), api.get_intvar_ub(variable)
    if high - low <= 1:  # no hole to look for
        return tuple(range(low, high + 1))
    values = api.get_domain_values(variable)  # a Java int[] made for this call
    try:
        return tuple(api.int_array_get(values, i) for i in range(api.int_array_length(values)))
    finally:
        api.chocosolver_handles_destroy(values)


def read_root(api: Any, solver: Any, variables: dict[IntVar, Any]) -> Domains | None:
    """The domains of ``variables`` (model variable: Choco variable) once ``solver``'s
    root has propagated; None when it fails."""
    if not api.propagate(solver):
        return None
    return {variable: _domain(api, handle) for variable, handle in variables.items()}
