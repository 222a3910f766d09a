"""Which PuzzleLab combinations the throughput benchmark runs, and how they are named.

A combination is written ``SOLVER:VIEWPOINT[,OPTION=VALUE...]:HEURISTIC``, for
example ``cpsat:classic,alldiff=strong:first-fail/min``; a backend's name alone
stands for its best Sudoku combination (``BEST``, below).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from puzzlelab.errors import OptionError, UnknownName
from solvers import BACKENDS, Heuristic, load_backends
from viewpoints import get_viewpoint

PUZZLE = "sudoku"
FORM = "SOLVER:VIEWPOINT[,OPTION=VALUE...]:HEURISTIC (or a backend's name alone)"


@dataclass(frozen=True)
class Combination:
    """One way of solving with PuzzleLab: a backend, a viewpoint with options, a heuristic."""

    solver: str
    viewpoint: str
    options: tuple[tuple[str, str], ...]
    heuristic: str

    @property
    def name(self) -> str:
        """The combination as it is written on the command line and in the table.

        >>> Combination("cp", "classic", (("alldiff", "strong"),), "first-fail/min").name
        'cp:classic,alldiff=strong:first-fail/min'
        """
        options = "".join(f",{option}={value}" for option, value in self.options)
        return f"{self.solver}:{self.viewpoint}{options}:{self.heuristic}"

    @classmethod
    def parse(cls, text: str) -> Combination:
        """Read a combination's name; a backend's name alone means its best combination.

        >>> Combination.parse("cpsat:value-position,alldiff=weak:auto").options
        (('alldiff', 'weak'),)
        """
        if ":" not in text and text in BEST_BY_SOLVER:
            return BEST_BY_SOLVER[text]
        parts = text.split(":")
        if len(parts) != 3 or not all(part.strip() for part in parts):
            alone = ", ".join(BEST_BY_SOLVER)
            raise OptionError(f"combination {text!r} is not of the form {FORM}"
                              + ("" if ":" in text else
                                 f"; backends that may be named alone: {alone}"))
        solver, viewpoint_part, heuristic = (part.strip() for part in parts)
        viewpoint, *pairs = (item.strip() for item in viewpoint_part.split(","))
        options = []
        for pair in pairs:
            option, equals, value = (item.strip() for item in pair.partition("="))
            if not equals or not option or not value:
                raise OptionError(f"combination {text!r}: viewpoint option {pair!r} must be "
                                  "written OPTION=VALUE")
            options.append((option, value))
        return cls(solver, viewpoint, tuple(options), heuristic)

    def check_names(self) -> None:
        """Raise ``UnknownName`` or ``OptionError`` for a backend, viewpoint, option or
        heuristic that does not exist, before anything is timed."""
        load_backends()
        if self.solver not in BACKENDS:
            raise UnknownName("solver", self.solver, BACKENDS.names())
        get_viewpoint(PUZZLE, self.viewpoint).resolve_options(dict(self.options))
        Heuristic.parse(self.heuristic)

    @property
    def registered(self) -> bool:
        """Whether this combination's backend is registered (some are optional)."""
        load_backends()
        return self.solver in BACKENDS


def _strong(solver: str, viewpoint: str, heuristic: str) -> Combination:
    return Combination(solver, viewpoint, (("alldiff", "strong"),), heuristic)


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
BEST: tuple[Combination, ...] = (
    _strong("cpsat", "classic", "auto"),
    Combination("cp", "value-position", (("alldiff", "weak"),), "first-fail/min"),
    _strong("choco", "classic", "first-fail/min"),
    Combination("automata", "boolean", (), "first-fail/min"),
    Combination("python-constraint", "classic", (("alldiff", "weak"),), "first-fail/min"),
)
BEST_BY_SOLVER = {combination.solver: combination for combination in BEST}
#: best combinations the default run leaves out, and why (name them with --combination)
LEFT_OUT = {"python-constraint": "about 3-5 puzzles/s: the 1,000 puzzles alone take minutes"}
DEFAULTS = tuple(combination for combination in BEST if combination.solver not in LEFT_OUT)

CANDIDATE_VIEWPOINTS = ("classic", "channeled", "value-position")
CANDIDATE_HEURISTICS = ("first-fail/min", "dom-deg/min", "dom-wdeg/min", "input/min", "auto")


def candidates(solvers: list[str]) -> list[Combination]:
    """The grid the defaults were chosen from: for each backend, every candidate viewpoint
    under weak and strong all_different, and the one-hot ``boolean`` viewpoint, under
    every candidate heuristic (combinations a backend refuses are reported, not run)."""
    grid = []
    for solver, heuristic in product(solvers, CANDIDATE_HEURISTICS):
        for viewpoint, strength in product(CANDIDATE_VIEWPOINTS, ("weak", "strong")):
            grid.append(Combination(solver, viewpoint, (("alldiff", strength),), heuristic))
        grid.append(Combination(solver, "boolean", (), heuristic))
    return grid
