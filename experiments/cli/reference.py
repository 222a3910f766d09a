"""The pages that carry the reference tables: which table each marker holds, and the
pages rewritten from them.

``README.md`` and ``docs/*.md`` carry the tables of
:mod:`experiments.cli.reference_tables` and those of the commands (read off the command
line itself) between markers (``<!-- backends:begin -->`` ... ``<!-- backends:end
-->``), which a test holds equal to what this module makes, so no page restates by hand
what a backend can do, what a statistic means or which options a viewpoint takes.
``python -m experiments.cli.reference`` rewrites every marked section of every page.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

from experiments.cli import reference_tables as tables
from experiments.cli.app import COMMANDS, Command
from puzzlelab.errors import PuzzleLabError, UnknownName

ROOT = tables.ROOT
code, NONE = tables.code, tables.NONE


def markdown(rows: list[dict[str, str]]) -> str:
    """A Markdown table of ``rows`` (the keys of the first row are the headers)."""
    headers = list(rows[0])

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(headers), line(["---"] * len(headers)),
                      *(line([row[h] for h in headers]) for row in rows)])


# ------------------------------------------------------------------ the command line


def commands() -> dict[str, Command]:
    """The ``puzzlelab`` commands, alphabetically."""
    import experiments.cli  # noqa: F401 (each command module registers its commands)

    return dict(sorted(COMMANDS.items()))


def _parameters(command: Command) -> list[argparse.Action]:
    """A command's arguments and options as its parser declares them, but ``--help``."""
    return [action for action in command.parser()._actions
            if not isinstance(action, argparse._HelpAction)]


def command_rows() -> list[dict[str, str]]:
    """A row per command: its usage and the first paragraph of its help."""
    rows = []
    for name, command in commands().items():
        arguments = [_metavar(p) for p in _parameters(command) if not p.option_strings]
        if command.verbatim:  # its own arguments follow the name
            arguments = arguments[:1]
        rows.append({"command": code(" ".join(["puzzlelab", name, *arguments])),
                     "what it does": tables.first_paragraph(command.help)})
    return rows


def option_rows(command: Command) -> list[dict[str, str]]:
    """A row per argument and option of ``command``: what it takes, its default."""
    rows = []
    for parameter in _parameters(command):
        is_option = bool(parameter.option_strings)
        spelled = (" / ".join(parameter.option_strings)
                   if isinstance(parameter, argparse.BooleanOptionalAction)
                   else ", ".join(parameter.option_strings) if is_option
                   else _metavar(parameter))
        rows.append({"argument or option": code(spelled),
                     "what it does": tables.first_paragraph(parameter.help or ""),
                     "default": _default(parameter) if is_option else NONE})
    return rows


def _default(option: argparse.Action) -> str:
    """An option's default as typed: its value, or which of its flags holds."""
    default = option.default
    if isinstance(option, argparse.BooleanOptionalAction):
        return NONE if default is None else code(option.option_strings[0 if default else 1])
    if isinstance(default, bool) or default in (None, []):  # a flag, or nothing given
        return NONE
    return code(default)


def _metavar(parameter: argparse.Action) -> str:
    """An argument as the usage line shows it: ``SPEC``, ``DATABASE...``, ``[NAME]``."""
    metavar = str(parameter.metavar or parameter.dest.upper())
    if parameter.nargs in ("+", "*"):
        metavar += "..."
    return f"[{metavar}]" if parameter.nargs in ("?", "*") else metavar


# ------------------------------------------------------------------ the marked sections

Generator = Callable[[str], str]
"""A section's Markdown, given the way from its page up to the repository's root
(``""`` for ``README.md``, ``"../"`` for ``docs/x.md``) for the links it makes."""

SECTIONS: dict[str, Generator] = {
    "backends": lambda _: markdown(tables.backend_rows()),
    "statistics": lambda _: markdown(tables.statistic_rows()),
    "puzzles": lambda _: markdown(tables.puzzle_rows()),
    "generator-options": lambda _: markdown(tables.generator_option_rows()),
    "json-solutions": lambda _: markdown(tables.json_solution_rows()),
    "viewpoints": lambda _: markdown(tables.viewpoint_rows()),
    "viewpoint-models": lambda _: tables.viewpoint_models(),
    "matrix": lambda _: markdown(tables.matrix_rows()),
    "spec-keys": lambda _: markdown(tables.spec_key_rows()),
    "table-marks": lambda _: markdown(tables.mark_rows()),
    "csv-columns": lambda _: tables.csv_columns(),
    "json-keys": lambda _: tables.json_keys(),
    "run-record-fields": lambda _: tables.record_fields(),
    "run-identity-fields": lambda _: tables.identity_fields(),
    "results": lambda to_root: markdown(tables.result_rows(to_root)),
    "studies": lambda _: markdown(tables.study_rows()),
    "commands": lambda _: markdown(command_rows()),
    "grades": lambda _: markdown(_grade_rows()),
    "grade-generation": lambda _: markdown(_generation_rows()),
    "explain-weights": lambda _: markdown(_weight_rows()),
}
"""Every section a page may mark, by name; ``options-COMMAND`` (below) adds one per command."""
OPTIONS = "options-"
"""The prefix of the sections holding a command's arguments and options (``options-run``)."""


def _grade_rows() -> list[dict[str, str]]:
    from experiments.cli.grading import grade_rows

    return grade_rows()


def _generation_rows() -> list[dict[str, str]]:
    from experiments.cli.grading import generation_rows

    return generation_rows()


def _weight_rows() -> list[dict[str, str]]:
    from experiments.cli.explaining import weight_rows

    return weight_rows()


def section_names() -> list[str]:
    """Every name a marker may give: the fixed sections, then one per command that takes
    arguments."""
    return [*SECTIONS, *(OPTIONS + name for name, command in commands().items()
                         if _parameters(command))]


def section(name: str, to_root: str = "") -> str:
    """The Markdown a page holds between ``<!-- name:begin -->`` and ``:end``, for a page
    ``to_root`` below the root; an unknown ``name`` raises ``UnknownName``."""
    if name in SECTIONS:
        return SECTIONS[name](to_root)
    if name in section_names():
        return markdown(option_rows(commands()[name.removeprefix(OPTIONS)]))
    raise UnknownName("reference section", name, section_names())


MARKED = re.compile(r"<!-- ([a-z0-9-]+):begin -->\n(.*?)\n?<!-- \1:end -->", re.S)
"""A marked section: its name, and what it holds (nothing, or lines)."""
BEGIN = re.compile(r"<!-- ([a-z0-9-]+):begin -->")


def marked_sections(text: str) -> dict[str, str]:
    """What ``text`` holds between each pair of markers, by section name; a begin marker
    without its end raises ``PuzzleLabError``."""
    found = {marked.start(): marked for marked in MARKED.finditer(text)}
    for begin in BEGIN.finditer(text):
        if begin.start() not in found:
            name = begin.group(1)
            raise PuzzleLabError(f"section {name!r} begins but never ends "
                                 f"(no <!-- {name}:end --> after it)")
    return {marked.group(1): marked.group(2) for marked in found.values()}


def rewritten(text: str, to_root: str = "") -> str:
    """``text`` with every marked section made anew, the rest untouched (an unknown
    section name raises before anything is made)."""
    made = {name: section(name, to_root) for name in marked_sections(text)}
    return MARKED.sub(lambda marked: f"<!-- {marked.group(1)}:begin -->\n"
                                     f"{made[marked.group(1)]}\n<!-- {marked.group(1)}:end -->",
                      text)


def pages(root: Path = ROOT) -> dict[Path, str]:
    """The pages that may hold sections, each with its way up to the root."""
    return {root / "README.md": "", **{page: "../" for page in sorted(root.glob("docs/*.md"))}}


def rewrite_pages(root: Path = ROOT) -> list[Path]:
    """Put the current tables between every page's markers; the pages that changed."""
    changed = []
    for page, to_root in pages(root).items():
        text = page.read_text(encoding="utf-8")
        made = rewritten(text, to_root)
        if made != text:
            page.write_text(made, encoding="utf-8")
            changed.append(page)
    return changed


if __name__ == "__main__":
    for rewritten_page in rewrite_pages():
        print(f"rewrote {rewritten_page.relative_to(ROOT)}")
