"""A campaign on each puzzle's defaults (its default viewpoint, solver and heuristic)
writes tables whose every column has figures: the default effort column is the effort
the default solver counts, named in its header."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.analysis.tables import build_tables
from experiments.campaign.runner import run_campaign
from experiments.campaign.spec import load_spec
from experiments.campaign.stored_campaign import read_campaign
from puzzlelab.statistics import EFFORT_STATISTICS
from tests.paths import ROOT

DATA = ROOT / "puzzles" / "data"
SMALL = {"sudoku": (DATA / "sudoku" / "small_4x4.txt", [1, 2]),
         "hashi": (DATA / "hashi" / "small" / "small.txt", []),
         "nonogram": (DATA / "nonogram" / "small" / "plus_3x3.non", []),
         "shikaku": (DATA / "shikaku" / "small" / "small.txt", [])}


@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_a_default_campaigns_table_has_figures_in_every_column(puzzle: str,
                                                               tmp_path: Path) -> None:
    path, select = SMALL[puzzle]
    spec = tmp_path / "defaults.toml"
    spec.write_text(f'name = "defaults"\npuzzle = "{puzzle}"\ninstances = [{{ file = '
                    f'"{path.as_posix()}", select = {select} }}]\ntable = {{ report = false }}\n',
                    encoding="utf-8")
    run_campaign(load_spec(spec), jobs=1, results_root=tmp_path, show_progress=False)
    campaign = read_campaign(tmp_path / "defaults" / "runs.sqlite")
    for table in build_tables(campaign.runs, metrics=campaign.table_settings().metrics):
        [group] = table.groups
        assert group.headers[0] == "time (ms)" and group.headers[1] in EFFORT_STATISTICS
        rows = [cells for _, cells in table.rows[:table.instance_count]]
        assert rows and all(cells[1] not in ("n/r", "") for cells in rows), (
            puzzle, group.headers, rows)
