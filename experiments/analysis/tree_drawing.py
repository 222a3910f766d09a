"""Pictures of recorded search trees in CP-Profiler's conventions, as SVG, PDF or JSON.

Decisions are blue circles, failures red squares, solutions green diamonds, open
nodes (cut off by a limit, or past the recording's cap) white circles with a grey
outline, and a collapsed failed subtree a red triangle with its node count; the
edges on the way to each solution are drawn thicker and green. The layout is
:mod:`experiments.analysis.tree_layout`'s; the SVG is an element a report inlines
in HTML, readable on its own (each mark has a ``class``, hover text with its branch,
and a triangle its ``data-nodes`` and ``data-failures``), and the PDF draws the same
layout with matplotlib.

>>> from solvers.search_tree import NodeKind, SearchTree
>>> tree = SearchTree(["x"])
>>> tree.end(tree.branch(0, 0, "=", 1), NodeKind.SOLUTION)
>>> tree_svg(tree).count('class="node solution"')
1
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from experiments.analysis.tree_layout import DEFAULT_COLLAPSE, Mark, TreeLayout, lay_out
from puzzlelab.errors import OptionError
from puzzlelab.wording import counted
from solvers.search_tree import SearchTree

TREE_SUFFIXES = (".json", ".svg", ".pdf")
"""The files :func:`write_tree` writes, by suffix."""

DEFAULT_MAX_WIDTH = 1600.0
"""A wider tree is scaled down to this many pixels (the report scrolls the rest)."""

UNIT = 10.0  # pixels per layout unit: a node is 8 of them across
LEVEL = 24.0  # pixels from one depth to the next
RADIUS = 4.0
TRIANGLE_HEIGHT = 19.0
MARGIN = 12.0
LINE = 17.0  # the header's line height
NARROWEST = 320.0
"""The width of a picture whose tree is narrower: room for its counts on a line or two."""
CHARACTER_WIDTHS = {"title": 7.6, "counts": 6.6, "truncated": 7.2}
"""Pixels a header line's character takes at most, on average, in its role's font (bold
13 px, 12 px, bold 12 px in DejaVu Sans, the widest common sans-serif): the header wraps
to the tree's width by them."""
COLOURS = {"decision": "#3b6fd4", "failure": "#d9342b", "solution": "#2e9e44",
           "open": "#ffffff", "subtree": "#d9342b"}
OUTLINES = {"decision": "#24479a", "failure": "#9e1d16", "solution": "#1c6b2c",
            "open": "#888888", "subtree": "#9e1d16"}
EDGE, PATH_EDGE = "#a0a0a0", "#2e9e44"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass(frozen=True)
class _Picture:
    """The layout in pixels: the tree's natural size, the scale it is shown at, and
    the header lines above it, wrapped to the picture's width."""

    layout: TreeLayout
    width: float
    height: float
    scale: float
    shown_width: float
    """The width of the whole picture: the scaled tree's (at least :data:`NARROWEST`,
    unless ``max_width`` is less); the header wraps to it, never widens it."""
    lines: list[tuple[str, str]]  # (role, text): title, counts, truncated

    def at(self, mark: Mark) -> tuple[float, float]:
        return MARGIN + mark.x * UNIT, MARGIN + mark.y * LEVEL

    @property
    def header(self) -> float:
        return len(self.lines) * LINE + 6.0


def _clean(text: str) -> str:
    """Text safe in XML: escaped, with control characters (never in a name) replaced."""
    return escape(_CONTROL.sub("?", text))


def _number(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _header_lines(tree: SearchTree, layout: TreeLayout, title: str | None) -> list[tuple[str, str]]:
    """The title, the counts, and a warning when the recording stopped at its cap."""
    counts = tree.counts()
    figures = [counted(counts["nodes"], "node"), counted(counts["failures"], "failure"),
               counted(counts["solutions"], "solution")]
    if counts["open"]:
        figures.append(f"{counts['open']:,} open")
    summary = ", ".join(figures)
    if any(mark.kind == "subtree" for mark in layout.marks):
        summary += (f"; failed subtrees of more than {counted(layout.collapse or 0, 'node')}"
                    " drawn as triangles")
    lines = [("title", title)] if title else []
    lines.append(("counts", summary))
    if tree.truncated:
        lines.append(("truncated", f"Truncated: the recording stopped at its cap of "
                                   f"{tree.cap:,} nodes; the search went on past them."))
    return lines


def _picture(tree: SearchTree, title: str | None, collapse: int | None,
             max_width: float | None) -> _Picture:
    if max_width is not None and max_width <= 0:
        raise OptionError(f"a tree picture's width must be positive, not {max_width}")
    layout = lay_out(tree, collapse)
    width = max(layout.width * UNIT, 2 * RADIUS) + 2 * MARGIN
    height = layout.depth * LEVEL + 2 * MARGIN
    scale = min(1.0, max_width / width) if max_width else 1.0
    shown_width = max(width * scale, min(NARROWEST, max_width or NARROWEST))
    lines = [(role, line) for role, text in _header_lines(tree, layout, title)
             for line in wrapped(text, int((shown_width - 2 * MARGIN)
                                           // CHARACTER_WIDTHS[role]))]
    return _Picture(layout, width, height, scale, shown_width, lines)


def wrapped(text: str, characters: int) -> list[str]:
    """``text`` in lines of at most ``characters``, broken after its commas and semicolons
    where it can (``key: value`` pairs stay whole), at spaces where a pair is too long.

    >>> wrapped("puzzle: sudoku, options: alldiff=weak, solver: cp", 30)
    ['puzzle: sudoku,', 'options: alldiff=weak,', 'solver: cp']
    """
    lines: list[str] = []
    for piece in re.split(r"(?<=[,;]) ", text):
        if lines and len(lines[-1]) + 1 + len(piece) <= characters:
            lines[-1] += " " + piece
        else:
            lines.extend(textwrap.wrap(piece, max(characters, 1)) or [piece])
    return lines


def _mark_svg(picture: _Picture, mark: Mark) -> str:
    """One mark's element, with its class, node id and hover text."""
    x, y = picture.at(mark)
    label = _clean(mark.label or "the root")
    if mark.kind == "subtree":
        half = mark.half_width * UNIT
        points = f"{_number(x)},{_number(y)} {_number(x - half)},{_number(y + TRIANGLE_HEIGHT)} " \
                 f"{_number(x + half)},{_number(y + TRIANGLE_HEIGHT)}"
        return (f'<polygon class="subtree failed" data-node="{mark.node}" '
                f'data-nodes="{mark.nodes}" data-failures="{mark.failures}" points="{points}">'
                f"<title>{label}: a failed subtree of {counted(mark.nodes, 'node')}, "
                f"{counted(mark.failures, 'failure')}</title></polygon>")
    attributes = f'class="node {mark.kind}" data-node="{mark.node}"'
    if mark.kind == "failure":
        side = _number(2 * RADIUS * 0.9)
        shape = (f'<rect {attributes} x="{_number(x - RADIUS * 0.9)}" '
                 f'y="{_number(y - RADIUS * 0.9)}" width="{side}" height="{side}">')
        return f"{shape}<title>{label}</title></rect>"
    if mark.kind == "solution":
        reach = RADIUS * 1.25
        points = f"{_number(x)},{_number(y - reach)} {_number(x + reach)},{_number(y)} " \
                 f"{_number(x)},{_number(y + reach)} {_number(x - reach)},{_number(y)}"
        return f'<polygon {attributes} points="{points}"><title>{label}</title></polygon>'
    return (f'<circle {attributes} cx="{_number(x)}" cy="{_number(y)}" r="{_number(RADIUS)}">'
            f"<title>{label}</title></circle>")


def _tree_body(picture: _Picture) -> list[str]:
    """The edges (one path for the plain ones), then the marks grouped by kind."""
    marks = picture.layout.marks
    plain: list[str] = []
    highlighted: list[str] = []
    for mark in marks[1:]:
        x, y = picture.at(mark)
        parent = marks[mark.parent]
        px, py = picture.at(parent)
        if mark.on_solution_path:
            highlighted.append(
                f'<line class="edge solution-path" data-from="{parent.node}" '
                f'data-to="{mark.node}" x1="{_number(px)}" y1="{_number(py)}" '
                f'x2="{_number(x)}" y2="{_number(y)}"/>')
        else:
            plain.append(f"M{_number(px)} {_number(py)}L{_number(x)} {_number(y)}")
    body = []
    if plain:
        body.append(f'<path class="edge" fill="none" stroke="{EDGE}" stroke-width="1" '
                    f'd="{"".join(plain)}"/>')
    if highlighted:
        body.append(f'<g stroke="{PATH_EDGE}" stroke-width="2.5" stroke-linecap="round">'
                    + "".join(highlighted) + "</g>")
    for kind in ("decision", "open", "failure", "subtree", "solution"):
        elements = [_mark_svg(picture, mark) for mark in marks if mark.kind == kind]
        if elements:
            body.append(f'<g fill="{COLOURS[kind]}" stroke="{OUTLINES[kind]}" '
                        f'stroke-width="1">' + "".join(elements) + "</g>")
    counts = [f'<text x="{_number(x)}" y="{_number(y + TRIANGLE_HEIGHT - 3)}">{mark.nodes}</text>'
              for mark in marks if mark.kind == "subtree" for x, y in [picture.at(mark)]]
    if counts:
        body.append('<g font-size="7" fill="#ffffff" text-anchor="middle" '
                    'pointer-events="none">' + "".join(counts) + "</g>")
    return body


def tree_svg(tree: SearchTree, *, title: str | None = None,
             collapse: int | None = DEFAULT_COLLAPSE,
             max_width: float | None = DEFAULT_MAX_WIDTH) -> str:
    """The tree as one ``<svg>`` element (no XML declaration, so HTML can inline it),
    scaled down to ``max_width`` pixels when wider; failed subtrees of more than
    ``collapse`` nodes become triangles (0 or None: never)."""
    return _svg(_picture(tree, title, collapse, max_width))


def write_svg_and_pdf(tree: SearchTree, svg: Path, pdf: Path, title: str | None) -> str:
    """The tree drawn into both files from one layout (a report shows the SVG and a
    LaTeX report includes the PDF); the SVG's text."""
    picture = _picture(tree, title, DEFAULT_COLLAPSE, DEFAULT_MAX_WIDTH)
    text = _svg(picture)
    svg.write_text(text, encoding="utf-8")
    _write_pdf(picture, pdf)
    return text


def _svg(picture: _Picture) -> str:
    """The picture as one ``<svg>`` element (see :func:`tree_svg`)."""
    shown_width = picture.shown_width
    tree_height = picture.height * picture.scale
    total = picture.header + tree_height
    styles = {"title": ' font-weight="bold" font-size="13"',
              "counts": ' font-size="12" fill="#333333"',
              "truncated": ' font-size="12" font-weight="bold" fill="#b3261e"'}
    header = [f'<text class="{role}" x="{_number(MARGIN)}" y="{_number(LINE * (row + 1))}"'
              f'{styles[role]}>{_clean(text)}</text>'
              for row, (role, text) in enumerate(picture.lines)]
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" class="search-tree" '
        f'width="{_number(shown_width)}" height="{_number(total)}" '
        f'viewBox="0 0 {_number(shown_width)} {_number(total)}" font-family="sans-serif">',
        *header,
        f'<svg x="0" y="{_number(picture.header)}" '
        f'width="{_number(picture.width * picture.scale)}" height="{_number(tree_height)}" '
        f'viewBox="0 0 {_number(picture.width)} {_number(picture.height)}">',
        *_tree_body(picture), "</svg>", "</svg>"]) + "\n"


def _write_pdf(picture: _Picture, path: Path) -> None:
    """The same layout drawn with matplotlib, one point per pixel of the SVG."""
    from matplotlib.backends.backend_pdf import FigureCanvasPdf
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure

    width, tree_height = picture.shown_width, picture.height * picture.scale
    total = picture.header + tree_height
    figure = Figure(figsize=(width / 72, total / 72))
    FigureCanvasPdf(figure)
    for row, (role, text) in enumerate(picture.lines):
        figure.text(MARGIN / width, 1 - LINE * (row + 1) / total, text,
                    fontsize=11 if role == "title" else 10,
                    weight="bold" if role != "counts" else "normal",
                    color="#b3261e" if role == "truncated" else "#222222")
    axes = figure.add_axes((0, 0, picture.width * picture.scale / width, tree_height / total))
    axes.set_xlim(0, picture.width)
    axes.set_ylim(picture.height, 0)
    axes.set_axis_off()
    marks, scale = picture.layout.marks, picture.scale
    for highlighted, colour, line_width in ((False, EDGE, 1.0), (True, PATH_EDGE, 2.5)):
        segments = [(picture.at(marks[mark.parent]), picture.at(mark)) for mark in marks[1:]
                    if mark.on_solution_path == highlighted]
        axes.add_collection(LineCollection(segments, colors=colour,
                                           linewidths=max(line_width * scale, 0.1)))
    shapes = {"decision": ("o", 1.0), "open": ("o", 1.0), "failure": ("s", 0.9),
              "solution": ("D", 0.9)}
    for kind, (marker, size) in shapes.items():
        points = [picture.at(mark) for mark in marks if mark.kind == kind]
        if points:
            axes.scatter([x for x, _ in points], [y for _, y in points], marker=marker,
                         s=(2 * RADIUS * size * scale) ** 2, c=COLOURS[kind],
                         edgecolors=OUTLINES[kind], linewidths=0.5 * scale, zorder=3)
    triangles = [mark for mark in marks if mark.kind == "subtree"]
    polygons = [[(x, y), (x - mark.half_width * UNIT, y + TRIANGLE_HEIGHT),
                 (x + mark.half_width * UNIT, y + TRIANGLE_HEIGHT)]
                for mark in triangles for x, y in [picture.at(mark)]]
    axes.add_collection(PolyCollection(polygons, facecolors=COLOURS["subtree"],
                                       edgecolors=OUTLINES["subtree"],
                                       linewidths=0.5 * scale, zorder=3))
    if 7 * scale >= 2:  # a count too small to read is left out
        for mark in triangles:
            x, y = picture.at(mark)
            axes.text(x, y + TRIANGLE_HEIGHT - 3, str(mark.nodes), fontsize=7 * scale,
                      color="white", ha="center", va="baseline", zorder=4)
    figure.savefig(path, format="pdf", metadata={"Creator": "PuzzleLab"})


def title_of(about: Mapping[str, Any] | None) -> str | None:
    """The picture's title line: what ran, as ``key: value`` pairs, a mapping's items
    written ``key=value`` (``options: alldiff=weak``) and an empty one left out."""
    if not about:
        return None
    return ", ".join(f"{key}: {_said(value)}" for key, value in about.items()
                     if not (isinstance(value, Mapping) and not value))


def _said(value: Any) -> str:
    """A value as a person writes it: ``alldiff=weak, channel=x`` for a mapping."""
    if isinstance(value, Mapping):
        return ", ".join(f"{key}={item}" for key, item in value.items())
    return str(value)


def write_tree(tree: SearchTree, path: Path, about: Mapping[str, Any] | None = None, *,
               title: str | None = None, collapse: int | None = DEFAULT_COLLAPSE) -> None:
    """Write ``tree`` as its suffix says: JSON (every node, with ``about``), SVG or PDF
    (the picture, titled ``title``, by default :func:`title_of` ``about``)."""
    suffix = path.suffix.lower()
    title = title if title is not None else title_of(about)
    if suffix == ".json":
        tree.write_json(path, about)
    elif suffix == ".svg":
        path.write_text(tree_svg(tree, title=title, collapse=collapse), encoding="utf-8")
    elif suffix == ".pdf":
        _write_pdf(_picture(tree, title, collapse, DEFAULT_MAX_WIDTH), path)
    else:
        raise OptionError(f"{path}: a search tree is written as "
                          f"{', '.join(TREE_SUFFIXES)}, not {suffix or 'a file without suffix'}")
