"""Drawn search trees account for every node of the recording, in CP-Profiler's marks."""

from __future__ import annotations

import itertools
import json
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

import pytest

from experiments.analysis.tree_drawing import (
    MARGIN,
    TREE_SUFFIXES,
    title_of,
    tree_svg,
    write_tree,
)
from experiments.analysis.tree_layout import NODE_HALF_WIDTH, SIBLING_GAP, TreeLayout, lay_out
from puzzlelab.errors import OptionError
from solvers import Model, linear, solve
from solvers.search_tree import NodeKind, SearchTree
from tests.solvers.test_search_trees import pigeonhole, queens

SVG = "{http://www.w3.org/2000/svg}"


def _recorded(model: Model, cap: int | bool = True) -> SearchTree:
    tree = solve(model, "cp", "input/min", max_solutions=0, record_tree=cap).tree
    assert tree is not None
    return tree


@pytest.fixture(scope="module")
def queens_tree() -> SearchTree:
    return _recorded(queens(6))


def _marks(svg: str) -> dict[str, list[ElementTree.Element]]:
    """The SVG's elements by class (it must parse as XML on its own)."""
    by_class: dict[str, list[ElementTree.Element]] = defaultdict(list)
    for element in ElementTree.fromstring(svg).iter():
        if "class" in element.attrib:
            by_class[element.attrib["class"]].append(element)
    return by_class


def _assert_counts_add_up(tree: SearchTree, svg: str) -> dict[str, list[ElementTree.Element]]:
    """Every failure is a square or inside a triangle, every solution a diamond, and
    every decision or open node is drawn or inside a triangle (which holds only
    decisions and failures)."""
    marks, counts = _marks(svg), tree.counts()
    triangles = marks["subtree failed"]
    hidden_failures = sum(int(t.attrib["data-failures"]) for t in triangles)
    hidden_decisions = sum(int(t.attrib["data-nodes"]) - int(t.attrib["data-failures"])
                           for t in triangles)
    assert len(marks["node failure"]) + hidden_failures == counts["failures"]
    assert len(marks["node solution"]) == counts["solutions"]
    assert len(marks["node open"]) == counts["open"]
    assert len(marks["node decision"]) + hidden_decisions == counts["decisions"]
    every = sum(len(marks[f"node {kind.word}"]) for kind in NodeKind)
    assert every + sum(int(t.attrib["data-nodes"]) for t in triangles) == counts["nodes"]
    return marks


def _assert_tidy(layout: TreeLayout) -> None:
    """Parents centred over their first and last child; no two marks of a level closer
    than a node and the gap (a triangle's base counts on the level below it)."""
    children: dict[int, list[int]] = defaultdict(list)
    for index, mark in enumerate(layout.marks[1:], start=1):
        children[mark.parent].append(index)
    for parent, kids in children.items():
        first, last = layout.marks[kids[0]].x, layout.marks[kids[-1]].x
        assert layout.marks[parent].x == pytest.approx((first + last) / 2, abs=0.01)
    levels: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for mark in layout.marks:
        levels[mark.y].append((mark.x - NODE_HALF_WIDTH, mark.x + NODE_HALF_WIDTH))
        if mark.kind == "subtree":
            levels[mark.y + 1].append((mark.x - mark.half_width, mark.x + mark.half_width))
    for spans in levels.values():
        spans.sort()
        assert all(right[0] - left[1] >= SIBLING_GAP - 0.01
                   for left, right in itertools.pairwise(spans))


@pytest.mark.parametrize("collapse", [None, 3, 7])
def test_every_node_is_drawn_or_counted_in_a_triangle(queens_tree: SearchTree,
                                                      collapse: int | None) -> None:
    svg = tree_svg(queens_tree, title="queens 6", collapse=collapse)
    assert svg.startswith("<svg") and "viewBox=" in svg
    marks = _assert_counts_add_up(queens_tree, svg)
    assert bool(marks["subtree failed"]) == bool(collapse)
    assert all(element.find(f"{SVG}title") is not None
               for kind in ("decision", "failure", "solution") for element in marks[f"node {kind}"])
    _assert_tidy(lay_out(queens_tree, collapse))


def test_a_big_failed_tree_collapses_and_still_adds_up() -> None:
    tree = _recorded(pigeonhole(8))
    marks = _assert_counts_add_up(tree, tree_svg(tree))
    assert sum(len(elements) for elements in marks.values()) < len(tree) / 100
    truncated = _recorded(pigeonhole(9), cap=3000)  # its frontier is cut short, not failed
    marks = _assert_counts_add_up(truncated, tree_svg(truncated))
    assert len(marks["subtree failed"]) > 1 and len(marks["node decision"]) < len(truncated)


def test_a_truncated_tree_says_so(queens_tree: SearchTree) -> None:
    truncated = _recorded(queens(6), cap=20)
    assert truncated.truncated
    said = " ".join(line.text or "" for line in _marks(tree_svg(truncated))["truncated"])
    assert "truncated" in said.lower() and "20 nodes" in said  # wrapped to the tree's width
    assert not _marks(tree_svg(queens_tree))["truncated"]


def test_a_tree_that_failed_at_its_root_draws() -> None:
    model = Model("no-room")
    first, second = model.int_var(0, 3, "x"), model.int_var(0, 3, "y")
    model.add(linear([(1, first), (1, second)], "==", 10))
    tree = _recorded(model)
    assert len(tree) == 1 and tree.kind(0) == NodeKind.FAILURE
    marks = _assert_counts_add_up(tree, tree_svg(tree))
    assert len(marks["node failure"]) == 1 and not marks["edge"]


def _three_way() -> SearchTree:
    """Three values of x, each with three values of y: failures but for x=1, y=2."""
    tree = SearchTree(["x", "y"])
    for x in range(3):
        below = tree.branch(0, 0, "=", x)
        for y in range(3):
            leaf = tree.branch(below, 1, "=", y)
            tree.end(leaf, NodeKind.SOLUTION if (x, y) == (1, 2) else NodeKind.FAILURE)
    return tree


def test_a_tree_of_several_children_a_node_draws_tidily() -> None:
    tree = _three_way()
    _assert_counts_add_up(tree, tree_svg(tree, collapse=None))
    layout = lay_out(tree, None)
    _assert_tidy(layout)
    xs = [mark.x for mark in layout.marks if mark.y == 1]
    assert xs == sorted(xs) and len(xs) == 3
    _assert_counts_add_up(tree, tree_svg(tree, collapse=2))  # the failed x=0 and x=2


def test_the_way_to_each_solution_is_highlighted(queens_tree: SearchTree) -> None:
    for tree in (queens_tree, _three_way()):
        edges = _marks(tree_svg(tree, collapse=3))["edge solution-path"]
        led_to = {int(edge.attrib["data-to"]): int(edge.attrib["data-from"]) for edge in edges}
        on_the_way = set()
        for solution in tree.nodes_of(NodeKind.SOLUTION):
            node = solution
            while node != 0:
                assert led_to[node] == tree.parent(node)
                on_the_way.add(node)
                node = tree.parent(node)
        assert on_the_way and set(led_to) == on_the_way


def test_labels_and_titles_are_escaped() -> None:
    tree = SearchTree(['a<b&"c"'])
    tree.end(tree.branch(0, 0, "=", 1), NodeKind.SOLUTION)
    svg = tree_svg(tree, title="x < y & z")
    marks = _marks(svg)
    assert [title.text for title in marks["node solution"][0].iter(f"{SVG}title")] == \
        ['a<b&"c" = 1']
    assert marks["title"][0].text == "x < y & z"


def test_a_wide_tree_is_scaled_down(queens_tree: SearchTree) -> None:
    natural = ElementTree.fromstring(tree_svg(queens_tree, collapse=None, max_width=None))
    narrow = ElementTree.fromstring(tree_svg(queens_tree, collapse=None, max_width=300))
    assert float(narrow.attrib["width"]) <= 300 < float(natural.attrib["width"])
    with pytest.raises(OptionError, match="positive"):
        tree_svg(queens_tree, max_width=0)


def test_a_title_writes_options_as_a_person_does() -> None:
    title = title_of({"viewpoint": "classic", "options": {"alldiff": "weak", "channel": 2},
                      "solver": "cp"})
    assert title is not None
    assert "alldiff=weak" in title and "channel=2" in title and "classic" in title
    assert not any(char in title for char in "{}'\"")
    assert "options" not in (title_of({"viewpoint": "classic", "options": {}}) or "")


def _text_width(text: str, role: str) -> float:
    """Pixels ``text`` takes in its role's font as the SVG sets it, measured in DejaVu
    Sans (matplotlib's own font, the widest common sans-serif)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(family="DejaVu Sans", size=13 if role == "title" else 12,
                          weight="normal" if role == "counts" else "bold")
    return float(TextToPath().get_text_width_height_descent(text, font, ismath=False)[0])


@pytest.mark.parametrize("collapse", [3, None])
def test_the_tree_sets_the_width_and_the_title_wraps_within_it(queens_tree: SearchTree,
                                                               collapse: int | None) -> None:
    """A long title (a path, every setting) leaves the picture as wide as with a short
    one, and each of its lines fits the picture."""
    long_title = title_of({"puzzle": "sudoku", "instance": "lambda",
                           "file": "puzzles/data/sudoku/kul_named_9x9.txt",
                           "viewpoint": "channeled", "options": {"alldiff": "weak"},
                           "solver": "cp", "heuristic": "first-fail/min", "status": "solved"})
    short, long = (ElementTree.fromstring(tree_svg(queens_tree, title=title, collapse=collapse))
                   for title in ("q", long_title))
    width = float(long.attrib["width"])
    assert width == float(short.attrib["width"])
    lines = [(role, element.text or "") for element in long.iter(f"{SVG}text")
             for role in [element.attrib.get("class")] if role in ("title", "counts")]
    assert len([line for role, line in lines if role == "title"]) > 1
    assert " ".join(line for role, line in lines if role == "title") == long_title
    assert all(MARGIN + _text_width(line, role) <= width for role, line in lines), lines


def test_a_tree_is_written_by_its_suffix(queens_tree: SearchTree, tmp_path: Path) -> None:
    about = {"puzzle": "queens-6", "backend": "cp", "heuristic": "input/min"}
    assert TREE_SUFFIXES == (".json", ".svg", ".pdf")
    write_tree(queens_tree, tmp_path / "tree.pdf", about)
    assert (tmp_path / "tree.pdf").read_bytes().startswith(b"%PDF")
    write_tree(queens_tree, tmp_path / "tree.svg", about)
    titles = _marks((tmp_path / "tree.svg").read_text(encoding="utf-8"))["title"]
    assert "queens-6" in (titles[0].text or "")
    write_tree(queens_tree, tmp_path / "tree.json", about)
    data = json.loads((tmp_path / "tree.json").read_text(encoding="utf-8"))
    assert data["puzzle"] == "queens-6"
    again = SearchTree.from_json(data)
    assert again.counts() == queens_tree.counts()
    assert [again.label(n) for n in range(len(again))] == \
        [queens_tree.label(n) for n in range(len(queens_tree))]
    with pytest.raises(OptionError, match=r"\.svg"):
        write_tree(queens_tree, tmp_path / "tree.png")


def test_a_deep_tree_of_fifty_thousand_nodes_lays_out() -> None:
    """A comb 12,500 levels deep with a small failed subtree on every level: no recursion
    limit, and the layout stays tidy."""
    tree = SearchTree(["x", "y"], cap=60_000)
    spine = 0
    for level in range(12_500):
        side = tree.branch(spine, 0, "=", level)
        tree.end(tree.branch(side, 1, "=", 0), NodeKind.FAILURE)
        tree.end(tree.branch(side, 1, "!=", 0), NodeKind.FAILURE)
        spine = tree.branch(spine, 0, "!=", level)
    tree.end(spine, NodeKind.SOLUTION)
    assert len(tree) > 50_000
    layout = lay_out(tree, collapse=None)
    assert len(layout.marks) == len(tree) and layout.depth == 12_501
    _assert_tidy(layout)
    _assert_counts_add_up(tree, tree_svg(tree, collapse=2))
