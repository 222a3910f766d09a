"""A direct CP-SAT script for Hashiwokakero with networkx lazy cuts, as a user would write it
without PuzzleLab, tuned as such a user would tune it (the Hashi benchmark's other side):
reads Coelho ``.has`` files, prints each solution as ``r1 c1 r2 c2 k`` lines after
``== FILE``.

Its defaults are the fastest one-worker settings measured (results/hashi-default): one
CP-SAT worker, each lazy round hinted with the answer the round before stopped on, no
presolve, no linear relaxation and no clause inprocessing (each round is a short search
that all three slow down). The options undo each: ``--workers N``, ``--no-hint``,
``--presolve``, ``--lp``, ``--inprocessing``; ``--processes N`` solves the files in N
processes at once (0: one per core).
"""

import argparse
import multiprocessing
import os

import networkx as nx
from ortools.sat.python import cp_model


def solve(grid: list[list[int]], settings: argparse.Namespace
          ) -> list[tuple[int, int, int, int, int]]:
    """The bridges of one puzzle: a count per pair of islands in sight, numbers summed,
    no crossing, and a cut for each group a solution leaves apart, until connected."""
    islands = [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v]
    pairs = []
    for r, c in islands:
        for dr, dc in ((0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            while rr < len(grid) and cc < len(grid[0]) and not grid[rr][cc]:
                rr, cc = rr + dr, cc + dc
            if rr < len(grid) and cc < len(grid[0]):
                pairs.append(((r, c), (rr, cc)))
    model = cp_model.CpModel()
    x = [model.new_int_var(0, min(2, grid[a[0]][a[1]], grid[b[0]][b[1]]), "") for a, b in pairs]
    used = [model.new_bool_var("") for _ in pairs]
    for count, on in zip(x, used):
        model.add(count >= 1).only_enforce_if(on)
        model.add(count == 0).only_enforce_if(~on)
    around: dict[tuple[int, int], list[cp_model.IntVar]] = {island: [] for island in islands}
    under: dict[tuple[int, int], int] = {}  # the cells a vertical pair passes over
    for i, (a, b) in enumerate(pairs):
        around[a].append(x[i])
        around[b].append(x[i])
        if a[1] == b[1]:
            under.update({(r, a[1]): i for r in range(a[0] + 1, b[0])})
    for (r, c), counts in around.items():
        model.add(sum(counts) == grid[r][c])
    for i, (a, b) in enumerate(pairs):  # a horizontal and a vertical pair do not cross
        for j in {under[a[0], c] for c in range(a[1] + 1, b[1]) if (a[0], c) in under}:
            model.add_bool_or([~used[i], ~used[j]])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = settings.workers
    solver.parameters.cp_model_presolve = settings.presolve
    if not settings.lp:
        solver.parameters.linearization_level = 0
    solver.parameters.use_sat_inprocessing = settings.inprocessing
    while True:
        if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SystemExit("no solution")
        graph = nx.Graph()
        graph.add_nodes_from(islands)
        graph.add_edges_from(p for p, on in zip(pairs, used) if solver.value(on))
        groups = list(nx.connected_components(graph))
        if len(groups) == 1:
            return [(*a, *b, solver.value(v)) for (a, b), v in zip(pairs, x) if solver.value(v)]
        for group in groups:  # some bridge leaves each group
            model.add_bool_or([on for (a, b), on in zip(pairs, used)
                               if (a in group) != (b in group)])
        if settings.hint:  # start the next round from where this one stopped
            model.clear_hints()
            for variable in x:
                model.add_hint(variable, solver.value(variable))


def answer(path: str, settings: argparse.Namespace) -> str:
    """The solution of the puzzle in ``path``, as the lines the script prints."""
    with open(path, encoding="utf-8") as lines:
        rows, _, _ = map(int, lines.readline().split())
        grid = [list(map(int, lines.readline().split())) for _ in range(rows)]
    return "".join(f"{r1 + 1} {c1 + 1} {r2 + 1} {c2 + 1} {k}\n"
                   for r1, c1, r2, c2, k in solve(grid, settings))


def main() -> None:
    """Solve every file named, in order, printing each answer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT workers (0: its own)")
    parser.add_argument("--no-hint", dest="hint", action="store_false")
    parser.add_argument("--presolve", action="store_true")
    parser.add_argument("--lp", action="store_true", help="keep the linear relaxation")
    parser.add_argument("--inprocessing", action="store_true")
    parser.add_argument("--processes", type=int, default=1, help="0: one per core")
    settings = parser.parse_args()
    jobs = [(path, settings) for path in settings.files]
    processes = settings.processes or os.cpu_count() or 1
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            answers = pool.starmap(answer, jobs, chunksize=1)
    else:
        answers = [answer(*job) for job in jobs]
    for path, lines in zip(settings.files, answers):
        print(f"== {path}\n{lines}", end="")


if __name__ == "__main__":
    main()
