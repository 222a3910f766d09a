"""Game IDs of Simon Tatham's Portable Puzzle Collection, read and written by every puzzle:
the bundled instances a game ID holds go round (written, read back, the same puzzle), the
others are refused saying why; files of IDs are told by their content; the variants and
rules PuzzleLab's puzzles lack, and damaged IDs, are refused naming file, line and column.
What the collection's own programs make of the IDs is :mod:`test_game_ids_tatham`'s."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from puzzlelab.errors import ParseError, UnsupportedCombination
from puzzles import PUZZLES, PuzzleKind
from puzzles.hashi_types import HashiInstance, Island
from puzzles.shikaku_types import ShikakuInstance
from puzzles.sudoku import SudokuInstance
from tests.facts import states

KINDS = [PUZZLES.get(name) for name in PUZZLES.names()]
FIRST = 3
"""Instances of each bundled file that go round by default; --runslow takes them all."""

SOLO = "2x2:d3a2b1a3d"
RECT = "5x3:2c3_2a2_2a2a2b"
BRIDGES = "7x7m2:3e3b2b3a5b3b2a2c3i4a6a4a3a1d"
PATTERN = "5x5:3/2/2/2/4/2/2/1.1/3.1/3"
EXAMPLES = {"sudoku": SOLO, "shikaku": RECT, "hashi": BRIDGES, "nonogram": PATTERN}


def bare(kind: PuzzleKind[Any, Any], instance: Any) -> Any:
    """The puzzle alone, as a game ID holds it: no name, no known solution."""
    return replace(kind.renamed(instance, ""), known_solution=None)


def files(kind: PuzzleKind[Any, Any]) -> list[Path]:
    return [path for data_set in kind.data_sets() for path in data_set.files]


def assert_goes_round(kind: PuzzleKind[Any, Any], instances: list[Any]) -> int:
    """Each instance's game ID reads back as the same puzzle and is written again alike;
    only a Hashi may be refused (islands side by side, a grid under 3x3). How many went
    round."""
    went = 0
    for instance in instances:
        try:
            game_id = kind.game_id(instance)
        except UnsupportedCombination as refused:
            assert kind.name == "hashi", (kind.instance_name(instance), refused)
            assert states(str(refused), "side by side") or states(str(refused), "3x3")
            continue
        assert "\n" not in game_id and " " not in game_id
        [again] = kind.parse(game_id, "ids.txt")
        assert bare(kind, again) == bare(kind, instance), kind.instance_name(instance)
        assert kind.game_id(again) == game_id
        went += 1
    return went


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_the_first_bundled_instances_go_round(kind: PuzzleKind[Any, Any]) -> None:
    went = sum(assert_goes_round(kind, kind.read(path)[:FIRST]) for path in files(kind))
    assert went >= 5  # each puzzle has bundled instances a game ID holds


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_every_bundled_instance_goes_round(kind: PuzzleKind[Any, Any]) -> None:
    for path in files(kind):
        assert_goes_round(kind, kind.read(path))


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_file_of_ids_names_each_after_the_file_and_line_and_gives_no_solution(
        kind: PuzzleKind[Any, Any], tmp_path: Path) -> None:
    example = EXAMPLES[kind.name]
    # a suffix of another format of the puzzle: the content decides
    path = tmp_path / f"ids{kind.suffixes[-1]}"
    path.write_text(f"# made by the collection\n{example}\n\n  {example}  \n", encoding="utf-8")
    first, second = kind.read(path)
    assert [kind.instance_name(first), kind.instance_name(second)] == ["ids#1", "ids#2"]
    assert kind.known_solution(first) is None and bare(kind, first) == bare(kind, second)
    assert kind.game_id(first) == example


def test_what_each_id_describes() -> None:
    [four] = PUZZLES.get("sudoku").parse(SOLO)
    assert four.box == 2 and four.givens[1] == (3, 0, 2, 0) and four.givens[3] == (0,) * 4
    [rect] = PUZZLES.get("shikaku").parse(RECT)
    assert (rect.rows, rect.columns) == (3, 5) and rect.clues[0] == (2, 0, 0, 0, 3)
    [bridges] = PUZZLES.get("hashi").parse(BRIDGES)
    assert (bridges.rows, bridges.columns) == (7, 7)
    assert bridges.islands[:2] == (Island(0, 0, 3), Island(0, 6, 3))
    # the end of one row and the start of the next are no neighbours
    [ends] = PUZZLES.get("hashi").parse("7x7m2:a4a5b12h1g4b4a2l4a4c3")
    assert {Island(0, 6, 1), Island(1, 0, 2)} <= set(ends.islands)
    [pattern] = PUZZLES.get("nonogram").parse("10x5:2/2/2/3/3/3/1.1.1/1/1.1/1.3/5/2/4.1/5.1/"
                                              "4.1.2")
    assert (pattern.width, pattern.height) == (10, 5)
    assert pattern.columns[6] == (1, 1, 1) and pattern.rows == ((5,), (2,), (4, 1), (5, 1),
                                                                 (4, 1, 2))


def test_the_other_spellings_of_the_parameters_read() -> None:
    """A size given once is square; what says how a puzzle was made is passed over."""
    sudoku, shikaku, hashi = (PUZZLES.get(name) for name in ("sudoku", "shikaku", "hashi"))
    assert bare(sudoku, sudoku.parse("2:d3a2b1a3d")[0]) == bare(sudoku, sudoku.parse(SOLO)[0])
    assert bare(sudoku, sudoku.parse("2x2m4dudt:d3a2b1a3d")[0]) == \
        bare(sudoku, sudoku.parse(SOLO)[0])
    assert bare(shikaku, shikaku.parse("5x3e0.5a:2c3_2a2_2a2a2b")[0]) == \
        bare(shikaku, shikaku.parse(RECT)[0])
    plain = bare(hashi, hashi.parse(BRIDGES)[0])
    for spelled in ("7", "7x7", "7x7i30e10m2d2"):
        assert bare(hashi, hashi.parse(spelled + BRIDGES[5:])[0]) == plain


# ---------------------------------------------------------------- refused, with file and line

REFUSED = [
    ("sudoku", "3x3j:a2d7b3b6_1d4_5_9h5_4c6b9_2c4_1b4c7_9h1_2_4d5_6b1b3d7a,bgac", 4,
     ("jigsaw",)),
    ("sudoku", "9j:a2d7b3b6_1d4_5_9h5_4c6b9_2c4_1b4c7_9h1_2_4d5_6b1b3d7a,bgac", 2,
     ("jigsaw",)),
    ("sudoku", "3x3k:zzzc,_a_aa__a,12_9a22", 4, ("killer",)),
    ("sudoku", "3x3x:a6f2_7b1a5_4a9d7b5c3a1d9g7d3a9c1b9d4a8_5a3b1_3f7a", 4, ("X",)),
    ("sudoku", "2x3:c2c2_3_1_6b6h4b1_5_6_3c2c", 1, ("2x3", "square")),
    ("sudoku", "6x6:a", 1, ("6x6",)),
    ("sudoku", "2x2:d3a2b1a3", 13, ("12", "16")),
    ("sudoku", "2x2:d3a2b1a3dd", 14, ("16",)),
    ("sudoku", "2x2:d3a5b1a3d", 8, ("5", "4")),
    ("sudoku", "2x2:d3a2b1a3d,a", 14, ("','", "jigsaw", "killer")),
    ("shikaku", "5x3:2c3_2a2_2a2a2b?", 19, ("'?'",)),
    ("shikaku", "5x3:2c3_2a2_2a2a2bq", 19, ("15",)),
    ("shikaku", "1x1:1", 1, ("two cells",)),
    ("shikaku", "5x3z:a", 4, ("'z'",)),
    ("hashi", "7x7m1L:2b3b2h1a4a2c1g1b21d1c2c2", 4, ("m1",)),
    ("hashi", "7x7m2L:3e3b2b3a5b3b2a2c3i4a6a4a3a1d", 6, ("loops",)),
    ("hashi", "7x7m4:6a3b1b3b8a38b5e1g3e4a6b5e4", 4, ("m4",)),
    ("hashi", "3x3m2:2a21e", 10, ("side by side", "(row 1, column 1)", "(row 2, column 1)")),
    ("hashi", "3x3m2:a11f", 9, ("side by side", "(row 1, column 2)", "(row 1, column 3)")),
    ("hashi", "2x2m2:1b1", 1, ("3x3",)),
    ("hashi", "3x3m2:9a1f", 7, ("9", "8")),
    ("hashi", "3x3m2:1h", 9, ("two islands",)),
    ("hashi", "3x3m2:1a1f?", 11, ("9",)),
    ("hashi", "3x3m2:1a?f", 9, ("'?'",)),
    ("nonogram", "5x5:3/2/2/2/4/2/2/1.1/3.1/3,aB", 28, ("','",)),
    ("nonogram", "5x5:3/2/2/2/4/2/2/1.1/3.1", 26, ("9", "10")),
    ("nonogram", "5x5:3/2/2/2/4/2/2/1..1/3.1/3", 21, ("'1..1'",)),
    ("nonogram", "5x5:3/2/2/2/4/2/2/1.0/3.1/3", 21, ("0",)),
    ("nonogram", "5x5L:3/2/2/2/4/2/2/1.1/3.1/3", 4, ("'L'",)),
]


@pytest.mark.parametrize(("puzzle", "game_id", "column", "said"), REFUSED,
                         ids=[f"{puzzle}-{number}" for number, (puzzle, *_) in
                              enumerate(REFUSED)])
def test_an_id_the_puzzle_cannot_read_is_refused_with_file_line_and_column(
        puzzle: str, game_id: str, column: int, said: tuple[str, ...], tmp_path: Path) -> None:
    path = tmp_path / "ids.txt"
    path.write_text(f"# two IDs\n{EXAMPLES[puzzle]}\n\n{game_id}\n", encoding="utf-8")
    with pytest.raises(ParseError) as refused:
        PUZZLES.get(puzzle).read(path)
    error = refused.value
    assert (error.source, error.line, error.column) == (str(path), 4, column), error
    assert states(error.message, *said), error.message


@pytest.mark.parametrize("line", ["3x3#5", "7x7m2#12:a", "3x3: b2", "3x3", "x3:ab",
                                  "3x3:" + "z" * 10_000, "9" * 40 + "x3:a"])
@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_line_that_is_no_game_id_is_refused_on_its_line(
        kind: PuzzleKind[Any, Any], line: str, tmp_path: Path) -> None:
    path = tmp_path / "ids.txt"
    path.write_text(f"{EXAMPLES[kind.name]}\n{line}\n", encoding="utf-8")
    with pytest.raises(ParseError) as refused:
        kind.read(path)
    assert (refused.value.source, refused.value.line) == (str(path), 2), refused.value
    assert len(str(refused.value)) < 300


def test_a_random_seed_is_refused_for_the_puzzle_it_lacks() -> None:
    with pytest.raises(ParseError) as refused:
        PUZZLES.get("hashi").parse("7x7m2#12")
    assert states(refused.value.message, "random seed", "--generate")


# ---------------------------------------------------------------- what a game ID cannot hold


def test_a_sudoku_wider_than_solo_has_no_game_id() -> None:
    sudoku = PUZZLES.get("sudoku")
    empty = SudokuInstance("wide", 6, tuple((0,) * 36 for _ in range(36)))
    with pytest.raises(UnsupportedCombination) as refused:
        sudoku.game_id(empty)
    assert states(str(refused.value), "31", "36x36")
    assert sudoku.game_id(SudokuInstance("big", 5, tuple((0,) * 25 for _ in range(25)))) == \
        "5x5:" + "z" * 24 + "a"


def test_a_one_cell_shikaku_has_no_game_id() -> None:
    with pytest.raises(UnsupportedCombination, match="1x1"):
        PUZZLES.get("shikaku").game_id(ShikakuInstance("one", ((1,),)))


def test_a_hashi_bridges_refuses_has_no_game_id() -> None:
    hashi = PUZZLES.get("hashi")
    side_by_side = HashiInstance("pair", 3, 3, (Island(1, 0, 1), Island(1, 1, 1)))
    with pytest.raises(UnsupportedCombination) as refused:
        hashi.game_id(side_by_side)
    assert states(str(refused.value), "(row 2, column 1)", "(row 2, column 2)", "side by side")
    with pytest.raises(UnsupportedCombination, match="2x5"):
        hashi.game_id(HashiInstance("low", 2, 5, (Island(0, 0, 1), Island(0, 4, 1))))
    assert hashi.game_id(HashiInstance("apart", 3, 3, (Island(0, 0, 1), Island(0, 2, 1)))) \
        == "3x3m2:1a1f"
