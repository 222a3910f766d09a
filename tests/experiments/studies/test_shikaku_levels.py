"""The shikaku-levels study: every published cell we match stays matched (the ones we do
not are listed, with the reason, in :data:`UNMATCHED`), and the table and the command
show ours beside the chapter's."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from experiments.cli import main
from experiments.studies.shikaku_levels.published import (
    PLACEMENT_FIGURES,
    PUBLISHED,
    placement_figures,
)
from experiments.studies.shikaku_levels.table import format_levels, level_rows, read_instances
from puzzles import PUZZLES
from viewpoints.shikaku_levels import LEVELS, LevelState, propagation_levels
from viewpoints.shikaku_rooms import rooms_of

CARLSSON = PUZZLES.get("shikaku").data_folder() / "carlsson_sicstus_shikaku.txt"
INSTANCES = {instance.name: instance for instance in read_instances(CARLSSON)}


def test_every_published_instance_is_one_we_ship() -> None:
    assert set(PUBLISHED) <= set(INSTANCES)


#: the published cells we do not match: (instance, column): (our figure, why). Ours is
#: pinned so that a change shows; results/shikaku-levels/README.md argues the reasons.
_SET = ("the chapter's channel is not our missing form: ours decides more on giant 3 "
        "and less on the others; sum and implication decide nothing beyond Ini")
_RED = ("Red holds Set, whose form differs; no further reasoning we tried closes it "
        "without going past the published figures elsewhere")
UNMATCHED: dict[tuple[str, str], tuple[int, str]] = {
    ("nikoliweb6", "Set"): (53, _SET),
    ("nikoliweb10", "Set"): (634, _SET),
    ("giants1", "Set"): (854, _SET),
    ("giants3", "Set"): (339, _SET),
    ("giants7", "Set"): (955, _SET),
    ("giants1", "Red"): (31, _RED),
    ("giants3", "Red"): (258, _RED),
    ("giants7", "Red"): (31, _RED),
    ("giants3", "GCC"): (258, _RED + "; gcc adds nothing here, as in the chapter"),
    ("giants7", "GCC"): (31, _RED + "; gcc adds nothing here, as in the chapter"),
}
COLUMNS = (*PLACEMENT_FIGURES, *LEVELS)


@cache
def _levels(name: str) -> tuple[LevelState, ...]:
    return tuple(propagation_levels(INSTANCES[name]))


def _ours(name: str, column: str) -> int:
    if column in PLACEMENT_FIGURES:
        return placement_figures(rooms_of(INSTANCES[name])).row()[
            PLACEMENT_FIGURES.index(column)]
    return _levels(name)[LEVELS.index(column)].open_placements


def _published(name: str, column: str) -> int:
    figures = PUBLISHED[name]
    if column in PLACEMENT_FIGURES:
        return figures.placements.row()[PLACEMENT_FIGURES.index(column)]
    return figures.undecided[LEVELS.index(column)]


@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.parametrize("name", PUBLISHED)
def test_each_published_cell_is_matched_or_listed_as_unmatched(name: str,
                                                               column: str) -> None:
    """Open placements against the chapter's figure (its K, Fix, Alt, Cov too)."""
    ours, published = _ours(name, column), _published(name, column)
    if (name, column) in UNMATCHED:
        assert (ours, ours != published) == (UNMATCHED[name, column][0], True)
    else:
        assert ours == published


def test_the_table_shows_ours_beside_the_published_figures() -> None:
    rows = list(level_rows([INSTANCES["giants0"], INSTANCES["nikoliweb1"]]))
    table = format_levels(rows, "csv").splitlines()
    assert table[0].split(",")[:7] == ["table", "instance", "placements K", "placements Fix",
                                       "placements Alt", "placements Cov", "undecided cells Ini"]
    assert table[1].split(",")[1:6] == ["giants0", "12", "2", "46", "2"]
    assert table[2].split(",")[-6:] == ["–"] * 6  # nikoliweb1 has no published figures


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         *arguments: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.argv", ["puzzlelab", "study", "shikaku-levels", *arguments])
    code = 0
    try:
        main()
    except SystemExit as finished:
        code = int(finished.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_command_prints_the_table(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(monkeypatch, capsys, str(CARLSSON), "--instances",
                        "nikoliweb0, giants0", "--format", "markdown")
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("| ")]
    assert [line.split(" | ")[0] for line in lines] == ["| instance", "| nikoliweb0",
                                                         "| giants0"]
    assert lines[1].endswith(" | ".join(["0"] * 18) + " |")


def test_the_command_names_the_file_and_line_of_bad_input(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("== short\n2 2\n1 -\n- 1\n", encoding="utf-8")
    code, out, err = _run(monkeypatch, capsys, str(bad))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {bad}:2") and "add up to 2" in err
    code, _, err = _run(monkeypatch, capsys, str(CARLSSON), "--instances", "giants99")
    assert code == 2 and "'giants99'" in err and "giants8" in err
