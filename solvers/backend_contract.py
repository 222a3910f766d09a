"""What a backend is: a declaration of what it can do, and three hooks (compile, search, count)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Generic, Literal, TypeVar

from solvers.capabilities import Capabilities
from solvers.constraints import Constraint
from solvers.heuristics import Heuristic, SearchPlan
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.search_tree import SearchTree
from solvers.variables import IntVar

Compiled = TypeVar("Compiled")

SearchStart = Callable[[float | None], None]
"""Told a search's time limit as the search starts (see :func:`solvers.solve`)."""

Verdict = Literal["accept", "pass", "stop"]
"""The solve loop's word on a solution, for a backend that stops itself at the solution
limit: ``accept`` counts toward ``max_solutions``, ``pass`` does not (the search goes
on), ``stop`` ends the search at once (the loop will search again with more constraints)."""
Judge = Callable[[tuple[int, ...]], Verdict]


@dataclass(frozen=True)
class SolveRequest:
    """Everything a backend needs for one run.

    Attributes:
        plan: the search to perform (from :func:`solvers.heuristics.plan_search`).
        heuristic: the heuristic's name, echoed in the result.
        time_limit: seconds of search allowed, or None for no limit.
        max_solutions: stop after this many solutions; None to enumerate all.
        seed: seed of the solver's own randomness, where it has some.
        on_search_start: called with ``time_limit`` when the search starts, after the
            model is built: the experiment runner's kill timer starts there.
        judge: set when the model has constraints the search leaves out (checked after
            search, or lazy): a backend that stops itself at ``max_solutions`` counts
            only the solutions it accepts, and stops where it says ``stop``. A backend
            whose search the loop stops (a generator yielding as it goes) ignores it.
        hint: in a lazy round after the first, the values (of ``model.variables``) the
            round before stopped on: close to a solution, but for the cuts. A backend
            that takes hints may start its search from them; no answer changes.
        options: the backend's own options given for this run (names it declares in
            ``capabilities.options``; a backend reads its defaults for the others).
        tree_cap: record the search tree, keeping at most this many nodes (only on a
            backend declaring ``search_tree``); None: no recording, at no cost.
        keep: positions (in ``model.variables``) of the variables a repair round keeps
            at their ``hint`` values (:meth:`Model.repair_lazy_rounds`); only
            :meth:`Backend.add_cuts` is asked to keep them.
    """

    plan: SearchPlan
    heuristic: Heuristic
    time_limit: float | None = None
    max_solutions: int | None = 1
    seed: int = 0
    on_search_start: SearchStart | None = field(default=None, compare=False)
    judge: Judge | None = field(default=None, compare=False)
    hint: tuple[int, ...] | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    tree_cap: int | None = None
    keep: tuple[int, ...] = ()

    def searching(self) -> None:
        """Say that the search starts now (the solve loop calls it just before searching)."""
        if self.on_search_start is not None:
            self.on_search_start(self.time_limit)


@dataclass
class LoweredModel:
    """A model rewritten so that every constraint is native to one backend.

    ``lowering_s`` is the time the rewriting took: it is part of building the solver's
    model, so a backend counts it in ``build_s``.
    """

    variables: list[IntVar]
    constraints: list[Constraint] = field(default_factory=list)
    lowering_s: float = 0.0

    def new_var(self, lb: int, ub: int, name: str) -> IntVar:
        """An auxiliary variable for a decomposition."""
        variable = IntVar(len(self.variables), f"aux_{len(self.variables)}_{name}",
                          tuple(range(lb, ub + 1)))
        self.variables.append(variable)
        return variable


class Backend(ABC, Generic[Compiled]):
    """A solver backend: its declaration and three hooks. Subclasses register with
    ``@BACKENDS.register(name)``.

    The solving layer owns everything else: lowering the model to the declared native
    constraints and the refusals (:mod:`solvers.lowering`); timing, memory, the
    deadline, Ctrl-C, counting distinct solutions up to the limit, checking them and the
    status (the solve loop, :mod:`solvers.solve_loop`).
    """

    name: ClassVar[str]
    capabilities: ClassVar[Capabilities]

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A backend declares ``root_propagation`` exactly when it is a
        :class:`RootPropagator`: the declaration (read by tables and refusals) and the
        method cannot drift apart."""
        super().__init_subclass__(**kwargs)
        declared = getattr(cls, "capabilities", None)
        if declared is not None and declared.root_propagation != issubclass(
                cls, RootPropagator):
            raise TypeError(f"backend {cls.__name__}: capabilities.root_propagation is "
                            f"{declared.root_propagation}, so it "
                            f"{'must' if declared.root_propagation else 'must not'} be a "
                            f"RootPropagator")

    @classmethod
    def unavailable(cls) -> str | None:
        """Why this backend's solver library cannot be used here, or None when it can."""
        return None

    @classmethod
    def first_use(cls) -> str | None:
        """What this backend's first use on this machine does before it solves, and how
        long it takes, when that is long enough to say (compiling, say); else None."""
        return None

    @classmethod
    def load(cls) -> None:
        """Import the solver library and the code that runs on it, which naming the
        backend does not (``list`` and a solve on another backend skip them): a worker
        calls it before its first run, so that no run's time or memory limit pays."""

    @abstractmethod
    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> Compiled:
        """Build the solver's model of ``lowered`` (every constraint native) and its search.

        A search in compiled code registers its thread-safe stop with ``limits.on_stop``;
        one that runs Python between steps polls ``limits.passed()`` instead.
        """

    @abstractmethod
    def search(self, compiled: Compiled) -> Generator[tuple[int, ...], None, None]:
        """Yield solutions, each the values of ``model.variables`` in order.

        The loop stops asking once it has the solutions it wants; a search that ends
        by itself has exhausted its space, unless its time ran out
        (``limits.time_ran_out()``, or the deadline was seen to pass). A solver's
        unexplained answer raises ``SolverError``.
        """

    @abstractmethod
    def counters(self, compiled: Compiled) -> Mapping[str, int | None]:
        """The solver's figures so far, by declared statistic name (only those the
        backend declares; ``first_branches`` only where the loop cannot read it)."""

    def add_cuts(self, compiled: Compiled, cuts: list[Constraint], request: SolveRequest,
                 limits: SearchLimits) -> Compiled | None:
        """The next lazy round's search: the model ``compiled`` searched, with ``cuts``
        (native constraints on its own variables) added, under ``request`` (its hint,
        the time left, the variables it keeps at their hinted values, none kept by the
        search before) and ``limits``; or None, as here, when the backend cannot add
        constraints to a model it has searched, and the loop compiles it afresh."""
        return None

    def search_tree(self, compiled: Compiled) -> SearchTree | None:
        """The tree the search recorded, when ``request.tree_cap`` asked for one (a
        backend declaring ``search_tree`` overrides this)."""
        return None

    def building_s(self, compiled: Compiled) -> float:
        """Seconds of the search that were the solver building its own model (MiniZinc
        flattening the file in the search's process): the loop counts them in
        ``build_s``, not ``solve_s``. Most backends build in ``compile``: 0."""
        return 0.0


class RootPropagator(Backend[Compiled]):
    """A backend that hands back the domains its propagation leaves at the root (it
    declares ``root_propagation``): what ``propagate_root`` and the Shikaku levels use."""

    @abstractmethod
    def root_domains(self, compiled: Compiled) -> dict[IntVar, tuple[int, ...]] | None:
        """The values each model variable keeps once the root has propagated (and been
        probed, when the request asks for probing), before any decision; None when the
        root fails."""
