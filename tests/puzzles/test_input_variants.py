"""The formats people have: a Sudoku as a grid of lines, nonogram clues between spaces.

Each variant must read to the very instance its usual form gives, and a malformed
variant must be refused with the file and line (and column, where there is one).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from puzzlelab.errors import ParseError
from puzzles import nonogram, sudoku
from tests.paths import NONOGRAM_DATA, SUDOKU_DATA

LAMBDA = sudoku.load(SUDOKU_DATA / "kul_named_9x9.txt", "lambda")


def character_line(instance: sudoku.SudokuInstance) -> str:
    return "".join(str(value) if value else "." for row in instance.givens for value in row)


def plain_rows(instance: sudoku.SudokuInstance, empty: str = ".") -> list[str]:
    return ["".join(str(value) if value else empty for value in row)
            for row in instance.givens]


def boxed_rows(instance: sudoku.SudokuInstance) -> list[str]:
    """``5 3 . | . 7 .`` rows with ``------+------`` dividers (what newspapers print)."""
    box, lines = instance.box, []
    for r, row in enumerate(plain_rows(instance)):
        if r and r % box == 0:
            lines.append("+".join(["-" * (2 * box + 1)] * box))
        lines.append(" | ".join(" ".join(row[b:b + box]) for b in range(0, len(row), box)))
    return lines


GRID_LINE_VARIANTS = {
    "digits and dots": "\n".join(plain_rows(LAMBDA)),
    "digits and zeros": "\n".join(plain_rows(LAMBDA, "0")),
    "spaced digits": "\n".join(" ".join(row) for row in plain_rows(LAMBDA)),
    "spaced by box": "\n".join(" ".join(row[b:b + 3] for b in (0, 3, 6))
                               for row in plain_rows(LAMBDA)),
    "bars and dividers": "\n".join(boxed_rows(LAMBDA)),
    "bars without spaces": "\n".join(row.replace(" ", "") for row in boxed_rows(LAMBDA)),
    "framed": "+-----+-----+-----+\n" + "\n".join(f"|{row}|" for row in
                                                 "\n".join(boxed_rows(LAMBDA)).split("\n")
                                                 ) + "\n+=====+=====+=====+\n",
    "the terminal picture": sudoku.render_text(LAMBDA),
    "commented, tabs, CRLF": "# lambda, as typed\r\n" + "\r\n".join(
        "\t".join(row) for row in plain_rows(LAMBDA)) + "\r\n",
}


@pytest.mark.parametrize("text", GRID_LINE_VARIANTS.values(), ids=GRID_LINE_VARIANTS.keys())
def test_a_sudoku_as_grid_lines_is_the_instance_of_its_character_line(text: str) -> None:
    [usual] = sudoku.parse(character_line(LAMBDA), "lambda.txt")
    assert sudoku.parse(text, "lambda.txt") == [usual]
    assert usual.givens == LAMBDA.givens


@pytest.mark.parametrize(("file", "selector"), [
    ("small_4x4.txt", 2), ("kul_16x16.txt", None), ("kul_25x25.txt", None)])
def test_other_sizes_read_back_from_their_terminal_picture(file: str,
                                                          selector: int | None) -> None:
    """4x4 rows are characters; 16x16 and 25x25 rows are numbers between spaces."""
    instance = sudoku.load(SUDOKU_DATA / file, selector)
    [back] = sudoku.parse(sudoku.render_text(instance))
    assert back.givens == instance.givens and back.box == instance.box


def test_several_grids_and_a_companion_solution_in_grid_lines(tmp_path: Path) -> None:
    first, second = (sudoku.load(SUDOKU_DATA / "easy_9x9.txt", i) for i in (1, 2))
    (tmp_path / "two.txt").write_text(
        "\n".join(plain_rows(first)) + "\n\n" + "\n".join(boxed_rows(second)) + "\n")
    (tmp_path / "usual.txt").write_text(f"{character_line(first)}\n{character_line(second)}\n")
    assert first.known_solution is not None and second.known_solution is not None
    (tmp_path / "two.solutions.txt").write_text("".join(
        sudoku.render_text(sudoku.SudokuInstance("s", 3, known.grid)) + "\n"
        for known in (first.known_solution, second.known_solution)))
    grids = sudoku.read(tmp_path / "two.txt")
    usual = sudoku.parse((tmp_path / "usual.txt").read_text(), str(tmp_path / "two.txt"))
    assert [g.givens for g in grids] == [u.givens for u in usual]
    assert [g.name for g in grids] == ["two#1", "two#2"]
    assert [g.known_solution for g in grids] == [first.known_solution, second.known_solution]


ROWS = plain_rows(LAMBDA)


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("\n".join([*ROWS[:4], ROWS[4][:8], *ROWS[5:]]), 5, None,
     "row 5 has 8 characters (digits or '.'), expected 9"),
    ("\n".join([*ROWS[:2], "x" + ROWS[2][1:], *ROWS[3:]]), 3, 1,
     "'x' is not a digit or '.' for a 9x9 Sudoku"),
    ("\n".join(boxed_rows(LAMBDA)).replace(" . | 5 .", " . | 5 ?", 1), 3, 11, "'?' is not"),
    ("# top\n" + "\n".join(ROWS[:8]) + "\n", 9, None,
     "unexpected end of input: expected row 9 of 9"),
    ("1 2 . 4 .\n" * 5, 1, None, "a first row of 5 cells"),
    ("5 3 0 0 7 0 0 0 0 1\n" * 9, 1, None, "a first row of 10 cells"),
    ("1 . | . .\n. . | . 5\n. . | . .\n. . | . .\n", 2, 9, "'5' is out of range for a 4x4"),
    ("1 . | . .\n. . | . .\n----+----\n1 . | . .\n. . | . .\n", 4, None,
     "duplicate given 1 in a column"),
    ("\n".join(" ".join(row.split()) for row in sudoku.render_text(
        sudoku.load(SUDOKU_DATA / "kul_16x16.txt")).splitlines()[:3]).replace("12 ", "12 7 ", 1),
     1, None, "a first row of 17 cells"),
])
def test_malformed_grid_lines_name_file_line_and_column(text: str, line: int,
                                                        column: int | None,
                                                        message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)) as caught:
        sudoku.parse(text, "bad.txt")
    assert caught.value.source == "bad.txt" and caught.value.line == line
    assert caught.value.column == column
    assert str(caught.value).startswith(f"bad.txt:{line}:")


def spaced(text: str) -> str:
    """A ``.non`` text with every comma of its clue lines a space."""
    return "\n".join(line.replace(",", " ") if re.fullmatch(r"[0-9][0-9,]*", line) else line
                     for line in text.split("\n"))


@pytest.mark.parametrize("name", ["knotty.non", "webpbn-00001.non"])
def test_nonogram_clues_between_spaces_are_the_usual_clues(name: str) -> None:
    text = (NONOGRAM_DATA / "webpbn_survey" / name).read_text()
    assert spaced(text) != text
    assert nonogram.parse_non(spaced(text), name) == nonogram.parse_non(text, name)
    mixed = text.replace(",", ", ")  # commas with spaces after them, as some files have
    assert nonogram.parse_non(mixed, name) == nonogram.parse_non(text, name)


GOOD = "width 3\nheight 2\nrows\n1 1\n2\ncolumns\n2\n1\n1\n"


def test_a_small_spaced_file_reads_its_clues() -> None:
    [puzzle] = nonogram.parse_non(GOOD)
    assert puzzle.rows == ((1, 1), (2,)) and puzzle.columns == ((2,), (1,), (1,))
    assert nonogram.parse_non(GOOD.replace("1 1", "1  \t 1"))[0] == puzzle


@pytest.mark.parametrize(("clue", "message"), [
    ("1 ,, 1", "bad clue '1 ,, 1': expected numbers separated by commas or spaces"),
    ("1, 1,", "bad clue '1, 1,'"),
    ("1 x", "bad clue line '1 x': expected block lengths such as '2,1' or '2 1'"),
    ("1 1 1", "row 1: clue 1,1,1 needs 5 cells but the row has 3"),
])
def test_malformed_spaced_clues_name_file_and_line(clue: str, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(f"bad.non:4: {message}")):
        nonogram.parse_non(GOOD.replace("1 1", clue), "bad.non")
