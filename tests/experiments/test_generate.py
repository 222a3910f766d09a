"""``puzzlelab generate``: reproducible random nonograms, unique ones proved unique."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.generate import generate, parse_size
from experiments.solving import solve_instance
from puzzlelab.errors import OptionError
from puzzles.nonogram import load
from tests.experiments.test_cli import run_cli
from tests.terminal import cli_on_terminal, read_until


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
    ("20x1001", 0.5, "--size 20x1001: at most 1000 rows and 1000 columns"),
    ("4x4", 1.5, "--density must lie strictly between 0 and 1"),
])
def test_bad_arguments_are_option_errors(tmp_path, size, density, message) -> None:
    with pytest.raises(OptionError, match=message):
        list(generate("nonogram", size, density, 0, output=tmp_path))


def test_count_below_one_is_an_option_error(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="--count must be at least 1"):
        list(generate("nonogram", "4x4", 0.5, 0, count=0, output=tmp_path))


def test_every_candidate_is_reported_before_it_is_checked(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    made = list(generate("nonogram", "6x6", 0.3, 3, count=2, unique=True, output=tmp_path,
                         on_candidate=lambda index, drawn: seen.append((index, drawn))))
    expected = [(index, drawn) for index, item in enumerate(made, start=1)
                for drawn in range(1, item.candidates + 1)]
    assert seen == expected and any(item.candidates > 1 for item in made)


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


def test_cli_count_zero_is_a_usage_error(monkeypatch, capsys, tmp_path) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "generate", "nonogram", "--count", "0",
                             "--output", str(tmp_path))
    assert code == 2 and "--count" in err and list(tmp_path.iterdir()) == []


def test_unique_search_shows_its_progress_on_a_terminal(tmp_path: Path) -> None:
    """A long --unique search shows which instance it is on (stderr, a terminal); the
    lines naming the files written still go to stdout alone."""
    with cli_on_terminal("generate", "nonogram", "--size", "6x6", "--density", "0.3",
                         "--seed", "3", "--count", "2", "--unique", "--output", str(tmp_path)
                         ) as (process, terminal):
        shown = read_until(terminal, b"generating 2 of 2", seconds=60)
        out, _ = process.communicate(timeout=60)
    assert process.returncode == 0 and b"generating 1 of 2" in shown
    assert out.decode().splitlines() == [
        f"wrote {tmp_path / f'nonogram-6x6-d0.3-s3-{i}.non'} (unique; {n} candidates drawn)"
        for i, n in ((1, 3), (2, 2))]
