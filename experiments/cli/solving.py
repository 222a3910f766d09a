"""``puzzlelab solve`` and ``puzzlelab draw``: one instance, solved or drawn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from experiments.campaign.record import RunRecord, of_run
from experiments.campaign.solving import PuzzleRun, solve_instance
from experiments.cli.app import app, console, parse_options, status_console, working
from puzzlelab.errors import OptionError, ParseError
from puzzles import PUZZLES
from solvers import Heuristic, Status
from solvers.symmetry import counting_refusal
from viewpoints import DEFAULTS


@app.command()
def solve(
    puzzle: Annotated[str, typer.Argument(help="puzzle name, see `puzzlelab list`")],
    file: Annotated[Path, typer.Argument(help="instance file")],
    instance: Annotated[str | None, typer.Option(help="instance name or 1-based index")] = None,
    viewpoint: Annotated[str | None, typer.Option(help="viewpoint (default: the "
                                                        "puzzle's best)")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="viewpoint option NAME=VALUE, repeatable")] = None,
    solver: Annotated[str | None,
                      typer.Option(help="a solver from 'puzzlelab list'")] = None,
    heuristic: Annotated[str | None, typer.Option(
        help="VARORDER/VALUEORDER or auto, then +symmetric, +probe or +probe-all")] = None,
    time_limit: Annotated[float | None, typer.Option(help="seconds of search")] = None,
    all_solutions: Annotated[bool, typer.Option("--all", help="count every solution")] = False,
    max_solutions: Annotated[int | None, typer.Option(
        min=0, help="stop after N solutions (default 1; 0 counts them all, as --all)")] = None,
    seed: Annotated[int, typer.Option(help="seed of random orders and solvers")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the run record as one JSON "
                                                        "object")] = False,
    svg: Annotated[Path | None, typer.Option(
        help="also write the solved grid (the puzzle, if none is found) as SVG here")] = None,
) -> None:
    """Solve one instance and print the solution, its check and the statistics."""
    if all_solutions and max_solutions:
        raise OptionError("--all counts every solution: leave out --max-solutions")
    limit = None if all_solutions or max_solutions == 0 else max_solutions or 1
    defaults = DEFAULTS.get(PUZZLES.get(puzzle).name)
    chosen = PUZZLES.get(puzzle).load(file, instance)
    # ``is None``, not ``or``: an empty ``--viewpoint ''`` is an unknown name, not the default.
    # The default viewpoint comes with its default options, under those the user gives.
    given = parse_options(option or [])
    options = {**defaults.options, **given} if viewpoint is None else given
    viewpoint = defaults.viewpoint if viewpoint is None else viewpoint
    solver = defaults.solver if solver is None else solver
    if heuristic is None:
        heuristic = _default_heuristic(defaults.heuristic, limit)
    with working(f"solving {escape(file.name)}: {viewpoint} on {solver}, {heuristic}"):
        run = solve_instance(puzzle, chosen, viewpoint, solver, heuristic, options,
                             time_limit=time_limit, max_solutions=limit, seed=seed)
    record = of_run(run, instance_file=str(file))
    if as_json:
        print(json.dumps(record.to_json()))
    else:
        _print_run(run, record, chosen)
    if svg is not None:
        svg.write_text(PUZZLES.get(puzzle).render_svg(chosen, run.solution), encoding="utf-8")
        (status_console if as_json else console).print(  # stdout holds JSON alone
            f"wrote {escape(str(svg))}" + ("" if run.solution is not None else
                                           " (the puzzle: no solution was found)"),
            highlight=False)
    if run.violations or run.status is Status.ERROR:
        raise typer.Exit(1)  # a wrong answer, or a solver that failed


def _default_heuristic(default: str, max_solutions: int | None) -> str:
    """The puzzle's default heuristic; ``+symmetric`` (which looks for one solution) is left
    out of it when the run counts solutions, rather than refused as a named one is."""
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
        return "[green]matches[/]"
    return "[yellow]differs[/]" + (" (both are correct: the puzzle has more than one "
                                   "solution)" if run.correct else "")


def _print_run(run: PuzzleRun, record: RunRecord, instance: object) -> None:
    kind = PUZZLES.get(run.puzzle)
    options = ", ".join(f"{k}={v}" for k, v in run.options.items())
    console.print(f"[bold]{run.puzzle}[/] {escape(run.instance)}: viewpoint {run.viewpoint}"
                  f"{f' ({options})' if options else ''}, solver {run.solver}, "
                  f"heuristic {run.heuristic}")
    console.print(kind.render_text(instance, run.solution), markup=False, highlight=False)
    verdict = {None: "no solution to check", True: "[green]correct[/]"}.get(
        run.violations == [] if run.violations is not None else None,
        "[red]WRONG[/]: " + "; ".join(run.violations or []))
    console.print(f"status: [bold]{run.status.value}[/]  check: {verdict}  "
                  f"known solution: {_compared(run, kind.known_solution(instance))}"
                  + (f"  ({escape(run.message)})" if run.message else ""))
    table = Table("statistic", "value", show_header=False, box=None)
    for name, value in record.statistics.as_dict().items():
        table.add_row(name, "-" if value is None else
                      f"{value:.4f}" if isinstance(value, float) else str(value))
    table.add_row("search complete", "yes" if record.complete else "no")
    if record.symmetric is not None:
        table.add_row("symmetries imposed", ", ".join(record.symmetric.imposed)
                      or "none declared")
        table.add_row("answered by", record.symmetric.answered_by)
    if record.portfolio is not None:  # the figures above are the answering configuration's
        table.add_row("portfolio answered by", str(record.portfolio.answered_by))
    console.print(table)


@app.command()
def draw(
    puzzle: Annotated[str, typer.Argument(help="puzzle name, see `puzzlelab list`")],
    file: Annotated[Path, typer.Argument(help="instance file")],
    instance: Annotated[str | None, typer.Option(help="instance name or 1-based index")] = None,
    solution: Annotated[bool, typer.Option(
        "--solution", help="draw the known solution the file gives, not the puzzle")] = False,
    answer: Annotated[Path | None, typer.Option(
        help="draw the solution of a run record that `puzzlelab solve --json` wrote to this "
             "file")] = None,
    svg: Annotated[Path | None, typer.Option(
        help="write the picture as SVG to this file instead of printing it")] = None,
) -> None:
    """Draw an instance without solving it: as text, or as SVG with --svg."""
    kind = PUZZLES.get(puzzle)
    chosen = kind.load(file, instance)
    if solution and answer is not None:
        raise OptionError("--solution draws the file's solution, --answer a run's: give one")
    shown = kind.known_solution(chosen) if solution else None
    if solution and shown is None:
        raise OptionError(f"{file}: instance {kind.instance_name(chosen)!r} comes with no "
                          f"known solution to draw")
    if answer is not None:
        shown = kind.solution_from_json(_answer_of(answer))
        wrong = kind.check(chosen, shown)
        if wrong:
            raise OptionError(f"{answer}: its solution does not solve instance "
                              f"{kind.instance_name(chosen)!r} of {file}: {wrong[0]}")
    if svg is None:
        console.print(kind.render_text(chosen, shown), markup=False, highlight=False, end="")
        return
    svg.write_text(kind.render_svg(chosen, shown), encoding="utf-8")
    console.print(f"wrote {escape(str(svg))}", highlight=False)


def _answer_of(path: Path) -> Any:
    """The ``solution`` of the run record (``solve --json``) in ``path``."""
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
