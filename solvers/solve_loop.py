"""The one solve loop every backend runs under.

A backend gives a declaration and three hooks (:class:`~solvers.backend_contract.Backend`);
this module does the rest, the same way for all of them: build and search times (wall
and CPU), peak memory, the deadline, Ctrl-C (which ends the solve as
:class:`SearchInterrupted`, carrying the figures so far), counting distinct solutions up
to the limit, checking each against the model, and the end status. The backend compiles
the model lowered to its native constraints (:mod:`solvers.lowering`). Each solution
found gets the run's verdict (:mod:`solvers.solution_verdicts`): counted, passed over,
or, when it breaks a lazy constraint, the end of this search, after which the loop
searches a copy of the model again with that constraint's cuts (each search one round
of the same run: one deadline, figures summed).
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Mapping
from typing import Any

from puzzlelab.errors import SolverError
from puzzlelab.statistics import STATISTICS
from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.constraints import Constraint
from solvers.interrupt import ctrl_c_stops
from solvers.limits import SearchLimits
from solvers.lowering import lower_more
from solvers.memory import PeakMemory
from solvers.model import LazyConstraint, Model
from solvers.record import SolveResult, Statistics, Status
from solvers.repair import Neighbourhoods
from solvers.solution_verdicts import Verdicts


def run_search(backend: Backend, model: Model, lowered: LoweredModel,
               request: SolveRequest) -> SolveResult:
    """Compile ``lowered`` on ``backend`` and search it under ``request``'s limits.

    The first solution comes back as the assignment; every solution found is checked
    against the model's constraints, and one that violates them makes the run an
    ``error`` (a rejected one is not checked: it is neither counted nor returned, and
    checking it would only slow the course's way down; nor is one that breaks a lazy
    constraint, which only gives cuts, each round's). A solution that breaks a
    constraint checked after search is rejected and the search goes on; one that
    breaks a lazy constraint adds its cuts to a copy of the model, searched again from
    scratch (:class:`Verdicts`), or first near the cuts when the model repairs its
    rounds (:mod:`solvers.repair`; the whole model then only if that finds nothing).
    The run's figures are then those of all its searches (summed, as each statistic
    declares), and its time limit covers them all.
    """
    verdicts = Verdicts(model, request.max_solutions)
    judged = verdicts.judged
    repairing = (model.lazy_repair is not None and not model.after_search
                 and request.max_solutions == 1)
    near = Neighbourhoods(model) if repairing else None
    keep: tuple[int, ...] = ()  # what a repair round keeps where the round before stopped
    current, current_lowered = model, lowered
    totals: dict[str, float | None] = {"build_s": 0.0, "solve_s": 0.0, "solve_cpu_s": 0.0}
    counters: dict[str, int | None] = {}
    first_branches: int | None = None
    searches, end = 0, None
    hint: tuple[int, ...] | None = None  # where the last lazy round stopped
    tree = compiled = None
    added: list[Constraint] = []  # the last round's cuts, lowered, which compiled lacks
    while True:
        time_left = request.time_limit if end is None else end - time.perf_counter()
        if time_left is not None and time_left <= 0:  # a rebuild used up the time
            searched = _Search(verdicts, timed_out=True)
            break
        asked = request.max_solutions
        if judged:
            asked = None if asked is None else asked - len(verdicts.accepted)
        round_request = dataclasses.replace(request, time_limit=time_left, max_solutions=asked,
                                            judge=verdicts.verdict if judged else None,
                                            hint=hint, keep=keep)
        limits = SearchLimits(time_left)
        started = time.perf_counter()
        if searches == 0:  # what checking a solution needs, loaded as part of the build
            checked: list[Constraint | LazyConstraint] = [
                *model.constraints, *model.after_search, *model.lazy]
            for constraint in {type(c): c for c in checked}.values():
                constraint.load()
        if compiled is not None:  # the round before's model, given its cuts if it can be
            compiled = backend.add_cuts(compiled, added, round_request, limits)
        if compiled is None:
            round_request = dataclasses.replace(round_request, keep=())
            compiled = backend.compile(current, current_lowered, round_request, limits)
        totals["build_s"] = _add(totals["build_s"],
                                 current_lowered.lowering_s + time.perf_counter() - started)
        searched = _search(backend, compiled, current, round_request, limits, verdicts,
                           restart_deadline=searches == 0)
        searches += 1
        tree = backend.search_tree(compiled) if request.tree_cap is not None else None
        if end is None and request.time_limit is not None:
            end = searched.started + request.time_limit
        for name in ("solve_s", "solve_cpu_s"):
            totals[name] = _add(totals[name], getattr(searched, name))
        building = min(backend.building_s(compiled), searched.solve_s)
        totals["build_s"] = _add(totals["build_s"], building)
        totals["solve_s"] = _add(totals["solve_s"], -building)
        totals["peak_memory_mb"] = _larger(totals.get("peak_memory_mb"), searched.peak_memory_mb)
        round_counters = _declared_counters(backend, backend.counters(compiled))
        round_first = round_counters.pop("first_branches", searched.first_branches)
        if first_branches is None and searched.accepted_first and round_first is not None:
            first_branches = round_first + (counters.get("branches") or 0)
        counters = _combined(counters, round_counters)
        if (round_request.keep and searched.exhausted and not searched.timed_out
                and not searched.cuts and not verdicts.found()):
            keep, added = (), []  # nothing near the cuts: the whole model, same cuts
            continue
        if searched.interrupted or searched.failure or searched.wrong or not searched.cuts:
            break
        verdicts.add_cuts(searched.cuts)
        hint = searched.stopped_on
        if near is not None and model.lazy_repair is not None:
            keep = near.kept({v for cut in searched.cuts for v in cut.variables()},
                             model.lazy_repair)
        current = current.with_cuts(searched.cuts)
        grown = lower_more(current_lowered, searched.cuts, backend)
        added = grown.constraints[len(current_lowered.constraints):]
        if len(grown.variables) > len(current_lowered.variables):
            compiled = None  # cuts that need new variables: compile afresh
        current_lowered = grown
    statistics = Statistics(**counters, first_branches=first_branches, **totals,
                            solutions=verdicts.found(), **verdicts.statistics(),
                            **model_size(model, current_lowered))
    if searched.interrupted:
        raise SearchInterrupted(statistics)
    result = _record(backend, model, request, verdicts, searched, statistics)
    return result if tree is None else dataclasses.replace(result, tree=tree)


def model_size(model: Model, lowered: LoweredModel) -> dict[str, int]:
    """The size figures of a run: ``model`` as built, and ``lowered`` as its solver is
    given it (the last search's, with the cuts of the rounds before)."""
    return {"model_variables": len(model.variables),
            "model_constraints": len(model.constraints) + len(model.after_search)
            + len(model.lazy),
            "posted_variables": len(lowered.variables),
            "posted_constraints": len(lowered.constraints)}


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a search: a ``KeyboardInterrupt`` (whoever stops on one still
    does) that carries the run's figures up to then, so a command can show them as it
    shows a timeout's."""

    def __init__(self, statistics: Statistics) -> None:
        super().__init__("interrupted")
        self.statistics = statistics


@dataclasses.dataclass
class _Search:
    """What one search of a run did."""

    verdicts: Verdicts
    started: float = 0.0
    solve_s: float = 0.0
    solve_cpu_s: float = 0.0
    peak_memory_mb: float | None = None
    first_branches: int | None = None
    accepted_first: bool = False  # whether it found the run's first solution
    exhausted: bool = False
    timed_out: bool = False
    interrupted: bool = False  # by Ctrl-C: the run ends as SearchInterrupted
    failure: str = ""
    wrong: str = ""
    cuts: list[Constraint] = dataclasses.field(default_factory=list)
    stopped_on: tuple[int, ...] | None = None  # the solution whose cuts end the search


def _search(backend: Backend, compiled: object, model: Model, request: SolveRequest,
            limits: SearchLimits, verdicts: Verdicts, *, restart_deadline: bool) -> _Search:
    """One search: its solutions judged, its times and memory measured."""
    searched = _Search(verdicts)
    enumerating = request.max_solutions != 1 or verdicts.judged
    seen: set[tuple[int, ...]] = set()
    try:  # leaving the block after Ctrl-C raises KeyboardInterrupt, the figures kept
        with PeakMemory() as memory, ctrl_c_stops(limits):
            request.searching()
            if restart_deadline:  # later searches share the run's deadline
                limits.deadline.restart()
            cpu_started = time.process_time()
            searched.started = time.perf_counter()
            solutions = backend.search(compiled)
            try:
                for values in solutions:
                    if enumerating:
                        if values in seen:  # auxiliaries may repeat a solution of the model
                            continue
                        seen.add(values)
                    verdict = verdicts.verdict(values)
                    if verdict == "pass":  # rejected (or accepted before): neither counted
                        verdicts.note_rejected(values)  # nor returned, so not checked
                        continue
                    if verdict == "stop":
                        searched.stopped_on = values
                        searched.cuts, searched.failure = verdicts.cuts(values)
                        break
                    searched.wrong = searched.wrong or _violated(model, values, backend.name)
                    if verdicts.accept(values):
                        searched.accepted_first = True
                        searched.first_branches = backend.counters(compiled).get("branches")
                    if verdicts.enough():
                        break
                else:
                    searched.exhausted = True
            except SolverError as error:
                searched.failure = str(error)
            finally:
                solutions.close()  # a backend ends its search (and frees its solver) here
            searched.solve_s = time.perf_counter() - searched.started
            searched.solve_cpu_s = time.process_time() - cpu_started
    except KeyboardInterrupt:
        if not limits.interrupted:  # not the Ctrl-C this search stopped on
            raise
        searched.interrupted = True
    searched.peak_memory_mb = memory.value
    searched.timed_out = limits.timed_out
    return searched


def _record(backend: Backend, model: Model, request: SolveRequest, verdicts: Verdicts,
            last: _Search, statistics: Statistics) -> SolveResult:
    """The run's record, from the last search's end."""
    heuristic = str(request.heuristic)
    first = verdicts.first()
    assignment = None if first is None else dict(zip(model.variables, first))
    if last.failure or last.wrong:
        return SolveResult(Status.ERROR, None, statistics, False, backend.name, heuristic,
                           last.failure or last.wrong)
    found = verdicts.found()
    timed_out = last.timed_out and (request.max_solutions is None
                                    or found < request.max_solutions)
    status = Status.TIMEOUT if timed_out else (Status.SOLVED if found
                                               else Status.UNSATISFIABLE)
    complete = last.exhausted and not last.timed_out
    return SolveResult(status, assignment, statistics, complete, backend.name, heuristic,
                       found=tuple(verdicts.accepted))


def _violated(model: Model, values: tuple[int, ...], backend: str) -> str:
    """Why a backend's solution is wrong (the posted constraints it breaks), or ''."""
    assignment = dict(zip(model.variables, values))
    if model.posted_satisfied_by(assignment):
        return ""
    broken = sorted({c.kind for c in model.constraints if not c.holds(assignment)})
    return f"backend {backend!r} returned an assignment that violates {', '.join(broken)}"


def _combined(before: Mapping[str, int | None],
              more: Mapping[str, int | None]) -> dict[str, int | None]:
    """Two searches' counters as one run's, each combined as its statistic declares."""
    combined = dict(before)
    for name, value in more.items():
        rule = STATISTICS.get(name).combine
        if name not in combined:
            combined[name] = value
        elif rule == "max":
            combined[name] = _larger(combined[name], value)
        elif rule == "last":
            combined[name] = value
        else:
            combined[name] = _add(combined[name], value)
    return combined


def _add(a: Any, b: Any) -> Any:
    return None if a is None and b is None else (a or 0) + (b or 0)


def _larger(a: Any, b: Any) -> Any:
    return None if a is None and b is None else max(x for x in (a, b) if x is not None)


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
    return SolveResult(status, None, measured or Statistics(), False, backend,
                       heuristic, detail.strip())
