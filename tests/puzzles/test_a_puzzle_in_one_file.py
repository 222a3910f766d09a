"""A puzzle written in one file, here in the tests, fills the contract and runs everywhere.

It is what ``docs/adding-a-puzzle.md`` describes, step by step: a Latin square (an
n x n grid in which every row and every column holds 1..n once, some cells given)
with its file format, independent checker, pictures, seeded generator, two
viewpoints and its defaults. It is registered only while a test runs
(``Registry.registered``, as ``register``, ``@viewpoint`` and ``set_defaults`` would),
so no other test sees it. It passes the checks ``tests/puzzles/test_contract.py``
applies to every puzzle (but the one about its module's name), the whole test grid,
``solve_instance``, ``generate --unique`` and the command line. Nothing outside this
file changes for it.

The one departure from a real puzzle: its bundled data lives in a temporary folder
(``data_folder`` is overridden), since this file is the only one it may have.
"""

from __future__ import annotations

import inspect
import json
import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import ClassVar

import pytest

import tests.architecture.test_registries as registries
import tests.puzzles.test_contract as contract
from experiments.campaign.solving import solve_instance
from experiments.generate import generate as generate_files
from puzzlelab.errors import OptionError, ParseError
from puzzles import PUZZLES, Option, OptionValues, PuzzleKind, svg
from puzzles.json_forms import number_rows
from puzzles.text_input import Cursor, Token, content_lines, parse_int, read_text
from solvers import BACKENDS, Assignment, Model, all_different, exactly_one
from solvers.constraints import Strength
from tests.experiments.test_cli import run_cli
from tests.grid import assert_solves, grid
from viewpoints import DEFAULTS, VIEWPOINTS, BuiltModel, Defaults, Viewpoint

Grid = tuple[tuple[int, ...], ...]


# ---------------------------------------------------------------- 1. instance and solution


@dataclass(frozen=True)
class LatinSquareSolution:
    """A filled grid: rows of digits 1..n; 0 marks a cell not (yet) known."""

    grid: Grid


@dataclass(frozen=True)
class LatinSquareInstance:
    """A Latin square to complete: ``givens`` rows of digits, 0 for an empty cell."""

    name: str
    givens: Grid
    known_solution: LatinSquareSolution | None = None
    source: str = field(default="", compare=False)  # the file read: not part of the puzzle

    @property
    def size(self) -> int:
        """Side n of the grid, and its largest digit."""
        return len(self.givens)


# ---------------------------------------------------------------- 2. files


def parse(text: str, source: str = "<string>") -> list[LatinSquareInstance]:
    """Blocks ``== name``, n rows of n entries (``.`` empty), then optionally
    ``solution:`` and n full rows; ``#`` comments. Errors name file, line and column."""
    cursor = Cursor(content_lines(text), source)
    if cursor.at_end():
        raise ParseError("no puzzle found (the input is empty or only comments)", source=source)
    instances: list[LatinSquareInstance] = []
    first_line_of: dict[str, int] = {}
    while not cursor.at_end():
        header = cursor.next("a '== name' line")
        name = header.text[2:].strip()
        if not header.text.startswith("==") or not name:
            raise cursor.error("expected a block header '== name'", header)
        if name in first_line_of:
            raise cursor.error(f"a second instance named {name!r} (the first is on line "
                               f"{first_line_of[name]})", header)
        first_line_of[name] = header.number
        givens = _rows(cursor, None, empty_allowed=True)
        instance = LatinSquareInstance(name, givens, None, source)
        following = cursor.peek()
        if following is not None and following.text.strip() == "solution:":
            keyword = cursor.next("solution:")
            known = LatinSquareSolution(_rows(cursor, len(givens), empty_allowed=False))
            wrong = check(instance, known)
            if wrong:
                raise cursor.error(f"the solution of {name!r} is not one: {wrong[0]}", keyword)
            instance = replace(instance, known_solution=known)
        instances.append(instance)
    return instances


def _rows(cursor: Cursor, size: int | None, empty_allowed: bool) -> Grid:
    """n rows of n entries (n from the first row when ``size`` is None); a given repeated
    in a row or column is an error at its second place."""
    rows: list[tuple[int, ...]] = []
    seen: dict[tuple[str, int, int], Token] = {}  # ("row", r, digit) -> where it stood
    while size is None or len(rows) < size:
        line = cursor.next(f"row {len(rows) + 1}" + (f" of {size}" if size else ""))
        tokens = line.tokens()
        size = size or len(tokens)
        if line.text.startswith("==") or line.text.strip() == "solution:":
            raise cursor.error(f"expected row {len(rows) + 1} of {size}, found {line.text!r}",
                               line)
        if len(tokens) != size:
            raise cursor.error(f"row {len(rows) + 1} has {len(tokens)} entries, expected "
                               f"{size}", tokens[size] if len(tokens) > size else line)
        rows.append(tuple(_entry(token, size, empty_allowed, cursor) for token in tokens))
        for column, (token, value) in enumerate(zip(tokens, rows[-1]), 1):
            for unit in (("row", len(rows), value), ("column", column, value)):
                if value and unit in seen:
                    raise cursor.error(f"{value} stands twice in {unit[0]} {unit[1]} (also at "
                                       f"line {seen[unit].line}, column {seen[unit].column})",
                                       token)
                seen[unit] = token
    return tuple(rows)


def _entry(token: Token, size: int, empty_allowed: bool, cursor: Cursor) -> int:
    if token.text == "." and empty_allowed:
        return 0
    value = parse_int(token, cursor.source, "a digit or '.'" if empty_allowed else "a digit")
    if not 1 <= value <= size:
        raise cursor.error(f"{value} is outside 1..{size}", token)
    return value


def read(path: Path) -> list[LatinSquareInstance]:
    """Every instance of a ``.latin`` file, with the solutions it gives."""
    return parse(read_text(Path(path)), str(path))


def write(instance: LatinSquareInstance, solution: LatinSquareSolution | None = None) -> str:
    """The ``.latin`` block of ``instance``, with ``solution`` when given."""
    def rows(grid: Grid) -> list[str]:
        return [" ".join(str(value) if value else "." for value in row) for row in grid]

    solved = [] if solution is None else ["solution:", *rows(solution.grid)]
    return "\n".join([f"== {instance.name}", *rows(instance.givens), *solved]) + "\n"


# ---------------------------------------------------------------- 3. the independent checker


def check(instance: LatinSquareInstance, solution: LatinSquareSolution) -> list[str]:
    """Every rule the solution breaks, in words (1-based); [] when it is solved."""
    n, grid = instance.size, solution.grid
    if len(grid) != n or any(len(row) != n for row in grid):
        return [f"the grid must be {n}x{n}, got rows of lengths {[len(row) for row in grid]}"]
    problems = []
    for r in range(n):
        for c in range(n):
            value, given = grid[r][c], instance.givens[r][c]
            if not 1 <= value <= n:
                problems.append(f"cell ({r + 1}, {c + 1}) holds {value}, outside 1..{n}")
            elif given and value != given:
                problems.append(f"cell ({r + 1}, {c + 1}) is {value}, the given is {given}")
    lines = [(f"row {r + 1}", "columns", grid[r]) for r in range(n)]
    lines += [(f"column {c + 1}", "rows", tuple(row[c] for row in grid)) for c in range(n)]
    for label, across, values in lines:
        for digit in sorted(set(values) - {0}):
            places = [str(i + 1) for i, value in enumerate(values) if value == digit]
            if len(places) > 1:
                problems.append(f"{label} has {digit} {len(places)} times ({across} "
                                f"{', '.join(places)})")
    return problems


# ---------------------------------------------------------------- 4. pictures


def render_text(instance: LatinSquareInstance,
                solution: LatinSquareSolution | None = None) -> str:
    """The grid for a terminal; ``.`` marks a cell not known."""
    grid = instance.givens if solution is None else solution.grid
    return "".join(" ".join(str(v) if v else "." for v in row) + "\n" for row in grid)


def render_svg(instance: LatinSquareInstance,
               solution: LatinSquareSolution | None = None) -> str:
    """Givens in bold black, solved digits in blue, with :mod:`puzzles.svg`."""
    n, grid = instance.size, instance.givens if solution is None else solution.grid
    body = [svg.text(svg.MARGIN + (c + 0.5) * svg.CELL, svg.MARGIN + (r + 0.5) * svg.CELL,
                     str(grid[r][c]), svg.CELL * 0.55,
                     "black" if instance.givens[r][c] else "#1f5fbf",
                     bold=instance.givens[r][c] != 0)
            for r in range(n) for c in range(n) if grid[r][c]]
    side = n * svg.CELL + 2 * svg.MARGIN
    return svg.document(side, side, body + svg.grid_lines(n, n))


# ---------------------------------------------------------------- 5. the generator


def random_square(n: int, rng: random.Random) -> Grid:
    """The cyclic square ``(r + c) mod n`` with its rows, columns and digits shuffled (not
    every Latin square can come out, which a test puzzle does not need)."""
    rows, columns, digits = (rng.sample(range(n), n) for _ in range(3))
    return tuple(tuple(digits[(rows[r] + columns[c]) % n] + 1 for c in range(n))
                 for r in range(n))


def generate(n: int, clues: int, rng: random.Random, name: str,
             is_unique: Callable[[LatinSquareInstance], bool] | None = None
             ) -> LatinSquareInstance | None:
    """A random square (the known solution) and ``clues`` of its cells as givens: read off
    at random, or, given ``is_unique``, taken away one at a time while it holds (None when
    no further clue can go above ``clues``)."""
    known = LatinSquareSolution(random_square(n, rng))
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    if is_unique is None:
        kept = set(cells[:clues])
        return LatinSquareInstance(name, tuple(
            tuple(v if (r, c) in kept else 0 for c, v in enumerate(row))
            for r, row in enumerate(known.grid)), known)
    givens, left = [list(row) for row in known.grid], n * n
    instance = LatinSquareInstance(name, known.grid, known)
    for r, c in cells:
        if left <= clues:
            break
        digit, givens[r][c] = givens[r][c], 0
        candidate = LatinSquareInstance(name, tuple(map(tuple, givens)), known)
        if is_unique(candidate):
            instance, left = candidate, left - 1
        else:
            givens[r][c] = digit
    return instance if left <= clues else None  # the instance tested last: its answer is kept


# ---------------------------------------------------------------- 6. the kind


def solution_to_json(solution: LatinSquareSolution) -> list[list[int]]:
    """Rows of digits, as ``puzzlelab solve --json`` prints them and the store keeps them."""
    return [list(row) for row in solution.grid]


def solution_from_json(data: object) -> LatinSquareSolution:
    """The solution :func:`solution_to_json` printed as ``data``."""
    return LatinSquareSolution(number_rows(data, "a Latin square solution"))


class LatinSquare(PuzzleKind[LatinSquareInstance, LatinSquareSolution]):
    """Latin squares on the puzzle contract: the roles are the functions above, by name
    (``parse``, ``read``, ``write``, ``check``, ``render_text``, ``render_svg``,
    ``solution_to_json``, ``solution_from_json``); an instance's ``name`` and
    ``known_solution`` are the contract's defaults."""

    name = "latin-square"
    suffixes = (".latin",)
    generator_options: ClassVar[Mapping[str, Option]] = {
        "size": Option(4, help="side n of the grid (digits 1..n)", low=2, high=5, tag="n"),
        "clues": Option(None, help="givens to keep; by default half the cells, rounded up",
                        value_type=int, low=0, tag="clues"),
    }

    def __init__(self, data: Path) -> None:
        self.data = data

    def data_folder(self) -> Path:
        return self.data  # a real puzzle keeps the base's puzzles/data/<name>/

    def derived_options(self, values: OptionValues) -> OptionValues:
        cells = values.integer("size") ** 2
        if "clues" not in values:
            return values.replaced(clues=(cells + 1) // 2)
        if values.integer("clues") > cells:
            raise OptionError(f"--clues must be at most {cells} for size {values['size']}, "
                              f"not {values['clues']}")
        return values

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[LatinSquareInstance], bool] | None = None, *,
                 another_solution: Callable[[LatinSquareInstance], LatinSquareSolution | None]
                 | None = None) -> LatinSquareInstance | None:
        return generate(options.integer("size"), options.integer("clues"), rng, name,
                        is_unique)


# ---------------------------------------------------------------- 7. viewpoints and defaults

ALLDIFF = Option("weak", ("weak", "strong"),
                 "all_different propagation: weak (value-based) or strong (bounds/domain)")


def cells_viewpoint(instance: LatinSquareInstance,
                    alldiff: Strength) -> BuiltModel[LatinSquareSolution]:
    """Cell -> digit: one variable per cell, all_different on every row and column.

    Variables: ``cell[r][c]`` in 1..n, the digit at row r, column c; a given fixes it.
    Constraints: all_different over each row and over each column (option ``alldiff``).
    Search: the cells in row-major order.
    """
    n = instance.size
    model = Model(f"latin-square-cells-{instance.name}")
    cells = [[model.int_var(g or 1, g or n, f"cell_{r}_{c}")
              for c, g in enumerate(row)] for r, row in enumerate(instance.givens)]
    for r in range(n):
        model.add(all_different(cells[r], alldiff))
    for c in range(n):
        model.add(all_different((cells[r][c] for r in range(n)), alldiff))
    model.branch_on([v for row in cells for v in row])

    def decode(assignment: Assignment) -> LatinSquareSolution:
        return LatinSquareSolution(tuple(tuple(assignment[v] for v in row) for row in cells))

    return BuiltModel(model, decode)


def boolean_viewpoint(instance: LatinSquareInstance) -> BuiltModel[LatinSquareSolution]:
    """One-hot: ``x[r][c][d]`` is 1 when cell (r, c) holds digit d + 1.

    Constraints: exactly one per cell, per row and digit, and per column and digit; a
    given fixes its cell's Booleans. Search: the Booleans cell by cell.
    """
    n = instance.size
    model = Model(f"latin-square-boolean-{instance.name}")
    ones = [[[model.int_var(int(g == d + 1), int(g == d + 1), f"x_{r}_{c}_{d}") if g
              else model.bool_var(f"x_{r}_{c}_{d}") for d in range(n)]
             for c, g in enumerate(row)] for r, row in enumerate(instance.givens)]
    for i in range(n):
        for j in range(n):
            model.add(exactly_one(ones[i][j]))  # cell (i, j)
            model.add(exactly_one(ones[i][c][j] for c in range(n)))  # digit j + 1 in row i
            model.add(exactly_one(ones[r][i][j] for r in range(n)))  # ... in column i
    model.branch_on([v for row in ones for cell in row for v in cell])

    def decode(assignment: Assignment) -> LatinSquareSolution:
        return LatinSquareSolution(tuple(
            tuple(next(d + 1 for d, x in enumerate(cell) if assignment[x]) for cell in row)
            for row in ones))

    return BuiltModel(model, decode)


# what @viewpoint("latin-square", "cells", {"alldiff": ALLDIFF}) and set_defaults(...) add
VIEWPOINT_ENTRIES = [Viewpoint("latin-square", "cells", cells_viewpoint, {"alldiff": ALLDIFF}),
                     Viewpoint("latin-square", "boolean", boolean_viewpoint)]
PUZZLE_DEFAULTS = Defaults(viewpoint="cells", solver="cp", heuristic="first-fail/min")

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


@pytest.mark.parametrize(("text", "where", "message"), [
    ("", "<string>", "no puzzle found"),
    ("three\n1 . .\n", "<string>:1", "expected a block header '== name'"),
    ("== a\n1 . .\n. 2\n", "<string>:3", "row 2 has 2 entries, expected 3"),
    ("== a\n1 . .\n. 2 . 3\n", "<string>:3:7", "row 2 has 4 entries, expected 3"),
    ("== a\n1 . .\n. 4 .\n", "<string>:3:3", "4 is outside 1..3"),
    ("== a\n1 . .\n. x .\n", "<string>:3:3", "expected a digit or '.', found 'x'"),
    ("== a\n1 . .\n. . 1\n1 . .\n", "<string>:4:1", "1 stands twice in column 1 (also at "
                                                    "line 2, column 1)"),
    ("== a\n1 . .\n", "<string>:2", "unexpected end of input: expected row 2 of 3"),
    ("== a\n1 .\n== b\n", "<string>:3", "expected row 2 of 2, found '== b'"),
    ("== a\n1\n# again\n== a\n1\n", "<string>:4", "a second instance named 'a' (the first "
                                                  "is on line 1)"),
    ("== a\n1 .\n. .\nsolution:\n1 2\n1 2\n", "<string>:6:1", "1 stands twice in column 1"),
    ("== a\n1 .\n. .\nsolution:\n1 .\n", "<string>:5:3", "expected a digit, found '.'"),
    ("== a\n1 .\n. .\nsolution:\n2 1\n1 2\n", "<string>:4", "the solution of 'a' is not one: "
                                                           "cell (1, 1) is 2, the given is 1"),
])
def test_bad_input_is_an_error_naming_file_line_and_column(text: str, where: str,
                                                             message: str) -> None:
    with pytest.raises(ParseError) as raised:
        parse(text)
    assert str(raised.value).startswith(f"{where}: {message}")


def test_a_missing_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match=r"nowhere\.latin: no such file"):
        read(tmp_path / "nowhere.latin")


def test_the_checker_lists_every_broken_rule() -> None:
    [three, _] = parse(SMALL)
    assert three.known_solution is not None and check(three, three.known_solution) == []
    wrong = LatinSquareSolution(((2, 2, 3), (3, 1, 4), (2, 3, 1)))
    assert check(three, wrong) == [
        "cell (1, 1) is 2, the given is 1", "cell (2, 3) holds 4, outside 1..3",
        "row 1 has 2 2 times (columns 1, 2)", "column 1 has 2 2 times (rows 1, 3)"]
    assert check(three, LatinSquareSolution(((1, 2), (2, 1)))) == [
        "the grid must be 3x3, got rows of lengths [2, 2]"]


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
    registries.test_every_viewpoint_is_of_a_registered_puzzle()
    registries.test_every_puzzle_with_viewpoints_has_defaults()


def test_generator_options_are_checked(latin_square: LatinSquare) -> None:
    assert dict(latin_square.resolve_generator_options({"size": "3"})) == {"size": 3,
                                                                          "clues": 5}
    with pytest.raises(OptionError, match="--clues must be at most 4 for size 2, not 5"):
        latin_square.resolve_generator_options({"size": 2, "clues": 5})
    with pytest.raises(OptionError, match="--size must be an integer from 2 to 5, not '9'"):
        latin_square.resolve_generator_options({"size": "9"})


@pytest.mark.parametrize("backend", BACKENDS.names())
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
        run = solve_instance(latin_square.name, four, viewpoint, "cpsat", "auto", options,
                             max_solutions=None)
        assert run.result.complete and run.result.statistics.solutions == 1
        assert run.correct and check(four, run.solution) == []
        assert run.solution == four.known_solution and run.known_solution_matches


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
        run = solve_instance(latin_square.name, instance, "boolean", "cpsat", "auto",
                             max_solutions=None)
        assert run.result.complete and run.result.statistics.solutions == 1
        assert run.solution == instance.known_solution


def test_the_command_line_lists_and_solves_it(latin_square: LatinSquare, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(monkeypatch, capsys, "list")
    assert code == 0 and "latin-square  (default: cells, cp, first-fail/min)" in out
    assert "viewpoint cells: Cell -> digit" in out and "viewpoint boolean: One-hot" in out
    assert "generate --size: integer, from 2 to 5 (default 4)" in out
    file = latin_square.data_folder() / "small" / "small.latin"
    code, out, _ = run_cli(monkeypatch, capsys, "solve", "latin-square", str(file),
                           "--instance", "four", "--json")
    result = json.loads(out)
    assert code == 0 and result["status"] == "solved" and result["check"] == []
    assert result["viewpoint"] == "cells" and result["solution"][0] == [2, 4, 3, 1]
    code, out, _ = run_cli(monkeypatch, capsys, "generate", "latin-square", "--size", "3",
                           "--unique", "--output", str(tmp_path))
    assert code == 0 and (tmp_path / "latin-square-n3-clues5-s0-1.latin").is_file()
