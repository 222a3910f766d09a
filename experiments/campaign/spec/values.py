"""A spec's values read with their types checked: each wrong one is a located error."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from experiments.campaign.spec.locating import ErrorAt
from puzzlelab.errors import PuzzleLabError

T = TypeVar("T")


def looked_up(error_at: ErrorAt, key: str, lookup: Callable[[], T]) -> T:
    """What ``lookup`` finds (a registry lookup), its error located at ``key``."""
    try:
        return lookup()
    except PuzzleLabError as error:
        raise error_at(key, str(error)) from None


def typed(error_at: ErrorAt, data: Mapping[str, Any], key: str, kind: Any,
          default: Any = None) -> Any:
    """``data[key]``, which must be of ``kind`` (a type or a tuple of them; a boolean is
    not a number), or ``default`` when the key is left out."""
    if key not in data:
        return default
    value = data[key]
    wrong_bool = isinstance(value, bool) and kind is not bool
    if wrong_bool or not isinstance(value, kind):
        raise error_at(key, f"expected {_kind_name(kind)}, got {value!r}")
    return value


def _kind_name(kind: Any) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def positive(error_at: ErrorAt, data: Mapping[str, Any], key: str, kind: Any,
             default: Any) -> Any:
    """:func:`typed`, and finite and above zero (TOML has ``inf`` and ``nan``; an integer
    of any size is finite, and too large for a float)."""
    value = typed(error_at, data, key, kind, default)
    if not ((isinstance(value, int) or math.isfinite(value)) and value > 0):
        raise error_at(key, f"must be a positive number, got {value!r}")
    return value


def a_list(error_at: ErrorAt, key: str, value: Any, name: str | None = None) -> list[Any]:
    """``value``, which must be a TOML array. A lone value where a list is expected
    (``solvers = "cp"``) is refused on its line, with the list to write: every list key
    of a spec reads the same way, and none is silently taken as a list of one. ``name``
    is the key as written in its table (``select`` of ``instances[0]``)."""
    if isinstance(value, list):
        return value
    written = name or key
    kinds = {str: "string", bool: "boolean", int: "integer", float: "number", dict: "table"}
    what = next((word for kind, word in kinds.items() if isinstance(value, kind)), "value")
    shown = ("{ ... }" if isinstance(value, dict) else json.dumps(value)
             if isinstance(value, str) else str(value).lower() if isinstance(value, bool)
             else str(value))
    raise error_at(key, f"expected a list, not a lone {what}: write {written} = [{shown}]")


def string_list(error_at: ErrorAt, data: Mapping[str, Any], key: str,
                allow_empty: bool = False, located: str | None = None) -> list[str]:
    """A list of distinct strings (``located``: the key errors name, when ``key`` is a
    field of a table, as ``table.metrics``)."""
    where = located or key
    value = a_list(error_at, where, data.get(key, []), key)
    if not all(isinstance(v, str) for v in value):
        raise error_at(where, "expected a list of strings")
    if not value and not allow_empty:
        raise error_at(where, "must name at least one")
    if len(set(value)) != len(value):
        raise error_at(where, "names an entry twice")
    return value
