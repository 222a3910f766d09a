"""The syntax of Shikaku files: blocks of text to grids with the lines they came from, and back.

One format, in two spellings (see ``puzzles/data/shikaku/SOURCES.md``), per instance::

    == <name>
    source: <address>        (optional, puzzlekit)
    problem:                 (optional, puzzlekit)
    <rows> <cols>
    <rows lines of tokens: "-" empty, an integer is a clue>
    solution:                (optional)
    <rows> <cols>
    <rows lines of room labels: equal labels, one room; "-" a cell in no room>

PuzzleLab writes the spelling without ``problem:``. A file of Rect's game IDs, one a
line (``7x7:b3a2...``), is read too (:mod:`puzzles.shikaku_game_ids`). Whether a solution fits its
clues is judged by ``puzzles.shikaku``, which builds the instances.
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzlelab.errors import ParseError
from puzzles.game_ids import holds_game_ids, read_game_ids
from puzzles.shikaku_game_ids import read_rect
from puzzles.text_input import (
    Cursor,
    Line,
    Token,
    check_side,
    content_lines,
    parse_int,
    shortened,
)

Labels = list[list[int | None]]


@dataclass(frozen=True)
class ReadBlock:
    """One instance as the file gives it: clues by rows (0 no clue), labels if solved."""

    name: str
    clues: list[list[int]]
    solution: Labels | None
    line: int  # the "== name" line
    size_line: int  # where clues that cannot fill the grid are blamed
    solution_line: int  # where a known solution that does not fit is blamed


def read_blocks(text: str, source: str) -> list[ReadBlock]:
    """Every block of ``text`` in order; bad input raises ``ParseError`` (file:line:col)."""
    cursor = Cursor(content_lines(text), source)
    if cursor.at_end():
        raise ParseError("no puzzle found (the input is empty or only comments)", source=source)
    if holds_game_ids(cursor.lines):
        return [ReadBlock(game_id.name, read_rect(game_id), None, game_id.line.number,
                          game_id.line.number, game_id.line.number)
                for game_id in read_game_ids(cursor.lines, source, "shikaku")]
    blocks: list[ReadBlock] = []
    seen: dict[str, int] = {}
    while not cursor.at_end():
        header, name = cursor.block_name(seen)
        _skip_keyword(cursor, "source:")
        _skip_keyword(cursor, "problem:")
        size_line, rows, columns = _size(cursor, "the size line '<rows> <cols>'")
        clues = [[_clue(token, cursor, rows * columns) for token in tokens]
                 for tokens in cursor.grid_rows(rows, columns, "row")]
        solution, solution_line = None, size_line.number
        following = cursor.peek()
        if following is not None and following.text.strip() == "solution:":
            solution_line = cursor.next("solution:").number
            size, solution_rows, solution_columns = _size(cursor, "the solution's size line")
            if (solution_rows, solution_columns) != (rows, columns):
                raise cursor.error(f"the solution is {solution_rows}x{solution_columns}, the "
                                   f"puzzle {rows}x{columns}", size)
            solution = [[_label(token, cursor) for token in tokens]
                        for tokens in cursor.grid_rows(rows, columns, "solution row")]
        blocks.append(ReadBlock(name, clues, solution, header.number, size_line.number,
                                solution_line))
    return blocks


def _skip_keyword(cursor: Cursor, keyword: str) -> None:
    following = cursor.peek()
    if following is not None and following.text.strip().startswith(keyword):
        cursor.next(keyword)


def _size(cursor: Cursor, what: str) -> tuple[Line, int, int]:
    line = cursor.next(what)
    tokens = line.tokens()
    if len(tokens) != 2:
        raise cursor.error(f"expected {what}, found {shortened(line.text.strip())}", line)
    rows, columns = (parse_int(token, cursor.source, "a grid side") for token in tokens)
    for token, side in zip(tokens, (rows, columns), strict=True):
        if side < 1:
            raise cursor.error(f"a grid side must be at least 1, not {side}", token)
        check_side(side, cursor.source, token.line, token.column)
    return line, rows, columns


def _clue(token: Token, cursor: Cursor, cells: int) -> int:
    if token.text == "-":
        return 0
    clue = parse_int(token, cursor.source, "'-' or a clue (an area)")
    if not 1 <= clue <= cells:
        raise cursor.error(f"a clue must be from 1 to {cells} (the cells of the grid), "
                           f"not {clue}", token)
    return clue


def _label(token: Token, cursor: Cursor) -> int | None:
    if token.text == "-":
        return None
    return parse_int(token, cursor.source, "a room label (an integer) or '-'")


def write_block(name: str, clues: tuple[tuple[int, ...], ...],
                solution: tuple[tuple[int | None, ...], ...] | None = None) -> str:
    """The block PuzzleLab writes: name, size, clue rows, and the solution when given."""
    rows, columns = len(clues), len(clues[0])
    lines = [f"== {name}", f"{rows} {columns}"]
    lines += [" ".join(str(clue) if clue else "-" for clue in row) for row in clues]
    if solution is not None:
        lines += ["solution:", f"{rows} {columns}"]
        lines += [" ".join("-" if label is None else str(label) for label in row)
                  for row in solution]
    return "\n".join(lines) + "\n"
