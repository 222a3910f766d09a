"""Shikaku files, checker, pictures and generator: what users read, and the errors they get."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from puzzlelab.errors import InstanceNotFound
from puzzles.options import Size
from puzzles.shikaku import (
    SHIKAKU,
    ShikakuInstance,
    ShikakuSolution,
    check,
    generate,
    load,
    parse,
    read,
    render_svg,
    render_text,
    write,
)
from puzzles.shikaku_generator import Layout, random_partition
from tests.facts import assert_each_states
from tests.puzzles.parse_errors import assert_refused_at

DATA = SHIKAKU.data_folder()

# 3x3: 4 at the top left, 2 at the top right, 3 in the middle of the bottom row
TINY_TEXT = "== tiny\n3 3\n4 - 2\n- - -\n- 3 -\n"
TINY = parse(TINY_TEXT)[0]
SOLVED = ShikakuSolution(((1, 1, 2), (1, 1, 2), (3, 3, 3)))


@pytest.mark.parametrize(("name", "count"), [
    ("carlsson_sicstus_shikaku.txt", 21), ("kul_aplai_2016.txt", 33),
    ("puzzlekit_shikaku.txt", 250), ("small/small.txt", 6),
])
def test_shipped_files_read_and_their_solutions_pass_the_checker(name: str, count: int) -> None:
    instances = read(DATA / name)
    assert len(instances) == count
    for instance in instances:
        assert instance.known_solution is not None
        assert check(instance, instance.known_solution) == []
        assert sum(map(sum, instance.clues)) == instance.rows * instance.columns


def test_the_puzzlekit_spelling_and_arbitrary_labels() -> None:
    [instance] = read(DATA / "puzzlekit_shikaku.txt")[:1]
    assert instance.name == "1_10x10" and (instance.rows, instance.columns) == (10, 10)
    assert instance.known_solution is not None
    assert instance.known_solution.rooms[0][:5] == (0, 0, 0, 0, 40)  # labels kept as given


@pytest.mark.parametrize("name", ["kul_aplai_2016.txt", "puzzlekit_shikaku.txt"])
def test_round_trip_read_write_read(name: str, tmp_path: Path) -> None:
    for instance in read(DATA / name)[:5]:
        text = write(instance, instance.known_solution)
        path = tmp_path / "again.txt"
        path.write_text(text, encoding="utf-8")
        [again] = read(path)
        assert again == instance and write(again, again.known_solution) == text


def test_pick_by_name_or_index() -> None:
    path = DATA / "kul_aplai_2016.txt"
    assert load(path, "helmut").name == "helmut"
    assert load(path, 3).name == "p(0,1)" and load(path, "3").name == "p(0,1)"
    with pytest.raises(InstanceNotFound, match="no instance named 'nobody'"):
        load(path, "nobody")
    with pytest.raises(InstanceNotFound, match="out of range"):
        load(path, 99)


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("== a\n2 2\n5 -\n- -\n", 3, 1, "a clue must be from 1 to 4"),
    ("== a\n2 2\n4 -\n- 0\n", 4, 3, "a clue must be from 1 to 4 .*not 0"),
    ("== a\n2 2\n4 - -\n- -\n", 3, None, "row 1 has 3 entries, expected 2"),
    ("== a\n2 2\n4 -\n", 3, None, "expected row 2 of 2"),
    ("== a\n2 2\n4 x\n- -\n", 3, 3, "expected '-' or a clue"),
    ("== a\n2 2\n2 -\n- -\n", 2, None, "add up to 2, but the grid has 4"),
    ("== a\n2 2\n2 2\n- -\nsolution:\n2 2\n1 1\n2 1\n", 5, None, "not a filled rectangle"),
    ("== a\n2 2\n2 2\n- -\nsolution:\n2 2\n1 2\n2 1\n", 5, None, "not a filled rectangle"),
    ("== a\n2 2\n2 2\n- -\nsolution:\n2 2\n1 1\n1 1\n", 5, None, "holds 2 clues"),
    ("== a\n1 3\n2 - 1\nsolution:\n1 3\n1 2 2\n", 4, None, "has area 1 but its clue is 2"),
    ("== a\n2 2\n4 -\n- -\nsolution:\n2 3\n1 1 1\n1 1 1\n", 6, None, "the solution is 2x3"),
    ("== a\n1 1\n1\n== a\n1 1\n1\n", 4, None, "used twice"),
    ("2 2\n4 -\n- -\n", 1, 1, "expected a '== name' line"),
])
def test_bad_files_are_refused_with_file_and_line(text: str, line: int, column: int | None,
                                                  message: str, tmp_path: Path) -> None:
    assert_refused_at(read, tmp_path / "bad.txt", text, line, column, message)


def test_the_checker_accepts_a_solution_with_any_labels() -> None:
    assert check(TINY, SOLVED) == []
    assert check(TINY, ShikakuSolution(((7, 7, -1), (7, 7, -1), (0, 0, 0)))) == []


def test_the_checker_lists_every_broken_rule() -> None:
    # room 1 is an L holding two clues, room 2 holds no clue, room 3 is an L of area 4
    # for a clue of 2
    wrong = ShikakuSolution(((1, 3, 3), (1, 2, 3), (1, 1, 3)))
    # each room by its label and bounding box; the cells (row/column) its rectangle misses,
    # the clues it holds (row/column), its area against its clue
    assert_each_states(check(TINY, wrong),
                       ("room 1", "row 1-3, column 1-2", "not a filled rectangle", "1/2, 2/2"),
                       ("room 1", "row 1-3, column 1-2", "2 clues", "1/1, 3/2"),
                       ("room 2", "row 2, column 2", "no clue"),
                       ("room 3", "row 1-3, column 2-3", "not a filled rectangle", "2/2, 3/2"),
                       ("room 3", "row 1-3, column 2-3", "area 4", "clue is 2"))
    # area 3 for a clue of 4, and a cell in no room
    partial = ShikakuSolution(((1, 1, 2), (1, None, 2), (3, 3, 3)))
    assert_each_states(check(TINY, partial),
                       ("cell (row 2, column 2)", "no room"),
                       ("room 1", "row 1-2, column 1-2", "not a filled rectangle", "2/2"),
                       ("room 1", "row 1-2, column 1-2", "area 3", "clue is 4"))
    assert_each_states(check(TINY, ShikakuSolution(((1, 1), (1, 1)))), ("3x3", "[2, 2]"))


def test_text_pictures_draw_room_borders() -> None:
    # the pictures are the product, so their lines are compared whole (spaces are cells)
    puzzle = render_text(TINY)
    assert puzzle.splitlines()[0] == "┌───────────┐" and "4   .   2" in puzzle
    solved = render_text(TINY, SOLVED)
    assert solved.splitlines() == ["┌───────┬───┐", "│ 4     │ 2 │", "│       │   │",
                                   "│       │   │", "├───────┴───┤", "│     3     │",
                                   "└───────────┘"]
    partial = render_text(TINY, ShikakuSolution(((1, 1, None), (1, 1, None),
                                                 (None, None, None))))
    assert partial not in (puzzle, solved) and "." in partial


def test_svg_pictures_parse_and_shade_on_request() -> None:
    for picture in (render_svg(TINY), render_svg(TINY, SOLVED),
                    render_svg(TINY, SOLVED, shade=False)):
        ElementTree.fromstring(picture)
    assert render_svg(TINY, SOLVED).count("<rect") == 1 + 9  # background and each cell
    assert render_svg(TINY, SOLVED, shade=False).count("<rect") == 1
    assert render_svg(TINY).count(">4</text>") == 1


@pytest.mark.parametrize(("size", "max_area", "seed"),
                         [(Size(1, 1), 1, 0), (Size(5, 7), 4, 1), (Size(12, 9), 12, 2),
                          (Size(30, 30), 30, 3), (Size(8, 8), 1, 4)])
def test_generated_instances_pass_the_checker_with_their_partition(size: Size, max_area: int,
                                                                   seed: int) -> None:
    instance = generate(size, max_area, random.Random(seed), "made")
    assert (instance.rows, instance.columns) == tuple(size)
    assert instance.known_solution is not None
    assert check(instance, instance.known_solution) == []
    assert max(max(row) for row in instance.clues) <= max_area
    assert parse(write(instance, instance.known_solution)) == [instance]


def test_the_generator_is_deterministic_under_a_seed_and_varies_with_it() -> None:
    first, again, other = (generate(Size(15, 15), 10, random.Random(seed), "x")
                           for seed in (5, 5, 6))
    assert first == again and first != other


def test_rooms_vary_in_shape() -> None:
    labels = random_partition(40, 40, 12, random.Random(0))
    areas: dict[int, int] = {}
    for row in labels:
        for label in row:
            areas[label] = areas.get(label, 0) + 1
    assert len(set(areas.values())) > 6 and max(areas.values()) <= 12


def test_a_200x200_instance_is_made_with_its_solution() -> None:
    """How long it takes is the benchmark's (``python -m experiments.studies.shikaku_benchmark``
    reports the generation time), not a unit test's on a noisy machine."""
    instance = SHIKAKU.generate(SHIKAKU.resolve_generator_options({"size": "200x200",
                                                                    "max-area": "20"}),
                                random.Random(1), "big")
    assert isinstance(instance, ShikakuInstance) and instance.known_solution is not None
    assert check(instance, instance.known_solution) == []


def test_the_generator_repairs_the_rooms_another_solution_moves() -> None:
    """The caller's ``another_solution`` (here: the rooms of the known partition, two by
    two, turned into an alternative) names rooms that differ; the generator moves their
    clues (or cuts them) until no other solution is reported."""
    options = SHIKAKU.resolve_generator_options({"size": "6x6", "max-area": "6"})
    seen: list[ShikakuInstance] = []

    def another_solution(instance: ShikakuInstance) -> ShikakuSolution | None:
        seen.append(instance)
        if len(seen) == 3:
            return None
        assert instance.known_solution is not None
        rooms = [list(row) for row in instance.known_solution.rooms]
        rooms[0][0] = -1  # a different partition: the top-left cell alone
        return ShikakuSolution(tuple(tuple(row) for row in rooms))

    made = SHIKAKU.generate(options, random.Random(0), "m", another_solution=another_solution)
    assert made == seen[-1] and len(seen) == 3
    assert made.known_solution is not None and check(made, made.known_solution) == []
    first, second = seen[0], seen[1]
    assert first.clues != second.clues  # the room of the top-left cell got its clue moved


def test_without_another_solution_the_generator_draws_once() -> None:
    options = SHIKAKU.resolve_generator_options({"size": "4x4"})
    made = SHIKAKU.generate(options, random.Random(0), "m")
    assert made == SHIKAKU.generate(options, random.Random(0), "m")


def test_solutions_are_equal_when_they_cut_the_grid_alike() -> None:
    assert ShikakuSolution(((1, 1), (2, 2))) == ShikakuSolution(((7, 7), (3, 3)))
    assert ShikakuSolution(((1, 1), (2, 2))) != ShikakuSolution(((1, 2), (1, 2)))
    assert len({ShikakuSolution(((1, 1), (2, 2))), ShikakuSolution(((7, 7), (3, 3)))}) == 1


def test_a_repair_changes_one_room_of_each_ambiguity_and_rules_the_other_layout_out() -> None:
    """Two squares of dominoes lying across (rooms 0/1 and 2/3): the other solution lays
    both upright. Each square is an ambiguity of its own, so one room of each is changed,
    its clue moved off the cells of its upright placement."""
    layout = Layout([[0, 0, 2, 2], [1, 1, 3, 3]], random.Random(0))
    upright = ((10, 11, 12, 13), (10, 11, 12, 13))
    for label in range(4):
        layout.clue_at[label] = layout.rooms[label][0]  # each clue at its room's left cell
    changed = layout.repair(upright)
    assert len(changed) == 2 and len({label // 2 for label in changed}) == 2
    for label in changed:
        (row, column), cells = layout.clue_at[label], layout.rooms[label]
        assert (row, column) == cells[1]  # the right cell: upright, the clue's room is left


def test_large_grids_are_settled_window_by_window_and_end_unique() -> None:
    """Past two windows a side the repair starts in windows; the grid ends with exactly
    one solution, as the whole-grid count says."""
    from experiments.generate import solution_count

    options = SHIKAKU.resolve_generator_options({"size": "60x60"})
    layout = Layout(random_partition(60, 60, 12, random.Random(2)), random.Random(2))
    assert layout.windows() and all(rows <= 60 and columns <= 60
                                    for _, _, rows, columns in layout.windows())
    asked: list[ShikakuInstance] = []

    def is_unique(instance: ShikakuInstance) -> bool:
        asked.append(instance)
        return solution_count("shikaku", instance) == 1

    def another(instance: ShikakuInstance) -> ShikakuSolution | None:
        from experiments.generate import another_solution

        return another_solution("shikaku", instance)

    made = SHIKAKU.generate(options, random.Random(2), "big", is_unique,
                            another_solution=another)
    assert made is not None and solution_count("shikaku", made) == 1
    assert any(len(instance.clues) < 60 for instance in asked)  # windows were asked first
