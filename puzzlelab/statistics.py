"""Every statistic a run can report, declared once: name, meaning, unit, MiniZinc name.

Each core figure is declared where it is held: as a typed attribute of
:class:`Statistics`, the figures of one run (``statistics.backtracks`` is an
``int | None`` to a type checker and an editor). The declaration goes into
``STATISTICS``, which the results store's columns, the tables' metrics, ``puzzlelab
list`` and the statistics table of docs/statistics.md all read. A backend, a viewpoint
or a puzzle with a figure of its own declares it the same way (:func:`declare`), from
its own module, and it becomes a column everywhere (read as an attribute, untyped).
Who measures it is said too: the solve loop (for every backend), each backend (its
declaration lists what it reports), or the runner around a run. A figure a solver does
not give is ``None``, never 0.

>>> STATISTICS.get("backtracks").minizinc
'failures'
>>> Statistics(backtracks=3).backtracks, Statistics(backtracks=3).branches
(3, None)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, overload

from puzzlelab.notebook import display_method, figure_text, html_table
from puzzlelab.registry import Registry

Unit = Literal["s", "MiB", "count"]
Combine = Literal["sum", "max", "last", "after-branches"]
"""How the figures of two searches of one run (``+symmetric``: the restricted search,
then the whole model; lazy constraints: a search again after each round of cuts) make
the run's figure: added, the larger, the second search's, or (for ``first_branches``)
the second's plus every branch of the first."""
Measurer = Literal["loop", "backend", "runner"]
V = TypeVar("V", int, float)


@dataclass(frozen=True)
class Statistic:
    """One declared figure of a run.

    Attributes:
        name: the field name in the record, the store and ``--json`` (snake_case).
        meaning: what it counts, in one sentence: docs/statistics.md and ``list`` show it.
        unit: seconds, mebibytes or a count.
        minizinc: the name ``minizinc --statistics`` gives the closest figure, if any.
        metric: the table metric's name (kebab-case, as in ``--metrics``).
        header: the table column's header.
        combine: how two searches of one run combine (see ``Combine``).
        measured_by: ``"loop"`` when the solve loop measures it for every backend,
            ``"backend"`` when each backend reports it or not (its declaration says),
            ``"runner"`` for what the experiment runner measures around a run.
    """

    name: str
    meaning: str
    unit: Unit
    minizinc: str | None = None
    metric: str = ""
    header: str = ""
    combine: Combine = "sum"
    measured_by: Literal["loop", "backend", "runner"] = "backend"

    @property
    def integer(self) -> bool:
        """Counts are integers; times and memory are not."""
        return self.unit == "count"

    @property
    def table_scale(self) -> float:
        """Tables show seconds as milliseconds."""
        return 1000.0 if self.unit == "s" else 1.0


STATISTICS: Registry[Statistic] = Registry("statistic")


def declare(statistic: Statistic) -> Statistic:
    """Register ``statistic`` (a name may be declared once)."""
    STATISTICS.add(statistic.name, statistic)
    return statistic


class Figure(Generic[V]):
    """A core statistic, declared as an attribute of :class:`Statistics`: its value in a
    run, typed, or None where the solver does not give it."""

    def __init__(self, meaning: str, unit: Unit, *, minizinc: str | None = None,
                 metric: str = "", header: str = "", combine: Combine = "sum",
                 measured_by: Measurer = "backend") -> None:
        self.arguments = (meaning, unit, minizinc, metric, header, combine, measured_by)
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        declare(Statistic(name, *self.arguments))

    @overload
    def __get__(self, statistics: None, owner: type) -> Figure[V]: ...

    @overload
    def __get__(self, statistics: Statistics, owner: type) -> V | None: ...

    def __get__(self, statistics: Statistics | None, owner: type) -> Any:
        if statistics is None:
            return self
        return statistics._values[self.name]


class Counted(Figure[V]):
    """A core statistic every run counts (0 where it found none): never None."""

    @overload
    def __get__(self, statistics: None, owner: type) -> Counted[V]: ...

    @overload
    def __get__(self, statistics: Statistics, owner: type) -> V: ...

    def __get__(self, statistics: Statistics | None, owner: type) -> Any:
        return super().__get__(statistics, owner)


class Statistics:
    """Figures of one run, one per declared statistic.

    Read them as attributes (``statistics.backtracks``); a declared figure not given
    is None (``solutions``: 0). An undeclared name is an error, so a typo cannot pass
    for a figure the solver did not give.
    """

    __slots__ = ("_values",)
    _values: dict[str, Any]

    solve_s = Figure[float](
        "wall-clock seconds of the search",
        "s", minizinc="solveTime", metric="time", header="time (ms)", measured_by="loop")
    build_s = Figure[float](
        "seconds to compile the model into the solver (lowering included)",
        "s", minizinc="flatTime", metric="build", header="build (ms)", measured_by="loop")
    solve_cpu_s = Figure[float](
        "CPU seconds of this process during the search (a solver's own threads included)",
        "s", metric="solve-cpu", header="search cpu (ms)", measured_by="loop")
    backtracks = Figure[int](
        "failed search nodes (dead ends) of a depth-first search",
        "count", minizinc="failures", metric="backtracks", header="backtracks")
    branches = Figure[int](
        "branches taken by the search (a choice point tried both ways is 2)",
        "count", minizinc="nodes", metric="branches", header="branches")
    deep_backtracks = Figure[int](
        "backtracks as the ECLiPSe course tables count them (the count_backtracks idiom, "
        "search/6's backtrack(N)): one each time a d-way search returns past a variable "
        "whose every value failed, a chain of such returns through several variables "
        "counted once (no MiniZinc figure: its failures count failed nodes, as backtracks "
        "does)",
        "count", metric="deep-backtracks", header="deep backtracks")
    conflicts = Figure[int](
        "conflicts learned by a clause-learning search",
        "count", metric="conflicts", header="conflicts")
    restarts = Figure[int](
        "times the search started again from the root, keeping what it learnt (a restart "
        "policy: CP-SAT's, or the slices of cp's own search)",
        "count", minizinc="restarts", metric="restarts", header="restarts")
    propagations = Figure[int](
        "propagation steps, as the solver counts them (see its declaration)",
        "count", minizinc="propagations", metric="propagations", header="propagations")
    solutions = Counted[int](
        "distinct solutions found (on the model's own variables)",
        "count", minizinc="nSolutions", metric="solutions", header="solutions",
        combine="last", measured_by="loop")
    peak_memory_mb = Figure[float](
        "peak resident memory of the process during the search",
        "MiB", minizinc="peakMem", metric="memory", header="memory (MB)",
        combine="max", measured_by="loop")
    first_branches = Figure[int](
        "branches taken up to the first solution",
        "count", metric="first-branches", header="branches to 1st",
        combine="after-branches", measured_by="loop")
    probes = Figure[int](
        "probing trials (one variable, one value)",
        "count", metric="probes", header="probes")
    probe_fixed = Figure[int](
        "decision variables probing itself fixes (one value left, or agreed on by the "
        "surviving probes), summed over the nodes probed",
        "count", metric="probe-fixed", header="fixed by probing")
    belief_updates = Figure[int](
        "belief-propagation messages recomputed by a belief-guided search",
        "count", metric="belief-updates", header="belief updates")
    rejected = Figure[int](
        "solutions found that broke a constraint checked after search, so rejected while "
        "the search went on (None: the model has no such constraint)",
        "count", metric="rejected", header="rejected", measured_by="loop")
    lazy_rounds = Figure[int](
        "searches that met a solution breaking a lazy constraint, so added its cuts and "
        "searched again (None: the model has no lazy constraint)",
        "count", metric="lazy-rounds", header="lazy rounds", measured_by="loop")
    lazy_cuts = Figure[int](
        "constraints the lazy constraints added (None: the model has none)",
        "count", metric="lazy-cuts", header="lazy cuts", measured_by="loop")
    model_variables = Figure[int](
        "variables of the model as the viewpoint built it",
        "count", metric="variables", header="variables", combine="max", measured_by="loop")
    model_constraints = Figure[int](
        "constraints of the model as the viewpoint built it (those checked after search and "
        "lazy ones included)",
        "count", metric="constraints", header="constraints", combine="max", measured_by="loop")
    posted_variables = Figure[int](
        "variables the solver is given once the model is lowered to its native constraints "
        "(decompositions add some)",
        "count", metric="posted-variables", header="posted variables",
        combine="max", measured_by="loop")
    posted_constraints = Figure[int](
        "constraints the solver is given once the model is lowered to its native "
        "constraints (a lazy constraint's cuts included)",
        "count", metric="posted-constraints", header="posted constraints",
        combine="max", measured_by="loop")

    def __init__(self, **values: float | None) -> None:
        declared = _declared()
        unknown = set(values) - declared.keys()
        if unknown:
            raise TypeError(f"undeclared statistics {sorted(unknown)}; declare them in "
                            f"puzzlelab.statistics")
        object.__setattr__(self, "_values", {name: values.get(name, default)
                                             for name, default in declared.items()})

    @staticmethod
    def names() -> tuple[str, ...]:
        """The declared statistics' names, in declaration order."""
        return tuple(_declared())

    def __getattr__(self, name: str) -> Any:
        """A figure declared outside this class (:func:`declare`)."""
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no statistic {name!r}") from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Statistics are read-only; use replace()")

    def replace(self, **changes: float | None) -> Statistics:
        """A copy with ``changes``."""
        return Statistics(**{**self._values, **changes})

    def as_dict(self) -> dict[str, Any]:
        """The statistics by name, in declaration order, ready for JSON."""
        return dict(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Statistics) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(self._values.items()))

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # pickled into and out of worker processes: rebuilt through the constructor,
        # since the record refuses attribute assignment
        return (_restored, (self._values,))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self._values.items() if v is not None)
        return f"Statistics({shown})"

    @display_method
    def _repr_html_(self) -> str:
        """The figures the run has, a row each, as their declarations say: the name to
        read it by, its value, its unit, and its meaning on hover (a notebook shows this)."""
        given = [(STATISTICS.get(name), value) for name, value in self._values.items()
                 if value is not None]
        return html_table(("statistic", "value", "unit"),
                          [(s.name, figure_text(value, s.unit), s.unit) for s, value in given],
                          right=(1,), titles=[s.meaning for s, _ in given])


def _restored(values: Mapping[str, Any]) -> Statistics:
    return Statistics(**values)


def _declared() -> dict[str, float | None]:
    """Each run statistic's name and its value when not given."""
    return _defaults(STATISTICS.version)


@functools.lru_cache(maxsize=8)
def _defaults(version: int) -> dict[str, float | None]:
    """:func:`_declared`, made once for each ``version`` of the declared statistics (its
    cache key: a module may declare more)."""
    return {s.name: (0 if isinstance(getattr(Statistics, s.name, None), Counted) else None)
            for s in run_statistics()}


# measured by the runner around a run: fields of the run record, not of Statistics
declare(Statistic("wall_s", "wall-clock seconds of the whole run in the runner (build, "
                  "search, check)", "s", metric="wall", header="wall (ms)",
                  measured_by="runner"))
declare(Statistic("cpu_s", "CPU seconds of the whole run in the runner's worker", "s",
                  metric="cpu", header="cpu (ms)", measured_by="runner"))


def run_statistics() -> list[Statistic]:
    """The figures a solve reports (the record's fields), in declaration order."""
    return [STATISTICS.get(name) for name in STATISTICS
            if STATISTICS.get(name).measured_by != "runner"]


def metric(name: str) -> Statistic:
    """The statistic shown by table metric ``name``; an unknown one lists the valid ones."""
    for key in STATISTICS:
        statistic = STATISTICS.get(key)
        if statistic.metric == name:
            return statistic
    from puzzlelab.errors import UnknownName

    raise UnknownName("metric", name, metric_names())


EFFORT = "effort"
"""The table metric that shows, for each solver, the first of :data:`EFFORT_STATISTICS`
its runs report, its column headed by that statistic's name: CP-SAT, which counts no
backtracks, shows its branches beside ``cp``'s backtracks, not a column of ``n/r``."""
EFFORT_STATISTICS = ("backtracks", "branches")
"""The search effort, in order of preference (the ``effort`` metric, the report's effort
figures)."""


def metric_names() -> list[str]:
    """Every table metric, in declaration order, then :data:`EFFORT`."""
    return [*(STATISTICS.get(key).metric for key in STATISTICS if STATISTICS.get(key).metric),
            EFFORT]


def metric_statistics(name: str) -> list[Statistic]:
    """The statistics table metric ``name`` may show: its own, or for :data:`EFFORT`
    each of :data:`EFFORT_STATISTICS`."""
    if name == EFFORT:
        return [STATISTICS.get(statistic) for statistic in EFFORT_STATISTICS]
    return [metric(name)]
