"""The syntax of nonogram files: Simpson's ``.non`` and the MiniZinc ``.dzn`` / ``.out``.

These readers turn text into clues with the line each came from, and refuse
anything they cannot read unambiguously (file and line named). Whether the clues
make a puzzle (blocks that fit, equal totals, a goal that fits) is checked by
``puzzles.nonogram``, which builds the instances.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

from puzzlelab.errors import ParseError
from puzzlelab.wording import counted
from puzzles.text_input import (
    check_side,
    integer,
    is_integer,
    last_line,
    line_number_at,
    shortened,
)

Clue = tuple[int, ...]
Grid = tuple[tuple[int, ...], ...]


@dataclass
class ClueFile:
    """What a nonogram file says, with the 1-based line of each clue."""

    rows: list[Clue] = field(default_factory=list)
    columns: list[Clue] = field(default_factory=list)
    row_lines: list[int] = field(default_factory=list)
    column_lines: list[int] = field(default_factory=list)
    goal: str | None = None  # "0101...", row after row
    goal_line: int | None = None
    properties: dict[str, str] = field(default_factory=dict)  # title, by, copyright, ...
    #: a section closed by a word the format leaves to other uses: its line and text
    closed_by_other: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: the line that opens each section (``rows``, ``columns``): blamed when it holds no clue
    section_lines: dict[str, int] = field(default_factory=dict)


def blocks_of(line: Sequence[int]) -> Clue:
    """The block lengths of a 0/1 line: ``blocks_of([1, 1, 0, 1]) == (2, 1)``."""
    return tuple(length for _, length in block_runs(line))


def block_runs(line: Sequence[int]) -> list[tuple[int, int]]:
    """(first cell, length) of each block of a 0/1 line:
    ``block_runs([1, 1, 0, 1]) == [(0, 2), (3, 1)]``."""
    runs, start = [], 0
    for value, group in groupby(line):
        length = len(list(group))
        if value:
            runs.append((start, length))
        start += length
    return runs


# ---------------------------------------------------------------- .non

_KEYWORD = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)(?:\s+(.*))?")
_CLUE_LINE = re.compile(r"[0-9][0-9,\s]*")
_CLUE_SEPARATOR = re.compile(r"\s*,\s*|\s+")
#: ``width``/``height`` and their synonyms ``columns N``/``rows N`` of the format
_SIZES = {"width": "width", "columns": "width", "height": "height", "rows": "height"}
_PROPERTIES = ("title", "by", "copyright", "catalogue", "license", "goal")


def read_non(text: str, source: str) -> tuple[ClueFile, dict[str, int]]:
    """The clues of a ``.non`` text, and the size keywords (``width``, ``height``).

    Keyword lines start with a word; ``rows`` and ``columns`` alone open a section of
    clue lines, which any other keyword line closes. Words the format defines for
    other uses (``color``, ``maxrule``, ...) are properties, kept nowhere. Each
    keyword and section may appear once.
    """
    clues = ClueFile()
    sizes: dict[str, int] = {}
    first_seen: dict[str, int] = {}
    section: str | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword = _KEYWORD.fullmatch(line)
        if keyword is None:
            if section is None:
                message = (f"clue line {shortened(line)} is outside the 'rows' and 'columns' "
                           f"sections"
                           if _CLUE_LINE.fullmatch(line) else
                           f"unexpected line {shortened(line)}: expected a keyword such as width, "
                           f"height, rows, columns or goal, or a clue line in a section")
                raise ParseError(message, source=source, line=number)
            _add_clue(clues, section, line, source, number)
            continue
        word, value = keyword.group(1).lower(), (keyword.group(2) or "").strip()
        if word in ("rows", "columns") and not value:
            section = word
        elif word not in _SIZES and word not in _PROPERTIES:
            if section is not None:
                clues.closed_by_other[section] = (number, line)
            section = None
            continue  # another property of the format: nothing a black-and-white puzzle uses
        else:
            section = None
        key = f"{word} section" if section else _SIZES.get(word, word)
        if key in first_seen:
            raise ParseError(f"a second {_described(key)} (the first is on line "
                             f"{first_seen[key]})", source=source, line=number)
        first_seen[key] = number
        if section:
            clues.section_lines[section] = number
        if word in _SIZES and not section:
            sizes[key] = _positive(value, source, number, key)
        elif word == "goal":
            clues.goal, clues.goal_line = _goal_cells(value, source, number), number
        elif not section:
            clues.properties[word] = value.strip('"')
    for needed, spelled in (("width", "'width N' (or 'columns N')"),
                            ("height", "'height N' (or 'rows N')"),
                            ("rows section", "'rows' section"),
                            ("columns section", "'columns' section")):
        if needed not in first_seen:
            raise ParseError(f"missing {spelled}: the file ends without one",
                             source=source, line=last_line(text))
    return clues, sizes


def _described(key: str) -> str:
    return f"'{key.split()[0]}' section" if key.endswith("section") else f"'{key}'"


def _add_clue(clues: ClueFile, section: str, line: str, source: str, number: int) -> None:
    """One clue line: block lengths separated by commas (``2,1``, ``2, 1``) or by spaces
    (``2 1``, as many collections write them); a lone ``0`` is an empty line."""
    parts = _CLUE_SEPARATOR.split(line)
    if not _CLUE_LINE.fullmatch(line):
        raise ParseError(f"bad clue line {shortened(line)}: expected block lengths such as '2,1' "
                         f"or '2 1' (or 0)", source=source, line=number)
    if not all(is_integer(part) for part in parts):  # digits: _CLUE_LINE has no '-'
        raise ParseError(f"bad clue {shortened(line)}: expected numbers separated by commas or "
                         f"spaces", source=source, line=number)
    values = tuple(integer(part, source, number) for part in parts)
    clue = () if values == (0,) else values
    if section == "rows":
        clues.rows.append(clue)
        clues.row_lines.append(number)
    else:
        clues.columns.append(clue)
        clues.column_lines.append(number)


def _positive(text: str, source: str, line: int, what: str) -> int:
    value = integer(text, source, line) if is_integer(text) else 0
    if value <= 0:
        raise ParseError(f"{what} must be a positive whole number, not {shortened(text)}",
                         source=source, line=line)
    return check_side(value, source, line, what=what)


def _goal_cells(value: str, source: str, line: int) -> str:
    """The goal's 0/1 string; ``puzzles.nonogram`` checks its length against the grid."""
    cells = value.strip('"')
    wrong = next((char for char in cells if char not in "01"), None)
    if wrong is not None:
        raise ParseError(f"goal holds {wrong!r}; it is a string of 0 and 1, row after row",
                         source=source, line=line)
    return cells


# ---------------------------------------------------------------- .dzn and .out

_STATEMENT = re.compile(r"\s*(\w+)\s*=(.*)", re.DOTALL)
_NEEDED = ("X", "Y", "rows", "cols")


def read_dzn(text: str, source: str) -> tuple[ClueFile, dict[str, int]]:
    """The clues of a MiniZinc ``.dzn`` text, and its sizes ``X`` (rows), ``Y`` (columns).

    ``rows`` and ``cols`` are 2-D arrays of 0/1 patterns, each row padded at its end
    with -1 to the array's width; runs of 1 in a pattern are the blocks, one 0 apart.
    """
    text = re.sub(r"%[^\n]*", lambda comment: " " * len(comment.group()), text)
    assignments: dict[str, tuple[str, int]] = {}
    start = 0
    for end in [match.start() for match in re.finditer(";", text)] + [len(text)]:
        statement = text[start:end]
        offset, start = start, end + 1
        if not statement.strip():
            continue
        match = _STATEMENT.fullmatch(statement)
        line = line_number_at(text, offset + len(statement) - len(statement.lstrip()))
        if match is None:
            raise ParseError(f"expected 'name = value;', found {shortened(statement.strip())}",
                             source=source, line=line)
        name, value = match.group(1), match.group(2)
        if end == len(text) or "=" in value:
            raise ParseError(f"missing ';' after the value of {name!r}", source=source,
                             line=line)
        if name in assignments:
            raise ParseError(f"{name!r} is assigned twice (first on line "
                             f"{line_number_at(text, assignments[name][1])})",
                             source=source, line=line)
        assignments[name] = (value, offset + match.start(2))
    for name in _NEEDED:
        if name not in assignments:
            raise ParseError(f"missing assignment '{name} = ...;': the file ends without "
                             f"one", source=source, line=last_line(text))
    sizes = {key: _positive(assignments[name][0].strip(), source,
                            line_number_at(text, assignments[name][1]), name)
             for key, name in (("height", "X"), ("width", "Y"))}
    clues = ClueFile()
    clues.rows, clues.row_lines = _patterns(text, "rows", *assignments["rows"], source)
    clues.columns, clues.column_lines = _patterns(text, "cols", *assignments["cols"], source)
    clues.section_lines = {section: line_number_at(text, assignments[name][1])
                           for section, name in (("rows", "rows"), ("columns", "cols"))}
    return clues, sizes


def _patterns(text: str, what: str, body: str, start: int, source: str
              ) -> tuple[list[Clue], list[int]]:
    """The clues of a ``[| ... |]`` array of 0/1 patterns, and the file line of each."""
    array = body.strip()
    opening = start + len(body) - len(body.lstrip())  # where the array starts
    if not (array.startswith("[|") and array.endswith("|]")):
        raise ParseError(f"'{what}' must be a 2-D array [| ... |]", source=source,
                         line=line_number_at(text, opening))
    clues, lines, widths = [], [], []
    for number, row in enumerate(re.finditer(r"\|\s*([^|]*)", array[:-2]), start=1):
        line = line_number_at(text, opening + row.start(1))
        words = row.group(1).replace(",", " ").split()
        if not all(is_integer(word) for word in words):
            raise ParseError(f"'{what}' row {number}: expected integers -1, 0 or 1",
                             source=source, line=line)
        cells = [integer(word, source, line) for word in words]
        if set(cells) - {-1, 0, 1}:
            raise ParseError(f"'{what}' row {number}: patterns hold only -1, 0 and 1",
                             source=source, line=line)
        pattern = cells[:cells.index(-1)] if -1 in cells else cells
        if any(cell != -1 for cell in cells[len(pattern):]):
            raise ParseError(f"'{what}' row {number}: -1 only pads the end of a pattern",
                             source=source, line=line)
        if pattern != [0] and re.search(r"^0|00|0$", "".join(map(str, pattern))):
            raise ParseError(f"'{what}' row {number}: a pattern is blocks of 1 with one 0 "
                             f"between them (or a lone 0 for an empty line), not "
                             f"{','.join(map(str, pattern))}", source=source, line=line)
        clues.append(blocks_of(pattern))
        lines.append(line)
        widths.append(len(cells))
    if len(set(widths)) > 1:
        bad = next(i for i, width in enumerate(widths) if width != widths[0])
        raise ParseError(f"'{what}' row {bad + 1} has {counted(widths[bad], 'value')}, row 1 has "
                         f"{widths[0]}: a 2-D array's rows are all as long", source=source,
                         line=lines[bad])
    return clues, lines


def read_out(text: str, height: int, width: int, source: str) -> tuple[Grid, int]:
    """The picture of a MiniZinc ``.out`` file (``A = array2d(..., [...])``, 2 = filled),
    with the line it starts on, so that a picture off its clues can be blamed there."""
    match = re.search(r"A\s*=\s*array2d\([^\[]*\[([^\]]*)\]", text)
    if not match:
        raise ParseError("expected 'A = array2d(1..X, 1..Y, [...])': the file ends "
                         "without one", source=source, line=last_line(text))
    line = line_number_at(text, match.start())
    words = match.group(1).replace(",", " ").split()
    if len(words) != width * height or set(words) - {"1", "2"}:
        raise ParseError(f"expected {width * height} values 1 or 2 in 'A'", source=source,
                         line=line)
    cells = [int(word == "2") for word in words]
    return tuple(tuple(cells[r * width:(r + 1) * width]) for r in range(height)), line
