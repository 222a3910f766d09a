"""Shikaku pictures: room borders in box-drawing characters for a terminal, and SVG.

A cell's room is its label in the solution; without a solution, or where a partial one
has None, the cell is unknown. Borders are drawn between cells of different rooms (all
unknown cells count as one), so the bare puzzle shows its frame and clues alone.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from puzzles import svg

if TYPE_CHECKING:
    from puzzles.shikaku_types import ShikakuInstance, ShikakuSolution

_OUTSIDE = ("outside",)
_UNKNOWN = ("unknown",)

# junction characters by the arms present: (up, down, left, right)
_JUNCTIONS = {
    (False, False, False, False): " ", (True, True, False, False): "│",
    (False, False, True, True): "─", (False, True, False, True): "┌",
    (False, True, True, False): "┐", (True, False, False, True): "└",
    (True, False, True, False): "┘", (True, True, False, True): "├",
    (True, True, True, False): "┤", (False, True, True, True): "┬",
    (True, False, True, True): "┴", (True, True, True, True): "┼",
    (True, False, False, False): "╵", (False, True, False, False): "╷",
    (False, False, True, False): "╴", (False, False, False, True): "╶",
}

_SHADES = ("#fde2c8", "#d7ecd9", "#d6e4f5", "#f5d6e6", "#f3efc2", "#e2d9f3", "#cfeeee")


class _Rooms:
    """Which room each cell is in, with a border test between two cells."""

    def __init__(self, instance: ShikakuInstance, solution: ShikakuSolution | None) -> None:
        self.rows, self.columns = instance.rows, instance.columns
        self.labels = None if solution is None else solution.rooms

    def key(self, r: int, c: int) -> Hashable:
        if not (0 <= r < self.rows and 0 <= c < self.columns):
            return _OUTSIDE
        label = None if self.labels is None else self.labels[r][c]
        return _UNKNOWN if label is None else label

    def known(self, r: int, c: int) -> bool:
        return self.key(r, c) is not _UNKNOWN

    def border(self, first: tuple[int, int], second: tuple[int, int]) -> bool:
        return self.key(*first) != self.key(*second)


def render_text(instance: ShikakuInstance, solution: ShikakuSolution | None = None) -> str:
    """Clues in their cells, ``.`` for an unknown cell, and room borders as box lines."""
    rooms = _Rooms(instance, solution)
    width = max(len(str(clue)) for row in instance.clues for clue in row) + 2
    lines = []
    for r in range(instance.rows + 1):
        # the border line above row r, junctions between the segments
        parts = []
        for c in range(instance.columns + 1):
            arms = (rooms.border((r - 1, c - 1), (r - 1, c)), rooms.border((r, c - 1), (r, c)),
                    rooms.border((r - 1, c - 1), (r, c - 1)), rooms.border((r - 1, c), (r, c)))
            parts.append(_JUNCTIONS[arms])
            if c < instance.columns:
                parts.append(("─" if rooms.border((r - 1, c), (r, c)) else " ") * width)
        lines.append("".join(parts).rstrip())
        if r == instance.rows:
            break
        parts = []
        for c in range(instance.columns + 1):
            parts.append("│" if rooms.border((r, c - 1), (r, c)) else " ")
            if c < instance.columns:
                clue = instance.clues[r][c]
                shown = str(clue) if clue else (" " if rooms.known(r, c) else ".")
                parts.append(f"{shown:^{width}}")
        lines.append("".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def render_svg(instance: ShikakuInstance, solution: ShikakuSolution | None = None,
               shade: bool = True) -> str:
    """Clues, thin cell lines and thick room borders; with ``shade`` each room is
    coloured (rooms touching along a side may share a colour only by chance)."""
    rooms = _Rooms(instance, solution)
    cell, origin = svg.CELL, svg.MARGIN
    body: list[str] = []
    if shade and solution is not None:
        colours: dict[Hashable, str] = {}
        for r in range(instance.rows):
            for c in range(instance.columns):
                if rooms.known(r, c):
                    colour = colours.setdefault(rooms.key(r, c),
                                                _SHADES[len(colours) % len(_SHADES)])
                    body.append(svg.rectangle(*svg.cell_box(r, c), colour))
    body += [element.replace('stroke="black"', 'stroke="#b0b0b0"')
             for element in svg.grid_lines(instance.rows, instance.columns)]
    for r in range(instance.rows + 1):
        for c in range(instance.columns):
            if rooms.border((r - 1, c), (r, c)):
                y = origin + r * cell
                body.append(svg.line(origin + c * cell, y, origin + (c + 1) * cell, y, 3))
    for r in range(instance.rows):
        for c in range(instance.columns + 1):
            if rooms.border((r, c - 1), (r, c)):
                x = origin + c * cell
                body.append(svg.line(x, origin + r * cell, x, origin + (r + 1) * cell, 3))
    for r in range(instance.rows):
        for c in range(instance.columns):
            if instance.clues[r][c]:
                body.append(svg.text(*svg.centre(svg.cell_box(r, c)),
                                     str(instance.clues[r][c]), cell * 0.5, bold=True))
    return svg.document(instance.columns * cell + 2 * origin,
                        instance.rows * cell + 2 * origin, body)
