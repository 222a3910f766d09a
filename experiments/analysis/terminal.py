"""How much room a command's printed tables have: the width and height of the terminal
standard output writes to, and what stands for them off a terminal (a log, a pipe).

The tables' layout is :mod:`experiments.analysis.table_format`'s; this module only
measures where they go.
"""

from __future__ import annotations

import os
import shutil
import sys


def terminal_width() -> int | None:
    """The width of the terminal standard output writes to, or None when it is no
    terminal (a file, a pipe): tables written there are not split."""
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


OUTPUT_WIDTH = 100
"""Columns a campaign's printed tables fit when standard output is no terminal and
``COLUMNS`` says nothing: a log or a pipe read later, in a window or an editor."""


def output_width() -> int:
    """The width a command's printed tables fit: the terminal's, or off a terminal the
    ``COLUMNS`` the shell exports, else :data:`OUTPUT_WIDTH`. For ``run``, whose tables
    are read, not parsed (``table`` off a terminal keeps its rows whole for scripts)."""
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    columns = os.environ.get("COLUMNS", "").strip()
    return int(columns) if columns.isdigit() and int(columns) > 0 else OUTPUT_WIDTH


SCREENFUL = 50
"""Lines of a screen when standard output is no terminal (a log, a pipe)."""


def terminal_height() -> int:
    """Lines of the terminal standard output writes to (:data:`SCREENFUL` off one): a
    campaign's tables longer than that show their summary rows alone."""
    if not sys.stdout.isatty():
        return SCREENFUL
    return shutil.get_terminal_size(fallback=(80, SCREENFUL)).lines
