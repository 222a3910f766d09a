"""The explained-difficulty study's figure: each explanation's difficulty at its
generator's level, one column of points a level, each sample with its own marker, so a
reader sees how far the levels overlap, which a correlation alone hides."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from experiments.analysis.figure_style import (
    HEIGHT,
    WIDTH,
    DrawnFigure,
    log_scale,
    look,
    save,
    styled,
)

Row = dict[str, str]
SPREAD = 0.3
"""How far apart, in a level's width, the points of one level and sample are laid."""


def draw_levels(rows: Sequence[Row], levels: Sequence[str], path: Path, title: str) -> Path:
    """Draw ``rows`` (finished explanations: level, sample, difficulty) by level, easiest
    first, on a log scale (the hardest levels cost ten times the easiest); ``path`` is the
    SVG written, a PDF beside it."""
    import matplotlib.pyplot as plt

    samples = list(dict.fromkeys(row["sample"] for row in rows))

    def draw() -> DrawnFigure:
        figure, axes = plt.subplots(figsize=(WIDTH, HEIGHT))
        for number, sample in enumerate(samples):
            shift = (number - (len(samples) - 1) / 2) * SPREAD
            for index, level in enumerate(levels):
                found = sorted(int(row["difficulty"]) for row in rows
                               if row["level"] == level and row["sample"] == sample)
                xs = [index + shift + SPREAD * 0.5 * ((k % 5) - 2) / 5
                      for k in range(len(found))]
                style = look(number)
                axes.plot(xs, found, linestyle="none", marker=style["marker"],
                          color=style["color"], alpha=0.7,
                          label=sample if index == 0 else None)
        axes.set_xticks(range(len(levels)), list(levels))
        log_scale(axes, "y")
        axes.set_xlabel("Tatham's level")
        axes.set_ylabel("difficulty (hardest step's cost)")
        axes.set_title(title)
        axes.legend(title="sample")
        figure.tight_layout()
        return save(figure, path.parent, path.stem, title, "")

    styled(draw)()
    return path
