"""A direct CP-SAT script for Hashiwokakero with networkx lazy cuts and no improvements, as
a user would write it without PuzzleLab (the Hashi benchmark's other side): reads Coelho
``.has`` files, prints each solution as ``r1 c1 r2 c2 k`` lines after ``== FILE``."""

import sys

import networkx as nx
from ortools.sat.python import cp_model


def solve(grid: list[list[int]]) -> list[tuple[int, int, int, int, int]]:
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


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as lines:
            rows, _, _ = map(int, lines.readline().split())
            grid = [list(map(int, lines.readline().split())) for _ in range(rows)]
        print(f"== {path}")
        for r1, c1, r2, c2, k in solve(grid):
            print(r1 + 1, c1 + 1, r2 + 1, c2 + 1, k)
