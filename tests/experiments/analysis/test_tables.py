"""Course-style tables: medians, marks for what is not a figure, closing rows that compare
the same work, campaigns side by side, every format, a terminal's width."""

from __future__ import annotations

from dataclasses import replace

import pytest

from experiments.analysis.cell_runs import STATUS_MARKS
from experiments.analysis.table_format import MARKS, legend
from experiments.analysis.tables import (
    CampaignRuns,
    build_comparison,
    build_tables,
    format_campaigns,
    format_table,
)
from experiments.campaign.record import RunRecord
from puzzlelab.errors import OptionError
from solvers.record import Statistics, Status
from tests.experiments.records import record_of, task_of
from tests.facts import facts, states


def run(instance: str, viewpoint: str, *, solver: str = "cp", heuristic: str = "input/min",
        status: str = "solved", verdict: str = "correct", solve_s: float | None = 0.001,
        backtracks: int | None = 10, repeat: int = 0, time_limit: float = 10.0) -> RunRecord:
    """A stored run with the figures the tables read."""
    task = task_of(instance, viewpoint, solver, heuristic, repeat, time_limit=time_limit,
                   instance_position=int(instance[1:]))
    return replace(record_of(task, status, verdict, solve_s=solve_s, build_s=0.0,
                             backtracks=backtracks, branches=20, solutions=1,
                             peak_memory_mb=50.0), wall_s=0.01, cpu_s=0.01)


# classic times out on p2, channeled is refused on p3, boolean runs on cpsat only
GRID = [
    run("p1", "classic", solve_s=0.004, backtracks=4),
    run("p1", "channeled", solve_s=0.002, backtracks=1),
    run("p2", "classic", status="timeout", solve_s=10.0, backtracks=99999, verdict="unchecked"),
    run("p2", "channeled", solve_s=0.008, backtracks=3),
    run("p3", "classic", solve_s=0.001, backtracks=2),
    run("p3", "channeled", status="refused", solve_s=None, backtracks=None,
        verdict="unchecked"),
    *(run(p, "boolean", solver="cpsat", solve_s=0.003, backtracks=None)
      for p in ("p1", "p2", "p3")),
]

MARKDOWN = """\
### solver cp · heuristic input/min

| instance | classic time (ms) | classic backtracks | channeled time (ms) | channeled backtracks | boolean time (ms) | boolean backtracks |
|---|---:|---:|---:|---:|---:|---:|
| p1 | 4.0 | 4 | 2.0 | 1 | – | – |
| p2 | t/o | t/o | 8.0 | 3 | – | – |
| p3 | 1.0 | 2 | n/a | n/a | – | – |
| solved | 2/3 |  | 2/2 (1 n/a) |  | – |  |
| total (1 solved by all) | 4.0 | 4 | 2.0 | 1 | – | – |
| geo. mean (1 solved by all) | 4.0 | 4 | 2.0 | 1 | – | – |
| PAR-2 (2 instances, 1 n/a out) | 10002.0 |  | 5.0 |  | – |  |
| virtual best picks | 0 |  | 2 |  | – |  |
"""  # noqa: E501
"""The Markdown table is the product (table.md, pasted into notes): compared as written."""


def test_a_group_that_times_out_is_compared_on_the_instances_all_groups_solved() -> None:
    cp, _ = format_table(GRID, fmt="markdown").split("### solver cpsat")
    assert cp.startswith(MARKDOWN)
    # PAR-2 leaves p3 out (channeled refused it: no search failed): classic
    # (4 + 2 x 10,000) / 2 ms, channeled (2 + 8) / 2 ms; the virtual best takes channeled
    # on p1 and p2: (2 + 8) / 2 ms; channeled solved 2 of the 2 it did not refuse
    timed_out, virtual_best = cp[len(MARKDOWN):].strip().split("\n\n")[:2]
    assert timed_out.startswith("t/o") and states(timed_out, "1 cell", "10 s")
    assert states(virtual_best, "Virtual best", "2/2", "PAR-2 5.0", "total 2.0",
                  "1 solved by all")
    assert cp.count("Marks: ") == 1 and legend() in cp
    # asked for backtracks, cpsat (which counts none) shows n/r
    cells = dict(build_tables(GRID, metrics=("time", "backtracks"))[1].rows)
    assert cells["p1"] == ("–", "–", "–", "–", "3.0", "n/r")
    assert cells["total (3 solved by all)"] == ("–", "–", "–", "–", "9.0", "n/r")


def test_the_default_effort_column_is_each_solvers_own_statistic() -> None:
    """effort (the default): cp's table counts backtracks, cpsat's its branches, each
    column headed by what it counts; grouped by solver, the two side by side."""
    cp, cpsat = build_tables(GRID)
    assert [group.headers for group in cp.groups] == [("time (ms)", "backtracks")] * 3
    assert [group.headers for group in cpsat.groups] == [("time (ms)", "branches")] * 3
    assert dict(cpsat.rows)["p1"] == ("–", "–", "–", "–", "3.0", "20")
    assert dict(cpsat.rows)["total (3 solved by all)"][4:] == ("9.0", "60")
    by_solver = {table.title: table for table in build_tables(GRID, by="solver")}
    boolean = by_solver["heuristic input/min · viewpoint boolean"]
    assert [(g.label, g.headers) for g in boolean.groups] == [
        ("cp", ("time (ms)", "backtracks")), ("cpsat", ("time (ms)", "branches"))]
    assert dict(boolean.rows)["p2"] == ("–", "–", "3.0", "20")
    # a solver that reports neither shows n/r under the first
    silent = [replace(r, statistics=Statistics(**{**r.statistics.as_dict(), "branches": None}))
              for r in GRID]
    assert dict(build_tables(silent)[1].rows)["p1"][4:] == ("3.0", "n/r")


def test_every_status_without_an_answer_has_a_mark_and_every_mark_is_in_the_legend() -> None:
    unanswered = {s for s in Status if not s.finished}
    assert set(STATUS_MARKS) == unanswered
    assert set(STATUS_MARKS.values()) <= set(MARKS)
    assert len(set(MARKS)) == len(MARKS)  # no mark means two things
    assert all(f"{mark} {meaning}" in legend() for mark, meaning in MARKS.items())


def test_csv_has_one_column_per_group_and_metric_and_no_legend() -> None:
    lines = format_table(GRID, fmt="csv").splitlines()
    # the header and rows a user's script reads: compared whole
    assert lines[0] == ("table,instance,classic time (ms),classic backtracks,"
                        "channeled time (ms),channeled backtracks,boolean time (ms),"
                        "boolean backtracks")
    assert lines[2] == "solver cp · heuristic input/min,p2,t/o,t/o,8.0,3,–,–"
    assert "Marks" not in "".join(lines)


def test_text_has_group_headers_over_their_metrics_and_fits_a_width() -> None:
    text = format_table(GRID, fmt="text").splitlines()
    assert text[0] == "solver cp · heuristic input/min"
    assert text[2].split() == ["classic", "channeled", "boolean"]
    assert text[6].split() == ["p2", "t/o", "t/o", "8.0", "3", "–", "–"]
    narrow = format_table(GRID, fmt="text", width=80)
    assert max(len(line) for line in narrow.splitlines()) <= 80
    first_part = next(line for line in narrow.splitlines() if line.startswith("solver cp "))
    assert states(first_part, "heuristic input/min", "part 1 of 2")  # the title, and its part
    parts = narrow.split("(part 2 of 2)")[1].splitlines()
    assert parts[2].split() == ["boolean"]  # the group that did not fit, same rows
    assert parts[5].split() == ["p1", "–", "–"]
    assert format_table(GRID, fmt="text", width=None).count("part 1 of") == 0


def test_latex_uses_booktabs_spans_escapes_and_a_legend() -> None:
    rows = [run("p1", "classic_weak"), run("p2", "100%", backtracks=None)]
    latex = format_table(rows, fmt="latex")  # the product, pasted into a paper: as written
    assert r"\multicolumn{2}{c}{classic\_weak}" in latex
    assert r"\multicolumn{2}{c}{100\%}" in latex
    assert r"\cmidrule(lr){2-3} \cmidrule(lr){4-5}" in latex
    assert r"p2 & · & · & 1.0 & n/r \\" in latex  # classic_weak's p2: not stored yet
    assert latex.count(r"\midrule") == 2 and r"\toprule" in latex and r"\bottomrule" in latex
    assert latex.startswith("% solver cp · heuristic input/min\n\\noindent\\begin{tabular}{lrrrr}")
    assert r"\footnotesize Marks: t/o time limit" in latex


def test_partial_failures_wrong_answers_and_missing_figures() -> None:
    rows = [run("p1", "classic", repeat=0), run("p1", "classic", status="timeout", repeat=1),
            run("p2", "classic", status="error", verdict="wrong"),
            run("p3", "classic", solver="cpsat", backtracks=None),
            run("p4", "classic", status="memory-out"), run("p5", "classic", status="error",
                                                          verdict="unchecked")]
    [cp, cpsat] = build_tables(rows)
    cells = dict(cp.rows)
    assert cells["p1"] == ("t/o (1/2)", "t/o (1/2)")
    assert cells["p2"] == ("WRONG", "WRONG")
    assert cells["p3"] == ("·", "·")  # planned on cp (cp ran classic), not stored yet
    assert cells["p4"] == ("m/o", "m/o")
    assert cells["p5"] == ("err", "err")
    assert cells["solved"] == ("0/5", "")
    assert dict(cpsat.rows)["p3"] == ("1.0", "20")  # its effort: branches
    assert dict(cpsat.rows)["p1"] == ("·", "·")  # the grid plans it: not stored yet


def test_a_cell_with_some_of_its_planned_repeats_shows_how_many_are_stored() -> None:
    rows = [run("p1", "classic", repeat=0), run("p1", "classic", repeat=1),
            run("p1", "classic", repeat=2),
            run("p2", "classic", repeat=0),  # interrupted before repeats 1 and 2
            run("p3", "classic", repeat=0), run("p3", "classic", status="timeout", repeat=1)]
    cells = dict(build_tables(rows, repeats=3)[0].rows)
    assert cells["p1"] == ("1.0", "10")
    assert cells["p2"] == ("· (1/3)", "· (1/3)")
    assert cells["p3"] == ("t/o (1/2)", "t/o (1/2)")  # a failure shows as one
    assert cells["total (1 solved by all)"] == ("1.0", "10")
    assert cells["solved"] == ("1/3", "")
    assert cells["PAR-2 (3 instances)"] == ("·", "")  # p2's time is not known yet
    assert dict(build_tables(rows)[0].rows)["p2"] == ("1.0", "10")  # no plan known


def test_tables_of_a_campaign_with_runs_still_to_come_say_so_first() -> None:
    # first, in each format's own way (plain, a Markdown quote, a LaTeX comment): how many
    # of the planned runs are stored, and how to finish
    for fmt, before, after in (("text", "", ""), ("markdown", "> ", "###"), ("latex", "% ", "")):
        note, blank, rest = format_table(GRID, fmt=fmt, planned_runs=12).split("\n", 2)
        assert note.startswith(before) and blank == "" and rest.startswith(after), fmt
        assert states(note, "partial", "9 of 12", "run the spec again"), fmt
    assert "partial" not in format_table(GRID, fmt="csv", planned_runs=12)
    assert format_table(GRID, planned_runs=9) == format_table(GRID)


def test_reached_shows_the_counts_of_runs_stopped_by_a_limit_as_lower_bounds() -> None:
    rows = [run("p1", "classic", status="timeout", solve_s=10.0, backtracks=99999),
            run("p2", "classic", status="memory-out", backtracks=None),
            run("p3", "classic", status="error", backtracks=5),
            run("p4", "classic", status="timeout", backtracks=7, repeat=0),
            run("p4", "classic", backtracks=3, repeat=1),
            run("p5", "classic", backtracks=6),
            replace(run("p6", "classic", status="timeout"),  # killed by the pool: nothing
                    statistics=Statistics()),  # measured
            run("p7", "classic", status="timeout", backtracks=10, repeat=0),
            run("p7", "classic", status="timeout", backtracks=13, repeat=1)]
    [table] = build_tables(rows, metrics=["time", "backtracks", "branches"], reached=True)
    cells = dict(table.rows)
    assert cells["p6"] == ("t/o",) * 3  # not "n/r": the solver does count them
    assert cells["p7"][1] == "≥10"  # the lower median: a count some run reached
    assert cells["p1"] == ("t/o", "≥99999", "≥20")  # time stays the reason
    assert cells["p2"] == ("m/o", "n/r", "≥20")  # a count the solver does not report
    assert cells["p3"] == ("err", "err", "err")  # not a limit: nothing reached
    assert cells["p4"] == ("t/o (1/2)",) * 3  # a repeat finished: no bound
    assert cells["total (1 solved by all)"] == ("1.0", "6", "20")  # bounds stay out
    assert cells["solved"] == ("1/7", "", "")
    assert "& t/o & $\\geq$99999 & $\\geq$20 \\\\" in format_table(  # a LaTeX row, as written
        rows, metrics=["time", "backtracks", "branches"], fmt="latex", reached=True)


def test_group_by_heuristic_gives_a_table_per_viewpoint_and_solver() -> None:
    rows = [run("p1", "classic", heuristic="input/min"),
            run("p1", "classic", heuristic="first-fail/min", backtracks=2),
            run("p1", "channeled", heuristic="input/min", backtracks=1)]
    tables = build_tables(rows, by="heuristic", metrics=["backtracks"])
    assert [t.title for t in tables] == ["solver cp · viewpoint classic",
                                         "solver cp · viewpoint channeled"]
    assert [g.label for g in tables[0].groups] == ["input/min", "first-fail/min"]
    assert dict(tables[0].rows)["p1"] == ("10", "2")
    assert dict(tables[1].rows)["p1"] == ("1", "–")  # channeled ran input/min alone
    assert not any(label.startswith("PAR-2") for label in dict(tables[0].rows))  # no time


def test_unsatisfiable_against_a_checked_solution_of_another_run_is_wrong() -> None:
    rows = [run("p1", "classic", status="unsatisfiable", verdict="unchecked"),
            run("p1", "channeled", solver="cpsat"),
            run("p2", "classic", status="unsatisfiable", verdict="unchecked"),
            run("p2", "channeled", solver="cpsat", status="unsatisfiable",
                verdict="unchecked")]
    cp = dict(build_tables(rows)[0].rows)
    assert cp["p1"] == ("WRONG", "WRONG", "–", "–")  # cpsat solved it, as channeled
    assert cp["p2"][:2] == ("1.0", "10")  # nobody found a solution: unsatisfiable stands


def in_file(record: RunRecord, instance_file: str) -> RunRecord:
    return replace(record, identity=replace(record.identity, instance_file=instance_file))


def test_labels_a_store_gave_to_several_files_are_told_apart() -> None:
    rows = [in_file(run("p1", "classic"), "a/p.txt"),
            in_file(run("p1", "classic", backtracks=3), "b/p.txt")]
    cells = dict(build_tables(rows)[0].rows)
    assert cells["a/p.txt:p1"] == ("1.0", "10") and cells["b/p.txt:p1"] == ("1.0", "3")


def test_campaigns_side_by_side_match_instances_and_divide_by_the_first() -> None:
    before = [run("p1", "classic", solve_s=0.004, backtracks=8),
              run("p2", "classic", solve_s=0.010, backtracks=0),
              run("p3", "classic", status="timeout", solve_s=10.0)]
    after = [run("p1", "classic", solve_s=0.002, backtracks=2),
             run("p2", "classic", solve_s=0.005, backtracks=0),
             run("p4", "classic", solve_s=0.001, backtracks=1)]
    [table] = build_comparison([CampaignRuns("before", before), CampaignRuns("after", after)])
    assert [(g.label, g.headers) for g in table.groups] == [
        ("before: classic", ("time (ms)", "backtracks")),
        ("after: classic", ("time (ms)", "time ratio", "backtracks", "backtracks ratio"))]
    cells = dict(table.rows)
    assert cells["p1"] == ("4.0", "8", "2.0", "0.50", "2", "0.25")
    assert cells["p2"] == ("10.0", "0", "5.0", "0.50", "0", "1.00")
    assert cells["p3"] == ("t/o", "t/o", "–", "", "–", "")  # p3 is not in "after"
    assert cells["p4"] == ("–", "–", "1.0", "", "1", "")
    assert cells["total (2 solved by all)"] == ("14.0", "8", "7.0", "0.50", "2", "0.25")
    assert cells["solved"] == ("2/3", "", "3/3", "", "", "")
    text = format_campaigns([CampaignRuns("before", before), CampaignRuns("after", after)],
                            fmt="markdown")
    assert "| instance | before: classic time (ms) | before: classic backtracks | " \
           "after: classic time (ms) | after: classic time ratio |" in text  # Markdown
    [ratio] = [line for line in text.splitlines() if line.startswith("Ratio")]
    assert states(ratio, "÷", "first campaign's (before)")  # the campaign divided by


@pytest.mark.parametrize(("arguments", "stated"), [
    ({"metrics": ["speed"]}, ("metric", "'speed'", "time", "build", "backtracks")),
    ({"by": "colour"}, ("--by", "'colour'", "viewpoint", "heuristic", "solver")),
    ({"fmt": "html"}, ("format", "'html'", "text", "markdown", "latex", "csv")),
])
def test_bad_choices_list_the_valid_ones(arguments, stated) -> None:
    with pytest.raises(OptionError, match=facts(*stated)):
        format_table(GRID, **arguments)
