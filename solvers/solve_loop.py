"""The one solve loop every backend runs under.

A backend gives a declaration and three hooks (:class:`~solvers.backends.base.Backend`);
this module does the rest, the same way for all of them: lowering the model to the
declared native constraints (refusing what the declaration rules out), build and
search times (wall and CPU), peak memory, the deadline, Ctrl-C, counting distinct
solutions up to the limit, checking each against the model, and the end status.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Mapping

from puzzlelab.errors import SolverError, UnsupportedCombination
from solvers.backends.base import Backend, LoweredModel, SolveRequest
from solvers.capabilities import constraint_refusal, variable_refusal
from solvers.decompositions import decompose
from solvers.interrupt import ctrl_c_stops
from solvers.limits import SearchLimits
from solvers.memory import PeakMemory
from solvers.model import Model
from solvers.record import SolveResult, Statistics, Status


def lower(model: Model, backend: Backend) -> LoweredModel:
    """Rewrite the model's constraints until each one is native to ``backend``.

    Raises ``UnsupportedCombination`` naming the capability the backend lacks.
    """
    started = time.perf_counter()
    capabilities = backend.capabilities
    refusal = variable_refusal(backend.name, capabilities, model.variables)
    if refusal:
        raise UnsupportedCombination(str(refusal))
    lowered = LoweredModel(list(model.variables))
    pending = list(reversed(model.constraints))
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


def run_search(backend: Backend, model: Model, lowered: LoweredModel,
               request: SolveRequest) -> SolveResult:
    """Compile ``lowered`` on ``backend`` and search it under ``request``'s limits.

    The first solution comes back as the assignment; every solution found is checked
    against the model's constraints, and one that violates them makes the run an
    ``error``.
    """
    heuristic = str(request.heuristic)
    limits = SearchLimits(request.time_limit)
    started = time.perf_counter()
    compiled = backend.compile(model, lowered, request, limits)
    build_s = lowered.lowering_s + time.perf_counter() - started

    enumerating = request.max_solutions != 1
    seen: set[tuple[int, ...]] = set()
    first: tuple[int, ...] | None = None
    first_branches: int | None = None
    exhausted = False
    wrong = ""
    failure = ""
    with PeakMemory() as memory, ctrl_c_stops(limits):
        request.searching()
        limits.deadline.restart()
        cpu_started, search_started = time.process_time(), time.perf_counter()
        solutions = backend.search(compiled)
        try:
            for values in solutions:
                if enumerating:
                    if values in seen:  # auxiliaries may repeat a solution of the model
                        continue
                    seen.add(values)
                if first is None:
                    first = values
                    first_branches = backend.counters(compiled).get("branches")
                wrong = wrong or _violated(model, values, backend.name)
                found = len(seen) if enumerating else 1
                if request.max_solutions is not None and found >= request.max_solutions:
                    break
            else:
                exhausted = True
        except SolverError as error:
            failure = str(error)
        finally:
            solutions.close()  # a backend ends its search (and frees its solver) here
        solve_s = time.perf_counter() - search_started
        solve_cpu_s = time.process_time() - cpu_started
    found = len(seen) if enumerating else int(first is not None)
    counters = _declared_counters(backend, backend.counters(compiled))
    counters.setdefault("first_branches", first_branches)
    statistics = Statistics(**counters, build_s=build_s, solve_s=solve_s,
                            solve_cpu_s=solve_cpu_s, solutions=found,
                            peak_memory_mb=memory.value)
    assignment = None if first is None else dict(zip(model.variables, first))
    if failure or wrong:
        return SolveResult(Status.ERROR, None, statistics, False, backend.name, heuristic,
                           failure or wrong)
    timed_out = limits.timed_out and (request.max_solutions is None
                                      or found < request.max_solutions)
    status = Status.TIMEOUT if timed_out else (Status.SOLVED if found
                                               else Status.UNSATISFIABLE)
    complete = exhausted and not limits.timed_out
    return SolveResult(status, assignment, statistics, complete, backend.name, heuristic)


def _violated(model: Model, values: tuple[int, ...], backend: str) -> str:
    """Why a backend's solution is wrong (the constraints it breaks), or ''."""
    assignment = dict(zip(model.variables, values))
    if model.satisfied_by(assignment):
        return ""
    broken = sorted({c.kind for c in model.constraints if not c.holds(assignment)})
    return f"backend {backend!r} returned an assignment that violates {', '.join(broken)}"


def _declared_counters(backend: Backend,
                       counters: Mapping[str, int | None]) -> dict[str, int | None]:
    """The backend's figures, held to its declaration: a figure it does not declare is
    a bug in the backend, not a number to store."""
    allowed = backend.capabilities.statistics | {"first_branches"}
    undeclared = set(counters) - allowed
    if undeclared:
        raise SolverError(f"backend {backend.name!r} reported {sorted(undeclared)}, which "
                          f"its declaration does not list")
    return {name: value for name, value in counters.items()}


def failed(status: Status, message: str, backend: str, heuristic: str,
           measured: Statistics | None = None) -> SolveResult:
    """A run that gives no solution; it keeps the figures measured before it went wrong."""
    detail = message if status is Status.ERROR else message + "\n" + traceback.format_exc()
    return SolveResult(status, None, measured or Statistics.unmeasured(), False, backend,
                       heuristic, detail.strip())
