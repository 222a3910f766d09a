"""The Python examples of the README and of the Python API page run as a newcomer would
run them after the quick start, and print what they say they print.

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
PAGES = ("README.md", "docs/python-api.md")
BLOCKS = [(page, block) for page in PAGES
          for block in re.findall(r"```python\n(.*?)```",
                                  (ROOT / page).read_text(encoding="utf-8"), re.DOTALL)]
EXPECTED = {
    # the API a page's block shows: what its output must hold
    ("docs/python-api.md", "solve(built.model"): [r"\bsolved True 1\b", r"# # #"],
    ("docs/python-api.md", "solve(instance"): [r"\bsolved correct \(\) True\b",
                                               r"(?m)^\d+ \d"],
    ("docs/python-api.md", "read_runs("): [
        r"\bsolved\b", r"\bcorrect\b", r"backtracks:\s*\d+", INSTANCES[0],
        r"classic-strong", r"\b0 wrong\b", r"SudokuSolution"],
    ("docs/python-api.md", "runs_frame("): [*INSTANCES, r"classic", r"\bcp\b", r"\d+\.\d"],
    ("README.md", "explain("): [r"\bsolved correct\b", r"backtracks:\s*\d+",
                                r"branches:\s*\d+", r"rules broken: \(\)",
                                r"\| cost: \d+"],
    ("docs/python-api.md", "hint("): [r"(?m)^solved \d+ \d+$", r"is wrong: .*no solution"],
}
APIS = list(dict.fromkeys(api for _, api in EXPECTED))


def shows(block: str) -> str:
    """The API a block is there to show (the last of APIS it calls: read_runs before
    solve, a model's solve rather than an instance's)."""
    return next((api for api in reversed(APIS) if api in block), "nothing known")


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
    small = re.sub(r"(?s)\ntrees = \{.*?\}\n", "\n", small)  # the report's trees: none
    assert small.count("name = ") == 3 and '["cp"]' in small and "repeats = 1" in small \
        and "trees = " not in small, (
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


def test_each_page_shows_the_apis_it_is_expected_to() -> None:
    assert sorted((page, shows(block)) for page, block in BLOCKS) == sorted(EXPECTED)


@pytest.mark.parametrize(("page", "block"), BLOCKS,
                         ids=[f"{page}-{n}" for n, (page, _) in enumerate(BLOCKS, 1)])
def test_an_example_runs_and_prints_what_it_says(page: str, block: str,
                                                 after_quick_start: Path) -> None:
    api = shows(block)
    assert (page, api) in EXPECTED, f"an example of {page} shows none of {APIS}: say what "\
                                    f"it prints in EXPECTED\n{block}"
    if api == "runs_frame(":
        pytest.importorskip("pandas", reason="the DataFrame example needs pandas "
                                             "(pip install '.[pandas]')")
    output = io.StringIO()
    with working_in(after_quick_start), contextlib.redirect_stdout(output):
        exec(compile(block, page, "exec"), {"__name__": "example"})
    printed = output.getvalue()
    missing = [pattern for pattern in EXPECTED[page, api] if not re.search(pattern, printed)]
    assert not missing, f"the example printed no {missing}:\n{printed}"
