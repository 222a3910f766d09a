"""The clues' symmetries: exactly the turns and mirrors whose image of a solution is one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from puzzles.nonogram import NonogramInstance, NonogramSolution, check, parse_non, read
from puzzles.nonogram_symmetry import clue_symmetries
from tests.paths import NONOGRAM_DATA

Picture = tuple[tuple[int, ...], ...]


def upside_down(a: Picture) -> Picture:
    return a[::-1]


def mirrored(a: Picture) -> Picture:
    return tuple(row[::-1] for row in a)


def transposed(a: Picture) -> Picture:
    return tuple(zip(*a))


# the seven maps of a square but the identity, written independently of the module,
# as whole-picture operations
PICTURE_MAPS: dict[str, Callable[[Picture], Picture]] = {
    "mirror top-bottom": upside_down,
    "mirror left-right": mirrored,
    "half turn": lambda a: mirrored(upside_down(a)),
    "quarter turn clockwise": lambda a: mirrored(transposed(a)),
    "quarter turn anticlockwise": lambda a: upside_down(transposed(a)),
    "mirror on the main diagonal": transposed,
    "mirror on the anti-diagonal": lambda a: transposed(mirrored(upside_down(a))),
}
WITH_GOALS = [instance for path in sorted(NONOGRAM_DATA.rglob("*"))
              if path.suffix in (".non", ".dzn")
              for instance in read(path) if instance.known_solution is not None]


def mapped_picture(instance: NonogramInstance, name: str) -> NonogramSolution | None:
    """The known picture with the map applied to the box of clued lines (None: a quarter
    turn or diagonal mirror of a box that is not square)."""
    grid = [list(row) for row in instance.known_solution.grid]
    rows = [r for r, clue in enumerate(instance.rows) if clue]
    columns = [c for c, clue in enumerate(instance.columns) if clue]
    top, bottom, left, right = rows[0], rows[-1] + 1, columns[0], columns[-1] + 1
    box = tuple(tuple(row[left:right]) for row in grid[top:bottom])
    mapped = PICTURE_MAPS[name](box)
    if (len(mapped), len(mapped[0])) != (len(box), len(box[0])):
        return None
    for r, row in enumerate(mapped):
        grid[top + r][left:right] = row
    return NonogramSolution(tuple(tuple(row) for row in grid))


@pytest.mark.parametrize("instance", WITH_GOALS, ids=lambda instance: instance.name)
def test_a_map_is_a_symmetry_exactly_when_it_turns_the_goal_into_a_solution(
        instance: NonogramInstance) -> None:
    expected = set()
    for name in PICTURE_MAPS:
        picture = mapped_picture(instance, name)
        if picture is not None and check(instance, picture) == []:
            expected.add(name)
    assert {symmetry.name for symmetry in clue_symmetries(instance)} == expected


def test_knotty_keeps_its_clues_under_the_turns_of_its_39_by_39_picture() -> None:
    knotty, = read(NONOGRAM_DATA / "webpbn_survey" / "knotty.non")
    symmetries = {symmetry.name: symmetry.images for symmetry in clue_symmetries(knotty)}
    assert set(symmetries) == {"half turn", "quarter turn clockwise",
                               "quarter turn anticlockwise"}
    quarter = symmetries["quarter turn clockwise"]
    assert quarter[0, 0] == (0, 38) and quarter[0, 38] == (38, 38)
    assert all(r < 39 and c < 39 for cell in quarter.items() for r, c in cell)


def test_each_map_lists_the_cells_it_moves_once_as_a_permutation() -> None:
    plus = parse_non("width 3\nheight 3\nrows\n1\n3\n1\ncolumns\n1\n3\n1\n")[0]
    for symmetry in clue_symmetries(plus):
        assert set(symmetry.images) == set(symmetry.images.values())
        assert (1, 1) not in symmetry.images  # the centre stays put under every map


def test_a_rectangle_has_no_quarter_turns_and_an_empty_puzzle_no_symmetry() -> None:
    frame = parse_non("width 3\nheight 2\nrows\n3\n1,1\ncolumns\n2\n1\n2\n")[0]
    assert [s.name for s in clue_symmetries(frame)] == ["mirror left-right"]
    # one row: mirroring top to bottom moves nothing, and the half turn is the mirror
    bar = parse_non("width 3\nheight 1\nrows\n3\ncolumns\n1\n1\n1\n")[0]
    assert [s.name for s in clue_symmetries(bar)] == ["mirror left-right"]
    blank = parse_non("width 2\nheight 2\nrows\n0\n0\ncolumns\n0\n0\n")[0]
    assert clue_symmetries(blank) == []
