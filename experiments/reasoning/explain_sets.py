"""The set searches an explanation makes: the fewest premises that let some constraints
derive anything (an implicit hitting set), and a subset-minimal set by deletion.

Both work on a monotone test: more premises (or constraints) never derive less, because
the facts come from exact filtering (every value kept has a solution of the constraints
within the premises' domains). The lightest premise set is found as the lightest set
that meets every *correction set*: a set grown as large as possible without deriving
anything leaves out at least one member of every premise set that does derive
something, so its complement must be met (the duality of minimal unsatisfiable and
minimal correction sets that Bogaerts, Gamba and Guns's explanations build on).

>>> need = {"a", "c"}
>>> fewest(["a", "b", "c", "d"], lambda chosen: need <= set(chosen))
['a', 'c']
>>> fewest(["a", "b", "c"], lambda chosen: "a" in chosen or {"b", "c"} <= set(chosen),
...        weight={"a": 5, "b": 1, "c": 1}.get)
['b', 'c']
>>> deletion_minimal(["a", "b", "c", "d"], lambda chosen: need <= set(chosen))
['a', 'c']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

Test = Callable[[Sequence[T]], bool]
"""Whether a set (in the candidates' order) derives what is asked."""


def smallest_hitting_set(sets: Sequence[frozenset[int]], weights: Sequence[int],
                         bound: int) -> list[int] | None:
    """A lightest set of indices (``weights`` by index) meeting every set of ``sets``,
    or None when each weighs ``bound`` or more (a branch and bound on the smallest set
    unmet)."""
    best: list[int] | None = None
    limit = bound

    def branch(chosen: list[int], weight: int) -> None:
        nonlocal best, limit
        unmet: list[frozenset[int]] = [s for s in sets if not s.intersection(chosen)]
        if not unmet:
            if weight < limit:
                best, limit = list(chosen), weight
            return
        smallest: frozenset[int] = min(unmet, key=len)
        for member in sorted(smallest, key=lambda m: (weights[m], m)):
            if weight + weights[member] >= limit:
                continue
            chosen.append(member)
            branch(chosen, weight + weights[member])
            chosen.pop()

    branch([], 0)
    return best


def fewest(candidates: Sequence[T], derives: Test[T],
           weight: Callable[[T], int] = lambda _: 1) -> list[T] | None:
    """A lightest subset of ``candidates`` (by ``weight``, one each by default) that
    ``derives``, kept in the candidates' order; None when even all of them do not."""
    size = len(candidates)
    if not derives(candidates):
        return None
    weights = [weight(candidate) for candidate in candidates]
    corrections: list[frozenset[int]] = []
    while True:
        hitting = smallest_hitting_set(corrections, weights, sum(weights) + 1)
        assert hitting is not None  # every candidate together derives: they hit every set
        chosen = sorted(hitting)
        if derives([candidates[i] for i in chosen]):
            return [candidates[i] for i in chosen]
        grown = _grown(set(chosen), [i for i in range(size) if i not in chosen],
                       lambda indices: derives([candidates[i] for i in sorted(indices)]))
        corrections.append(frozenset(range(size)) - grown)


def _grown(grown: set[int], rest: list[int], derives: Callable[[set[int]], bool]
           ) -> set[int]:
    """``grown`` with as many of ``rest`` as can join it without deriving: all of a
    chunk at once where they can, else its halves in turn (a member is left out only
    when it alone would derive, and more members never derive less, so the result is
    maximal)."""
    if not rest:
        return grown
    if not derives(grown | set(rest)):
        return grown | set(rest)
    if len(rest) == 1:
        return grown
    middle = len(rest) // 2
    grown = _grown(grown, rest[:middle], derives)
    return _grown(grown, rest[middle:], derives)


def deletion_minimal(candidates: Sequence[T], derives: Test[T]) -> list[T]:
    """A subset of ``candidates`` that ``derives`` and from which no member can go (the
    candidates must derive): halves are tried away first, then single members."""
    kept = list(candidates)
    chunk = max(1, len(kept) // 2)
    while True:
        start = 0
        while start < len(kept):
            trial = kept[:start] + kept[start + chunk:]
            if trial != kept and derives(trial):
                kept = trial
            else:
                start += chunk
        if chunk == 1:
            return kept
        chunk = max(1, chunk // 2)
