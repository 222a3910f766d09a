"""Writers of the model language into other modelling languages, one module per format.

A writer module gives ``SUFFIX`` (the file's extension) and ``write(model, heuristic,
seed) -> str``: the model, its data inline and its search, as one file of that format.
What a format cannot express is exported by a declared decomposition and said so at
the top of the file, or refused with ``UnsupportedCombination`` saying why. Naming the
formats imports no writer; :func:`export` imports the one it uses.

>>> from solvers import Model, all_different
>>> model = Model("pair")
>>> x, y = model.int_var(1, 2, "x"), model.int_var(1, 2, "y")
>>> _ = model.add(all_different([x, y]))
>>> "alldifferent([x, y])" in export(model, "minizinc")
True
"""

from __future__ import annotations

import importlib
from typing import Protocol, cast

from puzzlelab.errors import UnknownName
from solvers.model import Model

#: every export format by name, with the module that writes it
FORMATS: dict[str, str] = {
    "minizinc": "solvers.export.minizinc",
    "xcsp3": "solvers.export.xcsp3",
}


class Writer(Protocol):
    """What a writer module offers."""

    SUFFIX: str

    def write(self, model: Model, heuristic: str = ..., seed: int = ...) -> str:
        """The model as the text of one file of the format."""


def writer(format_name: str) -> Writer:
    """The writer module of ``format_name`` (an unknown name lists the formats)."""
    if format_name not in FORMATS:
        raise UnknownName("export format", format_name, FORMATS)
    return cast(Writer, importlib.import_module(FORMATS[format_name]))


def export(model: Model, format_name: str, heuristic: str = "first-fail/min",
           seed: int = 0) -> str:
    """``model`` searched with ``heuristic``, as the text of one file of ``format_name``."""
    return writer(format_name).write(model, heuristic, seed)


__all__ = ["FORMATS", "Writer", "export", "writer"]
