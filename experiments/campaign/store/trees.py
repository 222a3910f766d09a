"""The store's search trees: one per recorded run, compressed, with its model's root
profile (:mod:`solvers.root_profile`), beside the run it belongs to."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solvers.search_tree import SearchTree

TABLE = "trees"
SCHEMA = (f"CREATE TABLE IF NOT EXISTS {TABLE} (run_key TEXT PRIMARY KEY, instance TEXT, "
          "viewpoint TEXT, solver TEXT, heuristic TEXT, status TEXT, tree BLOB, "
          "profile TEXT)")
_COLUMNS = "run_key, instance, viewpoint, solver, heuristic, status, tree, profile"


@dataclass(frozen=True)
class StoredTree:
    """One recorded tree, with the run it belongs to and its model's root profile."""

    run_key: str
    instance: str  # the instance's label in the campaign
    viewpoint: str  # the viewpoint's label in the campaign
    solver: str
    heuristic: str
    status: str
    tree: SearchTree
    profile: Mapping[str, Any]

    def about(self) -> dict[str, str]:
        """Whose tree it is, as the tree's JSON form carries it."""
        return {"instance": self.instance, "viewpoint": self.viewpoint,
                "solver": self.solver, "heuristic": self.heuristic, "status": self.status}


def tree_keys(connection: sqlite3.Connection) -> set[str]:
    """The keys of the runs whose trees are stored (the table is made if missing)."""
    connection.execute(SCHEMA)
    return {row[0] for row in connection.execute(f"SELECT run_key FROM {TABLE}")}


def insert_tree(connection: sqlite3.Connection, stored: StoredTree) -> None:
    """Keep ``stored`` (replacing a tree of the same run), committed at once."""
    packed = zlib.compress(json.dumps(stored.tree.as_json(stored.about())).encode(), 6)
    with connection:
        connection.execute(SCHEMA)
        connection.execute(
            f"INSERT OR REPLACE INTO {TABLE} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (stored.run_key, stored.instance, stored.viewpoint, stored.solver,
             stored.heuristic, stored.status, packed, json.dumps(dict(stored.profile))))


def read_trees(connection: sqlite3.Connection) -> list[StoredTree]:
    """Every stored tree, in the order they were stored (raises ``sqlite3.DatabaseError``
    for a damaged table)."""
    rows = connection.execute(f"SELECT {_COLUMNS} FROM {TABLE} ORDER BY rowid").fetchall()
    return [StoredTree(row[0], row[1], row[2], row[3], row[4], row[5],
                       SearchTree.from_json(json.loads(zlib.decompress(row[6]))),
                       json.loads(row[7])) for row in rows]

