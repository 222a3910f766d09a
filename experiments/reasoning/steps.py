"""What an explanation is made of: facts in the puzzle's words, the constraints a step
uses, the steps from the clues to the solution, and their JSON form (``explain --json``).

A :class:`Step` derives :attr:`~Step.facts` from :attr:`~Step.constraints` and earlier
facts (:attr:`~Step.premises`); its :attr:`~Step.cost` is the weights of its
constraints plus one per premise. An :class:`Explanation` is the steps of one instance,
cheapest available first, with how the sequence ended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from viewpoints.terms import Cell

SOLVED = "solved"
"""Every variable the puzzle's terms name has one value: the deductions reach the solution."""
CONTRADICTION = "contradiction"
"""The last step shows that the clues (or a hint's entries) admit no solution."""
STUCK = "several solutions"
"""No step is left and some variable still has two values: the puzzle has several
solutions there (every value left takes part in one)."""
TIME_LIMIT = "time limit"
"""The time limit ended the sequence before the last step."""
STEP_LIMIT = "steps asked"
"""As many steps as were asked were given (``--steps``)."""
ENDINGS = (SOLVED, CONTRADICTION, STUCK, TIME_LIMIT, STEP_LIMIT)


@dataclass(frozen=True)
class Fact:
    """What is known of one variable: the values it may still take.

    Attributes:
        text: the fact in the puzzle's words (``r3c4 = 7``, ``r3c4 is not 5 or 6``).
        array: the model array the variable is in (``cell``).
        index: its place in that array, 0-based.
        values: the values it may still take, in the puzzle's values.
        removed: for a derived fact, the values the step rules out; for a premise, every
            value ruled out before.
        cells: the grid cells the fact is about, (row, column) 0-based.
        mark: what a picture writes in its cell once one value is left (``7``, a filled
            square), else empty.
    """

    text: str
    array: str
    index: tuple[int, ...]
    values: tuple[int, ...]
    removed: tuple[int, ...]
    cells: tuple[Cell, ...]
    mark: str = ""

    @property
    def fixed(self) -> bool:
        """Whether one value is left."""
        return len(self.values) == 1

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "array": self.array, "index": list(self.index),
                "values": list(self.values), "removed": list(self.removed),
                "cells": [list(cell) for cell in self.cells], "mark": self.mark}


@dataclass(frozen=True)
class Reason:
    """One constraint of the viewpoint as a step uses it (a viewpoint's constraints
    posted under one label form one, as ``row 3``'s clauses do).

    Attributes:
        text: its name in the puzzle's words (``row 3``, ``the island at (4,2)``).
        group: the group it was posted in (``rows``).
        description: what the group states (``each row holds each digit once``).
        weight: what using it costs (:data:`experiments.reasoning.costs`).
        cells: the grid cells its variables are about.
    """

    text: str
    group: str
    description: str
    weight: int
    cells: tuple[Cell, ...]

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "group": self.group, "description": self.description,
                "weight": self.weight, "cells": [list(cell) for cell in self.cells]}


@dataclass(frozen=True)
class Step:
    """One deduction: ``constraints`` and ``premises`` together, with any of ``facts``
    false, have no solution; without any one of them the facts no longer all follow.

    Attributes:
        facts: what the step derives (empty for a contradiction: then ``contradiction``).
        constraints: the constraints it uses.
        premises: the earlier facts (clues included) it uses.
        cost: the constraints' weights plus one per premise.
        contradiction: the step shows there is no solution.
    """

    facts: tuple[Fact, ...]
    constraints: tuple[Reason, ...]
    premises: tuple[Fact, ...]
    cost: int
    contradiction: bool = False

    @property
    def text(self) -> str:
        """The step in a sentence: ``row 3 with r3c1 = 5: r3c4 is not 5``."""
        used = " and ".join(reason.text for reason in self.constraints)
        given = f" with {', '.join(fact.text for fact in self.premises)}" if self.premises else ""
        derived = ("no solution" if self.contradiction
                   else "; ".join(fact.text for fact in self.facts))
        return f"{used}{given}: {derived}"

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "facts": [fact.to_json() for fact in self.facts],
                "constraints": [reason.to_json() for reason in self.constraints],
                "premises": [fact.to_json() for fact in self.premises],
                "cost": self.cost, "contradiction": self.contradiction}


@dataclass(frozen=True)
class Explanation:
    """The steps that explain one instance, cheapest available first.

    Attributes:
        instance: the instance's name.
        puzzle: its puzzle's name.
        viewpoint: the viewpoint explained (``sudoku/classic``).
        givens: the facts known before the first step (the clues, and a hint's entries).
        steps: the steps, in order.
        ending: how the sequence ended (one of :data:`ENDINGS`).
        solution: the puzzle's JSON solution form when the steps reach it, else None.
        note: what the ending means for this instance, in a sentence.
        seconds: how long the explaining took.
    """

    instance: str
    puzzle: str
    viewpoint: str
    givens: tuple[Fact, ...]
    steps: tuple[Step, ...]
    ending: str
    solution: Any = None
    note: str = ""
    seconds: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def difficulty(self) -> int:
        """The cost of the hardest step (0 with no step)."""
        return max((step.cost for step in self.steps), default=0)

    @property
    def total_cost(self) -> int:
        """The cost of every step together."""
        return sum(step.cost for step in self.steps)

    def summary_json(self) -> dict[str, object]:
        """What ``explain --json --difficulty-only`` prints of it."""
        return {"instance": self.instance, "puzzle": self.puzzle,
                "viewpoint": self.viewpoint, "difficulty": self.difficulty,
                "total_cost": self.total_cost, "steps": len(self.steps),
                "ending": self.ending, "seconds": round(self.seconds, 3)}

    def to_json(self) -> dict[str, object]:
        """What ``explain --json`` prints of it."""
        return {**self.summary_json(), "solution": self.solution, "note": self.note,
                "givens": [fact.to_json() for fact in self.givens],
                "steps": [step.to_json() for step in self.steps]}
