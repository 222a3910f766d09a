"""What a reader meets cites only what a reader can open: no code, doc, result or test
names an item of a tracker our readers do not have ("issue 43, item 3"); a benchmark
says what it measures instead."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.paths import ROOT

TRACKER_ITEM = re.compile(r"(?:\b|_)issues?[\s_]*#?\d+", re.IGNORECASE)
#: binary stores hold the text of the specs they ran; their reports are checked instead
NOT_TEXT = (".sqlite", ".png", ".pdf", ".parquet", ".gz", ".npz")


def tracked_files() -> list[str]:
    """Every file the repository holds, by its path from the root, but this test's own
    (which spells out what it looks for)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode()
    return [name for name in listed.split("\0") if name and not name.endswith(NOT_TEXT)
            and name != Path(__file__).relative_to(ROOT).as_posix()]


def test_nothing_cites_a_trackers_issue_numbers() -> None:
    cited = []
    for name in tracked_files():
        path = ROOT / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        cited += [f"{name}: {found.group(0)}" for found in TRACKER_ITEM.finditer(text)]
    cited += [name for name in tracked_files() if TRACKER_ITEM.search(name)]
    assert cited == []


def test_the_pattern_finds_what_a_tracker_reference_looks_like() -> None:
    assert TRACKER_ITEM.search("Hashi default benchmark (issue 43, item 3)")
    assert TRACKER_ITEM.search("see Issues #12")
    assert TRACKER_ITEM.search("def test_issue_43_item_3():")
    assert not TRACKER_ITEM.search("an issue with 3 clues, no issue at all")
