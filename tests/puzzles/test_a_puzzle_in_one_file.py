"""A puzzle written in one file (:mod:`tests.puzzles.latin_square`) fills the contract and
runs everywhere.

It is registered only while a test runs (``Registry.registered``, as ``register``,
``@viewpoint`` and ``set_defaults`` would), so no other test sees it. It passes the checks
``tests/puzzles/test_contract.py`` applies to every puzzle (but the one about its
module's name), the whole test grid, ``solve_instance``, ``generate --unique`` and the
command line. Nothing outside its file changes for it.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

import tests.architecture.test_registries as registries
import tests.puzzles.test_contract as contract
from experiments.campaign.solving import solve
from experiments.generate import generate as generate_files
from puzzlelab.errors import OptionError, ParseError, UnsupportedCombination
from puzzles import PUZZLES
from solvers import BACKENDS
from tests.experiments.cli.commands import run_cli
from tests.facts import assert_each_states, facts, states
from tests.grid import assert_solves, grid
from tests.puzzles.latin_square import (
    PUZZLE_DEFAULTS,
    VIEWPOINT_ENTRIES,
    LatinSquare,
    LatinSquareSolution,
    check,
    parse,
    read,
)
from viewpoints import DEFAULTS, VIEWPOINTS

SMALL = """\
# hand-made, each with exactly one solution
== three
1 . .
. . .
. 3 .
solution:
1 2 3
3 1 2
2 3 1
== four
. . 3 .
. . . 2
4 . . .
. 1 . 4
solution:
2 4 3 1
1 3 4 2
4 2 1 3
3 1 2 4
"""


@pytest.fixture
def latin_square(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LatinSquare]:
    """The puzzle, its viewpoints and defaults, registered for one test only."""
    data = tmp_path_factory.mktemp("latin-square")
    (data / "SOURCES.md").write_text("# Latin squares\n\n`small/`: made by hand for this "
                                     "test.\n", encoding="utf-8")
    (data / "small").mkdir()
    (data / "small" / "small.latin").write_text(SMALL, encoding="utf-8")
    kind = LatinSquare(data)
    with ExitStack() as registrations:
        registrations.enter_context(PUZZLES.registered(kind.name, kind))
        for entry in VIEWPOINT_ENTRIES:
            registrations.enter_context(VIEWPOINTS.registered(entry.key, entry))
        registrations.enter_context(DEFAULTS.registered(kind.name, PUZZLE_DEFAULTS))
        yield kind
    assert kind.name not in PUZZLES and "latin-square/cells" not in VIEWPOINTS


# ---------------------------------------------------------------- the tests


@pytest.mark.parametrize(("text", "line", "column", "stated"), [
    ("", None, None, ("no puzzle",)),
    ("three\n1 . .\n", 1, None, ("'== name'",)),
    ("== a\n1 . .\n. 2\n", 3, None, ("row 2", "2 entries", "expected 3")),
    ("== a\n1 . .\n. 2 . 3\n", 3, 7, ("row 2", "4 entries", "expected 3")),
    ("== a\n1 . .\n. 4 .\n", 3, 3, ("4", "outside 1..3")),
    ("== a\n1 . .\n. x .\n", 3, 3, ("a digit or '.'", "'x'")),
    ("== a\n1 . .\n. . 1\n1 . .\n", 4, 1, ("1 stands twice", "column 1",
                                             "line 2, column 1")),
    ("== a\n1 . .\n", 2, None, ("end of input", "row 2 of 3")),
    ("== a\n1 .\n== b\n", 3, None, ("row 2 of 2", "'== b'")),
    ("== a\n1\n# again\n== a\n1\n", 4, None, ("second instance", "'a'", "line 1")),
    ("== a\n1 .\n. .\nsolution:\n1 2\n1 2\n", 6, 1, ("1 stands twice", "column 1")),
    ("== a\n1 .\n. .\nsolution:\n1 .\n", 5, 3, ("a digit", "'.'")),
    ("== a\n1 .\n. .\nsolution:\n2 1\n1 2\n", 4, None, ("solution of 'a'", "cell (1, 1)",
                                                          "is 2", "given is 1")),
])
def test_bad_input_is_an_error_naming_file_line_and_column(
        text: str, line: int | None, column: int | None, stated: tuple[str, ...]) -> None:
    with pytest.raises(ParseError) as raised:
        parse(text)
    error = raised.value
    assert (error.source, error.line, error.column) == ("<string>", line, column)
    assert states(error.message, *stated)


def test_a_missing_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match=r"nowhere\.latin: no such file"):
        read(tmp_path / "nowhere.latin")


def test_the_checker_lists_every_broken_rule() -> None:
    [three, _] = parse(SMALL)
    assert three.known_solution is not None and check(three, three.known_solution) == []
    wrong = LatinSquareSolution(((2, 2, 3), (3, 1, 4), (2, 3, 1)))
    assert_each_states(check(three, wrong),
                       ("cell (1, 1)", "is 2", "given is 1"),
                       ("cell (2, 3)", "4", "outside 1..3"),
                       ("row 1", "2 times", "columns 1, 2"),
                       ("column 1", "2 times", "rows 1, 3"))
    assert_each_states(check(three, LatinSquareSolution(((1, 2), (2, 1)))),
                       ("3x3", "[2, 2]"))


def test_it_passes_the_checks_every_puzzle_passes(latin_square: LatinSquare,
                                                  tmp_path: Path) -> None:
    """The functions of tests/puzzles/test_contract.py and test_registries.py, run on this
    puzzle; all but "one module named after it", since its module is this test file."""
    assert latin_square.suffixes[0].startswith(".") and not inspect.isabstract(LatinSquare)
    contract.test_the_bundled_data_is_there_with_its_sources(latin_square)
    for data_set in latin_square.data_sets():
        contract.test_every_bundled_file_reads_and_its_first_instances_round_trip(
            latin_square, data_set, tmp_path)
    for seed in (0, 1):
        contract.test_a_generated_instance_is_solved_by_its_known_solution(
            latin_square, seed, tmp_path)
    contract.test_a_generator_given_a_uniqueness_test_uses_it_or_leaves_it_to_the_caller(
        latin_square)
    contract.test_generator_options_are_declared_in_full(latin_square)
    contract.test_pictures_and_json(latin_square)
    contract.test_instances_and_solutions_draw_themselves_in_a_notebook(latin_square)
    registries.test_every_viewpoint_is_of_a_registered_puzzle()
    registries.test_every_puzzle_with_viewpoints_has_defaults()


def test_generator_options_are_checked(latin_square: LatinSquare) -> None:
    assert dict(latin_square.resolve_generator_options({"size": "3"})) == {"size": 3,
                                                                          "clues": 5}
    with pytest.raises(OptionError, match=facts("--clues", "at most 4", "size 2", "5")):
        latin_square.resolve_generator_options({"size": 2, "clues": 5})
    with pytest.raises(OptionError, match=facts("--size", "integer", "2 to 5", "'9'")):
        latin_square.resolve_generator_options({"size": "9"})


@pytest.mark.parametrize("backend", [
    pytest.param(name, marks=pytest.mark.slow) if name == "minizinc" else name
    for name in BACKENDS.names()])  # minizinc: a process per run (8 s); the others: seconds
def test_it_runs_through_the_whole_grid(latin_square: LatinSquare, backend: str) -> None:
    """Every viewpoint variant x heuristic on this backend solves the small set, or is
    refused as the backend's declaration says (tests/grid.py)."""
    instances = latin_square.read(latin_square.data_folder() / "small" / "small.latin")
    cells = [cell for cell in grid(latin_square.name) if cell.backend == backend]
    assert {cell.viewpoint.name for cell in cells} == {"cells", "boolean"}
    for cell in cells:
        assert_solves(cell, instances)
    assert any(cell.refusal(instances[0]) is None for cell in cells)


def test_solve_instance_solves_it_and_the_checker_agrees(latin_square: LatinSquare) -> None:
    [_, four] = latin_square.read(latin_square.data_folder() / "small" / "small.latin")
    for viewpoint, options in (("cells", {"alldiff": "strong"}), ("boolean", {})):
        run = solve(four, viewpoint=viewpoint, solver="cpsat", heuristic="auto", options=options,
                    max_solutions=0)
        assert run.result.complete and run.result.statistics.solutions == 1
        assert run.correct and check(four, run.solution) == []
        assert run.solution == four.known_solution and run.matches_known


def test_generate_unique_makes_instances_with_one_solution(latin_square: LatinSquare,
                                                           tmp_path: Path) -> None:
    made = list(generate_files(latin_square.name, {"size": "4", "clues": "6"}, seed=3,
                               count=2, unique=True, output=tmp_path))
    assert [m.path.name for m in made] == [f"latin-square-n4-clues6-s3-{i}.latin"
                                           for i in (1, 2)]
    for item in made:
        [instance] = latin_square.read(item.path)
        assert instance == item.instance and sum(v != 0 for row in instance.givens
                                                 for v in row) == 6
        # counted by another viewpoint and solver than the generator's (cells on cp)
        run = solve(instance, viewpoint="boolean", solver="cpsat", heuristic="auto",
                    max_solutions=0)
        assert run.result.complete and run.result.statistics.solutions == 1
        assert run.solution == instance.known_solution


def test_a_puzzle_tathams_collection_lacks_has_no_game_id(latin_square: LatinSquare,
                                                          tmp_path: Path) -> None:
    """The contract's default: a game ID is refused saying why, by ``generate`` too."""
    instance = latin_square.generate(latin_square.resolve_generator_options({}),
                                     random.Random(0), "made")
    with pytest.raises(UnsupportedCombination, match=facts("latin-square", "game ID")):
        latin_square.game_id(instance)
    with pytest.raises(UnsupportedCombination, match=facts("latin-square", "game ID")):
        list(generate_files(latin_square.name, output=tmp_path, file_format="tatham"))
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_lists_and_solves_it(latin_square: LatinSquare, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "list")
    heading, *below = ("\n" + out).split("\nlatin-square", 1)[1].splitlines()
    assert code == 0 and states(heading, "default", "cells", "cp", "first-fail/min")
    assert "viewpoint cells: Cell -> digit" in out and "viewpoint boolean: One-hot" in out
    size = next(line for line in below if line.startswith("  generate --size"))  # its own
    assert states(size, "integer", "2 to 5", "default 4")
    file = latin_square.data_folder() / "small" / "small.latin"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "latin-square", str(file),
                           "--instance", "four", "--json")
    result = json.loads(out)
    assert code == 0 and result["status"] == "solved" and result["violations"] == []
    assert result["viewpoint"] == "cells" and result["solution"][0] == [2, 4, 3, 1]
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "latin-square", "--size", "3",
                           "--unique", "--output", str(tmp_path))
    assert code == 0 and (tmp_path / "latin-square-n3-clues5-s0-1.latin").is_file()
