"""Hashiwokakero ("bridges") on the puzzle contract: files read and written, solutions as JSON.

Rules: a bridge runs straight along a row or a column between two islands that see each
other (nothing but empty cells between them); a pair has at most two bridges; bridges
do not cross; each island has as many bridges as its number; all islands are connected.
Islands side by side see each other (KU Leuven's puzzle 1 has a 2x2 block of them).

The puzzle's other jobs are modules of their own, whose functions this module hands the
contract: the types (:mod:`puzzles.hashi_types`), which islands see each other
(:mod:`puzzles.hashi_sight`), the checker (:mod:`puzzles.hashi_checker`), the pictures
(:mod:`puzzles.hashi_pictures`), the generator (:mod:`puzzles.hashi_generator`), the
files' syntax (:mod:`puzzles.hashi_formats`) and Bridges' game IDs
(:mod:`puzzles.hashi_game_ids`).

>>> puzzle = parse("== pair\\n1 3\\n2 - 2\\n")[0]
>>> check(puzzle, solution_from_json([[1, 1, 1, 3, 2]]))
[]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from puzzlelab.errors import OptionError, ParseError
from puzzles.hashi_checker import check
from puzzles.hashi_formats import ReadBlock, read_blocks, write_has
from puzzles.hashi_game_ids import bridges_game_id
from puzzles.hashi_generator import generate
from puzzles.hashi_pictures import (  # noqa: F401 (the render roles)
    bridges_drawn_alone,
    render_svg,
    render_text,
)
from puzzles.hashi_sight import neighbours
from puzzles.hashi_types import Bridge, HashiInstance, HashiSolution, Island, cell_name
from puzzles.json_forms import number_rows
from puzzles.kind import PuzzleKind, register
from puzzles.options import Option, OptionValues, Size
from puzzles.picking import known_solution_checked
from puzzles.text_input import read_text

# ---------------------------------------------------------------- files


def _instance(block: ReadBlock, source: str) -> HashiInstance:
    """The instance of a block read from ``source``: every island must see another, and a
    known solution must solve it."""
    islands = tuple(Island(r, c, int(token.text)) for (r, c), token in block.islands.items())
    if not islands:
        raise ParseError(f"{block.name!r} has no islands", source=source, line=block.size_line)
    instance = HashiInstance(block.name, block.rows, block.columns, islands, None, source)
    seeing = {island.cell for pair in neighbours(instance) for island in pair}
    for island in islands:
        if island.cell not in seeing:
            token = block.islands[island.cell]
            raise ParseError(f"the island at {cell_name(island.cell)} sees no other island "
                             f"(no empty row or column leads to one), so no bridge can reach "
                             f"it",
                             source=source, line=token.line, column=token.column)
    if block.bridges is None:
        return instance
    known = HashiSolution(tuple(Bridge.between(first, second, count)
                                for first, second, count in block.bridges))
    return replace(instance, known_solution=known_solution_checked(
        instance, known, check, block.name, source, block.solution_line))


def parse(text: str, source: str = "<string>") -> list[HashiInstance]:
    """Every instance in ``text``, in order; bad input raises ``ParseError`` (file:line:col).
    A ``.has`` text holds one instance, named after the file."""
    return [_instance(block, source) for block in read_blocks(text, source)]


def read(path: Path) -> list[HashiInstance]:
    """Every instance of the file, with the known solutions it gives."""
    return parse(read_text(Path(path)), str(path))


def write(instance: HashiInstance, solution: HashiSolution | None = None) -> str:
    """The instance as ``.has`` text (its name is the file's), with ``solution`` when given."""
    values = {island.cell: island.value for island in instance.islands}
    bridges = None if solution is None else [(bridge.first, bridge.second, bridge.count)
                                             for bridge in solution.bridges]
    return write_has(instance.rows, instance.columns, values, bridges)


# ---------------------------------------------------------------- solutions as JSON


def solution_to_json(solution: HashiSolution) -> list[list[int]]:
    """Bridges as ``[r1, c1, r2, c2, k]``, 1-based cells, sorted, as ``puzzlelab solve
    --json`` prints them."""
    return sorted([bridge.first[0] + 1, bridge.first[1] + 1, bridge.second[0] + 1,
                   bridge.second[1] + 1, bridge.count] for bridge in solution.bridges)


def solution_from_json(data: object) -> HashiSolution:
    """The solution :func:`solution_to_json` printed as ``data`` (no bridge at all is an
    empty list).

    >>> solution_from_json([[1, 1, 1, 3, 2]]).bridges
    (Bridge(first=(0, 0), second=(0, 2), count=2),)
    """
    if data == []:
        return HashiSolution(())
    bridges = number_rows(data, "a Hashi solution")
    if len(bridges[0]) != 5:
        raise ParseError("a Hashi solution: each bridge is [r1, c1, r2, c2, count]",
                         source="<json>")
    return HashiSolution(tuple(Bridge.between((r1 - 1, c1 - 1), (r2 - 1, c2 - 1), count)
                               for r1, c1, r2, c2, count in bridges))


# ---------------------------------------------------------------- the contract


class Hashi(PuzzleKind[HashiInstance, HashiSolution]):
    """Hashiwokakero on the puzzle contract: the functions of this module, under the
    contract's names."""

    name = "hashi"
    suffixes = (".has", ".txt")
    generator_options: ClassVar[Mapping[str, Option]] = {
        "size": Option(Size(7, 7), help="rows x columns of the grid", low=1, high=200,
                       tag=""),
        "islands": Option(None, help="number of islands; by default a quarter of the cells "
                          "(at least 2)", value_type=int, low=2, high=40_000, tag="i"),
        "apart": Option("no", ("no", "yes"), help="yes: no two islands side by side, as "
                        "Simon Tatham's Bridges draws them; its game IDs (--format tatham) "
                        "need that", tag="apart-"),
    }

    game_id_options: ClassVar[Mapping[str, object]] = {"apart": "yes"}

    def derived_options(self, values: OptionValues) -> OptionValues:
        size = values.size("size")
        cells = size.rows * size.columns
        if "islands" not in values:
            values = values.replaced(islands=max(2, cells // 4))
        if values.integer("islands") > cells:
            raise OptionError(f"--islands must be at most {cells} for size {size} (its "
                              f"cells), not {values['islands']}")
        return values

    def drawing_instance(self, solution: HashiSolution) -> HashiInstance | None:
        return bridges_drawn_alone(solution)

    def game_id(self, instance: HashiInstance) -> str:
        """Bridges' game ID (``WxHm2:...``): grids of 3x3 or more, no islands side by side."""
        return bridges_game_id(instance.rows, instance.columns,
                               {island.cell: island.value for island in instance.islands})

    def stored_text(self, instance: HashiInstance) -> str:
        """A ``== name`` block: a ``.has`` text names its instance after its file."""
        return f"== {instance.name}\n{write(instance, instance.known_solution)}"

    def generate(self, options: OptionValues, rng: random.Random, name: str,
                 is_unique: Callable[[HashiInstance], bool] | None = None, *,
                 another_solution: Callable[[HashiInstance], HashiSolution | None]
                 | None = None,
                 enough: Callable[[HashiInstance], bool] | None = None,
                 reached: Callable[[HashiInstance], None] | None = None
                 ) -> HashiInstance | None:
        return generate(options.size("size"), options.integer("islands"), rng, name,
                        is_unique, another_solution, apart=options.text("apart") == "yes")


HASHI = register(Hashi())


def load(path: str | Path, selector: str | int | None = None) -> HashiInstance:
    """One instance of a file, by name or 1-based index (or the only one)."""
    return HASHI.load(path, selector)
