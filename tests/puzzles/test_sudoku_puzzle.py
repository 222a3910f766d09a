"""Sudoku files, checker and rendering: what users read, and the errors they get."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import InstanceNotFound, ParseError
from puzzles.sudoku import (
    SudokuInstance,
    SudokuSolution,
    check,
    format,
    load,
    parse,
    read,
    render_svg,
    render_text,
    write,
)
from tests.facts import assert_each_states, states
from tests.paths import SUDOKU_DATA

SOLVED_4X4 = ((2, 4, 1, 3), (1, 3, 2, 4), (3, 2, 4, 1), (4, 1, 3, 2))


@pytest.mark.parametrize(("name", "count", "size"), [
    ("kul_named_9x9.txt", 19, 9), ("norvig_top95.txt", 95, 9), ("norvig_hardest.txt", 11, 9),
    ("puzzlekit_sudoku.txt", 63, None), ("kul_16x16.txt", 1, 16), ("kul_25x25.txt", 1, 25),
    ("small_4x4.txt", 6, 4), ("easy_9x9.txt", 4, 9), ("multi_4x4.txt", 4, 4),
])
def test_shipped_files_read_with_their_solutions(name: str, count: int, size: int | None) -> None:
    instances = read(SUDOKU_DATA / name)
    assert len(instances) == count
    for instance in instances:
        assert size is None or instance.size == size
        if name != "multi_4x4.txt":
            assert instance.known_solution is not None
            assert check(instance, instance.known_solution) == []


def test_pick_by_name_and_by_index() -> None:
    assert load(SUDOKU_DATA / "kul_named_9x9.txt", "hard17").name == "hard17"
    assert load(SUDOKU_DATA / "kul_named_9x9.txt", 2).name == "hard17"
    assert load(SUDOKU_DATA / "kul_named_9x9.txt", "2").name == "hard17"
    assert load(SUDOKU_DATA / "kul_16x16.txt").size == 16
    with pytest.raises(InstanceNotFound, match=r"no instance named .nope.*lambda"):
        load(SUDOKU_DATA / "kul_named_9x9.txt", "nope")
    with pytest.raises(InstanceNotFound, match=r"out of range 1\.\.19"):
        load(SUDOKU_DATA / "kul_named_9x9.txt", 20)
    for not_ascii_digits in ("²", "２", "-1"):  # str.isdigit takes the first two
        with pytest.raises(InstanceNotFound, match="no instance named"):
            load(SUDOKU_DATA / "kul_named_9x9.txt", not_ascii_digits)
    with pytest.raises(InstanceNotFound, match="holds 19 instances"):
        load(SUDOKU_DATA / "kul_named_9x9.txt")


def test_checker_lists_every_violation() -> None:
    instance = SudokuInstance("t", 2, ((2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)))
    assert check(instance, SudokuSolution(SOLVED_4X4)) == []
    broken = SudokuSolution(((3, 4, 1, 3), (1, 3, 2, 4), (3, 2, 4, 1), (4, 1, 3, 9)))
    # each rule by the cell, row, column or box it breaks in, with the values at fault and
    # where a digit repeats
    assert_each_states(check(instance, broken),
                       ("cell (row 1, column 1)", "is 3", "given is 2"),
                       ("cell (row 4, column 4)", "9", "outside 1..4"),
                       ("row 1", "has 3", "2 times", "columns 1, 4"),
                       ("column 1", "has 3", "2 times", "rows 1, 3"),
                       ("box (rows 1-2, columns 1-2)", "has 3", "2 times", "1/1, 2/2"))
    assert "must be 4x4" in check(instance, SudokuSolution(((1, 2),)))[0]


@given(st.lists(st.sampled_from([0, 1, 2, 3, 4]), min_size=16, max_size=16))
def test_format_and_parse_round_trip(values: list[int]) -> None:
    rows = tuple(tuple(values[r * 4:(r + 1) * 4]) for r in range(4))
    try:
        instance = parse(format(SudokuInstance("x", 2, rows), "grid"))[0]
    except ParseError as error:
        assert "duplicate given" in str(error)
        return
    assert instance.givens == rows
    assert parse(format(instance, "line"))[0].givens == rows


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("", None, None, "no puzzle found"),
    ("# only a comment\n", None, None, "no puzzle found"),
    ("1...........4...\n1...........4..\n", 2, None, "has 15"),
    ("1...........4...\n1..x........4...\n", 2, 4, "'x' is not a digit"),
    ("1..5........4...\n", 1, 4, "'5' is out of range"),
    ("1..1........4...\n", 1, None, "duplicate given 1 in a row"),
    ("# c\n4\n1 0 0 0\n0 0 0 0\n1 0 0 0\n0 0 0 0\n", 5, None, "duplicate given 1 in a column"),
    ("4\n1 0 0 0\n0 0 0\n", 3, None, "row 2 has 3 entries"),
    ("4\n1 0 0 0\n0 0 0 0\n", 3, None, "unexpected end of input"),
    ("5\n", 1, None, "not the square"),
    ("4\n1 0 0 0\n0 x 0 0\n0 0 0 0\n0 0 0 0\n", 3, 3, "expected a digit"),
    ("4\n1 0 0 0\n0 7 0 0\n0 0 0 0\n0 0 0 0\n", 3, 3, "outside 0..4"),
    ("4\n1 0 0 0\n0 0_2 0 0\n0 0 0 0\n0 0 0 0\n", 3, 3, "expected a digit, found '0_2'"),
    ("\u00b2...........4...\n", 1, 1, "'\u00b2' is not a digit"),
    ("-4\n", 1, None, "grid size -4 is not the square"),
    ("4 4\n", 1, None, "expected a line with the grid size N"),
    ("p1 set 17 1...........4...\n", 1, None, "a named line has 5 fields"),
    ("== a\nproblem:\n0 0\n", 3, None, "grid size 0 is not the square"),
    ("== a\nproblem:\n-4 -4\n", 3, None, "grid size -4 is not the square"),
    ("== a\nproblem:\n4 4\n1 - - -\n- - - -\n- - - -\n- - - 4\n"
     "== a\nproblem:\n4 4\n1 - - -\n- - - -\n- - - -\n- - - 4\n", 8, None,
     "a second instance named 'a' \\(the first is on line 1\\)"),
    ("p1 s 6 1...........4... 2413132432414132\n", 1, None,
     "the known solution of 'p1' is not one: cell \\(row 1, column 1\\) is 2 but the "
     "given is 1"),
    ("p1 s 6 1...........4... 1234............\n", 1, None,
     "the known solution of 'p1' is not one: cell \\(row 2, column 1\\) holds 0"),
    ("== a\nproblem:\n4 4\n1 - - -\n- - - -\n- - - -\n- - - 4\nsolution:\n4 4\n"
     "2 1 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1\n", 10, None,
     "the known solution of 'a' is not one: cell \\(row 1, column 1\\) is 2 but the given "
     "is 1"),
])
def test_bad_input_names_file_line_and_problem(text: str, line: int | None, column: int | None,
                                               message: str) -> None:
    with pytest.raises(ParseError, match=message) as caught:
        parse(text, "bad.txt")
    assert caught.value.source == "bad.txt"
    assert caught.value.line == line
    if column is not None:
        assert caught.value.column == column
    assert str(caught.value).startswith("bad.txt")


def test_missing_file_is_a_parse_error(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="no such file"):
        read(tmp_path / "absent.txt")


def test_companion_solution_count_must_match(tmp_path: Path) -> None:
    (tmp_path / "two.txt").write_text("1...........4...\n" * 2)
    (tmp_path / "two.solutions.txt").write_text("# solved\n1234341221434321\n\n")
    with pytest.raises(ParseError, match=r"two.solutions.txt:2: 1 solution for 2 puzzles"):
        read(tmp_path / "two.txt")


def test_extra_companion_solution_is_named_by_line(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_text("1...........4...\n")
    (tmp_path / "one.solutions.txt").write_text("1234341221434321\n\n1234341221434321\n")
    with pytest.raises(ParseError, match=r"one.solutions.txt:3: 2 solutions for 1 puzzle"):
        read(tmp_path / "one.txt")


def test_companion_solutions_must_solve_their_puzzles(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_text("1...........4...\n")
    (tmp_path / "one.solutions.txt").write_text("# solved\n2413132432414132\n")
    with pytest.raises(ParseError) as raised:
        read(tmp_path / "one.txt")
    error = raised.value
    assert (error.source, error.line) == (str(tmp_path / "one.solutions.txt"), 2)
    # which solution, of which puzzle, and the checker's first complaint
    assert states(error.message, "solution 1", "'one#1'", "(row 1, column 1)", "is 2",
                  "given is 1")


@pytest.mark.parametrize("text", [
    "\ufeff1...........4...\n",  # a byte-order mark, as Windows editors write
    "# a\x0cb\r\n1...........4...",  # a form feed in a comment, CRLF, no final newline
    "# old Mac line ends\r1...........4...\r",
])
def test_files_from_other_editors_read(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.txt"
    path.write_bytes(text.encode("utf-8"))
    [instance] = read(path)
    assert instance.givens == ((1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (4, 0, 0, 0))


def test_text_and_svg_rendering() -> None:
    instance = load(SUDOKU_DATA / "small_4x4.txt", 1)
    picture = render_text(instance)
    assert "1 3" in picture and "." in picture and "+" in picture
    solved = render_text(instance, instance.known_solution)
    assert "." not in solved
    root = ElementTree.fromstring(render_svg(instance, instance.known_solution))
    texts = [element.text for element in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sorted(texts) == sorted(str(v) for row in instance.known_solution.grid for v in row)


def test_write_gives_a_named_block_that_reads_back_at_every_size() -> None:
    for instance in (load(SUDOKU_DATA / "small_4x4.txt", 1), load(SUDOKU_DATA / "kul_25x25.txt")):
        text = write(instance, instance.known_solution)
        lines = text.splitlines()
        assert lines[:3] == [f"== {instance.name}", "problem:", f"{instance.size} {instance.size}"]
        assert "solution:" in lines and "-" in lines[3].split()
        assert parse(text) == [instance]
        assert "solution:" not in write(instance)
        assert parse(write(instance))[0].known_solution is None
