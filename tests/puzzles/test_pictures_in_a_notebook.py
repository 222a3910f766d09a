"""What the pictures a notebook shows of instances and solutions hold (that every
puzzle's draw themselves at all is a contract check, ``tests/puzzles/test_contract.py``);
a solution too little to draw, or a picture that fails, shows as text instead, and the
display never raises."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections import Counter
from typing import Any

import pytest

from puzzles import PUZZLES
from puzzles.hashi_types import HashiSolution
from puzzles.nonogram import blocks_of
from puzzles.shikaku_types import ShikakuSolution
from puzzles.sudoku import SudokuInstance, SudokuSolution
from tests.paths import NONOGRAM_DATA, SUDOKU_DATA

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg_text: str | None) -> ElementTree.Element:
    """The picture as XML: it must be a well-formed SVG document."""
    assert svg_text is not None
    root = ElementTree.fromstring(svg_text)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ElementTree.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def test_a_sudoku_shows_its_clues_and_its_solution_every_digit() -> None:
    sudoku = PUZZLES.get("sudoku")
    instance = sudoku.load(SUDOKU_DATA / "small_4x4.txt", 1)
    shown = texts(parsed(instance._repr_svg_()))
    assert Counter(shown) == Counter(str(d) for row in instance.givens for d in row if d)
    solution = sudoku.known_solution(instance)
    assert Counter(texts(parsed(solution._repr_svg_()))) == Counter(
        str(d) for row in solution.grid for d in row)


def test_a_nonogram_solution_is_drawn_with_the_clues_read_off_it() -> None:
    nonogram = PUZZLES.get("nonogram")
    instance = nonogram.load(NONOGRAM_DATA / "small" / "plus_3x3.non")
    solution = nonogram.known_solution(instance)
    root = parsed(solution._repr_svg_())
    clues = [str(block) for line in (*instance.rows, *instance.columns) for block in line]
    assert Counter(texts(root)) == Counter(clues)
    filled = [element for element in root.iter(f"{SVG}rect") if element.get("fill") == "#222"]
    assert len(filled) == sum(len(blocks_of(row)) for row in solution.grid)


def test_a_hashi_solution_alone_shows_its_islands_numbered_with_their_bridges() -> None:
    hashi = PUZZLES.get("hashi")
    instance = hashi.read(hashi.data_folder() / "small" / "small.txt")[0]
    root = parsed(hashi.known_solution(instance)._repr_svg_())
    assert sorted(texts(root)) == sorted(str(island.value) for island in instance.islands)
    assert len(list(root.iter(f"{SVG}circle"))) == len(instance.islands)


@pytest.mark.parametrize("solution", [
    HashiSolution(()),  # no bridge: nothing tells where an island is
    SudokuSolution(((1, 2, 3), (2, 3, 1), (3, 1, 2))),  # 3x3: no square boxes
    ShikakuSolution(()),
], ids=["hashi-no-bridges", "sudoku-not-square", "shikaku-empty"])
def test_a_solution_too_little_to_draw_shows_as_text(solution: Any) -> None:
    assert solution._repr_svg_() is None


def test_a_picture_that_fails_is_a_warning_and_the_text_repr() -> None:
    broken = SudokuInstance("broken", 2, ((1, 2), (3,)))  # rows too short for a 4x4 grid
    with pytest.warns(RuntimeWarning, match="SudokuInstance"):
        assert broken._repr_svg_() is None
    assert "broken" in repr(broken)
