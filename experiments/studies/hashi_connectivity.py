"""Hashi connectivity: every figure of ``results/hashi-connectivity/README.md`` made again
from its committed ``runs.csv`` (``--from``), so that none is stated by hand: the solved
table in the README's layout and each prose figure as a labelled line; ``--output FOLDER``
also writes ``FOLDER/improvements.md`` (time without / with improvements per board).
Solved: status ``solved``; solved both ways: the same board, viewpoint, strategy, solver
and order solved with ``improve=none`` and with ``improve=all``."""

from __future__ import annotations

import argparse
import csv
import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from experiments.studies.kit import Column, Row, table, text

VIEWPOINTS = {"bridges": "bri", "directions": "dir", "channeled": "cha"}
CONNECTS = ("after-search", "propagator", "lazy", "flow")
SOLVERS = ("cp", "cpsat", "choco", "python-constraint")
OWN, FIRST_FAIL = "auto", "first-fail/min"
# The README's table: the compiled solvers under their own order, then all under first-fail;
# improvements.md: each solver's own order (python-constraint's first-fail) first.
README_ORDERS = [(s, OWN) for s in SOLVERS[:3]] + [(s, FIRST_FAIL) for s in SOLVERS]
COURSE_ORDERS = [*README_ORDERS[:3], (SOLVERS[3], FIRST_FAIL), *README_ORDERS[3:6]]
KU_LEUVEN_SLOW = ("puzzle_1", "puzzle_2", "puzzle_5")  # where the README names the propagator
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")
Figure = tuple[str, str]


def read_runs(path: Path) -> list[Row]:
    """The rows of ``runs.csv`` in run order, each with its ``connect`` and ``improve``
    options as columns of their own (the tables group by them)."""
    with path.open(newline="", encoding="utf-8") as lines:
        rows = sorted(csv.DictReader(lines), key=lambda row: int(row["position"]))
    return [row | json.loads(row["options"]) for row in rows]


def solved(row: Row) -> bool:
    """Whether the run ended with a solution (every one the checker accepted)."""
    return row["status"] == "solved"


def ms(row: Row) -> float:
    """The run's search time in milliseconds."""
    return float(row["solve_s"]) * 1000


def number(row: Row, column: str) -> int:
    """An integer statistic, 0 when the solver did not report it."""
    return int(row[column] or 0)


def pick(rows: Sequence[Row], **match: str) -> list[Row]:
    """The rows whose columns hold the given values (``improve="none"``, ...)."""
    return [row for row in rows if all(row[key] == value for key, value in match.items())]


def boards(rows: Sequence[Row]) -> list[str]:
    """The boards in the campaign's order."""
    return list(dict.fromkeys(row["instance"] for row in rows))


def key(row: Row, *also: str) -> tuple[str, ...]:
    """What a run is of, bar the improvements (which ``also`` may add)."""
    return tuple(row[c] for c in ("solver", "heuristic", "instance", "viewpoint_name",
                                  "connect", "repeat", *also))


def both_ways(rows: Sequence[Row]) -> list[tuple[Row, Row]]:
    """(without, with) improvements for each combination solved both ways."""
    improved = {key(row): row for row in rows if row["improve"] == "all" and solved(row)}
    return [(row, improved[key(row)]) for row in rows
            if row["improve"] == "none" and solved(row) and key(row) in improved]


def sums(pairs: Sequence[tuple[Row, Row]], column: str, between: str) -> str:
    """A column's total without and with improvements over ``pairs``."""
    return between.join(f"{sum(number(pair[i], column) for pair in pairs):,}" for i in (0, 1))


def solved_table(rows: Sequence[Row]) -> str:
    """The README's table: boards solved without -> with improvements, per solver and
    order (rows) and ``connect`` strategy (columns)."""
    def cell(pair: tuple[str, str], connect: str) -> str:
        return " → ".join(str(sum(map(solved, pick(rows, solver=pair[0], heuristic=pair[1],
                                                   connect=connect, improve=improve))))
                          for improve in ("none", "all"))

    columns: list[Column[tuple[str, str]]] = [
        text("solver · order", " · ".join),
        *(Column(connect, functools.partial(cell, connect=connect)) for connect in CONNECTS)]
    return "\n".join(table(README_ORDERS, columns)) + "\n"


def course_time(row: Row) -> str:
    """A cell's time as improvements.md writes it: whole ms once it rounds to 100 ms or
    more, else one decimal; ``t/o`` when not solved."""
    return f"{ms(row):.{0 if round(ms(row)) >= 100 else 1}f}" if solved(row) else "t/o"


COURSE_HEAD = """# hashi-connectivity: time without / with improvements, per board

The course's layout, made from [`runs.csv`](runs.csv): one table per solver and order,
one row per board, a column per viewpoint (`bri` bridges, `dir` directions, `cha`
channeled) and `connect` strategy; each cell is the solve time in ms without / with
`improve=all`. `t/o`: not solved within the 1 s limit (the networkx propagator on `cp`
overruns its limit and is killed past its grace, also `t/o`).
"""


def improvements(rows: Sequence[Row]) -> str:
    """improvements.md: the course's time without / with improvements, per board."""
    runs = {key(row, "improve"): row for row in rows}

    def cell(combination: tuple[str, str, str, str], board: str) -> str:
        solver, order, view, connect = combination
        return " / ".join(course_time(runs[solver, order, board, view, connect, "0", improve])
                          for improve in ("none", "all"))

    parts = [COURSE_HEAD]
    for solver, order in COURSE_ORDERS:
        columns: list[Column[str]] = [text("board", str), *(
            Column(f"{VIEWPOINTS[view]}·{connect}",
                   functools.partial(cell, (solver, order, view, connect)))
            for view in VIEWPOINTS for connect in CONNECTS)]
        parts += [f"\n### {solver} · {order}\n\n", "Solve time in ms without / with "
                  "improvements (`improve=all`); t/o: not solved in 1 s.\n\n",
                  *(line + "\n" for line in table(boards(rows), columns))]
    return "".join(parts)


def campaign_figures(rows: Sequence[Row]) -> list[Figure]:
    """What was run, the table's caption, and whether every solution holds."""
    minutes = sum(float(row["wall_s"]) for row in rows) / 60
    orders, views = {key(r)[:2] for r in rows}, {r["viewpoint"] for r in rows}
    late = [ms(row) / 1000 for row in rows if solved(row) and ms(row) > 1000]
    cp_own = pick(rows, solver="cp", heuristic=OWN, connect="propagator")
    within = [sum(solved(r) and ms(r) <= 1000 for r in pick(cp_own, improve=i))
              for i in ("none", "all")]
    n = len(boards(rows))
    return [("runs", f"{n} x {len(views)} x {len(orders)} = {len(rows):,} runs"),
            ("the runs' wall-clock time in all, one after another", f"{minutes:.1f} min"),
            ("limits per run", f"{float(rows[0]['time_limit']):g} s and "
                               f"{int(rows[0]['memory_limit_mb']):,} MB per run"),
            ("cells of the table", f"{n * 3} ({n} boards x 3 viewpoints)"),
            ("solved runs whose search ended past 1 s", WORDS[len(late)]),
            ("their search times", f"{min(late):.2f}-{max(late):.2f} s" if late else "none"),
            ("cp · auto propagator, searches within 1 s only", " → ".join(map(str, within))),
            ("runs solved", f"{sum(map(solved, rows)):,}"),
            ("solved runs the checker accepted", f"{len(pick(rows, verdict='correct')):,}"),
            ("timeouts", f"{len(pick(rows, status='timeout')):,}")]


def strategy_figures(rows: Sequence[Row]) -> list[Figure]:
    """Which strategy wins where: lazy's totals, the hardest board, the viewpoints' spread."""
    def total(solver: str, connect: str, view: str, improve: str = "none") -> float:
        return sum(ms(row) for row in pick(rows, solver=solver, heuristic=OWN, improve=improve,
                                           connect=connect, viewpoint_name=view) if solved(row))
    on_it = min((pick(rows, instance=b) for b in boards(rows)), key=lambda r: sum(map(solved, r)))
    fastest = min(filter(solved, on_it), key=ms)

    def on_common(solver: str, connect: str) -> tuple[int, list[float]]:
        """The boards every viewpoint solves (own order, improve=none), and each
        viewpoint's time over them: totals over different boards do not compare."""
        times = [{row["instance"]: ms(row) for row in pick(
            rows, solver=solver, heuristic=OWN, improve="none", connect=connect,
            viewpoint_name=view) if solved(row)} for view in VIEWPOINTS]
        common = set.intersection(*map(set, times))
        return len(common), [sum(by[board] for board in common) for by in times]

    ratios = []  # directions' and channeled's time over bridges'
    for connect in ("after-search", "lazy"):
        bridges, *others = on_common("cp", connect)[1]
        ratios += [spent / bridges for spent in others]
    lazy_cp = sum(map(solved, pick(rows, viewpoint="bridges-lazy", solver="cp", heuristic=OWN)))
    figures = [("bridges-lazy on cp · auto, boards solved", f"all {lazy_cp} boards"),
               *[(f"bridges-lazy on cp · auto, improve={i}, ms in all",
                  f"{total('cp', 'lazy', 'bridges', i):,.0f} ms") for i in ("none", "all")],
               (f"hardest board ({on_it[0]['instance']}): its runs solved",
                f"{sum(map(solved, on_it))} of its {len(on_it)} runs"),
               (f"its fastest run: {fastest['viewpoint']} on {fastest['solver']} · "
                f"{fastest['heuristic']}", f"{ms(fastest):.0f} ms"),
               ("cp · auto, directions' and channeled's time over bridges' on the boards "
                "all three solve (after-search, lazy)",
                f"{min(ratios):.0f}-{max(ratios):.0f} times")]
    for solver in SOLVERS[:3]:
        boards_solved, spent = on_common(solver, "lazy")
        figures.append((f"lazy on {solver} · auto, ms over the boards all three solve: "
                        "bridges, directions, channeled",
                        "{} ms against {} and {} ms on {}".format(
                            *(f"{t:,.0f}" for t in spent), boards_solved)))
    flow = [row for row in pick(rows, connect="flow") if row["solver"] in ("cp", "choco")]
    out_of = len(boards(rows)) * len(VIEWPOINTS)
    solved_flow = ["-".join(dict.fromkeys(str(sum(map(solved, pick(
        flow, solver=s, heuristic=OWN, improve=i)))) for i in ("none", "all"))) + f"/{out_of}"
        for s in ("cp", "choco")]
    thrash = sorted(number(row, "backtracks") for row in flow if not solved(row))
    return [*figures, ("flow on cp · auto, boards solved", f"({solved_flow[0]})"),
            ("flow on choco · auto, boards solved", solved_flow[1]),
            ("flow timeouts on cp and choco (both orders), backtracks per timeout",
             f"{thrash[0]:,} to {thrash[-1]:,}")]


def rejection_figures(rows: Sequence[Row]) -> list[Figure]:
    """after-search: the disconnected solutions the solver rejected."""
    after = pick(rows, connect="after-search")
    done = {i: [number(r, "rejected") for r in pick(after, improve=i) if solved(r)]
            for i in ("none", "all")}
    return [*((f"rejected over the solved runs, improve={i}", said.format(sum(d), len(d)))
              for (i, d), said in zip(done.items(), ("{:,} over the {} solved", "{:,} over {}"))),
            ("improve=none: solved runs rejecting none",
             f"{done['none'].count(0)} of them rejecting none"),
            ("improve=none: most on one board", f"at most {max(done['none'])}"),
            ("rejected over all runs, improve=none and all", " and ".join(
                f"{sum(number(r, 'rejected') for r in pick(after, improve=i)):,}"
                for i in ("none", "all"))),
            *((f"rejected on {solver}, runs solved both ways, without to with",
               sums([p for p in both_ways(after) if p[0]["solver"] == solver], "rejected",
                    " to ")) for solver in SOLVERS)]


def lazy_figures(rows: Sequence[Row]) -> list[Figure]:
    """lazy: the rounds of cuts its solved runs needed, in the README's buckets and words."""
    figures = []
    for improve, names in (("none", ("need no cut", "one round", "two")),
                           ("all", ("none", "one"))):
        done = [row for row in pick(rows, connect="lazy", improve=improve) if solved(row)]
        rounds = [number(row, "lazy_rounds") for row in done]
        many = [r for r in rounds if r >= len(names)]
        if improve == "none":  # the README counts only these
            figures.append(("lazy, improve=none: solved runs", f"{len(done)} solved runs"))
        figures += [(f"lazy, improve={improve}: runs, rounds = {n}",
                     f"{rounds.count(n)} {name}") for n, name in enumerate(names)] + [
                    (f"lazy, improve={improve}: runs, rounds >= {len(names)}",
                     f"{len(many)} {WORDS[len(names)]} to {WORDS[max(many)]}"),
                    (f"lazy, improve={improve}: cuts in all",
                     f"{sum(number(r, 'lazy_cuts') for r in done):,} cuts")]
    return figures


def backtrack_figures(rows: Sequence[Row]) -> list[Figure]:
    """The solver's own backtracks without -> with improvements, runs solved both ways."""
    pairs = both_ways(rows)
    return [(f"backtracks on {solver}, {connect}, solved both ways",
             sums([(a, b) for a, b in pairs if a["solver"] == solver and a["connect"] == connect],
                  "backtracks", " → "))
            for solver in ("cp", "choco", "python-constraint")
            for connect in ("after-search", "lazy", "propagator")]


def propagator_figures(rows: Sequence[Row]) -> list[Figure]:
    """The networkx propagator on cp: slow where lazy is quick, and killed past its grace."""
    def span(connect: str) -> list[float]:
        return sorted(ms(row) for row in pick(rows, solver="cp", heuristic=OWN,
                                              connect=connect, improve="none")
                      if row["instance"] in KU_LEUVEN_SLOW and solved(row))
    slow, quick = span("propagator"), span("lazy")
    propagator = pick(rows, solver="cp", connect="propagator")
    killed = [row for row in rows if row["message"].startswith("killed")]
    least = min((float(row["wall_s"]) for row in killed), default=None)
    return [("cp · auto propagator on KU Leuven 1, 2, 5, all viewpoints",
             f"{slow[0] / 1000:.2f}-{slow[-1] / 1000:.2f} s"),
            ("cp · auto lazy on the same", f"{quick[0]:.1f}-{quick[-1]:.0f} ms"),
            ("propagator runs on cp killed past the grace",
             f"{sum(r['message'].startswith('killed') for r in propagator)} of its "
             f"{len(propagator)} runs"),
            ("their wall clock", "none" if least is None else
             "more than 1.5 s" if least > 1.5 else f"{least:.2f} s"),
            ("runs.csv messages beginning killed", f"{len(killed)} messages beginning `killed`")]


SECTIONS: list[tuple[str, Callable[[Sequence[Row]], list[Figure]]]] = [
    ("What was run, the table's caption, every solution correct", campaign_figures),
    ("Which strategy wins where; flow", strategy_figures),
    ("after-search: rejected disconnected solutions", rejection_figures),
    ("lazy: rounds of cuts", lazy_figures),
    ("What the improvements save", backtrack_figures),
    ("The networkx propagator on cp", propagator_figures)]


def figures(rows: Sequence[Row]) -> list[Figure]:
    """Every labelled prose figure of the README, as it writes it."""
    return [figure for _, make in SECTIONS for figure in make(rows)]


def report(rows: Sequence[Row], source: Path) -> str:
    """The solved table and every prose figure, as markdown."""
    parts = [f"# hashi-connectivity: the README's figures, from `{source}`\n\nBoards solved "
             "under the 1 s search limit, without → with `improve=all`:\n\n", solved_table(rows)]
    for title, make in SECTIONS:
        parts.append(f"\n## {title}\n\n")
        parts += [f"- {label}: {value}\n" for label, value in make(rows)]
    return "".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the README's figures from ``--from``; with ``--output`` write improvements.md."""
    parser = argparse.ArgumentParser(description="every figure of the hashi-connectivity "
                                     "README and its improvements.md, from its runs.csv")
    parser.add_argument("--from", dest="source", type=Path, required=True, help="runs.csv")
    parser.add_argument("--output", type=Path, help="folder to write improvements.md into")
    arguments = parser.parse_args(argv)
    if not arguments.source.is_file():
        parser.error(f"no such file: {arguments.source}")
    rows = read_runs(arguments.source)
    print(report(rows, arguments.source), end="")
    if arguments.output is not None:
        arguments.output.mkdir(parents=True, exist_ok=True)
        (arguments.output / "improvements.md").write_text(improvements(rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    from experiments.studies.kit import run_main

    run_main(main)
