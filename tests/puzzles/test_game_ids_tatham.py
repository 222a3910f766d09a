"""Game IDs against Simon Tatham's own programs: the IDs they make read, solve (exactly one
solution, which the checker accepts) and are written back as the same text; the IDs
PuzzleLab writes are ones they take; what PuzzleLab refuses of theirs says why. Each case
is skipped, saying so, where the program is not installed
(:mod:`experiments.studies.kit.tatham`, which the studies use too)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from experiments.api import solve
from experiments.studies.kit.tatham import generated, missing, program, refusal
from puzzlelab.errors import ParseError, UnsupportedCombination
from puzzles import PUZZLES, PuzzleKind, puzzle_of
from tests.facts import states
from viewpoints import counting_defaults

MADE = [("sudoku", "2x2#1"), ("sudoku", "3x3#2"), ("sudoku", "3x3du#4"), ("sudoku", "4x4#5"),
        ("shikaku", "7x7#1"), ("shikaku", "5x3#2"), ("shikaku", "13x9#3"),
        ("hashi", "7x7#1"), ("hashi", "10x10i30e10m2d0#5"), ("hashi", "8x12d2#3"),
        ("nonogram", "5x5#1"), ("nonogram", "10x5#2"), ("nonogram", "12x15#3")]
PUZZLE_NAMES = sorted({puzzle for puzzle, _ in MADE})
FILES_CHECKED = 4
"""Bundled files of each puzzle whose first instance's ID a program checks by default."""


def needs(puzzle: str) -> None:
    """Skip, saying why, where ``puzzle``'s program is not installed."""
    if program(puzzle) is None:
        pytest.skip(missing(puzzle))


def unique_and_solved(instance: Any) -> bool:
    """A complete count finds exactly one solution, and the checker accepts it."""
    counting = counting_defaults(puzzle_of(instance).name)
    run = solve(instance, viewpoint=counting.viewpoint, solver=counting.solver,
                heuristic=counting.heuristic, options=counting.options, max_solutions=2,
                time_limit=60)
    return run.correct and run.result.complete and run.statistics.solutions == 1


@pytest.mark.parametrize(("puzzle", "params"), MADE, ids=[f"{p}-{q}" for p, q in MADE])
def test_an_id_the_program_makes_reads_solves_once_and_is_written_back_alike(
        puzzle: str, params: str, tmp_path: Path) -> None:
    needs(puzzle)
    ids = generated(puzzle, params, 2)
    path = tmp_path / "made.txt"
    path.write_text("\n".join(ids) + "\n", encoding="utf-8")
    kind = PUZZLES.get(puzzle)
    instances = kind.read(path)
    assert [kind.instance_name(instance) for instance in instances] == ["made#1", "made#2"]
    for game_id, instance in zip(ids, instances, strict=True):
        assert kind.known_solution(instance) is None
        assert unique_and_solved(instance), game_id
        assert kind.game_id(instance) == game_id


def _first_instances(kind: PuzzleKind[Any, Any], files: int | None) -> list[Any]:
    paths = [path for data_set in kind.data_sets() for path in data_set.files]
    return [kind.read(path)[0] for path in paths[:files]]


def _assert_taken(kind: PuzzleKind[Any, Any], instances: list[Any]) -> None:
    for instance in instances:
        try:
            game_id = kind.game_id(instance)
        except UnsupportedCombination:
            continue  # what PuzzleLab will not write (test_game_ids)
        assert refusal(kind.name, game_id) is None, (kind.instance_name(instance), game_id)


@pytest.mark.parametrize("puzzle", PUZZLE_NAMES)
def test_the_program_takes_the_ids_puzzlelab_writes(puzzle: str) -> None:
    needs(puzzle)
    kind = PUZZLES.get(puzzle)
    _assert_taken(kind, _first_instances(kind, FILES_CHECKED))


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLE_NAMES)
def test_the_program_takes_the_id_of_every_bundled_file_s_first_instance(puzzle: str) -> None:
    needs(puzzle)
    kind = PUZZLES.get(puzzle)
    _assert_taken(kind, _first_instances(kind, None))


def test_the_program_takes_the_ids_of_hashis_generated_apart() -> None:
    needs("hashi")
    kind = PUZZLES.get("hashi")
    options = kind.resolve_generator_options({"size": "9x8", "apart": "yes"})
    made = [kind.generate(options, random.Random(seed), f"apart{seed}") for seed in range(6)]
    _assert_taken(kind, [instance for instance in made if instance is not None])


VARIANTS = [("3x3x#3", ("X", "diagonals")), ("9j#1", ("jigsaw",)), ("3x3k#2", ("killer",)),
            ("2x3#4", ("2x3", "square"))]


@pytest.mark.parametrize(("params", "said"), VARIANTS, ids=[v for v, _ in VARIANTS])
def test_a_solo_variant_puzzlelab_lacks_is_refused_saying_which(
        params: str, said: tuple[str, ...], tmp_path: Path) -> None:
    needs("sudoku")
    path = tmp_path / "variant.txt"
    path.write_text(f"# {params}\n" + generated("sudoku", params)[0] + "\n", encoding="utf-8")
    with pytest.raises(ParseError) as refused:
        PUZZLES.get("sudoku").read(path)
    assert (refused.value.source, refused.value.line) == (str(path), 2)
    assert states(refused.value.message, *said), refused.value.message


@pytest.mark.parametrize(("puzzle", "params", "said"),
                         [("hashi", "7x7m1#1", ("m1",)), ("hashi", "7x7m2L#2", ("loops",))])
def test_a_bridges_rule_puzzlelab_lacks_is_refused_saying_which(
        puzzle: str, params: str, said: tuple[str, ...]) -> None:
    needs(puzzle)
    with pytest.raises(ParseError) as refused:
        PUZZLES.get(puzzle).parse(generated(puzzle, params)[0])
    assert states(refused.value.message, *said), refused.value.message


MALFORMED = [("sudoku", "2x2:d3a2b1a3"), ("sudoku", "2x2:d3a5b1a3d"),
             ("shikaku", "5x3:2c3_2a2_2a2a2b?"), ("shikaku", "1x1:1"),
             ("hashi", "3x3m2:a11f"), ("hashi", "2x2m2:1b1"), ("hashi", "3x3m2:1h"),
             ("nonogram", "5x5:3/2/2/2/4/2/2/1.1/3.1"), ("nonogram", "5x5:3/2/2/2/4/2/2/1.0/3.1/3")]


@pytest.mark.parametrize(("puzzle", "game_id"), MALFORMED, ids=[g for _, g in MALFORMED])
def test_what_puzzlelab_refuses_as_malformed_the_program_refuses_too(puzzle: str,
                                                                     game_id: str) -> None:
    needs(puzzle)
    with pytest.raises(ParseError):
        PUZZLES.get(puzzle).parse(game_id)
    assert refusal(puzzle, game_id) is not None
