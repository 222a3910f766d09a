"""Damaged copies of good puzzle files, made the ways files really get damaged.

A *seed* is a good file with the companions it is read with (a Sudoku's
``X.solutions.txt``, a nonogram ``.dzn``'s ``.out``); a *mutant* is the seed with one
of its files damaged once: cut short, a character changed, a line duplicated, dropped
or swapped, a number made huge or negative (10,000 digits included), emptied, binary
bytes let in, Windows line ends, a 10,000-character line. Each mutant is drawn from a
``random.Random`` seeded by its number, so a failing one is made again by that number.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

Files = dict[str, bytes]
"""A seed's or a mutant's files by name: the first is the one read, the others its companions."""

_NUMBER = re.compile(rb"(?<![0-9])-?[0-9]+(?![0-9])")
_LONG = 10_000
_SMALL_FILE = 6_000  # bytes: a larger file is cut to its first instances


@dataclass(frozen=True)
class Seed:
    """A good file for ``puzzle``, with its companions, all by name."""

    puzzle: str
    files: Files

    @property
    def label(self) -> str:
        return f"{self.puzzle}:{next(iter(self.files))}"


@dataclass(frozen=True)
class Mutant:
    """``seed`` with ``damaged`` changed by ``how`` (the name of a damage below)."""

    number: int
    seed: Seed
    damaged: str
    how: str
    files: Files

    def write(self, folder: Path) -> Path:
        """Write every file into ``folder``; the path of the one to read."""
        for name, data in self.files.items():
            (folder / name).write_bytes(data)
        return folder / next(iter(self.files))

    def __str__(self) -> str:
        return f"mutant {self.number}: {self.how} in {self.damaged} of {self.seed.label}"


def excerpt(data: bytes) -> bytes:
    """A large file cut to what one quick read needs: its first two ``==`` blocks, or its
    first three lines (a file of one puzzle a line)."""
    if len(data) <= _SMALL_FILE:
        return data
    lines = data.split(b"\n")
    headers = [i for i, line in enumerate(lines) if line.startswith(b"==")]
    if len(headers) >= 3:
        return b"\n".join(lines[:headers[2]]) + b"\n"
    return b"\n".join(lines[:3]) + b"\n"


# ---------------------------------------------------------------- the damages


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def truncated(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def character_changed(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return b"1"
    position = rng.randrange(len(data))
    replacement = rng.choice([b"0", b"1", b"9", b"-", b"=", b".", b"|", b" ", b"\t", b"x",
                              b"#", b"%", b";", b",", b"[", b"\n", b"\xc2\xb2", b"\xd9\xa3"])
    return data[:position] + replacement + data[position + 1:]


def line_duplicated(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    at = rng.randrange(len(lines))
    return b"\n".join(lines[:at + 1] + lines[at:])


def line_dropped(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def lines_swapped(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    first, second = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[first], lines[second] = lines[second], lines[first]
    return b"\n".join(lines)


def _number_replaced(data: bytes, rng: random.Random, make: Callable[[bytes], bytes]) -> bytes:
    numbers = list(_NUMBER.finditer(data))
    if not numbers:
        return data + b"\n" + make(b"7") + b"\n"
    chosen = rng.choice(numbers)
    return data[:chosen.start()] + make(chosen.group()) + data[chosen.end():]


def number_huge(data: bytes, rng: random.Random) -> bytes:
    size = rng.choice([10, 18, 19, 40, 4_301, _LONG])
    return _number_replaced(data, rng, lambda _: b"9" * size)


def number_billion(data: bytes, rng: random.Random) -> bytes:
    return _number_replaced(data, rng, lambda _: rng.choice([b"1000000000", b"65536",
                                                             b"2147483648"]))


def number_negative(data: bytes, rng: random.Random) -> bytes:
    return _number_replaced(data, rng, lambda found: b"-" + found.lstrip(b"-")
                            if rng.random() < 0.5 else b"-1")


def emptied(data: bytes, rng: random.Random) -> bytes:
    return rng.choice([b"", b"\n", b"   \n\n", b"# nothing\n"])


def binary_bytes(data: bytes, rng: random.Random) -> bytes:
    position = rng.randrange(len(data) + 1)
    noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    return data[:position] + rng.choice([noise, b"\x00", b"\xff\xfe", b"\x0c", b"\x1c"]) \
        + data[position:]


def windows_line_ends(data: bytes, rng: random.Random) -> bytes:
    return data.replace(b"\n", rng.choice([b"\r\n", b"\r"]))


def long_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    at = rng.randrange(len(lines) + 1)
    line = rng.choice([b"1" * _LONG, b"x" * _LONG, b"1 " * (_LONG // 2), b"1," * (_LONG // 2),
                       b"-" * _LONG, b". " * (_LONG // 2)])
    if rng.random() < 0.5 and at < len(lines):
        lines[at] = lines[at] + line  # an existing line runs on
    else:
        lines.insert(at, line)
    return b"\n".join(lines)


DAMAGES: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncated": truncated, "character changed": character_changed,
    "line duplicated": line_duplicated, "line dropped": line_dropped,
    "lines swapped": lines_swapped, "huge number": number_huge,
    "number of a billion": number_billion, "negative number": number_negative,
    "emptied": emptied, "binary bytes": binary_bytes,
    "Windows line ends": windows_line_ends, "10,000-character line": long_line,
}
"""Every damage, by the name a failing test reports."""


def mutant(seed: Seed, number: int) -> Mutant:
    """Mutant ``number`` of ``seed``: one damage to one of its files, drawn from ``number``."""
    rng = random.Random(number)
    how = rng.choice(sorted(DAMAGES))
    names = list(seed.files)
    damaged = names[0] if len(names) == 1 or rng.random() < 0.8 else rng.choice(names[1:])
    files = dict(seed.files)
    files[damaged] = DAMAGES[how](files[damaged], rng)
    return Mutant(number, seed, damaged, how, files)


def mutants(seeds: list[Seed], count: int, first: int = 0) -> Iterator[Mutant]:
    """Mutants ``first`` to ``first + count - 1``, going round the puzzles and, within
    each, round its seeds: every puzzle gets its share however many files it ships."""
    by_puzzle: dict[str, list[Seed]] = {}
    for seed in seeds:
        by_puzzle.setdefault(seed.puzzle, []).append(seed)
    groups = list(by_puzzle.values())
    for number in range(first, first + count):
        group = groups[number % len(groups)]
        yield mutant(group[number // len(groups) % len(group)], number)
