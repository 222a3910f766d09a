"""Reference tables derived from the declarations: solvers' capabilities and statistics.

``puzzlelab list`` prints them, and the README carries them between markers
(``<!-- backends:begin -->`` ...), which a test holds equal to what this module
makes, so no text restates what a backend can do or what a statistic means.
``python -m experiments.cli.reference`` rewrites the README's copies.
"""

from __future__ import annotations

import re
from pathlib import Path

from puzzlelab.statistics import STATISTICS, Statistic
from solvers import BACKENDS, load_backends
from solvers.capabilities import AFTER_SEARCH_STATISTICS


def backend_rows() -> list[dict[str, str]]:
    """One row per registered backend: its name, library, purpose and capabilities."""
    load_backends()
    rows = []
    for name in BACKENDS.names():
        backend = BACKENDS.get(name)
        declared = backend.capabilities
        missing = backend.unavailable()
        summary = declared.summary + (f" (unavailable here: {missing})" if missing else "")
        rows.append({"solver": name, "library": declared.library, "what for": summary,
                     **declared.table_cells()})
    return rows


def statistic_rows() -> list[dict[str, str]]:
    """One row per declared statistic: name, unit, MiniZinc name, meaning, who reports it."""
    load_backends()
    rows = []
    for name in STATISTICS:
        statistic = STATISTICS.get(name)
        rows.append({"statistic": name, "metric": statistic.metric or "–",
                     "unit": statistic.unit,
                     "MiniZinc": statistic.minizinc or "–",
                     "meaning": statistic.meaning, "reported by": _reporters(statistic)})
    return rows


def _reporters(statistic: Statistic) -> str:
    if statistic.name in AFTER_SEARCH_STATISTICS:
        return "; ".join(name for name in BACKENDS.names()
                         if BACKENDS.get(name).capabilities.after_search)
    if statistic.measured_by == "loop":
        return "every solver"
    if statistic.measured_by == "runner":
        return "the runner"
    notes = []
    for name in BACKENDS.names():
        declared = BACKENDS.get(name).capabilities
        if statistic.name in declared.statistics:
            note = declared.statistic_notes.get(statistic.name)
            notes.append(f"{name} ({note})" if note else name)
    return "; ".join(notes) or "–"


def markdown(rows: list[dict[str, str]]) -> str:
    """A Markdown table of ``rows`` (the keys of the first row are the headers)."""
    headers = list(rows[0])

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(headers), line(["---"] * len(headers)),
                      *(line([row[h] for h in headers]) for row in rows)])


SECTIONS = {"backends": backend_rows, "statistics": statistic_rows}


def section(name: str) -> str:
    """The Markdown the README holds between ``<!-- name:begin -->`` and ``:end``."""
    return markdown(SECTIONS[name]())


def readme_section(text: str, name: str) -> str | None:
    """What ``text`` holds between the markers of section ``name`` (None: no markers)."""
    found = re.search(rf"<!-- {name}:begin -->\n(.*?)\n<!-- {name}:end -->", text, re.S)
    return None if found is None else found.group(1)


def rewrite_readme(path: Path) -> None:
    """Put the current tables between the README's markers."""
    text = path.read_text(encoding="utf-8")
    for name in SECTIONS:
        begin, end = f"<!-- {name}:begin -->\n", f"\n<!-- {name}:end -->"
        before, found, rest = text.partition(begin)
        if found:
            text = before + begin + section(name) + end + rest.partition(end)[2]
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    rewrite_readme(Path(__file__).resolve().parents[2] / "README.md")
