"""The puzzle contract: the roles every puzzle fills, under the same names, typed by puzzle.

A puzzle is one module of this package that subclasses :class:`PuzzleKind` with
its instance and solution types and registers one object of it::

    class Sudoku(PuzzleKind[SudokuInstance, SudokuSolution]):
        name = "sudoku"
        suffixes = (".txt",)

    SUDOKU = register(Sudoku())

Each role in :data:`ROLES` is filled by the module's function of the same name
(``parse``, ``read``, ``write``, ``check``, ...), unless the class states it; a role
that neither fills is an error when the class is made, naming it. An instance is
picked by its ``name`` and carries its file's ``known_solution``; a puzzle whose
instances keep them elsewhere overrides :meth:`PuzzleKind.instance_name`,
:meth:`PuzzleKind.known_solution` and :meth:`PuzzleKind.renamed`. A results store keeps
an instance as :meth:`PuzzleKind.stored_text` writes it, which reads back named. The
command line, the experiment runner and the tests reach every puzzle through ``PUZZLES``
and these roles alone, so none of them names a particular puzzle.
"""

from __future__ import annotations

import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from puzzlelab.errors import (
    PuzzleLabError,
    UnsupportedCombination,
)
from puzzlelab.registry import Registry
from puzzles.options import Option, OptionValues, resolve
from puzzles.picking import pick_instance
from puzzles.svg import Box, cell_box

InstanceT = TypeVar("InstanceT")
SolutionT = TypeVar("SolutionT")
T = TypeVar("T")
KindT = TypeVar("KindT", bound="PuzzleKind[Any, Any]")

ROLES = ("parse", "read", "write", "check", "render_text", "render_svg", "solution_to_json",
         "solution_from_json")
"""The contract's roles that a puzzle module fills with functions of the same name."""


def _role(method: T) -> T:
    """Mark ``method`` as a role's stand-in, replaced by the puzzle module's function."""
    method.is_role_default = True  # type: ignore[attr-defined]
    return method


JsonValue: TypeAlias = (
    "bool | int | float | str | Sequence[JsonValue] | Mapping[str, JsonValue] | None")
"""What ``json.dumps`` takes: a solution's JSON form (``puzzlelab solve --json``)."""

GAME_ID_FORMAT = "tatham"
"""The name ``export --format`` and ``generate --format`` give a game ID of Simon Tatham's
Portable Puzzle Collection (:meth:`PuzzleKind.game_id`): the puzzle itself, not a model."""

DATA_ROOT = Path(__file__).resolve().parent / "data"
"""``puzzles/data``: one folder per puzzle, ``puzzles/data/<name>/``, with a ``SOURCES.md``."""


@dataclass(frozen=True)
class DataSet:
    """A set of bundled instance files: a folder of them, or one file holding several."""

    name: str  # the folder, or the file without its suffix, relative to the puzzle's data
    files: tuple[Path, ...]


class PuzzleKind(ABC, Generic[InstanceT, SolutionT]):
    """What a puzzle offers the upper layers: files, checker, pictures, a generator.

    Class attributes a puzzle sets:
        name: registry key in kebab-case (``"sudoku"``), as typed on the command line.
        suffixes: file suffixes ``read`` takes (``".non"``, ``".dzn"``); the first is the
            format ``write`` produces, and the suffix of generated files.
        generator_options: the options of ``generate``, by name (``--NAME VALUE``).

    Instances and solutions should be frozen dataclasses: runs compare them, the
    runner pickles them into worker processes.
    """

    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]
    generator_options: ClassVar[Mapping[str, Option]] = {}
    game_id_options: ClassVar[Mapping[str, object]] = {}
    """Generator options without which a generated instance may have no game ID
    (:meth:`game_id`): ``generate --format tatham`` asks for them."""
    instance_type: ClassVar[type] = object
    """The class of the puzzle's instances (read off ``PuzzleKind[Instance, Solution]``):
    how :func:`puzzle_of` tells an instance's puzzle."""
    solution_type: ClassVar[type] = object
    """The class of its solutions, read off the same way (:func:`puzzle_of_solution`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Fill each role the class leaves open with its module's function of that name,
        and note the instance and solution types the class is made for."""
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            arguments: tuple[Any, ...] = getattr(base, "__args__", ())
            if getattr(base, "__origin__", None) is PuzzleKind:
                for name, argument in zip(("instance_type", "solution_type"), arguments):
                    if isinstance(argument, type):
                        setattr(cls, name, argument)
        module = sys.modules.get(cls.__module__)
        missing = []
        for role in ROLES:
            if getattr(getattr(cls, role), "is_role_default", False):
                function = getattr(module, role, None)
                if callable(function):
                    setattr(cls, role, staticmethod(function))
                else:
                    missing.append(role)
        if missing:
            raise TypeError(f"puzzle {cls.__name__} fills no role {', '.join(missing)}: "
                            f"define a function of that name in {cls.__module__}, or state "
                            f"it in the class")

    # ------------------------------------------------------------ files

    @_role
    def parse(self, text: str, source: str = "<string>") -> list[InstanceT]:
        """Every instance in ``text``, in order; ``source`` names it in errors (and may name
        the instances). Bad input raises ``ParseError`` with file, line and column."""
        raise NotImplementedError

    @_role
    def read(self, path: Path) -> list[InstanceT]:
        """Every instance of a file, in file order, with the known solutions the file (or
        a companion file beside it) gives; raises ``ParseError``."""
        raise NotImplementedError

    @_role
    def write(self, instance: InstanceT, solution: SolutionT | None = None) -> str:
        """The instance in the puzzle's main format (``suffixes[0]``), with ``solution``
        when given; ``parse`` of the text gives the instance back."""
        raise NotImplementedError

    def game_id(self, instance: InstanceT) -> str:
        """The instance as a game ID of Simon Tatham's Portable Puzzle Collection, the one
        line its program for this puzzle plays (``parse`` reads it back, without name or
        solution); what the ID cannot hold raises ``UnsupportedCombination`` saying what.
        By default: the collection has no such puzzle."""
        raise UnsupportedCombination(f"Simon Tatham's Portable Puzzle Collection has no "
                                     f"{self.name} puzzle, so a {self.name} has no game ID")

    # ------------------------------------------------------------ judging and showing

    @_role
    def check(self, instance: InstanceT, solution: SolutionT) -> list[str]:
        """The independent checker: every rule ``solution`` breaks, in words; [] when solved.
        It shares no code with any viewpoint, so it can judge them all."""
        raise NotImplementedError

    @_role
    def render_text(self, instance: InstanceT, solution: SolutionT | None = None) -> str:
        """A plain-text picture for a terminal: the puzzle, or a (partial) solution."""
        raise NotImplementedError

    @_role
    def render_svg(self, instance: InstanceT, solution: SolutionT | None = None) -> str:
        """A standalone SVG picture for reports."""
        raise NotImplementedError

    def cell_box(self, instance: InstanceT, row: int, column: int) -> Box:
        """Where grid cell (``row``, ``column``), 0-based, is in :meth:`render_svg`'s
        picture: (x, y, width, height) in its pixels, for a page that marks cells on it.
        By default the plain grid of :mod:`puzzles.svg` (:func:`puzzles.svg.cell_box`); a
        picture with room around its grid (a nonogram's clues) says where its cells are."""
        return cell_box(row, column)

    def drawing_instance(self, solution: SolutionT) -> InstanceT | None:
        """The instance a solution is drawn on when shown by itself (a notebook shows it):
        a grid of its size holding what the solution tells of the clues. None (the
        default) where the solution alone does not tell enough to draw it."""
        return None

    def instance_name(self, instance: InstanceT) -> str:
        """The name an instance is picked by (unique within its file): its ``name``."""
        return str(getattr(instance, "name"))  # noqa: B009 (instances are not typed here)

    def known_solution(self, instance: InstanceT) -> SolutionT | None:
        """The solution the file ships with the instance, if any: its ``known_solution``."""
        known: SolutionT | None = getattr(instance, "known_solution")  # noqa: B009
        return known

    def renamed(self, instance: InstanceT, name: str) -> InstanceT:
        """``instance`` under ``name``: its ``name`` replaced (instances are dataclasses)."""
        return replace(instance, name=name)  # type: ignore[type-var]

    def instance_title(self, instance: InstanceT) -> str | None:
        """The title the file gives the instance, where its format has one (a puzzle
        whose names come from its files' names labels table rows by it)."""
        return None

    @_role
    def solution_to_json(self, solution: SolutionT) -> JsonValue:
        """A JSON-ready form of a solution, as ``puzzlelab solve --json`` prints it and the
        results store keeps it."""
        raise NotImplementedError

    @_role
    def solution_from_json(self, data: Any) -> SolutionT:
        """The solution :meth:`solution_to_json` gave ``data`` for; anything else raises
        ``ParseError`` saying what is wrong with it."""
        raise NotImplementedError

    # ------------------------------------------------------------ results stores

    def stored_text(self, instance: InstanceT) -> str:
        """The instance as a results store keeps it, with its known solution: text that
        :meth:`stored_instance` reads back as the same instance under the same name, so a
        report draws it with its file gone. By default the main format (``write``); a
        puzzle whose main format names its instance after its file stores one that
        carries the name."""
        return self.write(instance, self.known_solution(instance))

    def stored_instance(self, text: str, name: str, instance_file: str) -> InstanceT | None:
        """The instance a store keeps as ``text`` under ``name`` (read from
        ``instance_file``, which errors name with the main format's suffix): the one of
        that name, else the only one the text holds, given that name (a format that
        names its instance after its file, as stores made before :meth:`stored_text`
        kept some); None when the text holds several, none of that name."""
        source = str(PurePath(instance_file).with_suffix(self.suffixes[0]))
        instances = self.parse(text, source)
        for instance in instances:
            if self.instance_name(instance) == name:
                return instance
        return self.renamed(instances[0], name) if len(instances) == 1 else None

    # ------------------------------------------------------------ generating

    @abstractmethod
    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[InstanceT], bool] | None = None, *,
                 another_solution: Callable[[InstanceT], SolutionT | None] | None = None,
                 enough: Callable[[InstanceT], bool] | None = None,
                 reached: Callable[[InstanceT], None] | None = None
                 ) -> InstanceT | None:
        """A random instance named ``name``, made from a random solution (its known solution).

        ``options`` are ``resolve_generator_options``'s values. This layer has no solver:
        ``is_unique``, when given, is the caller's test that an instance has exactly one
        solution, and ``another_solution`` (given with it) finds a solution other than the
        instance's known one (None when it finds none). A generator may use them to steer
        (Sudoku removes clues one at a time while the test holds; Shikaku repairs the rooms
        where another solution differs) and returns None when this draw gave no unique
        instance; the caller tests the returned instance either way and draws again until
        one passes. ``enough``, given with ``is_unique``, is the caller's test of an
        instance it would keep (one of a grade): a generator that thins may stop at the
        first that passes instead of at a fixed size (Sudoku's clue count is then a
        ceiling); the others may leave it unused. A generator that works down to a size
        (:meth:`generated_sizes`) tells ``reached`` of each unique instance on its way, so
        a generation its time limit cuts short can say how far it came.
        """

    def resolve_generator_options(self, given: Mapping[str, object]) -> OptionValues:
        """Every generator option's value (given ones checked against their declaration,
        the others their defaults), or an ``OptionError`` saying what is allowed."""
        values = resolve(self.generator_options, given, f"the {self.name} generator")
        settled = self.derived_options(OptionValues(
            {name: value for name, value in values.items() if value is not None}))
        unset = [name for name in self.generator_options if name not in settled]
        if unset:
            raise TypeError(f"{self.name}: options {unset} have no default and "
                            f"derived_options fills in none")
        return settled

    def derived_options(self, values: OptionValues) -> OptionValues:
        """Hook: the options declared with default None filled in from the others, and
        rules joining several options checked (``OptionError``). By default: ``values``."""
        return values

    def generated_sizes(self, instance: InstanceT) -> Mapping[str, int]:
        """Hook: what a generated instance has of each generator option that sets a size
        the generator works down to and may stop short of (Sudoku: its givens, for
        ``clues``), so a generation cut short can say how far it came. By default none."""
        return {}

    # ------------------------------------------------------------ bundled data

    def data_folder(self) -> Path:
        """``puzzles/data/<name>/``: the puzzle's bundled instances and their ``SOURCES.md``."""
        return DATA_ROOT / self.name

    def is_instance_file(self, path: Path) -> bool:
        """True for a file ``read`` takes (by suffix); a puzzle whose companion files share
        the suffix (Sudoku's ``X.solutions.txt``) says no to those."""
        return path.is_file() and path.suffix.lower() in self.suffixes

    def data_sets(self) -> list[DataSet]:
        """The bundled sets: each sub-folder of instance files, and each instance file
        directly in the data folder, by name."""
        folder = self.data_folder()
        sets = []
        for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
            if entry.is_dir():
                files = tuple(p for p in sorted(entry.rglob("*")) if self.is_instance_file(p))
                if files:
                    sets.append(DataSet(entry.name, files))
            elif self.is_instance_file(entry):
                sets.append(DataSet(entry.stem, (entry,)))
        return sets

    # ------------------------------------------------------------ shared behaviour

    def load(self, path: str | Path, selector: str | int | None = None) -> InstanceT:
        """One instance of ``path``: by name, by 1-based index, or the only one."""
        path = Path(path)
        return pick_instance(self.read(path), selector, path, self.instance_name)


PUZZLES: Registry[PuzzleKind[Any, Any]] = Registry("puzzle")
"""Every puzzle, by name; a puzzle module adds itself with :func:`register`."""


def puzzle_of(instance: object) -> PuzzleKind[Any, Any]:
    """The puzzle whose instance ``instance`` is (its class is the puzzle's instance type).

    >>> from puzzles import PUZZLES
    >>> puzzle_of(PUZZLES.get("sudoku").parse("1...........4...")[0]).name
    'sudoku'
    """
    kind = _kind_of(instance, "instance_type")
    if kind is not None:
        return kind
    types = ", ".join(PUZZLES.get(name).instance_type.__name__ for name in PUZZLES)
    raise PuzzleLabError(f"no puzzle has instances of type {type(instance).__name__} (the "
                         f"puzzles' instance types: {types}); read an instance with "
                         f"PUZZLES.get(NAME).load(FILE)")


def puzzle_of_solution(solution: object) -> PuzzleKind[Any, Any] | None:
    """The puzzle whose solution ``solution`` is (None: no puzzle's)."""
    return _kind_of(solution, "solution_type")


def _kind_of(value: object, role: str) -> PuzzleKind[Any, Any] | None:
    """The puzzle whose ``role`` (``instance_type``, ``solution_type``) ``value`` is."""
    # its class's module is imported, so its puzzle is registered, unless the module is
    # not the puzzle's own: then every puzzle is looked at
    for kinds in (PUZZLES.imported, lambda: [PUZZLES.get(name) for name in PUZZLES]):
        for kind in kinds():
            made_for = getattr(kind, role)
            if made_for is not object and isinstance(value, made_for):
                return kind
    return None


def register(kind: KindT) -> KindT:
    """Add ``kind`` to ``PUZZLES`` under its name (a taken name raises ``DuplicateName``)."""
    PUZZLES.add(kind.name, kind)
    return kind
