"""Backend ``automata``: a compiled depth-first search for models of 0/1 variables.

Every constraint (``regular``, ``table``, clauses, exactly/at most one, linear and
reified equalities over 0/1 variables) is unrolled into a layered automaton
(:mod:`.network`), so one kernel revises them all to domain consistency: on a
nonogram's ``regular`` viewpoint that is line solving. Named heuristics run as on
``cp``, with the same choices and counts; ``+probe``/``+probe-all`` probe as
``cp`` does. ``auto`` is this engine's own search: it branches on the open decision
variable whose belief (sum-product belief propagation between the constraints) is
furthest from one half, likelier value first, and probes at the root and every
tenth level. The kernels are compiled by numba on first use (cached on disk after);
that time is part of ``build_s``.

Statistics: ``backtracks`` are failed choices and refutations, ``branches`` the
choices and refutations applied (as on ``cp``); ``propagations`` the constraint
revisions, probes' included; no conflicts.
"""

from __future__ import annotations

import time

import numpy as np

from puzzlelab.errors import UnsupportedCombination
from solvers.backends import BACKENDS
from solvers.backends.automata.network import UNROLLERS, compile_network
from solvers.backends.automata.strategy import Strategy
from solvers.backends.base import Backend, LoweredModel, SolveRequest
from solvers.backends.interrupt import interruptible
from solvers.backends.timing import Deadline
from solvers.constraints import Constraint
from solvers.heuristics import Heuristic, SearchPlan
from solvers.memory import PeakMemory
from solvers.model import Model
from solvers.record import SolveResult, Statistics
from solvers.variables import IntVar

#: auto probes at the root and then every this many levels, without merging (measured
#: on Faase: 5.5 s and no failed choice, against 8.7 s and 48 failed with merging;
#: docs/hard-nonograms.md)
AUTO_PROBE_EVERY = 10


def _non_boolean(variables: tuple[IntVar, ...] | list[IntVar]) -> IntVar | None:
    return next((v for v in variables if not v.is_boolean), None)


@BACKENDS.register("automata")
class AutomataBackend(Backend):
    """0/1 models as layered automata: propagation, probing and belief-guided search, compiled."""

    name = "automata"
    native = frozenset(UNROLLERS)
    summary = ("0/1 models as layered automata, compiled (numba): DFS with line solving and "
               "probing; auto = belief-propagation branching")

    def lower(self, model: Model) -> LoweredModel:
        """Refuse a model with a variable beyond 0/1 first: no rewriting would help it."""
        variable = _non_boolean(model.variables)
        if variable is not None:
            raise UnsupportedCombination(
                f"backend 'automata' takes 0/1 variables only, and {variable} ranges over "
                f"{variable.lb}..{variable.ub}")
        return super().lower(model)

    def refusal(self, constraint: Constraint) -> str | None:
        variable = _non_boolean(constraint.variables())
        if variable is not None:
            return (f"backend 'automata' takes 0/1 variables only: {constraint.kind} is on "
                    f"{variable}, whose domain is {variable.lb}..{variable.ub}")
        return None

    def unsupported_reason(self, heuristic: Heuristic, plan: SearchPlan) -> str | None:
        if plan.auto and plan.probing != "none":
            return (f"auto already probes (at the root and every {AUTO_PROBE_EVERY}th "
                    "level); name a heuristic for +probe or +probe-all")
        return None

    def solve(self, model: Model, lowered: LoweredModel,
              request: SolveRequest) -> SolveResult:
        started = time.perf_counter()
        from solvers.backends.automata.search import Search  # imports numba: only when used
        from solvers.backends.automata.warm_up import warm_up

        warm_up()
        network = compile_network(lowered.variables, lowered.constraints)
        strategy = _strategy(request.plan, lowered.variables)
        deadline = Deadline(request.time_limit)
        build_s = lowered.lowering_s + time.perf_counter() - started

        seen: set[bytes] = set()
        first: dict[IntVar, int] | None = None
        model_size = len(model.variables)

        def on_solution(dom: np.ndarray) -> bool:
            nonlocal first
            values = (dom[:model_size] == 2).astype(np.int8)
            key = values.tobytes()
            if key not in seen:
                seen.add(key)
                if first is None:
                    first = dict(zip(model.variables, values.tolist()))
            return request.max_solutions is None or len(seen) < request.max_solutions

        with PeakMemory() as memory, interruptible() as stop:
            search = Search(network, strategy, lambda: deadline.passed() or stop.is_set())
            request.searching()
            deadline.restart()
            search_started = time.perf_counter()
            exhausted = search.run(on_solution)
            solve_s = time.perf_counter() - search_started
        found = len(seen)
        status = deadline.outcome(found, request.max_solutions)
        tally = search.tally
        statistics = Statistics(
            build_s=build_s, solve_s=solve_s, backtracks=tally.backtracks,
            branches=tally.branches, conflicts=None, propagations=tally.revisions,
            solutions=found, peak_memory_mb=memory.value, first_branches=tally.first_branches,
            probes=tally.probes if strategy.probes else None,
            probe_fixed=tally.probe_fixed if strategy.probes else None)
        extra = {"belief_updates": tally.belief_updates} if strategy.guided else {}
        return SolveResult(status, first, statistics, exhausted and not deadline.crossed,
                           self.name, str(request.heuristic), extra=extra)


def _strategy(plan: SearchPlan, variables: list[IntVar]) -> Strategy:
    """The plan in network positions (a variable's position in ``variables``)."""
    position = {variable: index for index, variable in enumerate(variables)}
    decision = np.array([position[v] for v in plan.variables], dtype=np.int64)
    preferred = np.zeros(len(variables), dtype=np.int64)
    for variable in plan.variables:
        if len(variable.domain) == 2:
            preferred[position[variable]] = plan.ordered_values(variable, [0, 1])[0]
    chosen = set(plan.variables)
    rest = np.array([position[v] for v in variables if v not in chosen], dtype=np.int64)
    if plan.auto:
        return Strategy(decision, preferred, rest, guided=True, probe_root=True,
                        probe_every=AUTO_PROBE_EVERY, merge=False)
    return Strategy(decision, preferred, rest, probe_root=plan.probing != "none",
                    probe_every=1 if plan.probing == "nodes" else 0)
