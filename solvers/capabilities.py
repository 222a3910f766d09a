"""What a backend can do, declared as data in one place.

Each backend class carries one :class:`Capabilities`. The solving layer refuses a
model or heuristic from it (:func:`refusal`), naming the missing capability;
``puzzlelab list``, the solver table of docs/solvers.md and the test grid read the same
declaration, so none of them restates what a backend can do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from solvers.constraints import STRENGTHS, AllDifferent, Constraint
from solvers.heuristics import Probing, SearchPlan, ValueChoice
from solvers.model import Model
from solvers.variables import IntVar

# The capabilities a backend may lack: the names refusals, tables and tests use.
STRONG_ALL_DIFFERENT = "strong all_different"
HALL_ALL_DIFFERENT = "hall all_different (ic_global's)"
INTEGER_VARIABLES = "integer variables"
VALUE_RANKING = "value ranking"
WEIGHTED_DEGREE = "dom/wdeg variable order"
OWN_SEARCH = "own search (auto)"
PROBING = "probing (+probe, +probe-all)"
PROBING_EVERY_NODE = "probing at every node (+probe-all)"
PROBING_WITH_OWN_SEARCH = "probing under its own search (auto+probe, auto+probe-all)"
PROBING_BESIDE_PYTHON = "probing beside a propagator written in Python"
AVAILABLE = "its solver library"
AFTER_SEARCH = "constraints checked after search (after-search, lazy)"
ROOT_PROPAGATION = "root propagation (the domains before the first decision)"
DWAY_LABELLING = "d-way labelling (+dway)"
SEARCH_TREE = "search trees (--tree)"
SEARCH_TREE_UNDER_OWN_SEARCH = "search trees under its own search (auto --tree)"
DWAY_BESIDE_PYTHON = "d-way labelling beside a propagator written in Python"
AFTER_SEARCH_STATISTICS = frozenset({"rejected", "lazy_rounds", "lazy_cuts"})
"""The solve loop's figures of constraints checked after search: only the backends
declaring ``after_search`` run such models, so only they report them."""

ALL_PROBING: frozenset[Probing] = frozenset({"none", "root", "nodes"})


@dataclass(frozen=True)
class Capabilities:
    """A backend's declaration.

    Attributes:
        library: the solver library (for tables).
        summary: one line on what the backend is for.
        native: the model-language constraints posted natively (the keys of the
            backend's posting table); every other one is decomposed
            (:mod:`solvers.decompositions`).
        all_different: the propagation strengths of ``all_different`` it posts.
        integer_variables: False when it takes 0/1 variables only.
        value_choices: ``min``, ``max``, and ``ranked`` (value orders such as ``random``).
        weighted_degree: the value choices it offers under dom/wdeg (none: no dom/wdeg).
        own_search: what ``auto`` runs, or None when it has no search of its own.
        probing: where it can probe under a named heuristic (``none`` always).
        probing_with_own_search: where it can probe under ``auto``.
        python_propagated: constraints it propagates in Python, beside which it cannot probe.
        after_search: whether the solve loop can check its solutions against constraints
            left out of the search (:meth:`~solvers.model.Model.add_after_search`,
            ``add_lazy``): it needs to see every solution the search finds.
        dway: whether it labels d-way as ECLiPSe does (``+dway``), and reports
            ``deep_backtracks`` there.
        root_propagation: whether it gives the domains its propagation leaves at the root,
            before any decision (:func:`solvers.solving.propagate_root`; with probing where
            ``probing`` has ``root``), through
            :meth:`~solvers.backend_contract.Backend.root_domains`.
        search_tree: whether it records the tree of a depth-first search
            (:mod:`solvers.search_tree`, ``solve --tree``) when a run asks, through
            :meth:`~solvers.backend_contract.Backend.search_tree`.
        search_tree_under_own_search: whether it records one under ``auto`` too.
        statistics: the declared statistics (:mod:`puzzlelab.statistics`) it reports
            beyond those the solve loop measures for every backend.
        statistic_notes: what a reported figure means on this solver, where it differs.
        reasons: why each capability it lacks is missing, in its own words.
        options: the backend's own options (``-o NAME=VALUE``, text), each with a line
            saying what it does and its default.
    """

    library: str
    summary: str
    native: frozenset[type[Constraint]]
    all_different: frozenset[str] = frozenset({"weak", "strong"})
    integer_variables: bool = True
    value_choices: frozenset[ValueChoice] = frozenset({"min", "max", "ranked"})
    weighted_degree: frozenset[ValueChoice] = frozenset()
    own_search: str | None = None
    probing: frozenset[Probing] = frozenset({"none"})
    probing_with_own_search: frozenset[Probing] = frozenset({"none"})
    python_propagated: frozenset[type[Constraint]] = frozenset()
    after_search: bool = True
    dway: bool = False
    root_propagation: bool = False
    search_tree: bool = False
    search_tree_under_own_search: bool = False
    statistics: frozenset[str] = frozenset()
    statistic_notes: Mapping[str, str] = field(default_factory=dict)
    reasons: Mapping[str, str] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)

    def table_cells(self) -> dict[str, str]:
        """What it offers, by column of the capability table (``list``, docs/solvers.md)."""
        where = {"root": "root", "nodes": "every node"}

        def probing(levels: frozenset[Probing]) -> str:
            return ", ".join(where[level] for level in ("root", "nodes") if level in levels
                             ) or "–"

        return {
            "all_different": ", ".join(s for s in STRENGTHS if s in self.all_different),
            "variables": "integer" if self.integer_variables else "0/1 only",
            "value orders": ", ".join(v for v in ("min", "max", "ranked")
                                      if v in self.value_choices),
            "dom/wdeg": ", ".join(v for v in ("min", "max", "ranked")
                                  if v in self.weighted_degree) or "–",
            "auto": self.own_search or "–",
            "probing": probing(self.probing),
            "auto+probing": probing(self.probing_with_own_search),
            "after-search, lazy": "yes" if self.after_search else "–",
            "+dway": "yes" if self.dway else "–",
            "root domains": "yes" if self.root_propagation else "–",
            "search trees": ("–" if not self.search_tree else "yes" if
                             self.search_tree_under_own_search or self.own_search is None
                             else "named heuristics"),
        }


@dataclass(frozen=True)
class Refusal:
    """Why a backend cannot run a combination: the capability it lacks, and its reason."""

    backend: str
    capability: str
    reason: str

    def __str__(self) -> str:
        because = f": {self.reason}" if self.reason else ""
        return f"backend {self.backend!r} lacks {self.capability}{because}"


def search_refusal(backend: str, capabilities: Capabilities, plan: SearchPlan,
                   model: Model) -> Refusal | None:
    """Why ``plan`` cannot run on this backend, or None (checked before lowering)."""

    def refused(capability: str) -> Refusal:
        return Refusal(backend, capability, capabilities.reasons.get(capability, ""))

    if plan.auto and capabilities.own_search is None:
        return refused(OWN_SEARCH)
    if not plan.auto and plan.selection == "weighted-degree":
        if not capabilities.weighted_degree:
            return refused(WEIGHTED_DEGREE)
        if plan.value_choice not in capabilities.weighted_degree:
            return Refusal(backend, f"{WEIGHTED_DEGREE} with value choice "
                           f"{plan.value_choice}", capabilities.reasons.get(WEIGHTED_DEGREE, ""))
    if not plan.auto and plan.value_choice not in capabilities.value_choices:
        return refused(VALUE_RANKING)
    if plan.dway and not capabilities.dway:
        return refused(DWAY_LABELLING)
    if plan.dway and any(type(c) in capabilities.python_propagated for c in model.constraints):
        return refused(DWAY_BESIDE_PYTHON)
    if plan.probing != "none":
        if "root" not in capabilities.probing:
            return refused(PROBING)
        if plan.auto and plan.probing not in capabilities.probing_with_own_search:
            return refused(PROBING_WITH_OWN_SEARCH)
        if not plan.auto and plan.probing not in capabilities.probing:
            return refused(PROBING_EVERY_NODE)
        if any(type(c) in capabilities.python_propagated for c in model.constraints):
            return refused(PROBING_BESIDE_PYTHON)
    return None


def tree_refusal(backend: str, capabilities: Capabilities, plan: SearchPlan | None
                 ) -> Refusal | None:
    """Why this backend cannot record the tree of ``plan``'s search (of any search, for
    no plan), or None."""
    if not capabilities.search_tree:
        return Refusal(backend, SEARCH_TREE, capabilities.reasons.get(SEARCH_TREE, ""))
    if plan is not None and plan.auto and not capabilities.search_tree_under_own_search:
        return Refusal(backend, SEARCH_TREE_UNDER_OWN_SEARCH,
                       capabilities.reasons.get(SEARCH_TREE_UNDER_OWN_SEARCH, ""))
    return None


def after_search_refusal(backend: str, capabilities: Capabilities,
                         model: Model) -> Refusal | None:
    """Why the model's constraints checked after search (or lazy) rule this backend
    out, or None (checked after the heuristic, before lowering)."""
    if (model.after_search or model.lazy) and not capabilities.after_search:
        return Refusal(backend, AFTER_SEARCH, capabilities.reasons.get(AFTER_SEARCH, ""))
    return None


def constraint_refusal(backend: str, capabilities: Capabilities,
                       constraint: Constraint) -> Refusal | None:
    """Why a native ``constraint`` cannot be posted as asked (its strength, its
    variables' domains), or None."""
    if isinstance(constraint, AllDifferent) and constraint.strength not in \
            capabilities.all_different:
        missing = {"strong": STRONG_ALL_DIFFERENT, "hall": HALL_ALL_DIFFERENT}.get(
            constraint.strength, f"{constraint.strength} all_different")
        return Refusal(backend, missing, capabilities.reasons.get(missing, ""))
    if not capabilities.integer_variables:
        variable = first_non_boolean(constraint.variables())
        if variable is not None:
            return Refusal(backend, INTEGER_VARIABLES,
                           f"{constraint.kind} is on {variable}, whose domain is "
                           f"{variable.lb}..{variable.ub}")
    return None


def variable_refusal(backend: str, capabilities: Capabilities,
                     variables: list[IntVar]) -> Refusal | None:
    """Why the model's own variables rule this backend out, or None: no rewriting of
    the constraints would help a 0/1 backend with an integer variable."""
    if capabilities.integer_variables:
        return None
    variable = first_non_boolean(variables)
    if variable is None:
        return None
    return Refusal(backend, INTEGER_VARIABLES,
                   f"{variable} ranges over {variable.lb}..{variable.ub}")


def first_non_boolean(variables: tuple[IntVar, ...] | list[IntVar]) -> IntVar | None:
    """The first variable with a value beyond 0/1, or None."""
    return next((v for v in variables if not v.is_boolean), None)
