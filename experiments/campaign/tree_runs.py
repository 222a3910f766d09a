"""Search trees a campaign records for the instances its spec names: chosen from the grid,
then solved again once the runs are stored.

A spec's ``trees = { instances = [...], nodes = N }`` (:class:`TreeSettings`) asks for
the tree of each run of those instances (its first repeat) on a solver that records
trees; ``viewpoints`` (labels), ``solvers`` and ``heuristics`` narrow the runs down.
The runs are measured without recording (a recording costs a call per node, which no
table should pay); once they are stored, each such cell is solved once more in this
process with the recording on, under the run's own limits, and its tree stored beside
its run with the root-propagation profile of its model (:mod:`solvers.root_profile`).
Depth-first backends are deterministic, so the tree is that of the measured run: the
report says so where the counts agree, and which differ otherwise. A campaign run
again records only the trees it lacks; an interrupted one keeps those it stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from experiments.campaign.grid import RunTask
from experiments.campaign.solving import rebuilt, solve_run
from experiments.campaign.spec import TREE_FILTERS, TreeSettings
from experiments.campaign.store import ResultsStore, StoredTree
from puzzlelab.errors import SpecError, UnsupportedCombination
from puzzlelab.wording import counted


def tree_tasks(settings: TreeSettings, tasks: Iterable[RunTask],
               error_at: Callable[[str, str], SpecError]) -> list[RunTask]:
    """The cells whose trees the campaign records: the first repeat of each run of a
    named instance on a solver that records trees (an unknown name is an error that
    lists the campaign's instances)."""
    from solvers import BACKENDS

    if not settings.instances:  # the spec asks for no tree
        return []
    tasks = [task for task in tasks if task.identity.repeat == 0]  # trees: first repeats
    wanted = {"instance": settings.instances,
              **{field: getattr(settings, key) for key, field in TREE_FILTERS.items()}}
    for field, named in wanted.items():
        present = {getattr(task.identity, field) for task in tasks}
        for name in named:
            if name not in present:
                raise error_at("trees", f"no {field} {name!r} in the campaign; its "
                                        f"{field}s: {', '.join(sorted(present))}")
    return [task for task in tasks
            if all(not named or getattr(task.identity, field) in named
                    for field, named in wanted.items())
            and BACKENDS.get(task.identity.solver_name).capabilities.search_tree]


def record_trees(store: ResultsStore, tasks: list[RunTask], nodes: int,
                 on_tree: Callable[[RunTask, str], None] | None = None) -> int:
    """Record and store the tree of each of ``tasks`` not stored yet (``on_tree`` hears
    how each went); how many were."""
    done = store.tree_keys()
    recorded = 0
    for task in tasks:
        if task.identity.key in done:
            continue
        tree = recorded_tree(task, nodes)
        if tree is None:
            message = "no tree: the solver cannot record this heuristic's search"
        else:
            store.store_tree(tree)
            recorded += 1
            message = counted(len(tree.tree), "node")
        if on_tree:
            on_tree(task, message)
    return recorded


def recorded_tree(task: RunTask, nodes: int) -> StoredTree | None:
    """``task`` solved again with its tree recorded (up to ``nodes`` nodes), or None when
    its solver cannot record its search."""
    from solvers.root_profile import profiler_for, root_profile

    identity = task.identity
    try:
        run = solve_run(identity, task.payload, record_tree=nodes)
    except UnsupportedCombination:
        return None
    if run.result.tree is None:
        return None
    profile = root_profile(rebuilt(run, task.payload).model, profiler_for(identity.solver_name))
    return StoredTree(identity.key, identity.instance, identity.viewpoint, identity.solver,
                      identity.heuristic, run.status.value, run.result.tree,
                      dataclasses.asdict(profile))
