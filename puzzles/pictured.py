"""Instances and solutions that draw themselves in a notebook, with their puzzle's own
``render_svg`` (the picture ``puzzlelab draw`` and the report make).

A puzzle's instance type and solution type take these as bases; which puzzle they
belong to is the registry's to say (:func:`puzzles.kind.puzzle_of`), so the types'
modules import no picture code. A solution is drawn on the instance its puzzle makes of
it (:meth:`PuzzleKind.drawing_instance`); one that tells too little to draw (Hashi's
bridges do not give the grid's size) shows as text, and so does any picture that fails.
"""

from __future__ import annotations

from puzzlelab.notebook import display_method
from puzzles.kind import puzzle_of, puzzle_of_solution


class DrawnInstance:
    """An instance that shows itself as its puzzle's picture."""

    __slots__ = ()

    @display_method
    def _repr_svg_(self) -> str:
        """The puzzle's SVG picture: what Jupyter shows for the instance."""
        return puzzle_of(self).render_svg(self)


class DrawnSolution:
    """A solution that shows itself as its puzzle's picture, where it alone can be drawn."""

    __slots__ = ()

    @display_method
    def _repr_svg_(self) -> str | None:
        """The solved grid's SVG picture, or None where the solution alone tells too
        little to draw (Jupyter then shows its text)."""
        kind = puzzle_of_solution(self)
        instance = None if kind is None else kind.drawing_instance(self)
        return None if kind is None or instance is None else kind.render_svg(instance, self)
