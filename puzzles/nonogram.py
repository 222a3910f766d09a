"""Black-and-white nonograms: clues, the ``.non`` and MiniZinc ``.dzn`` formats, checker, pictures.

A nonogram has a clue per row and per column: the lengths of its blocks of filled
cells, in order, separated by at least one blank. A solution is a grid of 0
(blank) and 1 (filled) whose every line has exactly its clue's blocks.

``.non`` (Simpson's format): keyword lines (``width``, ``height``, ``title``, ``by``,
``copyright``, ``catalogue``, ``goal "0101..."``), then ``rows`` and ``columns``
each followed by one clue line per line (``2,1`` or ``0`` for an empty line).
``.dzn`` (MiniZinc benchmarks): ``X`` rows, ``Y`` columns, and ``rows`` / ``cols``
as 0/1 patterns padded with -1 (runs of 1 are the blocks); a companion ``.out``
file (``A = array2d(...)``, 2 = filled) gives the known solution. Pattern's game IDs
(``5x5:3/2/...``, one a line) are read and written by :mod:`puzzles.nonogram_game_ids`.

>>> puzzle = parse_non("width 2\\nheight 2\\nrows\\n1\\n1\\ncolumns\\n1\\n1\\n")[0]
>>> check(puzzle, NonogramSolution(((1, 0), (0, 1))))
[]
>>> check(puzzle, NonogramSolution(((1, 1), (0, 0))))[0]
'row 1 has blocks 2, its clue is 1'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from puzzlelab.errors import ParseError
from puzzlelab.wording import counted
from puzzles.game_ids import holds_game_ids, read_game_ids
from puzzles.json_forms import number_rows
from puzzles.kind import PuzzleKind, register
from puzzles.nonogram_formats import Clue, ClueFile, blocks_of, read_dzn, read_non, read_out
from puzzles.nonogram_game_ids import pattern_game_id, read_pattern
from puzzles.nonogram_pictures import cell_box, render_svg, render_text
from puzzles.nonogram_types import NonogramInstance, NonogramSolution
from puzzles.options import Option, OptionValues, Size
from puzzles.svg import Box
from puzzles.text_input import content_lines, read_text

__all__ = ["Clue", "NonogramInstance", "NonogramSolution", "blocks_of", "check", "clues_of",
           "format_non", "load", "parse", "parse_dzn", "parse_non", "random_instance",
           "read", "render_svg", "render_text", "solution_to_json"]


def validate(name: str, rows: Sequence[Clue], columns: Sequence[Clue], source: str,
             lines: dict[str, int] | None = None) -> None:
    """Raise ``ParseError`` for clues no picture can satisfy (too long, totals differ)."""
    lines = lines or {}
    for kind, clues, length in (("row", rows, len(columns)), ("column", columns, len(rows))):
        for index, clue in enumerate(clues):
            if any(block <= 0 for block in clue):
                raise ParseError(f"{kind} {index + 1}: block lengths must be positive",
                                 source=source, line=lines.get(f"{kind}{index}"))
            needed = sum(clue) + len(clue) - 1
            if clue and needed > length:
                raise ParseError(f"{kind} {index + 1}: clue {','.join(map(str, clue))} needs "
                                 f"{needed} cells but the {kind} has {length}", source=source,
                                 line=lines.get(f"{kind}{index}"))
    row_total, column_total = sum(map(sum, rows)), sum(map(sum, columns))
    if row_total != column_total:
        raise ParseError(f"{name}: the row clues{_spanned(lines, 'row', len(rows))} fill "
                         f"{counted(row_total, 'cell')} but the column clues"
                         f"{_spanned(lines, 'column', len(columns))} fill {column_total}",
                         source=source, line=lines.get("row0"))


def _spanned(lines: dict[str, int], kind: str, count: int) -> str:
    """`` (lines 4-43)``: where a file gives a kind of clue, for a message about them all."""
    first, last = lines.get(f"{kind}0"), lines.get(f"{kind}{count - 1}")
    return "" if first is None or last is None else f" (lines {first}-{last})"


# ---------------------------------------------------------------- reading

def parse_non(text: str, source: str = "<string>",
              name: str = "nonogram") -> list[NonogramInstance]:
    """Read one puzzle in Simpson's ``.non`` format."""
    clues, sizes = read_non(text, source)
    for what, lines, count in (("rows", clues.row_lines, sizes["height"]),
                               ("columns", clues.column_lines, sizes["width"])):
        if len(lines) != count:
            closed = clues.closed_by_other.get(what)
            hint = (f" (line {closed[0]}, {closed[1]!r}, is read as a property and ends the "
                    f"section)" if closed else "")
            raise ParseError(f"'{what}' has {counted(len(lines), 'clue line')}, "
                             f"expected {count}{hint}", source=source,
                             line=lines[-1] if lines else clues.section_lines[what])
    instance = _instance(name, clues, source)
    if clues.goal is None:
        return [instance]
    goal = _goal(clues.goal, instance.width, instance.height, source, clues.goal_line)
    return [_with_known(instance, goal, "the goal picture", source, clues.goal_line)]


def parse_dzn(text: str, source: str = "<string>", name: str = "nonogram"
              ) -> list[NonogramInstance]:
    """Read one puzzle of the MiniZinc benchmarks' ``.dzn`` format (0/1 patterns)."""
    clues, sizes = read_dzn(text, source)
    for what, section, lines, count in (("rows", "rows", clues.row_lines, sizes["height"]),
                                        ("cols", "columns", clues.column_lines,
                                         sizes["width"])):
        if len(lines) != count:
            raise ParseError(f"'{what}' has {counted(len(lines), 'line')}, expected {count}",
                             source=source, line=lines[0] if lines else
                             clues.section_lines[section])
    return [_instance(name, clues, source)]


def _instance(name: str, clues: ClueFile, source: str) -> NonogramInstance:
    spots = {f"row{i}": line for i, line in enumerate(clues.row_lines)}
    spots |= {f"column{i}": line for i, line in enumerate(clues.column_lines)}
    validate(name, clues.rows, clues.columns, source, spots)
    properties = clues.properties
    return NonogramInstance(name, tuple(clues.rows), tuple(clues.columns), None,
                            properties.get("title", ""), properties.get("by", ""),
                            properties.get("copyright", ""))


def _with_known(instance: NonogramInstance, known: NonogramSolution, what: str,
                source: str, line: int | None = None) -> NonogramInstance:
    """``instance`` with its known solution, which must fit the clues."""
    wrong = check(instance, known)
    if wrong:
        raise ParseError(f"{what} does not fit the clues: {wrong[0]}", source=source,
                         line=line)
    return replace(instance, known_solution=known)


def _goal(cells: str, width: int, height: int, source: str, line: int | None
          ) -> NonogramSolution:
    if len(cells) != width * height:
        raise ParseError(f"goal must be {width * height} characters 0 or 1 ({height} rows "
                         f"of {width}), found {len(cells)}", source=source, line=line)
    values = [int(char) for char in cells]
    return NonogramSolution(tuple(tuple(values[r * width:(r + 1) * width])
                                  for r in range(height)))


# ---------------------------------------------------------------- files

def parse(text: str, source: str = "<string>") -> list[NonogramInstance]:
    """The puzzle of a ``.non`` text (``.dzn`` when ``source`` ends so), named after the
    file ``source`` names; or the puzzles of a text of Pattern's game IDs, one a line
    (:mod:`puzzles.nonogram_game_ids`), whatever its name."""
    lines = content_lines(text)
    if holds_game_ids(lines):
        return [_instance(game_id.name, read_pattern(game_id), source)
                for game_id in read_game_ids(lines, source, "nonogram")]
    name = Path(source).stem if source != "<string>" else "nonogram"
    if source.lower().endswith(".dzn"):
        return parse_dzn(text, source, name)
    return parse_non(text, source, name)


def read(path: Path) -> list[NonogramInstance]:
    """The puzzle of a ``.non`` or ``.dzn`` file (with its ``.out`` solution, if any), or
    the puzzles of a file of game IDs."""
    path = Path(path)
    instances = parse(read_text(path), str(path))
    if len(instances) > 1:
        return instances
    [instance] = instances
    if path.suffix.lower() == ".dzn":
        companion = path.with_suffix(".out")
        if companion.is_file():
            picture, line = read_out(read_text(companion), instance.height, instance.width,
                                     str(companion))
            instance = _with_known(instance, NonogramSolution(picture), "the solution",
                                   str(companion), line)
    return [instance]


def format_non(instance: NonogramInstance, solution: NonogramSolution | None = None) -> str:
    """The instance as a ``.non`` file (with ``goal`` when a solution is given)."""
    lines = [f'title "{instance.title or instance.name}"']
    if instance.author:
        lines.append(f'by "{instance.author}"')
    if instance.copyright:
        lines.append(f'copyright "{instance.copyright}"')
    lines += [f"width {instance.width}", f"height {instance.height}", "", "rows"]
    lines += [",".join(map(str, clue)) or "0" for clue in instance.rows]
    lines += ["", "columns"]
    lines += [",".join(map(str, clue)) or "0" for clue in instance.columns]
    if solution is not None:
        lines += ["", 'goal "' + "".join(str(v) for row in solution.grid for v in row) + '"']
    return "\n".join(lines) + "\n"


def clues_of(grid: Sequence[Sequence[int]], name: str) -> NonogramInstance:
    """The nonogram whose picture is ``grid`` (the picture kept as its known solution)."""
    rows = tuple(blocks_of(row) for row in grid)
    columns = tuple(blocks_of(column) for column in zip(*grid))
    picture = NonogramSolution(tuple(tuple(row) for row in grid))
    return NonogramInstance(name, rows, columns, picture)


def random_instance(height: int, width: int, density: float, rng: random.Random,
                    name: str) -> NonogramInstance:
    """A random picture (each cell filled with probability ``density``) and its clues.

    The picture is kept as the known solution; it need not be the only one (the
    generator in ``experiments`` checks uniqueness with a solver).
    """
    grid = [[int(rng.random() < density) for _ in range(width)] for _ in range(height)]
    return clues_of(grid, name)


# ---------------------------------------------------------------- checking

def check(instance: NonogramInstance, solution: NonogramSolution) -> list[str]:
    """Every violated rule: wrong grid size, a value other than 0/1, a line off its clue."""
    grid = solution.grid
    if len(grid) != instance.height or any(len(row) != instance.width for row in grid):
        return [f"the grid must be {instance.height} rows of {instance.width} cells"]
    problems = [f"cell ({r + 1}, {c + 1}) is {v}, not 0 or 1" for r, row in enumerate(grid)
                for c, v in enumerate(row) if v not in (0, 1)]
    if problems:
        return problems
    for kind, clues, lines in (("row", instance.rows, grid),
                               ("column", instance.columns, tuple(zip(*grid)))):
        for index, (clue, line) in enumerate(zip(clues, lines)):
            found = blocks_of(line)
            if found != clue:
                problems.append(f"{kind} {index + 1} has blocks "
                                f"{', '.join(map(str, found)) or 'none'}, its clue is "
                                f"{', '.join(map(str, clue)) or '0'}")
    return problems


def solution_to_json(solution: NonogramSolution) -> list[list[int]]:
    """Rows of 0/1, as ``puzzlelab solve --json`` prints them."""
    return [list(row) for row in solution.grid]


def solution_from_json(data: object) -> NonogramSolution:
    """The solution :func:`solution_to_json` printed as ``data``.

    >>> solution_from_json([[0, 1], [1, 1]]).grid
    ((0, 1), (1, 1))
    """
    rows = number_rows(data, "a Nonogram solution")
    if any(value not in (0, 1) for row in rows for value in row):
        raise ParseError("a Nonogram solution: every cell is 0 or 1", source="<json>")
    return NonogramSolution(rows)


class Nonogram(PuzzleKind[NonogramInstance, NonogramSolution]):
    """Nonograms on the puzzle contract: this module's functions, under the contract's names."""

    name = "nonogram"
    suffixes = (".non", ".dzn")
    generator_options: ClassVar[Mapping[str, Option]] = {
        "size": Option(Size(10, 10), help="rows and columns of the picture", low=1,
                       high=1000, tag=""),
        "density": Option(0.5, help="chance that a cell of the picture is filled", low=0.0,
                          high=1.0, strict=True, tag="d"),
    }

    write = staticmethod(format_non)  # the main format's writer keeps its format's name

    def game_id(self, instance: NonogramInstance) -> str:
        """Pattern's game ID (``WxH:...``): any nonogram."""
        return pattern_game_id(instance.rows, instance.columns)

    def instance_title(self, instance: NonogramInstance) -> str | None:
        return instance.title or None

    def cell_box(self, instance: NonogramInstance, row: int, column: int) -> Box:
        """Cells sit right of the row clues and below the column clues."""
        return cell_box(instance, row, column)

    def drawing_instance(self, solution: NonogramSolution) -> NonogramInstance | None:
        """The nonogram whose picture the solution is: its clues read off it."""
        grid = solution.grid
        if not grid or not grid[0] or any(len(row) != len(grid[0]) for row in grid):
            return None
        return clues_of(grid, "")

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[NonogramInstance], bool] | None = None, *,
                 another_solution: Callable[[NonogramInstance], NonogramSolution | None]
                 | None = None,
                 enough: Callable[[NonogramInstance], bool] | None = None,
                 reached: Callable[[NonogramInstance], None] | None = None
                 ) -> NonogramInstance:
        """A random picture; uniqueness is left to the caller, which draws again (clues
        follow from the picture, so there is nothing to take away one at a time)."""
        size = options.size("size")
        return random_instance(size.rows, size.columns, options.number("density"), rng, name)


NONOGRAM = register(Nonogram())


def load(path: str | Path, selector: str | int | None = None) -> NonogramInstance:
    """The puzzle of a file (a nonogram file holds one)."""
    return NONOGRAM.load(path, selector)
