"""Backend ``choco``: the Choco solver through pychoco (Choco compiled by GraalVM native image).

Every constraint of the model language is native to Choco, so nothing is decomposed
(:mod:`.posting`): ``all_different`` weak is Choco's ``FC`` (an instantiated value
leaves the other domains, as on ``cp``), strong its ``AC`` (arc consistency; ``cp``'s
strong is bounds consistency); ``linear`` is ``scalar``; ``inverse``
``inverse_channeling``; ``count``, ``global_cardinality`` (open form), ``element``,
``table`` and ``regular`` (a finite automaton) are Choco's own; ``clause`` its SAT
clauses, exactly/at most one Boolean sums; ``no_overlap_2d`` is ``diffN``;
``connected`` an undirected graph variable whose edges are channelled to
``weight != 0``, under Choco's ``graph_connected``.

Search (:mod:`.strategies`): a named heuristic is Choco's own strategy on the plan's
decision variables (first unbound in plan order, or smallest domain with ties by plan
order; lower or upper bound first), so it branches exactly as ``cp`` does. A value
ranking is a search written in Python that Choco calls back at each node (several
times slower). ``auto`` is Choco's default search (dom/wdeg-based, on every
variable). Choco leaves the variables a strategy does not name open, so a solution
with some open is finished by a second search on them (first unbound, smallest
value), as ``cp``'s second phase. Probing is refused: pychoco gives no way to
propagate trial values under the search. Root propagation (the domains before the first
decision, :mod:`.root`) is Choco's own ``propagate``, which pychoco 0.4 exposes only as
a low-level call.

Limits: the time limit is Choco's own. pychoco holds the GIL for a whole search, so
no other thread (Ctrl-C's watcher, a stop from another thread) runs before it returns,
and no stop is registered. Where Ctrl-C can arrive (``limits.watched``), a propagator
written in Python on the branching variables fails every node once ``limits.passed()``
(Python runs the Ctrl-C handler inside that call), which unwinds the search at once;
it costs a Python call at each propagation of those variables (a Sudoku search takes
about 1.5 times as long).

Statistics: ``backtracks`` is Choco's fail count (failed nodes), not its backtrack
count, which also counts each move up after a solution; ``branches`` is every decision
and refutation tried, as ``cp`` counts them: Choco's node count (the root and each
branch whose propagation held: MiniZinc's ``nodes`` from fzn-choco) plus its fails,
less the root; ``restarts`` is Choco's restart count (its default search seldom restarts:
0 is a count, not a figure missing). No propagation or conflict count reaches pychoco.

pychoco is imported (and Choco's native image started, reserving 32 GB of address space)
by the backend's ``load``, which the runner's workers call before a run's memory limit
(an address-space limit) is set, or else by the first solve: not by naming the backend
or planning a campaign on it, so the runner, which only plans, never starts Choco.
Where pychoco is not installed, or the address space left is too small, the backend
says so without importing it; where it then fails to start, the solve says why
(PuzzleLab runs on without it).
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

from puzzlelab.errors import UnsupportedCombination
from solvers.backend_contract import LoweredModel, RootPropagator, SolveRequest
from solvers.backends import BACKENDS
from solvers.backends.choco.posting import CHOCO_BOUND, POSTERS, ChocoModel, ChocoVars
from solvers.backends.choco.strategies import post_stop_check, set_search
from solvers.capabilities import (
    DWAY_LABELLING,
    PROBING,
    SEARCH_TREE,
    WEIGHTED_DEGREE,
    Capabilities,
)
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.variables import IntVar

#: the address space Choco's native image reserves as it starts (measured: 32.1 GB)
CHOCO_ADDRESS_SPACE = 33 << 30


def _start() -> str | None:
    """Import pychoco (which starts Choco's native image), or say why it cannot be.

    Where the address space is limited too tightly the image cannot start, and it then
    ends the whole process; so that is checked first."""
    refused = _address_refusal()
    if refused:
        return refused
    try:
        importlib.import_module("pychoco")
    except (ImportError, OSError) as error:
        return f"pychoco cannot be imported ({error}); install pychoco>=0.4"
    return None


_STARTED: list[str | None] = []
"""What starting Choco said in this process: empty until it is started."""


def _start_choco() -> str | None:
    """:func:`_start`, once a process."""
    if not _STARTED:
        _STARTED.append(_start())
    return _STARTED[0]


def _address_refusal() -> str | None:
    """Why Choco's native image cannot start in this process's address space, or None."""
    room = _address_space_left()
    if room is not None and room < CHOCO_ADDRESS_SPACE:
        return (f"Choco's native image reserves about 32 GB of address space as it starts, "
                f"and this process may map only {room >> 20} MB more")
    return None


def _address_space_left() -> int | None:
    """Bytes of address space this process may still map, or None for no limit."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/status", encoding="ascii") as status:
            size = next(int(line.split()[1]) * 1024 for line in status
                        if line.startswith("VmSize:"))
    except (ImportError, OSError, StopIteration):  # not Linux: try the import
        return None
    return int(limit) - size


def _api() -> Any:
    """pychoco's low-level calls (Choco started already: by ``load`` or ``compile``)."""
    return importlib.import_module("pychoco.backend")


@dataclass
class _Compiled:
    """A Choco model ready to search, and what the three hooks read of it."""

    lowered: LoweredModel
    limits: SearchLimits
    model: ChocoModel
    solver: Any
    choco: ChocoVars
    watched: list[IntVar]  # the variables the search branches on, for the Ctrl-C check
    size: int  # the number of the model's own variables (the first of ``lowered``'s)
    name: str
    #: branches, fails and restarts when a stop began to unwind the search (which adds
    #: fails)
    stopped_at: tuple[int, int, int] | None = None
    #: branches, fails and restarts when the search ended and its solver was freed
    final: tuple[int, int, int] | None = None
    #: branches, fails and restarts of the searches that finished open solutions
    finished: list[int] = field(default_factory=lambda: [0, 0, 0])
    finishing: Any = None  # the solver of the one finishing an open solution now


def _build(name: str, lowered: LoweredModel,
           fixed: Mapping[IntVar, int] | None = None) -> tuple[ChocoModel, Any, ChocoVars]:
    """The Choco model of ``lowered`` (``fixed`` variables given their value), its solver."""
    model = ChocoModel(name)
    try:
        choco: ChocoVars = {}
        for variable in lowered.variables:
            if max(-variable.lb, variable.ub) > CHOCO_BOUND:
                raise UnsupportedCombination(
                    f"backend 'choco' takes values within +-{CHOCO_BOUND} (Choco's bound), "
                    f"and {variable} ranges over {variable.lb}..{variable.ub}")
            domain = (fixed[variable],) if fixed and variable in fixed else variable.domain
            choco[variable] = model.int_var(variable.name, domain)
        for constraint in lowered.constraints:
            POSTERS[type(constraint)](model, choco, constraint)
        return model, model.keep(model.api.get_solver(model.handle)), choco
    except BaseException:
        model.free()
        raise


def _time_limit(seconds: float) -> str:
    """A time limit in Choco's notation (it reads decimal seconds)."""
    return f"{max(seconds, 0.001):.3f}s"


def _counts(api: Any, solver: Any) -> tuple[int, int, int]:
    """A Choco search's branches, fails and restarts so far (see the module docstring)."""
    fails = api.get_fail_count(solver)
    return api.get_node_count(solver) + fails - 1, fails, api.get_restart_count(solver)


@BACKENDS.register("choco")
class ChocoBackend(RootPropagator[_Compiled]):
    """The Choco solver: depth-first search with its own strategies, fail and node counts."""

    name = "choco"
    capabilities = Capabilities(
        library="Choco solver (`pychoco`)",
        summary="a second depth-first solver: AC all_different, graph-variable connected, "
                "diffN, its own fail and node counts",
        native=frozenset(POSTERS),
        own_search="Choco's default search (dom/wdeg-based)",
        weighted_degree=frozenset({"min"}),
        root_propagation=True,
        statistics=frozenset({"backtracks", "branches", "restarts"}),
        statistic_notes={
            "backtracks": "Choco's fail count (not its backtrack count, which also counts "
                          "each move up after a solution)",
            "branches": "Choco's nodes plus fails less the root: every decision and "
                        "refutation tried, as cp counts them",
            "restarts": "Choco's own restart count"},
        reasons={WEIGHTED_DEGREE: "Choco's dom/wdeg strategy tries each variable's smallest "
                                  "value first",
                 PROBING: "pychoco gives no way to propagate trial values under Choco's "
                          "search (no singleton-consistency or nested-propagation hook)",
                 DWAY_LABELLING: "pychoco 0.4 offers Choco's preset searches, which branch "
                                 "x = v / x != v; a d-way enumeration needs a custom "
                                 "strategy it does not expose",
                 SEARCH_TREE: "pychoco 0.4 runs Choco's search inside its native library "
                              "and exposes no search monitor: no decision or failure is "
                              "seen from Python"})

    @classmethod
    def unavailable(cls) -> str | None:
        """What starting Choco said, once it was started; before that, what can be known
        without starting it (that pychoco is installed, and the address space left)."""
        if _STARTED:
            return _STARTED[0]
        if importlib.util.find_spec("pychoco") is None:
            return "pychoco is not installed; install pychoco>=0.4"
        return _address_refusal()

    @classmethod
    def load(cls) -> None:
        _start_choco()

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Compiled:
        missing = _start_choco()
        if missing:
            raise UnsupportedCombination(f"backend 'choco' is unavailable here: {missing}")
        choco_model, solver, choco = _build(model.name, lowered)
        chosen = set(request.plan.variables)
        rest = [v for v in lowered.variables if v not in chosen]
        set_search(choco_model, solver, choco, request.plan, rest)
        watched = lowered.variables if request.plan.auto else list(request.plan.variables) or rest
        return _Compiled(lowered, limits, choco_model, solver, choco, watched,
                         len(model.variables), model.name)

    def root_domains(self, compiled: _Compiled) -> dict[IntVar, tuple[int, ...]] | None:
        from solvers.backends.choco.root import read_root  # only studies of propagation ask

        try:
            size = compiled.size
            return read_root(_api(), compiled.solver,
                             {v: compiled.choco[v] for v in compiled.lowered.variables[:size]})
        finally:
            compiled.model.free()

    def search(self, compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
        api, limits, solver = _api(), compiled.limits, compiled.solver
        try:
            if limits.watched and compiled.watched:
                post_stop_check(compiled.model, [compiled.choco[v] for v in compiled.watched],
                                lambda: _must_stop(compiled))
            if limits.time_limit is not None:
                api.limit_time(solver, _time_limit(limits.time_limit))
            no_criteria = compiled.model.keep(api.create_criterion_array(0))
            variables = [compiled.choco[v] for v in compiled.lowered.variables]
            while api.solve(solver, no_criteria):
                if all(api.is_instantiated(v) for v in variables):
                    yield tuple(api.get_intvar_value(v) for v in variables[:compiled.size])
                else:
                    yield from _finish(compiled)
                    if compiled.stopped_at is not None:
                        return
            if api.get_search_state(solver) == "STOPPED":
                limits.time_ran_out()
        finally:
            compiled.final = compiled.stopped_at or _counts(api, solver)
            compiled.model.free()

    def counters(self, compiled: _Compiled) -> dict[str, int | None]:
        api = _api()
        counts = list(compiled.final or compiled.stopped_at or _counts(api, compiled.solver))
        if compiled.finishing is not None:
            counts = [a + b for a, b in zip(counts, _counts(api, compiled.finishing))]
        branches, fails, restarts = (a + b for a, b in zip(counts, compiled.finished))
        return {"branches": branches, "backtracks": fails, "restarts": restarts}


def _must_stop(compiled: _Compiled) -> bool:
    """Whether the search must stop now (Ctrl-C, or the deadline seen passing); the
    counters keep the figures from before the failures that then unwind it."""
    if not compiled.limits.passed():
        return False
    if compiled.stopped_at is None:
        compiled.stopped_at = _counts(_api(), compiled.solver)
    return True


def _finish(compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
    """Every solution extending the open one Choco stands on: a search, first unbound and
    smallest value, on the variables it left open, the others fixed at their values."""
    api, choco = _api(), compiled.choco
    fixed = {v: api.get_intvar_value(choco[v]) for v in compiled.lowered.variables
             if api.is_instantiated(choco[v])}
    model, solver, finishing = _build(compiled.name, compiled.lowered, fixed)
    try:
        open_variables = [finishing[v] for v in compiled.lowered.variables if v not in fixed]
        api.set_input_order_lb_search(solver, model.variables(open_variables))
        end = compiled.limits.deadline.end
        if end is not None:
            api.limit_time(solver, _time_limit(end - time.perf_counter()))
        no_criteria = model.keep(api.create_criterion_array(0))
        variables = [finishing[v] for v in compiled.lowered.variables[:compiled.size]]
        compiled.finishing = solver
        while api.solve(solver, no_criteria):
            yield tuple(api.get_intvar_value(v) for v in variables)
        if api.get_search_state(solver) == "STOPPED":
            compiled.limits.time_ran_out()
            compiled.stopped_at = _counts(api, compiled.solver)
    finally:
        compiled.finished[:] = [a + b for a, b in zip(compiled.finished,
                                                      _counts(api, solver))]
        compiled.finishing = None
        model.free()
