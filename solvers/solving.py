"""The one entry point to solving: a model, a backend name and a heuristic name."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import NamedTuple

from puzzlelab.errors import OptionError, UnsupportedCombination
from solvers import symmetry
from solvers.backend_contract import (
    Backend,
    LoweredModel,
    RootPropagator,
    SearchStart,
    SolveRequest,
)
from solvers.backends import BACKENDS, load_backends
from solvers.capabilities import (
    PROBING,
    ROOT_PROPAGATION,
    Capabilities,
    Refusal,
    after_search_refusal,
    search_refusal,
    tree_refusal,
)
from solvers.heuristics import Heuristic, SearchPlan, plan_search
from solvers.limits import SearchLimits, checked_time_limit
from solvers.lowering import lower
from solvers.model import Model
from solvers.record import PortfolioAnswer, SolveResult, Status
from solvers.search_tree import DEFAULT_NODE_CAP
from solvers.solve_loop import failed, run_search
from solvers.variables import IntVar


def get_backend(name: str) -> Backend:
    """The registered backend called ``name`` (an unknown name lists the valid ones).

    A backend whose solver library cannot be used here raises ``UnsupportedCombination``
    saying why. Only this backend's module (and its library) is imported.
    """
    chosen = BACKENDS.get(name)
    missing = chosen.unavailable()
    if missing:
        raise UnsupportedCombination(f"backend {name!r} is unavailable here: {missing}")
    return chosen()


class Prepared(NamedTuple):
    """A run checked and ready: the backend, what to search, and the model it will post."""

    backend: Backend
    request: SolveRequest
    lowered: LoweredModel


def prepare(model: Model, backend: str, heuristic: str = "first-fail/min",
            seed: int = 0) -> Prepared:
    """Resolve names and check that the backend can run this model and heuristic.

    Raises ``UnknownName`` or ``UnsupportedCombination`` (naming the capability the
    backend lacks, from its declaration) before any search starts. ``+symmetric`` is
    the solving layer's own (:func:`solve`): the backend is checked without it.
    """
    chosen = get_backend(backend)
    parsed = Heuristic.parse(heuristic).without_symmetric()
    plan = plan_search(model, parsed, seed)
    refusal = search_refusal(chosen.name, chosen.capabilities, plan, model)
    if refusal:
        raise UnsupportedCombination(f"cannot run heuristic {parsed}: {refusal}")
    refusal = after_search_refusal(chosen.name, chosen.capabilities, model)
    if refusal:
        raise UnsupportedCombination(str(refusal))
    lowered = lower(model, chosen)  # raises UnsupportedCombination for a constraint
    return Prepared(chosen, SolveRequest(plan=plan, heuristic=parsed, seed=seed), lowered)


def solve(model: Model, backend: str = "cpsat", heuristic: str = "first-fail/min", *,
          time_limit: float | None = None, max_solutions: int | None = 1, seed: int = 0,
          on_search_start: SearchStart | None = None,
          options: Mapping[str, str] | None = None,
          record_tree: bool | int = False) -> SolveResult:
    """Search ``model`` and return the run record.

    Args:
        model: the model to solve.
        backend: a registered backend's name (see ``BACKENDS``).
        heuristic: ``VARORDER/VALUEORDER`` or ``auto`` (see :mod:`solvers.heuristics`).
        time_limit: seconds of search (positive); a search still running then ends as
            ``timeout``.
        max_solutions: stop after this many solutions; 0 counts them all (None too).
        seed: seed for ``random`` orders and the solver's own randomness.
        on_search_start: called with the search's time limit as each search starts,
            once the model is built (twice when ``+symmetric`` searches the whole model
            too, with the time left).
        options: the backend's own options (``{"solver": "chuffed"}`` on ``minizinc``),
            by the names its ``capabilities.options`` declares, over those the model
            asks of this backend (:meth:`Model.suggest_options`).
        record_tree: record the search's tree into the result's ``tree``, keeping up to
            this many nodes (True: :data:`~solvers.search_tree.DEFAULT_NODE_CAP`), on a
            backend declaring ``search_tree``; one search only, so not with
            ``+symmetric`` or lazy constraints.

    With ``+symmetric`` the model's declared symmetries are imposed first and the
    whole model searched only if that finds no solution (:mod:`solvers.symmetry`); it
    looks for one solution, so it refuses ``max_solutions`` other than 1.

    Constraints checked after search (:meth:`Model.add_after_search`) and lazy ones
    (:meth:`Model.add_lazy`) are not posted: the solve loop rejects the solutions that
    break the first kind and searches again with the cuts of the second, and the run
    counts as one (:func:`solvers.solve_loop.run_search`). ``+symmetric`` keeps them
    in both its searches.

    The returned assignment, when there is one, has been checked against every
    constraint's meaning: a backend that answers a wrong solution gives ``error``.
    """
    checked_time_limit(time_limit)
    if max_solutions is not None and max_solutions < 0:
        raise OptionError(f"the solution limit must be a count, or 0 for every solution, "
                          f"not {max_solutions}")
    max_solutions = max_solutions or None  # the backends' spelling of "every solution"
    parsed = Heuristic.parse(heuristic)
    tree_cap = _tree_cap(record_tree, model, parsed)
    if not parsed.symmetric:
        return _solve_checked(model, backend, heuristic, time_limit, max_solutions, seed,
                              on_search_start, options, tree_cap)
    refusal = symmetry.counting_refusal(max_solutions)
    if refusal:
        raise UnsupportedCombination(refusal)
    # prepare() hands the backend the heuristic without +symmetric; the result is
    # relabelled with the full name
    if not model.symmetries:
        result = _solve_checked(model, backend, heuristic, time_limit, 1, seed,
                                on_search_start, options)
        return symmetry.relabelled(result, model, str(parsed), restricted_search=False)
    started = time.perf_counter()
    first = _solve_checked(symmetry.restricted(model), backend, heuristic, time_limit, 1,
                           seed, on_search_start, options)
    if symmetry.answered(first):
        return symmetry.relabelled(first, model, str(parsed), restricted_search=True)
    remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
    if remaining is not None and remaining <= 0:
        return symmetry.relabelled(dataclasses.replace(first, status=Status.TIMEOUT), model,
                                   str(parsed), restricted_search=True)
    second = _solve_checked(model, backend, heuristic, remaining, 1, seed, on_search_start,
                            options)
    return symmetry.combined(first, second, model, str(parsed))


def backend_options(backend: Backend | type[Backend],
                    options: Mapping[str, str] | None) -> dict[str, str]:
    """``options`` checked against the names ``backend`` declares (``OptionError``
    names them)."""
    declared = backend.capabilities.options
    for name in options or {}:
        if name not in declared:
            takes = (f"it takes {', '.join(sorted(declared))}" if declared
                     else "it takes none")
            raise OptionError(f"backend {backend.name} has no option {name!r} ({takes})")
    return {name: str(value) for name, value in (options or {}).items()}


def _tree_cap(record_tree: bool | int, model: Model, heuristic: Heuristic) -> int | None:
    """The node cap ``record_tree`` asks for, or None; refused where a run is not one
    search."""
    if record_tree is False or record_tree is None:
        return None
    cap = DEFAULT_NODE_CAP if record_tree is True else int(record_tree)
    if cap < 1:
        raise OptionError(f"a search tree keeps at least 1 node, not {cap}")
    if heuristic.symmetric:
        raise UnsupportedCombination("a search tree records one search, and +symmetric "
                                     "may run two: leave out +symmetric to record it")
    if model.lazy:
        kinds = ", ".join(sorted({getattr(c, "kind", type(c).__name__) for c in model.lazy}))
        raise UnsupportedCombination(f"a search tree records one search, and this model's "
                                     f"lazy constraints ({kinds}) make the run search "
                                     f"again after each cut: choose a viewpoint option "
                                     f"that posts them (see puzzlelab list)")
    return cap


def tree_recorders() -> list[str]:
    """The backends that record search trees (their declaration says so)."""
    load_backends()
    return [name for name in BACKENDS if BACKENDS.get(name).capabilities.search_tree]


def refuse_tree(backend: str, capabilities: Capabilities, plan: SearchPlan | None) -> None:
    """Raise ``UnsupportedCombination`` when ``backend`` cannot record ``plan``'s tree
    (any tree, for no plan), naming the backends that can."""
    refusal = tree_refusal(backend, capabilities, plan)
    if refusal:
        raise UnsupportedCombination(f"{refusal}; the backends that record search trees: "
                                     f"{', '.join(tree_recorders())}")


def _solve_checked(model: Model, backend: str, heuristic: str, time_limit: float | None,
                   max_solutions: int | None, seed: int,
                   on_search_start: SearchStart | None = None,
                   options: Mapping[str, str] | None = None,
                   tree_cap: int | None = None) -> SolveResult:
    """One search of ``model``, its assignment checked against every constraint."""
    if tree_cap is not None:  # before the model is judged: the backend cannot, whatever it is
        refuse_tree(backend, BACKENDS.get(backend).capabilities, None)
    try:
        chosen, request, lowered = prepare(model, backend, heuristic, seed)
    except MemoryError:  # lowering a model too large for the memory left
        return failed(Status.MEMORY_OUT, "out of memory while posting the model", backend,
                       str(Heuristic.parse(heuristic).without_symmetric()))
    if tree_cap is not None:
        refuse_tree(chosen.name, chosen.capabilities, request.plan)
    request = dataclasses.replace(request, time_limit=time_limit, max_solutions=max_solutions,
                                  on_search_start=on_search_start,
                                  options=backend_options(chosen, {
                                      **model.backend_options.get(chosen.name, {}),
                                      **(options or {})}), tree_cap=tree_cap)
    try:
        result = run_search(chosen, model, lowered, request)
    except MemoryError:
        return failed(Status.MEMORY_OUT, "out of memory", chosen.name, str(request.heuristic))
    # a backend that runs other searches (the portfolio, ``auto``) says what they did
    describe = getattr(chosen, "describe_run", None)
    if describe is None:
        return result
    portfolio: PortfolioAnswer | None = describe()
    return dataclasses.replace(result, portfolio=portfolio)


def propagate_root(model: Model, backend: str = "cp", probing: bool = False
                   ) -> dict[IntVar, tuple[int, ...]] | None:
    """The values each variable of ``model`` keeps once ``backend``'s propagation at the
    root has run (after probing the root, as ``+probe`` does, with ``probing``), before
    any decision; None when that propagation fails (the model has no solution).

    A backend that does not declare ``root_propagation`` is refused, naming it.

    >>> from solvers import Model, linear
    >>> model = Model("two")
    >>> x, y = model.int_var(0, 3, "x"), model.int_var(0, 3, "y")
    >>> _ = model.add(linear([(1, x), (1, y)], ">=", 5))
    >>> propagate_root(model)[x]
    (2, 3)
    >>> _ = model.add(linear([(1, x)], "<=", 1))
    >>> propagate_root(model) is None
    True
    """
    chosen = get_backend(backend)
    if not chosen.capabilities.root_propagation:
        raise UnsupportedCombination(str(Refusal(
            chosen.name, ROOT_PROPAGATION,
            chosen.capabilities.reasons.get(ROOT_PROPAGATION, ""))))
    if probing and "root" not in chosen.capabilities.probing:
        raise UnsupportedCombination(str(Refusal(chosen.name, PROBING,
                                                 chosen.capabilities.reasons.get(PROBING, ""))))
    prepared = prepare(model, backend, "input/min+probe" if probing else "input/min")
    propagator = prepared.backend
    assert isinstance(propagator, RootPropagator)  # what root_propagation declares
    compiled = propagator.compile(model, prepared.lowered, prepared.request,
                                  SearchLimits(None))
    return propagator.root_domains(compiled)
