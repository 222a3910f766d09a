"""Small helpers that draw puzzle grids as standalone SVG documents."""

from __future__ import annotations

CELL = 36  # pixels per cell
MARGIN = 4

Box = tuple[float, float, float, float]
"""Where a grid cell is in a picture: (x, y, width, height) in the SVG's own pixels."""


TEXT_STYLE = "text{font-family:sans-serif;text-anchor:middle;dominant-baseline:central}"
"""Said once per document rather than on each of a large Nonogram's thousands of clues."""


def document(width: float, height: float, body: list[str]) -> str:
    """A standalone SVG document of the given size around ``body`` elements."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}">\n<style>{TEXT_STYLE}</style>\n'
            f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n")


def line(x1: float, y1: float, x2: float, y2: float, width: float = 1,
         colour: str = "black") -> str:
    """A straight line."""
    return (f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{colour}" '
            f'stroke-width="{width:g}" stroke-linecap="square"/>')


def text(x: float, y: float, content: str, size: float, colour: str = "black",
         bold: bool = False, length: float | None = None) -> str:
    """Centred text at ``(x, y)`` (the document's style centres it); with ``length``,
    condensed to that width (glyphs and spacing)."""
    weight = ' font-weight="bold"' if bold else ""
    fill = "" if colour == "black" else f' fill="{colour}"'
    fitted = ("" if length is None
              else f' textLength="{length:g}" lengthAdjust="spacingAndGlyphs"')
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{fill}{weight}{fitted}>'
            f'{escaped(content)}</text>')


def rectangle(x: float, y: float, width: float, height: float, fill: str,
              stroke: str = "none") -> str:
    """A filled rectangle."""
    return (f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" fill="{fill}" '
            f'stroke="{stroke}"/>')


def cell_box(row: int, column: int, origin: float = MARGIN, cell: float = CELL) -> Box:
    """The square of cell (``row``, ``column``) of a grid drawn from ``origin`` with cells
    ``cell`` pixels wide: where a picture draws the cell and a page marks it."""
    return origin + column * cell, origin + row * cell, cell, cell


def centre(box: Box) -> tuple[float, float]:
    """The middle of ``box``, where a cell's text goes."""
    x, y, width, height = box
    return x + width / 2, y + height / 2


def grid_lines(rows: int, columns: int, thick_every: int = 0, origin: float = MARGIN,
               cell: float = CELL) -> list[str]:
    """Cell borders of a grid; every ``thick_every``-th line (and the frame) drawn thick."""
    elements = []
    for r in range(rows + 1):
        thick = r in (0, rows) or (thick_every and r % thick_every == 0)
        y = origin + r * cell
        elements.append(line(origin, y, origin + columns * cell, y, 3 if thick else 1))
    for c in range(columns + 1):
        thick = c in (0, columns) or (thick_every and c % thick_every == 0)
        x = origin + c * cell
        elements.append(line(x, origin, x, origin + rows * cell, 3 if thick else 1))
    return elements


def escaped(text: str) -> str:
    """``text`` safe between XML tags (``html.escape`` would import the HTML entity
    tables, and ``xml.sax.saxutils`` urllib and ssl, for three characters)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
