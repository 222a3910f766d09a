"""The 2-edge-connected blocks of a graph losing edges, kept with an undo trail.

The ``connected`` propagator of the ``cp`` backend (:mod:`.connected`) needs, at every
search node, whether the possible graph (the edges that may still carry weight) is
connected, and its bridges. Recomputing both from scratch (with networkx) took nearly
all of a Hashi solve's time; this structure redoes only the part an edge removal can
change, in plain Python on index lists (no OR-tools here, so it is tested alone).

Why that part is enough: once the bridges of the possible graph are known (and made
present by the propagator), every other edge lies inside one *block*, a
2-edge-connected component; the blocks partition the nodes and the bridges join them
as a tree. A cycle, and a simple path between two nodes of one block, stays inside
that block. So removing edges of block ``B`` disconnects the graph exactly when it
disconnects ``B`` on its own edges, and the new bridges are exactly the bridges of what
is left of ``B``: one depth-first search (Tarjan's) over ``B`` finds both, and the
pieces of ``B`` it finds are the new blocks.

Edges that must be present (:meth:`BridgeBlocks.join`) are contracted, with a
union-find, when they lie inside a block: the search then walks groups of nodes, not
nodes. Contracting an edge that is always there changes neither whether the graph is
connected nor which of the other edges are bridges; it only hides that edge, which
needs no forcing.

Every change is written on a trail, so a search that backtracks undoes it with
:meth:`BridgeBlocks.undo_to` (the propagator keeps the trail's length in a reversible
integer of the solver).

>>> square = BridgeBlocks(4, [(0, 1), (1, 2), (2, 3), (3, 0)])
>>> square.start([True] * 4, [False] * 4)
[]
>>> mark = len(square.trail)
>>> square.remove(0)
True
>>> sorted(square.settle())  # the path left: every edge is a bridge
[1, 2, 3]
>>> square.undo_to(mark)
>>> square.remove(0), square.remove(2)
(True, True)
>>> square.settle() is None  # two edges of one cycle gone: disconnected
True
>>> square.undo_to(mark)
>>> square.join(1)  # edge 1 must be present: the rest of the cycle still may go
>>> square.remove(3)
True
>>> sorted(square.settle())  # bridges still to force: not edge 1, present already
[0, 2]
"""

from __future__ import annotations

from typing import Any

BRIDGE = -1
"""The block label of an edge that is a bridge of the possible graph."""
DEAD = -2
"""The block label of an edge that is no longer possible."""

# what a trail entry undoes: (kind, index, old value)
_EDGE_BLOCK = 0  # edge ``index`` had block ``old`` (or was alive in it, if now DEAD)
_BLOCK_SIZE = 1  # block ``index`` had ``old`` groups
_NEW_BLOCK = 2  # a block label was added
_PENDING_PUSH = 3  # something was put on the pending list
_PENDING_POP = 4  # ``(index, old)`` was taken off the pending list
_LEADER = 5  # node ``index`` led its own group
_LINKS = 6  # group ``index`` had the links ``old``

Link = tuple[int, int]
"""An edge leaving a group: ``(edge, the node at its other end)``."""


class BridgeBlocks:
    """The blocks and bridges of a graph on nodes ``0..n-1`` while edges are removed.

    Edges are ``(u, v)`` index pairs, parallel edges allowed (two edges between the
    same nodes are never bridges), self-loops ignored (never bridges, never needed).
    :meth:`start` computes everything once; :meth:`remove` notes a removed edge,
    :meth:`join` one that must be present, and :meth:`settle` updates the blocks the
    removed edges were in. Blocks are sets of groups (nodes joined by present edges),
    each named by its leader node; ``block_size`` counts groups.
    """

    def __init__(self, node_count: int, ends: list[tuple[int, int]]) -> None:
        self.node_count = node_count
        self.ends = ends
        self.incident: list[list[Link]] = [[] for _ in range(node_count)]
        for edge, (u, v) in enumerate(ends):
            if u != v:
                self.incident[u].append((edge, v))
                self.incident[v].append((edge, u))
        # until :meth:`start`: every edge possible, one block, no bridge known
        self.edge_block = [0] * len(ends)  # its block's label, BRIDGE or DEAD
        self.block_size = [node_count]  # groups in each block, by label
        self.leader = list(range(node_count))  # the union-find's parent links
        # a leader's: its group's edges to other groups
        self.links = [list(edges) for edges in self.incident]
        self.pending: list[tuple[int, int]] = []  # (block, a leader in it) that lost edges
        self.trail: list[tuple[int, int, Any]] = []
        self._discovered = [-1] * node_count  # scratch for the search, -1 outside it
        self._low = [0] * node_count
        self._position = [0] * node_count

    def start(self, alive: list[bool], present: list[bool]) -> list[int] | None:
        """Everything from scratch, with an empty trail, for the edges flagged alive
        (those flagged present too must be): the bridges (None if disconnected)."""
        self.edge_block = [0 if possible else DEAD for possible in alive]
        self.block_size = [self.node_count]
        self.leader = list(range(self.node_count))
        self.links = [list(edges) for edges in self.incident]
        self.pending = []
        self.trail = []
        if self.node_count <= 1:
            return []
        bridges = self._split(0, 0)
        if bridges is not None:
            for edge, must in enumerate(present):
                if must and alive[edge]:
                    self.join(edge)
        self.trail = []  # the starting state is never undone
        return bridges

    def undo_to(self, length: int) -> None:
        """Undo the trail's entries past ``length`` (a state the search went back to)."""
        trail, edge_block = self.trail, self.edge_block
        while len(trail) > length:
            kind, index, old = trail.pop()
            if kind == _EDGE_BLOCK:
                edge_block[index] = old
            elif kind == _LINKS:
                self.links[index] = old
            elif kind == _LEADER:
                self.leader[index] = index
            elif kind == _BLOCK_SIZE:
                self.block_size[index] = old
            elif kind == _NEW_BLOCK:
                self.block_size.pop()
            elif kind == _PENDING_PUSH:
                self.pending.pop()
            else:
                self.pending.append((index, old))

    def find(self, node: int) -> int:
        """The leader of ``node``'s group (no path compression: unions are undone)."""
        leader = self.leader
        while leader[node] != node:
            node = leader[node]
        return node

    def remove(self, edge: int) -> bool:
        """Note that ``edge`` can no longer be present; False when it was a bridge (the
        graph is disconnected)."""
        block = self.edge_block[edge]
        if block == DEAD:
            return True
        self.edge_block[edge] = DEAD
        self.trail.append((_EDGE_BLOCK, edge, block))
        if block == BRIDGE:
            return False
        u, v = self.ends[edge]
        group = self.find(u)
        if group != self.find(v):  # else inside a group: no cycle through it mattered
            self.pending.append((block, group))
            self.trail.append((_PENDING_PUSH, 0, 0))
        return True

    def join(self, edge: int) -> None:
        """Note that ``edge`` must be present: inside a block, contract it."""
        block = self.edge_block[edge]
        if block < 0:  # a bridge stays one (contracting it would merge two blocks)
            return
        u, v = self.ends[edge]
        first, second = self.find(u), self.find(v)
        if first == second:
            return
        links, edge_block, trail = self.links, self.edge_block, self.trail
        if len(links[first]) < len(links[second]):
            first, second = second, first
        self.leader[second] = first
        trail.append((_LEADER, second, 0))
        merged = []
        for link in links[first] + links[second]:
            if edge_block[link[0]] >= 0 and self.find(link[1]) != first:
                merged.append(link)
        trail.append((_LINKS, first, links[first]))
        links[first] = merged
        trail.append((_BLOCK_SIZE, block, self.block_size[block]))
        self.block_size[block] -= 1

    def settle(self) -> list[int] | None:
        """Update the blocks that lost edges since the last call: the new bridges, or
        None when some block (so the graph) came apart."""
        starts: dict[int, int] = {}
        pending, trail = self.pending, self.trail
        while pending:
            block, group = pending.pop()
            trail.append((_PENDING_POP, block, group))
            starts[block] = group
        bridges: list[int] = []
        for block, group in starts.items():
            found = self._split(block, self.find(group))
            if found is None:
                return None
            bridges.extend(found)
        return bridges

    def _split(self, block: int, start: int) -> list[int] | None:
        """Tarjan's search over ``block``'s groups from leader ``start``: None if it
        does not reach all of them, else its bridges, labelled and returned, and its
        pieces labelled as blocks (the largest keeps the label)."""
        edge_block, links, leader = self.edge_block, self.links, self.leader
        discovered, low, position = self._discovered, self._low, self._position
        discovered[start] = low[start] = position[start] = 0
        clock = 1
        visited = [start]
        stack = [start]  # groups whose piece is not closed yet
        pieces: list[list[int]] = []
        bridges: list[int] = []
        frames = [(start, -1, iter(links[start]))]
        while frames:
            group, via, edges = frames[-1]
            for edge, other in edges:
                if edge_block[edge] != block or edge == via:
                    continue
                while leader[other] != other:
                    other = leader[other]
                seen = discovered[other]
                if seen < 0:
                    discovered[other] = low[other] = clock
                    clock += 1
                    visited.append(other)
                    position[other] = len(stack)  # stays so while it is on the stack
                    stack.append(other)
                    frames.append((other, edge, iter(links[other])))
                    break
                if seen < low[group]:
                    low[group] = seen
            else:
                frames.pop()
                if not frames:
                    pieces.append(stack)
                    break
                parent = frames[-1][0]
                if low[group] < low[parent]:
                    low[parent] = low[group]
                elif low[group] > discovered[parent]:  # ``via`` is a bridge
                    bridges.append(via)
                    at = position[group]
                    pieces.append(stack[at:])
                    del stack[at:]
        for group in visited:
            discovered[group] = -1
        if len(visited) < self.block_size[block]:
            return None
        if bridges:
            self._relabel(block, bridges, pieces)
        return bridges

    def _relabel(self, block: int, bridges: list[int], pieces: list[list[int]]) -> None:
        """Label ``bridges`` and give each piece of ``block`` but the largest a new label."""
        trail, edge_block = self.trail, self.edge_block
        for edge in bridges:
            trail.append((_EDGE_BLOCK, edge, block))
            edge_block[edge] = BRIDGE
        largest = max(range(len(pieces)), key=lambda i: len(pieces[i]))
        trail.append((_BLOCK_SIZE, block, self.block_size[block]))
        self.block_size[block] = len(pieces[largest])
        for index, piece in enumerate(pieces):
            if index == largest:
                continue
            label = len(self.block_size)
            self.block_size.append(len(piece))
            trail.append((_NEW_BLOCK, label, 0))
            for group in piece:
                for edge, _ in self.links[group]:
                    if edge_block[edge] == block:
                        trail.append((_EDGE_BLOCK, edge, block))
                        edge_block[edge] = label
