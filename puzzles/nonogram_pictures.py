"""Nonogram pictures: the clues and a (partial) solution as terminal text and as SVG."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from puzzles import svg
from puzzles.nonogram_formats import block_runs

if TYPE_CHECKING:
    from puzzles.nonogram_types import NonogramInstance, NonogramSolution


def render_text(instance: NonogramInstance, solution: NonogramSolution | None = None) -> str:
    """Column clues stacked on top, row clues on the left, ``#`` filled and ``.`` blank."""
    row_labels = [" ".join(map(str, clue)) or "0" for clue in instance.rows]
    left = max(map(len, row_labels))
    cell = max(2, max((len(str(b)) for clue in instance.columns for b in clue), default=1) + 1)
    depth = max((len(clue) for clue in instance.columns), default=1) or 1
    lines = []
    for level in range(depth):
        parts = []
        for clue in instance.columns:
            shown = clue or (0,)
            index = level - (depth - len(shown))
            parts.append(str(shown[index]).rjust(cell) if index >= 0 else " " * cell)
        lines.append(" " * (left + 1) + "".join(parts))
    for r, label in enumerate(row_labels):
        if solution is None:
            cells = "?" * instance.width
        else:
            cells = "".join("#" if v else "." for v in solution.grid[r])
        lines.append(label.rjust(left) + " " + "".join(ch.rjust(cell) for ch in cells))
    return "\n".join(lines) + "\n"


CLUE_FONT = 11.0
"""Pixels of a clue digit at the picture's own size: a report shows pictures at their
own size (shrunk only to fit its page), so the digits stay readable at every puzzle size."""
DIGIT_WIDTH = 0.62
"""A digit's width in a sans-serif font, as a share of the font size (a little over)."""
LINE = 1.0
"""A row's least height and a stacked column clue's line height, as a share of the font
size: a digit is about 0.7 of it tall."""
GAP = 0.3
"""The room between two numbers of a row clue, as a share of the font size."""
SQUEEZE = 0.7
"""The least share of its own width a column clue's number is drawn at (condensed, SVG's
``textLength``), so a two-digit clue fits a column hardly wider than a row is high. A
large picture's width is then about its columns times :data:`LINE` fonts, plus its row
clues: the report printed on A4 shows a 99x99 puzzle's digits at 4 pt or more, where
columns 1.5 fonts wide left them under 3 pt (the report print test measures the PDF)."""
PICTURE_TARGET = 400.0
"""Pixels a small puzzle's grid fills (its cells grow up to :data:`svg.CELL`)."""


def _digits_width(number: int) -> float:
    return len(str(number)) * DIGIT_WIDTH * CLUE_FONT


@lru_cache(maxsize=4)  # a page marking every cell asks once a cell
def svg_layout(instance: NonogramInstance) -> tuple[float, float, float]:
    """(cell, left, top): the side of a cell, wide enough for the widest column clue's
    digits condensed as far as :data:`SQUEEZE`; the room the row clues take, each clue's
    numbers side by side; the room the column clues take, stacked one a line."""
    gap = GAP * CLUE_FONT
    widest = max((_digits_width(b) for clue in instance.columns for b in clue or (0,)),
                 default=_digits_width(0))
    cell = max(CLUE_FONT * LINE, widest * SQUEEZE + 2,
               min(svg.CELL, PICTURE_TARGET / max(instance.width, instance.height, 1)))
    left = max((sum(_digits_width(b) for b in clue or (0,)) + gap * (len(clue or (0,)) - 1)
                for clue in instance.rows), default=0.0) + gap + svg.MARGIN
    top = max((len(clue or (0,)) for clue in instance.columns), default=1) \
        * CLUE_FONT * LINE + CLUE_FONT * 0.5 + svg.MARGIN
    return cell, left, top


def cell_box(instance: NonogramInstance, row: int, column: int) -> svg.Box:
    """Where cell (``row``, ``column``) is in :func:`render_svg`'s picture: right of the
    row clues and below the column clues."""
    size, left, top = svg_layout(instance)
    return left + column * size, top + row * size, size, size


def render_svg(instance: NonogramInstance, solution: NonogramSolution | None = None) -> str:
    """An SVG picture with the clues along the top and left edges, their digits
    :data:`CLUE_FONT` pixels high whatever the puzzle's size (the cells grow to hold
    them, a wide column clue condensed: see :func:`svg_layout`)."""
    size, left, top = svg_layout(instance)
    gap = GAP * CLUE_FONT
    body = []
    for r, clue in enumerate(instance.rows):
        right = left - gap / 2
        for block in reversed(clue or (0,)):
            width = _digits_width(block)
            body.append(svg.text(right - width / 2, top + (r + 0.5) * size, str(block),
                                 CLUE_FONT))
            right -= width + gap
    line = CLUE_FONT * LINE
    for c, clue in enumerate(instance.columns):
        for k, block in enumerate(reversed(clue or (0,))):
            room = size - 2  # a number wider than its column is condensed to fit it
            body.append(svg.text(left + (c + 0.5) * size, top - CLUE_FONT * 0.25 - (k + 0.5)
                                 * line, str(block), CLUE_FONT,
                                 length=room if _digits_width(block) > room else None))
    if solution is not None:
        for r, row in enumerate(solution.grid):
            body += [svg.rectangle(*cell_box(instance, r, start)[:2], length * size, size,
                                   "#222") for start, length in block_runs(row)]
    body += [f'<g transform="translate({left:g},{top:g})">',
             *svg.grid_lines(instance.height, instance.width, 5, origin=0, cell=size), "</g>"]
    return svg.document(left + instance.width * size + svg.MARGIN,
                        top + instance.height * size + svg.MARGIN, body)
