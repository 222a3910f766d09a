"""Nonogram files, checker and pictures: every shipped file reads, bad files say where."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from puzzlelab.errors import ParseError
from puzzles.nonogram import (
    NonogramSolution,
    check,
    clues_of,
    format_non,
    parse,
    parse_dzn,
    parse_non,
    random_instance,
    read,
    render_svg,
    render_text,
)
from tests.facts import assert_each_states
from tests.paths import NONOGRAM_DATA

SVG = "{http://www.w3.org/2000/svg}"
SHIPPED = sorted(p for p in NONOGRAM_DATA.rglob("*") if p.suffix in (".non", ".dzn"))


def test_the_shipped_sets_are_all_there() -> None:
    names = {p.name for p in SHIPPED}
    assert len([p for p in SHIPPED if p.parent.name == "webpbn_survey"]) == 14
    assert len([p for p in SHIPPED if p.parent.name == "minizinc_challenge"]) == 26
    assert {"knotty.non", "faase.non", "non_awful_1.dzn", "non_micro.dzn"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_file_reads_and_its_known_solution_fits(path: Path) -> None:
    [puzzle] = read(path)
    assert puzzle.name == path.stem and puzzle.height and puzzle.width
    if puzzle.known_solution is not None:
        assert check(puzzle, puzzle.known_solution) == []
    has_goal = path.suffix == ".non" and "goal" in path.read_text()
    has_out = path.with_suffix(".out").is_file()
    assert (puzzle.known_solution is not None) == (has_goal or has_out)


def test_dzn_patterns_become_clues() -> None:
    [puzzle] = read(NONOGRAM_DATA / "minizinc_challenge" / "non_micro.dzn")
    assert puzzle.rows == ((3,), (1, 1), (1, 1), (1, 1), (3,))
    assert puzzle.columns == puzzle.rows


GOOD = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"


@pytest.mark.parametrize(("text", "message"), [
    (GOOD.replace("height 2\n", ""), r"bad.txt:7: missing 'height N' \(or 'rows N'\): the "
                                     r"file ends without one"),
    (GOOD.replace("width 2\n", "") + "\n\n", r"bad.txt:7: missing 'width N' \(or 'columns N'\)"),
    (GOOD.replace("columns\n1\n1\n", ""), r"bad.txt:5: missing 'columns' section"),
    (GOOD.replace("rows\n1\n1", "rows\n1\nl,2"), r"bad.txt:5: bad clue line 'l,2'"),
    (GOOD.replace("rows\n1\n1", "rows\n1\nx"), r"bad.txt:4: 'rows' has 1 clue line, expected "
                                               r"2 \(line 5, 'x', is read as a property and "
                                               r"ends the section\)"),
    (GOOD.replace("rows\n1\n1", "rows\n1\ntitle \"t\"\n1"),
     r"bad.txt:6: clue line '1' is outside the 'rows' and 'columns' sections"),
    (GOOD.replace("rows\n", "7,7,7\nrows\n"), r"bad.txt:3: clue line '7,7,7' is outside"),
    (GOOD.replace("rows\n", "%%%%\nrows\n"),
     r"bad.txt:3: unexpected line '%%%%': expected a keyword"),
    (GOOD + 'goal "1001"\n1\n', r"bad.txt:10: clue line '1' is outside"),
    ("width 3\n" + GOOD, r"bad.txt:2: a second 'width' \(the first is on line 1\)"),
    (GOOD + "rows\n1\n", r"bad.txt:9: a second 'rows' section \(the first is on line 3\)"),
    (GOOD + 'goal "1001"\ngoal "1001"\n', r"bad.txt:10: a second 'goal'"),
    (GOOD.replace("width 2", "width \u00b2"), r"bad.txt:1: width must be a positive whole "
                                               r"number, not '\u00b2'"),
    (GOOD.replace("rows\n1\n1", "rows\n1\n1,,1"), r"bad.txt:5: bad clue '1,,1'"),
    (GOOD.replace("rows\n1\n1", "rows\n1\n3"), r"bad.txt:5: row 2: clue 3 needs 3 cells but "
                                               r"the row has 2"),
    (GOOD.replace("rows\n1\n1", "rows\n1\n2"), r"bad.txt:4: nonogram: the row clues \(lines "
                                               r"4-5\) fill 3 cells but the column clues "
                                               r"\(lines 7-8\) fill 2"),
    (GOOD.replace("rows\n1\n1", "rows\n1"), r"bad.txt:4: 'rows' has 1 clue line, expected 2"),
    (GOOD.replace("width 2", "width two"), r"bad.txt:1: width must be a positive whole number"),
    (GOOD + 'goal "1100"\n', r"bad.txt:9: the goal picture does not fit the clues: row 1 "
                              r"has blocks 2, its clue is 1"),
    (GOOD + 'goal "10"\n', r"bad.txt:9: goal must be 4 characters 0 or 1"),
    (GOOD + 'goal "10x1"\n', r"bad.txt:9: goal holds 'x'"),
])
def test_bad_non_files_are_located(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_non(text, "bad.txt")


DZN = "X = 2;\nY = 2;\nmaxlen = 1;\nrows = [|1\n|1\n|];\ncols = [|1\n|1\n|];\n"


@pytest.mark.parametrize(("text", "message"), [
    (DZN.replace("Y = 2;\n", "") + "% end\n", r"bad.dzn:8: missing assignment 'Y = ...;': the "
                                             r"file ends without one"),
    (DZN.replace("rows = [|1\n|1\n|]", "rows = [|1\n|2\n|]"), r"bad.dzn:5: 'rows' row 2: "
                                                             r"patterns hold only -1, 0 and 1"),
    (DZN.replace("rows = [|1\n|1\n|]", "rows = [|1\n|]"), r"bad.dzn:4: 'rows' has 1 line"),
    (DZN.replace("cols = [|1\n|1\n|]", "cols = [|1\n|a\n|]"), r"bad.dzn:8: 'cols' row 2: "
                                                             r"expected integers"),
    (DZN.replace("rows = [|1\n|1\n|]", "rows = [|1|x|]"), r"bad.dzn:4: 'rows' row 2: "
                                                          r"expected integers"),
    (DZN.replace("rows = [|1\n|1\n|]", "rows =\n  [|1,\n 1|\n\n 2|]"),
     r"bad.dzn:8: 'rows' row 2: patterns hold only"),
    (DZN.replace("X = 2;", "X = 2"), r"bad.dzn:1: missing ';' after the value of 'X'"),
    (DZN[:-2] + "\n", r"bad.dzn:7: missing ';' after the value of 'cols'"),
    (DZN + "X = 3;\n", r"bad.dzn:10: 'X' is assigned twice \(first on line 1\)"),
    (DZN.replace("X = 2;", "X = \u00b2;"), r"bad.dzn:1: X must be a positive whole number"),
    (DZN.replace("rows = [|1\n|1\n|]", "rows = [|1, -1\n|-1, 1\n|]"),
     r"bad.dzn:5: 'rows' row 2: -1 only pads the end of a pattern"),
    (DZN.replace("rows = [|1\n|1\n|]", "rows = [|1, -1\n|1\n|]"),
     r"bad.dzn:5: 'rows' row 2 has 1 value, row 1 has 2"),
    (DZN.replace("rows = [|1\n|1\n|]", "rows = [|1\n|0, 1\n|]"),
     r"bad.dzn:5: 'rows' row 2: a pattern is blocks of 1 with one 0 between them"),
    (DZN.replace("X = 2;", "X 2;"), r"bad.dzn:1: expected 'name = value;', found 'X 2'"),
])
def test_bad_dzn_files_are_located(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_dzn(text, "bad.dzn")


def test_readable_variants_of_the_formats() -> None:
    """Simpson's size synonyms, properties anywhere, and MiniZinc comments are read."""
    synonyms = "columns 2\nrows 2\nrows\n1\n1\ncolor a #000000\ncolumns\n1\n1\nlicense CC0\n"
    assert parse_non(synonyms)[0] == parse_non(GOOD)[0]
    commented = DZN + "% X = 3;\n" + "%  a comment; with = signs\n"
    assert parse_dzn(commented)[0].rows == ((1,), (1,))


@pytest.mark.parametrize(("name", "text"), [
    ("bom.non", "\ufeff" + GOOD),
    ("feed.non", 'title "a\x0cb"\r\n' + GOOD.replace("\n", "\r\n")),
    ("upper.DZN", DZN),
])
def test_files_from_other_editors_read(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    [puzzle] = read(path)
    assert (puzzle.rows, puzzle.columns) == (((1,), (1,)), ((1,), (1,)))


def test_a_form_feed_does_not_shift_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "feed.non"
    path.write_text('title "a\x0cb"\n' + GOOD.replace("rows\n1\n1", "rows\n1\n1,,1"))
    with pytest.raises(ParseError, match=r"feed.non:6: bad clue"):
        read(path)


@pytest.mark.parametrize(("out", "message"), [
    ("A = array2d(1..2, 1..2, [2, 1, x, 2]);\n", r"p.out:1: expected 4 values 1 or 2 in 'A'"),
    ("% solved\nB = [2, 1];\n\n", r"p.out:2: expected 'A = array2d\(1..X, 1..Y, \[...\]\)'"),
    ("% solved\n\nA = array2d(1..2, 1..2, [2, 2, 1, 1]);\n",
     r"p.out:3: the solution does not fit the clues: row 1 has blocks 2, its clue is 1"),
])
def test_a_bad_out_file_is_one_clear_error(tmp_path: Path, out: str, message: str) -> None:
    (tmp_path / "p.dzn").write_text(DZN)
    (tmp_path / "p.out").write_text(out)
    with pytest.raises(ParseError, match=message):
        read(tmp_path / "p.dzn")


def test_a_missing_file_is_a_parse_error(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="no such file"):
        read(tmp_path / "none.non")


def test_checker_lists_every_wrong_line() -> None:
    [puzzle] = parse_non(GOOD)
    assert check(puzzle, NonogramSolution(((1, 0), (0, 1)))) == []
    # each wrong line with the blocks it has and its clue; the columns are right
    assert_each_states(check(puzzle, NonogramSolution(((1, 1), (0, 0)))),
                       ("row 1", "blocks 2", "clue is 1"), ("row 2", "none", "clue is 1"))
    assert_each_states(check(puzzle, NonogramSolution(((1, 2), (0, 1)))),
                       ("cell (1, 2)", "is 2", "0 or 1"))
    assert_each_states(check(puzzle, NonogramSolution(((1, 0),))), ("2 rows", "2 cells"))


def test_format_non_round_trips_with_the_goal() -> None:
    puzzle = random_instance(7, 5, 0.5, random.Random(3), "round")
    [again] = parse_non(format_non(puzzle, puzzle.known_solution), name="round")
    assert (again.rows, again.columns) == (puzzle.rows, puzzle.columns)
    assert again.known_solution == puzzle.known_solution


def test_format_non_keeps_what_the_file_says_of_its_puzzle() -> None:
    """Title, author and copyright (compared by no one, so checked here) come back."""
    [puzzle] = read(NONOGRAM_DATA / "webpbn_survey" / "knotty.non")
    assert puzzle.title and puzzle.author and puzzle.copyright
    [again] = parse_non(format_non(puzzle, puzzle.known_solution), name=puzzle.name)
    assert (again.title, again.author, again.copyright) == (puzzle.title, puzzle.author,
                                                            puzzle.copyright)


def test_text_rendering_shows_clues_and_cells() -> None:
    puzzle = clues_of([[1, 1, 0], [0, 0, 0], [1, 0, 1]], "picture")
    # the picture is the product, so it is compared whole: clues right-aligned, one
    # character a cell
    assert render_text(puzzle, puzzle.known_solution) == (
        "     1    \n"
        "     1 1 1\n"
        "  2  # # .\n"
        "  0  . . .\n"
        "1 1  # . #\n")
    assert "?" in render_text(puzzle)


def test_svg_rendering_draws_clues_and_filled_cells() -> None:
    puzzle = clues_of([[1, 1, 0], [0, 0, 0], [1, 0, 1]], "picture")
    picture = render_svg(puzzle, puzzle.known_solution)
    filled = [rect for rect in ElementTree.fromstring(picture).iter(f"{SVG}rect")
              if rect.get("fill") == "#222"]
    # one rectangle a block: the 2-block of the first row, the two 1-blocks of the last
    widths = sorted(float(rect.attrib["width"]) for rect in filled)
    assert len(widths) == 3 and widths[2] == 2 * widths[0] == 2 * widths[1]
    assert picture.startswith("<svg")
    assert picture.count(">0</text>") == 1  # the empty middle row
    assert picture.count("<text") == 4 + 4  # row clues 2, 0, 1 1; column clues 1 1, 1, 1


def test_parse_reads_the_format_and_the_name_the_source_gives() -> None:
    micro = NONOGRAM_DATA / "minizinc_challenge" / "non_micro.dzn"
    [puzzle] = parse(micro.read_text(), str(micro))
    assert puzzle.name == "non_micro" and puzzle.rows == ((3,), (1, 1), (1, 1), (1, 1), (3,))
    assert parse(GOOD, "pictures/two.non")[0].name == "two"
    assert parse(GOOD)[0].name == "nonogram"
    with pytest.raises(ParseError, match=r"two\.dzn:1: expected 'name = value;'"):
        parse(GOOD, "two.dzn")  # read as MiniZinc data, as its name says
