"""Backend ``automata``: a compiled depth-first search for models of 0/1 variables.

Every constraint (``regular``, ``table``, clauses, exactly/at most one, linear and
reified equalities over 0/1 variables) is unrolled into a layered automaton
(:mod:`.network`), so one kernel revises them all to domain consistency: on a
nonogram's ``regular`` viewpoint that is line solving. Named heuristics run as on
``cp``, with the same choices and counts; ``+probe``/``+probe-all`` probe as
``cp`` does. ``auto`` is this engine's own search: it branches on the open decision
variable whose belief (sum-product belief propagation between the constraints) is
furthest from one half, likelier value first, and probes at the root and every
tenth level. The kernels are compiled by numba at their first use on a machine and
kept in a per-user disk cache (:mod:`.kernel_cache`); loading or compiling them is
part of ``build_s``.

Statistics: ``backtracks`` are failed choices and refutations, ``branches`` the
choices and refutations applied (as on ``cp``); ``propagations`` the constraint
revisions, probes' included; no conflicts. Its search trees (``--tree``), under
``auto`` too, hold those counts: probes are no nodes (:mod:`.search`).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.backends import BACKENDS
from solvers.backends.automata.unrolling import UNROLLERS
from solvers.capabilities import (
    ALL_PROBING,
    DWAY_LABELLING,
    INTEGER_VARIABLES,
    PROBING_WITH_OWN_SEARCH,
    ROOT_PROPAGATION,
    Capabilities,
)
from solvers.heuristics import SearchPlan
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.search_tree import SearchTree
from solvers.variables import IntVar

if TYPE_CHECKING:  # numpy and numba are imported by the first automata solve
    from solvers.backends.automata.search import Search
    from solvers.backends.automata.strategy import Strategy

#: auto probes at the root and then every this many levels, without merging (chosen by
#: measurement on the hardest Nonograms: docs/hard-nonograms.md)
AUTO_PROBE_EVERY = 10


@dataclass
class _Compiled:
    """The network, the search over it, and the count of model variables a solution has."""

    search: Search
    strategy: Strategy
    model_size: int


@BACKENDS.register("automata")
class AutomataBackend(Backend[_Compiled]):
    """0/1 models as layered automata: propagation, probing and belief-guided search, compiled."""

    name = "automata"
    capabilities = Capabilities(
        library="our engine, compiled with numba",
        summary="0/1 models as layered automata: line solving, probing, belief-guided "
                "search",
        native=frozenset(UNROLLERS),
        integer_variables=False,
        own_search="belief-propagation branching, probing at the root and every "
                   f"{AUTO_PROBE_EVERY}th level",
        probing=ALL_PROBING,
        search_tree=True,
        search_tree_under_own_search=True,
        statistics=frozenset({"backtracks", "branches", "propagations", "probes",
                              "probe_fixed", "belief_updates"}),
        statistic_notes={"backtracks": "failed choices and refutations, as on cp",
                         "branches": "choices and refutations applied, as on cp",
                         "propagations": "constraint revisions",
                         "probes": "values tried; auto skips one that a surviving probe "
                                   "of the same domains reached, since it survives too"},
        reasons={INTEGER_VARIABLES: "every constraint is unrolled over 0/1 variables",
                 DWAY_LABELLING: "its search branches on 0/1 cells two ways, refuting a "
                                 "value by fixing the other: a d-way tree would be the "
                                 "same tree, and its counters are not the idiom's",
                 ROOT_PROPAGATION: "its line solving runs inside its search; no hook gives "
                                   "the domains back before the first decision yet",
                 PROBING_WITH_OWN_SEARCH: "auto already probes (at the root and every "
                                          f"{AUTO_PROBE_EVERY}th level); name a heuristic "
                                          "for +probe or +probe-all"})

    @classmethod
    def first_use(cls) -> str | None:
        from solvers.backends.automata.kernel_cache import COMPILE_SECONDS, kernels_ready

        if kernels_ready():
            return None
        return (f"compiling the automata engine for this machine, once: about "
                f"{COMPILE_SECONDS} s (later runs load it in a fraction of a second)")

    @classmethod
    def load(cls) -> None:
        from solvers.backends.automata.warm_up import warm_up

        warm_up()

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Compiled:
        from solvers.backends.automata.network import compile_network
        from solvers.backends.automata.search import Search  # imports numba: only when used
        from solvers.backends.automata.warm_up import warm_up

        warm_up()
        network = compile_network(lowered.variables, lowered.constraints)
        strategy = _strategy(request.plan, lowered.variables)
        tree = (None if request.tree_cap is None else
                SearchTree([v.name for v in lowered.variables], request.tree_cap))
        return _Compiled(Search(network, strategy, limits.passed, tree), strategy,
                         len(model.variables))

    def search(self, compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
        import numpy as np

        size = compiled.model_size
        for dom in compiled.search.solutions():
            yield tuple((dom[:size] == 2).astype(np.int8).tolist())

    def search_tree(self, compiled: _Compiled) -> SearchTree | None:
        return compiled.search.tree

    def counters(self, compiled: _Compiled) -> dict[str, int | None]:
        tally, strategy = compiled.search.tally, compiled.strategy
        return {"backtracks": tally.backtracks, "branches": tally.branches,
                "propagations": tally.revisions,
                "probes": tally.probes if strategy.probes else None,
                "probe_fixed": tally.probe_fixed if strategy.probes else None,
                "belief_updates": tally.belief_updates if strategy.guided else None}


def _strategy(plan: SearchPlan, variables: list[IntVar]) -> Strategy:
    """The plan in network positions (a variable's position in ``variables``)."""
    import numpy as np

    from solvers.backends.automata.strategy import Strategy

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
