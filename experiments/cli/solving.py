"""``puzzlelab solve`` and ``puzzlelab draw``: one instance, solved or drawn.

The puzzle, viewpoint and solver modules are imported by the command, and only those
it uses: a Sudoku solve on Choco reads no OR-tools, networkx or plotting library."""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from experiments.cli.app import (
    at_least,
    command,
    note,
    parse_options,
    say,
    say_first_use,
    styled,
)
from experiments.cli.spinner import working
from puzzlelab.errors import OptionError, ParseError

if TYPE_CHECKING:
    from experiments.campaign.solving import PuzzleRun


def _instance_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle name, see `puzzlelab list`")
    parser.add_argument("file", metavar="FILE", type=Path, help="instance file")
    parser.add_argument("--instance", help="instance name or 1-based index")


def _solve_arguments(parser: ArgumentParser) -> None:
    _instance_arguments(parser)
    parser.add_argument("--viewpoint", help="viewpoint (default: the puzzle's best)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="viewpoint option NAME=VALUE, repeatable")
    parser.add_argument("--solver", help="a solver from 'puzzlelab list'")
    parser.add_argument("--heuristic", help="VARORDER/VALUEORDER or auto, then +symmetric, "
                                            "+probe or +probe-all")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="seconds of search")
    parser.add_argument("--all", action="store_true", dest="all_solutions",
                        help="count every solution")
    parser.add_argument("--max-solutions", type=at_least(0), metavar="N",
                        help="stop after N solutions (default 1; 0 counts them all, as --all)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of random orders and solvers")
    parser.add_argument("--json", action="store_true", dest="as_json",
                        help="print the run record as one JSON object")
    parser.add_argument("--svg", type=Path, metavar="FILE", help="also write the solved grid "
                        "(the puzzle, if none is found) as SVG here")


@command("solve", _solve_arguments)
def solve(given: Namespace) -> int | None:
    """Solve one instance and print the solution, its check and the statistics."""
    from experiments.campaign.solving import solve_instance
    from puzzles import PUZZLES
    from solvers.record import Status
    from viewpoints import DEFAULTS

    if given.all_solutions and given.max_solutions:
        raise OptionError("--all counts every solution: leave out --max-solutions")
    limit = (None if given.all_solutions or given.max_solutions == 0
             else given.max_solutions or 1)
    kind = PUZZLES.get(given.puzzle)
    defaults = DEFAULTS.get(kind.name)
    file: Path = given.file
    chosen = kind.load(file, given.instance)
    # ``is None``, not ``or``: an empty ``--viewpoint ''`` is an unknown name, not the default.
    # The default viewpoint comes with its default options, under those the user gives.
    options = parse_options(given.option)
    if given.viewpoint is None:
        options = {**defaults.options, **options}
    viewpoint = defaults.viewpoint if given.viewpoint is None else given.viewpoint
    solver = defaults.solver if given.solver is None else given.solver
    heuristic = (_default_heuristic(defaults.heuristic, limit) if given.heuristic is None
                 else given.heuristic)
    say_first_use([solver])
    with working(f"solving {file.name}: {viewpoint} on {solver}, {heuristic}"):
        run = solve_instance(given.puzzle, chosen, viewpoint, solver, heuristic, options,
                             time_limit=given.time_limit, max_solutions=limit, seed=given.seed)
    if given.as_json:
        import json

        from experiments.campaign.record import of_run

        say(json.dumps(of_run(run, instance_file=str(file)).to_json()))
    else:
        _print_run(run, chosen)
    if given.svg is not None:
        given.svg.write_text(kind.render_svg(chosen, run.solution), encoding="utf-8")
        (note if given.as_json else say)(  # stdout holds JSON alone
            f"wrote {given.svg}" + ("" if run.solution is not None else
                                    " (the puzzle: no solution was found)"))
    if run.violations or run.status is Status.ERROR:
        return 1  # a wrong answer, or a solver that failed
    return None


def _default_heuristic(default: str, max_solutions: int | None) -> str:
    """The puzzle's default heuristic; ``+symmetric`` (which looks for one solution) is left
    out of it when the run counts solutions, rather than refused as a named one is."""
    from solvers.heuristics import Heuristic
    from solvers.symmetry import counting_refusal

    if counting_refusal(max_solutions) is None:
        return default
    return str(Heuristic.parse(default).without_symmetric())


def _compared(run: PuzzleRun, known: object) -> str:
    """How the solution found compares with the one the file gives (``--json``'s
    ``matches_known_solution``), in words."""
    if known is None:
        return "none in the file"
    if run.known_solution_matches is None:
        return "not compared (no solution found)"
    if run.known_solution_matches:
        return styled("matches", "green")
    return styled("differs", "yellow") + (" (both are correct: the puzzle has more than one "
                                   "solution)" if run.correct else "")


def _print_run(run: PuzzleRun, instance: object) -> None:
    from puzzles import PUZZLES

    kind = PUZZLES.get(run.puzzle)
    options = ", ".join(f"{k}={v}" for k, v in run.options.items())
    say(f"{styled(run.puzzle, 'bold')} {run.instance}: viewpoint {run.viewpoint}"
        f"{f' ({options})' if options else ''}, solver {run.solver}, "
        f"heuristic {run.heuristic}")
    say(kind.render_text(instance, run.solution))
    if run.violations is None:
        verdict = "no solution to check"
    elif not run.violations:
        verdict = styled("correct", "green")
    else:
        verdict = styled("WRONG", "red") + ": " + "; ".join(run.violations)
    say(f"status: {styled(run.status.value, 'bold')}  check: {verdict}  "
        f"known solution: {_compared(run, kind.known_solution(instance))}"
        + (f"  ({run.message})" if run.message else ""))
    rows = [(name, "-" if value is None else
             f"{value:.4f}" if isinstance(value, float) else str(value))
            for name, value in run.result.statistics.as_dict().items()]
    result = run.result
    rows.append(("search complete", "yes" if result.complete else "no"))
    if result.symmetric is not None:
        rows.append(("symmetries imposed", ", ".join(result.symmetric.imposed)
                     or "none declared"))
        rows.append(("answered by", result.symmetric.answered_by))
    if result.portfolio is not None:  # the figures above are the answering configuration's
        rows.append(("portfolio answered by", str(result.portfolio.answered_by)))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        say(f" {name.ljust(width)}  {value}")


def _draw_arguments(parser: ArgumentParser) -> None:
    _instance_arguments(parser)
    parser.add_argument("--solution", action="store_true",
                        help="draw the known solution the file gives, not the puzzle")
    parser.add_argument("--answer", type=Path, metavar="FILE",
                        help="draw the solution of a run record that `puzzlelab solve --json` "
                             "wrote to this file")
    parser.add_argument("--svg", type=Path, metavar="FILE",
                        help="write the picture as SVG to this file instead of printing it")


@command("draw", _draw_arguments)
def draw(given: Namespace) -> None:
    """Draw an instance without solving it: as text, or as SVG with --svg."""
    from puzzles import PUZZLES

    kind = PUZZLES.get(given.puzzle)
    file, answer, svg = given.file, given.answer, given.svg
    chosen = kind.load(file, given.instance)
    if given.solution and answer is not None:
        raise OptionError("--solution draws the file's solution, --answer a run's: give one")
    shown = kind.known_solution(chosen) if given.solution else None
    if given.solution and shown is None:
        raise OptionError(f"{file}: instance {kind.instance_name(chosen)!r} comes with no "
                          f"known solution to draw")
    if answer is not None:
        shown = kind.solution_from_json(_answer_of(answer))
        wrong = kind.check(chosen, shown)
        if wrong:
            raise OptionError(f"{answer}: its solution does not solve instance "
                              f"{kind.instance_name(chosen)!r} of {file}: {wrong[0]}")
    if svg is None:
        print(kind.render_text(chosen, shown), end="")
        return
    svg.write_text(kind.render_svg(chosen, shown), encoding="utf-8")
    say(f"wrote {svg}")


def _answer_of(path: Path) -> Any:
    """The ``solution`` of the run record (``solve --json``) in ``path``."""
    import json

    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise OptionError(f"{path}: cannot read the run record ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise ParseError(f"not JSON: {error.msg}", source=str(path), line=error.lineno,
                         column=error.colno) from None
    if not isinstance(record, dict) or "solution" not in record:
        raise ParseError("not a run record of `puzzlelab solve --json` (no 'solution')",
                         source=str(path))
    if record["solution"] is None:
        raise OptionError(f"{path}: the run found no solution to draw (status "
                          f"{record.get('status')})")
    return record["solution"]
