"""Where a repair round searches: the variables near a lazy round's cuts.

A lazy round stops on a solution that breaks a lazy constraint and adds cuts that
solution breaks. The next answer often differs from it only around the cuts, so a
repair round (:meth:`solvers.model.Model.repair_lazy_rounds`) searches the
variables within some constraints of the cuts' variables and keeps the rest where
the round stopped; the solve loop searches the whole model when that finds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from solvers.model import Model
from solvers.variables import IntVar


class Neighbourhoods:
    """The model's variables, linked by the constraints they share (not the cuts).

    >>> from solvers.builders import linear
    >>> model = Model("chain")
    >>> a, b, c, d = (model.int_var(0, 1, name) for name in "abcd")
    >>> for x, y in ((a, b), (b, c), (c, d)):
    ...     _ = model.add(linear([(1, x), (1, y)], "<=", 1))
    >>> Neighbourhoods(model).kept([a], radius=1)
    (2, 3)
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.sharing: dict[IntVar, list[tuple[IntVar, ...]]] = {}
        for constraint in model.constraints:
            scope = constraint.variables()
            for variable in scope:
                self.sharing.setdefault(variable, []).append(scope)

    def near(self, variables: Iterable[IntVar], radius: int) -> set[IntVar]:
        """``variables`` and those within ``radius`` constraints of them."""
        found = set(variables)
        frontier = list(found)
        for _ in range(radius):
            reached = {other for variable in frontier
                       for scope in self.sharing.get(variable, ())
                       for other in scope} - found
            found |= reached
            frontier = list(reached)
        return found

    def kept(self, variables: Iterable[IntVar], radius: int) -> tuple[int, ...]:
        """Positions of the model's variables farther than ``radius`` from
        ``variables``: those a repair round keeps."""
        free = self.near(variables, radius)
        return tuple(position for position, variable in enumerate(self.model.variables)
                     if variable not in free)
