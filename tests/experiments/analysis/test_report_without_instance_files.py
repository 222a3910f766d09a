"""A report draws a campaign's puzzles from its store alone: with the instance file moved
away, ``puzzlelab report`` draws the same pictures as ``puzzlelab run`` did, for every
bundled data file of every puzzle, whatever its format.

Each case runs a one-run campaign (the puzzle's default viewpoint, solver and heuristic)
on the first instance of a copy of the file, moves the copy (and its companion files of
solutions) away, and reports again. The first file of each data set runs by default;
the others, of the same formats, with ``--runslow``. A store made before stores kept
names (the main format, as ``write`` writes it) reports alike too."""

from __future__ import annotations

import glob
import re
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from experiments.analysis.report import write_report
from experiments.api import run_experiment
from experiments.campaign.stored_campaign import read_campaign
from puzzles import PUZZLES, PuzzleKind

KINDS = [PUZZLES.get(name) for name in PUZZLES.names()]
FILES = [pytest.param(kind, file, id=f"{kind.name}-{file.relative_to(kind.data_folder())}",
                      marks=() if index == 0 else pytest.mark.slow)
         for kind in KINDS for data_set in kind.data_sets()
         for index, file in enumerate(data_set.files)]
TIME_LIMIT = 0.5
"""Seconds per run: an instance not solved by then is drawn unsolved, which is enough."""
PICTURE = re.compile(r"^!\[(.*)\]\((.*\.svg)\)$", re.MULTILINE)
"""A picture in ``report.md``: its alt text (an instance's label, or a plot's title) and file."""


def drawn(report: Path) -> tuple[dict[str, str], dict[str, bytes], list[str]]:
    """What a report shows: each picture's alt text by file, each SVG's bytes, its notes."""
    text = (report / "report.md").read_text(encoding="utf-8")
    pictures = {file: alt for alt, file in PICTURE.findall(text)}
    svgs = {path.name: path.read_bytes() for path in (report / "figures").glob("*.svg")}
    notes = [line for line in text.splitlines() if line.startswith("> ")]
    return pictures, svgs, notes


def campaign_on_a_copy(kind: PuzzleKind[Any, Any], file: Path, folder: Path) -> Path:
    """The store of a one-run campaign on the first instance of a copy of ``file`` (and
    of its companion files) in ``folder / "data"``, reported as ``puzzlelab run`` does."""
    data = folder / "data"
    data.mkdir()
    for companion in file.parent.glob(f"{glob.escape(file.stem)}.*"):  # the file among them
        shutil.copy(companion, data)
    spec = folder / "spec.toml"
    spec.write_text(f'name = "stored"\npuzzle = "{kind.name}"\ninstances = [{{ file = '
                    f'"data/{file.name}", select = [1] }}]\ntime_limit = {TIME_LIMIT}\n',
                    encoding="utf-8")
    return run_experiment(spec, jobs=1, results_root=folder / "results").database


def assert_drawn_alike_with_the_files_moved(database: Path, folder: Path) -> None:
    """``puzzlelab report`` with ``folder / "data"`` moved away draws what the campaign's
    own report drew: the one instance, and no note (such as a file not found)."""
    [run] = read_campaign(database).runs
    (folder / "data").rename(folder / "moved")
    write_report([database], folder / "again")
    pictures, svgs, notes = drawn(database.parent / "report")
    assert run.identity.instance in pictures.values() and notes == []
    assert drawn(folder / "again") == (pictures, svgs, notes)


@pytest.mark.parametrize(("kind", "file"), FILES)
def test_the_report_draws_the_same_pictures_with_the_instance_file_gone(
        kind: PuzzleKind[Any, Any], file: Path, tmp_path: Path) -> None:
    assert_drawn_alike_with_the_files_moved(campaign_on_a_copy(kind, file, tmp_path), tmp_path)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_store_that_kept_the_main_format_draws_the_same_pictures(
        kind: PuzzleKind[Any, Any], tmp_path: Path) -> None:
    """Stores made before ``stored_text`` kept ``write``'s main format, which may name its
    instance after its file (Hashi's ``.has``): they draw their pictures too."""
    file = kind.data_sets()[0].files[0]
    database = campaign_on_a_copy(kind, file, tmp_path)
    instance = kind.read(tmp_path / "data" / file.name)[0]
    with closing(sqlite3.connect(database)) as connection, connection:
        [[count]] = connection.execute("SELECT count(*) FROM instances")
        connection.execute("UPDATE instances SET text = ?",
                           (kind.write(instance, kind.known_solution(instance)),))
    assert count == 1
    assert_drawn_alike_with_the_files_moved(database, tmp_path)
