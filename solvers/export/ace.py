"""Run ACE, the XCSP3 solver the ``pycsp3`` package ships as a jar, on an exported file.

The jar is found inside the installed package without importing it (importing
pycsp3 does work at import time); Java runs it. The options, as ACE's help lists
them (``java -jar ACE-*.jar``): ``-s=N`` (or ``-s=all``) stops after N solutions,
``-xe`` prints each solution as it is found, ``-xc=false`` without compacting repeated
values (``0x8``), ``-npc`` drops the colours, ``-v=-1`` the statistics, ``-t=Ns`` limits
the time; ``-riv=false -omv=false`` keep the variables no constraint mentions searched
and printed (ACE would otherwise fix them to one value and leave them out, and count
fewer solutions).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from puzzlelab.errors import SolverError
from solvers.export.xcsp3 import read_solution
from solvers.model import Model
from solvers.variables import Assignment

#: ACE's options every run takes (see the module's docstring)
BASE_OPTIONS = ("-xe", "-xc=false", "-npc", "-v=-1", "-riv=false", "-omv=false")

_SOLUTION = re.compile(r"^v\s+(<instantiation\b.*?</instantiation>)", re.MULTILINE)
_STATUS = re.compile(r"^s (\w+)", re.MULTILINE)
_FOUND = re.compile(r"^d FOUND SOLUTIONS\s+([\d,]+)", re.MULTILINE)


@dataclass(frozen=True)
class AceRun:
    """What one ACE run printed: the status (``SATISFIABLE``, ``UNSATISFIABLE``,
    ``UNKNOWN``), each solution's instantiation, the number found, and whether the
    search space was exhausted (so that number is all the solutions)."""

    status: str
    solutions: tuple[str, ...]
    found: int
    complete: bool

    def assignments(self, model: Model) -> list[Assignment]:
        """Each solution as an assignment of ``model``'s variables."""
        return [read_solution(solution, model) for solution in self.solutions]


def ace_jar() -> Path | None:
    """ACE's jar in the installed ``pycsp3`` package (None when there is none)."""
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        jars = sorted(Path(folder, "solvers", "ace").glob("ACE-*.jar"))
        if jars:
            return jars[-1]
    return None


def missing() -> str:
    """Why ACE cannot run here ('' when it can)."""
    if shutil.which("java") is None:
        return "java is not installed (Debian: apt-get install default-jre-headless)"
    if ace_jar() is None:
        return "ACE's jar is not installed (pip install pycsp3, which ships it)"
    return ""


def command(path: Path, max_solutions: int | None = 1, options: Sequence[str] = (),
            time_limit: float | None = None) -> list[str]:
    """The command line that solves the XCSP3 file ``path`` with ACE, stopping after
    ``max_solutions`` (0, or None: all of them)."""
    jar = ace_jar()
    java = shutil.which("java")
    if jar is None or java is None:
        raise SolverError(f"cannot run ACE: {missing()}")
    limit = "all" if not max_solutions else str(max_solutions)
    line = [java, "-jar", str(jar), str(path), f"-s={limit}", *BASE_OPTIONS, *options]
    if time_limit is not None:
        line.append(f"-t={max(1, round(time_limit))}s")
    return line


def run_ace(path: Path, max_solutions: int | None = 1, options: Sequence[str] = (),
            time_limit: float | None = None) -> AceRun:
    """Solve the XCSP3 file ``path`` with ACE; raises ``SolverError`` when ACE
    reports no status (it prints a parse error and still exits with 0)."""
    finished = subprocess.run(command(path, max_solutions, options, time_limit),
                              capture_output=True, text=True, check=False,
                              timeout=None if time_limit is None else time_limit + 30)
    return parse_output(finished.stdout, finished.stderr)


def parse_output(stdout: str, stderr: str = "") -> AceRun:
    """The run ACE's printed ``stdout`` describes."""
    status = _STATUS.search(stdout)
    if status is None:
        raise SolverError("ACE gave no answer: " + (stdout + stderr).strip()[-1500:])
    found = _FOUND.search(stdout)
    solutions: dict[str, str] = {}
    for text in _SOLUTION.findall(stdout):
        number = re.search(r"id='([^']*)'", text)
        solutions.setdefault(number.group(1) if number else str(len(solutions)), text)
    return AceRun(status.group(1), tuple(solutions.values()),
                  int(found.group(1).replace(",", "")) if found else len(solutions),
                  "d COMPLETE EXPLORATION" in stdout)
