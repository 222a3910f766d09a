"""A heuristic as a MiniZinc search annotation.

MiniZinc names the same variable selections as PuzzleLab (``input_order``,
``first_fail``, ``dom_w_deg``) and the value choices ``indomain_min`` and
``indomain_max``, so most heuristics export exactly: ``dom-deg`` and ``random`` are
static orders of the decision variables (by degree, then smallest domain first; a
seeded shuffle), written out in that order. The variables a heuristic does not branch
on are labelled after them, input order, smallest value first, as PuzzleLab's backends
finish them. ``auto`` leaves the search to the solver. What MiniZinc's ``int_search``
cannot say is refused, not approximated: a value ranking (``random`` values, a
viewpoint's value order), probing, d-way labelling and ``+symmetric`` (PuzzleLab's own
two searches).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from puzzlelab.errors import UnsupportedCombination
from solvers.export.searches import no_ranking, search_refusal
from solvers.heuristics import Heuristic, SearchPlan
from solvers.variables import IntVar

SELECTIONS = {"first-unbound": "input_order", "smallest-domain": "first_fail",
              "weighted-degree": "dom_w_deg"}
VALUE_CHOICES = {"min": "indomain_min", "max": "indomain_max"}
BRANCHER = "MiniZinc's int_search"


def refusal(heuristic: Heuristic) -> str:
    """Why MiniZinc cannot state ``heuristic`` ('' when it can)."""
    return search_refusal(heuristic, "MiniZinc", BRANCHER, VALUE_CHOICES)


def annotation(plan: SearchPlan, variables: Sequence[IntVar],
               list_of: Callable[[Sequence[IntVar]], str]) -> str:
    """The ``solve`` item's annotation for ``plan`` ('' for the solver's own search);
    ``variables`` are all the exported ones (auxiliaries included), ``list_of`` writes
    a list of them as a one-dimensional array."""
    if plan.auto:
        return ""
    if plan.value_choice not in VALUE_CHOICES:
        raise UnsupportedCombination(f"{no_ranking(BRANCHER)}; use /min or /max, or auto")
    searches = [_int_search(plan.variables, SELECTIONS[plan.selection],
                            VALUE_CHOICES[plan.value_choice], list_of)]
    rest = others(plan, variables)
    if rest:
        searches.append(_int_search(rest, "input_order", "indomain_min", list_of))
    if len(searches) == 1:
        return searches[0]
    return "seq_search([\n    " + ",\n    ".join(searches) + "\n  ])"


def others(plan: SearchPlan, variables: Sequence[IntVar]) -> list[IntVar]:
    """The variables ``plan`` does not branch on, labelled after its own."""
    decided = set(plan.variables)
    return [variable for variable in variables if variable not in decided]


def described(heuristic: Heuristic, plan: SearchPlan, seed: int, rest: int) -> str:
    """The note on the search, for the top of the file."""
    if plan.auto:
        return "search: auto, the solver's own (no search annotation)"
    note = (f"search: {heuristic}, as int_search(..., {SELECTIONS[plan.selection]}, "
            f"{VALUE_CHOICES[plan.value_choice]})")
    if heuristic.variable_order == "dom-deg":
        note += ", the variables by decreasing degree (ties broken in that order)"
    elif heuristic.variable_order == "random":
        note += f", the variables in a random order (seed {seed})"
    elif heuristic.variable_order == "dom-wdeg":
        note += " (the solver's own weighting of failures)"
    if rest:
        note += f"; then {rest} other variables, input_order, indomain_min"
    return note


def _int_search(variables: Sequence[IntVar], selection: str, value: str,
                list_of: Callable[[Sequence[IntVar]], str]) -> str:
    return f"int_search({list_of(variables)}, {selection}, {value})"
