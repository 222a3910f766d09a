"""Course-style tables: medians, failures shown as such, closing rows, every format."""

from __future__ import annotations

import pytest

from experiments.tables import build_tables, format_table
from puzzlelab.errors import OptionError


def run(instance: str, viewpoint: str, *, solver: str = "cp", heuristic: str = "input/min",
        status: str = "solved", verdict: str = "correct", solve_s: float | None = 0.001,
        backtracks: int | None = 10, repeat: int = 0) -> dict:
    """A stored run with the fields the tables read."""
    return {"instance": instance, "instance_position": int(instance[1:]), "viewpoint": viewpoint,
            "solver": solver, "heuristic": heuristic, "repeat": repeat, "status": status,
            "verdict": verdict, "solve_s": solve_s, "build_s": 0.0, "wall_s": 0.01,
            "cpu_s": 0.01, "backtracks": backtracks, "branches": 20, "conflicts": None,
            "propagations": None, "solutions": 1, "peak_memory_mb": 50.0}


STORE = [
    run("p1", "classic", solve_s=0.001, backtracks=4, repeat=0),
    run("p1", "classic", solve_s=0.003, backtracks=4, repeat=1),
    run("p1", "classic", solve_s=0.100, backtracks=4, repeat=2),
    run("p1", "channeled", solve_s=0.002, backtracks=1),
    run("p2", "classic", status="timeout", solve_s=10.0, backtracks=99999),
    run("p2", "channeled", solve_s=0.008, backtracks=3),
]

MARKDOWN = """\
### solver cp · heuristic input/min

| instance | classic time (ms) | classic backtracks | channeled time (ms) | channeled backtracks |
|---|---:|---:|---:|---:|
| p1 | 3.0 | 4 | 2.0 | 1 |
| p2 | timeout | timeout | 8.0 | 3 |
| total | 3.0 | 4 | 10.0 | 4 |
| shifted geo. mean | 3.0 | 4 | 4.2 | 1.8 |
| solved | 1/2 |  | 2/2 |  |
"""


def test_markdown_layout_medians_timeouts_and_closing_rows() -> None:
    assert format_table(STORE, fmt="markdown") == MARKDOWN


def test_csv_has_one_column_per_group_and_metric() -> None:
    lines = format_table(STORE, fmt="csv").splitlines()
    assert lines[0] == ("table,instance,classic time (ms),classic backtracks,"
                        "channeled time (ms),channeled backtracks")
    assert lines[2] == "solver cp · heuristic input/min,p2,timeout,timeout,8.0,3"
    assert lines[-1] == "solver cp · heuristic input/min,solved,1/2,,2/2,"


def test_text_has_group_headers_over_their_metrics() -> None:
    text = format_table(STORE, fmt="text").splitlines()
    assert text[0] == "solver cp · heuristic input/min"
    assert text[2].split() == ["classic", "channeled"]
    assert text[3].split() == ["instance", "time", "(ms)", "backtracks", "time", "(ms)",
                               "backtracks"]
    assert text[6].split() == ["p2", "timeout", "timeout", "8.0", "3"]


def test_latex_uses_booktabs_spans_and_escapes() -> None:
    rows = [run("p1", "classic_weak"), run("p2", "100%", backtracks=None)]
    latex = format_table(rows, fmt="latex")
    assert r"\multicolumn{2}{c}{classic\_weak}" in latex
    assert r"\multicolumn{2}{c}{100\%}" in latex
    assert r"\cmidrule(lr){2-3} \cmidrule(lr){4-5}" in latex
    assert r"p2 & · & · & 1.0 & – \\" in latex
    assert latex.count(r"\midrule") == 2 and r"\toprule" in latex and r"\bottomrule" in latex
    assert latex.startswith("% solver cp · heuristic input/min\n\\begin{tabular}{lrrrr}")


def test_partial_failures_wrong_answers_and_missing_figures() -> None:
    rows = [run("p1", "classic", repeat=0), run("p1", "classic", status="timeout", repeat=1),
            run("p2", "classic", status="error", verdict="wrong"),
            run("p3", "classic", solver="cpsat", backtracks=None),
            run("p4", "classic", status="memory-out")]
    [cp, cpsat] = build_tables(rows)
    cells = {label: cells for label, cells in cp.rows}
    assert cells["p1"] == ("timeout (1/2)", "timeout (1/2)")
    assert cells["p2"] == ("wrong", "wrong")
    assert cells["p3"] == ("·", "·")  # no cp run of p3 stored
    assert cells["p4"] == ("mem-out", "mem-out")
    assert cells["solved"] == ("0/4", "")
    assert dict(cpsat.rows)["p3"] == ("1.0", "–")


def test_a_cell_with_some_of_its_planned_repeats_shows_how_many_are_stored() -> None:
    rows = [run("p1", "classic", repeat=0), run("p1", "classic", repeat=1),
            run("p1", "classic", repeat=2),
            run("p2", "classic", repeat=0),  # interrupted before repeats 1 and 2
            run("p3", "classic", repeat=0), run("p3", "classic", status="timeout", repeat=1)]
    cells = dict(build_tables(rows, repeats=3)[0].rows)
    assert cells["p1"] == ("1.0", "10")
    assert cells["p2"] == ("· (1/3)", "· (1/3)")
    assert cells["p3"] == ("timeout (1/2)", "timeout (1/2)")  # a failure shows as one
    assert cells["total"] == ("1.0", "10")
    assert cells["solved"] == ("1/3", "")
    assert dict(build_tables(rows)[0].rows)["p2"] == ("1.0", "10")  # no plan known


def test_tables_of_a_campaign_with_runs_still_to_come_say_so_first() -> None:
    note = "partial: 6 of 8 planned runs stored; run the spec again to finish"
    assert format_table(STORE, planned_runs=8).startswith(note + "\n\n")
    assert format_table(STORE, fmt="markdown", planned_runs=8).startswith(f"> {note}\n\n###")
    assert format_table(STORE, fmt="latex", planned_runs=8).startswith(f"% {note}\n\n")
    assert "partial" not in format_table(STORE, fmt="csv", planned_runs=8)
    assert format_table(STORE, planned_runs=6) == format_table(STORE)


def test_reached_shows_the_counts_of_runs_stopped_by_a_limit_as_lower_bounds() -> None:
    rows = [run("p1", "classic", status="timeout", solve_s=10.0, backtracks=99999),
            run("p2", "classic", status="memory-out", backtracks=None),
            run("p3", "classic", status="error", backtracks=5),
            run("p4", "classic", status="timeout", backtracks=7, repeat=0),
            run("p4", "classic", backtracks=3, repeat=1),
            run("p5", "classic", backtracks=6),
            run("p6", "classic", status="timeout", solve_s=None, backtracks=None)
            | {"branches": None},  # killed by the pool: nothing measured
            run("p7", "classic", status="timeout", backtracks=10, repeat=0),
            run("p7", "classic", status="timeout", backtracks=13, repeat=1)]
    [table] = build_tables(rows, metrics=["time", "backtracks", "branches"], reached=True)
    cells = dict(table.rows)
    assert cells["p6"] == ("timeout",) * 3  # not "–": the solver does count them
    assert cells["p7"][1] == "≥10"  # the lower median: a count some run reached
    assert cells["p1"] == ("timeout", "≥99999", "≥20")  # time stays the reason
    assert cells["p2"] == ("mem-out", "–", "≥20")  # a count the solver does not report
    assert cells["p3"] == ("error", "error", "error")  # not a limit: nothing reached
    assert cells["p4"] == ("timeout (1/2)",) * 3  # a repeat finished: no bound
    assert cells["total"] == ("1.0", "6", "20")  # bounds stay out of the closing rows
    assert cells["solved"] == ("1/7", "", "")
    assert "& timeout & $\\geq$99999 & $\\geq$20 \\\\" in format_table(
        rows, metrics=["time", "backtracks", "branches"], fmt="latex", reached=True)


def test_group_by_heuristic_gives_a_table_per_viewpoint_and_solver() -> None:
    rows = [run("p1", "classic", heuristic="input/min"),
            run("p1", "classic", heuristic="first-fail/min", backtracks=2),
            run("p1", "channeled", heuristic="input/min", backtracks=1)]
    tables = build_tables(rows, by="heuristic", metrics=["backtracks"])
    assert [t.title for t in tables] == ["solver cp · viewpoint classic",
                                         "solver cp · viewpoint channeled"]
    assert tables[0].groups == ("input/min", "first-fail/min")
    assert dict(tables[0].rows)["p1"] == ("10", "2")


@pytest.mark.parametrize(("arguments", "message"), [
    ({"metrics": ["speed"]}, "unknown metric 'speed'; valid: time, build"),
    ({"by": "colour"}, "unknown --by 'colour'; valid: viewpoint, heuristic, solver"),
    ({"fmt": "html"}, "unknown format 'html'; valid: text, markdown, latex, csv"),
])
def test_bad_choices_list_the_valid_ones(arguments, message) -> None:
    with pytest.raises(OptionError, match=message):
        format_table(STORE, **arguments)
