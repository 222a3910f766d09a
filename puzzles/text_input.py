"""Reading puzzle text with positions, so every parse error names file, line and column."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from puzzlelab.errors import ParseError

_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Token:
    """A whitespace-separated word with its 1-based line and column."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class Line:
    """A meaningful line of input (not blank, not a ``#`` comment), 1-based."""

    number: int
    text: str

    def tokens(self) -> list[Token]:
        """The line's words with their columns."""
        return [Token(match.group(), self.number, match.start() + 1)
                for match in _TOKEN.finditer(self.text)]


_INTEGER = re.compile(r"-?[0-9]+")

MAX_DIGITS = 18
"""Digits a number in a puzzle file may have: sizes, clues and labels are far smaller,
any 18-digit number fits the solvers' 64-bit integers, and Python will not even
convert a number of more than 4,300 digits."""

MAX_SIDE = 1_000
"""The longest grid side a reader takes: a size line of a billion is refused where it
stands, not left to a model that runs out of memory (no generator goes past 1,000)."""


def read_text(path: Path) -> str:
    """The file's text with ``\\n`` line ends and no byte-order mark (Windows editors
    write both); a missing or binary file is a ``ParseError`` naming it (and, for bytes
    that are no UTF-8, the line they are on)."""
    try:
        return normalize_newlines(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ParseError("no such file", source=str(path)) from None
    except UnicodeDecodeError as error:
        before = normalize_newlines(error.object[:error.start].decode("latin-1"))
        line = before.count("\n") + 1
        raise ParseError(f"not a text file ({error.reason} at byte {error.start})",
                         source=str(path), line=line) from None
    except OSError as error:
        raise ParseError(f"cannot read the file: {error.strerror}", source=str(path)) from None


def normalize_newlines(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` as ``\\n``: the only line break the readers count
    (``str.splitlines`` would also break at form feeds and other separators)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def is_integer(text: str) -> bool:
    """True for ASCII digits, optionally after ``-``. ``int`` alone would also take
    ``+7``, ``1_0`` and other scripts' digits; ``str.isdigit`` takes ``²``, which
    ``int`` refuses."""
    return _INTEGER.fullmatch(text) is not None


def line_number_at(text: str, position: int) -> int:
    """The 1-based line of ``text`` that character ``position`` is on."""
    return text.count("\n", 0, position) + 1


def last_line(text: str) -> int:
    """The 1-based line of the last character that is not white space (1 if none):
    where a reader blames something the text lacks, as compilers blame the end."""
    return line_number_at(text, len(text.rstrip()))


def content_lines(text: str) -> list[Line]:
    """The lines that carry data: blank lines and ``#`` comments are dropped."""
    lines = []
    for number, raw in enumerate(normalize_newlines(text).split("\n"), start=1):
        stripped = raw.rstrip()
        if stripped.strip() and not stripped.lstrip().startswith("#"):
            lines.append(Line(number, stripped))
    return lines


def integer(text: str, source: str, line: int | None, column: int | None = None) -> int:
    """``text``, which :func:`is_integer` accepts, as an ``int``; a number of more than
    :data:`MAX_DIGITS` digits is a ``ParseError`` at ``line`` saying how long it is.

    >>> integer("-12", "a.txt", 3)
    -12
    >>> integer("9" * 10_000, "a.txt", 3)
    Traceback (most recent call last):
        ...
    puzzlelab.errors.ParseError: a.txt:3: a number of 10,000 digits (at most 18 are read)
    """
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ParseError(f"a number of {digits:,} digits (at most {MAX_DIGITS} are read)",
                         source=source, line=line, column=column)
    return int(text)


def parse_int(token: Token, source: str, what: str) -> int:
    """``token`` as an integer, or a ``ParseError`` saying which ``what`` was expected."""
    if not is_integer(token.text):
        raise ParseError(f"expected {what}, found {shortened(token.text)}", source=source,
                         line=token.line, column=token.column)
    return integer(token.text, source, token.line, token.column)


def check_side(side: int, source: str, line: int | None, column: int | None = None,
               what: str = "a grid side") -> int:
    """``side``, when it is at most :data:`MAX_SIDE`; else a ``ParseError`` at ``line``."""
    if side > MAX_SIDE:
        raise ParseError(f"{what} of {side:,} is more than the {MAX_SIDE:,} read",
                         source=source, line=line, column=column)
    return side


def shortened(text: str, most: int = 40) -> str:
    """``text`` quoted, cut in the middle when long: a message stays one readable line.

    >>> shortened("1" * 10_000, most=8)
    "'1111'...'11' (10,000 characters)"
    """
    if len(text) <= most:
        return repr(text)
    return f"{text[:most // 2]!r}...{text[-most // 4:]!r} ({len(text):,} characters)"


class Cursor:
    """Walks the content lines of one source, with errors located at the current line."""

    def __init__(self, lines: list[Line], source: str) -> None:
        self.lines = lines
        self.source = source
        self.position = 0

    def at_end(self) -> bool:
        """True when every line has been consumed."""
        return self.position >= len(self.lines)

    def peek(self) -> Line | None:
        """The next line, not consumed."""
        return None if self.at_end() else self.lines[self.position]

    def next(self, what: str) -> Line:
        """Consume the next line; the end of input is an error saying ``what`` was expected."""
        if self.at_end():
            last = self.lines[-1].number if self.lines else None
            raise ParseError(f"unexpected end of input: expected {what}", source=self.source,
                             line=last)
        line = self.lines[self.position]
        self.position += 1
        return line

    def block_name(self, seen: dict[str, int]) -> tuple[Line, str]:
        """The next ``== name`` line of a block format and its name, which must be new
        (``seen``: names read so far and their lines; this one is added)."""
        header = self.next("a '== name' line")
        if not header.text.startswith("=="):
            raise self.error(f"expected a '== name' line, found {shortened(header.text.strip())}",
                             header, 1)
        name = header.text[2:].strip()
        if not name:
            raise self.error("the '==' line gives no name", header)
        if name in seen:
            raise self.error(f"the name {name!r} is used twice (first on line {seen[name]})",
                             header)
        seen[name] = header.number
        return header, name

    def grid_rows(self, rows: int, columns: int, what: str) -> list[list[Token]]:
        """``rows`` lines of exactly ``columns`` tokens each (a grid of a block format,
        which a ``==`` name line or a ``solution:`` line may not cut short)."""
        grid = []
        for number in range(1, rows + 1):
            following = self.peek()
            if following is None or following.text.startswith("==") or \
                    following.text.strip() == "solution:":
                found = "the end" if following is None else shortened(following.text.strip())
                raise self.error(f"expected {what} {number} of {rows}, found {found}",
                                 following or self.lines[self.position - 1])
            line = self.next(f"{what} {number}")
            tokens = line.tokens()
            if len(tokens) != columns:
                raise self.error(f"{what} {number} has {len(tokens)} entries, expected "
                                 f"{columns}", line)
            grid.append(tokens)
        return grid

    def error(self, message: str, line: Line | Token | None = None,
              column: int | None = None) -> ParseError:
        """A ``ParseError`` at ``line`` (a token carries its column)."""
        if isinstance(line, Token):
            return ParseError(message, source=self.source, line=line.line,
                              column=column or line.column)
        return ParseError(message, source=self.source,
                          line=None if line is None else line.number, column=column)
