"""Each puzzle says where a grid cell is in its SVG picture (``PuzzleKind.cell_box``),
and its picture draws its grid there: the box's edges lie on the picture's grid lines."""

from __future__ import annotations

import re
from typing import Any

import pytest

from puzzles import PUZZLES, PuzzleKind


def grid_lines(picture: str) -> tuple[set[float], set[float]]:
    """The x of every vertical line and the y of every horizontal one, moved by the
    ``translate`` of the group they are in."""
    xs: set[float] = set()
    ys: set[float] = set()
    dx = dy = 0.0
    for token in re.finditer(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)">|</g>|'
                             r'<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" '
                             r'y2="([-\d.]+)"', picture):
        if token.group(0).startswith("<g"):
            dx, dy = float(token.group(1)), float(token.group(2))
        elif token.group(0) == "</g>":
            dx = dy = 0.0
        else:
            x1, y1, x2, y2 = (float(token.group(i)) for i in range(3, 7))
            if x1 == x2:
                xs.add(x1 + dx)
            elif y1 == y2:
                ys.add(y1 + dy)
    return xs, ys


def first_instance(kind: PuzzleKind[Any, Any]) -> Any:
    data_set = kind.data_sets()[0]
    return kind.read(data_set.files[0])[0]


@pytest.mark.parametrize("name", PUZZLES.names())
def test_a_cell_box_sits_on_the_pictures_grid(name: str) -> None:
    kind = PUZZLES.get(name)
    instance = first_instance(kind)
    xs, ys = grid_lines(kind.render_svg(instance))
    rows, columns = 3, 2  # every puzzle's first bundled instance is larger
    for row, column in ((0, 0), (rows - 1, columns - 1), (1, 0)):
        x, y, width, height = kind.cell_box(instance, row, column)
        assert width > 0 and height > 0
        for edge, lines in ((x, xs), (x + width, xs), (y, ys), (y + height, ys)):
            # the picture writes 6 digits of each coordinate
            assert min(abs(edge - line) for line in lines) < 0.01, (name, row, column, edge)
    assert kind.cell_box(instance, 1, 0)[1] > kind.cell_box(instance, 0, 0)[1]
    assert kind.cell_box(instance, 0, 1)[0] > kind.cell_box(instance, 0, 0)[0]
