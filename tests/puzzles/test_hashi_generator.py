"""The Hashi generator: random layouts whose numbers are read off them, each a solution
the checker accepts, reproducible under a seed; repaired until unique, another solution
ruled out where it differs and the known one kept."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from experiments.cli import main
from puzzles.hashi import HASHI, check, read
from puzzles.hashi_generator import generate, laid_instance, random_layout, told_apart
from puzzles.hashi_types import Bridge, HashiSolution
from puzzles.options import Size
from tests.puzzles.hashi_search import count_solutions

SQUARE = [((0, 0), (0, 2), 1), ((0, 0), (2, 0), 2), ((0, 2), (2, 2), 2), ((2, 0), (2, 2), 1)]
"""Four islands of 3 on a square's corners: the counts can go round the other way."""
ROUND_THE_OTHER_WAY = {((0, 0), (0, 2)): 2, ((0, 0), (2, 0)): 1, ((0, 2), (2, 2)): 1,
                       ((2, 0), (2, 2)): 2}


@pytest.mark.parametrize("seed", range(8))
def test_the_repair_keeps_the_known_solution_and_rules_the_other_out(seed: int) -> None:
    cells = [(0, 0), (0, 2), (2, 0), (2, 2)]
    before = laid_instance("square", Size(3, 3), cells, SQUARE)
    other = HashiSolution(tuple(Bridge(first, second, count)
                                for (first, second), count in ROUND_THE_OTHER_WAY.items()))
    assert check(before, other) == []  # really another solution before the repair
    laid = told_apart(SQUARE, ROUND_THE_OTHER_WAY, random.Random(seed))
    after = laid_instance("square", Size(3, 3), cells, laid)
    assert after.known_solution is not None and check(after, after.known_solution) == []
    assert check(after, other) != []
    changed = [b for b in laid if b not in SQUARE]
    assert len(changed) + (len(SQUARE) - len(laid)) == 1  # one bridge changed or gone


@pytest.mark.parametrize("seed", range(5))
def test_a_repaired_random_layout_stays_a_solution(seed: int) -> None:
    rng = random.Random(seed)
    cells, laid = random_layout(12, 12, 30, rng)
    other = {(first, second): 3 - count for first, second, count in laid}
    repaired = told_apart(laid, other, rng)
    instance = laid_instance("r", Size(12, 12), cells, repaired)
    assert instance.known_solution is not None
    assert check(instance, instance.known_solution) == []
    assert len(instance.islands) == 30


@pytest.mark.parametrize(("size", "islands"), [(Size(5, 5), 6), (Size(7, 7), 12),
                                               (Size(3, 4), 12), (Size(1, 2), 2),
                                               (Size(16, 16), 100)])
def test_generated_instances_pass_the_checker_with_their_layout(size: Size,
                                                                islands: int) -> None:
    for seed in range(10):
        instance = generate(size, islands, random.Random(seed), "made")
        assert instance.known_solution is not None and len(instance.islands) == islands
        assert (instance.rows, instance.columns) == size
        assert check(instance, instance.known_solution) == []
        assert list(instance.islands) == sorted(instance.islands, key=lambda i: i.cell)


@pytest.mark.parametrize(("size", "islands"), [(Size(7, 7), 12), (Size(10, 12), 30),
                                               (Size(20, 20), 100)])
def test_islands_kept_apart_are_never_side_by_side(size: Size, islands: int) -> None:
    """Bridges' rule, which its game IDs need: the layout keeps it, so the repairs do."""
    made = [generate(size, islands, random.Random(seed), "apart", apart=True)
            for seed in range(10)]
    assert sum(instance is not None for instance in made) >= 8  # the rest are drawn again
    for instance in made:
        if instance is None:
            continue
        assert instance.known_solution is not None and len(instance.islands) == islands
        assert check(instance, instance.known_solution) == []
        cells = {island.cell for island in instance.islands}
        assert not any((r, c + 1) in cells or (r + 1, c) in cells for r, c in cells)
        assert HASHI.game_id(instance).startswith(f"{size.columns}x{size.rows}m2:")


def test_a_layout_with_no_room_left_for_islands_apart_is_none() -> None:
    """Five islands apart do not fit in a row of five cells, nor do two islands joined by
    a bridge in a 1x2 grid: the draw ends with None, for the caller to draw again."""
    assert random_layout(1, 5, 5, random.Random(0), apart=True) is None
    assert generate(Size(1, 2), 2, random.Random(0), "tight", apart=True) is None


def test_the_generator_is_deterministic_under_a_seed_and_varies_with_it() -> None:
    made = [generate(Size(8, 8), 14, random.Random(seed), "made") for seed in (4, 4, 5)]
    assert made[0] == made[1] and made[0] != made[2]


def test_24x24_instances_with_200_islands_are_made_with_their_solutions() -> None:
    """Large boards come out whole and solved (their speed is no unit test's business on
    a noisy machine)."""
    for seed in range(5):
        instance = generate(Size(24, 24), 200, random.Random(seed), "big")
        assert instance.known_solution is not None
        assert check(instance, instance.known_solution) == []


def test_generator_options_default_and_refuse_too_many_islands() -> None:
    assert HASHI.resolve_generator_options({})["islands"] == 12
    assert HASHI.resolve_generator_options({})["apart"] == "no"
    assert HASHI.resolve_generator_options({"size": "4x4"})["islands"] == 4
    with pytest.raises(Exception, match="--islands must be at most 6"):
        HASHI.resolve_generator_options({"size": "2x3", "islands": 7})


def test_unique_instances_come_from_drawing_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.argv", ["puzzlelab", "generate", "hashi", "--size", "5x5",
                                     "--islands", "7", "--seed", "2", "--count", "2",
                                     "--unique", "--output", str(tmp_path)])
    try:
        main()
    except SystemExit as finished:
        assert not finished.code
    capsys.readouterr()
    files = sorted(tmp_path.glob("*.has"))
    assert len(files) == 2
    for path in files:
        [instance] = read(path)
        assert count_solutions(instance) == [instance.known_solution]
