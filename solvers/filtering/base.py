"""What every exact filter shares: the domain types, the timeout and small helpers."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from puzzlelab.errors import PuzzleLabError
from solvers.constraints import Constraint
from solvers.variables import IntVar

#: the current domain of every variable in the scopes being filtered (it may hold values
#: beyond the variable's own: an explanation frees a clue's cell to its array's values)
Domains = Mapping[IntVar, frozenset[int]]
#: the values of each variable that take part in some solution (None: there is none)
Filtered = dict[IntVar, frozenset[int]] | None
#: an exact filter of one constraint type (generalised arc consistency)
Filter = Callable[[Constraint, Domains], Filtered]


class FilteringTimeout(PuzzleLabError):
    """The deadline passed before the supports were all found: the caller's answer would
    be partial, so there is none."""


def check_deadline(deadline: float | None) -> None:
    """Raise :class:`FilteringTimeout` once ``time.perf_counter()`` is past ``deadline``."""
    if deadline is not None and time.perf_counter() > deadline:
        raise FilteringTimeout("filtering ran past its deadline")


def has_repeats(items: tuple[IntVar, ...]) -> bool:
    """Whether a variable occurs twice in ``items``: the position-wise filters assume
    independent positions, so such constraints go to the generic filter."""
    return len(set(items)) != len(items)


def kept(domains: Domains, variable: IntVar, values: set[int] | frozenset[int]
         ) -> frozenset[int]:
    """``variable``'s new domain: the old frozenset itself when nothing was removed, so
    callers can tell a change by identity and no set is copied for nothing."""
    old = domains[variable]
    return old if len(values) == len(old) else frozenset(values)
