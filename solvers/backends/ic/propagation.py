"""ECLiPSe's ``ic`` and ``ic_global`` all_different, propagated as ECLiPSe propagates them.

The course tables count backtracks of programs run by ECLiPSe, so their figures depend
on what its propagation leaves at each node, which for ``ic_global`` depends on the
order it runs in. This module follows ECLiPSe's public source
(``icparc_solvers/generic_global_constraints.ecl``, itself after Puget, AAAI 1998):

- ``weak`` (``ic``): a value fixed leaves the other variables' domains (forward
  checking), and a variable left with one value is fixed, so it forwards too.
- ``hall`` (``ic_global``): each run sorts the variables by increasing maximum, then
  decreasing minimum, then increasing domain size; for each maximum in increasing order
  and each minimum in decreasing order it gathers the variables within [minimum,
  maximum], in that order, and compares the size of the union of their domains with
  their number: fewer fails; equal removes the union from every other variable, keeps
  the group as an all_different of its own (suspended, not run) and runs a new one on
  the others at once, the first one dying; a union larger than the variables with
  that maximum cuts that maximum's scan short. Two variables left make ``X #\\= Y``.
- Scheduling: a constraint waits on its variables' domain changes (a new one goes to
  the front of each variable's list); a change schedules the waiting constraints not
  scheduled yet, and the last scheduled runs first. A woken all_different leaves the
  lists and waits again after its run, unless it split.

With this order (and the course's model: rows and columns interleaved, then boxes),
the published ``ic_global`` figures come out exactly; the order matters because a split
decides which groups are compared later.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Domains = list[frozenset[int]]


class Failure(Exception):
    """A domain emptied, or more variables than values in a group."""


@dataclass(frozen=True)
class Waiting:
    """A constraint waiting on its variables: ``weak``, ``hall`` or ``different``."""

    kind: str
    variables: tuple[int, ...]


@dataclass
class State:
    """Domains and waiting constraints of one node (copied for a child node)."""

    domains: Domains
    waiting: dict[int, Waiting] = field(default_factory=dict)
    lists: list[list[int]] = field(default_factory=list)  # variable -> waiting ids
    next_id: int = 0
    scheduled: list[int] = field(default_factory=list)
    propagations: int = 0

    def child(self) -> State:
        """A copy for a branch: what it changes stays in it."""
        return State(list(self.domains), dict(self.waiting), [list(w) for w in self.lists],
                     self.next_id, list(self.scheduled), self.propagations)

    def wait(self, kind: str, variables: Iterable[int]) -> None:
        """Make a constraint wait on changes of ``variables`` (front of their lists)."""
        chosen = tuple(variables)
        self.waiting[self.next_id] = Waiting(kind, chosen)
        for variable in dict.fromkeys(chosen):
            self.lists[variable].insert(0, self.next_id)
        self.next_id += 1

    def leave(self, constraint: int) -> Waiting:
        """Take a constraint out of its variables' lists (to run it)."""
        taken = self.waiting.pop(constraint)
        for variable in dict.fromkeys(taken.variables):
            self.lists[variable].remove(constraint)
        return taken

    def restrict(self, variable: int, values: frozenset[int]) -> None:
        """Set a domain, scheduling what waits on it when it shrinks."""
        if values == self.domains[variable]:
            return
        if not values:
            raise Failure
        self.domains[variable] = values
        for constraint in self.lists[variable]:
            if constraint not in self.scheduled:
                self.scheduled.append(constraint)

    def fix(self, variable: int, value: int) -> None:
        """``variable = value`` and everything it propagates (``Failure`` if it fails)."""
        if value not in self.domains[variable]:
            raise Failure
        self.restrict(variable, frozenset({value}))
        self.propagate()

    def post(self, kind: str, variables: Sequence[int]) -> None:
        """Post an all_different (``weak`` or ``hall``) as ECLiPSe does: run it now."""
        self.run(kind, tuple(variables))
        self.propagate()

    def propagate(self) -> None:
        """Run scheduled constraints, the last scheduled first, until none is left."""
        while self.scheduled:
            constraint = self.scheduled.pop()
            waiting = self.waiting.get(constraint)
            if waiting is None:
                continue
            if waiting.kind == "different" and not any(
                    len(self.domains[v]) == 1 for v in waiting.variables):
                continue  # X #\= Y acts once a side is fixed, and keeps its place
            self.run(waiting.kind, self.leave(constraint).variables)

    def run(self, kind: str, variables: tuple[int, ...]) -> None:
        """One run of a constraint, which waits again unless it is done or split."""
        self.propagations += 1
        if kind == "hall":
            _hall(self, variables)
        else:
            _forward(self, kind, variables)


def _forward(state: State, kind: str, variables: tuple[int, ...]) -> None:
    """Forward checking: each fixed value leaves the others' domains, a variable it
    leaves with one value forwards in turn; waits for more unless every one is fixed."""
    domains = state.domains
    forwarded: set[int] = set()
    while True:
        newly = [v for v in variables if len(domains[v]) == 1 and v not in forwarded]
        if not newly:
            break
        for variable in newly:
            value = next(iter(domains[variable]))
            forwarded.add(variable)
            for other in variables:
                if other != variable and value in domains[other]:
                    state.restrict(other, domains[other] - {value})
    if any(len(domains[v]) > 1 for v in variables):
        state.wait(kind, variables)


def _hall(state: State, variables: tuple[int, ...]) -> None:
    """``ic_global``'s all_different: one scan over (maximum, minimum) groups."""
    if len(variables) <= 1:
        return
    if len(variables) == 2:
        _different(state, variables)
        return
    domains = state.domains
    items = sorted(variables, key=lambda v: (max(domains[v]), -min(domains[v]),
                                             len(domains[v])))
    maxima = sorted({max(domains[v]) for v in variables})
    above = list(items)  # the items whose maximum is above the one scanned
    within: list[int] = []  # the items up to it, by decreasing minimum
    minima: list[int] = []
    for maximum in maxima:
        chunk = [v for v in above if max(domains[v]) <= maximum]
        above = above[len(chunk):]
        within = _by_decreasing_minimum(domains, within, chunk)
        minima = sorted(set(minima) | {min(domains[v]) for v in chunk}, reverse=True)
        found = _exhausted_prefix(domains, within, minima)
        if found is None:
            continue
        size, union = found
        if not within[size:] and not above:
            break  # the whole set is exhausted: nothing else to remove
        group = [v for v in within[:size] if len(domains[v]) > 1]
        if group:
            state.wait("hall", group)
        for variable in [*within[size:], *above]:
            state.restrict(variable, domains[variable] - union)
        state.run("hall", (*within[size:], *above))
        return
    state.wait("hall", variables)


def _by_decreasing_minimum(domains: Domains, kept: list[int], added: list[int]) -> list[int]:
    """Merge two lists ordered by decreasing minimum (``kept`` first on ties)."""
    merged, i, j = [], 0, 0
    while i < len(kept) and j < len(added):
        if min(domains[kept[i]]) >= min(domains[added[j]]):
            merged.append(kept[i])
            i += 1
        else:
            merged.append(added[j])
            j += 1
    return merged + kept[i:] + added[j:]


def _exhausted_prefix(domains: Domains, within: list[int],
                      minima: list[int]) -> tuple[int, frozenset[int]] | None:
    """The first prefix of ``within`` whose domains' union holds exactly as many values
    as it has variables, with that union; None when the scan finds none (or is cut
    short); ``Failure`` when a prefix has more variables than values."""
    union: set[int] = set()
    count = 0
    for minimum in minima:
        while count < len(within) and min(domains[within[count]]) >= minimum:
            union |= domains[within[count]]
            count += 1
            if len(union) < count:
                raise Failure
            if len(union) == count:
                return count, frozenset(union)
            if len(union) > len(within):
                return None
    return None


def _different(state: State, pair: tuple[int, ...]) -> None:
    """``X #\\= Y``: a fixed side's value leaves the other; waits until one is fixed."""
    first, second = pair
    domains = state.domains
    if len(domains[first]) == 1:
        state.restrict(second, domains[second] - domains[first])
    elif len(domains[second]) == 1:
        state.restrict(first, domains[first] - domains[second])
    else:
        state.wait("different", pair)
