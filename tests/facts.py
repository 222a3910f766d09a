"""Asserting the facts a message states (the places, values and names in it), not its
wording: a message may be reworded, its facts may not change.

A fact is a short phrase found whole, in any order: ``"row 1"`` is not found in
``"row 12"``, nor ``"2"`` in ``"12"`` or ``"2.5"``; ``"3"`` is found in ``"1..3"``.

>>> states("row 12 has 3 2 times", "row 12", "2 times")
True
>>> states("row 12 has 3 2 times", "row 1")
False
>>> import re
>>> bool(re.search(facts("'9'", "2 to 5"), "--size: from 2 to 5, not '9'"))
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import permutations


def _whole(phrase: str) -> str:
    """``phrase`` as a pattern that does not match inside a longer word or number."""
    before = r"(?<!\w)(?<!\d\.)" if phrase[0].isalnum() else ""
    after = r"(?!\w)(?!\.\d)" if phrase[-1].isalnum() else ""
    return before + re.escape(phrase) + after


def facts(*phrases: str) -> str:
    """A pattern that finds a text stating every phrase, in any order: for
    ``pytest.raises(..., match=facts(...))``."""
    return "(?s)^" + "".join(f"(?=.*?{_whole(phrase)})" for phrase in phrases)


def states(message: str, *phrases: str) -> bool:
    """Whether ``message`` states every phrase (each found whole, in any order)."""
    return re.search(facts(*phrases), message) is not None


def assert_each_states(messages: Sequence[str], *expected: tuple[str, ...]) -> None:
    """As many messages as tuples of facts, and each tuple stated by a message of its own
    (in any order): what a checker's list of broken rules must say."""
    assert len(messages) == len(expected), messages
    assert any(all(states(message, *phrases) for message, phrases in zip(order, expected))
               for order in permutations(messages)), (messages, expected)
