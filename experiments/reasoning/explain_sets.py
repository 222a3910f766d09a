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
>>> fewest(["a", "b", "c"], lambda chosen: {"b", "c"} <= set(chosen), below=2) is None
True
>>> deletion_minimal(["a", "b", "c", "d"], lambda chosen: need <= set(chosen))
['a', 'c']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

Test = Callable[[Sequence[T]], bool]
"""Whether a set (in the candidates' order) derives what is asked."""


def smallest_hitting_set(sets: Sequence[frozenset[int]], weights: Sequence[int],
                         bound: int) -> list[int] | None:
    """A lightest set of indices (``weights`` by index) meeting every set of ``sets``,
    or None when each weighs ``bound`` or more.

    A branch and bound over bit masks, from a greedy hitting set: it branches on the
    smallest set unmet, its i-th branch taking the i-th lightest member and ruling out
    the ones before it (the earlier branches had them), and prunes a branch when its
    weight plus a lower bound on what is still unmet (the lightest member of each of some
    pairwise disjoint unmet sets, which no one index can meet twice) reaches the best."""
    by_weight: dict[int, int] = {}
    for index, weight in enumerate(weights):
        by_weight[weight] = by_weight.get(weight, 0) | 1 << index
    classes = sorted(by_weight.items())

    def cheapest(mask: int) -> int:
        return next(weight for weight, members in classes if mask & members)

    def members(mask: int) -> Iterator[int]:
        for _, of_weight in classes:
            bits = mask & of_weight
            while bits:
                low = bits & -bits
                yield low.bit_length() - 1
                bits ^= low

    masks = sorted({sum(1 << member for member in s) for s in sets}, key=int.bit_count)
    if 0 in masks:
        return None  # an empty set cannot be met
    best = _greedy(masks, members, weights)
    limit = sum(weights[m] for m in best)
    if limit >= bound:
        best, limit = [], bound

    def lower_bound(unmet: list[int]) -> int:
        covered, total = 0, 0
        for mask in unmet:
            if not mask & covered:
                covered |= mask
                total += cheapest(mask)
        return total

    def branch(chosen: list[int], weight: int, unmet: list[int]) -> None:
        nonlocal best, limit
        if not unmet:
            if weight < limit:
                best, limit = list(chosen), weight
            return
        if weight + lower_bound(unmet) >= limit:
            return
        ruled_out = 0
        for member in members(min(unmet, key=int.bit_count)):
            bit = 1 << member
            if weight + weights[member] < limit:
                left = [mask & ~ruled_out for mask in unmet if not mask & bit]
                if all(left):
                    chosen.append(member)
                    branch(chosen, weight + weights[member], left)
                    chosen.pop()
            ruled_out |= bit

    branch([], 0, masks)
    return sorted(best) if limit < bound else None


def _greedy(masks: list[int], members: Callable[[int], Iterator[int]],
            weights: Sequence[int]) -> list[int]:
    """A hitting set of ``masks`` taken greedily: the index meeting the most unmet sets
    per unit of weight, until every set is met."""
    unmet, chosen = list(masks), []
    while unmet:
        counts: dict[int, int] = {}
        for mask in unmet:
            for member in members(mask):
                counts[member] = counts.get(member, 0) + 1
        member = max(counts, key=lambda m: (counts[m] / max(weights[m], 1), -m))
        chosen.append(member)
        unmet = [mask for mask in unmet if not mask >> member & 1]
    return chosen


def fewest(candidates: Sequence[T], derives: Test[T],
           weight: Callable[[T], int] = lambda _: 1, below: int | None = None
           ) -> list[T] | None:
    """A lightest subset of ``candidates`` (by ``weight``, one each by default) that
    ``derives``, kept in the candidates' order; None when even all of them do not, or
    when every one that does weighs ``below`` or more (so a caller that already has
    something that light asks no more than it needs)."""
    size = len(candidates)
    weights = [weight(candidate) for candidate in candidates]
    bound = sum(weights) + 1 if below is None else below
    if bound <= 0 or not derives(candidates):
        return None
    corrections: list[frozenset[int]] = []
    while True:
        hitting = smallest_hitting_set(corrections, weights, bound)
        if hitting is None:
            return None  # every set that derives weighs the bound or more
        chosen = sorted(hitting)
        if derives([candidates[i] for i in chosen]):
            return [candidates[i] for i in chosen]
        if not chosen and min(weights) >= bound:
            return None  # nothing derives without candidates, and any one is too heavy
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
