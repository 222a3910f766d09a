"""``puzzlelab solve`` and ``puzzlelab draw``: one instance, solved or drawn.

The puzzle, viewpoint and solver modules are imported by the command, and only those
it uses: a Sudoku solve on Choco reads no OR-tools, networkx or plotting library."""

from __future__ import annotations

import logging
from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from experiments.cli.app import (
    INTERRUPTED,
    at_least,
    command,
    note,
    parse_options,
    positive_time_limit,
    say,
    say_first_use,
    styled,
    writable,
)
from experiments.cli.spinner import working
from experiments.cli.trees import tree_arguments, tree_cap, write_run_tree
from puzzlelab.errors import InstanceNotFound, OptionError, ParseError

if TYPE_CHECKING:
    from experiments.campaign.solving import PuzzleRun
    from puzzles import PuzzleKind
    from solvers.record import Statistics

#: solutions ``solve`` prints when it counts several, unless ``--print`` says otherwise
PRINTED_SOLUTIONS = 10


def _instance_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle name, see `puzzlelab list`")
    parser.add_argument("file", metavar="FILE", type=Path, help="instance file")
    parser.add_argument("--instance", metavar="NAME",
                        help="instance name or 1-based number (a file may hold several)")


def _solve_arguments(parser: ArgumentParser) -> None:
    _instance_arguments(parser)
    parser.add_argument("--viewpoint", help="viewpoint (default: the puzzle's best)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="viewpoint option NAME=VALUE (or the solver's own, such as "
                             "solver=gecode on minizinc), repeatable")
    parser.add_argument("--solver", help="a solver from 'puzzlelab list'")
    parser.add_argument("--heuristic", help="VARORDER/VALUEORDER or auto, then +symmetric, "
                                            "+probe or +probe-all")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="seconds of search")
    parser.add_argument("--all", action="store_true", dest="all_solutions",
                        help="count every solution")
    parser.add_argument("--max-solutions", type=at_least(0), metavar="N",
                        help="stop after N solutions (default 1; 0 counts them all, as --all)")
    parser.add_argument("--print", type=at_least(0), metavar="N", dest="printed",
                        default=PRINTED_SOLUTIONS,
                        help=f"print the first N solutions found (default {PRINTED_SOLUTIONS}; "
                             f"0 prints them all), then how many more there were")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of random orders and solvers")
    parser.add_argument("--json", action="store_true", dest="as_json",
                        help="print the run record as one JSON object")
    parser.add_argument("--svg", type=Path, metavar="FILE", help="also write the solved grid "
                        "(the puzzle, if none is found) as SVG here")
    parser.add_argument("--profile", action="store_true",
                        help="also print the values each constraint family removes at the "
                             "root, alone and together, before the first decision")
    tree_arguments(parser)


@command("solve", _solve_arguments)
def solve(given: Namespace) -> int | None:
    """Solve one instance and print the solution, its check and the statistics."""
    from experiments.campaign.identity import ALL_SOLUTIONS
    from experiments.campaign.solving import identity_of_lone_run, solve_run
    from puzzles import PUZZLES
    from solvers.record import Status

    if given.all_solutions and given.max_solutions:
        raise OptionError("--all counts every solution: leave out --max-solutions")
    if given.profile and given.as_json:
        raise OptionError("--profile prints a table beside the solution: leave out --json")
    if given.time_limit is not None:  # before the instance is read: the flag at fault
        positive_time_limit(given.time_limit)
    kind = PUZZLES.get(given.puzzle)
    file: Path = given.file
    chosen = load_instance(kind, file, given.instance, "solve")
    # ``is None``, not ``or``: an empty ``--viewpoint ''`` is an unknown name, not the default
    identity = identity_of_lone_run(
        chosen, viewpoint=given.viewpoint, solver=given.solver, heuristic=given.heuristic,
        options=parse_options(given.option), time_limit=given.time_limit,
        max_solutions=ALL_SOLUTIONS if given.all_solutions else
        1 if given.max_solutions is None else given.max_solutions,
        seed=given.seed, instance_file=str(file))
    recording = tree_cap(given, identity.solver_name, identity.heuristic)
    writable("--svg", given.svg)
    writable("--tree", given.tree)
    say_first_use([identity.solver_name])
    from solvers.solve_loop import SearchInterrupted

    doing = f"{file.name}: {identity.viewpoint} on {identity.solver}, {identity.heuristic}"
    try:
        with working(f"solving {doing}") as describe:
            run = solve_run(identity, chosen, record_tree=recording or False,
                            on_search_start=lambda _: describe(f"searching {doing}"))
    except SearchInterrupted as stopped:  # the figures so far, as a timeout shows them
        _print_interrupted(f"{styled(kind.name, 'bold')} {doing}", stopped.statistics,
                           given.as_json)
        note("interrupted")
        return INTERRUPTED
    if given.as_json:
        import json

        from experiments.campaign.executors.records import record_of_run

        say(json.dumps(record_of_run(run).to_json()))
    else:
        _print_run(run, chosen)
        if _print_more_solutions(run, chosen, given.printed):
            return 1  # a wrong answer among them
        if given.profile:
            from experiments.cli.profiling import print_profile

            print_profile(run, chosen)
    if given.svg is not None:
        given.svg.write_text(kind.render_svg(chosen, run.solution), encoding="utf-8")
        (note if given.as_json else say)(  # stdout holds JSON alone
            f"wrote {given.svg}" + ("" if run.solution is not None else
                                    " (the puzzle: no solution was found)"))
    if given.tree is not None:
        (note if given.as_json else say)(write_run_tree(run, given.tree, file))
    if run.violations or run.status is Status.ERROR:
        return 1  # a wrong answer, or a solver that failed
    return None


def load_instance(kind: PuzzleKind[Any, Any], file: Path, selector: str | None,
                  command_name: str) -> Any:
    """The instance of ``file`` that ``--instance`` picks, for ``command_name``.

    A file of several instances without ``--instance`` is an error that names them and
    the option. A file this puzzle cannot read, but another puzzle's reader can, keeps
    its error (file and line) with a hint to the command for that puzzle.
    """
    try:
        instances = kind.read(file)
    except ParseError as error:
        other = _reads_as(file, kind.name)
        if other is None:
            raise
        raise ParseError(f"{error.message} (this file reads as a {other} puzzle: puzzlelab "
                         f"{command_name} {other} {file})", source=error.source,
                         line=error.line, column=error.column) from None
    if selector is None and len(instances) > 1:
        names = [kind.instance_name(instance) for instance in instances[:20]]
        more = f", ... ({len(instances) - 20} more)" if len(instances) > 20 else ""
        raise InstanceNotFound(f"{file}: holds {len(instances)} instances; pick one with "
                               f"--instance NAME or number (1 to {len(instances)}); "
                               f"names: {', '.join(names)}{more}")
    from puzzles import pick_instance

    return pick_instance(instances, selector, file, kind.instance_name)


def _reads_as(file: Path, tried: str) -> str | None:
    """The first other puzzle whose reader takes ``file`` (None: none does). Only asked
    once the chosen puzzle's reader has failed, so a good file pays nothing. A reader
    that fails otherwise than by refusing the file (a ``ParseError``) has a bug: it is
    logged with its traceback, and that puzzle is not named."""
    from puzzles import PUZZLES

    for name in PUZZLES:
        if name == tried:
            continue
        try:
            if PUZZLES.get(name).read(file):
                return name
        except ParseError:  # not that puzzle's file either
            continue
        except Exception:
            logging.getLogger(__name__).exception(
                "a bug in the %s reader, asked whether %s is a %s puzzle (please report "
                "it with this traceback)", name, file, name)
    return None


def _compared(run: PuzzleRun, known: object) -> str:
    """How the solution found compares with the one the file gives (``--json``'s
    ``matches_known``), in words."""
    if known is None:
        return "none in the file"
    if run.matches_known is None:
        return "not compared (no solution found)"
    if run.matches_known:
        return styled("matches", "green")
    return styled("differs", "yellow") + (" (both are correct: the puzzle has more than one "
                                   "solution)" if run.correct else "")


def _print_run(run: PuzzleRun, instance: object) -> None:
    from puzzles import PUZZLES

    asked = run.identity
    kind = PUZZLES.get(asked.puzzle)
    options, own = (", ".join(f"{k}={v}" for k, v in part.items())
                    for part in (asked.options, asked.solver_options))
    say(f"{styled(asked.puzzle, 'bold')} {asked.instance}: viewpoint {asked.viewpoint}"
        f"{f' ({options})' if options else ''}, solver {asked.solver}"
        f"{f' ({own})' if own else ''}, heuristic {asked.heuristic}")
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
    result = run.result
    rows = _figures(result.statistics, result.complete)
    if result.symmetric is not None:
        rows.append(("symmetries imposed", ", ".join(result.symmetric.imposed)
                     or "none declared"))
        rows.append(("answered by", result.symmetric.answered_by))
    if result.portfolio is not None:  # the figures above are the answering configuration's
        rows.append(("portfolio answered by", str(result.portfolio.answered_by)))
    _print_rows(rows)


def _figures(statistics: Statistics, complete: bool) -> list[tuple[str, str]]:
    """The statistics as rows of the printout (``-`` for a figure not given)."""
    rows = [(name, "-" if value is None else
             f"{value:.4f}" if isinstance(value, float) else str(value))
            for name, value in statistics.as_dict().items()]
    rows.append(("search complete", "yes" if complete else "no"))
    return rows


def _print_rows(rows: list[tuple[str, str]]) -> None:
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        say(f" {name.ljust(width)}  {value}")


def _print_interrupted(run: str, statistics: Statistics, as_json: bool) -> None:
    """What a search stopped by Ctrl-C had done: its figures, as a timeout's are shown
    (with ``--json``, one object with ``status`` and ``statistics``, as a run record
    has)."""
    if as_json:
        import json

        say(json.dumps({"status": "interrupted", "complete": False,
                        "statistics": statistics.as_dict()}))
        return
    say(run)
    say(f"status: {styled('interrupted', 'bold')}  (Ctrl-C: the figures so far)")
    _print_rows(_figures(statistics, complete=False))


def _print_more_solutions(run: PuzzleRun, instance: object, printed: int) -> bool:
    """Print the solutions after the first (up to ``printed`` in all, 0 for every one)
    and how many more were found; True when the checker rejects one of them.

    The run keeps each solution's values; the viewpoint is built again (the same model)
    to decode them, so a run that found one solution builds nothing more.
    """
    found = run.result.found
    shown = found[1:] if printed == 0 else found[1:printed]
    wrong = False
    if shown:
        from experiments.campaign.solving import rebuilt
        from puzzles import PUZZLES

        kind = PUZZLES.get(run.identity.puzzle)
        built = rebuilt(run, instance)
        for number, values in enumerate(shown, start=2):
            solution = built.decode(dict(zip(built.model.variables, values)))
            violations = kind.check(instance, solution)
            wrong = wrong or bool(violations)
            verdict = (styled("correct", "green") if not violations
                       else styled("WRONG", "red") + ": " + "; ".join(violations))
            say(f"solution {number} of {len(found)}: {verdict}")
            say(kind.render_text(instance, solution))
    left = len(found) - 1 - len(shown)
    if left > 0:
        say(f"... and {left} more solution{'s' if left > 1 else ''} not printed "
            f"(--print N prints N, --print 0 all)")
    return wrong


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
    chosen = load_instance(kind, file, given.instance, "draw")
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
    writable("--svg", svg)
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
