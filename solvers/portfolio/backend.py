"""Backend ``auto``: a portfolio of configurations; the first proven answer wins.

A configuration is a backend and its heuristic (:data:`CONFIGURATIONS`): CP-SAT's own
search with symmetric search first, and the automata backend's belief-propagation
search. They fail on different puzzles (CP-SAT on Faase, the belief search on the
domino patterns and non_med_4), so together they solve what each solves.

Asked for one solution (``auto``, or a named heuristic, which each configuration's
backend then runs), the portfolio first gives its first configuration a short budget in
this process (:data:`FIRST_BUDGET_S`: most puzzles end there, with no process started);
then, with two cores or more (:func:`solvers.portfolio.cores_allowed`), every
configuration runs from scratch in its own forked process for the time left, and the
first answer (a solution, or a proof that there is none) ends the others; on one core
they run in turn here, sharing the time left. Counting solutions runs the first
configuration alone, in this process: the solve loop counts the solutions it receives,
and a race has one answer to give, not every solution.

The run's counts (branches, backtracks, ...) are those of the configuration that
answered, which the record's ``portfolio.answered_by`` names; its ``runs`` list every
run of a configuration with its own figures, or none for a run killed when another
answered. Time, CPU and memory are this process's, as on every backend: the portfolio's
own time to its answer, except that the build of the configuration that answered (its
model compiled in its own run, the automata engine's first compile among it) counts as
build time, not search (``solvers.solving``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

import solvers.backends.automata
import solvers.backends.cpsat  # noqa: F401 (both register the backends the portfolio runs)
from puzzlelab.errors import SolverError, UnsupportedCombination
from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.backends import BACKENDS
from solvers.capabilities import AFTER_SEARCH, SEARCH_TREE, Capabilities
from solvers.constraints import CONSTRAINT_TYPES
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.portfolio.race import Configuration, Outcome, Race, cores_allowed, run_here
from solvers.record import PortfolioAnswer, Status

CONFIGURATIONS = (Configuration("cpsat", "auto+symmetric"), Configuration("automata", "auto"))
FIRST_BUDGET_S = 0.5
"""Seconds the first configuration has alone, in this process, before any process starts:
long enough for what CP-SAT solves at once, short enough not to delay the race (the
budgets measured: docs/defaults.md)."""


def declaration(configurations: Iterable[Configuration]) -> Capabilities:
    """What a portfolio of ``configurations`` can run: what each of their backends can
    (every configuration searches the same model), each lack with its backend's reason."""
    chosen = list(configurations)
    declared = {c.backend: BACKENDS.get(c.backend).capabilities for c in chosen}

    def common(values: Iterable[frozenset[Any]]) -> frozenset[Any]:
        return frozenset.intersection(*values)

    reasons: dict[str, str] = {}
    for backend, capabilities in declared.items():
        for capability, reason in capabilities.reasons.items():
            reasons.setdefault(capability, f"its {backend} configuration: {reason}")
    reasons[AFTER_SEARCH] = ("its configurations each return one answer from their own "
                             "process, not every solution they found, so the solve loop "
                             "cannot reject or cut them: choose one backend")
    reasons[SEARCH_TREE] = ("its configurations race, and the answer is whichever "
                            "finishes first: no one search to draw; run a configuration's "
                            "backend with its heuristic")
    statistics = frozenset().union(*(d.statistics for d in declared.values()))
    return Capabilities(
        library="a portfolio of " + " and ".join(f"`{b}`" for b in declared),
        summary="the first proven answer of several configurations, in parallel processes "
                "on two cores (in turn on one)",
        native=frozenset(CONSTRAINT_TYPES),  # each configuration lowers the model itself
        all_different=common(d.all_different for d in declared.values()),
        integer_variables=all(d.integer_variables for d in declared.values()),
        value_choices=common(d.value_choices for d in declared.values()),
        weighted_degree=common(d.weighted_degree for d in declared.values()),
        own_search=" beside ".join(c.name for c in chosen) + ", the first answer wins",
        probing=common(d.probing for d in declared.values()),
        probing_with_own_search=common(d.probing_with_own_search for d in declared.values()),
        python_propagated=frozenset().union(*(d.python_propagated for d in declared.values())),
        after_search=False,
        statistics=statistics,
        statistic_notes={name: "the figure of the configuration that answered "
                               "(the run's portfolio.answered_by)" for name in statistics},
        reasons=reasons)


@dataclass
class _Run:
    """One portfolio run: what to solve, and what each configuration did."""

    model: Model
    request: SolveRequest
    limits: SearchLimits
    mode: str = ""
    outcomes: list[Outcome] = field(default_factory=list)
    answer: Outcome | None = None
    counting: tuple[Backend[Any], Any, Configuration] | None = None  # backend, compiled

    def time_left(self) -> float | None:
        end = self.limits.deadline.end
        return None if end is None else end - time.perf_counter()

    def heuristic(self, configuration: Configuration) -> str:
        return configuration.heuristic_for(self.request.heuristic, self.request.max_solutions)


@BACKENDS.register("auto")
class PortfolioBackend(Backend[_Run]):
    """Several configurations on one model, the first proven answer kept."""

    name = "auto"
    configurations = CONFIGURATIONS
    capabilities = declaration(CONFIGURATIONS)

    def __init__(self) -> None:
        self.run: _Run | None = None

    @classmethod
    def unavailable(cls) -> str | None:
        for configuration in cls.configurations:
            missing = BACKENDS.get(configuration.backend).unavailable()
            if missing:
                return f"its {configuration.backend} configuration: {missing}"
        return None

    @classmethod
    def first_use(cls) -> str | None:
        for backend in dict.fromkeys(c.backend for c in cls.configurations):
            warning = BACKENDS.get(backend).first_use()
            if warning:
                return warning
        return None

    @classmethod
    def load(cls) -> None:
        for backend in dict.fromkeys(c.backend for c in cls.configurations):
            BACKENDS.get(backend).load()

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Run:
        run = _Run(model, request, limits)
        if request.max_solutions != 1:
            from solvers.solving import prepare

            first = self.configurations[0]
            backend, plan_request, first_lowered = prepare(model, first.backend,
                                                           run.heuristic(first), request.seed)
            inner = dataclasses.replace(plan_request, time_limit=request.time_limit,
                                        max_solutions=request.max_solutions)
            run.counting = (backend, backend.compile(model, first_lowered, inner, limits), first)
            run.mode = "counting: the first configuration alone, in this process"
        self.run = run
        return run

    def search(self, compiled: _Run) -> Generator[tuple[int, ...], None, None]:
        run = compiled
        if run.counting is not None:
            backend, inner, _ = run.counting
            yield from backend.search(inner)
            return
        if cores_allowed() >= 2 and len(self.configurations) > 1:
            run.mode = "first here, then in parallel processes"
            run.answer = self._in_parallel(run)
        else:
            run.mode = "in turn, in this process"
            run.answer = self._in_turn(run)
        if run.answer is None:
            _no_answer(run)
        elif run.answer.values is not None:
            yield run.answer.values

    def counters(self, compiled: _Run) -> dict[str, int | None]:
        if compiled.counting is not None:
            backend, inner, _ = compiled.counting
            return dict(backend.counters(inner))
        figures = compiled.answer.statistics if compiled.answer else None
        if not figures:
            return {}
        return {name: figures.get(name) for name in
                (*self.capabilities.statistics, "first_branches")}

    def building_s(self, compiled: _Run) -> float:
        """The portfolio builds nothing itself: the configuration that answered compiled
        the model inside the portfolio's search (in a forked child, during the race;
        the automata engine's first compile on a machine: seconds). That build is the
        run's build, as when that backend runs alone, not search time. Counting runs
        the first configuration here, built in ``compile``: nothing to move."""
        answer = compiled.answer
        if answer is None or not answer.answered or not answer.statistics:
            return 0.0
        return float(answer.statistics.get("build_s") or 0.0)

    def describe_run(self) -> PortfolioAnswer | None:
        """The record's portfolio account: which configuration answered, and every run."""
        run = self.run
        if run is None:
            return None
        if run.counting is not None:
            first = run.counting[2]
            answered_by: str | None = first.running(run.heuristic(first))
        else:
            answered_by = run.answer.configuration if run.answer else None
        return PortfolioAnswer(answered_by, run.mode,
                               tuple(outcome.summary() for outcome in run.outcomes))

    def _in_parallel(self, run: _Run) -> Outcome | None:
        """The first configuration alone for a short budget, then every one at once."""
        first = self._first(run)
        if first is not None and first.answered:
            return first
        left = run.time_left()
        if run.limits.interrupted or (left is not None and left <= 0):
            return None
        with Race(run.model, run.request.max_solutions, run.request.seed) as race:
            for configuration in self._still_worth_running(run):
                race.start(configuration, run.heuristic(configuration), run.time_left())
            answer = race.first_answer(lambda: run.limits.interrupted, run.limits.deadline.end)
        run.outcomes.extend(race.outcomes)
        return answer

    def _in_turn(self, run: _Run) -> Outcome | None:
        """The first configuration for a short budget, then each in turn: with a time
        limit, each configuration gets an equal share of the time its runs have had and
        the time left (:func:`_fair_share`); without, the budgets double every round."""
        first = self._first(run)
        if first is not None and first.answered:
            return first
        budget = 2 * FIRST_BUDGET_S
        while True:
            turn = self._still_worth_running(run)
            order = turn[1:] + turn[:1]  # the first configuration has just had its turn
            if not order:
                return None
            for index, configuration in enumerate(order):
                left = run.time_left()
                if run.limits.interrupted or (left is not None and left <= 0):
                    return None
                share = budget if left is None else _fair_share(run, order[index:], left)
                if share <= 0:
                    continue  # its runs have had more than their part already
                outcome = run_here(configuration, run.heuristic(configuration), run.model,
                                   share, run.request.max_solutions, run.request.seed)
                run.outcomes.append(outcome)
                if outcome.answered:
                    return outcome
            if run.time_left() is not None:
                return None
            budget *= 2

    def _first(self, run: _Run) -> Outcome | None:
        """The first configuration's short run in this process (None: no time for it)."""
        left = run.time_left()
        budget = FIRST_BUDGET_S if left is None else min(FIRST_BUDGET_S, left)
        if budget <= 0:
            return None
        configuration = self.configurations[0]
        outcome = run_here(configuration, run.heuristic(configuration), run.model, budget,
                           run.request.max_solutions, run.request.seed)
        run.outcomes.append(outcome)
        return outcome

    def _still_worth_running(self, run: _Run) -> list[Configuration]:
        """The configurations that have not refused this model already (they would
        again), in order. One that failed runs again: CP-SAT stopped by a short time
        limit may say it stopped early (an ``error``), and would answer given longer."""
        refused = {o.configuration for o in run.outcomes if o.status == Status.REFUSED.value}
        return [c for c in self.configurations if c.running(run.heuristic(c)) not in refused]


def _fair_share(run: _Run, turn: list[Configuration], left: float) -> float:
    """The time limit of ``turn[0]``, which runs next, before the rest of ``turn``:
    its equal part of the time left and of what ``turn``'s runs have taken so far, less
    what its own have. A configuration whose run overran its limit (CP-SAT's presolve
    does not stop at it) pays for the overrun from its own later share, not from the
    next configuration's."""
    def taken(configuration: Configuration) -> float:
        name = configuration.running(run.heuristic(configuration))
        return sum(o.wall_s or 0.0 for o in run.outcomes if o.configuration == name)

    pool = left + sum(taken(c) for c in turn)
    return min(left, max(0.0, pool / len(turn) - taken(turn[0])))


def _no_answer(run: _Run) -> None:
    """End a run no configuration answered: Ctrl-C, the time limit (when it ended any
    run: CP-SAT stopped by a short limit may call itself an ``error``), or the failures
    of every configuration. Each run's own status and message stay in its portfolio account."""
    if run.limits.interrupted:
        return  # the solve loop raises KeyboardInterrupt
    statuses = {o.status for o in run.outcomes}
    if statuses == {Status.REFUSED.value}:
        raise UnsupportedCombination("; ".join(o.message for o in run.outcomes))
    left = run.time_left()
    if not statuses or statuses & {Status.TIMEOUT.value, "stopped"} or (
            left is not None and left <= 0):
        run.limits.time_ran_out()
        return
    errors = [o for o in run.outcomes if o.status == Status.ERROR.value]
    if errors:
        raise SolverError("; ".join(f"{o.configuration}: {o.message}" for o in errors))
    raise MemoryError("every configuration that ran ran out of memory")
