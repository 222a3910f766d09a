"""The one exception tree of PuzzleLab: catch ``PuzzleLabError`` to catch them all."""

from __future__ import annotations

from collections.abc import Iterable


class PuzzleLabError(Exception):
    """Root of every error PuzzleLab raises on purpose."""


class ParseError(PuzzleLabError):
    """Bad puzzle input, located by file, line and (when known) column."""

    def __init__(self, message: str, *, source: str = "<string>", line: int | None = None,
                 column: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


class InstanceNotFound(PuzzleLabError):
    """An instance name or index that the file does not hold."""


class UnknownName(PuzzleLabError, KeyError):
    """A registry lookup for a name nobody registered; the message lists the valid ones."""

    def __init__(self, kind: str, name: str, valid: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.valid = sorted(valid)
        message = f"unknown {kind} {name!r}; valid: {', '.join(self.valid) or '(none)'}"
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0])


class DuplicateName(PuzzleLabError):
    """A second registration under a name that is taken."""


class ModelError(PuzzleLabError):
    """A model that is malformed (empty domain, mismatched lengths, ...)."""


class ModelTooLarge(ModelError):
    """A viewpoint declines to build a model past a size option (a run ``refused``, not a
    failure); the message names the part that is too large and the option to raise."""


class OptionError(PuzzleLabError):
    """A viewpoint option that does not exist or has a value outside its choices."""


class UnsupportedCombination(PuzzleLabError):
    """A backend cannot run this constraint, option or heuristic; the message says why."""


class SolverError(PuzzleLabError):
    """A solver answered something the backend does not understand."""


class SpecError(PuzzleLabError):
    """An experiment specification that cannot be run; the message names file and key."""
