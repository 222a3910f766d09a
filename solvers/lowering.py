"""A model rewritten for one backend: its native constraints kept, the rest decomposed.

What the backend cannot take (a variable beyond its domains, a native constraint at a
strength or over domains it lacks, a constraint with no decomposition) is refused here,
before anything is built, naming the capability its declaration lacks.
The export formats lower the same way for their own declarations
(:mod:`solvers.export.lowering`).
"""

from __future__ import annotations

import time

from puzzlelab.errors import UnsupportedCombination
from solvers.backend_contract import Backend, LoweredModel
from solvers.capabilities import constraint_refusal, variable_refusal
from solvers.constraints import Constraint
from solvers.decompositions import decompose
from solvers.model import Model


def lower(model: Model, backend: Backend) -> LoweredModel:
    """Rewrite the model's constraints until each one is native to ``backend``.

    Raises ``UnsupportedCombination`` naming the capability the backend lacks.
    """
    started = time.perf_counter()
    capabilities = backend.capabilities
    refusal = variable_refusal(backend.name, capabilities, model.variables)
    if refusal:
        raise UnsupportedCombination(str(refusal))
    lowered = lower_more(LoweredModel(list(model.variables)), model.constraints, backend)
    lowered.lowering_s = time.perf_counter() - started
    return lowered


def lower_more(lowered: LoweredModel, constraints: list[Constraint],
               backend: Backend) -> LoweredModel:
    """A copy of ``lowered`` with ``constraints`` rewritten after its own, as
    :func:`lower` would have given them, in the time it takes to rewrite them alone
    (``lowering_s``): a lazy round's cuts added to the round before."""
    started = time.perf_counter()
    capabilities = backend.capabilities
    lowered = LoweredModel(list(lowered.variables), list(lowered.constraints))
    pending = list(reversed(constraints))
    while pending:
        constraint = pending.pop()
        if type(constraint) in capabilities.native:
            refused = constraint_refusal(backend.name, capabilities, constraint)
            if refused:
                raise UnsupportedCombination(str(refused))
            lowered.constraints.append(constraint)
        else:
            pending.extend(reversed(decompose(constraint, lowered.new_var, backend.name)))
    lowered.lowering_s = time.perf_counter() - started
    return lowered
