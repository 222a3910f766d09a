"""The Shikaku propagation-level study (Simonis, "Working with Implications"): what root
propagation alone decides as constraint families are added
(:mod:`viewpoints.shikaku_levels`, the rungs of Shikaku's grades too), tabled beside the
published figures (:mod:`.table`, :mod:`.published`).

``python -m experiments.studies.shikaku_levels FILE [--instances a,b] [--format F]
[--channel missing|sum|implication]``, or ``puzzlelab study shikaku-levels FILE ...``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from experiments.analysis.table_format import FORMATS
from experiments.analysis.terminal import terminal_width
from experiments.studies.shikaku_levels.table import format_levels, level_rows, read_instances
from viewpoints.shikaku_levels import CHANNELS


def main(argv: Sequence[str] | None = None) -> None:
    """Print the propagation-level table of a Shikaku file's instances."""
    parser = argparse.ArgumentParser(prog="puzzlelab study shikaku-levels",
                                     description=main.__doc__)
    parser.add_argument("file", type=Path, help="Shikaku instance file")
    parser.add_argument("--instances", default="",
                        help="comma-separated instance names (default: every instance)")
    parser.add_argument("--format", default="text", choices=FORMATS, dest="fmt")
    parser.add_argument("--channel", default="missing", choices=CHANNELS,
                        help="the Set level's channeling")
    arguments = parser.parse_args(argv)
    names = [name.strip() for name in arguments.instances.split(",") if name.strip()]
    rows = list(level_rows(read_instances(arguments.file, names), arguments.channel))
    print(format_levels(rows, arguments.fmt, arguments.channel,
                        terminal_width() if arguments.fmt == "text" else None), end="")
