"""The Shikaku propagation-level table (``puzzlelab study shikaku-levels``): ours beside
the published figures.

One row per instance: the placement figures K, Fix, Alt, Cov, then for each level Ini
to SAC (:mod:`viewpoints.shikaku_levels`) the undecided cells and the open placements,
and the chapter's figures where it gives them. The published figures are read from
:data:`experiments.studies.shikaku_levels.published.PUBLISHED`, their one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from experiments.analysis.table_format import ColumnGroup, ResultTable, render
from experiments.studies.shikaku_levels.published import (
    PLACEMENT_FIGURES,
    PUBLISHED,
    PlacementFigures,
    placement_figures,
)
from puzzlelab.errors import OptionError
from puzzles.shikaku import ShikakuInstance, read
from viewpoints.shikaku_levels import CHANNELS, LEVELS, LevelState, propagation_levels
from viewpoints.shikaku_rooms import rooms_of

NOT_PUBLISHED = "–"
NOTES = (
    "K rooms, Fix rooms with a single placement, Alt placements in all, Cov cells that a "
    "single placement covers. Levels, each adding to the one before: Ini set "
    "partitioning (patterns); Set + cell-room view and channeling (channeled, "
    "redundant=false gcc=false); Red + the redundant constraints (channel=both "
    "redundant=true); GCC + global_cardinality on the cells; Sub + subset reasoning on "
    "the exactly-one equations, to a fixpoint; SAC + probing at the root (singleton "
    "consistency with merging on the placements). Figures after the root propagation "
    "of Choco (Ini to Sub) and of OR-tools' classic CP solver (SAC, which probes).",
    "undecided cells: cells that more than one room can still cover (a placement over "
    "them not fixed to 0); open placements: placement variables not fixed; 0 in either "
    "means propagation alone solves the puzzle. published: Simonis, \"Working with "
    "Implications\" (– where it gives no figure); a K/Fix/Alt/Cov figure of ours that "
    "differs from it shows the published one in brackets.",
)


@dataclass(frozen=True)
class LevelRow:
    """One instance's figures."""

    instance: str
    placements: PlacementFigures
    levels: tuple[LevelState, ...]


def read_instances(path: Path, names: Sequence[str] = ()) -> list[ShikakuInstance]:
    """The instances of a Shikaku file, all or those ``names`` (in the order given);
    an unknown name lists the file's names."""
    instances = read(path)
    if not names:
        return instances
    by_name = {instance.name: instance for instance in instances}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise OptionError(f"{path}: no instance named {', '.join(map(repr, unknown))}; the "
                          f"file has {', '.join(by_name)}")
    return [by_name[name] for name in names]


def level_rows(instances: Sequence[ShikakuInstance], channel: str = "missing",
               on_instance: Callable[[str], None] | None = None) -> Iterator[LevelRow]:
    """Each instance's row, in turn; ``on_instance`` is told each name as it starts."""
    if channel not in CHANNELS:
        raise OptionError(f"unknown channel {channel!r}; valid: {', '.join(CHANNELS)}")
    for instance in instances:
        if on_instance is not None:
            on_instance(instance.name)
        yield LevelRow(instance.name, placement_figures(rooms_of(instance)),
                       tuple(propagation_levels(instance, channel)))


def _placement_cells(row: LevelRow) -> tuple[str, ...]:
    published = PUBLISHED.get(row.instance)
    ours = row.placements.row()
    theirs = published.placements.row() if published else ours
    return tuple(str(a) if a == b else f"{a} ({b})" for a, b in zip(ours, theirs))


def levels_table(rows: Sequence[LevelRow], channel: str = "missing") -> ResultTable:
    """The table, every cell a string."""
    groups = (ColumnGroup("placements", PLACEMENT_FIGURES),
              ColumnGroup("undecided cells", LEVELS),
              ColumnGroup("open placements", LEVELS),
              ColumnGroup("published", LEVELS))
    cells = []
    for row in rows:
        published = PUBLISHED.get(row.instance)
        theirs = (tuple(map(str, published.undecided)) if published
                  else (NOT_PUBLISHED,) * len(LEVELS))
        cells.append((row.instance, (
            *_placement_cells(row), *(str(state.undecided_cells) for state in row.levels),
            *(str(state.open_placements) for state in row.levels), *theirs)))
    return ResultTable(f"Shikaku propagation levels (channel={channel})", groups,
                       tuple(cells), len(cells), NOTES)


def format_levels(rows: Sequence[LevelRow], fmt: str = "text", channel: str = "missing",
                  width: int | None = None) -> str:
    """The table as ``text``, ``markdown``, ``latex`` or ``csv``."""
    return render([levels_table(rows, channel)], fmt, width)
