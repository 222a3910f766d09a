"""What the chapter publishes, and the placement figures it counts: the shikaku-levels
study's side of the table (the levels themselves are :mod:`viewpoints.shikaku_levels`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from viewpoints.shikaku_rooms import Room

PLACEMENT_FIGURES = ("K", "Fix", "Alt", "Cov")


@dataclass(frozen=True)
class PlacementFigures:
    """What the placements alone say: K, Fix, Alt and Cov of the chapter."""

    rooms: int
    single_placement_rooms: int
    placements: int
    cells_covered_once: int

    def row(self) -> tuple[int, int, int, int]:
        """K, Fix, Alt, Cov, in the chapter's column order."""
        return (self.rooms, self.single_placement_rooms, self.placements,
                self.cells_covered_once)


@dataclass(frozen=True)
class Published:
    """The chapter's figures for one of the Carlsson instances we ship."""

    label: str  # as the chapter names it
    placements: PlacementFigures
    undecided: tuple[int, ...]  # Ini .. SAC


def _published(label: str, k: int, fix: int, alt: int, cov: int, *levels: int) -> Published:
    return Published(label, PlacementFigures(k, fix, alt, cov), tuple(levels))


#: Simonis, "Working with Implications", the instances of Carlsson's SICStus example
#: (our names), columns K Fix Alt Cov Ini Set Red GCC Sub SAC, copied from its table
PUBLISHED: Mapping[str, Published] = {
    "nikoliweb0": _published("nikoli-web 0", 20, 3, 80, 6, 0, 0, 0, 0, 0, 0),
    "nikoliweb4": _published("nikoli-web 4", 44, 15, 78, 78, 0, 0, 0, 0, 0, 0),
    "nikoliweb6": _published("nikoli-web 6", 36, 1, 210, 3, 153, 50, 0, 0, 0, 0),
    "nikoliweb9": _published("nikoli-web 9", 128, 4, 872, 8, 196, 0, 0, 0, 0, 0),
    "nikoliweb10": _published("nikoli-web 10", 120, 1, 986, 1, 774, 627, 36, 36, 0, 0),
    "giants0": _published("giant 0", 12, 2, 46, 2, 0, 0, 0, 0, 0, 0),
    "giants1": _published("giant 1", 149, 0, 1002, 2, 995, 345, 29, 7, 0, 0),
    "giants3": _published("giant 3", 209, 5, 1023, 6, 830, 583, 256, 256, 133, 0),
    "giants7": _published("giant 7", 135, 4, 1111, 4, 984, 866, 7, 7, 0, 0),
}


def placement_figures(rooms: list[Room]) -> PlacementFigures:
    """K, Fix, Alt and Cov: Cov counts the cells that exactly one placement, of any
    room, covers."""
    coverage: dict[tuple[int, int], int] = {}
    for room in rooms:
        for placement in room.placements:
            for cell in placement.cells():
                coverage[cell] = coverage.get(cell, 0) + 1
    return PlacementFigures(len(rooms), sum(len(room.placements) == 1 for room in rooms),
                            sum(len(room.placements) for room in rooms),
                            sum(count == 1 for count in coverage.values()))
