"""Backend ``minizinc``: the model written as MiniZinc (:mod:`solvers.export.minizinc`)
and solved by the ``minizinc`` executable, Gecode by default.

A witness that shares no search code with PuzzleLab's: the model goes out as text and
the solutions come back as text. Every constraint MiniZinc has a global for is native;
``connected`` is the shared flow decomposition. The heuristic is the file's search
annotation: ``first-fail``, ``input``, ``dom-wdeg`` (MiniZinc's ``dom_w_deg``) and the
static orders, each value ``min`` or ``max``; ``auto`` is the solver's own search.

Gecode runs through PuzzleLab's corrected copy of its MiniZinc library
(``minizinc_gecode/``: Debian's Gecode 6.2 library predates MiniZinc 2.6, see
docs/export.md). Another solver that ``minizinc --solvers`` lists is chosen with the
backend's option ``solver`` (``-o solver=chuffed``: an id or tag; a spec's solver
entry gives it as ``options``), or for every run that names none with the environment
variable ``PUZZLELAB_MINIZINC_SOLVER``.

Each solution is read as MiniZinc prints it (one JSON line), so the solve loop sees
every one: constraints checked after search and lazy ones work as on other backends.
A search that is to stop at a number of solutions is told so (``-n``) when every
variable is the model's, and then ends by itself and prints its statistics; where the
lowering added variables (the flow of ``connected``), two solutions of the file may be
one of the model, so the search enumerates and is stopped once the loop has enough: its
figures are then unknown (None). Statistics are MiniZinc's ``--statistics``:
``failures`` are ``backtracks``, ``nodes`` less the root ``branches``, and
``propagations`` as the solver counts them. MiniZinc's ``flatTime`` (compiling the
file to FlatZinc, inside the search's process) counts as ``build_s``, not ``solve_s``;
the rest of the process (starting it, Gecode reading FlatZinc, searching) is
``solve_s``. The time limit is MiniZinc's ``--time-limit``, which covers flattening as
well as the search.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from puzzlelab.errors import SolverError, UnsupportedCombination
from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.backends import BACKENDS
from solvers.capabilities import (
    DWAY_LABELLING,
    HALL_ALL_DIFFERENT,
    PROBING,
    SEARCH_TREE,
    VALUE_RANKING,
    Capabilities,
)
from solvers.export.minizinc import NATIVE, read_solution, write_lowered
from solvers.export.minizinc_search import BRANCHER
from solvers.export.searches import no_probing, no_ranking, two_way
from solvers.limits import SearchLimits
from solvers.model import Model

#: PuzzleLab's solver configuration for Gecode, with its corrected library beside it
GECODE_CONFIGURATION = Path(__file__).parent / "minizinc_gecode" / "gecode.msc"
SOLVER_VARIABLE = "PUZZLELAB_MINIZINC_SOLVER"
#: weak all_different as MiniZinc says it, and as Gecode 6.2 reads it (declared in our
#: library's redefinitions.mzn): Gecode takes MiniZinc's name as its default, bounds
VALUE_PROPAGATION, GECODE_VALUE_PROPAGATION = ":: value_propagation;", ":: val;"
#: what ``minizinc --statistics`` names each figure we report
FIGURES = {"failures": "backtracks", "nodes": "branches", "propagations": "propagations",
           "restarts": "restarts"}


#: the solver option's value that means PuzzleLab's Gecode configuration
GECODE = "gecode"


def chosen_solver(options: Mapping[str, str]) -> str:
    """The solver a run asks for: ``-o solver=...``, else the environment's, else Gecode."""
    return options.get("solver") or os.environ.get(SOLVER_VARIABLE) or GECODE


def _missing(solver: str) -> str | None:
    """What this machine lacks to run ``solver`` through MiniZinc (None: nothing)."""
    if shutil.which("minizinc") is None:
        return "the minizinc executable is not on PATH (Debian: apt-get install minizinc)"
    if solver == GECODE and shutil.which("fzn-gecode") is None:
        return "Gecode's fzn-gecode is not on PATH (Debian: apt-get install flatzinc)"
    return None


def solver_argument(solver: str) -> str:
    """What ``minizinc --solver`` is given: our Gecode configuration, or the id or tag."""
    return str(GECODE_CONFIGURATION) if solver == GECODE else solver


@dataclass
class _Compiled:
    """The written model and what the hooks read of its run."""

    model: Model
    folder: tempfile.TemporaryDirectory[str]
    path: Path
    request: SolveRequest
    limits: SearchLimits
    exact: bool  # every variable is the model's: a file's solution is one of the model
    solver: str  # what minizinc --solver is given
    figures: dict[str, int | None] = field(default_factory=dict)
    flattening_s: float = 0.0  # MiniZinc's flatTime: building, not searching


@BACKENDS.register("minizinc")
class MiniZincBackend(Backend[_Compiled]):
    """The MiniZinc toolchain (Gecode by default) run on the exported model."""

    name = "minizinc"
    capabilities = Capabilities(
        library="MiniZinc (`minizinc`, Gecode's `fzn-gecode`)",
        summary="a witness sharing no code with ours: the model exported to MiniZinc and "
                "solved by the minizinc executable, Gecode by default",
        native=NATIVE,
        value_choices=frozenset({"min", "max"}),
        weighted_degree=frozenset({"min", "max"}),
        own_search="the MiniZinc solver's default search",
        statistics=frozenset(FIGURES.values()),
        statistic_notes={
            "backtracks": "MiniZinc's failures",
            "branches": "MiniZinc's nodes less the root (Gecode counts every node "
                        "explored, failed ones too)",
            "propagations": "the MiniZinc solver's own count",
            "restarts": "the MiniZinc solver's own count (Gecode's default search: none)"},
        reasons={
            SEARCH_TREE: "the minizinc executable searches in another process and reports "
                         "only its totals (its trees go to CP-Profiler, not back to us)",
            HALL_ALL_DIFFERENT: "MiniZinc names value, bounds and domain propagation, not "
                                "ic_global's check",
            VALUE_RANKING: no_ranking(BRANCHER),
            PROBING: no_probing("MiniZinc"),
            DWAY_LABELLING: two_way(BRANCHER)},
        options={"solver": f"the MiniZinc solver, an id or tag `minizinc --solvers` lists "
                           f"(default: ${SOLVER_VARIABLE}, else {GECODE}: Gecode through "
                           f"PuzzleLab's corrected library)"},
    )

    @classmethod
    def unavailable(cls) -> str | None:
        return _missing(chosen_solver({}))

    def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                limits: SearchLimits) -> _Compiled:
        solver = chosen_solver(request.options)
        missing = _missing(solver)
        if missing:
            raise UnsupportedCombination(f"backend 'minizinc' is unavailable here: {missing}")
        folder = tempfile.TemporaryDirectory(prefix="puzzlelab-minizinc-")
        path = Path(folder.name) / "model.mzn"
        text = write_lowered(model, lowered, request.plan)
        if solver == GECODE:  # Gecode 6.2's own name (declared in gecode.msc's mznlib)
            text = text.replace(VALUE_PROPAGATION, GECODE_VALUE_PROPAGATION)
        path.write_text(text, encoding="utf-8")
        exact = len(lowered.variables) == len(model.variables) and request.judge is None
        return _Compiled(model, folder, path, request, limits, exact,
                         solver_argument(solver))

    def search(self, compiled: _Compiled) -> Generator[tuple[int, ...], None, None]:
        command = ["minizinc", "--solver", compiled.solver, "--statistics",
                   "--output-mode", "json", *self._limits(compiled), str(compiled.path)]
        with open(compiled.path.with_suffix(".errors"), "w", encoding="utf-8") as errors:
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors,
                                       text=True)
        compiled.limits.on_stop(process.terminate)
        ended, finished = "", False
        try:
            assert process.stdout is not None  # asked for with PIPE
            solution: list[str] = []  # the lines of the JSON object being printed
            for line in process.stdout:
                line = line.strip()
                if solution or line.startswith("{"):
                    solution.append(line)
                    if line == "}" or (line.startswith("{") and line.endswith("}")):
                        assignment = read_solution("\n".join(solution), compiled.model)
                        solution = []
                        yield tuple(assignment[v] for v in compiled.model.variables)
                elif line.startswith("%%%mzn-stat:"):
                    self._note_figure(compiled, line)
                elif line.startswith("====="):
                    ended = line
            finished = True
        finally:
            self._end(compiled, process, finished, ended)

    def counters(self, compiled: _Compiled) -> Mapping[str, int | None]:
        return {name: compiled.figures.get(name) for name in FIGURES.values()}

    def building_s(self, compiled: _Compiled) -> float:
        return compiled.flattening_s

    @staticmethod
    def _limits(compiled: _Compiled) -> list[str]:
        arguments = []
        time_limit = compiled.limits.time_limit
        if time_limit is not None:
            arguments += ["--time-limit", str(max(1, int(time_limit * 1000)))]
        wanted = compiled.request.max_solutions
        if wanted is None or not compiled.exact:
            arguments.append("--all-solutions")
        elif wanted > 1:
            arguments += ["--num-solutions", str(wanted)]
        return arguments

    @staticmethod
    def _note_figure(compiled: _Compiled, line: str) -> None:
        key, _, value = line.removeprefix("%%%mzn-stat:").strip().partition("=")
        if key == "flatTime":
            try:
                compiled.flattening_s = float(value)
            except ValueError:
                return
        elif key in FIGURES:
            try:
                number = int(value)
            except ValueError:
                return
            compiled.figures[FIGURES[key]] = max(number - 1, 0) if key == "nodes" else number

    @classmethod
    def _end(cls, compiled: _Compiled, process: subprocess.Popen[str], finished: bool,
             ended: str) -> None:
        """Stop the process (the loop may have enough solutions), say why it ended."""
        if not finished and not compiled.exact:
            process.kill()  # enumerating: stopped before it printed its figures
            compiled.figures.clear()
        try:  # told how many solutions, it ends by itself and prints its figures
            process.wait(timeout=None if finished else 5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        assert process.stdout is not None  # asked for with PIPE
        rest = process.stdout.read()  # what the loop left, through the same buffer
        process.stdout.close()
        errors = compiled.path.with_suffix(".errors").read_text(encoding="utf-8")
        for line in rest.splitlines():
            if line.startswith("%%%mzn-stat:"):
                cls._note_figure(compiled, line)
        compiled.folder.cleanup()
        if not finished:
            return
        if process.returncode != 0 and not compiled.limits.passed():
            raise SolverError(f"minizinc failed (exit status {process.returncode}): "
                              f"{_last_error(errors)}")
        if ended not in ("==========", "=====UNSATISFIABLE=====") and (
                compiled.limits.time_limit is not None):
            compiled.limits.time_ran_out()


def _last_error(errors: str) -> str:
    """MiniZinc's error, without the warnings Gecode's library makes it print."""
    lines = [line for line in errors.splitlines()
             if line.strip() and not line.startswith(("Warning:", "  "))]
    return " ".join(lines[-3:])[:500] or "no message"
