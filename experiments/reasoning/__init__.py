"""Reasoning features: what an instance needs to be solved, above the solving itself.

- :mod:`.grading`: each instance's grade, the weakest reasoning on its puzzle's ladder
  that solves it without search (``puzzlelab grade``);
- :mod:`.difficulty`: generated instances of one grade (``generate --difficulty``).

What is puzzle-specific (each puzzle's ladder) is declared beside the puzzle's
viewpoints (:mod:`viewpoints.grades`); nothing here names a puzzle. Explanations and hints
belong here too.
"""

from experiments.reasoning.difficulty import Wanted, difficulty
from experiments.reasoning.grading import Grade, count_solutions, grade, ladder_of, lowest_rung

__all__ = ["Grade", "Wanted", "count_solutions", "difficulty", "grade", "ladder_of",
           "lowest_rung"]
