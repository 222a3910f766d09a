"""An experiment spec: a TOML file read and validated before anything runs.

A spec names a puzzle, instance files, viewpoints and solvers (each with options and
a label, :mod:`.choices`), heuristics, repeats and per-run limits; docs/experiments.md
lists every key (from :data:`KEYS`).
Every problem is reported as a ``SpecError`` naming the spec file, the line of
the key (or of the array item) at fault, and the key itself.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from experiments.campaign.identity import ALL_SOLUTIONS
from experiments.campaign.plugins import load_modules
from experiments.campaign.sizing import MAX_RUNS
from experiments.campaign.spec.choices import (
    SolverChoice,
    ViewpointChoice,
    read_solvers,
    read_viewpoints,
)
from experiments.campaign.spec.locating import ErrorAt, errors_of, spec_error, toml_error
from experiments.campaign.spec.settings import (
    ExplainSettings,
    TableSettings,
    TreeSettings,
    read_explain_settings,
    read_table_settings,
    read_tree_settings,
)
from experiments.campaign.spec.values import (
    a_list,
    looked_up,
    positive,
    string_list,
    typed,
)
from puzzlelab.errors import PuzzleLabError, SpecError
from puzzles import PUZZLES
from viewpoints import DEFAULTS, get_viewpoint

KEYS = {
    "name": "results folder name and campaign title",
    "description": "free text kept with the results",
    "puzzle": "puzzle name (see `puzzlelab list`)",
    "instances": "instance files relative to the spec, each a path or "
                 "{ file = PATH, select = [NAME or INDEX, ...] }",
    "viewpoints": "viewpoint names, or { name, options = {...}, label }",
    "solvers": "solver names, or { name, options = {...}, label }: a backend under its "
               "own options (`puzzlelab list`)",
    "heuristics": "heuristic names (VARORDER/VALUEORDER or auto)",
    "repeats": f"runs of each grid cell (>= 1; the whole grid plans at most {MAX_RUNS:,} runs)",
    "time_limit": "seconds of search per run",
    "memory_limit_mb": "megabytes of memory per run",
    "seed": "seed of random orders and solvers (the same for every repeat)",
    "max_solutions": "stop each run after this many solutions; 0 counts them all",
    "skip_unsupported": "leave out combinations a solver cannot run instead of failing",
    "table": "the tables `puzzlelab run` writes: { metrics = [...], by = \"viewpoint\", "
             "reached = false, report = true }; report = false: no report/ folder",
    "trees": "record search trees: { instances = [NAME, ...], nodes = 100000 }, and "
             "optionally viewpoints (labels), solvers, heuristics: each such run on a "
             "solver that records trees, solved again with the recording on, for the report",
    "explain": "explain instances step by step in the report: { instances = [NAME, ...] }, "
               "and optionally viewpoint = NAME (the puzzle's default otherwise): each "
               "instance's steps in report/explain.html, summed up in the report",
    "modules": "extra Python modules (dotted names or .py files relative to the spec) "
               "imported first, e.g. to register your own viewpoints",
}
REQUIRED = ("name", "puzzle", "instances")
#: keys that only change how runs are shown: free to change between runs of one store
PRESENTATION = ("name", "description", "table", "trees", "explain")
#: keys that add or take out grid cells: a spec run again on its store runs the new cells
#: (:mod:`experiments.campaign.growth`); every other key decides what a stored run means,
#: and changing it under stored runs is refused
GROWING = ("instances", "viewpoints", "solvers", "heuristics", "repeats", "skip_unsupported")
#: keys a spec may leave out: the puzzle's defaults (``puzzlelab list``) fill them in
DEFAULTED = ("viewpoints", "solvers", "heuristics")
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class InstanceSet:
    """One instance file and the instances picked from it (all when ``select`` is empty)."""

    path: Path
    select: tuple[str | int, ...] = ()
    written: str = ""


@dataclass(frozen=True)
class ExperimentSpec:
    """A validated experiment: the grid and the limits of every run in it."""

    path: Path
    text: str
    name: str
    puzzle: str
    instance_sets: tuple[InstanceSet, ...]
    viewpoints: tuple[ViewpointChoice, ...]
    solvers: tuple[SolverChoice, ...]
    heuristics: tuple[str, ...]
    repeats: int = 1
    time_limit: float = 10.0
    memory_limit_mb: int = 2048
    seed: int = 0
    max_solutions: int = 1  # ALL_SOLUTIONS (0): every solution
    skip_unsupported: bool = False
    modules: tuple[str, ...] = ()
    description: str = ""
    table: TableSettings = field(default_factory=TableSettings)
    trees: TreeSettings = field(default_factory=TreeSettings)
    explain: ExplainSettings = field(default_factory=ExplainSettings)
    settings: Mapping[str, Any] = field(default_factory=dict)
    written_path: Path | None = None  # as the user gave it, for messages (``path`` is resolved)

    def error(self, key: str, message: str) -> SpecError:
        """A ``SpecError`` located at ``key`` of this spec."""
        return spec_error(self.written_path or self.path, self.text, key, message)


def load_spec(path: str | Path) -> ExperimentSpec:
    """Read and validate the spec at ``path``; every problem raises ``SpecError``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM is not TOML, but editors add it
    except OSError as error:
        moved = path.parent / "specs" / path.name
        hint = (f"; the shipped experiments moved to {path.parent / 'specs'}: try {moved}"
                if not path.exists() and moved.is_file() else "")
        raise SpecError(f"{path}: cannot read the experiment spec ({error.strerror}){hint}"
                        ) from None
    except UnicodeDecodeError as error:  # TOML is UTF-8
        raise SpecError(f"{path}: the experiment spec is not UTF-8 text ({error.reason} at "
                        f"byte {error.start})") from None
    return parse_spec(text, path)


def parse_spec(text: str, path: Path) -> ExperimentSpec:
    """Validate the TOML ``text`` of the spec at ``path`` (relative files resolve from it)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise toml_error(path, text, error) from None
    except ValueError as error:  # an integer of thousands of digits: Python's own limit
        raise SpecError(f"{path}: not valid TOML: {error}") from None
    error_at = errors_of(path, text)
    for key in data:
        if key not in KEYS:
            raise error_at(key, f"unknown key; valid keys: {', '.join(KEYS)}")
    for key in REQUIRED:
        if key not in data:
            raise SpecError(f"{path}: missing key {key!r} ({KEYS[key]})")
    name = typed(error_at, data, "name", str)
    if not NAME_PATTERN.match(name):
        raise error_at("name", "must be letters, digits, '-', '_' or '.' (it names a folder)")
    modules = tuple(string_list(error_at, data, "modules", allow_empty=True))
    try:
        load_modules(modules, path.parent)
    except PuzzleLabError as error:
        raise error_at("modules", str(error)) from None
    puzzle = typed(error_at, data, "puzzle", str)
    looked_up(error_at, "puzzle", lambda: PUZZLES.get(puzzle))
    data = {**_defaults_of(puzzle, data), **data}
    spec = ExperimentSpec(
        path=path.resolve(), written_path=path, text=text, name=name, puzzle=puzzle,
        instance_sets=_instance_sets(error_at, data, path.parent),
        viewpoints=read_viewpoints(error_at, data, puzzle),
        solvers=read_solvers(error_at, data),
        heuristics=tuple(string_list(error_at, data, "heuristics")),
        repeats=_repeats(error_at, data),
        time_limit=float(positive(error_at, data, "time_limit", (int, float), 10.0)),
        memory_limit_mb=positive(error_at, data, "memory_limit_mb", int, 2048),
        seed=typed(error_at, data, "seed", int, 0),
        max_solutions=_max_solutions(error_at, data),
        skip_unsupported=typed(error_at, data, "skip_unsupported", bool, False),
        modules=modules,
        description=typed(error_at, data, "description", str, ""),
        table=read_table_settings(error_at, data),
        trees=read_tree_settings(error_at, data),
        explain=_explain(error_at, data, puzzle),
        settings=data,
    )
    return spec


def _explain(error_at: ErrorAt, data: Mapping[str, Any], puzzle: str) -> ExplainSettings:
    """``explain``, its viewpoint one of the puzzle's."""
    settings = read_explain_settings(error_at, data)
    if settings.viewpoint is not None:
        looked_up(error_at, "explain", partial(get_viewpoint, puzzle, settings.viewpoint))
    return settings


def _repeats(error_at: ErrorAt, data: Mapping[str, Any]) -> int:
    """``repeats``: a typo of a few digits more is refused here, before any instance is
    read (:mod:`experiments.campaign.sizing`; the grid checks its whole size)."""
    value: int = positive(error_at, data, "repeats", int, 1)
    if value > MAX_RUNS:
        raise error_at("repeats", f"{value:,} runs of each cell: more than the {MAX_RUNS:,} "
                                  f"runs a campaign may plan in all (each run planned takes "
                                  f"memory before any runs); give fewer repeats")
    return value


def _max_solutions(error_at: ErrorAt, data: Mapping[str, Any]) -> int:
    value: int = typed(error_at, data, "max_solutions", int, 1)
    if value < 0:
        raise error_at("max_solutions", f"must be {ALL_SOLUTIONS} (count all) or a positive "
                                        f"number")
    return value


def _instance_sets(error_at: ErrorAt, data: Mapping[str, Any],
                   base: Path) -> tuple[InstanceSet, ...]:
    entries = a_list(error_at, "instances", data["instances"])
    if not entries:
        raise error_at("instances", "expected a list of files")
    sets = []
    for index, entry in enumerate(entries):
        key = f"instances[{index}]"
        if isinstance(entry, dict):
            unknown = set(entry) - {"file", "select"}
            if unknown or "file" not in entry:
                raise error_at(key, "a table entry takes 'file' and optional 'select'")
            file, select = entry["file"], entry.get("select", [])
        else:
            file, select = entry, []
        if not isinstance(file, str):
            raise error_at(key, "expected a file path")
        select = a_list(error_at, key, select, "select")
        if not all(isinstance(s, str | int) and not isinstance(s, bool) for s in select):
            raise error_at(key, "'select' must be a list of instance names or 1-based indices")
        resolved = (base / file).resolve()
        if resolved.is_dir():
            raise error_at(key, f"{file} is a folder: name its instance files, one entry each")
        if not resolved.is_file():
            raise error_at(key, f"instance file {file} not found (looked for {resolved})")
        sets.append(InstanceSet(resolved, tuple(select), file))
    return tuple(sets)


def _defaults_of(puzzle: str, data: Mapping[str, Any]) -> dict[str, object]:
    """The puzzle's default viewpoint (with its options), solver and heuristic, in spec
    form, for the keys the spec leaves out."""
    if all(key in data for key in DEFAULTED):
        return {}
    defaults = DEFAULTS.get(puzzle)
    viewpoint: dict[str, object] = {"name": defaults.viewpoint}
    if defaults.options:
        viewpoint["options"] = dict(defaults.options)
    return {"viewpoints": [viewpoint], "solvers": [defaults.solver],
            "heuristics": [defaults.heuristic]}
