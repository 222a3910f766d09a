"""Where a table's columns go within a width: parts by column group, as the text form,
a printed page and a Markdown file each measure a table.

The text form and the page set a group's label once, over its columns (two characters
between columns); Markdown has no such spanning row, so each of its headers names its
group (``classic-weak time (ms)``) and its columns are as wide as that, apart by ``" |
"``. Either way a table wider than its width goes on in further parts: by whole groups
where a group fits, by columns of a group where not; every part keeps the row labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

GroupHeaders = tuple[str, Sequence[str]]
"""A group's label and its columns' headers."""


@dataclass(frozen=True)
class Block:
    """Some columns of one group, laid out under its label."""

    label: str
    columns: tuple[int, ...]
    width: int


@dataclass(frozen=True)
class Layout:
    """A table's columns within a width: its parts, each a run of blocks."""

    label_width: int
    headers: tuple[str, ...]
    columns: tuple[int, ...]
    """Each column's width in characters (its header, or its widest cell)."""
    parts: tuple[tuple[Block, ...], ...]


def lay_out(groups: Sequence[GroupHeaders], rows: Sequence[tuple[str, Sequence[str]]],
            width: int | None, named_columns: bool = False) -> Layout:
    """The columns of a table of ``groups`` and ``rows`` (label, cells) in parts that
    each fit ``width`` characters (None: one part); with ``named_columns``, measured as
    Markdown writes them (``| instance | classic-weak time (ms) |``)."""
    label_width = max(len("instance"), *(len(label) for label, _ in rows))
    headers = tuple(header for _, names in groups for header in names)
    shown = tuple(named_header(label, header) if named_columns else header
                  for label, names in groups for header in names)
    columns = tuple(max(len(header), *(len(cells[i]) for _, cells in rows))
                    for i, header in enumerate(shown))
    gap = 3 if named_columns else 2
    # a Markdown row: "| " + label + " |", then " " + cell + " |" for each column
    edges = label_width + (4 if named_columns else 0)
    room = None if width is None else width - edges - gap
    blocks, start = [], 0
    for label, names in groups:
        for chunk in _fitting(range(start, start + len(names)), columns, room, gap):
            natural = sum(columns[i] for i in chunk) + gap * (len(chunk) - 1)
            spanned = 0 if named_columns else len(label)
            blocks.append(Block(label, tuple(chunk), max(spanned, natural)))
        start += len(names)
    parts: list[list[Block]] = [[]]
    used = edges
    for block in blocks:
        if width is not None and parts[-1] and used + gap + block.width > width:
            parts.append([])
            used = edges
        parts[-1].append(block)
        used += gap + block.width
    return Layout(label_width, headers, columns, tuple(tuple(part) for part in parts))


def named_header(label: str, header: str) -> str:
    """A column's header where no row spans its group (Markdown, CSV): the group's label
    before it (``classic-weak time (ms)``)."""
    return f"{label} {header}"


def whole_width(layout: Layout) -> int:
    """Characters a one-part text layout takes across (two between columns)."""
    return layout.label_width + sum(2 + block.width for part in layout.parts for block in part)


def _fitting(indices: range, columns: Sequence[int], room: int | None,
             gap: int) -> list[list[int]]:
    """The group's columns in runs that each fit ``room`` (one at least; all if no room)."""
    chunks: list[list[int]] = [[]]
    used = 0
    for index in indices:
        if room is not None and chunks[-1] and used + gap + columns[index] > room:
            chunks.append([])
            used = 0
        used += (gap if chunks[-1] else 0) + columns[index]
        chunks[-1].append(index)
    return chunks
