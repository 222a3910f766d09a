"""The symmetries of a nonogram's clues: the turns and mirrors of the grid that keep them.

A turn or mirror of the grid carries each line onto a line, read forwards or
backwards. When every line's clue, read that way, is the clue of the line it lands
on, the map turns every solution into a solution; so a nonogram with exactly one
solution has a picture that every such map leaves unchanged. Lines whose clue is 0
are blank in every solution, so the maps act on the box the other lines span: the
picture of Knotty (webpbn survey) is the top-left 39 x 39 cells of its 40 x 40 grid,
and its clues are the same after a quarter turn of that box.

>>> from puzzles.nonogram import parse_non
>>> plus = parse_non("width 3\\nheight 3\\nrows\\n1\\n3\\n1\\ncolumns\\n1\\n3\\n1\\n")[0]
>>> [symmetry.name for symmetry in clue_symmetries(plus)]  # doctest: +NORMALIZE_WHITESPACE
['mirror top-bottom', 'mirror left-right', 'half turn', 'quarter turn clockwise',
 'quarter turn anticlockwise', 'mirror on the main diagonal', 'mirror on the anti-diagonal']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from puzzles.nonogram_formats import Clue

if TYPE_CHECKING:
    from puzzles.nonogram_types import NonogramInstance

Cell = tuple[int, int]  # (row, column), 0-based
Transform = Callable[[int, int], Cell]


class Symmetry(NamedTuple):
    """A map of the grid that keeps the clues: each moved cell and where it goes."""

    name: str
    images: dict[Cell, Cell]


def clue_symmetries(instance: NonogramInstance) -> list[Symmetry]:
    """Every turn and mirror of the clued box that keeps the clues and moves some cell
    (each map once, under its first name)."""
    box = _box(instance)
    if box is None:
        return []
    top, left, height, width = box
    found: list[Symmetry] = []
    for name, transform in _transforms(height, width):
        if not _keeps_clues(instance, box, transform):  # cheap: lines, not cells
            continue
        images = {}
        for r in range(height):
            for c in range(width):
                image_r, image_c = transform(r, c)
                if (image_r, image_c) != (r, c):
                    images[top + r, left + c] = (top + image_r, left + image_c)
        # a thin box turns some maps into the identity, or into the same map as another
        repeated = not images or any(images == other.images for other in found)
        if not repeated:
            found.append(Symmetry(name, images))
    return found


def _box(instance: NonogramInstance) -> tuple[int, int, int, int] | None:
    """Top, left, height and width of the box spanned by the lines with blocks."""
    rows = [r for r, clue in enumerate(instance.rows) if clue]
    columns = [c for c, clue in enumerate(instance.columns) if clue]
    if not rows or not columns:
        return None
    return rows[0], columns[0], rows[-1] - rows[0] + 1, columns[-1] - columns[0] + 1


def _transforms(height: int, width: int) -> list[tuple[str, Transform]]:
    """The turns and mirrors of a ``height`` x ``width`` box, on 0-based box cells."""
    last_r, last_c = height - 1, width - 1
    found: list[tuple[str, Transform]] = [
        ("mirror top-bottom", lambda r, c: (last_r - r, c)),
        ("mirror left-right", lambda r, c: (r, last_c - c)),
        ("half turn", lambda r, c: (last_r - r, last_c - c)),
    ]
    if height == width:
        found += [
            ("quarter turn clockwise", lambda r, c: (c, last_r - r)),
            ("quarter turn anticlockwise", lambda r, c: (last_c - c, r)),
            ("mirror on the main diagonal", lambda r, c: (c, r)),
            ("mirror on the anti-diagonal", lambda r, c: (last_c - c, last_r - r)),
        ]
    return found


def _keeps_clues(instance: NonogramInstance, box: tuple[int, int, int, int],
                 transform: Transform) -> bool:
    """Whether every line of the box lands on a line with the same clue read its way.

    A turn or mirror carries a line onto a line, so a line's two end cells settle
    where it lands and which way it reads there: no need to map every cell.
    """
    height, width = box[2], box[3]
    lines = ([((r, 0), (r, width - 1), width, True) for r in range(height)]
             + [((0, c), (height - 1, c), height, False) for c in range(width)])
    return all(_clue_of(instance, box, transform(*first), transform(*last), length, is_row)
               == _clue_of(instance, box, first, last, length, is_row)
               for first, last, length, is_row in lines)


def _clue_of(instance: NonogramInstance, box: tuple[int, int, int, int],
             first: Cell, last: Cell, length: int, is_row: bool) -> Clue:
    """The clue of the box line from ``first`` to ``last`` (a row or a column, either
    way), read in that order; ``is_row`` settles a one-cell line, which the maps of a
    box with one-cell lines (not square, or 1 x 1) carry onto a line of the same kind."""
    top, left = box[0], box[1]
    (r0, c0), (r1, c1) = first, last
    if r0 == r1 and (length > 1 or is_row):
        clue = instance.rows[top + r0]
        return clue if c0 <= c1 else clue[::-1]
    clue = instance.columns[left + c0]
    return clue if r0 <= r1 else clue[::-1]
