"""Hashiwokakero pictures: islands and bridges in box-drawing characters, and SVG.

A bridge that does not run straight inside the grid (a wrong answer being shown) is
left out of the pictures rather than drawn somewhere it cannot be; the checker says
what is wrong with it.
"""

from __future__ import annotations

from puzzles import svg
from puzzles.hashi_types import Bridge, HashiInstance, HashiSolution, Island

_HORIZONTAL = {1: "─", 2: "═"}
_VERTICAL = {1: "│", 2: "║"}


def _drawable(instance: HashiInstance, bridge: Bridge) -> bool:
    (r1, c1), (r2, c2) = bridge.first, bridge.second
    inside = all(0 <= r < instance.rows and 0 <= c < instance.columns
                 for r, c in (bridge.first, bridge.second))
    return inside and (r1 == r2) != (c1 == c2) and bridge.count >= 1


def render_text(instance: HashiInstance, solution: HashiSolution | None = None) -> str:
    """Island numbers, ``.`` for an empty cell no bridge crosses, ``─ ═`` and ``│ ║`` for
    single and double bridges, ``┼`` where two bridges cross (a wrong answer). Cells are
    a character apart and rows a line apart, so bridges between neighbouring islands show."""
    canvas = [[" "] * (2 * instance.columns - 1) for _ in range(2 * instance.rows - 1)]
    for r in range(instance.rows):
        for c in range(instance.columns):
            canvas[2 * r][2 * c] = "."
    for bridge in solution.bridges if solution is not None else ():
        if not _drawable(instance, bridge):
            continue
        (r1, c1), (r2, c2) = bridge.first, bridge.second
        if r1 == r2:
            spots = [(2 * r1, x) for x in range(2 * c1 + 1, 2 * c2)]
            mark, other = _HORIZONTAL[min(bridge.count, 2)], _VERTICAL.values()
        else:
            spots = [(y, 2 * c1) for y in range(2 * r1 + 1, 2 * r2)]
            mark, other = _VERTICAL[min(bridge.count, 2)], _HORIZONTAL.values()
        for y, x in spots:
            canvas[y][x] = "┼" if canvas[y][x] in other or canvas[y][x] == "┼" else mark
    for island in instance.islands:
        canvas[2 * island.row][2 * island.column] = str(island.value)
    return "\n".join("".join(line).rstrip() for line in canvas) + "\n"


def bridges_drawn_alone(solution: HashiSolution) -> HashiInstance | None:
    """The instance a solution alone is drawn on: an island at each end of a bridge (in a
    solved puzzle every island has one), numbered with its bridges, on a grid as large as
    the islands reach; None for a solution without bridges, or with a cell outside the grid.

    >>> drawn = bridges_drawn_alone(HashiSolution((Bridge((0, 0), (0, 2), 2),)))
    >>> drawn.rows, drawn.columns, [island.value for island in drawn.islands]
    (1, 3, [2, 2])
    """
    counts: dict[tuple[int, int], int] = {}
    for bridge in solution.bridges:
        for end in (bridge.first, bridge.second):
            counts[end] = counts.get(end, 0) + bridge.count
    if not counts or min(min(cell) for cell in counts) < 0:
        return None
    return HashiInstance("", max(r for r, _ in counts) + 1, max(c for _, c in counts) + 1,
                         tuple(Island(r, c, value) for (r, c), value in sorted(counts.items())))


def render_svg(instance: HashiInstance, solution: HashiSolution | None = None) -> str:
    """Faint cell lines, bridges as one or two strokes between island centres, and the
    islands as numbered circles on top."""
    cell, origin = svg.CELL, svg.MARGIN
    body = [element.replace('stroke="black"', 'stroke="#e0e0e0"')
            for element in svg.grid_lines(instance.rows, instance.columns)]

    def centre(r: int, c: int) -> tuple[float, float]:
        return svg.centre(svg.cell_box(r, c))

    for bridge in solution.bridges if solution is not None else ():
        if not _drawable(instance, bridge):
            continue
        (x1, y1), (x2, y2) = centre(*bridge.first), centre(*bridge.second)
        offsets = (0.0,) if bridge.count == 1 else (-cell * 0.1, cell * 0.1)
        for offset in offsets:
            if y1 == y2:
                body.append(svg.line(x1, y1 + offset, x2, y2 + offset, 2))
            else:
                body.append(svg.line(x1 + offset, y1, x2 + offset, y2, 2))
    for island in instance.islands:
        x, y = centre(island.row, island.column)
        body.append(f'<circle cx="{x:g}" cy="{y:g}" r="{cell * 0.38:g}" fill="white" '
                    f'stroke="black" stroke-width="2"/>')
        body.append(svg.text(x, y, str(island.value), cell * 0.45, bold=True))
    return svg.document(instance.columns * cell + 2 * origin,
                        instance.rows * cell + 2 * origin, body)
