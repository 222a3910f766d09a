"""The import budget of the command line: a command imports what it uses, no more.

Start-up time is mostly imports (OR-tools, networkx, numpy, matplotlib each cost tens
of milliseconds, the command line's own framework once cost a tenth of a second), so
the budget is held as which modules a command leaves imported, in a fresh interpreter;
the times themselves are the start-up benchmark's (``results/startup-benchmark``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.paths import ROOT, SUDOKU_DATA

LIBRARIES = ("ortools", "networkx", "numpy", "numba", "matplotlib", "dask", "distributed",
             "jinja2", "pandas", "rich", "constraint", "typer", "click", "pydantic")
"""Libraries none of the commands below needs."""


def imported(*arguments: str) -> set[str]:
    """The modules left imported by ``puzzlelab ARGUMENTS`` in a fresh interpreter."""
    script = ("import json, sys\nfrom experiments.cli import run\n"
              f"try:\n    run({list(arguments)!r})\nexcept SystemExit:\n    pass\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    finished = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                              text=True, timeout=120, check=True)
    return set(json.loads(finished.stdout.splitlines()[-1]))


def libraries(modules: set[str]) -> set[str]:
    return {module.split(".")[0] for module in modules} & set(LIBRARIES)


@pytest.mark.parametrize("arguments", [["--version"], ["--help"], ["solve", "--help"]])
def test_help_and_version_import_no_puzzle_solver_or_library(arguments: list[str]) -> None:
    modules = imported(*arguments)
    assert not libraries(modules)
    assert not {m.split(".")[0] for m in modules} & {"puzzles", "solvers", "viewpoints",
                                                     "pychoco"}


def test_a_sudoku_solve_imports_sudoku_and_choco_alone() -> None:
    """The default Sudoku solve (Choco): no other solver's library, no other puzzle's
    modules, no plotting, no campaign engine."""
    modules = imported("solve", "sudoku", str(SUDOKU_DATA / "small_4x4.txt"), "--instance",
                       "1")
    assert "pychoco" in modules and not libraries(modules)
    ours = {m for m in modules if m.startswith(("puzzles.", "viewpoints.", "solvers.backends."))}
    assert {m for m in ours if any(p in m for p in ("hashi", "nonogram", "shikaku"))} == set()
    backends = {m.split(".")[2] for m in ours if m.startswith("solvers.backends.")}
    assert backends == {"choco"}
    assert not any(m.startswith(("experiments.analysis", "experiments.campaign.runner",
                                 "experiments.campaign.store")) for m in modules)


def test_list_names_every_backend_without_importing_the_solver_libraries() -> None:
    """``list`` reads every backend's declaration; OR-tools and numpy come with a solve."""
    modules = imported("list")
    assert {"solvers.backends.cp", "solvers.backends.cpsat"} <= modules
    assert not libraries(modules) - {"constraint"}  # python-constraint: its declaration's


def test_a_campaign_on_choco_plans_without_starting_choco_or_importing_socket(
        tmp_path) -> None:
    """The runner only plans: it reads the backend's declaration, and Choco (whose native
    image reserves 32 GB as it starts) is started by the workers alone; the pipes to them,
    the session's host name and package versions need no ``socket``."""
    spec = tmp_path / "choco.toml"
    spec.write_text(f'name = "choco"\npuzzle = "sudoku"\ninstances = [{{ file = '
                    f'"{(SUDOKU_DATA / "small_4x4.txt").as_posix()}", select = [1] }}]\n'
                    f'solvers = ["choco"]\nheuristics = ["input/min"]\n'
                    f'table = {{ report = false }}\n', encoding="utf-8")
    modules = imported("run", str(spec), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert "experiments.campaign.runner" in modules  # the campaign ran here
    assert (tmp_path / "out" / "runs.csv").read_text(encoding="utf-8").count(",solved,") == 1
    assert not {"pychoco", "socket", "multiprocessing", "email"} & modules

