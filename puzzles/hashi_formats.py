"""The syntax of Hashiwokakero files: text to islands and bridges with the lines they came from.

One file holds one instance in Coelho et al.'s ``.has`` form, or several in ``== name``
blocks (see ``puzzles/data/hashi/SOURCES.md``)::

    <rows> <cols> <islands>     (.has; a block may give "<rows> <cols>" alone)
    <rows lines of tokens: "0" or "-" empty, 1..8 an island's number>
    solution:                   (optional)
    <one bridge per line "r1 c1 r2 c2 k": 1-based cells of two islands, k = 1 or 2>

A block starts ``== <name>`` and may carry ``solutions_found:``, ``source:`` and
``problem:`` lines before the size (KU Leuven, puzzlekit); its solution may instead be
puzzlekit's grid: ``<rows> <cols>`` then a token per cell, ``1``/``2`` a cell under a
single/double horizontal bridge, ``a``/``b`` vertical, ``-`` none (or an island).
PuzzleLab writes the ``.has`` form, the instance named after the file, and keeps it in a
results store as a ``== name`` block of that form, which keeps the name. A file of
Bridges' game IDs, one a line (``7x7m2:3e3b2...``), is read too
(:mod:`puzzles.hashi_game_ids`). Whether bridges
obey the rules is judged by ``puzzles.hashi``, which builds the instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from puzzlelab.errors import ParseError
from puzzles.game_ids import holds_game_ids, read_game_ids
from puzzles.hashi_game_ids import read_bridges
from puzzles.text_input import Cursor, Token, check_side, content_lines, parse_int, shortened

Cell = tuple[int, int]
ReadBridge = tuple[Cell, Cell, int]  # 0-based cells, in the order the file gives them

_KEYWORDS = ("solutions_found:", "source:", "problem:")
_HORIZONTAL = {"1": 1, "2": 2}
_VERTICAL = {"a": 1, "b": 2}


@dataclass(frozen=True)
class ReadBlock:
    """One instance as the file gives it: islands by cell, bridges if solved."""

    name: str
    rows: int
    columns: int
    islands: dict[Cell, Token]  # each island's number, as the token that gives it
    bridges: list[ReadBridge] | None
    size_line: int  # where an instance that cannot be solved is blamed
    solution_line: int  # where a known solution that does not fit is blamed


def read_blocks(text: str, source: str) -> list[ReadBlock]:
    """Every instance of ``text`` in order; bad input raises ``ParseError`` (file:line:col)."""
    cursor = Cursor(content_lines(text), source)
    first = cursor.peek()
    if first is None:
        raise ParseError("no puzzle found (the input is empty or only comments)", source=source)
    if holds_game_ids(cursor.lines):
        return [ReadBlock(game_id.name, *read_bridges(game_id), None, game_id.line.number,
                          game_id.line.number)
                for game_id in read_game_ids(cursor.lines, source, "hashi")]
    if not first.text.startswith("=="):
        name = Path(source).stem if source != "<string>" else "hashi"
        block = _body(cursor, name)
        if not cursor.at_end():
            extra = cursor.next("the end")
            raise cursor.error(f"expected the end of the puzzle, found "
                               f"{shortened(extra.text.strip())}", extra)
        return [block]
    blocks: list[ReadBlock] = []
    seen: dict[str, int] = {}
    while not cursor.at_end():
        _, name = cursor.block_name(seen)
        blocks.append(_body(cursor, name))
    return blocks


def _body(cursor: Cursor, name: str) -> ReadBlock:
    while (following := cursor.peek()) is not None and \
            following.text.strip().startswith(_KEYWORDS):
        cursor.next("a keyword line")
    size_line = cursor.next("the size line '<rows> <cols> [<islands>]'")
    tokens = size_line.tokens()
    if len(tokens) not in (2, 3):
        raise cursor.error(f"expected the size line '<rows> <cols> [<islands>]', found "
                           f"{shortened(size_line.text.strip())}", size_line)
    numbers = [parse_int(token, cursor.source, "a number on the size line") for token in tokens]
    rows, columns = numbers[0], numbers[1]
    for token, side in zip(tokens[:2], (rows, columns), strict=True):
        if side < 1:
            raise cursor.error(f"a grid side must be at least 1, not {side}", token)
        check_side(side, cursor.source, token.line, token.column)
    islands: dict[Cell, Token] = {}
    for r, row in enumerate(cursor.grid_rows(rows, columns, "row")):
        for c, token in enumerate(row):
            if _island_value(token, cursor):
                islands[(r, c)] = token
    if len(numbers) == 3 and numbers[2] != len(islands):
        raise cursor.error(f"the size line announces {numbers[2]} islands, the grid has "
                           f"{len(islands)}", tokens[2])
    bridges, solution_line = None, size_line.number
    following = cursor.peek()
    if following is not None and following.text.strip() == "solution:":
        solution_line = cursor.next("solution:").number
        following = cursor.peek()
        if following is not None and len(following.tokens()) == 2:
            bridges = _bridge_grid(cursor, rows, columns, islands)
        else:
            bridges = _bridge_lines(cursor)
    return ReadBlock(name, rows, columns, islands, bridges, size_line.number, solution_line)


_CELLS = {"-": 0, **{str(value): value for value in range(9)}}
"""What a grid cell most often is: empty, or a number written plainly."""


def _island_value(token: Token, cursor: Cursor) -> int:
    """An island's number, 0 for an empty cell."""
    plain = _CELLS.get(token.text)
    if plain is not None:  # a 34x34 grid has 1,156 cells: the checks below only if need be
        return plain
    value = parse_int(token, cursor.source, "'-', 0 or an island's number")
    if not 0 <= value <= 8:
        raise cursor.error(f"an island's number must be from 1 to 8 (0 or '-' for an empty "
                           f"cell), not {value}", token)
    return value


def _bridge_lines(cursor: Cursor) -> list[ReadBridge]:
    """Lines ``r1 c1 r2 c2 k`` up to the next block; cells 1-based in the file."""
    bridges: list[ReadBridge] = []
    while (following := cursor.peek()) is not None and not following.text.startswith("=="):
        line = cursor.next("a bridge")
        tokens = line.tokens()
        if len(tokens) != 5:
            raise cursor.error(f"expected a bridge 'r1 c1 r2 c2 k', found "
                               f"{shortened(line.text.strip())}", line)
        r1, c1, r2, c2, count = (parse_int(token, cursor.source, "an integer in a bridge")
                                 for token in tokens)
        bridges.append(((r1 - 1, c1 - 1), (r2 - 1, c2 - 1), count))
    return bridges


def _bridge_grid(cursor: Cursor, rows: int, columns: int,
                 islands: dict[Cell, Token]) -> list[ReadBridge]:
    """Puzzlekit's solution grid as bridges: from each island, the bridge cells to its right
    and below, up to the island where they end."""
    size = cursor.next("the solution's size line")
    shape = [parse_int(token, cursor.source, "a grid side") for token in size.tokens()]
    if shape != [rows, columns]:
        raise cursor.error(f"the solution is {shape[0]}x{shape[1]}, the puzzle "
                           f"{rows}x{columns}", size)
    grid = cursor.grid_rows(rows, columns, "solution row")
    for r, tokens in enumerate(grid):
        for c, token in enumerate(tokens):
            allowed = ("-",) if (r, c) in islands else ("-", "1", "2", "a", "b")
            if token.text not in allowed:
                where = "an island's cell" if (r, c) in islands else "a solution cell"
                raise cursor.error(f"expected {' or '.join(map(repr, allowed))} in {where}, "
                                   f"found {shortened(token.text)}", token)
    bridges: list[ReadBridge] = []
    covered: set[Cell] = set()
    for (r, c) in islands:
        for step, kinds in (((0, 1), _HORIZONTAL), ((1, 0), _VERTICAL)):
            cells = []
            row, column = r + step[0], c + step[1]
            while row < rows and column < columns and (row, column) not in islands:
                cells.append((row, column))
                row, column = row + step[0], column + step[1]
            if not cells or grid[cells[0][0]][cells[0][1]].text not in kinds:
                continue
            start = grid[cells[0][0]][cells[0][1]]
            for cell in cells:
                token = grid[cell[0]][cell[1]]
                if token.text != start.text:
                    raise cursor.error(f"the bridge starting at {start.text!r} breaks off: "
                                       f"found {shortened(token.text)}", token)
            if (row, column) not in islands:
                raise cursor.error("the bridge starting here reaches the edge of the grid, "
                                   "not an island", start)
            covered.update(cells)
            bridges.append(((r, c), (row, column), kinds[start.text]))
    for r, row_tokens in enumerate(grid):
        for c, token in enumerate(row_tokens):
            if token.text != "-" and (r, c) not in covered:
                raise cursor.error(f"the bridge cell {shortened(token.text)} does not lie on a "
                                   f"bridge from an island (one to the left or above)", token)
    return bridges


def write_has(rows: int, columns: int, values: dict[Cell, int],
              bridges: list[ReadBridge] | None = None) -> str:
    """The ``.has`` text: size and island count, the rows, and the bridges when given."""
    width = max(len(str(value)) for value in values.values()) if values else 1
    lines = [f"{rows} {columns} {len(values)}"]
    lines += [" ".join(f"{values.get((r, c), 0):>{width}}" for c in range(columns))
              for r in range(rows)]
    if bridges is not None:
        lines.append("solution:")
        lines += [f"{a[0] + 1} {a[1] + 1} {b[0] + 1} {b[1] + 1} {count}"
                  for a, b, count in bridges]
    return "\n".join(lines) + "\n"

