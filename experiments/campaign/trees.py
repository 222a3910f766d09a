"""Search trees a campaign records for the instances its spec names, kept in its store.

A spec's ``trees = { instances = [...], nodes = N }`` asks for the tree of each run of
those instances (its first repeat) on a solver that records trees; ``viewpoints``
(labels), ``solvers`` and ``heuristics`` narrow the runs down. The runs are
measured without recording (a recording costs a call per node, which no table should
pay); once they are stored, each such cell is solved once more in this process with
the recording on, under the run's own limits, and its tree stored beside its run with
the root-propagation profile of its model (:mod:`solvers.root_profile`). Depth-first
backends are deterministic, so the tree is that of the measured run: the report says
so where the counts agree, and which differ otherwise. A campaign run again records
only the trees it lacks; an interrupted one keeps those it stored.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from puzzlelab.errors import PuzzleLabError, UnsupportedCombination
from puzzlelab.wording import counted
from solvers.search_tree import DEFAULT_NODE_CAP, SearchTree

if TYPE_CHECKING:  # the spec reads this module's settings, and the grid reads the spec
    from experiments.campaign.grid import RunTask
    from experiments.campaign.store import ResultsStore

TABLE = "trees"
_FILTERS = {"viewpoints": "viewpoint", "solvers": "solver", "heuristics": "heuristic"}
"""The fields that narrow the runs down, and the task attribute each names."""
_SCHEMA = (f"CREATE TABLE IF NOT EXISTS {TABLE} (run_key TEXT PRIMARY KEY, instance TEXT, "
           "viewpoint TEXT, solver TEXT, heuristic TEXT, status TEXT, tree BLOB, "
           "profile TEXT)")


@dataclass(frozen=True)
class TreeSettings:
    """The spec's ``trees`` key: whose trees to record, and each tree's node cap (an
    empty filter takes every viewpoint, solver or heuristic of the spec)."""

    instances: tuple[str, ...] = ()
    nodes: int = DEFAULT_NODE_CAP
    viewpoints: tuple[str, ...] = ()
    solvers: tuple[str, ...] = ()
    heuristics: tuple[str, ...] = ()


def tree_settings(data: Mapping[str, Any], fail: Callable[[str, str], Exception]
                  ) -> TreeSettings:
    """The ``trees`` key of a spec's ``data`` (``fail(key, message)`` makes its error)."""
    given = data.get("trees", {})
    if not isinstance(given, dict):
        raise fail("trees", "expected { instances = [NAME, ...], nodes = N }")
    unknown = set(given) - {"instances", "nodes", *_FILTERS}
    if unknown:
        raise fail("trees", f"unknown field {sorted(unknown)[0]!r}; use instances, nodes, "
                            f"{', '.join(_FILTERS)}")
    names = {}
    for field_name in ("instances", *_FILTERS):
        listed = given.get(field_name, [])
        if not isinstance(listed, list) or not all(isinstance(i, str) for i in listed):
            raise fail("trees", f"'{field_name}' must be a list of names")
        names[field_name] = tuple(listed)
    nodes = given.get("nodes", DEFAULT_NODE_CAP)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
        raise fail("trees", f"'nodes' must be a positive integer, not {nodes!r}")
    return TreeSettings(names["instances"], nodes, names["viewpoints"], names["solvers"],
                        names["heuristics"])


def tree_tasks(settings: TreeSettings, tasks: Iterable[RunTask],
               fail: Callable[[str, str], Exception]) -> list[RunTask]:
    """The cells whose trees the campaign records: the first repeat of each run of a
    named instance on a solver that records trees (an unknown name is an error that
    lists the campaign's instances)."""
    from solvers import BACKENDS

    if not settings.instances:  # the spec asks for no tree
        return []
    tasks = list(tasks)
    wanted = {"instance": settings.instances,
              **{attribute: getattr(settings, field_name)
                 for field_name, attribute in _FILTERS.items()}}
    for attribute, named in wanted.items():
        present = {getattr(task, attribute) for task in tasks}
        for name in named:
            if name not in present:
                raise fail("trees", f"no {attribute} {name!r} in the campaign; its "
                                    f"{attribute}s: {', '.join(sorted(present))}")
    return [task for task in tasks if task.repeat == 0
            and all(not named or getattr(task, attribute) in named
                    for attribute, named in wanted.items())
            and BACKENDS.get(task.solver).capabilities.search_tree]


def record_trees(store: ResultsStore, tasks: list[RunTask], nodes: int,
                 on_tree: Callable[[RunTask, str], None] | None = None) -> int:
    """Record and store the tree of each of ``tasks`` not stored yet; how many were."""
    store.connection.execute(_SCHEMA)
    done = {row[0] for row in store.connection.execute(f"SELECT run_key FROM {TABLE}")}
    recorded = 0
    for task in tasks:
        if task.key in done:
            continue
        entry = _recorded(task, nodes)
        if entry is None:
            message = "no tree: the solver cannot record this heuristic's search"
        else:
            row, size = entry
            with store.connection:
                store.connection.execute(
                    f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
            recorded += 1
            message = counted(size, "node")
        if on_tree:
            on_tree(task, message)
    return recorded


def _recorded(task: RunTask, nodes: int) -> tuple[tuple[Any, ...], int] | None:
    """The row of ``task``'s tree and its node count (not stored: the tree holds it);
    None when its solver cannot record its search."""
    from experiments.campaign.solving import rebuilt, solve_instance
    from solvers.root_profile import profiler_for, root_profile

    try:
        run = solve_instance(task.puzzle, task.payload, task.viewpoint_name, task.solver,
                             task.heuristic, task.options, time_limit=task.time_limit,
                             max_solutions=task.max_solutions, seed=task.seed,
                             record_tree=nodes)
    except UnsupportedCombination:
        return None
    if run.result.tree is None:
        return None
    profile = root_profile(rebuilt(run, task.payload).model, profiler_for(task.solver))
    about = {"instance": task.instance, "viewpoint": task.viewpoint, "solver": task.solver,
             "heuristic": task.heuristic, "status": run.status.value}
    packed = zlib.compress(json.dumps(run.result.tree.as_json(about)).encode(), 6)
    return ((task.key, task.instance, task.viewpoint, task.solver, task.heuristic,
             run.status.value, packed, json.dumps(dataclasses.asdict(profile))),
            len(run.result.tree))


@dataclass(frozen=True)
class StoredTree:
    """One recorded tree, with the run it belongs to and its model's root profile."""

    run_key: str
    instance: str
    viewpoint: str  # the viewpoint's label in the campaign
    solver: str
    heuristic: str
    status: str
    tree: SearchTree
    profile: Mapping[str, Any]


def stored_trees(store: ResultsStore) -> list[StoredTree]:
    """The trees ``store`` holds (none in a store made before trees, or without them)."""
    if TABLE not in store.tables():
        return []
    try:
        rows = store.connection.execute(
            f"SELECT run_key, instance, viewpoint, solver, heuristic, status, tree, profile "
            f"FROM {TABLE} ORDER BY rowid").fetchall()
    except sqlite3.DatabaseError as error:
        raise PuzzleLabError(f"{store.path}: cannot read its search trees ({error})") from None
    return [StoredTree(row[0], row[1], row[2], row[3], row[4], row[5],
                       SearchTree.from_json(json.loads(zlib.decompress(row[6]))),
                       json.loads(row[7])) for row in rows]
