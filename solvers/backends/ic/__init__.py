"""Backend ``ic``: ECLiPSe's ``ic`` and ``ic_global`` all_different, searched as ECLiPSe labels.

The course tables come from ECLiPSe programs; this backend propagates all_different as
ECLiPSe does (:mod:`solvers.backends.ic.propagation`: ``weak`` is ``ic``'s forward
checking, ``hall`` is ``ic_global``'s Hall-set check, in ECLiPSe's order) and labels as
its ``indomain`` under ``+dway`` (a chosen variable's values one branch each), or two
ways otherwise (``x = v``, then ``x != v``). It posts all_different alone: it is for
models made of it, such as the classic Sudoku, where it reproduces the published
course figures. A depth-first search in pure Python: slow on large models.

Asked for its tree, it records the branches it counts: ``x = v`` and ``x != v`` (or a
chosen variable's values under ``+dway``), a branch whose propagation fails a failure
leaf. A root whose posting fails is a failure too, though no backtrack (no value was
tried, and ECLiPSe's ``count_backtracks`` counts none).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from solvers.backend_contract import LoweredModel, RootPropagator, SolveRequest
from solvers.backends import BACKENDS
from solvers.backends.ic.propagation import Failure, State
from solvers.capabilities import (
    OWN_SEARCH,
    PROBING,
    STRONG_ALL_DIFFERENT,
    WEIGHTED_DEGREE,
    Capabilities,
)
from solvers.constraints import AllDifferent
from solvers.heuristics import SearchPlan
from solvers.limits import SearchLimits
from solvers.model import Model
from solvers.search_tree import NodeKind, SearchTree
from solvers.variables import IntVar


@dataclass
class _Compiled:
    """The root state after posting, and what the search counts."""

    root: State | None  # None: posting failed
    variables: list[IntVar]
    decision: list[int]  # indices of the plan's variables, in its order
    rest: list[int]  # the other variables, labelled after them, in model order
    plan: SearchPlan
    limits: SearchLimits
    model_indices: list[int]
    branches: int = 0
    backtracks: int = 0
    deep_backtracks: int | None = None
    propagations: int = 0
    tree: SearchTree | None = None  # the recorded tree, when the run asks for one
    _deep_fail: bool = field(default=False, repr=False)

    def choose(self, state: State) -> int | None:
        """The next variable: the plan's selection among its variables, then the rest."""
        open_ones = [i for i in self.decision if len(state.domains[i]) > 1]
        if open_ones:
            if self.plan.selection == "smallest-domain":
                return min(open_ones, key=lambda i: len(state.domains[i]))
            return open_ones[0]
        return next((i for i in self.rest if len(state.domains[i]) > 1), None)

    def values(self, state: State, index: int) -> list[int]:
        """The variable's values, in the plan's value order."""
        return self.plan.ordered_values(self.variables[index], sorted(state.domains[index]))

    def labelled(self) -> None:
        """A new variable is labelled: the idiom's flag clears."""
        self._deep_fail = False

    def returned(self) -> None:
        """Back past a variable whose values all failed: one, unless counted already."""
        if self.deep_backtracks is not None and not self._deep_fail:
            self._deep_fail = True
            self.deep_backtracks += 1

    def solution(self, state: State) -> tuple[int, ...]:
        return tuple(next(iter(state.domains[i])) for i in self.model_indices)


@BACKENDS.register("ic")
class IcBackend(RootPropagator[_Compiled]):
    """ECLiPSe's ic and ic_global all_different, labelled as ECLiPSe labels."""

    name = "ic"
    capabilities = Capabilities(
        library="our emulation of ECLiPSe's `ic` and `ic_global` (pure Python)",
        summary="the course's solver: all_different propagated as ECLiPSe does (weak: ic, "
                "hall: ic_global), d-way labelling, its backtrack count",
        native=frozenset({AllDifferent}),
        all_different=frozenset({"weak", "hall"}),
        dway=True,
        root_propagation=True,
        search_tree=True,
        statistics=frozenset({"backtracks", "branches", "deep_backtracks", "propagations"}),
        statistic_notes={"backtracks": "values tried whose propagation failed (a root "
                                       "that fails before any try counts none, as in "
                                       "ECLiPSe)",
                         "branches": "values tried",
                         "propagations": "all_different runs"},
        reasons={
            STRONG_ALL_DIFFERENT: "ECLiPSe's all_different is ic's forward checking (weak) "
                                  "or ic_global's Hall-set check (hall), neither bounds nor "
                                  "arc consistency: use alldiff=weak or alldiff=hall",
            OWN_SEARCH: "ECLiPSe labels as the program says: name a heuristic",
            PROBING: "ECLiPSe's labelling does not probe",
            WEIGHTED_DEGREE: "the course's programs label in input order or first-fail",
        })

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Compiled:
        variables = lowered.variables
        index = {variable: i for i, variable in enumerate(variables)}
        posted = State([frozenset(v.domain) for v in variables], lists=[[] for _ in variables])
        state: State | None = posted
        try:
            for constraint in lowered.constraints:  # posted in the model's order, as ECLiPSe
                assert isinstance(constraint, AllDifferent)  # the only native constraint
                posted.post(constraint.strength, [index[v] for v in constraint.items])
        except Failure:
            state = None
        decision = [index[v] for v in request.plan.variables]
        chosen = set(decision)
        tree = (None if request.tree_cap is None else
                SearchTree([v.name for v in variables], request.tree_cap))
        return _Compiled(state, variables, decision,
                         [i for i in range(len(variables)) if i not in chosen],
                         request.plan, limits, [index[v] for v in model.variables],
                         deep_backtracks=0 if request.plan.dway else None, tree=tree)

    def root_domains(self, compiled: _Compiled) -> dict[IntVar, tuple[int, ...]] | None:
        if compiled.root is None:
            return None
        return {variable: tuple(sorted(compiled.root.domains[i]))
                for i, variable in enumerate(compiled.variables)}

    def search(self, compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
        if compiled.root is None:
            if compiled.tree is not None:
                compiled.tree.end(0, NodeKind.FAILURE)
            return
        if compiled.plan.dway:
            yield from _dway(compiled)
        else:
            yield from _binary(compiled)

    def search_tree(self, compiled: _Compiled) -> SearchTree | None:
        return compiled.tree

    def counters(self, compiled: _Compiled) -> dict[str, int | None]:
        propagations = compiled.root.propagations if compiled.root is not None else 0
        return {"backtracks": compiled.backtracks, "branches": compiled.branches,
                "deep_backtracks": compiled.deep_backtracks,
                "propagations": propagations + compiled.propagations}


def _try(compiled: _Compiled, state: State, index: int, value: int, parent: int,
         excluded: bool = False) -> tuple[State | None, int]:
    """The child state of ``index = value`` (``!=`` when ``excluded``), None if it fails,
    and its node in the tree below ``parent`` (-1 when none is recorded)."""
    compiled.branches += 1
    node = -1
    if compiled.tree is not None:
        node = compiled.tree.branch(parent, index, "!=" if excluded else "=", value)
    child = state.child()
    before = child.propagations
    try:
        if excluded:
            child.restrict(index, child.domains[index] - {value})
            child.propagate()
        else:
            child.fix(index, value)
    except Failure:
        compiled.backtracks += 1
        if compiled.tree is not None:
            compiled.tree.end(node, NodeKind.FAILURE)
        return None, node
    finally:
        compiled.propagations += child.propagations - before
    return child, node


def _solution(compiled: _Compiled, state: State, node: int) -> tuple[int, ...]:
    """The solution at ``node``, its leaf marked so (before the loop may stop asking)."""
    if compiled.tree is not None:
        compiled.tree.end(node, NodeKind.SOLUTION)
    return compiled.solution(state)


def _dway(compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
    """Each chosen variable's values one branch each; a failed value is not excluded."""
    assert compiled.root is not None
    root = 0 if compiled.tree is not None else -1
    first = compiled.choose(compiled.root)
    if first is None:
        yield _solution(compiled, compiled.root, root)
        return
    compiled.labelled()
    stack = [(compiled.root, first, compiled.values(compiled.root, first), [0], root)]
    while stack:
        if compiled.limits.passed():
            return
        state, index, values, at, parent = stack[-1]
        if at[0] == len(values):
            stack.pop()
            compiled.returned()
            continue
        value = values[at[0]]
        at[0] += 1
        child, node = _try(compiled, state, index, value, parent)
        if child is None:
            continue
        following = compiled.choose(child)
        if following is None:
            yield _solution(compiled, child, node)
        else:
            compiled.labelled()
            stack.append((child, following, compiled.values(child, following), [0], node))


def _binary(compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
    """``x = v``, then, once that subtree is done, ``x != v`` (after which a variable is
    chosen again, maybe the same)."""
    assert compiled.root is not None
    # each entry: a state, the variable whose right branch is next there (or None), its
    # value, and the state's node (the choice point's, for a right branch)
    root = 0 if compiled.tree is not None else -1
    pending: list[tuple[State, int | None, int, int]] = [(compiled.root, None, 0, root)]
    while pending:
        if compiled.limits.passed():
            return
        state, refuted, value, node = pending.pop()
        if refuted is not None:  # the right branch of a node whose left one is done
            child, node = _try(compiled, state, refuted, value, node, excluded=True)
            if child is None:
                continue
            state = child
        index = compiled.choose(state)
        if index is None:
            yield _solution(compiled, state, node)
            continue
        value = compiled.values(state, index)[0]
        pending.append((state, index, value, node))
        left, left_node = _try(compiled, state, index, value, node)
        if left is not None:
            pending.append((left, None, 0, left_node))
