"""Errors that point at the spec's line: where a key, or one item of its array, is
written in the TOML text.

``tomllib`` gives values but no positions, so an error about ``viewpoints[3]``
would otherwise point at the line where ``viewpoints =`` starts, which is not
the line to fix when the array spans several lines. This module scans just
enough TOML (strings, comments, nested brackets) to find the item.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

from puzzlelab.errors import SpecError
from puzzles.text_input import last_line, line_number_at

ErrorAt = Callable[[str, str], SpecError]
"""Makes the error of one spec file at a key: ``raise error_at("repeats", "must be ...")``."""


def errors_of(path: Path, text: str) -> ErrorAt:
    """:func:`spec_error` for the spec at ``path`` whose text is ``text``."""
    return functools.partial(spec_error, path, text)


def spec_error(path: Path, text: str, key: str, message: str) -> SpecError:
    """``file:line: key 'k': message``, on the line of the key (of its item for ``k[i]``)."""
    offset = locate(text, key)
    line = "" if offset is None else f":{line_number_at(text, offset)}"
    return SpecError(f"{path}{line}: key {key!r}: {message}")


_TOML_POSITION = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")


def toml_error(path: Path, text: str, error: tomllib.TOMLDecodeError) -> SpecError:
    """``file:line:column: not valid TOML: reason``, the form of every other located error
    (``tomllib`` puts the position at the end of its message, in words)."""
    reason = str(error)
    found = _TOML_POSITION.search(reason)
    if found is None:
        return SpecError(f"{path}: not valid TOML: {reason}")
    line, column = found.groups()
    where = f"{line}:{column}" if line else str(last_line(text))
    return SpecError(f"{path}:{where}: not valid TOML: {reason[:found.start()]}")


_INDEXED = re.compile(r"^(?P<top>[^.\[]+)(?:\[(?P<index>\d+)\])?")
_OPENERS, _CLOSERS = "[{", "]}"


def locate(text: str, key: str) -> int | None:
    """Offset in ``text`` of ``key`` (``name``, ``name[i]`` or ``name.field``), if found.

    ``name[i]`` is the ``i``-th item of the array assigned to ``name``; when it cannot
    be found (the value is not an array, or is shorter), the key's own offset is given.

    >>> locate('a = 1\\nxs = [\\n  "p",\\n  "q",\\n]\\n', "xs[1]")
    22
    >>> locate("[table]\\nby = 'solver'\\n", "table.by")
    0
    """
    match = _INDEXED.match(key)
    if match is None:
        return None
    top = re.escape(match["top"])
    assignment = re.search(rf"^[ \t]*(?P<at>{top})[ \t]*=", text, re.MULTILINE)
    if assignment is None:
        header = re.search(rf"^[ \t]*(?P<at>\[)[ \t]*{top}[ \t]*\]", text, re.MULTILINE)
        return header.start("at") if header else None
    if match["index"] is None:
        return assignment.start("at")
    item = _array_item(text, assignment.end(), int(match["index"]))
    return assignment.start("at") if item is None else item


def _array_item(text: str, start: int, index: int) -> int | None:
    """Offset of item ``index`` of the array value that begins after ``start``."""
    depth, seen, expecting, i = 0, -1, False, start
    while i < len(text):
        char = text[i]
        if char == "#":
            i = _line_end(text, i)
            continue
        if depth == 0 and not char.isspace() and char != "[":
            return None  # the value is not an array
        if depth == 1 and expecting and not char.isspace() and char not in ",]":
            seen, expecting = seen + 1, False
            if seen == index:
                return i
        if char in "\"'":
            i = _string_end(text, i)
            continue
        if char in _OPENERS:
            depth += 1
            expecting = expecting or depth == 1
        elif char in _CLOSERS:
            depth -= 1
            if depth == 0:
                return None
        elif char == "," and depth == 1:
            expecting = True
        i += 1
    return None


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _string_end(text: str, i: int) -> int:
    """Offset just past the string literal opening at ``i`` (basic, literal or multi-line)."""
    quote = text[i]
    delimiter = quote * 3 if text.startswith(quote * 3, i) else quote
    j = i + len(delimiter)
    while j < len(text):
        if quote == '"' and text[j] == "\\":
            j += 2
            continue
        if text.startswith(delimiter, j):
            return j + len(delimiter)
        j += 1
    return len(text)
