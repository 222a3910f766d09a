"""An independent d-way labelling of Sudokus, written as ECLiPSe runs the course's
programs, to check ``+dway`` and ``deep_backtracks`` against: no model, no backend.

``ic``'s all_different forward-checks (a value fixed leaves the other cells of its
units, and a cell left with one value is fixed, so it forwards too); labelling
chooses a cell (the next in row-major order, or the first with the smallest domain)
and tries its values in increasing order as ``indomain`` does; backtracks are counted
by the tutorial's ``count_backtracks`` idiom, kept here as the generator pair it is in
Prolog: its first clause clears the flag as the search moves forward, its second,
reached on backtracking, counts one and sets the flag unless it is set.
"""

from __future__ import annotations

from collections.abc import Iterator

Cell = tuple[int, int]
Domains = dict[Cell, frozenset[int]]


class Labelling:
    """One labelling of one Sudoku: its solutions in search order, and its count."""

    def __init__(self, givens: tuple[tuple[int, ...], ...], box: int,
                 first_fail: bool, every_cell: bool = False) -> None:
        self.size, self.first_fail = len(givens), first_fail
        self.every_cell = every_cell  # the idiom over the fixed list of cells, bound ones too
        self.cells = [(r, c) for r in range(self.size) for c in range(self.size)]
        self.peers: dict[Cell, set[Cell]] = {cell: set() for cell in self.cells}
        for unit in self._units(box):
            for cell in unit:
                self.peers[cell] |= set(unit) - {cell}
        self.backtracks = 0
        self._deep_fail = False
        domains: Domains | None = {cell: frozenset(range(1, self.size + 1))
                                   for cell in self.cells}
        for cell in self.cells:
            given = givens[cell[0]][cell[1]]
            if given and domains is not None:
                domains = self._fix(domains, cell, given)
        self.root = domains

    def _units(self, box: int) -> list[list[Cell]]:
        n = self.size
        return ([[(r, c) for c in range(n)] for r in range(n)]
                + [[(r, c) for r in range(n)] for c in range(n)]
                + [[(br * box + i, bc * box + j) for i in range(box) for j in range(box)]
                   for br in range(box) for bc in range(box)])

    def _fix(self, domains: Domains, cell: Cell, value: int) -> Domains | None:
        """``cell = value`` forwarded to a fixpoint; None on a wipe-out."""
        if value not in domains[cell]:
            return None
        fixed = dict(domains)
        fixed[cell] = frozenset({value})
        queue = [(cell, value)]
        while queue:
            at, taken = queue.pop()
            for peer in self.peers[at]:
                if taken in fixed[peer]:
                    left = fixed[peer] - {taken}
                    if not left:
                        return None
                    fixed[peer] = left
                    if len(left) == 1:
                        queue.append((peer, next(iter(left))))
        return fixed

    def _count_backtracks(self) -> Iterator[None]:
        self._deep_fail = False
        yield
        if not self._deep_fail:
            self._deep_fail = True
            self.backtracks += 1

    def solutions(self) -> Iterator[Domains]:
        """The solutions in the order the search finds them (it counts as it goes)."""
        if self.root is not None:
            yield from self._label(self.root, 0)

    def _label(self, domains: Domains, position: int) -> Iterator[Domains]:
        if self.every_cell:  # labeling/1: every cell in turn, bound or not
            if position == len(self.cells):
                yield domains
                return
            cell = self.cells[position]
            for _ in self._count_backtracks():
                if len(domains[cell]) == 1:  # indomain of an instantiated cell: once
                    yield from self._label(domains, position + 1)
                    continue
                for value in sorted(domains[cell]):
                    fixed = self._fix(domains, cell, value)
                    if fixed is not None:
                        yield from self._label(fixed, position + 1)
            return
        free = [cell for cell in self.cells if len(domains[cell]) > 1]
        if not free:
            yield domains
            return
        cell = min(free, key=lambda c: len(domains[c])) if self.first_fail else free[0]
        for _ in self._count_backtracks():
            for value in sorted(domains[cell]):
                fixed = self._fix(domains, cell, value)
                if fixed is not None:
                    yield from self._label(fixed, position + 1)


def first_solution(givens: tuple[tuple[int, ...], ...], box: int, first_fail: bool,
                   every_cell: bool = False) -> tuple[Domains | None, int]:
    """The first solution (None: none) and the backtracks counted to it."""
    labelling = Labelling(givens, box, first_fail, every_cell)
    found = labelling.solutions()
    solution = next(found, None)
    found.close()
    return solution, labelling.backtracks


def every_solution(givens: tuple[tuple[int, ...], ...], box: int,
                   first_fail: bool) -> tuple[int, int]:
    """How many solutions there are, and the backtracks counted finding them all."""
    labelling = Labelling(givens, box, first_fail)
    return sum(1 for _ in labelling.solutions()), labelling.backtracks
