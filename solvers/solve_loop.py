"""The one solve loop every backend runs under.

A backend gives a declaration and three hooks (:class:`~solvers.backend_contract.Backend`);
this module does the rest, the same way for all of them: lowering the model to the
declared native constraints (refusing what the declaration rules out), build and
search times (wall and CPU), peak memory, the deadline, Ctrl-C (which ends the solve
as :class:`SearchInterrupted`, carrying the figures so far), counting distinct
solutions up to the limit, checking each against the model, and the end status. It
also keeps the constraints a model leaves out of the search: it rejects the solutions
that break one checked after search, and on a solution that breaks a lazy one it
searches a copy of the model again with that constraint's cuts (each search one round
of the same run: one deadline, figures summed).
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Mapping
from typing import Any

from puzzlelab.errors import SolverError, UnsupportedCombination
from puzzlelab.statistics import STATISTICS
from solvers.backend_contract import Backend, LoweredModel, SolveRequest, Verdict
from solvers.capabilities import constraint_refusal, variable_refusal
from solvers.constraints import Constraint
from solvers.decompositions import decompose
from solvers.interrupt import ctrl_c_stops
from solvers.limits import SearchLimits
from solvers.memory import PeakMemory
from solvers.model import LazyConstraint, Model
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
    ``error`` (a rejected one is not checked: it is neither counted nor returned, and
    checking it would only slow the course's way down). A solution that breaks a
    constraint checked after search is rejected and the search goes on; one that
    breaks a lazy constraint adds its cuts to a copy of the model, searched again from
    scratch (:class:`_Verdicts`). The run's figures are then those of all its searches
    (summed, as each statistic declares), and its time limit covers them all.
    """
    verdicts = _Verdicts(model, request.max_solutions)
    judged = verdicts.judged
    current, current_lowered = model, lowered
    totals: dict[str, float | None] = {"build_s": 0.0, "solve_s": 0.0, "solve_cpu_s": 0.0}
    counters: dict[str, int | None] = {}
    first_branches: int | None = None
    searches, end = 0, None
    hint: tuple[int, ...] | None = None  # where the last lazy round stopped
    tree = None
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
                                            hint=hint)
        limits = SearchLimits(time_left)
        started = time.perf_counter()
        if searches == 0:  # what checking a solution needs, loaded as part of the build
            checked: list[Constraint | LazyConstraint] = [
                *model.constraints, *model.after_search, *model.lazy]
            for constraint in {type(c): c for c in checked}.values():
                constraint.load()
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
        if searched.interrupted or searched.failure or searched.wrong or not searched.cuts:
            break
        verdicts.add_cuts(searched.cuts)
        hint = searched.stopped_on
        current = current.with_cuts(searched.cuts)
        current_lowered = lower(current, backend)
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

    verdicts: _Verdicts
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
            limits: SearchLimits, verdicts: _Verdicts, *, restart_deadline: bool) -> _Search:
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
                    searched.wrong = searched.wrong or _violated(model, values, backend.name)
                    if verdict == "stop":
                        searched.stopped_on = values
                        searched.cuts, searched.failure = verdicts.cuts(values)
                        break
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


class _Verdicts:
    """The run's word on each solution a search finds, and what it has accepted.

    In order: a solution already accepted (by an earlier search) is passed over; one
    that breaks a constraint checked after search is rejected (passed over, counted);
    one that breaks a lazy constraint stops the search, which starts again with that
    constraint's cuts; any other is accepted. :meth:`verdict` changes nothing but its
    memory of the checks, so a backend may ask it too (``SolveRequest.judge``).
    """

    def __init__(self, model: Model, max_solutions: int | None) -> None:
        self.model, self.max_solutions = model, max_solutions
        self.judged = bool(model.after_search or model.lazy)
        self.accepted: dict[tuple[int, ...], None] = {}  # in the order found
        self.rejected: set[tuple[int, ...]] = set()
        self.rounds = self.cuts_added = 0
        self.checked: dict[tuple[int, ...], Verdict] = {}  # each solution judged once

    def verdict(self, values: tuple[int, ...]) -> Verdict:
        if values in self.accepted or values in self.rejected:
            return "pass"
        if not self.judged:
            return "accept"
        if values not in self.checked:  # a backend's judge may have asked already
            assignment = dict(zip(self.model.variables, values))
            self.checked[values] = (
                "pass" if not all(c.holds(assignment) for c in self.model.after_search)
                else "stop" if not all(c.holds(assignment) for c in self.model.lazy)
                else "accept")
        return self.checked[values]

    def note_rejected(self, values: tuple[int, ...]) -> None:
        if values not in self.accepted:
            self.rejected.add(values)

    def accept(self, values: tuple[int, ...]) -> bool:
        """Count ``values`` as a solution; True when it is the run's first."""
        self.accepted[values] = None
        return len(self.accepted) == 1

    def enough(self) -> bool:
        return self.max_solutions is not None and self.found() >= self.max_solutions

    def found(self) -> int:
        return len(self.accepted)

    def first(self) -> tuple[int, ...] | None:
        return next(iter(self.accepted), None)

    def cuts(self, values: tuple[int, ...]) -> tuple[list[Constraint], str]:
        """The cuts of every lazy constraint ``values`` breaks, and why they are no
        good ('' when they are): they must exclude ``values``, or the next search
        could stop on it again and again."""
        assignment = dict(zip(self.model.variables, values))
        broken: list[LazyConstraint] = [c for c in self.model.lazy if not c.holds(assignment)]
        cuts = [cut for constraint in broken for cut in constraint.cuts(assignment)]
        if all(cut.holds(assignment) for cut in cuts):
            kinds = ", ".join(sorted({getattr(c, "kind", type(c).__name__) for c in broken}))
            return cuts, (f"lazy {kinds}: a solution breaks it, but its cuts do not "
                          f"exclude that solution")
        return cuts, ""

    def add_cuts(self, cuts: list[Constraint]) -> None:
        self.rounds += 1
        self.cuts_added += len(cuts)

    def statistics(self) -> dict[str, int | None]:
        lazy = bool(self.model.lazy)
        return {"rejected": len(self.rejected) if self.model.after_search else None,
                "lazy_rounds": self.rounds if lazy else None,
                "lazy_cuts": self.cuts_added if lazy else None}


def _record(backend: Backend, model: Model, request: SolveRequest, verdicts: _Verdicts,
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
