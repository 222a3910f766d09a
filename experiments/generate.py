"""``puzzlelab generate``: random instances, optionally only those with exactly one solution.

Each puzzle makes its own random candidates from its own declared options
(``PuzzleKind.generate``, in ``puzzles``, which knows no solver). Uniqueness needs
a solver, so it is decided here: the puzzle's counting viewpoint, solver and
heuristic (``viewpoints.counting_defaults``) look for up to 2 solutions, and a
candidate is kept only when a complete search finds exactly one. A puzzle may
steer with that test (Sudoku takes clues away while it holds). ``difficulty`` keeps only
the instances of one grade (:func:`experiments.reasoning.difficulty`); nothing here names
a particular puzzle.

The whole command has one time budget (``time_limit``): every count gets what is left
of it, and when it is spent :class:`BudgetSpent` says what was reached (a count cut short
by the deadline decides nothing: it stops the command). Instances written before stay
written.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.campaign.solving import solve as solve_puzzle
from experiments.reasoning.difficulty import Wanted, both, explained
from experiments.reasoning.difficulty import difficulty as grade_wanted
from puzzlelab.errors import OptionError, PuzzleLabError, UnsupportedCombination
from puzzlelab.wording import counted
from puzzles import PUZZLES, PuzzleKind
from puzzles.kind import GAME_ID_FORMAT
from puzzles.options import OptionValues, name_part
from solvers import Heuristic, Status, clause, equivalent_to_equality, get_backend, solve
from solvers.limits import checked_time_limit
from viewpoints import counting_defaults, get_viewpoint

#: the command's own options, which no puzzle may declare as a generator option
COMMAND_OPTIONS = ("option", "seed", "count", "unique", "output", "time-limit", "difficulty",
                   "explained-difficulty", "format", "help")

NATIVE_FORMAT = "native"
"""The file format ``generate`` writes by default: the puzzle's own (``write``, with the
known solution), under its first suffix."""
FILE_FORMATS = (NATIVE_FORMAT, GAME_ID_FORMAT)
GAME_ID_SUFFIX = ".txt"
"""The suffix of a generated file holding a game ID (its line alone)."""


class BudgetSpent(PuzzleLabError):
    """The time budget ran out before every instance asked for was written.

    Attributes:
        written: instances written before it ran out.
    """

    def __init__(self, message: str, written: int) -> None:
        super().__init__(message)
        self.written = written


@dataclass(frozen=True)
class Generated:
    """One written instance, and how many candidates were drawn to find it."""

    path: Path
    instance: Any
    candidates: int


OTHER_THAN_FIRST = "other-than-first"


def another_solution(puzzle: str, instance: Any, time_limit: float | None = None) -> Any:
    """A solution of ``instance`` other than its known one, or None when a complete
    search finds none (or does not finish in ``time_limit`` seconds).

    The counting viewpoint's first solution, when it is not the known one; else a short
    search that takes each decision variable's value in that solution last. Any other
    solution then comes first (at the first decision where it parts from
    the first solution's path, its branch is tried before that path's), and it parts
    wherever it can, so it shows many of the places where the instance is ambiguous at
    once: what a generator repairing them needs. When that search runs long (few places
    left, deep in the order), a clause forbidding the first solution's decisions and the
    counting order settle it, on 0/1 decision variables; otherwise there is no answer.
    A counting solver that cannot rank values (CP-SAT) gets, on the same solver, a clause
    that some decision differs from the first solution (one flag ``x == value`` each).
    """
    counting = counting_defaults(puzzle)
    chosen = get_viewpoint(puzzle, counting.viewpoint)
    built = chosen.build(instance, chosen.resolve_options(counting.options))
    model = built.model
    first = solve(model, counting.solver, counting.heuristic, time_limit=time_limit)
    if first.assignment is None:
        return None
    values = first.assignment
    solution = built.decode(values)
    if solution != PUZZLES.get(puzzle).known_solution(instance):
        return solution
    decisions = model.search_variables()
    solver = counting.solver
    if "ranked" not in get_backend(solver).capabilities.value_choices:
        # no ranked value order: forbid the known decisions outright, one search
        model.add(clause([], [_equal_flag(model, v, values[v]) for v in decisions]))
        second = solve(model, solver, counting.heuristic, time_limit=time_limit)
        return None if second.assignment is None else built.decode(second.assignment)
    model.add_value_order(OTHER_THAN_FIRST, {
        variable: [v for v in variable.domain if v != values[variable]] + [values[variable]]
        for variable in decisions})
    order = Heuristic.parse(counting.heuristic).variable_order
    heuristic = f"{'input' if order == 'auto' else order}/{OTHER_THAN_FIRST}"
    short = 2.0 + 3 * (first.statistics.solve_s or 0.0)
    second = solve(model, solver, heuristic,
                   time_limit=short if time_limit is None else min(short, time_limit))
    if second.status is Status.TIMEOUT and all(v.domain == (0, 1) for v in decisions):
        model.add(clause([v for v in decisions if values[v] == 0],
                         [v for v in decisions if values[v] == 1]))
        second = solve(model, counting.solver, counting.heuristic, time_limit=time_limit)
    if second.assignment is None:
        return None
    other = built.decode(second.assignment)
    return None if other == solution else other


def _equal_flag(model: Any, variable: Any, value: int) -> Any:
    """A new 0/1 variable that is 1 exactly when ``variable`` takes ``value``."""
    flag = model.bool_var(f"{variable.name}_is_{value}")
    model.add(equivalent_to_equality(flag, variable, value))
    return flag


def solution_count(puzzle: str, instance: object, time_limit: float | None = None) -> int | None:
    """Solutions of ``instance`` up to 2, or None when the search did not finish."""
    counting = counting_defaults(puzzle)
    run = solve_puzzle(instance, viewpoint=counting.viewpoint, solver=counting.solver,
                       heuristic=counting.heuristic, options=counting.options,
                       time_limit=time_limit, max_solutions=2)
    if run.result.status is Status.UNSATISFIABLE:
        return 0
    if run.result.status is not Status.SOLVED or (run.result.statistics.solutions < 2
                                                  and not run.result.complete):
        return None
    return run.result.statistics.solutions


def named_options(arguments: list[str]) -> list[str]:
    """``["--size", "5x5", "--density=0.3"]`` (the options the command does not know
    itself) as ``["size=5x5", "density=0.3"]``."""
    pairs, position = [], 0
    while position < len(arguments):
        word = arguments[position]
        if not word.startswith("--") or len(word) == 2:
            raise OptionError(f"unexpected argument {word!r}: generator options are written "
                              f"--NAME VALUE or -o NAME=VALUE")
        name, equals, value = word[2:].partition("=")
        if not equals:
            if position + 1 == len(arguments) or arguments[position + 1].startswith("--"):
                raise OptionError(f"option --{name} needs a value: --{name} VALUE")
            position += 1
            value = arguments[position]
        pairs.append(f"{name}={value}")
        position += 1
    return pairs


def options_help() -> str:
    """Every puzzle's generator options, one line each, for ``generate --help``."""
    lines = []
    for name in PUZZLES.names():
        declared = PUZZLES.get(name).generator_options
        lines.append(f"{name}: " + "; ".join(f"--{option} ({spec.describe()})"
                                             for option, spec in declared.items()))
    return "\n\n".join(lines)


def generate(puzzle: str, options: Mapping[str, object] | None = None, seed: int = 0,
             count: int = 1, unique: bool = False, output: Path = Path("."),
             max_candidates: int = 10_000, time_limit: float | None = 60.0,
             on_candidate: Callable[[int, int], None] | None = None,
             difficulty: str | None = None, file_format: str = NATIVE_FORMAT,
             explained_difficulty: tuple[int, int] | None = None) -> Iterator[Generated]:
    """Write ``count`` random instances of ``puzzle`` into ``output``; with ``unique`` only
    instances with exactly one solution, and with ``difficulty`` (which implies
    ``unique``) only those of them of that grade on the puzzle's ladder; with
    ``explained_difficulty`` (LOW, HIGH), which implies ``unique`` too, only those whose
    step-wise explanation's difficulty is within it.

    ``options`` are the puzzle's generator options by name (text or typed values;
    the others take their defaults). Files are named after the puzzle, the options,
    the seed and the instance's number. ``on_candidate(index, drawn)`` is told of every
    candidate drawn for instance number ``index`` before it is checked, so a caller can
    show a long ``--unique`` search moving. ``time_limit`` is the budget, in seconds, of
    the whole iteration (None: no limit); when it is spent the iterator raises
    :class:`BudgetSpent`. Bad arguments raise ``OptionError`` here, at the call, not at
    the first instance. ``file_format`` ``tatham`` writes each instance's game ID instead
    of the puzzle's own file (a ``.txt`` of one line, no solution): the generator options
    the puzzle's ``game_id_options`` names are asked for first, and a candidate the game ID
    cannot hold raises ``UnsupportedCombination`` as soon as it is drawn.
    """
    kind = PUZZLES.get(puzzle)
    wanted = both(None if difficulty is None else grade_wanted(kind.name, difficulty),
                  None if explained_difficulty is None
                  else explained(explained_difficulty, time_limit))
    given = dict(options or {})
    values = kind.resolve_generator_options(wanted.options(given) if wanted else given)
    if count < 1:
        raise OptionError(f"--count must be at least 1, not {count}")
    if file_format not in FILE_FORMATS:
        raise OptionError(f"--format must be one of {', '.join(FILE_FORMATS)}, not "
                          f"{file_format!r}")
    needed = {name: value for name, value in kind.game_id_options.items()
              if values[name] != value}
    if file_format == GAME_ID_FORMAT and needed:
        raise OptionError(f"--format {GAME_ID_FORMAT}: a generated {puzzle} has a game ID only "
                          f"with " + ", ".join(
                              f"--{name} {value} (--{name}: "
                              f"{kind.generator_options[name].help})"
                              for name, value in needed.items()))
    checked_time_limit(time_limit, "--time-limit")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OptionError(f"--output {output}: cannot make the folder ({error.strerror})"
                          ) from None
    stem = f"{puzzle}-{name_part(kind.generator_options, values)}-s{seed}"
    budget = _Budget(kind, values, count, unique or wanted is not None, time_limit, wanted,
                     wanted.advice(given) if wanted else "")
    return _instances(budget, stem, seed, output, max_candidates, on_candidate,
                      file_format == GAME_ID_FORMAT)


VERDICTS = ("exactly one solution but fell short of the options asked (such as a Sudoku "
            "whose clues could go no lower than its target)", "2+ solutions",
            "no finished count")
"""What counts of a candidate said, best first."""


class _Budget:
    """The deadline of one generation, and the best verdict any candidate had so far."""

    def __init__(self, kind: PuzzleKind[Any, Any], values: OptionValues, count: int,
                 unique: bool, time_limit: float | None, wanted: Wanted | None = None,
                 advice: str = "") -> None:
        self.kind, self.values, self.count, self.unique = kind, values, count, unique
        self.wanted, self.advice = wanted, advice
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.written = self.drawn = 0
        self.best = len(VERDICTS)  # the best verdict's place in VERDICTS: none yet
        self.fewest: dict[str, int] = {}  # the least size a unique candidate came down to

    def left(self, most: float | None = None) -> float | None:
        """Seconds left (at most ``most``); :class:`BudgetSpent` when there are none."""
        if self.deadline is None:
            return most
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self.spent()
        return left if most is None else min(left, most)

    def counted(self, solutions: int | None) -> None:
        """Keep the best verdict: one solution, else 2+, else an unfinished count."""
        self.best = min(self.best, [1, 2, None].index(solutions))

    def unique_seen(self, instance: object) -> None:
        """Keep the least of each size (Sudoku's clues) a unique candidate came down to."""
        for name, size in self.kind.generated_sizes(instance).items():
            self.fewest[name] = min(size, self.fewest.get(name, size))

    def short_of(self, spent: bool) -> str:
        """For a size target the unique candidates stopped short of (``--unique``, not a
        grade: there the size is a ceiling), the least they reached; when the time
        limit stopped them, that the limit allows that size or more."""
        said = ""
        for name, fewest in self.fewest.items():
            asked = self.values[name]
            if self.wanted is not None or not isinstance(asked, int) or fewest <= asked:
                continue
            said += (f"; unique candidates came down to {fewest} {name} at the fewest "
                     f"(--{name} {asked} asked)")
            if spent:
                said += (f": this time limit allows --{name} {fewest} or more; fewer needs "
                         f"a longer --time-limit")
        return said

    def asked(self) -> str:
        """``unique sudoku instances of grade strong (box 3, clues 32)``."""
        options = ", ".join(f"{name} {value}" for name, value in self.values.items())
        grade = f" {self.wanted.asked}" if self.wanted else ""
        return f"{'unique ' if self.unique else ''}{self.kind.name} instances{grade} ({options})"

    def seen(self, spent: bool = False) -> str:
        """What the candidates checked were: what ``wanted`` saw of the unique ones, else
        the best count's verdict and how far they came down; then, for a grade, what to
        change."""
        wanted = self.wanted.seen() if self.wanted else ""
        return (wanted or ("" if self.best == len(VERDICTS) else
                           f"; the best candidate checked had {VERDICTS[self.best]}")
                ) + self.short_of(spent) + self.advice

    def spent(self) -> BudgetSpent:
        return BudgetSpent(
            f"stopped at the {self.time_limit:g} s time limit: {self.written} of {self.count} "
            f"{self.asked()} written after {counted(self.drawn, 'candidate')}"
            f"{self.seen(spent=True)}",
            self.written)


def _instances(budget: _Budget, stem: str, seed: int, output: Path, max_candidates: int,
               on_candidate: Callable[[int, int], None] | None,
               game_ids: bool = False) -> Iterator[Generated]:
    kind, values, unique, wanted = budget.kind, budget.values, budget.unique, budget.wanted
    rng = random.Random(seed)
    last: list[tuple[object, bool]] = []  # the instance tested last, and its verdict

    def is_unique(instance: object) -> bool:
        """One solution? Asked again of the same instance (a puzzle that steered with this
        test returns the last instance it tested, or an equal one), the answer is
        remembered."""
        if not last or last[0][0] != instance:
            solutions = solution_count(kind.name, instance, budget.left())
            budget.left()  # a count cut short by the deadline proves nothing: stop
            budget.counted(solutions)
            last[:] = [(instance, solutions == 1)]
        return last[0][1]

    def finder(instance: object) -> object:
        other = another_solution(kind.name, instance, budget.left())
        budget.left()  # a search cut short by the deadline proves nothing: stop
        return other

    steer = None if wanted is None else wanted.steer

    def steering(instance: object) -> bool:
        """The test the generator steers with: ``wanted``'s own first, when it has one
        (cheaper than a count), then uniqueness."""
        return (steer is None or steer(instance)) and is_unique(instance)

    def kept(instance: object) -> bool:
        if wanted is None:
            return True
        holds = wanted.holds(instance)
        budget.left()
        return holds

    enough = None if wanted is None else wanted.reached
    for index in range(1, budget.count + 1):
        name = f"{stem}-{index}"
        drawn = 0
        while True:
            budget.left()
            drawn += 1
            budget.drawn += 1
            if drawn > max_candidates:
                grade = f" {wanted.asked}" if wanted else ""
                raise OptionError(f"no unique {kind.name}{grade} found in {max_candidates} "
                                  f"candidates{budget.seen()}"
                                  + ("" if budget.advice else "; try other generator options"))
            if on_candidate:
                on_candidate(index, drawn)
            candidate = kind.generate(values, rng, name, steering if unique else None,
                                      another_solution=finder if unique else None,
                                      enough=enough if unique else None,
                                      reached=budget.unique_seen if unique else None)
            game_id = None if candidate is None or not game_ids else _game_id(kind, candidate)
            if candidate is not None and (not unique or steering(candidate)) \
                    and kept(candidate):
                break
        if game_id is not None:
            path = output / f"{name}{GAME_ID_SUFFIX}"
            path.write_text(game_id + "\n", encoding="utf-8")
        else:
            path = output / f"{name}{kind.suffixes[0]}"
            path.write_text(kind.write(candidate, kind.known_solution(candidate)),
                            encoding="utf-8")
        budget.written += 1
        yield Generated(path, candidate, drawn)


def _game_id(kind: PuzzleKind[Any, Any], instance: object) -> str:
    """The game ID of a generated instance, or ``UnsupportedCombination`` naming it and
    what the ID cannot hold."""
    try:
        return kind.game_id(instance)
    except UnsupportedCombination as refused:
        raise UnsupportedCombination(f"{kind.instance_name(instance)}: {refused}") from None
