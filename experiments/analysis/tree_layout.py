"""Where each node of a recorded search tree goes in a picture, as CP-Profiler lays it out.

A failed subtree (no solution and no open node in it) of more than ``collapse`` nodes
becomes one triangle mark that keeps its node and failure counts, so a tree of tens of
thousands of nodes still reads as the part of the search that mattered. The marks are
then placed by a tidy layout in the manner of Reingold and Tilford: each subtree keeps
its contour (its leftmost and rightmost extent at every level below it), siblings are
pushed together until their contours are a gap apart at every shared level, and a
parent sits centred over its first and last child. The work is done bottom-up over the
node ids (a parent's id is smaller than its children's), without recursion, since a
search tree may be thousands of levels deep; a contour is merged into its taller
neighbour in place (the taller one keeps a shift instead of being copied), so the
whole layout costs time in proportion to the number of marks.

>>> from solvers.search_tree import NodeKind, SearchTree
>>> tree = SearchTree(["x"])
>>> tree.end(tree.branch(0, 0, "=", 1), NodeKind.FAILURE)
>>> tree.end(tree.branch(0, 0, "!=", 1), NodeKind.SOLUTION)
>>> layout = lay_out(tree)
>>> [(mark.kind, mark.x, mark.y, mark.on_solution_path) for mark in layout.marks]
[('decision', 1.15, 0, True), ('failure', 0.5, 1, False), ('solution', 1.8, 1, True)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solvers.search_tree import NodeKind, SearchTree

DEFAULT_COLLAPSE = 7
"""Failed subtrees of more nodes than this become a triangle unless told otherwise."""

NODE_HALF_WIDTH = 0.5
"""Half a node's width, in layout units (one unit is about a node's width)."""
SIBLING_GAP = 0.3
"""The least room between two neighbouring subtrees, at every level they share."""

MarkKind = Literal["decision", "failure", "solution", "open", "subtree"]
_KINDS: dict[NodeKind, MarkKind] = {NodeKind.DECISION: "decision", NodeKind.FAILURE: "failure",
                                    NodeKind.SOLUTION: "solution", NodeKind.OPEN: "open"}


@dataclass(frozen=True, slots=True)
class Mark:
    """One thing drawn: a node, or a collapsed failed subtree (``kind`` ``"subtree"``).

    ``x`` is in layout units from the picture's left edge, ``y`` the depth in levels;
    ``parent`` is the index of the parent's mark (-1 for the root); ``label`` is the
    branch that led here. ``nodes`` and ``failures`` count what the mark stands for
    (1 and 0 or 1 for a single node); ``half_width`` is how far it reaches either side;
    ``on_solution_path`` says the edge into it lies on the way to a solution.
    """

    node: int
    parent: int
    x: float
    y: int
    kind: MarkKind
    label: str
    nodes: int
    failures: int
    half_width: float
    on_solution_path: bool


@dataclass(frozen=True, slots=True)
class TreeLayout:
    """The marks of one tree (parents before children), the picture's width in units,
    its depth in levels (a triangle reaches one level below its node), and the size
    past which failed subtrees were collapsed (None: never)."""

    marks: list[Mark]
    width: float
    depth: int
    collapse: int | None


def triangle_half_width(nodes: int) -> float:
    """A triangle is wide enough to hold its node count written under its apex."""
    digits = len(str(nodes))  # about 5 pixels a digit, a pixel being a tenth of a unit
    return max(1.0, round((digits * 5.0 + 4.0) / 16.0, 2))


def _subtree_figures(tree: SearchTree) -> tuple[list[int], list[int], list[bool], list[bool]]:
    """Each node's subtree size and failures, whether a solution or an open node lies in
    it or it was cut short by the node cap (it cannot be collapsed), and whether a
    solution lies in it (its edge is highlighted)."""
    size = [1] * len(tree)
    failures = [0] * len(tree)
    live = [False] * len(tree)
    solution = [False] * len(tree)
    for node in range(len(tree) - 1, -1, -1):
        kind = tree.kind(node)
        if kind == NodeKind.FAILURE:
            failures[node] += 1
        elif kind == NodeKind.SOLUTION:
            solution[node] = live[node] = True
        elif kind == NodeKind.OPEN:
            live[node] = True
        if node:
            parent = tree.parent(node)
            size[parent] += size[node]
            failures[parent] += failures[node]
            live[parent] = live[parent] or live[node]
            solution[parent] = solution[parent] or solution[node]
    if tree.truncated:  # the last node kept and its ancestors lost their later branches
        node = len(tree) - 1
        while node >= 0:
            live[node] = True
            node = tree.parent(node)
    return size, failures, live, solution


def _choose_marks(tree: SearchTree, collapse: int | None) -> list[Mark]:
    """The marks in node order, before placing: hidden nodes (below a triangle) left out."""
    size, failures, live, solution = _subtree_figures(tree)
    limit = collapse or 0
    mark_of = [-1] * len(tree)  # the mark a node has, -1 if hidden
    shown = [True] * len(tree)  # false below a triangle
    marks: list[Mark] = []
    for node in range(len(tree)):
        parent = tree.parent(node) if node else -1
        if parent >= 0 and (not shown[parent] or marks[mark_of[parent]].kind == "subtree"):
            shown[node] = False
            continue
        # the root stays a node: a search that failed everywhere still shows its first
        # decision, its subtrees collapsed
        collapsed = limit > 0 and node > 0 and not live[node] and size[node] > limit
        kind = "subtree" if collapsed else _KINDS[tree.kind(node)]
        nodes = size[node] if collapsed else 1
        mark_of[node] = len(marks)
        marks.append(Mark(node, mark_of[parent] if parent >= 0 else -1, 0.0, 0, kind,
                          tree.label(node), nodes,
                          failures[node] if collapsed else int(kind == "failure"),
                          triangle_half_width(nodes) if collapsed else NODE_HALF_WIDTH,
                          solution[node]))
    return marks


def _place(marks: list[Mark]) -> list[float]:
    """Each mark's x relative to its parent's, by merging contours bottom-up.

    A contour is kept as two lists (left and right extents) with the deepest level
    first, so a parent's own level is appended at the end, plus a shift added to every
    entry, so moving a whole contour costs nothing.
    """
    count = len(marks)
    kids: list[list[int]] = [[] for _ in range(count)]
    for index in range(1, count):
        kids[marks[index].parent].append(index)
    lefts: list[list[float]] = [[] for _ in range(count)]
    rights: list[list[float]] = [[] for _ in range(count)]
    shifts = [0.0] * count
    offset = [0.0] * count
    for index in range(count - 1, -1, -1):
        half = marks[index].half_width
        children = kids[index]
        if not children:
            if marks[index].kind == "subtree":  # the apex, then the base a level below
                lefts[index], rights[index] = [-half, -NODE_HALF_WIDTH], [half, NODE_HALF_WIDTH]
            else:
                lefts[index], rights[index] = [-half], [half]
            continue
        left, right, shift = lefts[children[0]], rights[children[0]], shifts[children[0]]
        placed = [0.0]  # each child's x relative to the first child's
        for child in children[1:]:
            c_left, c_right, c_shift = lefts[child], rights[child], shifts[child]
            top, c_top = len(left) - 1, len(c_left) - 1
            shared = min(top, c_top) + 1
            at = max(right[top - level] + shift - c_left[c_top - level] - c_shift
                     for level in range(shared)) + SIBLING_GAP
            placed.append(at)
            c_shift += at
            if c_top > top:  # the child's contour is taller: merge into it instead
                left, right, shift, c_left, c_right, c_shift, top, c_top = \
                    c_left, c_right, c_shift, left, right, shift, c_top, top
            moved = c_shift - shift
            for level in range(shared):
                if c_left[c_top - level] + moved < left[top - level]:
                    left[top - level] = c_left[c_top - level] + moved
                if c_right[c_top - level] + moved > right[top - level]:
                    right[top - level] = c_right[c_top - level] + moved
            lefts[child] = rights[child] = []
        centre = (placed[0] + placed[-1]) / 2
        for child, at in zip(children, placed, strict=True):
            offset[child] = at - centre
        lefts[children[0]] = rights[children[0]] = []
        shift -= centre
        left.append(-half - shift)
        right.append(half - shift)
        lefts[index], rights[index], shifts[index] = left, right, shift
    return offset


def lay_out(tree: SearchTree, collapse: int | None = DEFAULT_COLLAPSE) -> TreeLayout:
    """The marks of ``tree`` placed for drawing; ``collapse`` 0 or None never collapses."""
    marks = _choose_marks(tree, collapse)
    offset = _place(marks)
    x = [0.0] * len(marks)
    for index in range(1, len(marks)):
        x[index] = x[marks[index].parent] + offset[index]
    leftmost = min(at - mark.half_width for at, mark in zip(x, marks, strict=True))
    rightmost = max(at + mark.half_width for at, mark in zip(x, marks, strict=True))
    depths = tree.depths()
    placed = [Mark(mark.node, mark.parent, round(at - leftmost, 3), depths[mark.node],
                   mark.kind, mark.label, mark.nodes, mark.failures, mark.half_width,
                   mark.on_solution_path) for at, mark in zip(x, marks, strict=True)]
    depth = max(mark.y + (mark.kind == "subtree") for mark in placed)
    return TreeLayout(placed, round(rightmost - leftmost, 3), depth, collapse or None)

