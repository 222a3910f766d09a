"""Declared options: the type, allowed values, default and one-line doc of each named option.

Viewpoints (``alldiff=strong``) and puzzle generators (``--box 3``) declare their
options with :class:`Option`; the command line, the experiment-spec checks and
``puzzlelab list`` read the declarations, so what an option takes is written once.
Values arrive as text (command line) or typed (TOML) and leave typed, or as an
``OptionError`` that says what is allowed.

>>> density = Option(0.5, help="share of filled cells", low=0.0, high=1.0, strict=True)
>>> density.accept("0.25", "--density")
0.25
>>> density.accept("1.5", "--density")
Traceback (most recent call last):
...
puzzlelab.errors.OptionError: --density must be a number strictly between 0 and 1, not '1.5'
>>> Option(Size(10, 10), low=1, high=1000).accept("20x15", "--size")
Size(rows=20, columns=15)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from puzzlelab.errors import OptionError
from puzzles.text_input import is_integer


class Size(NamedTuple):
    """A grid size, ``ROWSxCOLUMNS`` on the command line."""

    rows: int
    columns: int

    def __str__(self) -> str:
        return f"{self.rows}x{self.columns}"


OptionValue = int | float | str | Size
"""What an option holds. A ``bool`` is refused where an ``int`` is declared."""

T = TypeVar("T")

_TYPE_NAMES: dict[type, str] = {int: "integer", float: "number", str: "text",
                                Size: "size"}


@dataclass(frozen=True)
class Option:
    """One declared option: its default, allowed values, one-line doc and value type.

    Attributes:
        default: the value when the option is not given; ``None`` only where the owner
            derives it from the other options (its ``help`` says how).
        choices: the allowed values, when they are a list (empty: any value of the type
            within ``low``..``high``).
        help: one line saying what the option does.
        value_type: ``int``, ``float``, ``str`` or :class:`Size`; inferred from the
            default (or the first choice) when not given.
        low, high: the allowed range (inclusive, or exclusive with ``strict``); for a
            :class:`Size`, the range of each side.
        tag: how the value appears in a generated file's name (``"d"`` gives ``d0.5``,
            ``""`` the value alone).
    """

    default: OptionValue | None
    choices: tuple[OptionValue, ...] = ()
    help: str = ""
    value_type: type = field(default=type(None))
    low: float | None = None
    high: float | None = None
    strict: bool = False
    tag: str = ""

    def __post_init__(self) -> None:
        if self.value_type is type(None):
            example = self.default if self.default is not None else next(iter(self.choices),
                                                                         None)
            if example is None:
                raise TypeError("an Option with no default and no choices needs a value_type")
            object.__setattr__(self, "value_type", type(example))
        if self.value_type not in _TYPE_NAMES:
            raise TypeError(f"option values are int, float, str or Size, not "
                            f"{self.value_type.__name__}")

    @property
    def type_name(self) -> str:
        """The value type in words: ``integer``, ``number``, ``text`` or ``size``."""
        return _TYPE_NAMES[self.value_type]

    def allowed(self) -> str:
        """The allowed values in words, e.g. ``weak, strong`` or ``from 2 to 5``."""
        if self.choices:
            return ", ".join(map(str, self.choices))
        if self.low is None and self.high is None:
            return f"any {self.type_name}"
        low, high = (_shown(bound) for bound in (self.low, self.high))
        if self.high is None:
            text = f"greater than {low}" if self.strict else f"at least {low}"
        elif self.low is None:
            text = f"less than {high}" if self.strict else f"at most {high}"
        else:
            text = f"strictly between {low} and {high}" if self.strict else f"from {low} to {high}"
        return f"ROWSxCOLUMNS, each side {text}" if self.value_type is Size else text

    def accept(self, given: object, label: str) -> OptionValue:
        """``given`` (text, or already typed) as this option's value; anything else raises
        an ``OptionError`` that starts with ``label`` and says what is allowed."""
        if self.choices:
            by_text = {str(choice): choice for choice in self.choices}
            value = by_text.get(given, given) if isinstance(given, str) else given
            if value not in self.choices or isinstance(value, bool):
                raise OptionError(f"{label} must be one of {self.allowed()}, not {given!r}")
            return value  # type: ignore[return-value]  # one of the declared choices
        value = self._typed(given)
        if value is None or not self._in_range(value):
            raise OptionError(f"{label} must be {self._described()}, not {_quoted(given)}")
        return value

    def _typed(self, given: object) -> OptionValue | None:
        """``given`` converted to the value type, or None when it is not one."""
        if isinstance(given, bool):
            return None
        if self.value_type is Size:
            return _size(given)
        if self.value_type is int:
            if isinstance(given, int):
                return given
            return int(given) if isinstance(given, str) and is_integer(given.strip()) else None
        if self.value_type is float:
            if isinstance(given, int | float):
                number = float(given)
            else:
                try:
                    number = float(given) if isinstance(given, str) else math.nan
                except ValueError:
                    return None
            return number if math.isfinite(number) else None
        return given if isinstance(given, str) else None

    def _in_range(self, value: OptionValue) -> bool:
        numbers = list(value) if isinstance(value, Size) else [value]
        for number in numbers:
            if not isinstance(number, int | float):
                continue
            if self.low is not None and (number <= self.low if self.strict else number < self.low):
                return False
            if self.high is not None and (number >= self.high if self.strict
                                          else number > self.high):
                return False
        return True

    def _described(self) -> str:
        """What a value must be: ``an integer from 2 to 5``, ``ROWSxCOLUMNS, each side ...``."""
        if self.value_type is Size:
            return self.allowed() + " (such as 20x20)"
        article = "an" if self.type_name[0] in "aeiou" else "a"
        if self.low is None and self.high is None:
            return f"{article} {self.type_name}"
        return f"{article} {self.type_name} {self.allowed()}"

    def describe(self) -> str:
        """``TYPE, allowed values (default X): doc``: one line for help texts and listings."""
        default = "" if self.default is None else f" (default {_shown(self.default)})"
        return f"{self.type_name}, {self.allowed()}{default}: {self.help}"


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _quoted(given: object) -> str:
    return repr(given) if isinstance(given, str) else _shown(given)


def _size(given: object) -> Size | None:
    if isinstance(given, Size):
        return given
    if not isinstance(given, str):
        return None
    rows, x, columns = given.strip().lower().partition("x")
    if not (x and is_integer(rows) and is_integer(columns)):
        return None
    return Size(int(rows), int(columns))


class OptionValues(Mapping[str, OptionValue]):
    """Resolved option values, with typed getters so that code using them type-checks."""

    def __init__(self, values: Mapping[str, OptionValue]) -> None:
        self._values = dict(values)

    def __getitem__(self, name: str) -> OptionValue:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"OptionValues({self._values!r})"

    def integer(self, name: str) -> int:
        """The value of ``name``, which must be an ``int``."""
        return _of_type(self._values[name], int, name)

    def number(self, name: str) -> float:
        """The value of ``name`` as a ``float`` (an ``int`` is widened)."""
        value = self._values[name]
        return float(_of_type(value, int, name) if isinstance(value, int) else
                     _of_type(value, float, name))

    def text(self, name: str) -> str:
        """The value of ``name``, which must be a ``str``."""
        return _of_type(self._values[name], str, name)

    def size(self, name: str) -> Size:
        """The value of ``name``, which must be a :class:`Size`."""
        return _of_type(self._values[name], Size, name)

    def replaced(self, **changes: OptionValue) -> OptionValues:
        """A copy with some values changed (an owner filling in a derived default)."""
        return OptionValues({**self._values, **changes})


def _of_type(value: object, wanted: type[T], name: str) -> T:
    if not isinstance(value, wanted) or isinstance(value, bool):
        raise TypeError(f"option {name} holds {value!r}, not of type {wanted.__name__}")
    return value


def resolve(declared: Mapping[str, Option], given: Mapping[str, object], owner: str,
            label: Callable[[str], str] = "--{}".format) -> dict[str, OptionValue | None]:
    """Every declared option's value: the given ones checked, the others their defaults.

    ``owner`` names whose options they are in the error for an unknown name (``"the
    sudoku generator"``); ``label(name)`` starts the error for a bad value (``--box``).
    """
    for name in given:
        if name not in declared:
            raise OptionError(f"{owner} has no option {name!r} (options: "
                              f"{', '.join(declared) or 'none'})")
    return {name: option.accept(given[name], label(name)) if name in given else option.default
            for name, option in declared.items()}


def name_part(declared: Mapping[str, Option], values: Mapping[str, OptionValue]) -> str:
    """The options as they appear in a generated file's name: ``6x5-d0.5``."""
    return "-".join(f"{option.tag}{_shown(values[name])}" for name, option in declared.items())
