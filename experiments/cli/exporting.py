"""``puzzlelab export``: one instance's model, under one viewpoint, as a file another
toolchain reads (MiniZinc, XCSP3: the formats are :data:`solvers.export.FORMATS`), or the
instance itself as a game ID of Simon Tatham's Portable Puzzle Collection
(``--format tatham``: :meth:`puzzles.kind.PuzzleKind.game_id`)."""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from pathlib import Path

from experiments.cli.app import command, note, parse_options, writable
from experiments.cli.solving import load_instance
from puzzlelab.errors import OptionError, UnsupportedCombination


def _export_arguments(parser: ArgumentParser) -> None:
    from puzzles.kind import GAME_ID_FORMAT  # the kind alone: no puzzle module
    from solvers.export import FORMATS  # names the formats, imports no writer

    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle name, see `puzzlelab list`")
    parser.add_argument("file", metavar="FILE", type=Path, help="instance file")
    parser.add_argument("--instance", metavar="NAME",
                        help="instance name or 1-based number (a file may hold several)")
    parser.add_argument("--viewpoint", help="viewpoint (default: the puzzle's best)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="viewpoint option NAME=VALUE, repeatable")
    parser.add_argument("--heuristic", help="VARORDER/VALUEORDER or auto (default: the "
                                            "puzzle's), as the file's search annotation")
    parser.add_argument("--format", required=True, choices=[*sorted(FORMATS), GAME_ID_FORMAT],
                        help=f"the modelling language to write, or {GAME_ID_FORMAT}: the "
                             f"instance itself as a game ID of Simon Tatham's Portable Puzzle "
                             f"Collection (no model: no viewpoint, option or heuristic)")
    parser.add_argument("--seed", type=int, default=0, help="seed of a random variable order")
    parser.add_argument("--output", type=Path, metavar="PATH",
                        help="write the model here (default: print it)")


@command("export", _export_arguments)
def export(given: Namespace) -> None:
    """Write one instance's model as a MiniZinc or XCSP3 file, variables by readable name,
    the heuristic as its search. What the format lacks is decomposed (said at the top of
    the file) or refused. With --format tatham, write the instance as the game ID of Simon
    Tatham's Portable Puzzle Collection instead."""
    from puzzles.kind import GAME_ID_FORMAT

    writable("--output", given.output)
    if given.format == GAME_ID_FORMAT:
        model_options = [name for name, value in (("--viewpoint", given.viewpoint),
                                                  ("--option", given.option),
                                                  ("--heuristic", given.heuristic)) if value]
        if model_options:
            raise OptionError(f"{', '.join(model_options)}: a game ID is the puzzle, not a "
                              f"model, so --format {GAME_ID_FORMAT} takes no viewpoint, "
                              f"option or heuristic")
        print_or_write(game_id_text(given.puzzle, given.file, given.instance), given.output)
        return
    print_or_write(export_text(given.puzzle, given.file, given.instance, given.viewpoint,
                               parse_options(given.option), given.heuristic, given.format,
                               given.seed), given.output)


def game_id_text(puzzle: str, file: Path, instance: str | None) -> str:
    """The game ID of one instance of ``file``, as a line; an instance the ID cannot hold
    raises ``UnsupportedCombination`` saying what."""
    from puzzles import PUZZLES

    kind = PUZZLES.get(puzzle)
    chosen = load_instance(kind, file, instance, "export")
    try:
        return kind.game_id(chosen) + "\n"
    except UnsupportedCombination as refused:
        raise UnsupportedCombination(f"{file} ({kind.instance_name(chosen)}): {refused}"
                                     ) from None


def export_text(puzzle: str, file: Path, instance: str | None, viewpoint: str | None,
                options: dict[str, str], heuristic: str | None, format_name: str,
                seed: int = 0) -> str:
    """The exported model of one instance: ``solve``'s choice of viewpoint, options and
    heuristic (the puzzle's defaults for what is not given), written as ``format_name``."""
    from puzzles import PUZZLES
    from solvers.export import export as write
    from viewpoints import DEFAULTS, get_viewpoint

    kind = PUZZLES.get(puzzle)
    defaults = DEFAULTS.get(kind.name)
    chosen = load_instance(kind, file, instance, "export")
    if viewpoint is None:  # the default viewpoint comes with its default options
        options = {**defaults.options, **options}
    built = get_viewpoint(kind.name, defaults.viewpoint if viewpoint is None
                          else viewpoint).build(chosen, options)
    return write(built.model, format_name,
                 defaults.heuristic if heuristic is None else heuristic, seed)


def print_or_write(text: str, output: Path | None) -> None:
    """``text`` on stdout, or into ``output`` (said on stderr)."""
    if output is None:
        print(text, end="")
        return
    output.write_text(text, encoding="utf-8")
    note(f"wrote {output}")
