"""``puzzlelab generate``: reproducible random nonograms, unique ones proved unique."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.generate import generate, parse_size
from experiments.solving import solve_instance
from puzzlelab.errors import OptionError
from puzzles.nonogram import load
from tests.experiments.test_cli import run_cli


def count_all(path: Path) -> int:
    """Every solution, counted by a complete search on another solver than the generator's."""
    run = solve_instance("nonogram", load(path), "line-table", "cp", "input/min",
                         max_solutions=None, time_limit=60)
    assert run.result.complete
    return run.result.statistics.solutions


def test_unique_instances_have_exactly_one_solution(tmp_path: Path) -> None:
    made = list(generate("nonogram", "6x5", 0.5, seed=11, count=4, unique=True,
                         output=tmp_path))
    assert [m.path.name for m in made] == [f"nonogram-6x5-d0.5-s11-{i}.non" for i in (1, 2, 3, 4)]
    for item in made:
        assert count_all(item.path) == 1
        assert load(item.path).known_solution == item.instance.known_solution


def test_without_unique_some_instances_have_several_solutions(tmp_path: Path) -> None:
    made = list(generate("nonogram", "4x4", 0.5, seed=2, count=12, output=tmp_path))
    counts = [count_all(item.path) for item in made]
    assert all(count >= 1 for count in counts) and max(counts) > 1


def test_the_same_seed_gives_the_same_files(tmp_path: Path) -> None:
    first = [m.path.read_text() for m in generate("nonogram", "8x8", 0.4, 5, 2, True,
                                                    tmp_path / "a")]
    again = [m.path.read_text() for m in generate("nonogram", "8x8", 0.4, 5, 2, True,
                                                    tmp_path / "b")]
    assert first == again


@pytest.mark.parametrize(("size", "density", "message"), [
    ("20", 0.5, "--size must be ROWSxCOLUMNS"), ("0x4", 0.5, "--size must be ROWSxCOLUMNS"),
    ("4x4", 1.5, "--density must be between 0 and 1"),
])
def test_bad_arguments_are_option_errors(tmp_path, size, density, message) -> None:
    with pytest.raises(OptionError, match=message):
        list(generate("nonogram", size, density, 0, output=tmp_path))


def test_parse_size() -> None:
    assert parse_size("20x15") == (20, 15)


def test_cli_generate_then_solve_as_json(monkeypatch, capsys, tmp_path) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "nonogram", "--size", "5x5",
                           "--seed", "7", "--unique", "--output", str(tmp_path))
    assert code == 0 and "nonogram-5x5-d0.5-s7-1.non" in out
    path = tmp_path / "nonogram-5x5-d0.5-s7-1.non"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", str(path), "--json")
    import json

    result = json.loads(out)
    assert code == 0 and result["check"] == [] and result["matches_known_solution"] is True
    assert result["solution"] == [list(row) for row in load(path).known_solution.grid]
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", str(path), "--all",
                           "--solver", "cp", "--heuristic", "input/min", "--json")
    stats = json.loads(out)["stats"]
    assert stats["solutions"] == 1 and stats["first_branches"] <= stats["branches"]
