"""A spec's values read with their types checked: each wrong one is a located error."""

from __future__ import annotations

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
    """:func:`typed`, and finite and above zero (TOML has ``inf`` and ``nan``)."""
    value = typed(error_at, data, key, kind, default)
    if not (math.isfinite(value) and value > 0):
        raise error_at(key, f"must be a positive number, got {value!r}")
    return value


def string_list(error_at: ErrorAt, data: Mapping[str, Any], key: str,
                allow_empty: bool = False) -> list[str]:
    """A list of distinct strings (a lone string is a list of one)."""
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise error_at(key, "expected a list of strings")
    if not value and not allow_empty:
        raise error_at(key, "must name at least one")
    if len(set(value)) != len(value):
        raise error_at(key, "names an entry twice")
    return value
