"""A spec's viewpoint and solver entries: a name, or a name with options under a label.

Both lists read the same way, so one campaign can compare a viewpoint under two sets of
options, or a backend under two of its own settings::

    viewpoints = ["classic", { name = "classic", options = { alldiff = "weak" } }]
    solvers = ["cp", { name = "minizinc", options = { solver = "chuffed" }, label = "mzn-chuffed" }]

The label names the entry's column group in the tables and is part of each run's key;
left out, it is the name with the options given (``minizinc[solver=chuffed]``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from experiments.campaign.spec.locating import ErrorAt
from experiments.campaign.spec.values import a_list, looked_up
from puzzlelab.errors import UnknownName
from solvers import BACKENDS
from viewpoints import get_viewpoint

ENTRY_FIELDS = ("name", "options", "label")


@dataclass(frozen=True)
class ViewpointChoice:
    """A viewpoint with its options, under the label its tables use."""

    name: str
    options: Mapping[str, object]
    label: str


@dataclass(frozen=True)
class SolverChoice:
    """A backend with its own options (``capabilities.options``), under the label its
    tables use."""

    name: str
    options: Mapping[str, str]
    label: str


def read_viewpoints(error_at: ErrorAt, data: Mapping[str, object],
                    puzzle: str) -> tuple[ViewpointChoice, ...]:
    """The ``viewpoints`` entries, each a viewpoint of ``puzzle`` with options it takes."""
    def check(key: str, name: str, options: dict[str, object]) -> tuple[str, dict[str, object]]:
        chosen = looked_up(error_at, key, partial(get_viewpoint, puzzle, name))
        looked_up(error_at, key, partial(chosen.resolve_options, options))
        return chosen.name, options

    entries = _entries(error_at, data, "viewpoints", "viewpoint", 'alldiff = "weak"', check)
    return tuple(ViewpointChoice(*entry) for entry in entries)


def read_solvers(error_at: ErrorAt, data: Mapping[str, object]) -> tuple[SolverChoice, ...]:
    """The ``solvers`` entries, each a backend with options it declares. Only a backend
    given options is imported (to read its declaration); a name alone is checked
    against the registry's names."""
    def check(key: str, name: str, options: dict[str, object]) -> tuple[str, dict[str, str]]:
        if name not in BACKENDS:
            raise error_at(key, str(UnknownName("solver", name, BACKENDS.names())))
        written = {}
        for option, value in options.items():
            if isinstance(value, dict | list):
                raise error_at(key, f"option {option!r} must be a string, number or "
                                    f"true/false, not {value!r}")
            written[option] = str(value).lower() if isinstance(value, bool) else str(value)
        if written:
            from solvers.solving import backend_options

            looked_up(error_at, key, partial(backend_options, BACKENDS.get(name), written))
        return name, written

    entries = _entries(error_at, data, "solvers", "solver", 'solver = "chuffed"', check)
    return tuple(SolverChoice(name, {k: str(v) for k, v in options.items()}, label)
                 for name, options, label in entries)


Checked = Callable[[str, str, dict[str, object]], tuple[str, Mapping[str, object]]]
"""Checks one entry's name and options (its key given for errors): the registry name
and the options as the runs keep them."""


def _entries(error_at: ErrorAt, data: Mapping[str, object], key: str, what: str,
             example: str, check: Checked) -> list[tuple[str, Mapping[str, object], str]]:
    """Each entry of the list at ``key`` as (name, options, label), labels distinct."""
    entries = a_list(error_at, key, data[key])
    if not entries:
        raise error_at(key, f"expected a list of {what}s")
    read: list[tuple[str, Mapping[str, object], str]] = []
    for index, entry in enumerate(entries):
        at = f"{key}[{index}]"
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise error_at(at, f"expected a {what} name or {{ name, options, label }}")
        unknown = set(entry) - set(ENTRY_FIELDS)
        if unknown:
            raise error_at(at, f"unknown field {sorted(unknown)[0]!r}; use "
                               f"{', '.join(ENTRY_FIELDS)}")
        options = entry.get("options", {})
        if not isinstance(options, dict):
            raise error_at(at, f"'options' must be a table such as {{ {example} }}")
        name, options = check(at, entry["name"], options)
        label = entry.get("label") or default_label(name, options)
        if not isinstance(label, str):
            raise error_at(at, "'label' must be a string")
        if any(label == other for _, _, other in read):
            raise error_at(at, f"label {label!r} is used twice; give each {what} its own "
                               f"label")
        read.append((name, options, label))
    return read


def default_label(name: str, options: Mapping[str, object]) -> str:
    """``classic`` or ``classic[alldiff=weak]``.

    >>> default_label("minizinc", {"solver": "chuffed"})
    'minizinc[solver=chuffed]'
    """
    if not options:
        return name
    return f"{name}[{','.join(f'{k}={v}' for k, v in options.items())}]"
