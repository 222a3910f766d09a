"""Where a model's strength comes from at the root: how many values each constraint
family removes before the first decision, alone and all together; and the model's
size as built and as a backend posts it.

A family is the constraints of one kind (``all-different``, ``inverse``, ``linear``,
``regular``, ...). Each is propagated alone on the model's variables, then all of them
together, by a backend that declares root propagation (:func:`propagate_root`); the
difference between the sum of the families and the whole is what they do for each
other. Constraints the search leaves out (checked after search, lazy) take no part.

>>> from solvers import Model, all_different, linear
>>> model = Model("three")
>>> x, y, z = (model.int_var(0, 2, name) for name in "xyz")
>>> _ = model.add(all_different([x, y, z]))
>>> _ = model.add(linear([(1, x)], "==", 0))
>>> profile = root_profile(model)
>>> [(family.kind, family.removed) for family in profile.families]
[('all-different', 0), ('linear', 2)]
>>> profile.removed, profile.fixed
(4, 1)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from solvers.constraints import Constraint
from solvers.model import Model
from solvers.solving import prepare, propagate_root
from solvers.variables import IntVar


@dataclass(frozen=True)
class FamilyPruning:
    """One constraint family: its size and the values it removes alone at the root
    (None: alone it already fails, so the model has no solution)."""

    kind: str
    constraints: int
    removed: int | None


@dataclass(frozen=True)
class ModelSize:
    """Variables and constraints by kind: as a viewpoint built a model, or as a backend
    posts it once lowered (decompositions add both)."""

    variables: int
    constraints: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, variables: int, constraints: Iterable[Constraint]) -> ModelSize:
        return cls(variables, tuple(Counter(c.kind for c in constraints).items()))

    def __str__(self) -> str:
        total = sum(number for _, number in self.constraints)
        kinds = ", ".join(f"{number} {kind}" for kind, number in self.constraints)
        return f"{self.variables} variables, {total} constraints ({kinds})"


def model_sizes(model: Model, backend: str) -> tuple[ModelSize, ModelSize]:
    """``model``'s size as built, and as ``backend`` posts it after lowering (posted
    constraints only: those left out of the search are not lowered)."""
    lowered = prepare(_posted(model), backend).lowered
    return (ModelSize.of(len(model.variables), model.constraints),
            ModelSize.of(len(lowered.variables), lowered.constraints))


@dataclass(frozen=True)
class RootProfile:
    """The root of one model on one backend.

    Attributes:
        backend: the backend whose propagation ran.
        variables: the model's variables; ``values``: the sum of their domain sizes.
        fixed_before: variables with one value before any propagation (a puzzle's clues).
        families: each constraint family, in the order the model first posts it.
        removed: the values all families remove together (None: the root fails).
        fixed: the variables left with one value before the first decision (None: fails).
    """

    backend: str
    variables: int
    values: int
    fixed_before: int
    families: tuple[FamilyPruning, ...]
    removed: int | None
    fixed: int | None


FALLBACK = "cp"
"""The backend that profiles a run whose own backend has no root propagation."""


def profiler_for(backend: str) -> str:
    """The backend that profiles a run on ``backend``: itself when it declares root
    propagation, else :data:`FALLBACK`."""
    from solvers.backends import BACKENDS

    return backend if BACKENDS.get(backend).capabilities.root_propagation else FALLBACK


def root_profile(model: Model, backend: str = FALLBACK) -> RootProfile:
    """Propagate each constraint family of ``model`` alone, then all together, at the
    root on ``backend`` (one that declares root propagation, else refused naming it)."""
    counts = Counter(constraint.kind for constraint in model.constraints)
    families = []
    for kind, number in counts.items():
        alone = _posted(model, [c for c in model.constraints if c.kind == kind])
        families.append(FamilyPruning(kind, number,
                                      _removed(model.variables, propagate_root(alone, backend))))
    domains = propagate_root(_posted(model), backend)
    return RootProfile(
        backend, len(model.variables), sum(len(v.domain) for v in model.variables),
        sum(len(v.domain) == 1 for v in model.variables), tuple(families),
        _removed(model.variables, domains),
        None if domains is None else sum(len(values) == 1 for values in domains.values()))


def _posted(model: Model, constraints: list[Constraint] | None = None) -> Model:
    """``model`` (or its ``constraints`` only) without the constraints the search leaves
    out, which no propagation sees."""
    return dataclasses.replace(model, after_search=[], lazy=[],
                               constraints=model.constraints if constraints is None
                               else constraints)


def _removed(variables: list[IntVar], domains: dict[IntVar, tuple[int, ...]] | None
             ) -> int | None:
    if domains is None:
        return None
    return sum(len(v.domain) - len(domains[v]) for v in variables)
