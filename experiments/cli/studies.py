"""``puzzlelab study NAME [ARGUMENTS...]``: a benchmark or study, by its registered name."""

from __future__ import annotations

from argparse import ArgumentParser

from experiments.cli.app import command, say, styled


def _study_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", nargs="?",
                        help="the study to run; none (or --help) lists them")
    parser.add_argument("arguments", metavar="ARGUMENTS", nargs="*",
                        help="the study's own (`puzzlelab study NAME --help` shows them)")


@command("study", _study_arguments, verbatim=True)
def study(arguments: list[str]) -> int | None:
    """Run a benchmark or study with its own arguments (`puzzlelab study NAME --help`
    shows them); with no name, list them."""
    from experiments.studies import STUDIES

    if not arguments or arguments[0] in ("--help", "-h"):
        say(styled("studies", "bold") + " (puzzlelab study NAME --help for each one's "
            "arguments)")
        for known in STUDIES.names():
            say(f"  {styled(known, 'cyan')}: {STUDIES.get(known).summary}")
        return None
    return STUDIES.get(arguments[0]).run(arguments[1:]) or None
