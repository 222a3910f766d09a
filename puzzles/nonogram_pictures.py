"""Nonogram pictures: the clues and a (partial) solution as terminal text and as SVG."""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzles import svg
from puzzles.nonogram_formats import block_runs

if TYPE_CHECKING:
    from puzzles.nonogram import NonogramInstance, NonogramSolution


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


def render_svg(instance: NonogramInstance, solution: NonogramSolution | None = None) -> str:
    """An SVG picture with the clues along the top and left edges."""
    size = svg.CELL * 0.6
    clue_size = size * 0.6
    left = max((len(clue) for clue in instance.rows), default=1) * clue_size + svg.MARGIN
    top = max((len(clue) for clue in instance.columns), default=1) * clue_size + svg.MARGIN
    body = []
    for r, clue in enumerate(instance.rows):
        for k, block in enumerate(reversed(clue or (0,))):
            body.append(svg.text(left - (k + 0.5) * clue_size, top + (r + 0.5) * size,
                                 str(block), clue_size * 0.7))
    for c, clue in enumerate(instance.columns):
        for k, block in enumerate(reversed(clue or (0,))):
            body.append(svg.text(left + (c + 0.5) * size, top - (k + 0.5) * clue_size,
                                 str(block), clue_size * 0.7))
    if solution is not None:
        for r, row in enumerate(solution.grid):
            body += [svg.rectangle(left + start * size, top + r * size, length * size, size,
                                   "#222") for start, length in block_runs(row)]
    body += [f'<g transform="translate({left:g},{top:g})">',
             *svg.grid_lines(instance.height, instance.width, 5, origin=0, cell=size), "</g>"]
    return svg.document(left + instance.width * size + svg.MARGIN,
                        top + instance.height * size + svg.MARGIN, body)

