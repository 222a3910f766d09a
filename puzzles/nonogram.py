"""Black-and-white nonograms: clues, the ``.non`` and MiniZinc ``.dzn`` formats, checker, pictures.

A nonogram has a clue per row and per column: the lengths of its blocks of filled
cells, in order, separated by at least one blank. A solution is a grid of 0
(blank) and 1 (filled) whose every line has exactly its clue's blocks.

``.non`` (Simpson's format): keyword lines (``width``, ``height``, ``title``, ``by``,
``copyright``, ``catalogue``, ``goal "0101..."``), then ``rows`` and ``columns``
each followed by one clue line per line (``2,1`` or ``0`` for an empty line).
``.dzn`` (MiniZinc benchmarks): ``X`` rows, ``Y`` columns, and ``rows`` / ``cols``
as 0/1 patterns padded with -1 (runs of 1 are the blocks); a companion ``.out``
file (``A = array2d(...)``, 2 = filled) gives the known solution.

>>> puzzle = parse_non("width 2\\nheight 2\\nrows\\n1\\n1\\ncolumns\\n1\\n1\\n")[0]
>>> check(puzzle, NonogramSolution(((1, 0), (0, 1))))
[]
>>> check(puzzle, NonogramSolution(((1, 1), (0, 0))))[0]
'row 1 has blocks 2, its clue is 1'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from puzzlelab.errors import ParseError
from puzzles import svg
from puzzles.kind import PUZZLES, PuzzleKind
from puzzles.text_input import line_number_at, read_text

Clue = tuple[int, ...]
Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class NonogramSolution:
    """A picture: ``grid[r][c]`` is 1 for a filled cell, 0 for a blank one."""

    grid: Grid


@dataclass(frozen=True)
class NonogramInstance:
    """The clues of a nonogram (an empty clue ``()`` is an empty line)."""

    name: str
    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    known_solution: NonogramSolution | None = field(default=None, compare=False)
    title: str = field(default="", compare=False)
    author: str = field(default="", compare=False)
    copyright: str = field(default="", compare=False)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.columns)


def blocks_of(line: Sequence[int]) -> Clue:
    """The block lengths of a 0/1 line: ``blocks_of([1, 1, 0, 1]) == (2, 1)``."""
    return tuple(len(run) for run in "".join(map(str, line)).split("0") if run)


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
        raise ParseError(f"{name}: the row clues fill {row_total} cells but the column clues "
                         f"fill {column_total}", source=source)


# ---------------------------------------------------------------- .non format

_KEYWORD = re.compile(r"^\s*([A-Za-z]+)\s*(.*?)\s*$")
_TEXT_KEYS = ("title", "by", "copyright", "catalogue", "goal")


def parse_non(text: str, source: str = "<string>",
              name: str = "nonogram") -> list[NonogramInstance]:
    """Read one puzzle in Simpson's ``.non`` format."""
    lines = text.splitlines()
    keys: dict[str, str] = {}
    sizes: dict[str, int] = {}
    sections: dict[str, list[tuple[int, str]]] = {}
    current: list[tuple[int, str]] | None = None
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if current is not None and re.fullmatch(r"[\d,\s]+", stripped):
            current.append((number, stripped))
            continue
        match = _KEYWORD.match(stripped)
        word = match.group(1).lower() if match else ""
        if word in ("rows", "columns"):
            current = sections.setdefault(word, [])
            if match and match.group(2):
                raise ParseError(f"'{word}' takes no value", source=source, line=number)
        elif word in ("width", "height"):
            current = None
            sizes[word] = _number(match.group(2) if match else "", source, number, word)
        elif word in _TEXT_KEYS:
            current = None
            keys[word] = (match.group(2) if match else "").strip().strip('"')
            keys[f"{word}_line"] = str(number)
        elif current is not None:
            raise ParseError(f"bad clue line {stripped!r}: expected block lengths such as "
                             f"'2,1' (or 0)", source=source, line=number)
        else:
            current = None  # other keywords of the format (e.g. ``color``) carry nothing here
    for needed in ("width", "height", "rows", "columns"):
        if needed not in sizes and needed not in sections:
            raise ParseError(f"missing section '{needed}'", source=source)
    width, height = sizes["width"], sizes["height"]
    rows = _clue_lines(sections["rows"], height, "rows", source)
    columns = _clue_lines(sections["columns"], width, "columns", source)
    spots = {f"row{i}": sections["rows"][i][0] for i in range(height)}
    spots |= {f"column{i}": sections["columns"][i][0] for i in range(width)}
    validate(name, rows, columns, source, spots)
    goal = _goal(keys, width, height, source) if "goal" in keys else None
    instance = NonogramInstance(name, rows, columns, goal, keys.get("title", ""),
                                keys.get("by", ""), keys.get("copyright", ""))
    if goal is not None:
        wrong = check(instance, goal)
        if wrong:
            raise ParseError(f"the goal picture does not fit the clues: {wrong[0]}",
                             source=source, line=int(keys["goal_line"]))
    return [instance]


def _number(text: str, source: str, line: int, what: str) -> int:
    if not text.strip().isdigit() or int(text) <= 0:
        raise ParseError(f"{what} must be a positive whole number, not {text.strip()!r}",
                         source=source, line=line)
    return int(text)


def _clue_lines(lines: list[tuple[int, str]], count: int, what: str,
                source: str) -> tuple[Clue, ...]:
    if len(lines) != count:
        at = lines[-1][0] if lines else None
        raise ParseError(f"'{what}' has {len(lines)} clue lines, expected {count}",
                         source=source, line=at)
    clues = []
    for number, text in lines:
        parts = [p.strip() for p in text.split(",")]
        if not all(p.isdigit() for p in parts):
            raise ParseError(f"bad clue {text!r}: expected numbers separated by commas",
                             source=source, line=number)
        values = tuple(int(p) for p in parts)
        clues.append(() if values == (0,) else values)
    return tuple(clues)


def _goal(keys: dict[str, str], width: int, height: int, source: str) -> NonogramSolution:
    goal, line = keys["goal"], int(keys["goal_line"])
    if len(goal) != width * height or set(goal) - {"0", "1"}:
        raise ParseError(f"goal must be {width * height} characters 0 or 1, found "
                         f"{len(goal)}", source=source, line=line)
    cells = [int(ch) for ch in goal]
    return NonogramSolution(tuple(tuple(cells[r * width:(r + 1) * width])
                                  for r in range(height)))


# ---------------------------------------------------------------- .dzn format

_ASSIGNMENT = re.compile(r"(\w+)\s*=\s*(.*?);", re.DOTALL)


def parse_dzn(text: str, source: str = "<string>", name: str = "nonogram"
              ) -> list[NonogramInstance]:
    """Read one puzzle of the MiniZinc benchmarks' ``.dzn`` format (0/1 patterns)."""
    values = {m.group(1): m for m in _ASSIGNMENT.finditer(text)}
    for needed in ("X", "Y", "rows", "cols"):
        if needed not in values:
            raise ParseError(f"missing assignment '{needed} = ...;'", source=source)
    height, width = (_number(values[key].group(2), source,
                             line_number_at(text, values[key].start(2)), key) for key in ("X", "Y"))
    rows, row_lines = _patterns(text, values["rows"], height, source)
    columns, column_lines = _patterns(text, values["cols"], width, source)
    spots = {f"row{i}": line for i, line in enumerate(row_lines)}
    spots |= {f"column{i}": line for i, line in enumerate(column_lines)}
    validate(name, rows, columns, source, spots)
    return [NonogramInstance(name, rows, columns)]


def _patterns(text: str, assignment: re.Match[str], count: int, source: str
              ) -> tuple[tuple[Clue, ...], list[int]]:
    """The clues of a ``[| ... |]`` array of 0/1 patterns, and the file line of each."""
    what, body = assignment.group(1), assignment.group(2)
    array = body.strip()
    opening = assignment.start(2) + len(body) - len(body.lstrip())  # where array starts
    if not (array.startswith("[|") and array.endswith("|]")):
        raise ParseError(f"'{what}' must be a 2-D array [| ... |]", source=source,
                         line=line_number_at(text, opening))
    clues, lines = [], []
    for number, row in enumerate(re.finditer(r"\|\s*([^|]*)", array[:-2]), start=1):
        line = line_number_at(text, opening + row.start(1))
        try:
            cells = [int(v) for v in row.group(1).replace(",", " ").split()]
        except ValueError:
            raise ParseError(f"'{what}' row {number}: expected integers -1, 0 or 1",
                             source=source, line=line) from None
        if set(cells) - {-1, 0, 1}:
            raise ParseError(f"'{what}' row {number}: patterns hold only -1, 0 and 1",
                             source=source, line=line)
        clues.append(blocks_of([c for c in cells if c >= 0]))
        lines.append(line)
    if len(clues) != count:
        raise ParseError(f"'{what}' has {len(clues)} lines, expected {count}", source=source,
                         line=line_number_at(text, opening))
    return tuple(clues), lines


def parse_out(text: str, height: int, width: int, source: str) -> NonogramSolution:
    """The picture of a MiniZinc ``.out`` file: ``A = array2d(..., [...])``, 2 = filled."""
    match = re.search(r"A\s*=\s*array2d\([^\[]*\[([^\]]*)\]", text)
    if not match:
        raise ParseError("expected 'A = array2d(1..X, 1..Y, [...])'", source=source)
    cells = [int(v) for v in match.group(1).replace(",", " ").split()]
    if len(cells) != width * height or set(cells) - {1, 2}:
        raise ParseError(f"expected {width * height} values 1 or 2", source=source)
    return NonogramSolution(tuple(tuple(int(v == 2) for v in cells[r * width:(r + 1) * width])
                                  for r in range(height)))


# ---------------------------------------------------------------- files

def read_file(path: Path) -> list[NonogramInstance]:
    """The puzzle of a ``.non`` or ``.dzn`` file (with its ``.out`` solution, if any)."""
    path = Path(path)
    text = read_text(path)
    if path.suffix == ".dzn":
        [instance] = parse_dzn(text, str(path), path.stem)
        companion = path.with_suffix(".out")
        if companion.is_file():
            known = parse_out(read_text(companion), instance.height, instance.width,
                              str(companion))
            wrong = check(instance, known)
            if wrong:
                raise ParseError(f"the solution does not fit the clues: {wrong[0]}",
                                 source=str(companion))
            instance = NonogramInstance(instance.name, instance.rows, instance.columns, known)
        return [instance]
    return parse_non(text, str(path), path.stem)


def format_non(instance: NonogramInstance, solution: NonogramSolution | None = None) -> str:
    """The instance as a ``.non`` file (with ``goal`` when a solution is given)."""
    lines = [f'title "{instance.title or instance.name}"']
    if instance.author:
        lines.append(f'by "{instance.author}"')
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


# ---------------------------------------------------------------- checking and pictures

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


def render_text(instance: NonogramInstance, solution: NonogramSolution | None = None) -> str:
    """Column clues stacked on top, row clues on the left, ``#`` filled and ``.`` blank."""
    row_labels = [" ".join(map(str, clue)) or "0" for clue in instance.rows]
    left = max(map(len, row_labels))
    cell = max(2, max((len(str(b)) for clue in instance.columns for b in clue), default=1) + 1)
    depth = max((len(clue) for clue in instance.columns), default=1) or 1
    lines = []
    for level in range(depth):
        parts = []
        for clue in instance.columns:
            shown = clue or (0,)
            index = level - (depth - len(shown))
            parts.append(str(shown[index]).rjust(cell) if index >= 0 else " " * cell)
        lines.append(" " * (left + 1) + "".join(parts))
    for r, label in enumerate(row_labels):
        if solution is None:
            cells = "?" * instance.width
        else:
            cells = "".join("#" if v else "." for v in solution.grid[r])
        lines.append(label.rjust(left) + " " + "".join(ch.rjust(cell) for ch in cells))
    return "\n".join(lines) + "\n"


def render_svg(instance: NonogramInstance, solution: NonogramSolution | None = None) -> str:
    """An SVG picture with the clues along the top and left edges."""
    size = svg.CELL * 0.6
    clue_size = size * 0.6
    left = max((len(clue) for clue in instance.rows), default=1) * clue_size + svg.MARGIN
    top = max((len(clue) for clue in instance.columns), default=1) * clue_size + svg.MARGIN
    body = []
    for r, clue in enumerate(instance.rows):
        for k, block in enumerate(reversed(clue or (0,))):
            body.append(svg.text(left - (k + 0.5) * clue_size, top + (r + 0.5) * size,
                                 str(block), clue_size * 0.7))
    for c, clue in enumerate(instance.columns):
        for k, block in enumerate(reversed(clue or (0,))):
            body.append(svg.text(left + (c + 0.5) * size, top - (k + 0.5) * clue_size,
                                 str(block), clue_size * 0.7))
    if solution is not None:
        for r, row in enumerate(solution.grid):
            body += [svg.rectangle(left + c * size, top + r * size, size, size, "#222")
                     for c, v in enumerate(row) if v]
    body += [f'<g transform="translate({left:g},{top:g})">',
             *svg.grid_lines(instance.height, instance.width, 5, origin=0, cell=size), "</g>"]
    return svg.document(left + instance.width * size + svg.MARGIN,
                        top + instance.height * size + svg.MARGIN, body)


def solution_to_json(solution: NonogramSolution) -> list[list[int]]:
    """Rows of 0/1, as ``puzzlelab solve --json`` prints them."""
    return [list(row) for row in solution.grid]


NONOGRAM = PuzzleKind(name="nonogram", read_file=read_file, check=check,
                      render_text=render_text, render_svg=render_svg,
                      solution_to_json=solution_to_json,
                      instance_name=lambda instance: instance.name,
                      known_solution=lambda instance: instance.known_solution)
PUZZLES.add("nonogram", NONOGRAM)


def load(path: str | Path, selector: str | int | None = None) -> NonogramInstance:
    """The puzzle of a file (a nonogram file holds one)."""
    return NONOGRAM.load(path, selector)
