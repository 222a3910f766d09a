"""Words for messages: counted nouns ("1 line", "2 lines", never "1 lines" or "line(s)"),
ordinals ("2nd", never "2th"), and the first sentence of a docstring, whole."""

from __future__ import annotations

import re


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` (thousands separated) and ``noun``, the noun plural unless the count is
    one."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def ordinal(number: int) -> str:
    """``number`` as an English ordinal.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '112th']
    """
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"


def first_sentence(text: str) -> str:
    """The first sentence of a docstring, whole, on one line (a docstring's first line
    may end mid-sentence): up to the first full stop that ends a word and is followed
    by a capital or the end of the paragraph.

    >>> first_sentence("Both views: a count equals\\nthe east count. More here.")
    'Both views: a count equals the east count.'
    """
    paragraph = " ".join(text.split("\n\n")[0].split())
    ended = re.search(r"(?<=\w[.!?])\s+(?=[A-Z])", paragraph)
    return paragraph[:ended.start()] if ended else paragraph
