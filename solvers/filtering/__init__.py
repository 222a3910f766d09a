"""Exact filtering (generalised arc consistency) of model-language constraints.

For a constraint, or a conjunction of a few, and the current domains of their
variables: exactly the values that take part in some solution. Each constraint type
has an exact rule of its own where one is known (Régin's matching for all_different,
layered automata for regular, partial sums for linear, bridges for connected, ...);
the others are enumerated with ``holds`` on small domains or searched with CP-SAT.
"""

from solvers.filtering.base import Domains, Filtered, FilteringTimeout
from solvers.filtering.dispatch import FILTERS, filter_constraint
from solvers.filtering.search import filter_conjunction, removes_any

__all__ = ["FILTERS", "Domains", "Filtered", "FilteringTimeout", "filter_conjunction",
           "filter_constraint", "removes_any"]
