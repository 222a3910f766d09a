"""A model rewritten for an export format: what the format lacks, decomposed.

The format's native constraints are declared as data, as a backend's are
(:class:`solvers.capabilities.Capabilities`); the rest go through the same shared
decompositions the backends use (:mod:`solvers.decompositions`). The constraints a
model leaves out of the search (checked after search, lazy) are posted like the others:
a file has no solve loop to check them, and posting them keeps exactly the solutions
the loop would accept. Each such choice is a note for the top of the file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from puzzlelab.errors import UnsupportedCombination
from puzzlelab.wording import counted
from solvers.backend_contract import LoweredModel
from solvers.constraints import Constraint
from solvers.decompositions import DECOMPOSITIONS
from solvers.model import Model

#: what each decomposition becomes, for the notes (by constraint kind)
DECOMPOSED_AS = {
    "connected": "a single-commodity flow from its first node (variables aux_*_flow_* "
                 "and aux_*_absent): one layout may have several flows, so a solver "
                 "counting solutions may count one puzzle solution more than once",
    "connected-by-flow": "a single-commodity flow from its first node, as PuzzleLab "
                         "posts it on every backend",
    "count": "one reified equality per item and a sum",
    "global-cardinality": "one count per value",
    "regular": "a chain of state variables and transition tables",
    "inverse": "binary tables",
}


@dataclass
class Lowering:
    """The model's variables and its constraints for one format, with the notes on how
    it was rewritten (one line each, for a comment at the top of the file)."""

    lowered: LoweredModel
    notes: list[str] = field(default_factory=list)
    #: for each lowered constraint, the index of the model constraint it comes from
    #: (None for those checked after search or lazy in PuzzleLab)
    sources: list[int | None] = field(default_factory=list)


def lower_for(model: Model, native: frozenset[type[Constraint]], format_name: str) -> Lowering:
    """Rewrite ``model`` until each constraint is in ``native``; raises
    ``UnsupportedCombination`` for a constraint with neither form."""
    lowered = LoweredModel(list(model.variables))
    notes: list[str] = []
    if model.after_search:
        notes.append(f"checked after search in PuzzleLab, posted here (the same solutions, "
                     f"another search): {counted(len(model.after_search), 'constraint')} "
                     f"({_kinds(model.after_search)})")
    if model.lazy:
        lazy = [c for c in model.lazy if isinstance(c, Constraint)]
        notes.append(f"lazy in PuzzleLab (cuts added when a solution breaks them), posted "
                     f"whole here: {counted(len(lazy), 'constraint')} ({_kinds(lazy)})")
    posted: list[tuple[Constraint, int | None]] = [
        *((c, index) for index, c in enumerate(model.constraints)),
        *((c, None) for c in model.after_search),
        *((c, None) for c in model.lazy if isinstance(c, Constraint))]
    decomposed: Counter[str] = Counter()
    sources: list[int | None] = []
    pending = list(reversed(posted))
    while pending:
        constraint, source = pending.pop()
        if type(constraint) in native:
            lowered.constraints.append(constraint)
            sources.append(source)
            continue
        if type(constraint) not in DECOMPOSITIONS:
            raise UnsupportedCombination(
                f"cannot export to {format_name}: it has no {constraint.kind} constraint "
                f"and PuzzleLab has no decomposition of it; build the model with a "
                f"viewpoint (or option) that does without {constraint.kind}")
        decomposed[constraint.kind] += 1
        pending.extend((piece, source) for piece in reversed(
            DECOMPOSITIONS[type(constraint)](constraint, lowered.new_var)))
    for kind, number in decomposed.items():
        how = DECOMPOSED_AS.get(kind, "its PuzzleLab decomposition")
        notes.append(f"{counted(number, kind + ' constraint')}, which {format_name} lacks, "
                     f"exported as {how}")
    return Lowering(lowered, notes, sources)


def _kinds(constraints: Sequence[Constraint]) -> str:
    return ", ".join(sorted({c.kind for c in constraints}))
