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


# Each backend's best Sudoku combination: the highest puzzles/s per core among the
# candidates below (`python -m experiments.studies.throughput --candidates BACKEND --puzzles 200
# --budget 10 --time-limit 10`; python-constraint on 20 puzzles; choco one heuristic per
# process, since a process crashed after about 4,000 Choco solves), every solution
# checked, then the closest few measured again side by side. 2 cores shared with other work
# (load 2-3), so differences under about 15 % are noise. Figures: puzzles/s per core,
# mean backtracks, on the first 200 17-clue puzzles.
#   cpsat: classic strong auto 398/s (again: 330-340/s); value-position strong auto
#          265/s; classic strong first-fail/min, dom-deg/min and input/min 252-265/s
#          (again: 203-226/s; the same 26 branches each); channeled at most 147/s,
#          boolean at most 137/s; weak alldiff at most 98/s.
#   cp:    value-position weak first-fail/min 416/s, 27 backtracks (again: 375/s and
#          309-373/s on 100 puzzles); value-position strong first-fail/min 400/s, 7.6
#          (again: 306/s, 324/s), strong input/min 398/s; channeled at most 322/s;
#          classic strong first-fail/min 228/s, 414 backtracks; classic with auto
#          (the solver's default search) times out on some puzzles.
#   python-constraint (weak alldiff only, no auto): classic first-fail/min 5.0/s, 2,296
#          backtracks (3.0/s, 3,812 on 100 puzzles); channeled 1.0/s; value-position,
#          boolean and input order did not solve a puzzle in 30 s.
#   automata (boolean viewpoint only): first-fail/min 59/s and 50/s, dom-deg/min (the
#          same search, 2.1 backtracks) 60/s and 47/s, auto 53/s and 43/s.
#   choco: classic strong auto 1,217/s, 0.27 backtracks, first-fail/min 1,128/s, 0.56;
#          side by side on 200 puzzles: auto 1,011-1,280/s, first-fail/min
#          1,061-1,198/s, dom-wdeg 928-1,118/s; on all 1,000, three times each: auto
#          1,194-1,231/s (0.30 backtracks), first-fail/min 1,153-1,231/s (0.41). A tie
#          within the noise: first-fail/min is kept, the direct Choco script's search, so
#          that the ratio to that script measures PuzzleLab's own cost per puzzle.
#          input/min and dom-deg/min 1,066-1,068/s; value-position at most 668/s,
#          channeled at most 445/s, boolean at most 174/s, classic weak at most 256/s.
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
