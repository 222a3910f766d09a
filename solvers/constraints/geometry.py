"""Geometric constraints: rectangles that must not overlap."""

from __future__ import annotations

from dataclasses import dataclass

from puzzlelab.errors import ModelError
from solvers.constraints.base import Constraint, unique_variables
from solvers.variables import Assignment, IntOrVar, IntVar, value_of


@dataclass(frozen=True)
class Rectangle:
    """Cells ``x <= column < x + width`` and ``y <= row < y + height``."""

    x: IntOrVar
    y: IntOrVar
    width: IntOrVar
    height: IntOrVar


def _lower_bound(term: IntOrVar) -> int:
    return term if isinstance(term, int) else term.lb


@dataclass(frozen=True, eq=False)
class NoOverlap2D(Constraint):
    """No two ``rectangles`` share a cell. Widths and heights must be at least 1."""

    rectangles: tuple[Rectangle, ...]

    def __post_init__(self) -> None:
        for rectangle in self.rectangles:
            if min(_lower_bound(rectangle.width), _lower_bound(rectangle.height)) < 1:
                raise ModelError("no_overlap_2d: widths and heights must be at least 1")

    def variables(self) -> tuple[IntVar, ...]:
        return unique_variables(tuple((r.x, r.y, r.width, r.height) for r in self.rectangles))

    def holds(self, assignment: Assignment) -> bool:
        boxes = [tuple(value_of(term, assignment) for term in (r.x, r.y, r.width, r.height))
                 for r in self.rectangles]
        for i, (x1, y1, w1, h1) in enumerate(boxes):
            for x2, y2, w2, h2 in boxes[i + 1:]:
                if x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1:
                    return False
        return True
