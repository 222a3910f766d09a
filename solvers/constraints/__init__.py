"""The constraints of the model language, one module per family."""

from solvers.constraints.arithmetic import (
    COMPARISONS,
    Comparison,
    Count,
    Element,
    GlobalCardinality,
    Linear,
)
from solvers.constraints.base import Constraint
from solvers.constraints.extensional import Regular, Table
from solvers.constraints.geometry import NoOverlap2D, Rectangle
from solvers.constraints.graph import Connected, ConnectedByFlow
from solvers.constraints.logic import AtMostOne, Clause, ExactlyOne, ReifiedEquality
from solvers.constraints.permutation import STRENGTHS, AllDifferent, Inverse, Strength

#: every constraint type of the model language
CONSTRAINT_TYPES: tuple[type[Constraint], ...] = (
    AllDifferent, Inverse, Linear, Element, Count, GlobalCardinality, Table, Regular,
    ReifiedEquality, Clause, ExactlyOne, AtMostOne, NoOverlap2D, Connected, ConnectedByFlow,
)

__all__ = [
    "COMPARISONS", "CONSTRAINT_TYPES", "STRENGTHS", "AllDifferent", "AtMostOne", "Clause",
    "Comparison", "Connected", "ConnectedByFlow", "Constraint", "Count", "Element", "ExactlyOne",
    "GlobalCardinality", "Inverse", "Linear", "NoOverlap2D", "Rectangle", "Regular",
    "ReifiedEquality", "Strength", "Table",
]
