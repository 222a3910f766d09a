"""The portfolio backend (``auto``): the first configuration to answer wins, its record
names it (and counts that configuration's build as build time), and stopping a
configuration (an answer, Ctrl-C, the time limit, the parent's death) leaves no process
behind.

Its configurations here are two test backends that wait a set time before handing the
search to ``cp``, so which one finishes first is known in advance.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from puzzlelab.errors import SolverError, UnsupportedCombination
from puzzles import PUZZLES
from solvers import BACKENDS, Model, Status, exactly_one, load_backends, solve
from solvers.backend_contract import Backend, LoweredModel, SolveRequest
from solvers.capabilities import INTEGER_VARIABLES, VALUE_RANKING, Capabilities
from solvers.limits import SearchLimits
from solvers.portfolio import CORES_VARIABLE, Configuration, Outcome, Race, cores_allowed
from solvers.portfolio.backend import FIRST_BUDGET_S, PortfolioBackend, declaration
from solvers.record import ConfigurationRun
from tests.paths import NONOGRAM_DATA, ROOT
from viewpoints import get_viewpoint

load_backends()
CP = BACKENDS.get("cp")()
LINUX = sys.platform.startswith("linux")


def waiting_backend(name: str, delay: float, heeds_limit: bool = True) -> type[Backend[Any]]:
    """A backend that waits ``delay`` seconds (watching its time limit, unless told not
    to, as CP-SAT's presolve does not) before ``cp`` searches."""

    class Waiting(Backend[Any]):
        capabilities = Capabilities(library="cp, after a wait", summary="a test backend",
                                    native=CP.capabilities.native,
                                    statistics=frozenset({"backtracks", "branches"}))

        def compile(self, model: Model, lowered: LoweredModel, request: SolveRequest,
                    limits: SearchLimits) -> Any:
            self.limits = limits
            return CP.compile(model, lowered, request, limits)

        def search(self, compiled: Any) -> Generator[tuple[int, ...], None, None]:
            end = time.perf_counter() + delay
            while time.perf_counter() < end:
                if heeds_limit and self.limits.passed():
                    return
                time.sleep(0.005)
            if self.limits.passed():
                return
            yield from CP.search(compiled)

        def counters(self, compiled: Any) -> dict[str, int | None]:
            figures = CP.counters(compiled)
            return {"backtracks": figures["backtracks"], "branches": figures["branches"]}

    Waiting.name = name
    return Waiting


def child_processes() -> list[int]:
    """The processes whose parent is this one (Linux: read from /proc), but for
    multiprocessing's resource tracker, which an earlier test in the same worker (the
    Dask executor's) may have started and which lives as long as the worker."""
    me, found = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == me and fields[0] != "Z" and \
                    b"multiprocessing.resource_tracker" not in command:
                found.append(int(entry.name))
    return found


@pytest.fixture
def portfolio(request: pytest.FixtureRequest,
              monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A portfolio ``test-portfolio`` of two waiting backends, with the delays the test
    gives (``@pytest.mark.parametrize("portfolio", [(first, second)], indirect=True)``;
    a third item False makes the first wait its delay through its time limit), on two
    cores."""
    first_delay, second_delay, *first_heeds = request.param
    monkeypatch.setenv(CORES_VARIABLE, "2")
    first = waiting_backend("test-first", first_delay, *first_heeds)
    second = waiting_backend("test-second", second_delay)
    with BACKENDS.registered(first.name, first), BACKENDS.registered(second.name, second):

        class TestPortfolio(PortfolioBackend):
            name = "test-portfolio"
            configurations = (Configuration(first.name, "input/min"),
                              Configuration(second.name, "input/min"))
            capabilities = declaration(configurations)

        with BACKENDS.registered(TestPortfolio.name, TestPortfolio):
            yield TestPortfolio.name
    assert child_processes() == [] or not LINUX


def three_cells() -> Model:
    model = Model("three-cells")
    cells = [model.bool_var(f"c{i}") for i in range(3)]
    model.add(exactly_one(cells))
    return model


def runs(result: Any) -> list[ConfigurationRun]:
    return list(result.portfolio.runs)


@pytest.mark.parametrize(("portfolio", "winner", "loser"),
                         [((1.5, 20.0), "test-first input/min", "test-second input/min"),
                          ((20.0, 1.5), "test-second input/min", "test-first input/min")],
                         indirect=["portfolio"])
def test_the_configuration_that_finishes_first_answers_and_the_other_is_killed(
        portfolio: str, winner: str, loser: str) -> None:
    started = time.perf_counter()
    result = solve(three_cells(), portfolio, "auto", time_limit=60)
    assert time.perf_counter() - started < 10  # not the loser's 20 s
    assert result.status is Status.SOLVED and result.backend == portfolio
    assert result.portfolio.answered_by == winner
    assert result.portfolio.mode == "first here, then in parallel processes"
    first, *raced = runs(result)
    # the first configuration had its short run here first, and ran out of it
    assert (first.where, first.status) == ("this process", "timeout")
    assert first.time_limit == pytest.approx(FIRST_BUDGET_S)
    assert first.statistics.solve_s >= FIRST_BUDGET_S * 0.9
    by_name = {run.configuration: run for run in raced}
    assert by_name[winner].status == "solved" and by_name[winner].statistics
    assert by_name[loser].status == "stopped" and by_name[loser].statistics is None
    # the run's counts are the winner's own, and only its declared ones
    assert result.statistics.branches == by_name[winner].statistics.branches
    assert result.statistics.conflicts is None
    if LINUX:
        assert child_processes() == []


@pytest.mark.parametrize("portfolio", [(0.0, 20.0)], indirect=True)
def test_an_easy_model_is_answered_here_without_a_process(
        portfolio: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork(*args: Any) -> None:
        raise AssertionError("no process should start")

    monkeypatch.setattr(Race, "start", no_fork)
    result = solve(three_cells(), portfolio, "auto")
    assert result.portfolio.answered_by == "test-first input/min"
    assert [run.where for run in runs(result)] == ["this process"]


@pytest.mark.parametrize("portfolio", [(20.0, 1.5)], indirect=True)
def test_on_one_core_the_configurations_run_in_turn_here(
        portfolio: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork(*args: Any) -> None:
        raise AssertionError("no process should start on one core")

    monkeypatch.setenv(CORES_VARIABLE, "1")
    monkeypatch.setattr(Race, "start", no_fork)
    result = solve(three_cells(), portfolio, "auto", time_limit=10)
    assert result.status is Status.SOLVED
    assert result.portfolio.mode == "in turn, in this process"
    assert result.portfolio.answered_by == "test-second input/min"
    assert [(run.configuration, run.status) for run in runs(result)] == [
        ("test-first input/min", "timeout"), ("test-second input/min", "solved")]
    # each has half of the limit: the second all its half, the first its short run and
    # then the rest of its half
    assert runs(result)[1].time_limit == pytest.approx(10 / 2, abs=0.1)


@pytest.mark.parametrize("portfolio", [(1.5, 0.5, False)], indirect=True)
def test_on_one_core_a_run_past_its_limit_pays_from_its_own_share(
        portfolio: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CORES_VARIABLE, "1")
    result = solve(three_cells(), portfolio, "auto", time_limit=8)
    first, second = runs(result)
    assert first.time_limit == FIRST_BUDGET_S and first.wall_s >= 1.5
    assert second.status == "solved"
    # the first's 1 s past its 0.5 s comes out of its own half of the 8 s, not the second's
    assert second.time_limit == pytest.approx(8 / 2, abs=0.1)


@pytest.mark.parametrize("portfolio", [(30.0, 30.0)], indirect=True)
def test_the_time_limit_ends_both_and_each_reports_its_own_timeout(portfolio: str) -> None:
    started = time.perf_counter()
    result = solve(three_cells(), portfolio, "auto", time_limit=1.5)
    assert time.perf_counter() - started < 5
    assert result.status is Status.TIMEOUT and result.assignment is None
    assert result.portfolio.answered_by is None
    assert result.statistics.branches is None  # no configuration's figure stands in
    assert {run.status for run in runs(result)} == {"timeout"}
    assert all(run.statistics is not None for run in runs(result))
    if LINUX:
        assert child_processes() == []


@pytest.mark.parametrize("portfolio", [(30.0, 30.0)], indirect=True)
@pytest.mark.parametrize("after", [FIRST_BUDGET_S / 2, FIRST_BUDGET_S + 1.0],
                         ids=["during-the-first-run-here", "during-the-race"])
def test_ctrl_c_stops_the_portfolio_and_leaves_no_process(portfolio: str, after: float,
                                                          ctrl_c_raises: None) -> None:
    timer = threading.Timer(after, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    started = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(three_cells(), portfolio, "auto", time_limit=60)
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 10
    if LINUX:
        assert child_processes() == []


@pytest.mark.skipif(not LINUX, reason="the kernel kills the children (PR_SET_PDEATHSIG)")
def test_children_die_with_a_killed_parent(tmp_path: Path) -> None:
    """The runner kills a run past its limit with SIGKILL: its children must go too."""
    pids = tmp_path / "children"
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from tests.solvers.test_portfolio import three_cells, waiting_backend
        from solvers import BACKENDS, load_backends, solve
        from solvers.portfolio.backend import PortfolioBackend, declaration
        from solvers.portfolio import Configuration, Race
        load_backends()
        for name in ("test-first", "test-second"):
            BACKENDS.add(name, waiting_backend(name, 60.0))
        class Slow(PortfolioBackend):
            name = "slow"
            configurations = (Configuration("test-first", "input/min"),
                              Configuration("test-second", "input/min"))
            capabilities = declaration(configurations)
        BACKENDS.add("slow", Slow)
        start = Race.start
        def recorded(self, *args):
            start(self, *args)
            with open({str(pids)!r}, "a") as file:
                file.write(f"{{self.children[-1].process.pid}}\\n")
        Race.start = recorded
        solve(three_cells(), "slow", "auto", time_limit=60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script],
                              env={**os.environ, CORES_VARIABLE: "2"})
    deadline = time.perf_counter() + 30
    while not (pids.exists() and len(pids.read_text().split()) == 2):
        assert time.perf_counter() < deadline and parent.poll() is None, "no race started"
        time.sleep(0.05)
    parent.kill()
    parent.wait()
    children = [int(pid) for pid in pids.read_text().split()]
    deadline = time.perf_counter() + 10
    while any(_alive(pid) for pid in children):
        assert time.perf_counter() < deadline, "a child outlived its killed parent"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def failing_backend(name: str) -> type[Backend[Any]]:
    """A backend whose search fails at once, as a solver bug would."""

    class Failing(waiting_backend(name, 0.0)):  # type: ignore[misc]
        def search(self, compiled: Any) -> Generator[tuple[int, ...], None, None]:
            raise SolverError(f"{name} broke")
            yield ()

    return Failing


def test_when_every_configuration_fails_the_run_is_an_error_naming_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CORES_VARIABLE, "2")
    first, second = failing_backend("test-broken"), failing_backend("test-broken-too")
    with BACKENDS.registered(first.name, first), BACKENDS.registered(second.name, second):

        class Broken(PortfolioBackend):
            name = "test-broken-portfolio"
            configurations = (Configuration(first.name, "input/min"),
                              Configuration(second.name, "input/min"))
            capabilities = declaration(configurations)

        with BACKENDS.registered(Broken.name, Broken):
            result = solve(three_cells(), Broken.name, "auto", time_limit=30)
    assert result.status is Status.ERROR
    assert "test-broken input/min: test-broken broke" in result.message
    assert "test-broken-too input/min: test-broken-too broke" in result.message
    assert [run.status for run in runs(result)] == ["error"] * 3  # first here, then both
    if LINUX:
        assert child_processes() == []


def test_the_nonogram_default_is_the_portfolio_and_names_what_answered() -> None:
    kind = PUZZLES.get("nonogram")
    instance = kind.load(NONOGRAM_DATA / "small" / "plus_3x3.non")
    model = get_viewpoint("nonogram", "regular").build(instance).model
    result = solve(model, "auto", "auto", time_limit=30)
    assert result.status is Status.SOLVED
    portfolio = result.portfolio
    assert portfolio.answered_by == "cpsat auto+symmetric"
    (run,) = portfolio.runs
    assert run.symmetric.answered_by == "symmetric solutions"
    assert result.statistics.branches == run.statistics.branches


def test_a_portfolio_s_answering_build_is_build_time_not_search_time() -> None:
    """The configuration that answered built the model inside the portfolio's search (in a
    child: the automata engine's first compile there took 4.5 s of a 5.5 s search): that
    build, not the build of a run that did not answer, is what the portfolio says was
    building (the solve loop moves it from solve_s to build_s)."""
    budget = Outcome("cpsat auto+symmetric", "auto+symmetric", "this process", 0.5,
                     "timeout", statistics={"build_s": 0.25, "solve_s": 0.25})
    answer = Outcome("automata auto", "auto", "child process", None, "solved", (1,),
                     statistics={"build_s": 4.5, "solve_s": 0.5})
    run = cast(Any, SimpleNamespace(outcomes=[budget, answer], answer=answer))
    assert PortfolioBackend().building_s(run) == pytest.approx(4.5)
    run.answer = None
    assert PortfolioBackend().building_s(run) == 0.0


def test_a_real_portfolio_run_counts_its_answer_s_build() -> None:
    plus = PUZZLES.get("nonogram").load(NONOGRAM_DATA / "small" / "plus_3x3.non")
    model = get_viewpoint("nonogram", "regular").build(plus).model
    result = solve(model, "auto", "auto")
    assert result.portfolio is not None and result.status is Status.SOLVED
    answered = [run.statistics for run in result.portfolio.runs
                if run.configuration == result.portfolio.answered_by
                and run.statistics is not None]
    assert answered and result.statistics.build_s >= answered[-1].build_s


def test_counting_runs_the_first_configuration_without_symmetric_search() -> None:
    kind = PUZZLES.get("nonogram")
    instance = kind.load(NONOGRAM_DATA / "small" / "six_solutions_3x3.non")
    model = get_viewpoint("nonogram", "regular").build(instance).model
    result = solve(model, "auto", "auto", max_solutions=0, time_limit=30)
    assert result.complete and result.statistics.solutions == 6
    assert result.portfolio.answered_by == "cpsat auto"


def test_the_declaration_refuses_what_a_configuration_cannot_run() -> None:
    """What either configuration's backend lacks, the portfolio lacks, with its reason."""
    integers = Model("integers")
    integers.int_var(0, 5, "x")
    with pytest.raises(UnsupportedCombination,
                       match=re.escape(f"'auto' lacks {INTEGER_VARIABLES}")):
        solve(integers, "auto", "auto")
    with pytest.raises(UnsupportedCombination,
                       match=re.escape(f"lacks {VALUE_RANKING}: its cpsat configuration: ")):
        solve(three_cells(), "auto", "input/random")


def test_the_cores_variable_must_be_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CORES_VARIABLE, "two")
    with pytest.raises(Exception, match=CORES_VARIABLE):
        cores_allowed()
    monkeypatch.setenv(CORES_VARIABLE, "1")
    assert cores_allowed() == 1
