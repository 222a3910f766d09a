"""Hashiwokakero files, sight lines, checker, pictures, JSON: what users read, and the errors."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import pytest

from experiments.cli import main
from puzzlelab.errors import InstanceNotFound
from puzzles.hashi import (
    HASHI,
    check,
    load,
    parse,
    read,
    render_svg,
    render_text,
    solution_to_json,
    write,
)
from puzzles.hashi_sight import crossing_pairs, neighbours
from puzzles.hashi_types import Bridge, HashiInstance, HashiSolution, Island
from tests.facts import assert_each_states, states
from tests.puzzles.hashi_search import count_solutions
from tests.puzzles.parse_errors import assert_refused_at

DATA = HASHI.data_folder()

# four 2s in the corners of a 3x3 grid: the ring of single bridges is the one solution
SQUARE = parse("== square\n3 3\n2 - 2\n- - -\n2 - 2\n")[0]
RING = HashiSolution((Bridge((0, 0), (0, 2), 1), Bridge((0, 0), (2, 0), 1),
                      Bridge((0, 2), (2, 2), 1), Bridge((2, 0), (2, 2), 1)))


# ---------------------------------------------------------------- the shipped data


@pytest.mark.parametrize(("name", "count", "solved"), [
    ("kul_aplai_2019.txt", 6, 6), ("coelho2019_100islands.txt", 360, 0),
    ("coelho2019_200islands.txt", 360, 0), ("coelho2019_400islands.txt", 30, 0),
    ("puzzlekit_hashi.txt", 454, 454),
    ("small/small.txt", 6, 6), ("small/several.txt", 2, 1),
])
def test_shipped_files_read_and_their_solutions_pass_the_checker(name: str, count: int,
                                                                 solved: int) -> None:
    instances = read(DATA / name)
    assert len(instances) == count
    assert sum(instance.known_solution is not None for instance in instances) == solved
    for instance in instances:
        assert all(1 <= island.value <= 8 for island in instance.islands)
        if instance.known_solution is not None:
            assert check(instance, instance.known_solution) == []


def test_the_coelho_island_counts_and_sizes() -> None:
    instances = read(DATA / "coelho2019_200islands.txt")
    assert {len(instance.islands) for instance in instances} == {200}
    assert instances[0].name == "Hs_24_200_25_00_001.has"
    assert (instances[0].rows, instances[0].columns) == (24, 24)
    larger = read(DATA / "coelho2019_400islands.txt")
    assert {len(instance.islands) for instance in larger} == {400}
    assert [instance.name for instance in larger[:2]] == ["Hs_34_400_25_00_001.has",
                                                          "Hs_34_400_25_00_013.has"]
    assert {(instance.rows, instance.columns) for instance in larger} == {(34, 34)}


def test_the_puzzlekit_grid_is_read_as_bridges() -> None:
    first = read(DATA / "puzzlekit_hashi.txt")[0]
    assert first.name == "01_9x9" and first.known_solution is not None
    # row 1: "- 3 - 3 ..." with "2" between the 3s; column 1's "a" cells below row 3's 2
    assert Bridge((0, 1), (0, 3), 2) in first.known_solution.bridges
    assert Bridge((2, 0), (4, 0), 1) not in first.known_solution.bridges
    total = sum(bridge.count for bridge in first.known_solution.bridges)
    assert 2 * total == sum(island.value for island in first.islands)


def test_the_small_sets_have_the_solution_counts_their_notes_give() -> None:
    for instance in read(DATA / "small" / "small.txt"):
        assert count_solutions(instance) == [instance.known_solution], instance.name
    puzzle_1, two_pairs = read(DATA / "small" / "several.txt")
    both = count_solutions(puzzle_1)
    assert len(both) == 2 and puzzle_1.known_solution in both
    assert load(DATA / "kul_aplai_2019.txt", 1) == puzzle_1
    assert two_pairs.known_solution is None and count_solutions(two_pairs) == []
    # without the connectivity rule, two-pairs and square have disconnected "solutions"
    pairs = HashiSolution((Bridge((0, 0), (0, 2), 1), Bridge((0, 4), (0, 6), 1)))
    assert_each_states(check(two_pairs, pairs),
                       ("not all connected", "2 separate groups",
                        "(row 1, column 1) (2 islands)", "(row 1, column 5) (2 islands)"))


def test_pick_by_name_or_index() -> None:
    path = DATA / "kul_aplai_2019.txt"
    assert load(path, "puzzle_3").name == "puzzle_3"
    assert load(path, 4).name == "puzzle_4" and load(path, "4").name == "puzzle_4"
    with pytest.raises(InstanceNotFound, match="no instance named 'nobody'"):
        load(path, "nobody")
    with pytest.raises(InstanceNotFound, match="out of range"):
        load(path, 7)


# ---------------------------------------------------------------- neighbours and crossings


def test_neighbours_see_over_empty_cells_only_and_side_by_side() -> None:
    puzzle = parse("3 4 5\n1 2 0 1\n0 0 0 0\n0 1 0 1\n")[0]
    cells = [(first.cell, second.cell) for first, second in neighbours(puzzle)]
    assert cells == [((0, 0), (0, 1)), ((0, 1), (0, 3)), ((0, 1), (2, 1)), ((0, 3), (2, 3)),
                     ((2, 1), (2, 3))]
    assert crossing_pairs(puzzle) == []
    plus = HashiInstance("plus", 3, 3, (Island(0, 1, 1), Island(1, 0, 1), Island(1, 2, 1),
                                        Island(2, 1, 1)))
    assert crossing_pairs(plus) == [(0, 1)]


def test_neighbours_are_the_first_island_met_walking_right_and_down() -> None:
    """On random layouts, islands given in any order: the pairs a walk over the cells
    finds, the first island of each pair first in row-major order, sorted."""
    generator = random.Random(7)
    for _ in range(200):
        rows, columns = generator.randint(1, 7), generator.randint(1, 7)
        cells = generator.sample([(r, c) for r in range(rows) for c in range(columns)],
                                 generator.randint(1, rows * columns))
        puzzle = HashiInstance("random", rows, columns, tuple(Island(r, c, 1) for r, c in cells))
        walked = []
        for r, c in sorted(cells):
            for down, right in ((0, 1), (1, 0)):
                row, column = r + down, c + right
                while row < rows and column < columns and (row, column) not in cells:
                    row, column = row + down, column + right
                if row < rows and column < columns:
                    walked.append(((r, c), (row, column)))
        assert [(a.cell, b.cell) for a, b in neighbours(puzzle)] == sorted(walked)


# ---------------------------------------------------------------- files


def test_a_has_file_is_named_after_it_and_round_trips(tmp_path: Path) -> None:
    text = write(SQUARE, RING)
    # the file itself is the product (Coelho's .has format, read by other programs): byte
    # for byte
    assert text == "3 3 4\n2 0 2\n0 0 0\n2 0 2\nsolution:\n1 1 1 3 1\n1 1 3 1 1\n" \
                   "1 3 3 3 1\n3 1 3 3 1\n"
    path = tmp_path / "square.has"
    path.write_text(text, encoding="utf-8")
    [again] = read(path)
    assert again == replace(SQUARE, known_solution=RING) and write(again, RING) == text
    assert HASHI.load(path) == again


@pytest.mark.parametrize("name", ["kul_aplai_2019.txt", "puzzlekit_hashi.txt",
                                  "coelho2019_100islands.txt"])
def test_round_trip_read_write_read(name: str, tmp_path: Path) -> None:
    for instance in read(DATA / name)[:4]:
        text = write(instance, instance.known_solution)
        path = tmp_path / f"{instance.name}.has"
        path.write_text(text, encoding="utf-8")
        [again] = read(path)
        assert again == instance and again.known_solution == instance.known_solution
        assert write(again, again.known_solution) == text


def test_solutions_are_equal_whatever_the_order_of_their_bridges() -> None:
    assert HashiSolution(tuple(reversed(RING.bridges))) == RING
    assert Bridge.between((2, 0), (0, 0), 1) == Bridge((0, 0), (2, 0), 1)


BAD_FILES = [
    ("2 2 2\n9 0\n0 1\n", 2, 1, "an island's number must be from 1 to 8 .*not 9"),
    ("== a\n2 2\n1 -\n- 9\n", 4, 3, "an island's number must be from 1 to 8"),
    ("2 3 2\n1 0 1\n0 0\n", 3, None, "row 2 has 2 entries, expected 3"),
    ("== a\n2 2\n1 - 1\n- -\n", 3, None, "row 1 has 3 entries, expected 2"),
    ("3 3 3\n1 0 1\n0 0 0\n0 1 0\n", 4, 3, "island at \\(row 3, column 2\\) sees no other"),
    ("3 3 2\n1 0 0\n0 0 0\n0 0 1\n", 2, 1, "island at \\(row 1, column 1\\) sees no other"),
    ("2 2 3\n1 1\n0 0\n", 1, 5, "announces 3 islands, the grid has 2"),
    ("1 3 2\n1 x 1\n", 2, 3, "expected '-', 0 or an island's number, found 'x'"),
    ("1 3 2\n1 0 1\nsolution:\n1 1 1 3\n", 4, None, "expected a bridge 'r1 c1 r2 c2 k'"),
    ("1 3 2\n1 0 1\nsolution:\n1 1 1 3 2\n", 3, None, "the known solution .* has 2 bridges "
                                                     "but its number is 1"),
    ("1 3 2\n2 0 1\nsolution:\n1 1 1 3 1\n", 3, None, "the known solution .* has 1 bridge "
                                                     "but its number is 2"),
    ("== a\n2 3\n1 - 1\n- - -\nsolution:\n2 3\n- 1 -\n- 1 -\n", 8, 3,
     "does not lie on a bridge"),
    ("== a\n1 3\n1 - 1\nsolution:\n1 3\n- a -\n", 6, 3, "does not lie on a bridge"),
    ("== a\n1 3\n1 - 1\nsolution:\n1 3\n1 - -\n", 6, 1, "expected '-' in an island's cell"),
    ("== a\n1 3\n1 - 1\nsolution:\n1 3\n- z -\n", 6, 3, "found 'z'"),
    ("== a\n1 2\n1 1\n== a\n1 2\n1 1\n", 4, None, "used twice"),
    ("== a\n1 2\n- -\n", 2, None, "has no islands"),
    ("1 2 2\n1 1\n1 1\n", 3, None, "expected the end of the puzzle"),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), BAD_FILES)
def test_bad_files_are_refused_with_file_and_line(text: str, line: int, column: int | None,
                                                  message: str, tmp_path: Path) -> None:
    assert_refused_at(read, tmp_path / "bad.has", text, line, column, message)


@pytest.mark.parametrize(("text", "where"), [(text, f":{line}:") for text, line, _, _ in
                                             BAD_FILES[:5:2]])
def test_bad_files_stop_the_command_line_with_status_2(
        text: str, where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.has"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["puzzlelab", "solve", "hashi", str(path)])
    with pytest.raises(SystemExit) as finished:
        main()
    assert finished.value.code == 2
    assert f"{path}{where}" in capsys.readouterr().err


# ---------------------------------------------------------------- the checker


def test_the_checker_accepts_the_solution() -> None:
    assert check(SQUARE, RING) == []


def test_a_bridge_that_is_not_straight_between_islands_that_see_each_other() -> None:
    puzzle = parse("3 3 3\n1 1 1\n0 0 0\n0 0 0\n")[0]
    over = HashiSolution((Bridge((0, 0), (0, 2), 1),))
    assert any(states(problem, "(row 1, column 1)", "(row 1, column 3)", "passes over",
                      "island at (row 1, column 2)") for problem in check(puzzle, over))
    diagonal = HashiSolution((Bridge((0, 0), (2, 2), 1),))
    assert any("is not straight" in problem for problem in check(SQUARE, diagonal))
    to_water = HashiSolution((Bridge((0, 0), (1, 0), 1),))
    assert any(states(problem, "(row 1, column 1)", "end (row 2, column 1)", "not an island")
               for problem in check(SQUARE, to_water))
    outside = HashiSolution((Bridge((0, 0), (0, 5), 1),))
    assert any("outside the 3x3 grid" in problem for problem in check(SQUARE, outside))


def test_more_than_two_bridges_on_a_pair() -> None:
    triple = HashiSolution((Bridge((0, 0), (0, 2), 3), Bridge((2, 0), (2, 2), 1)))
    problems = check(SQUARE, triple)
    assert any(states(problem, "(row 1, column 1)", "(row 1, column 3)", "counted 3 times")
               for problem in problems)
    assert any(states(problem, "3 bridges join", "(row 1, column 1)", "(row 1, column 3)")
               for problem in problems)
    twice = HashiSolution((Bridge((0, 0), (0, 2), 2), Bridge((0, 0), (0, 2), 1)))
    assert any(problem.startswith("3 bridges join") for problem in check(SQUARE, twice))


def test_crossing_bridges() -> None:
    plus = parse("3 3 4\n0 1 0\n1 0 1\n0 1 0\n")[0]
    both = HashiSolution((Bridge((0, 1), (2, 1), 1), Bridge((1, 0), (1, 2), 1)))
    # both bridges by their ends, and the cell where they cross
    assert any(states(problem, "(row 2, column 1)", "(row 2, column 3)", "crosses",
                      "(row 1, column 2)", "(row 3, column 2)", "at (row 2, column 2)")
               for problem in check(plus, both))
    assert "┼" in render_text(plus, both)


def test_an_island_whose_bridges_differ_from_its_number() -> None:
    short = HashiSolution(RING.bridges[:3])
    assert_each_states(check(SQUARE, short),
                       ("island at (row 3, column 1)", "has 1", "number is 2"),
                       ("island at (row 3, column 3)", "has 1", "number is 2"))


def test_islands_not_all_connected() -> None:
    doubles = HashiSolution((Bridge((0, 0), (0, 2), 2), Bridge((2, 0), (2, 2), 2)))
    # how many groups, and each group by its first island and its size
    assert_each_states(check(SQUARE, doubles),
                       ("not all connected", "2 separate groups",
                        "(row 1, column 1) (2 islands)", "(row 3, column 1) (2 islands)"))


# ---------------------------------------------------------------- pictures and JSON


def test_text_pictures_draw_islands_and_bridges() -> None:
    assert render_text(SQUARE).splitlines() == ["2 . 2", "", ". . .", "", "2 . 2"]
    assert render_text(SQUARE, RING).splitlines() == ["2───2", "│   │", "│ . │", "│   │",
                                                      "2───2"]
    doubles = HashiSolution((Bridge((0, 0), (0, 2), 2), Bridge((0, 0), (2, 0), 2)))
    assert render_text(SQUARE, doubles).splitlines()[:2] == ["2═══2", "║"]
    block = read(DATA / "small" / "small.txt")[4]
    assert block.known_solution is not None
    assert render_text(block, block.known_solution) == "2─2\n│ │\n2─2\n"
    assert render_text(SQUARE, HashiSolution((Bridge((0, 0), (2, 2), 1),))) == \
        render_text(SQUARE)  # a bridge that cannot be drawn is left out


def test_svg_pictures_parse() -> None:
    for picture in (render_svg(SQUARE), render_svg(SQUARE, RING),
                    render_svg(SQUARE, HashiSolution(RING.bridges[:1]))):
        ElementTree.fromstring(picture)
    assert render_svg(SQUARE).count("<circle") == 4
    doubles = HashiSolution((Bridge((0, 0), (0, 2), 2),))
    lines = render_svg(SQUARE).count("<line")
    assert render_svg(SQUARE, RING).count("<line") == lines + 4
    assert render_svg(SQUARE, doubles).count("<line") == lines + 2


def test_the_json_form_is_sorted_1_based_bridges() -> None:
    assert solution_to_json(RING) == [[1, 1, 1, 3, 1], [1, 1, 3, 1, 1], [1, 3, 3, 3, 1],
                                      [3, 1, 3, 3, 1]]
    assert json.loads(json.dumps(HASHI.solution_to_json(RING))) == solution_to_json(RING)
