"""``cp``'s own search (``auto``): two impact measures in turn, restarted in slices.

OR-tools' impact-based search (``DefaultPhase``) picks the variable whose values
shrank the search space most when tried, by the sum of their impacts. On the dense
200-island Hashi boards its tail is heavy: two of the 360 Coelho puzzles took 13 and
27 s. Picking by the strongest single value's impact instead solves those two in about a
second, and loses two others that the sum solves within one. Neither measure is better
everywhere, so ``auto`` runs them in turn, each for a slice of failures, the slices
doubling every two; the impacts each measure learnt are kept from slice to slice
(``persistent_impact``). Measured in ``results/hashi-benchmark``: all 360 within 10 s
(a first slice of 8,000 failures left two out, 4,000 five of the fourteen slowest).

A slice that finds a solution is never cut: from there its search is a whole
depth-first search, so counting solutions, or rejecting some after search, meets each
solution once. A search that needs fewer failures than the first slice is the single
impact-based search it was before, with the same counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count

#: the failures of the first two slices; then twice as many every two slices. Most
#: runs need far fewer (a few hundred on the Hashi sets), so their search is never cut
FIRST_SLICE_FAILURES = 16000


def slices(measures: int, first: int | None = None) -> Iterator[tuple[int, int]]:
    """(measure, failure budget) of each slice in turn, without end; the first two
    slices get ``first`` failures (:data:`FIRST_SLICE_FAILURES` when None)."""
    first = FIRST_SLICE_FAILURES if first is None else first
    for round_ in count():
        for measure in range(measures):
            yield measure, first << round_
