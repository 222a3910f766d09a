"""Words for messages: counted nouns ("1 line", "2 lines", never "1 lines" or "line(s)")
and ordinals ("2nd", never "2th")."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def ordinal(number: int) -> str:
    """``number`` as an English ordinal.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '112th']
    """
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"
