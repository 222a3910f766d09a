"""The spec's presentation settings: how its tables and report group and measure
(``table``), whose search trees the campaign records (``trees``), and which instances
its report explains step by step (``explain``).

None changes what a stored run means, so each may change between runs of one store.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from experiments.campaign.spec.locating import ErrorAt, errors_of, toml_error
from experiments.campaign.spec.values import a_list, string_list, typed
from puzzlelab.errors import SpecError
from puzzlelab.statistics import metric_names
from solvers.search_tree import DEFAULT_NODE_CAP

GROUPINGS = ("viewpoint", "heuristic", "solver")
"""The identity fields that tables and plots may group runs by (``table.by``)."""
DEFAULT_METRICS = ("time", "effort")
TREE_FILTERS = {"viewpoints": "viewpoint", "solvers": "solver", "heuristics": "heuristic"}
"""The ``trees`` fields that narrow the runs down, and the identity field each names."""


@dataclass(frozen=True)
class TableSettings:
    """How a campaign's tables and report group and measure (the spec's ``table`` key):
    ``puzzlelab run`` writes them so, and ``table`` and ``report`` show them so unless
    told otherwise."""

    metrics: tuple[str, ...] = DEFAULT_METRICS
    by: str = "viewpoint"
    reached: bool = False
    report: bool = True  # write report/ (puzzlelab report) after the tables


@dataclass(frozen=True)
class TreeSettings:
    """The spec's ``trees`` key: whose trees to record, and each tree's node cap (an
    empty filter takes every viewpoint, solver or heuristic of the spec)."""

    instances: tuple[str, ...] = ()
    nodes: int = DEFAULT_NODE_CAP
    viewpoints: tuple[str, ...] = ()
    solvers: tuple[str, ...] = ()
    heuristics: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExplainSettings:
    """The spec's ``explain`` key: the instances (labels, as the tables name them) whose
    step-by-step explanations the report shows, on ``viewpoint`` (None: the puzzle's
    default)."""

    instances: tuple[str, ...] = ()
    viewpoint: str | None = None


def table_settings(text: str, path: Path) -> TableSettings:
    """The ``table`` settings of the spec ``text`` (its defaults where it has none): how a
    stored campaign's report groups and measures, as its run did."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise toml_error(path, text, error) from None
    table = data.get("table")
    if isinstance(table, dict) and isinstance(table.get("metrics"), str):
        table["metrics"] = [table["metrics"]]  # a stored spec, read as its run read it
    return read_table_settings(errors_of(path, text), data)


def read_table_settings(error_at: ErrorAt, data: Mapping[str, Any]) -> TableSettings:
    """The ``table`` key of a spec's ``data``."""
    table = typed(error_at, data, "table", dict, {})
    unknown = set(table) - {"metrics", "by", "reached", "report"}
    if unknown:
        raise error_at("table", f"unknown field {sorted(unknown)[0]!r}; use metrics, by, "
                                f"reached, report")
    metrics = tuple(string_list(error_at, table, "metrics", allow_empty=True,
                                located="table.metrics")) or DEFAULT_METRICS
    for metric in metrics:
        if metric not in metric_names():
            raise error_at("table", f"unknown metric {metric!r}; valid: "
                                    f"{', '.join(metric_names())}")
    by = table.get("by", "viewpoint")
    if by not in GROUPINGS:
        raise error_at("table", f"'by' must be one of {', '.join(GROUPINGS)}, not {by!r}")
    flags = {}
    for name, default in (("reached", False), ("report", True)):
        flags[name] = table.get(name, default)
        if not isinstance(flags[name], bool):
            raise error_at("table", f"{name!r} must be true or false, not {flags[name]!r}")
    return TableSettings(metrics, by, flags["reached"], flags["report"])


def read_tree_settings(error_at: ErrorAt, data: Mapping[str, Any]) -> TreeSettings:
    """The ``trees`` key of a spec's ``data``."""
    given = data.get("trees", {})
    if not isinstance(given, dict):
        raise error_at("trees", "expected { instances = [NAME, ...], nodes = N }")
    unknown = set(given) - {"instances", "nodes", *TREE_FILTERS}
    if unknown:
        raise error_at("trees", f"unknown field {sorted(unknown)[0]!r}; use instances, nodes, "
                                f"{', '.join(TREE_FILTERS)}")
    names = {}
    for field_name in ("instances", *TREE_FILTERS):
        listed = a_list(error_at, "trees", given.get(field_name, []), field_name)
        if not all(isinstance(i, str) for i in listed):
            raise error_at("trees", f"'{field_name}' must be a list of names")
        names[field_name] = tuple(listed)
    nodes = given.get("nodes", DEFAULT_NODE_CAP)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
        raise error_at("trees", f"'nodes' must be a positive integer, not {nodes!r}")
    return TreeSettings(names["instances"], nodes, names["viewpoints"], names["solvers"],
                        names["heuristics"])


def read_explain_settings(error_at: ErrorAt, data: Mapping[str, Any]) -> ExplainSettings:
    """The ``explain`` key of a spec's ``data`` (its viewpoint is checked against the
    puzzle where the spec is read, its instances once the grid is expanded:
    :func:`check_explained`)."""
    given = data.get("explain", {})
    if not isinstance(given, dict):
        raise error_at("explain", 'expected { instances = [NAME, ...], viewpoint = "..." }')
    unknown = set(given) - {"instances", "viewpoint"}
    if unknown:
        raise error_at("explain", f"unknown field {sorted(unknown)[0]!r}; use instances, "
                                  f"viewpoint")
    listed = a_list(error_at, "explain", given.get("instances", []), "instances")
    if not all(isinstance(name, str) for name in listed):
        raise error_at("explain", "'instances' must be a list of instance names")
    viewpoint = given.get("viewpoint")
    if viewpoint is not None and not isinstance(viewpoint, str):
        raise error_at("explain", f"'viewpoint' must be a viewpoint name, not {viewpoint!r}")
    return ExplainSettings(tuple(listed), viewpoint)


def explain_settings(text: str, path: Path) -> ExplainSettings:
    """The ``explain`` settings of the stored spec ``text``: what a campaign's report
    explains, as its spec asked."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise toml_error(path, text, error) from None
    return read_explain_settings(errors_of(path, text), data)


def check_explained(settings: ExplainSettings, instances: Collection[str],
                    error_at: Callable[[str, str], SpecError]) -> None:
    """Refuse an ``explain`` instance that is not one of the campaign's ``instances``,
    naming them (the grid knows them once it is expanded)."""
    for name in settings.instances:
        if name not in instances:
            raise error_at("explain", f"no instance {name!r} in the campaign; its instances: "
                                      f"{', '.join(sorted(instances))}")
