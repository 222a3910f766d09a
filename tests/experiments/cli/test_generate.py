"""``puzzlelab generate``: each puzzle's own generator and options, reproducible files, and
unique instances proved unique by a second, complete search."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from experiments.campaign.solving import solve
from experiments.generate import (
    BudgetSpent,
    another_solution,
    generate,
    named_options,
    solution_count,
)
from puzzlelab.errors import OptionError, UnknownName
from puzzles import PUZZLES
from puzzles.nonogram import load as load_nonogram
from puzzles.sudoku import load as load_sudoku
from tests.experiments.cli.commands import run_cli
from tests.facts import facts, states
from tests.terminal import cli_on_terminal, read_until


def count_all(puzzle: str, instance: object, viewpoint: str) -> int:
    """Every solution, counted by a complete search on another solver than the generator's."""
    run = solve(instance, viewpoint=viewpoint, solver="cp", heuristic="input/min",
                max_solutions=0, time_limit=60)
    assert run.result.complete
    return run.result.statistics.solutions


def clues_of(path: Path) -> int:
    return sum(v != 0 for row in load_sudoku(path).givens for v in row)


# ---------------------------------------------------------------- nonogram


def test_unique_nonograms_have_exactly_one_solution(tmp_path: Path) -> None:
    made = list(generate("nonogram", {"size": "6x5"}, seed=11, count=4, unique=True,
                         output=tmp_path))
    assert [m.path.name for m in made] == [f"nonogram-6x5-d0.5-s11-{i}.non" for i in (1, 2, 3, 4)]
    for item in made:
        assert count_all("nonogram", load_nonogram(item.path), "line-table") == 1
        assert load_nonogram(item.path).known_solution == item.instance.known_solution


def test_without_unique_some_nonograms_have_several_solutions(tmp_path: Path) -> None:
    made = list(generate("nonogram", {"size": "4x4"}, seed=2, count=12, output=tmp_path))
    counts = [count_all("nonogram", load_nonogram(item.path), "line-table") for item in made]
    assert all(count >= 1 for count in counts) and max(counts) > 1


def test_the_same_seed_gives_the_same_files(tmp_path: Path) -> None:
    for puzzle, options in (("nonogram", {"size": "8x8", "density": 0.4}),
                            ("sudoku", {"box": 2, "clues": 6}),
                            ("hashi", {"size": "12x12", "islands": "30"})):
        first, again, other = ([m.path.read_text() for m in generate(
            puzzle, options, seed, 2, True, tmp_path / folder)]
            for seed, folder in ((5, "a"), (5, "b"), (6, "c")))
        assert first == again and first != other


# ---------------------------------------------------------------- sudoku


@pytest.mark.parametrize(("box", "clues", "count"), [(2, 5, 4), (3, 26, 1)])
def test_unique_sudokus_have_exactly_one_solution_and_the_clues_asked(
        tmp_path: Path, box: int, clues: int, count: int) -> None:
    made = list(generate("sudoku", {"box": str(box), "clues": str(clues)}, seed=3,
                         count=count, unique=True, output=tmp_path))
    assert [m.path.name for m in made] == [f"sudoku-box{box}-clues{clues}-s3-{i}.txt"
                                           for i in range(1, count + 1)]
    for item in made:
        assert clues_of(item.path) == clues
        assert count_all("sudoku", load_sudoku(item.path), "classic") == 1
        assert load_sudoku(item.path) == item.instance


def test_without_unique_sudokus_have_the_clues_asked_and_some_several_solutions(
        tmp_path: Path) -> None:
    made = list(generate("sudoku", {"box": 2, "clues": 4}, seed=1, count=8, output=tmp_path))
    assert all(clues_of(item.path) == 4 for item in made)
    assert max(count_all("sudoku", item.instance, "classic") for item in made) > 1


def test_the_default_sudoku_is_a_9x9_with_40_percent_of_its_cells(tmp_path: Path) -> None:
    [made] = generate("sudoku", output=tmp_path)
    assert made.path.name == "sudoku-box3-clues32-s0-1.txt" and clues_of(made.path) == 32
    assert load_sudoku(made.path).known_solution == made.instance.known_solution


def test_a_clue_count_no_unique_sudoku_reaches_runs_out_of_candidates(tmp_path: Path) -> None:
    """A 4x4 Sudoku with one solution has at least 4 clues: 3 is never reached."""
    seen: list[int] = []
    with pytest.raises(OptionError, match=facts("unique", "sudoku", "5 candidates")):
        list(generate("sudoku", {"box": 2, "clues": 3}, unique=True, output=tmp_path,
                      max_candidates=5, on_candidate=lambda index, drawn: seen.append(drawn)))
    assert seen == [1, 2, 3, 4, 5] and list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- arguments


#: the option, what it takes, and the value given
@pytest.mark.parametrize(("puzzle", "options", "stated"), [
    ("nonogram", {"size": "20"}, ("--size", "ROWSxCOLUMNS", "1 to 1000", "20x20", "'20'")),
    ("nonogram", {"size": "0x4"}, ("--size", "ROWSxCOLUMNS", "1 to 1000", "'0x4'")),
    ("nonogram", {"size": "20x1001"}, ("--size", "1 to 1000", "'20x1001'")),
    ("nonogram", {"density": 1.5}, ("--density", "number", "between 0 and 1", "1.5")),
    ("nonogram", {"density": "dense"}, ("--density", "number", "'dense'")),
    ("nonogram", {"box": 3}, ("nonogram generator", "'box'", "size", "density")),
    ("sudoku", {"box": "6"}, ("--box", "integer", "2 to 5", "'6'")),
    ("sudoku", {"box": True}, ("--box", "integer", "2 to 5", "True")),
    ("sudoku", {"box": 2, "clues": 17}, ("--clues", "at most 16", "box 2", "17")),
    ("sudoku", {"clues": "-1"}, ("--clues", "integer", "at least 0", "'-1'")),
])
def test_bad_options_are_option_errors(tmp_path: Path, puzzle: str,
                                       options: dict[str, object],
                                       stated: tuple[str, ...]) -> None:
    with pytest.raises(OptionError, match=facts(*stated)):
        generate(puzzle, options, output=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_puzzle_lists_the_puzzles(tmp_path: Path) -> None:
    # the test is that the list is there, whichever puzzles it holds besides these
    with pytest.raises(UnknownName, match=facts("puzzle", "'chess'", "nonogram", "sudoku")):
        generate("chess", output=tmp_path)


def test_count_below_one_is_an_option_error(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=facts("--count", "at least 1", "0")):
        list(generate("nonogram", {"size": "4x4"}, 0, count=0, output=tmp_path))


@pytest.mark.parametrize(("arguments", "pairs"), [
    ([], []),
    (["--size", "5x5", "--density=0.3"], ["size=5x5", "density=0.3"]),
    (["--clues", "-3"], ["clues=-3"]),
])
def test_named_options_become_pairs(arguments: list[str], pairs: list[str]) -> None:
    assert named_options(arguments) == pairs


#: what cannot be read, and how options are written
@pytest.mark.parametrize(("arguments", "stated"), [
    (["5x5"], ("'5x5'", "--NAME VALUE")),
    (["--size"], ("--size", "value", "--size VALUE")),
    (["--size", "--density", "0.3"], ("--size", "--size VALUE")),
    (["--", "3"], ("'--'", "--NAME VALUE")),
])
def test_named_options_refuse_what_they_cannot_read(arguments: list[str],
                                                    stated: tuple[str, ...]) -> None:
    with pytest.raises(OptionError, match=facts(*stated)):
        named_options(arguments)


def test_every_candidate_is_reported_before_it_is_checked(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    made = list(generate("nonogram", {"size": "6x6", "density": "0.3"}, 3, count=2,
                         unique=True, output=tmp_path,
                         on_candidate=lambda index, drawn: seen.append((index, drawn))))
    expected = [(index, drawn) for index, item in enumerate(made, start=1)
                for drawn in range(1, item.candidates + 1)]
    assert seen == expected and any(item.candidates > 1 for item in made)


# ---------------------------------------------------------------- command line


def test_cli_generate_then_solve_as_json(monkeypatch, capsys, tmp_path) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "nonogram", "--size", "5x5",
                           "--seed", "7", "--unique", "--output", str(tmp_path))
    assert code == 0 and "nonogram-5x5-d0.5-s7-1.non" in out
    path = tmp_path / "nonogram-5x5-d0.5-s7-1.non"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", str(path), "--json")
    result = json.loads(out)
    assert code == 0 and result["violations"] == [] and result["matches_known"] is True
    known = load_nonogram(path).known_solution
    assert known is not None and result["solution"] == [list(row) for row in known.grid]
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "nonogram", str(path), "--all",
                           "--solver", "cp", "--heuristic", "input/min", "--json")
    stats = json.loads(out)["statistics"]
    assert stats["solutions"] == 1 and stats["first_branches"] <= stats["branches"]


def test_cli_dispatches_to_the_puzzles_own_options(monkeypatch, capsys, tmp_path) -> None:
    """--NAME VALUE and -o NAME=VALUE reach the named puzzle's generator alike."""
    code, out, err = run_cli(monkeypatch, capsys, "generate", "sudoku", "--box", "2",
                             "-o", "clues=6", "--unique", "--seed", "4", "--count", "2",
                             "--output", str(tmp_path))
    assert code == 0, err
    wrote = out.splitlines()  # a line per file: the file, and the candidates it took
    assert len(wrote) == 2 and all(
        states(line, str(tmp_path / f"sudoku-box2-clues6-s4-{i}.txt"), "unique", "1 candidate")
        for i, line in enumerate(wrote, start=1))
    path = tmp_path / "sudoku-box2-clues6-s4-1.txt"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "sudoku", str(path), "--json")
    result = json.loads(out)
    assert code == 0 and result["violations"] == [] and result["matches_known"] is True
    assert result["instance"] == "sudoku-box2-clues6-s4-1"


@pytest.mark.parametrize(("arguments", "stated"), [
    (["nonogram", "--size", "0x5"], ("--size", "ROWSxCOLUMNS", "1 to 1000", "'0x5'")),
    (["sudoku", "--size", "9x9"], ("sudoku generator", "'size'", "box", "clues")),
    (["sudoku", "--box", "2", "-o", "box=3"], ("'box'", "twice", "box=2", "box=3")),
    (["sudoku", "--clues"], ("--clues", "value")),
    (["nonogram", "--count", "0"], ("--count", "at least 1", "0")),
])
def test_cli_bad_generator_options_are_one_clear_line(monkeypatch, capsys, tmp_path,
                                                      arguments: list[str],
                                                      stated: tuple[str, ...]) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "generate", *arguments,
                             "--output", str(tmp_path))
    assert code == 2 and "Traceback" not in err
    assert err.startswith("error:") and err.count("\n") == 1 and states(err, *stated)
    assert out == "" and list(tmp_path.iterdir()) == []


def test_cli_help_lists_every_puzzles_generator_options(monkeypatch, capsys) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "--help")
    assert code == 0
    for word in ("nonogram:", "--size", "--density", "sudoku:", "--box", "--clues",
                 "from 2 to 5"):
        assert word in out


def test_unique_search_shows_its_progress_on_a_terminal(tmp_path: Path) -> None:
    """A long --unique search shows which instance it is on (stderr, a terminal); the
    lines naming the files written still go to stdout alone."""
    with cli_on_terminal("generate", "nonogram", "--size", "6x6", "--density", "0.3",
                         "--seed", "3", "--count", "2", "--unique", "--output", str(tmp_path)
                         ) as (process, terminal):
        shown = read_until(terminal, b"generating 2 of 2", seconds=60)
        out, _ = process.communicate(timeout=60)
    assert process.returncode == 0 and b"generating 1 of 2" in shown
    wrote = out.decode().splitlines()  # the file, and the candidates it took
    assert len(wrote) == 2 and all(
        states(line, str(tmp_path / f"nonogram-6x6-d0.3-s3-{i}.non"), "unique", f"{n} candidates")
        for (i, n), line in zip(((1, 3), (2, 2)), wrote))


@pytest.mark.parametrize("size", ["6x6", "12x12"])
def test_unique_shikakus_have_exactly_one_solution(size: str, tmp_path: Path) -> None:
    """Shikaku repairs the rooms another solution moves, so a draw ends unique."""
    made = list(generate("shikaku", {"size": size}, seed=5, count=2, unique=True,
                         output=tmp_path))
    for generated in made:
        assert solution_count("shikaku", generated.instance) == 1
        assert generated.candidates == 1


def test_another_solution_differs_from_the_known_one_and_is_none_when_unique() -> None:
    shikaku = PUZZLES.get("shikaku")
    two_ways = shikaku.parse("== two ways\n2 2\n2 -\n- 2\nsolution:\n2 2\n1 1\n2 2\n")[0]
    other = another_solution("shikaku", two_ways)
    assert other is not None and shikaku.check(two_ways, other) == []
    assert other != two_ways.known_solution  # the rooms stand up
    one_way = shikaku.parse("== one way\n2 2\n2 2\n- -\nsolution:\n2 2\n1 2\n1 2\n")[0]
    assert another_solution("shikaku", one_way) is None


def test_another_solution_on_a_solver_that_cannot_rank_values_forbids_the_known_one() -> None:
    """Hashi counts on cpsat, which cannot take a ranked value order: a clause that some
    decision differs from the first solution finds the other solution, on cpsat still."""
    hashi = PUZZLES.get("hashi")
    unique = hashi.load(hashi.data_folder() / "small" / "small.txt", "puzzle_2")
    assert another_solution("hashi", unique) is None
    two_ways = hashi.parse("== square\n3 3\n3 - 3\n- - -\n3 - 3\n")[0]
    known = another_solution("hashi", two_ways)  # no known solution: the first is other
    assert known is not None and hashi.check(two_ways, known) == []
    with_known = replace(two_ways, known_solution=known)
    other = another_solution("hashi", with_known)
    assert other is not None and other != known and hashi.check(two_ways, other) == []


# ---------------------------------------------------------------- the time budget


def test_a_spent_budget_stops_with_what_was_reached_and_keeps_what_was_written(
        monkeypatch, tmp_path: Path) -> None:
    made = generate("sudoku", {"box": 2, "clues": 6}, seed=1, count=3, unique=True,
                    output=tmp_path, time_limit=30)
    first = next(made)
    later = time.monotonic() + 31
    monkeypatch.setattr("experiments.generate.time.monotonic", lambda: later)
    with pytest.raises(BudgetSpent) as spent:
        next(made)
    assert spent.value.written == 1 and list(tmp_path.iterdir()) == [first.path]
    assert states(str(spent.value), "30 s", "1 of 3", "unique sudoku")


def test_cli_a_generation_that_cannot_finish_stops_at_its_time_limit(
        monkeypatch, capsys, tmp_path) -> None:
    """17 clues: random thinning of a 9x9 all but never gets there."""
    code, out, err = run_cli(monkeypatch, capsys, "generate", "sudoku", "--clues", "17",
                             "--unique", "--time-limit", "1", "--output", str(tmp_path))
    stopped = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and out == "" and "Traceback" not in err and len(stopped) == 1
    assert states(stopped[0], "1 s", "time limit", "0 of 1", "unique sudoku", "clues 17",
                  "best candidate")
    assert list(tmp_path.iterdir()) == []


def test_cli_progress_goes_to_a_piped_stderr(monkeypatch, capsys, tmp_path) -> None:
    code, out, err = run_cli(monkeypatch, capsys, "generate", "sudoku", "--box", "2",
                             "--unique", "--count", "2", "--output", str(tmp_path))
    assert code == 0 and len(out.splitlines()) == 2
    assert [line.split(" (")[0] for line in err.splitlines()] == [
        "generating 1 of 2", "generating 2 of 2"]


@pytest.mark.parametrize("time_limit", ["0", "-5"])
def test_cli_a_time_limit_not_above_zero_is_refused(monkeypatch, capsys, tmp_path,
                                                    time_limit: str) -> None:
    code, _, err = run_cli(monkeypatch, capsys, "generate", "sudoku", "--time-limit",
                           time_limit, "--output", str(tmp_path))
    assert code == 2 and states(err, "--time-limit", "above 0", f"{float(time_limit)}")


# ---------------------------------------------------------------- hashi


@pytest.mark.parametrize(("size", "islands"), [("7x7", "12"), ("12x12", "30")])
def test_unique_hashis_have_exactly_one_solution(tmp_path: Path, size: str,
                                                 islands: str) -> None:
    made = list(generate("hashi", {"size": size, "islands": islands}, seed=2, count=2,
                         unique=True, output=tmp_path))
    for item in made:
        instance = PUZZLES.get("hashi").load(item.path)
        assert count_all("hashi", instance, "bridges") == 1
        assert len(instance.islands) == int(islands)


@pytest.mark.slow
def test_a_unique_30x30_hashi_with_150_islands(tmp_path: Path) -> None:
    [made] = generate("hashi", {"size": "30x30", "islands": "150"}, seed=1, unique=True,
                      output=tmp_path)
    instance = PUZZLES.get("hashi").load(made.path)
    assert len(instance.islands) == 150 and count_all("hashi", instance, "bridges") == 1


@pytest.mark.slow
def test_a_unique_25x25_sudoku(tmp_path: Path) -> None:
    [made] = generate("sudoku", {"box": 5}, seed=1, unique=True, output=tmp_path)
    assert clues_of(made.path) == 281
    run = solve(load_sudoku(made.path), viewpoint="boolean", solver="cpsat", heuristic="auto",
                max_solutions=2, time_limit=120)  # not the generator's choco
    assert run.result.complete and run.result.statistics.solutions == 1
