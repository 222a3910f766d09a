"""The modelling layer: a small model language and its solver backends. Knows nothing of puzzles.

>>> from solvers import Model, all_different, solve
>>> model = Model("three")
>>> cells = [model.int_var(1, 3, f"x{i}") for i in range(3)]
>>> _ = model.add(all_different(cells))
>>> solve(model, "cp", "input/min", max_solutions=0).statistics.solutions
6
"""

from solvers.backend_contract import SearchStart
from solvers.backends import BACKENDS, Backend, load_backends
from solvers.builders import (
    all_different,
    at_most_one,
    clause,
    connected,
    connected_by_flow,
    count,
    element,
    equivalent_to_equality,
    exactly_one,
    global_cardinality,
    implies,
    inverse,
    linear,
    no_overlap_2d,
    regular,
    sum_of,
    table,
)
from solvers.constraints import Rectangle
from solvers.heuristics import Heuristic, heuristic_names
from solvers.model import Model
from solvers.record import SolveResult, Statistics, Status
from solvers.solving import get_backend, prepare, propagate_root, solve
from solvers.variables import Assignment, IntVar

__all__ = [
    "BACKENDS", "Assignment", "Backend", "Heuristic", "IntVar", "Model", "Rectangle",
    "SearchStart", "SolveResult", "Statistics", "Status", "all_different", "at_most_one",
    "clause", "connected", "connected_by_flow", "count", "element", "equivalent_to_equality",
    "exactly_one",
    "get_backend", "global_cardinality", "heuristic_names", "implies", "inverse", "linear",
    "load_backends", "no_overlap_2d", "prepare", "propagate_root", "regular", "solve",
    "sum_of", "table",
]
