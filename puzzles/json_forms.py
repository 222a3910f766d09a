"""Reading a solution back from its JSON form: rows of numbers, checked for shape.

Every puzzle prints a solution as JSON (``puzzlelab solve --json``) and the results store
keeps that form; reading it back must refuse anything else with a message saying what
is wrong, never a bare ``TypeError``.

>>> number_rows([[1, 2], [2, 1]], "a Sudoku solution")
((1, 2), (2, 1))
>>> number_rows([[1, 2], [2]], "a Sudoku solution")
Traceback (most recent call last):
    ...
puzzlelab.errors.ParseError: <json>: a Sudoku solution: row 2 has 1 entries, row 1 has 2
"""

from __future__ import annotations

from typing import Any

from puzzlelab.errors import ParseError

SOURCE = "<json>"


def number_rows(data: Any, what: str, *, empty: bool = False, same_length: bool = True
                ) -> tuple[tuple[Any, ...], ...]:
    """``data`` as rows of integers (``null`` entries too, with ``empty``), all rows of
    one length unless ``same_length`` is False; else a ``ParseError`` naming ``what``."""
    if not isinstance(data, list) or not data or not all(isinstance(row, list) for row in data):
        raise ParseError(f"{what}: expected a non-empty list of rows (lists of integers)",
                         source=SOURCE)
    for number, row in enumerate(data, 1):
        for entry in row:
            if entry is None and empty:
                continue
            if isinstance(entry, bool) or not isinstance(entry, int):
                allowed = "an integer or null" if empty else "an integer"
                raise ParseError(f"{what}: row {number} holds {entry!r}, not {allowed}",
                                 source=SOURCE)
        if same_length and len(row) != len(data[0]):
            raise ParseError(f"{what}: row {number} has {len(row)} entries, row 1 has "
                             f"{len(data[0])}", source=SOURCE)
    return tuple(tuple(row) for row in data)
