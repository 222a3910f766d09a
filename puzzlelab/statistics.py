"""Every statistic a run can report, declared once: name, meaning, unit, MiniZinc name.

The run record (:class:`solvers.record.Statistics`), the results store's columns, the
tables' metrics, ``puzzlelab list`` and the statistics table of docs/statistics.md all read
``STATISTICS``. A backend, a viewpoint or a puzzle with a figure of its own declares
it here the same way (:func:`declare`), from its own module, and it becomes a column
everywhere. Who measures it is said too: the solve loop (for every backend), each backend
(its declaration lists what it reports), or the runner around a run. A figure a solver
does not give is ``None``, never 0.

>>> STATISTICS.get("backtracks").minizinc
'failures'
>>> STATISTICS.get("solve_s").unit
's'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from puzzlelab.registry import Registry

Unit = Literal["s", "MiB", "count"]
Combine = Literal["sum", "max", "last", "after-branches"]
"""How the figures of two searches of one run (``+symmetric``: the restricted search,
then the whole model; lazy constraints: a search again after each round of cuts) make
the run's figure: added, the larger, the second search's, or (for ``first_branches``)
the second's plus every branch of the first."""


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


def _core(name: str, meaning: str, unit: Unit, minizinc: str | None, metric: str,
          header: str, combine: Combine = "sum",
          measured_by: Literal["loop", "backend", "runner"] = "backend") -> None:
    declare(Statistic(name, meaning, unit, minizinc, metric, header, combine, measured_by))


_core("solve_s", "wall-clock seconds of the search", "s", "solveTime", "time", "time (ms)",
      measured_by="loop")
_core("build_s", "seconds to compile the model into the solver (lowering included)", "s",
      "flatTime", "build", "build (ms)", measured_by="loop")
_core("solve_cpu_s", "CPU seconds of this process during the search (a solver's own "
      "threads included)", "s", None, "solve-cpu", "search cpu (ms)", measured_by="loop")
_core("backtracks", "failed search nodes (dead ends) of a depth-first search", "count",
      "failures", "backtracks", "backtracks")
_core("branches", "branches taken by the search (a choice point tried both ways is 2)",
      "count", "nodes", "branches", "branches")
_core("deep_backtracks", "backtracks as the ECLiPSe course tables count them (the "
      "count_backtracks idiom, search/6's backtrack(N)): one each time a d-way search "
      "returns past a variable whose every value failed, a chain of such returns through "
      "several variables counted once (no MiniZinc figure: its failures count failed "
      "nodes, as backtracks does)", "count",
      None, "deep-backtracks", "deep backtracks")
_core("conflicts", "conflicts learned by a clause-learning search", "count", None,
      "conflicts", "conflicts")
_core("restarts", "times the search started again from the root, keeping what it learnt "
      "(a restart policy: CP-SAT's, or the slices of cp's own search)", "count", "restarts",
      "restarts", "restarts")
_core("propagations", "propagation steps, as the solver counts them (see its declaration)",
      "count", "propagations", "propagations", "propagations")
_core("solutions", "distinct solutions found (on the model's own variables)", "count",
      "nSolutions", "solutions", "solutions", combine="last", measured_by="loop")
_core("peak_memory_mb", "peak resident memory of the process during the search", "MiB",
      "peakMem", "memory", "memory (MB)", combine="max", measured_by="loop")
_core("first_branches", "branches taken up to the first solution", "count", None,
      "first-branches", "branches to 1st", combine="after-branches", measured_by="loop")
_core("probes", "probing trials (one variable, one value)", "count", None, "probes",
      "probes")
_core("probe_fixed", "decision variables probing itself fixes (one value left, or agreed "
      "on by the surviving probes), summed over the nodes probed", "count", None,
      "probe-fixed", "fixed by probing")
_core("belief_updates", "belief-propagation messages recomputed by a belief-guided search",
      "count", None, "belief-updates", "belief updates")
_core("rejected", "solutions found that broke a constraint checked after search, so "
      "rejected while the search went on (None: the model has no such constraint)", "count",
      None, "rejected", "rejected", measured_by="loop")
_core("lazy_rounds", "searches that met a solution breaking a lazy constraint, so added "
      "its cuts and searched again (None: the model has no lazy constraint)", "count", None,
      "lazy-rounds", "lazy rounds", measured_by="loop")
_core("lazy_cuts", "constraints the lazy constraints added (None: the model has none)",
      "count", None, "lazy-cuts", "lazy cuts", measured_by="loop")
_core("model_variables", "variables of the model as the viewpoint built it", "count", None,
      "variables", "variables", combine="max", measured_by="loop")
_core("model_constraints", "constraints of the model as the viewpoint built it (those "
      "checked after search and lazy ones included)", "count", None, "constraints",
      "constraints", combine="max", measured_by="loop")
_core("posted_variables", "variables the solver is given once the model is lowered to its "
      "native constraints (decompositions add some)", "count", None, "posted-variables",
      "posted variables", combine="max", measured_by="loop")
_core("posted_constraints", "constraints the solver is given once the model is lowered to "
      "its native constraints (a lazy constraint's cuts included)", "count", None,
      "posted-constraints", "posted constraints", combine="max", measured_by="loop")
_core("wall_s", "wall-clock seconds of the whole run in the runner (build, search, check)",
      "s", None, "wall", "wall (ms)", measured_by="runner")
_core("cpu_s", "CPU seconds of the whole run in the runner's worker", "s", None, "cpu",
      "cpu (ms)", measured_by="runner")


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


def metric_names() -> list[str]:
    """Every table metric, in declaration order."""
    return [STATISTICS.get(key).metric for key in STATISTICS if STATISTICS.get(key).metric]
