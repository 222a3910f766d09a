"""Experiment specifications: a TOML file read and validated before anything runs.

A spec names a puzzle, instance files, viewpoints (with options and labels),
solvers, heuristics, repeats and per-run limits; docs/experiments.md lists every key
(from :data:`KEYS`).
Every problem is reported as a ``SpecError`` naming the spec file, the line of
the key (or of the array item) at fault, and the key itself.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.campaign.plugins import load_modules
from experiments.campaign.record import GROUPINGS
from experiments.campaign.toml_location import locate
from experiments.campaign.trees import TreeSettings, tree_settings
from puzzlelab.errors import PuzzleLabError, SpecError, UnknownName
from puzzlelab.statistics import metric_names
from puzzles import PUZZLES
from puzzles.text_input import last_line, line_number_at
from solvers import BACKENDS
from viewpoints import DEFAULTS, get_viewpoint

KEYS = {
    "name": "results folder name and campaign title",
    "description": "free text kept with the results",
    "puzzle": "puzzle name (see `puzzlelab list`)",
    "instances": "instance files relative to the spec, each a path or "
                 "{ file = PATH, select = [NAME or INDEX, ...] }",
    "viewpoints": "viewpoint names, or { name, options = {...}, label }",
    "solvers": "solver names",
    "heuristics": "heuristic names (VARORDER/VALUEORDER or auto)",
    "repeats": "runs of each grid cell (>= 1)",
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
    "modules": "extra Python modules (dotted names or .py files relative to the spec) "
               "imported first, e.g. to register your own viewpoints",
}
REQUIRED = ("name", "puzzle", "instances")
#: keys that only change how runs are shown: free to change between runs of one store
PRESENTATION = ("name", "description", "table", "trees")
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
class ViewpointChoice:
    """A viewpoint with its options, under the label its tables use."""

    name: str
    options: Mapping[str, Any]
    label: str


@dataclass(frozen=True)
class ExperimentSpec:
    """A validated experiment: the grid and the limits of every run in it."""

    path: Path
    text: str
    name: str
    puzzle: str
    instance_sets: tuple[InstanceSet, ...]
    viewpoints: tuple[ViewpointChoice, ...]
    solvers: tuple[str, ...]
    heuristics: tuple[str, ...]
    repeats: int = 1
    time_limit: float = 10.0
    memory_limit_mb: int = 2048
    seed: int = 0
    max_solutions: int | None = 1
    skip_unsupported: bool = False
    modules: tuple[str, ...] = ()
    description: str = ""
    table: TableSettings = field(default_factory=lambda: TableSettings())
    trees: TreeSettings = field(default_factory=TreeSettings)
    settings: Mapping[str, Any] = field(default_factory=dict)
    written_path: Path | None = None  # as the user gave it, for messages (``path`` is resolved)

    def error(self, key: str, message: str) -> SpecError:
        """A ``SpecError`` located at ``key`` of this spec."""
        return spec_error(self.written_path or self.path, self.text, key, message)


def spec_error(path: Path, text: str, key: str, message: str) -> SpecError:
    """``file:line: key 'k': message``, on the line of the key (of its item for ``k[i]``)."""
    offset = locate(text, key)
    line = "" if offset is None else f":{line_number_at(text, offset)}"
    return SpecError(f"{path}{line}: key {key!r}: {message}")


_TOML_POSITION = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")


def _toml_error(path: Path, text: str, error: tomllib.TOMLDecodeError) -> str:
    """``file:line:column: not valid TOML: reason``, the form of every other located error
    (``tomllib`` puts the position at the end of its message, in words)."""
    reason = str(error)
    found = _TOML_POSITION.search(reason)
    if found is None:
        return f"{path}: not valid TOML: {reason}"
    line, column = found.groups()
    where = f"{line}:{column}" if line else str(last_line(text))
    return f"{path}:{where}: not valid TOML: {reason[:found.start()]}"


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
        raise SpecError(_toml_error(path, text, error)) from None
    fail = _Failer(path, text)
    for key in data:
        if key not in KEYS:
            raise fail(key, f"unknown key; valid keys: {', '.join(KEYS)}")
    for key in REQUIRED:
        if key not in data:
            raise SpecError(f"{path}: missing key {key!r} ({KEYS[key]})")
    name = _typed(fail, data, "name", str)
    if not NAME_PATTERN.match(name):
        raise fail("name", "must be letters, digits, '-', '_' or '.' (it names a folder)")
    modules = tuple(_string_list(fail, data, "modules", allow_empty=True))
    try:
        load_modules(modules, path.parent)
    except PuzzleLabError as error:
        raise fail("modules", str(error)) from None
    puzzle = _typed(fail, data, "puzzle", str)
    _lookup(fail, "puzzle", lambda: PUZZLES.get(puzzle))
    data = {**_defaults_of(puzzle, data), **data}
    spec = ExperimentSpec(
        path=path.resolve(), written_path=path, text=text, name=name, puzzle=puzzle,
        instance_sets=_instance_sets(fail, data, path.parent),
        viewpoints=_viewpoints(fail, data, puzzle),
        solvers=tuple(_string_list(fail, data, "solvers")),
        heuristics=tuple(_string_list(fail, data, "heuristics")),
        repeats=_positive(fail, data, "repeats", int, 1),
        time_limit=float(_positive(fail, data, "time_limit", (int, float), 10.0)),
        memory_limit_mb=_positive(fail, data, "memory_limit_mb", int, 2048),
        seed=_typed(fail, data, "seed", int, 0),
        max_solutions=_max_solutions(fail, data),
        skip_unsupported=_typed(fail, data, "skip_unsupported", bool, False),
        modules=modules,
        description=_typed(fail, data, "description", str, ""),
        table=_table_settings(fail, data),
        trees=tree_settings(data, fail),
        settings=data,
    )
    for index, solver in enumerate(spec.solvers):  # named, not imported: the grid will
        if solver not in BACKENDS:
            raise fail(f"solvers[{index}]", str(UnknownName("solver", solver, BACKENDS.names())))
    return spec


class _Failer:
    """Builds located ``SpecError``s for one spec file."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.text = path, text

    def __call__(self, key: str, message: str) -> SpecError:
        return spec_error(self.path, self.text, key, message)


def _lookup(fail: _Failer, key: str, getter: Any) -> Any:
    try:
        return getter()
    except PuzzleLabError as error:
        raise fail(key, str(error)) from None


def _typed(fail: _Failer, data: Mapping[str, Any], key: str, kind: Any,
           default: Any = None) -> Any:
    if key not in data:
        return default
    value = data[key]
    wrong_bool = isinstance(value, bool) and kind is not bool
    if wrong_bool or not isinstance(value, kind):
        raise fail(key, f"expected {_kind_name(kind)}, got {value!r}")
    return value


def _kind_name(kind: Any) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _positive(fail: _Failer, data: Mapping[str, Any], key: str, kind: Any,
              default: Any) -> Any:
    value = _typed(fail, data, key, kind, default)
    if not (math.isfinite(value) and value > 0):  # TOML has inf and nan
        raise fail(key, f"must be a positive number, got {value!r}")
    return value


def _max_solutions(fail: _Failer, data: Mapping[str, Any]) -> int | None:
    value = _typed(fail, data, "max_solutions", int, 1)
    if value < 0:
        raise fail("max_solutions", "must be 0 (count all) or a positive number")
    return value or None


def _string_list(fail: _Failer, data: Mapping[str, Any], key: str,
                 allow_empty: bool = False) -> list[str]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise fail(key, "expected a list of strings")
    if not value and not allow_empty:
        raise fail(key, "must name at least one")
    if len(set(value)) != len(value):
        raise fail(key, "names an entry twice")
    return value


@dataclass(frozen=True)
class TableSettings:
    """How a campaign's tables and report group and measure (the spec's ``table`` key):
    ``puzzlelab run`` writes them so, and ``table`` and ``report`` show them so unless
    told otherwise."""

    metrics: tuple[str, ...] = ("time", "backtracks")
    by: str = "viewpoint"
    reached: bool = False
    report: bool = True  # write report/ (puzzlelab report) after the tables


def table_settings(text: str, path: Path) -> TableSettings:
    """The ``table`` settings of the spec ``text`` (its defaults where it has none): how a
    stored campaign's report groups and measures, as its run did."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SpecError(_toml_error(path, text, error)) from None
    return _table_settings(_Failer(path, text), data)


def _table_settings(fail: _Failer, data: Mapping[str, Any]) -> TableSettings:
    table = _typed(fail, data, "table", dict, {})
    unknown = set(table) - {"metrics", "by", "reached", "report"}
    if unknown:
        raise fail("table", f"unknown field {sorted(unknown)[0]!r}; use metrics, by, reached, "
                            f"report")
    metrics = tuple(_string_list(fail, table, "metrics", allow_empty=True)) or ("time",
                                                                             "backtracks")
    by = table.get("by", "viewpoint")
    for metric in metrics:
        if metric not in metric_names():
            raise fail("table", f"unknown metric {metric!r}; valid: "
                                f"{', '.join(metric_names())}")
    if by not in GROUPINGS:
        raise fail("table", f"'by' must be one of {', '.join(GROUPINGS)}, not {by!r}")
    reached = table.get("reached", False)
    if not isinstance(reached, bool):
        raise fail("table", f"'reached' must be true or false, not {reached!r}")
    report = table.get("report", True)
    if not isinstance(report, bool):
        raise fail("table", f"'report' must be true or false, not {report!r}")
    return TableSettings(metrics, by, reached, report)


def _instance_sets(fail: _Failer, data: Mapping[str, Any], base: Path) -> tuple[InstanceSet, ...]:
    entries = data["instances"]
    if isinstance(entries, str | dict):
        entries = [entries]
    if not isinstance(entries, list) or not entries:
        raise fail("instances", "expected a list of files")
    sets = []
    for index, entry in enumerate(entries):
        key = f"instances[{index}]"
        if isinstance(entry, dict):
            unknown = set(entry) - {"file", "select"}
            if unknown or "file" not in entry:
                raise fail(key, "a table entry takes 'file' and optional 'select'")
            file, select = entry["file"], entry.get("select", [])
        else:
            file, select = entry, []
        if not isinstance(file, str):
            raise fail(key, "expected a file path")
        if not isinstance(select, list) or not all(
                isinstance(s, str | int) and not isinstance(s, bool) for s in select):
            raise fail(key, "'select' must be a list of instance names or 1-based indices")
        resolved = (base / file).resolve()
        if resolved.is_dir():
            raise fail(key, f"{file} is a folder: name its instance files, one entry each")
        if not resolved.is_file():
            raise fail(key, f"instance file {file} not found (looked for {resolved})")
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


def _viewpoints(fail: _Failer, data: Mapping[str, Any],
                puzzle: str) -> tuple[ViewpointChoice, ...]:
    entries = data["viewpoints"]
    if not isinstance(entries, list) or not entries:
        raise fail("viewpoints", "expected a list of viewpoints")
    choices: list[ViewpointChoice] = []
    for index, entry in enumerate(entries):
        key = f"viewpoints[{index}]"
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise fail(key, "expected a viewpoint name or { name, options, label }")
        unknown = set(entry) - {"name", "options", "label"}
        if unknown:
            raise fail(key, f"unknown field {sorted(unknown)[0]!r}; use name, options, label")
        chosen = _lookup(fail, key, lambda entry=entry: get_viewpoint(puzzle, entry["name"]))
        options = entry.get("options", {})
        if not isinstance(options, dict):
            raise fail(key, "'options' must be a table such as { alldiff = \"weak\" }")
        _lookup(fail, key, lambda chosen=chosen, options=options:
                chosen.resolve_options(options))
        label = entry.get("label") or _default_label(chosen.name, options)
        if not isinstance(label, str):
            raise fail(key, "'label' must be a string")
        if any(label == c.label for c in choices):
            raise fail(key, f"label {label!r} is used twice; give each viewpoint its own label")
        choices.append(ViewpointChoice(chosen.name, dict(options), label))
    return tuple(choices)


def _default_label(name: str, options: Mapping[str, Any]) -> str:
    """``classic`` or ``classic[alldiff=weak]``."""
    if not options:
        return name
    return f"{name}[{','.join(f'{k}={v}' for k, v in options.items())}]"
