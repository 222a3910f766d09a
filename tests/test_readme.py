"""The README's Python examples run as a newcomer would run them after the quick start,
and print what they say they print.

Each ```python block runs in a fresh namespace, in a folder holding the
``runs/sudoku-course/runs.sqlite`` that the quick start makes, from a smaller grid of
the same spec (two instances, two viewpoints, ``cp`` only, one repeat).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from experiments.api import run_experiment
from experiments.campaign.spec import parse_spec
from tests.paths import ROOT

SPEC = ROOT / "experiments" / "specs" / "sudoku-course.toml"
INSTANCES = ("lambda", "hard17")
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"),
                    re.DOTALL)
EXPECTED = {
    # the API a block shows: what its output must hold
    "solve(": [r"\bsolved\b", r"backtracks:\s*\d+", r"branches:\s*\d+"],
    "read_runs(": [r"\bsolved\b", r"\bcorrect\b", r"backtracks:\s*\d+", INSTANCES[0],
                   r"classic-strong", r"SudokuSolution"],
    "runs_frame(": [*INSTANCES, r"classic", r"\bcp\b", r"\d+\.\d"],
}


def shows(block: str) -> str:
    """The API a README block is there to show (the first of EXPECTED's it calls)."""
    return next((api for api in EXPECTED if api in block), "nothing known")


def smaller_course() -> str:
    """The course spec's text, its grid cut down; the spec's layout is checked so that a
    change to it fails here rather than running the whole course."""
    text = SPEC.read_text(encoding="utf-8")
    small = re.sub(r"select = \[[^\]]*\]", f"select = {list(INSTANCES)!r}".replace("'", '"'),
                   text)
    small = re.sub(r"viewpoints = \[.*?\n\]", 'viewpoints = [\n'
                   '    { name = "classic", options = { alldiff = "strong" }, label = '
                   '"classic-strong" },\n'
                   '    { name = "channeled", options = { alldiff = "strong" }, label = '
                   '"channeled-strong" },\n]', small, flags=re.DOTALL)
    small = re.sub(r"solvers = \[[^\]]*\]", 'solvers = ["cp"]', small)
    small = re.sub(r"repeats = \d+", "repeats = 1", small)
    assert small.count("name = ") == 3 and '["cp"]' in small and "repeats = 1" in small, (
        "the course spec's layout changed: update smaller_course")
    return small


@pytest.fixture(scope="module")
def after_quick_start(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose ``runs/sudoku-course/`` holds a campaign of the course spec."""
    folder = tmp_path_factory.mktemp("user")
    spec = parse_spec(smaller_course(), SPEC)  # at the spec's place: its paths resolve
    done = run_experiment(spec, out=folder / "runs" / "sudoku-course", jobs=1, report=False)
    assert done.campaign.ran == len(INSTANCES) * 2 * 2  # instances x viewpoints x heuristics
    return folder


@contextlib.contextmanager
def working_in(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def test_the_readme_shows_each_layer_and_the_read_back() -> None:
    assert sorted(shows(block) for block in BLOCKS) == sorted(EXPECTED)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block-{n}" for n in range(1, len(BLOCKS) + 1)])
def test_a_readme_example_runs_and_prints_what_it_says(block: str,
                                                       after_quick_start: Path) -> None:
    api = shows(block)
    assert api in EXPECTED, f"a README example shows none of {list(EXPECTED)}: say what it "\
                            f"prints in EXPECTED\n{block}"
    if api == "runs_frame(":
        pytest.importorskip("pandas", reason="the DataFrame example needs pandas "
                                             "(pip install '.[pandas]')")
    output = io.StringIO()
    with working_in(after_quick_start), contextlib.redirect_stdout(output):
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    printed = output.getvalue()
    missing = [pattern for pattern in EXPECTED[api] if not re.search(pattern, printed)]
    assert not missing, f"the example printed no {missing}:\n{printed}"
