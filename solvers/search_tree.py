"""The tree of one depth-first search, as the backend that ran it records it.

A node is the state after one branch: the root, then one node per decision
(``cell_3_4 = 7``) or refutation (``cell_3_4 != 7``) the search took, labelled in
the model's variable names. A node ends as a decision (a choice point: it has
children), a failure, a solution, or open (the limit stopped the search there, or
the recording was truncated). Its counts are the run's statistics as the backend
defines them: failed nodes are its ``backtracks`` on the depth-first backends,
branches (every node but the root) its ``branches``, solution leaves its
``solutions`` (see each backend's declaration).

Nodes are kept in flat arrays, about 14 bytes each, so the default cap of 100,000
nodes stays near 1.5 MB; past the cap nothing more is recorded and the tree says it
is truncated. Recording is off unless a run asks for it (``solve(...,
record_tree=True)``), and a backend then pays nothing for it.
"""

from __future__ import annotations

import enum
import json
from array import array
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from puzzlelab.defaults import TREE_NODE_CAP

DEFAULT_NODE_CAP = TREE_NODE_CAP
"""Nodes a recording keeps unless told otherwise (``--tree-nodes``)."""

FORMAT = "puzzlelab-search-tree"
VERSION = 1


class NodeKind(enum.IntEnum):
    """What a node became (its value is the code kept per node)."""

    OPEN = 0  # cut off: the limit stopped the search there, or the recording was full
    DECISION = 1
    FAILURE = 2
    SOLUTION = 3

    @property
    def word(self) -> str:
        """The name JSON and drawings use."""
        return {0: "open", 1: "decision", 2: "failure", 3: "solution"}[self.value]


RELATIONS = ("=", "!=", "<=", ">", ">=", "<")
"""The relations a branch may post between a variable and a value, by code."""
_NEGATION = {"=": "!=", "!=": "=", "<=": ">", ">": "<=", ">=": "<", "<": ">="}


def negation(relation: str) -> str:
    """The relation a refutation posts: ``!=`` for ``=``, ``>`` for ``<=``."""
    return _NEGATION[relation]


class SearchTree:
    """The recorded nodes of one search, node 0 being the root.

    Backends add nodes with :meth:`branch` and end them with :meth:`end`; a node
    that gets a child becomes a decision by itself.

    >>> tree = SearchTree(["x", "y"])
    >>> left = tree.branch(0, 0, "=", 1)
    >>> tree.end(left, NodeKind.FAILURE)
    >>> right = tree.branch(0, 0, "!=", 1)
    >>> tree.end(right, NodeKind.SOLUTION)
    >>> tree.label(right), tree.counts()["failures"], tree.counts()["branches"]
    ('x != 1', 1, 2)
    """

    def __init__(self, variables: Sequence[str], cap: int = DEFAULT_NODE_CAP) -> None:
        if cap < 1:
            raise ValueError(f"a search tree keeps at least its root, not {cap} nodes")
        self.variables = tuple(variables)
        self.cap = cap
        self.truncated = False
        self._parent = array("i", [-1])
        self._kind = bytearray([NodeKind.OPEN])
        self._variable = array("i", [-1])
        self._relation = bytearray([0])
        self._value = array("i", [0])

    def __len__(self) -> int:
        return len(self._parent)

    def branch(self, parent: int, variable: int, relation: str, value: int) -> int:
        """A new child of ``parent`` reached by ``variables[variable] relation value``;
        -1 (and the tree truncated) once the cap is reached, or below a node not kept."""
        if parent < 0:
            return -1
        if len(self._parent) >= self.cap:
            self.truncated = True
            return -1
        self._kind[parent] = NodeKind.DECISION
        self._parent.append(parent)
        self._kind.append(NodeKind.OPEN)
        self._variable.append(variable)
        self._relation.append(RELATIONS.index(relation))
        self._value.append(value)
        return len(self._parent) - 1

    def end(self, node: int, kind: NodeKind) -> None:
        """Say what ``node`` became (a node not kept, -1, is ignored)."""
        if node >= 0:
            self._kind[node] = kind

    def parent(self, node: int) -> int:
        return self._parent[node]

    def kind(self, node: int) -> NodeKind:
        return NodeKind(self._kind[node])

    def label(self, node: int) -> str:
        """The branch that led to ``node`` in the model's names ('' for the root)."""
        if node == 0:
            return ""
        return (f"{self.variables[self._variable[node]]} "
                f"{RELATIONS[self._relation[node]]} {self._value[node]}")

    def depths(self) -> list[int]:
        """Each node's depth (the root's is 0); a parent always precedes its children."""
        depth = [0] * len(self)
        for node in range(1, len(self)):
            depth[node] = depth[self._parent[node]] + 1
        return depth

    def nodes_of(self, kind: NodeKind) -> Iterator[int]:
        return (node for node, code in enumerate(self._kind) if code == kind)

    def counts(self) -> dict[str, int]:
        """Nodes, decisions (choice points), branches, failures, solutions and open
        nodes: the figures a test holds equal to the run's statistics."""
        by_kind = [self._kind.count(kind) for kind in NodeKind]
        return {"nodes": len(self), "decisions": by_kind[NodeKind.DECISION],
                "branches": len(self) - 1, "failures": by_kind[NodeKind.FAILURE],
                "solutions": by_kind[NodeKind.SOLUTION], "open": by_kind[NodeKind.OPEN]}

    def bytes_per_node(self) -> float:
        """The memory its node arrays hold, per node (the benchmark's figure)."""
        held = sum(a.buffer_info()[1] * a.itemsize
                   for a in (self._parent, self._variable, self._value))
        return (held + len(self._kind) + len(self._relation)) / len(self)

    def as_json(self, about: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The tree as JSON: each node's id, parent, depth, decision and kind."""
        depth = self.depths()
        return {"format": FORMAT, "version": VERSION, **(about or {}),
                "truncated": self.truncated, "cap": self.cap, "counts": self.counts(),
                "nodes": [{"id": node, "parent": self._parent[node], "depth": depth[node],
                           "decision": self.label(node), "kind": self.kind(node).word}
                          for node in range(len(self))]}

    def write_json(self, path: Path, about: Mapping[str, Any] | None = None) -> None:
        path.write_text(json.dumps(self.as_json(about)) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SearchTree:
        """The inverse of :meth:`as_json` (``ValueError`` on another format)."""
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} file")
        names: dict[str, int] = {}
        nodes = data["nodes"]
        tree = cls([], max(int(data["cap"]), len(nodes)))
        for node in nodes[1:]:
            name, relation, value = str(node["decision"]).rsplit(" ", 2)
            index = names.setdefault(name, len(names))
            tree.branch(int(node["parent"]), index, relation, int(value))
        for node in nodes:
            tree._kind[int(node["id"])] = [k.word for k in NodeKind].index(node["kind"])
        tree.variables = tuple(names)
        tree.truncated = bool(data["truncated"])
        return tree


class TreeCursor:
    """Where a depth-first binary search stands in its tree, for backends whose
    search reports events (apply a decision, refute it, fail, find a solution), as
    OR-tools' search monitors and Choco's do.

    Each decision applied opens a choice point; a refutation goes to the right
    branch of the latest choice point whose right branch is untried.
    """

    def __init__(self, tree: SearchTree) -> None:
        self.tree = tree
        self.current = 0
        self._open: list[int] = []  # choice points whose right branch is untried

    def apply(self, variable: int, relation: str, value: int) -> None:
        self._open.append(self.current)
        self.current = self.tree.branch(self.current, variable, relation, value)

    def refute(self, variable: int, relation: str, value: int) -> None:
        point = self._open.pop() if self._open else -1
        self.current = self.tree.branch(point, variable, negation(relation), value)

    def fail(self) -> None:
        self.tree.end(self.current, NodeKind.FAILURE)

    def solution(self) -> None:
        self.tree.end(self.current, NodeKind.SOLUTION)
