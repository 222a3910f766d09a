"""Name registries filled by decorators: duplicates are errors, unknown names list valid ones."""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Generic, TypeVar

from puzzlelab.errors import DuplicateName, UnknownName

T = TypeVar("T")


def _modules_of(folder: Path) -> list[tuple[str, str]]:
    """The public modules in ``folder``, by name, with their source files: ``x.py`` and
    the packages ``x/__init__.py`` (read with ``os``: a ``Path.glob`` compiles a pattern,
    which costs more at start-up than reading the files)."""
    found = []
    for entry in os.scandir(folder):
        if entry.name.startswith("_"):
            continue
        if entry.name.endswith(".py") and entry.is_file():
            found.append((entry.name[:-3], entry.path))
        elif entry.is_dir() and os.path.isfile(init := os.path.join(entry.path, "__init__.py")):
            found.append((entry.name, init))
    return sorted(found)


class Registry(Generic[T]):
    """A mapping from kebab-case names to registered objects of one kind.

    >>> colours = Registry[str]("colour")
    >>> colours.add("sky-blue", "#87ceeb")
    >>> colours.get("sky-blue")
    '#87ceeb'
    >>> colours.get("red")
    Traceback (most recent call last):
    ...
    puzzlelab.errors.UnknownName: unknown colour 'red'; valid: sky-blue
    """

    def __init__(self, kind: str, order: Callable[[T], str] | None = None) -> None:
        """``order`` keys the listing, so that it does not depend on which module happened
        to be imported first (e.g. a backend's module path, for the package's order; an
        entry not imported yet is keyed by the module that registers it)."""
        self.kind = kind
        self._order = order
        self._entries: dict[str, T] = {}
        self._expected: dict[str, str] = {}
        self.version = 0
        """Bumped by every registration and removal: what is made from the entries may be
        cached under it (the statistics' columns, read on every run)."""

    def expect(self, name: str, module: str) -> None:
        """Name an entry that importing ``module`` registers, without importing it: it is
        listed now, and imported when first asked for (a solve then pays only for the
        libraries of what it uses)."""
        self._expected.setdefault(name, module)

    def expect_from_sources(self, package: str, folder: Path, pattern: str,
                            key: Callable[[tuple[str, ...]], str] = "/".join) -> None:
        """Expect every entry that a module of ``package`` (files in ``folder``, and
        sub-packages) registers, by reading its source: ``pattern``'s groups, joined by
        ``key``, name each entry. Which module registers what stays written in one place,
        the module itself; :meth:`load` checks the reading against the registering."""
        compiled = re.compile(pattern)
        for module, path in _modules_of(folder):
            with open(path, encoding="utf-8") as source:
                for found in compiled.finditer(source.read()):
                    self.expect(key(found.groups()), f"{package}.{module}")

    def _import(self, module: str) -> None:
        """Import ``module``, which must register every entry expected of it."""
        importlib.import_module(module)
        missing = [n for n, m in self._expected.items() if m == module and n not in self._entries]
        if missing:
            raise LookupError(f"{module} was expected to register {self.kind} "
                              f"{', '.join(map(repr, missing))}, by its source, but did not")

    def add(self, name: str, entry: T) -> None:
        """Register ``entry`` under ``name``; a taken name raises ``DuplicateName``."""
        if name in self._entries:
            raise DuplicateName(f"{self.kind} {name!r} is registered twice")
        self._entries[name] = entry
        self.version += 1

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator form of :meth:`add`."""

        def decorate(entry: T) -> T:
            self.add(name, entry)
            return entry

        return decorate

    @contextmanager
    def registered(self, name: str, entry: T) -> Iterator[T]:
        """Register ``entry`` for the block only (tests, and trying a plugin out)."""
        self.add(name, entry)
        try:
            yield entry
        finally:
            del self._entries[name]
            self.version += 1

    def get(self, name: str) -> T:
        """The entry named ``name`` (importing its module if it is only expected so
        far); an unknown name raises ``UnknownName``."""
        if name not in self._entries and name in self._expected:
            self._import(self._expected[name])
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownName(self.kind, name, list(self)) from None

    def imported(self) -> list[T]:
        """The entries registered so far, without importing any module."""
        return list(self._entries.values())

    def load(self) -> None:
        """Import every module an expected entry comes from."""
        for module in dict.fromkeys(self._expected.values()):
            self._import(module)

    def names(self) -> list[str]:
        """Registered names, in the registry's ``order`` (else registration order)."""
        return list(self)

    def __contains__(self, name: object) -> bool:
        return name in self._entries or name in self._expected

    def __iter__(self) -> Iterator[str]:
        if not self._expected and self._order is None:  # statistics: read on every run
            return iter(list(self._entries))
        # expected entries in their modules' order, then those registered by other code
        names = [*self._expected, *(n for n in self._entries if n not in self._expected)]
        if self._order is None:
            return iter(names)
        order = self._order

        def key(name: str) -> tuple[str, str]:
            entry = self._entries.get(name)
            return (order(entry) if name in self._entries else self._expected[name],  # type: ignore[arg-type]
                    name)

        return iter(sorted(names, key=key))

    def __len__(self) -> int:
        return len(set(self._entries) | set(self._expected))
