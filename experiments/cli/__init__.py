"""The ``puzzlelab`` command line: a thin layer over importable functions."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

import puzzlelab
from experiments.analysis.table_format import terminal_width
from experiments.analysis.tables import format_campaigns, format_table, known_metrics
from experiments.campaign.environment import core_count
from experiments.campaign.runner import results_folder, run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.store import CampaignPlan, ResultsStore, read_campaigns
from experiments.cli.reference import backend_rows, statistic_rows
from experiments.generate import generate as generate_instances
from experiments.generate import named_options, options_help
from experiments.solving import PuzzleRun, solve_instance
from experiments.studies.shikaku_levels import format_levels, level_rows, read_instances
from puzzlelab.errors import OptionError, PuzzleLabError
from puzzlelab.wording import counted
from puzzles import PUZZLES
from solvers import Heuristic, Status, heuristic_names, load_backends
from solvers.symmetry import counting_refusal
from viewpoints import DEFAULTS, viewpoints_of

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="PuzzleLab: constraint models of logic puzzles, their solvers and "
                       "experiments.")
console = Console(soft_wrap=True)  # paths and messages stay on one line
status_console = Console(stderr=True, soft_wrap=True)  # stdout stays clean for --json, pipes
INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C (128 + SIGINT)


def _show_version(asked: bool) -> None:
    if asked:
        console.print(f"puzzlelab {puzzlelab.__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_show_version,
        help="print the version and stop")] = False) -> None:
    """PuzzleLab: constraint models of logic puzzles, their solvers and experiments."""


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["alldiff=strong", ...]`` as a dict; a pair without ``=``, or a name given twice
    (which value was meant?), is an ``OptionError``."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name:
            raise OptionError(f"option {pair!r} must be written NAME=VALUE")
        if name in options:
            raise OptionError(f"option {name!r} is given twice ({name}={options[name]}, "
                              f"{name}={value}): give it once")
        options[name] = value
    return options


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
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
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
    with _working(f"solving {escape(file.name)}: {viewpoint} on {solver}, {heuristic}"):
        run = solve_instance(puzzle, chosen, viewpoint, solver, heuristic, options,
                             time_limit=time_limit, max_solutions=limit, seed=seed)
    if as_json:
        print(json.dumps(run.to_json()))
    else:
        _print_run(run, chosen)
    if svg is not None:
        svg.write_text(PUZZLES.get(puzzle).render_svg(chosen, run.solution), encoding="utf-8")
        (status_console if as_json else console).print(  # stdout holds JSON alone
            f"wrote {escape(str(svg))}" + ("" if run.solution is not None else
                                           " (the puzzle: no solution was found)"),
            highlight=False)
    if run.violations or run.result.status is Status.ERROR:
        raise typer.Exit(1)  # a wrong answer, or a solver that failed


def _default_heuristic(default: str, max_solutions: int | None) -> str:
    """The puzzle's default heuristic; ``+symmetric`` (which looks for one solution) is left
    out of it when the run counts solutions, rather than refused as a named one is."""
    if counting_refusal(max_solutions) is None:
        return default
    return str(Heuristic.parse(default).without_symmetric())


@contextmanager
def _working(description: str, shown: bool = True) -> Iterator[Callable[[str], None]]:
    """Spinner and elapsed time on a terminal while a search runs, so a long one shows it
    is alive and how to stop it; transient, and nothing at all when stderr is not a
    terminal. Yields a function that changes the text."""
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  TextColumn("[dim](Ctrl-C stops)"), console=status_console, transient=True,
                  redirect_stdout=False, redirect_stderr=False,
                  disable=not (shown and status_console.is_terminal)) as progress:
        task = progress.add_task(description, total=None)
        yield lambda text: progress.update(task, description=text)


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


def _print_run(run: PuzzleRun, instance: object) -> None:
    kind = PUZZLES.get(run.puzzle)
    options = ", ".join(f"{k}={v}" for k, v in run.options.items())
    console.print(f"[bold]{run.puzzle}[/] {escape(run.instance)}: viewpoint {run.viewpoint}"
                  f"{f' ({options})' if options else ''}, solver {run.solver}, "
                  f"heuristic {run.heuristic}")
    console.print(kind.render_text(instance, run.solution), markup=False, highlight=False)
    verdict = {None: "no solution to check", True: "[green]correct[/]"}.get(
        run.violations == [] if run.violations is not None else None,
        "[red]WRONG[/]: " + "; ".join(run.violations or []))
    console.print(f"status: [bold]{run.result.status.value}[/]  check: {verdict}  "
                  f"known solution: {_compared(run, kind.known_solution(instance))}"
                  + (f"  ({escape(run.result.message)})" if run.result.message else ""))
    table = Table("statistic", "value", show_header=False, box=None)
    for name, value in run.result.statistics.as_dict().items():
        table.add_row(name, "-" if value is None else
                      f"{value:.4f}" if isinstance(value, float) else str(value))
    table.add_row("search complete", "yes" if run.result.complete else "no")
    symmetric = run.result.extra.get("symmetric")
    if symmetric:
        table.add_row("symmetries imposed", ", ".join(symmetric["imposed"]) or "none declared")
        table.add_row("answered by", symmetric["answered_by"])
    portfolio = run.result.extra.get("portfolio")
    if portfolio:  # the figures above are the answering configuration's
        table.add_row("portfolio answered by", str(portfolio["answered_by"]))
    console.print(table)


@app.command()
def run(
    spec: Annotated[Path, typer.Argument(help="experiment spec (TOML)")],
    jobs: Annotated[int | None, typer.Option(help="runs at a time (default: the cores)")] = None,
    executor: Annotated[str, typer.Option(help="local or dask")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address "
                                                       "(default: a local cluster)")] = None,
    fresh: Annotated[bool, typer.Option(help="forget stored runs and start over")] = False,
    out: Annotated[Path | None, typer.Option(
        help="folder of runs.sqlite and the tables (default: runs/<name> in the current "
             "folder)")] = None,
    results: Annotated[Path | None, typer.Option(help="same as --out RESULTS/<name>")] = None,
    progress: Annotated[bool, typer.Option(help="show the progress bar")] = True,
) -> None:
    """Run an experiment (resuming where it stopped) and write its tables."""
    signal.signal(signal.SIGTERM, _interrupt)  # a polite kill stops the campaign like Ctrl-C
    loaded = load_spec(spec)
    folder = results_folder(loaded, results, out)
    console.print(f"results go to {escape(str(folder))}{os.sep} (runs.sqlite, table.md, "
                  f"table.tex, runs.csv)", highlight=False)
    if out is None and results is None:
        _point_at_former_folder(loaded.name, folder)
    cores = core_count()
    if executor == "local" and jobs is not None and jobs > cores:
        status_console.print(f"warning: --jobs {jobs} is more than the "
                             f"{counted(cores, 'core')} here: runs will compete for them, "
                             f"and their times will not compare with runs made alone",
                             highlight=False)
    report = run_campaign(loaded, jobs=jobs, executor=executor, scheduler=scheduler,
                          fresh=fresh, out=folder, show_progress=progress, console=console)
    for line in report.skipped:
        console.print(f"skipped: {escape(line)}", highlight=False)
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(report.statuses.items())) or "none"
    if report.marked_wrong:
        statuses += (f"; {counted(report.marked_wrong, 'earlier run')} marked wrong "
                     f"(\"unsatisfiable\" where a run of this session found a solution)")
    console.print(f"{counted(report.ran, 'run')} this session ({statuses}); "
                  f"{report.already_stored} of {report.planned} were stored before. "
                  f"Results: {report.database}")
    if report.interrupted:
        console.print("interrupted: the finished runs are stored; run the same command again "
                      "to resume")
        sys.exit(INTERRUPTED)  # said already: main() would say "interrupted" for Exit(130)
    rows, plan = _stored_runs(report.database)
    if rows:
        print(format_table(rows, by=loaded.table_by, metrics=loaded.table_metrics, fmt="text",
                           reached=loaded.table_reached, repeats=plan.repeats,
                           planned_runs=plan.runs, width=terminal_width()))
    if rows and loaded.table_report:
        from experiments.analysis.report import (
            write_report,  # matplotlib: loaded only when reporting
        )

        # grouped and measured as the spec's table settings say, which the store keeps
        report.outputs.append(write_report([report.database], folder / "report").folder
                              / "index.html")
    console.print("wrote " + ", ".join(str(p) for p in report.outputs))


def _point_at_former_folder(name: str, folder: Path) -> None:
    """Campaigns went to ``results/<name>`` by default before: one begun there resumes
    with ``--out``, which a user would not guess."""
    former = Path("results") / name
    if not (folder / "runs.sqlite").exists() and (former / "runs.sqlite").exists():
        status_console.print(f"note: {former / 'runs.sqlite'} holds runs of this experiment "
                             f"stored by an earlier version, which wrote there by default; "
                             f"stop and run again with --out {former} to resume them",
                             highlight=False)


def _interrupt(signal_number: int, frame: object) -> None:
    raise KeyboardInterrupt


@app.command()
def table(
    databases: Annotated[list[Path], typer.Argument(
        help="a campaign's runs.sqlite; several put their campaigns side by side, with "
             "ratios to the first", metavar="DATABASE...")],
    metrics: Annotated[str, typer.Option(help="comma-separated, from: "
                                              + ", ".join(known_metrics()))] = "time,backtracks",
    fmt: Annotated[str, typer.Option("--format", help="text, markdown, latex or csv")] = "text",
    by: Annotated[str, typer.Option(help="column groups: viewpoint, heuristic or "
                                         "solver")] = "viewpoint",
    reached: Annotated[bool, typer.Option(help="for runs stopped by a limit, show the "
                                               "counts reached (≥N)")] = False,
    width: Annotated[int | None, typer.Option(
        min=0, help="text: columns to fit, groups past it go on below (default: the "
                    "terminal's; 0: no limit)")] = None,
) -> None:
    """Print the course-style tables of one results database, or of several side by side."""
    chosen = [m.strip() for m in metrics.split(",") if m.strip()]
    print(format_campaigns(read_campaigns(databases), by=by, metrics=chosen, fmt=fmt,
                           reached=reached, width=terminal_width() if width is None
                           else width or None), end="")


@app.command()
def report(
    databases: Annotated[list[Path], typer.Argument(
        help="a campaign's runs.sqlite; several make one page, a section each",
        metavar="DATABASE...")],
    out: Annotated[Path | None, typer.Option(
        help="folder to write into (default: report/ beside the first database)")] = None,
    metrics: Annotated[str | None, typer.Option(
        help="table columns, comma-separated, from: " + ", ".join(known_metrics())
             + " (default: as the campaign's spec says in its table settings)")] = None,
    by: Annotated[str | None, typer.Option(
        help="column groups and plot lines: viewpoint, heuristic or solver (default: as "
             "the campaign's spec says)")] = None,
    instances: Annotated[str | None, typer.Option(
        help="comma-separated instance labels to draw (default: the first few)")] = None,
    reached: Annotated[bool | None, typer.Option(
        help="for runs stopped by a limit, show the counts reached (≥N) (default: as the "
             "campaign's spec says)")] = None,
) -> None:
    """Write the course-style report of results databases: index.html (tables, figures,
    puzzles), report.md, report.tex, and each figure as SVG and PDF."""
    from experiments.analysis.report import write_report  # matplotlib: loaded only when reporting

    written = write_report(databases, out, by=by,
                           metrics=_listed(metrics) if metrics is not None else None,
                           instances=_listed(instances or ""), reached=reached)
    console.print(f"wrote {escape(str(written.folder / 'index.html'))} (and report.md, "
                  f"report.tex, {counted(len(written.files) - 3, 'figure file')} in "
                  f"{escape(str(written.folder / 'figures'))}) in {written.seconds:.1f} s",
                  highlight=False)


def _listed(text: str) -> list[str]:
    """``"a, b"`` as ``["a", "b"]``: a comma-separated option's items."""
    return [item.strip() for item in text.split(",") if item.strip()]


@app.command(name="shikaku-levels")
def shikaku_levels(
    file: Annotated[Path, typer.Argument(help="Shikaku instance file")],
    instances: Annotated[str | None, typer.Option(
        help="comma-separated instance names (default: every instance of the file)")] = None,
    fmt: Annotated[str, typer.Option("--format", help="text, markdown, latex or csv")] = "text",
    channel: Annotated[str, typer.Option(help="the Set level's channeling: sum or "
                                              "implication")] = "sum",
) -> None:
    """Print the propagation-level table of Shikaku instances (undecided cells after the
    root propagation, constraint family by family), beside the published figures."""
    names = [name.strip() for name in (instances or "").split(",") if name.strip()]
    chosen = read_instances(file, names)
    with _working("propagating") as describe:
        rows = list(level_rows(chosen, channel, lambda name: describe(f"propagating {name}")))
    print(format_levels(rows, fmt, channel, terminal_width() if fmt == "text" else None),
          end="")


def _stored_runs(database: Path) -> tuple[list[dict[str, object]], CampaignPlan]:
    """The stored runs, and what their campaign plans."""
    with ResultsStore.open_existing(database) as store:
        return store.runs(), store.plan()


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
             epilog="Generator options of each puzzle:\n\n" + options_help())
def generate(
    context: typer.Context,
    puzzle: Annotated[str, typer.Argument(help="puzzle to generate: "
                                               + ", ".join(PUZZLES.names()))],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="generator option NAME=VALUE, repeatable; or --NAME VALUE "
                               "after the puzzle (see below)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the random instances")] = 0,
    count: Annotated[int, typer.Option(help="instances to write")] = 1,
    unique: Annotated[bool, typer.Option(help="keep only instances with exactly one "
                                              "solution (checked by a solver)")] = False,
    output: Annotated[Path, typer.Option(help="folder to write into")] = Path("."),
) -> None:
    """Write random instances made by the puzzle's own generator (files named after the
    puzzle, its options, the seed and the number)."""
    describe: Callable[[str], None]  # bound by each instance's spinner below, before use

    def drawn(index: int, candidates: int) -> None:
        describe(f"generating {index} of {count}: checking candidate {candidates}")

    given = parse_options([*(option or []), *named_options(context.args)])
    made = generate_instances(puzzle, given, seed, count, unique, output, on_candidate=drawn)
    for index in range(1, count + 1):
        # one spinner per instance, closed before its line goes to stdout
        with _working(f"generating {index} of {count}", shown=unique) as describe:
            written = next(made)
        tried = f" (unique; {counted(written.candidates, 'candidate')} drawn)" if unique else ""
        console.print(f"wrote {written.path}{tried}", highlight=False)


@app.command()
def draw(
    puzzle: Annotated[str, typer.Argument(help="puzzle name, see `puzzlelab list`")],
    file: Annotated[Path, typer.Argument(help="instance file")],
    instance: Annotated[str | None, typer.Option(help="instance name or 1-based index")] = None,
    solution: Annotated[bool, typer.Option(
        "--solution", help="draw the known solution the file gives, not the puzzle")] = False,
    svg: Annotated[Path | None, typer.Option(
        help="write the picture as SVG to this file instead of printing it")] = None,
) -> None:
    """Draw an instance without solving it: as text, or as SVG with --svg."""
    kind = PUZZLES.get(puzzle)
    chosen = kind.load(file, instance)
    shown = kind.known_solution(chosen) if solution else None
    if solution and shown is None:
        raise OptionError(f"{file}: instance {kind.instance_name(chosen)!r} comes with no "
                          f"known solution to draw")
    if svg is None:
        console.print(kind.render_text(chosen, shown), markup=False, highlight=False, end="")
        return
    svg.write_text(kind.render_svg(chosen, shown), encoding="utf-8")
    console.print(f"wrote {escape(str(svg))}", highlight=False)


@app.command(name="list")
def list_registry() -> None:
    """Show every puzzle, viewpoint (with options), solver and heuristic."""
    load_backends()
    for puzzle in PUZZLES.names():
        defaults = DEFAULTS.get(puzzle) if puzzle in DEFAULTS else None
        console.print(f"[bold]{puzzle}[/]"
                      + (f"  (default: {escape(defaults.describe())})" if defaults else ""))
        for viewpoint in viewpoints_of(puzzle):
            console.print(f"  viewpoint [cyan]{viewpoint.name}[/]: "
                          f"{escape(viewpoint.summary.replace('``', '`'))}")  # rST to plain
            for name, spec in viewpoint.options.items():
                console.print(f"      option {name}: {escape(spec.describe())}",
                              highlight=False)
        kind = PUZZLES.get(puzzle)
        for name, spec in kind.generator_options.items():
            console.print(f"  generate --{name}: {escape(spec.describe())}", highlight=False)
        data = ", ".join(f"{data_set.name} ({counted(len(data_set.files), 'file')})"
                         for data_set in kind.data_sets())
        console.print(f"  data in {os.path.relpath(kind.data_folder())}: {escape(data)}",
                      highlight=False)
    _print_rows("solvers", backend_rows())
    console.print("[bold]heuristics[/] (VARORDER/VALUEORDER; a bare VARORDER means /min)")
    console.print("  " + ", ".join(heuristic_names()))
    console.print("  plus static orders a viewpoint supplies; append +probe (probing at the "
                  "root) or +probe-all (at every node) where the solver has it (above)")
    console.print("  append +symmetric to look first among the solutions the instance's "
                  "symmetries leave unchanged (one solution; not with --all)")
    _print_rows("statistics", statistic_rows())


def _print_rows(title: str, rows: list[dict[str, str]]) -> None:
    """A reference table as a list: the first column names each entry."""
    console.print(f"[bold]{title}[/]")
    for row in rows:
        name, *rest = row.items()
        console.print(f"  [cyan]{escape(name[1])}[/]")
        for header, value in rest:
            console.print(f"      {header}: {escape(value)}", highlight=False)


def main() -> None:
    """Console entry point: PuzzleLab errors become one clear line and exit status 2."""
    try:
        code = app(standalone_mode=False)  # click returns typer.Exit's code in this mode
        if code == INTERRUPTED:  # Typer's answer to a KeyboardInterrupt in a command
            print("interrupted", file=sys.stderr)
        if isinstance(code, int) and code:
            sys.exit(code)
    except PuzzleLabError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except OSError as error:  # the file system said no: a file we write, a folder we make
        where = f": {error.filename}" if error.filename else ""
        print(f"error: {error.strerror or error}{where}", file=sys.stderr)
        sys.exit(1)
    except MemoryError:  # a model or a file too large for this machine
        print("error: out of memory (try a smaller instance, or a viewpoint or solver that "
              "needs less)", file=sys.stderr)
        sys.exit(1)
    except (typer.Abort, KeyboardInterrupt):
        print("interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    except typer.TyperException as error:  # usage errors arrive here in non-standalone mode
        show = getattr(error, "show", None)  # usage errors show the usage line and a hint
        if show:
            show()
        else:
            print(f"error: {error.format_message()}", file=sys.stderr)
        sys.exit(error.exit_code)
