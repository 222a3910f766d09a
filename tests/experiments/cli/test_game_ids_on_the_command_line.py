"""Game IDs of Simon Tatham's Portable Puzzle Collection on the command line: ``generate
--format tatham`` writes each instance as its ID, which reads back as the puzzle generated
(what an ID cannot hold is refused before anything is drawn, or naming the instance);
``solve`` reads a file of IDs, and refuses a bad one in one line naming file, line and
column. ``export --format tatham`` is ``test_export_command``'s."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from experiments.generate import generate
from puzzlelab.errors import OptionError, UnsupportedCombination
from puzzles import PUZZLES
from tests.experiments.cli.commands import run_cli
from tests.facts import facts, states

OPTIONS = {"sudoku": {"box": "2", "clues": "6"}, "shikaku": {"size": "6x7"},
           "nonogram": {"size": "5x6"}, "hashi": {"size": "8x8", "apart": "yes"}}


@pytest.mark.parametrize("puzzle", sorted(OPTIONS))
def test_each_unique_instance_is_written_as_its_game_id(puzzle: str, tmp_path: Path) -> None:
    kind = PUZZLES.get(puzzle)
    made = list(generate(puzzle, OPTIONS[puzzle], seed=2, count=2, unique=True,
                         output=tmp_path, file_format="tatham"))
    for item in made:
        assert item.path.suffix == ".txt" and item.path.stem == kind.instance_name(item.instance)
        text = item.path.read_text(encoding="utf-8")
        assert text == kind.game_id(item.instance) + "\n"
        [again] = kind.read(item.path)
        assert kind.known_solution(again) is None
        assert replace(kind.renamed(again, "x"), known_solution=None) == \
            replace(kind.renamed(item.instance, "x"), known_solution=None)


def test_the_same_seed_writes_the_same_ids(tmp_path: Path) -> None:
    first, again = ([made.path.read_text() for made in generate(
        "hashi", OPTIONS["hashi"], 4, 3, output=tmp_path / folder, file_format="tatham")]
        for folder in ("a", "b"))
    assert first == again and len(set(first)) == 3


def test_a_hashi_needs_its_islands_apart_before_anything_is_drawn(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=facts("--format tatham", "--apart yes",
                                                "side by side")):
        generate("hashi", {"size": "8x8"}, output=tmp_path, file_format="tatham")
    assert list(tmp_path.iterdir()) == []


def test_an_instance_a_game_id_cannot_hold_is_refused_naming_it(tmp_path: Path) -> None:
    """Bridges' grids are at least 3x3: a 2x6 Hashi drawn apart has no game ID."""
    with pytest.raises(UnsupportedCombination, match=facts("hashi-2x6", "3x3")):
        list(generate("hashi", {"size": "2x6", "islands": "2", "apart": "yes"},
                      output=tmp_path, file_format="tatham"))
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_file_format_is_an_option_error(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=facts("--format", "native", "tatham", "'sgf'")):
        generate("sudoku", output=tmp_path, file_format="sgf")


def test_cli_generate_game_ids_then_solve_one(monkeypatch, capsys, tmp_path: Path) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "generate", "shikaku", "--size", "5x5",
                             "--format", "tatham", "--unique", "--output", str(tmp_path))
    assert code == 0, err
    [path] = tmp_path.iterdir()
    assert path.name in out and path.read_text(encoding="utf-8").startswith("5x5:")
    code, out, err = run_cli(monkeypatch, capsys, "solve", "shikaku", str(path))
    assert code == 0, err
    assert states(out, "none in the file")  # a game ID holds no solution to compare with


def test_cli_hashi_game_ids_without_apart_is_one_error_line(monkeypatch, capsys,
                                                            tmp_path: Path) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "generate", "hashi", "--format", "tatham",
                             "--output", str(tmp_path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert states(err, "--apart yes")


def test_cli_solve_refuses_a_variant_in_one_line_with_file_line_and_column(
        monkeypatch, capsys, tmp_path: Path) -> None:
    path = tmp_path / "ids.txt"
    path.write_text("2x2:d3a2b1a3d\n9j:a2d7b3b6_1d4_5_9h5_4c6b9_2c4_1b4c7_9h1_2_4d5_6b1,b\n",
                    encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, "solve", "sudoku", str(path), "--instance",
                             "1")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert states(err, f"{path}:2:2", "jigsaw")


def test_cli_solve_of_another_puzzles_ids_names_the_puzzle(monkeypatch, capsys,
                                                           tmp_path: Path) -> None:
    path = tmp_path / "ids.txt"
    path.write_text("2x2:d3a2b1a3d\n", encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, "solve", "shikaku", str(path))
    assert code == 2 and states(err, f"{path}:1", "puzzlelab solve sudoku")
