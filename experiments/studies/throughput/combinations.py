"""Which PuzzleLab combinations the throughput benchmark runs, and how they are named.

A combination is a :class:`~experiments.studies.kit.records.Choice`, written
``SOLVER:VIEWPOINT[,OPTION=VALUE...]:HEURISTIC``, for example
``cpsat:classic,alldiff=strong:first-fail/min``; a backend's name alone stands for its
best Sudoku combination (``BEST``, below).
"""

from __future__ import annotations

from itertools import product

from experiments.studies.kit.records import FORM, Choice
from puzzlelab.errors import OptionError

PUZZLE = "sudoku"


def parse_combination(text: str) -> Choice:
    """Read a combination's name; a backend's name alone means its best combination.

    >>> parse_combination("cpsat").name
    'cpsat:classic,alldiff=strong:auto'
    """
    if ":" in text:
        return Choice.parse(text)
    if text not in BEST_BY_SOLVER:
        raise OptionError(f"combination {text!r} is not of the form {FORM} (or a backend's "
                          f"name alone); backends that may be named alone: "
                          f"{', '.join(BEST_BY_SOLVER)}")
    return BEST_BY_SOLVER[text]


def registered(combination: Choice) -> bool:
    """Whether this combination's backend is registered (some are optional)."""
    from solvers import BACKENDS, load_backends

    load_backends()
    return combination.solver in BACKENDS


def _strong(solver: str, viewpoint: str, heuristic: str) -> Choice:
    return Choice(solver, viewpoint, heuristic, (("alldiff", "strong"),))


# Each backend's best Sudoku combination among the candidates below, every solution
# checked: how each was chosen, and the figures, are in docs/sudoku-throughput.md.
BEST: tuple[Choice, ...] = (
    _strong("cpsat", "classic", "auto"),
    Choice("cp", "value-position", "first-fail/min", (("alldiff", "weak"),)),
    _strong("choco", "classic", "first-fail/min"),
    Choice("automata", "boolean", "first-fail/min"),
    Choice("python-constraint", "classic", "first-fail/min", (("alldiff", "weak"),)),
)
BEST_BY_SOLVER = {combination.solver: combination for combination in BEST}
#: best combinations the default run leaves out, and why (name them with --combination)
LEFT_OUT = {"python-constraint": "about 3-5 puzzles/s: the 1,000 puzzles alone take minutes"}
DEFAULTS = tuple(combination for combination in BEST if combination.solver not in LEFT_OUT)

CANDIDATE_VIEWPOINTS = ("classic", "channeled", "value-position")
CANDIDATE_HEURISTICS = ("first-fail/min", "dom-deg/min", "dom-wdeg/min", "input/min", "auto")


def candidates(solvers: list[str]) -> list[Choice]:
    """The grid the defaults were chosen from: for each backend, every candidate viewpoint
    under weak and strong all_different, and the one-hot ``boolean`` viewpoint, under
    every candidate heuristic (combinations a backend refuses are reported, not run)."""
    grid = []
    for solver, heuristic in product(solvers, CANDIDATE_HEURISTICS):
        for viewpoint, strength in product(CANDIDATE_VIEWPOINTS, ("weak", "strong")):
            grid.append(Choice(solver, viewpoint, heuristic, (("alldiff", strength),)))
        grid.append(Choice(solver, "boolean", heuristic))
    return grid
