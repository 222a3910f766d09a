"""Counted nouns for messages: "1 line", "2 lines", never "1 lines" or "line(s)"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
