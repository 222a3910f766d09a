"""The Python API as a library user meets it: one keyword call that infers the puzzle
and fills its defaults, one identity per run, typed statistics, and library calls that
leave the interpreter as they found it."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from experiments.api import ALL_SOLUTIONS, read_runs, run_experiment, solve, solve_instance
from experiments.campaign.spec import parse_spec
from puzzlelab.errors import PuzzleLabError
from puzzlelab.statistics import STATISTICS, Counted, Figure, Statistics, run_statistics
from puzzles import PUZZLES
from tests.paths import ROOT, SUDOKU_DATA
from viewpoints import DEFAULTS

SUDOKU = PUZZLES.get("sudoku")
FOUR = SUDOKU.load(SUDOKU_DATA / "small_4x4.txt", 1)
SEVERAL = SUDOKU.load(SUDOKU_DATA / "multi_4x4.txt", 2)  # 12 solutions


def test_solve_infers_the_puzzle_and_fills_its_defaults() -> None:
    run = solve(FOUR)
    defaults = DEFAULTS.get("sudoku")
    asked = run.identity
    assert (asked.puzzle, asked.viewpoint_name, asked.solver) == (
        "sudoku", defaults.viewpoint, defaults.solver)
    assert dict(asked.options) == dict(defaults.options)
    assert asked.heuristic == defaults.heuristic
    assert run.correct and run.violations == () and run.solution == FOUR.known_solution
    assert SUDOKU.check(FOUR, run.solution) == []


def test_what_is_given_replaces_the_default_and_a_named_viewpoint_takes_no_default_options(
        ) -> None:
    run = solve(FOUR, viewpoint="classic", solver="cp", heuristic="input/min",
                options={"alldiff": "weak"})
    asked = run.identity
    assert (asked.viewpoint, asked.solver, asked.heuristic) == ("classic", "cp", "input/min")
    assert dict(asked.options) == {"alldiff": "weak"}
    assert run.correct and run.statistics.backtracks is not None


@pytest.mark.parametrize("every", [ALL_SOLUTIONS, None], ids=["zero", "none"])
def test_zero_counts_every_solution_and_none_is_read_as_zero(every: int | None) -> None:
    run = solve(SEVERAL, solver="cp", heuristic="input/min", max_solutions=every)
    assert run.statistics.solutions == 12 and run.result.complete
    assert run.identity.max_solutions == ALL_SOLUTIONS


def test_a_negative_solution_count_is_refused() -> None:
    with pytest.raises(PuzzleLabError, match="-1"):
        solve(FOUR, max_solutions=-1)


def test_something_that_is_no_instance_is_refused_naming_the_instance_types() -> None:
    with pytest.raises(PuzzleLabError) as refused:
        solve("1...........4...")
    assert "str" in str(refused.value) and "SudokuInstance" in str(refused.value)


def test_the_positional_call_still_works_and_says_it_is_deprecated() -> None:
    with pytest.warns(DeprecationWarning, match="solve\\(instance"):
        run = solve_instance("sudoku", FOUR, "classic", "cp", "input/min")
    assert run.correct and run.identity.viewpoint == "classic"
    with pytest.warns(DeprecationWarning), pytest.raises(PuzzleLabError, match="nonogram"):
        solve_instance("nonogram", FOUR, "classic", "cp", "input/min")


def test_every_core_statistic_is_a_typed_attribute_declared_once() -> None:
    """The declaration is the attribute: its type says int for counts, float for times
    and memory; every run statistic but an outside module's is one."""
    for statistic in run_statistics():
        attribute = Statistics.__dict__[statistic.name]
        assert isinstance(attribute, Figure)
        kind = attribute.__orig_class__.__args__[0]  # Figure[int] or Figure[float]
        assert kind is (int if statistic.integer else float), statistic.name
    assert isinstance(Statistics.__dict__["solutions"], Counted)
    assert Statistics().solutions == 0 and Statistics().backtracks is None
    assert set(STATISTICS) - set(Statistics.names()) == {"wall_s", "cpu_s"}  # the runner's


TYPED = """
from experiments.api import solve
from puzzles import PUZZLES

run = solve(PUZZLES.get("sudoku").parse("1...........4...")[0])
reveal_type(run.statistics.backtracks)
reveal_type(run.statistics.solve_s)
reveal_type(run.statistics.solutions)
reveal_type(run.identity.solver)
"""


@pytest.mark.slow  # runs mypy over a script (7 s)
def test_a_type_checker_sees_the_statistics_and_the_identity(tmp_path: Path) -> None:
    from mypy import api

    snippet = tmp_path / "snippet.py"
    snippet.write_text(TYPED, encoding="utf-8")
    out, _, _ = api.run([str(snippet), "--no-incremental", "--follow-imports=silent",
                         "--config-file", str(ROOT / "pyproject.toml")])
    revealed = [line.split('Revealed type is "')[1].rstrip('"').replace("builtins.", "")
                for line in out.splitlines() if "Revealed type is" in line]
    assert revealed == ["int | None", "float | None", "int", "str"], out


LIBRARY_CALL = textwrap.dedent("""
    import gc, json, sys
    from pathlib import Path
    from experiments.api import read_runs, run_experiment
    from experiments.campaign.spec import parse_spec

    spec_path = Path(sys.argv[1])
    gc.disable()
    sys.setswitchinterval(0.01)
    frozen = gc.get_freeze_count()
    done = run_experiment(parse_spec(spec_path.read_text(), spec_path), out=Path(sys.argv[2]),
                          jobs=1, report=True)
    runs = read_runs(done.database)
    print(json.dumps({"enabled": gc.isenabled(), "interval": sys.getswitchinterval(),
                      "frozen": gc.get_freeze_count() - frozen, "runs": len(runs)}))
""")


def test_library_calls_leave_the_collector_and_the_switch_interval_as_they_were(
        tmp_path: Path) -> None:
    """In a user's process (one that did not start as PuzzleLab's own), running an
    experiment with its report and reading the store back leave the interpreter's
    settings alone: the collector off stays off, nothing is frozen, the switch interval
    the user set stays."""
    import json

    spec = tmp_path / "spec.toml"
    spec.write_text(f'name = "library"\npuzzle = "sudoku"\ninstances = '
                    f'[{{ file = "{SUDOKU_DATA / "small_4x4.txt"}", select = [1, 2] }}]\n'
                    f'solvers = ["cp"]\nheuristics = ["input/min"]\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", LIBRARY_CALL, str(spec), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"enabled": False, "interval": 0.01, "frozen": 0, "runs": 2}


def test_the_api_reads_back_the_runs_a_campaign_stored(tmp_path: Path) -> None:
    text = (f'name = "api"\npuzzle = "sudoku"\ninstances = [{{ file = '
            f'"{SUDOKU_DATA / "small_4x4.txt"}", select = [1] }}]\nsolvers = ["cp"]\n'
            f'heuristics = ["input/min"]\nrepeats = 2\n')
    done = run_experiment(parse_spec(text, tmp_path / "spec.toml"), out=tmp_path / "out",
                          jobs=1, report=False)
    runs = read_runs(done.database)
    assert [run.identity.repeat for run in runs] == [0, 1]
    assert len({run.identity.key for run in runs}) == 2
    assert all(run.identity.puzzle == "sudoku" and run.answer() == FOUR.known_solution
               for run in runs)
    assert gc.isenabled()
