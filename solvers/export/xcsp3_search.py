"""A heuristic in an XCSP3 file: the decision variables, and ACE's nearest options.

XCSP3 states the search by one annotation, ``<decision>``: the variables to branch
on, listed here in the order the heuristic breaks ties (model order, by degree for
``dom-deg``, a seeded shuffle for ``random``, a viewpoint's own order). ACE reads it
with ``-ea``. How to choose among them and which value first is no part of an XCSP3
file: the note at the top names ACE's options that come nearest (``-varh``,
``-valh``; ``-r_n=1`` for one run without restarts and ``-lc=0`` without last-conflict
reasoning, as PuzzleLab's depth-first search). ``auto`` writes no annotation. What
neither the file nor an ACE option states is refused: ``+symmetric``, probing,
``+dway`` and a viewpoint's ranking of values.
"""

from __future__ import annotations

from solvers.export.searches import search_refusal
from solvers.heuristics import Heuristic, SearchPlan

#: ACE's variable ordering nearest each selection (``java -jar ACE.jar`` lists them)
SELECTIONS = {"first-unbound": "Lexico", "smallest-domain": "Dom",
              "weighted-degree": "WdegOnDom"}
#: ACE's value ordering nearest each value order
VALUE_CHOICES = {"min": "First", "max": "Last", "random": "Rand"}


def refusal(heuristic: Heuristic) -> str:
    """Why an XCSP3 file with ACE's options cannot state ``heuristic`` ('' when it can)."""
    return search_refusal(heuristic, "XCSP3", "ACE", VALUE_CHOICES)


def ace_options(heuristic: Heuristic, plan: SearchPlan, seed: int,
                covers_all: bool = True) -> list[str]:
    """ACE's command-line options nearest ``heuristic`` (none for ``auto``).

    ``-ea`` makes ACE branch on the annotated variables first; ACE 2.6 with
    ``-varh=Lexico`` stops on an assertion when they are not all the variables, so
    then it is left out (``covers_all`` False)."""
    if plan.auto:
        return []
    variable = ("DdegOnDom" if heuristic.variable_order == "dom-deg"
                else SELECTIONS[plan.selection])
    annotated = ["-ea"] if covers_all or variable != "Lexico" else []
    options = [*annotated, f"-varh={variable}",
               f"-valh={VALUE_CHOICES[heuristic.value_order]}"]
    if heuristic.value_order == "random":
        options.append(f"-seed={seed}")
    return [*options, "-r_n=1", "-lc=0"]


def described(heuristic: Heuristic, plan: SearchPlan, seed: int, covers_all: bool) -> str:
    """The note on the search, for the top of the file."""
    if plan.auto:
        return "search: auto, the solver's own (no decision annotation)"
    note = (f"search: {heuristic}; its {len(plan.variables)} decision variables are the "
            f"<decision> annotation")
    if heuristic.variable_order == "dom-deg":
        note += ", by decreasing degree"
    elif heuristic.variable_order == "random":
        note += f", in a random order (seed {seed})"
    note += f"; nearest ACE options: {' '.join(ace_options(heuristic, plan, seed, covers_all))}"
    if heuristic.value_order == "random":
        note += " (ACE's own random values, not PuzzleLab's)"
    return note
