"""Nonogram viewpoints: regular automata, the order encoding, block starts, line tables.

Every viewpoint has the same 0/1 cell variables, ``cell[r][c]`` = 1 when filled,
and searches them row-major (top row first, left to right) unless an option says
otherwise, so ``input/min`` tries blank before filled, cell by cell, as in the
Global Constraint Catalog's worked example, and choice counts are comparable
across viewpoints. What differs is how each line's clue is stated. Every viewpoint
declares on its cells the turns and mirrors that keep the clues
(:mod:`puzzles.nonogram_symmetry`), for ``+symmetric`` search.
"""

from __future__ import annotations

from math import comb

from puzzlelab.errors import ModelTooLarge
from puzzles.nonogram import Clue, NonogramInstance, NonogramSolution
from puzzles.nonogram_symmetry import clue_symmetries
from solvers import (
    Assignment,
    IntVar,
    Model,
    clause,
    equivalent_to_equality,
    implies,
    linear,
    regular,
    table,
)
from viewpoints.grades import Generation, RootPropagation, Rung, Search, set_ladder
from viewpoints.nonogram_terms import NonogramTerms
from viewpoints.registry import BuiltModel, Option, set_defaults, viewpoint
from viewpoints.terms import set_terms

Cells = list[list[IntVar]]

MAX_PLACEMENTS = Option(100_000, (1_000, 10_000, 100_000, 1_000_000),
                        "largest number of placements of one line the table may list")
SEARCH_SIDE = Option("cells", ("cells", "starts"),
                     "branch on the cells (row-major) or on the block starts")

# regular on CP-SAT solves all but Faase, which the automata backend's belief search
# solves: the portfolio auto runs both (solvers/portfolio/); why: docs/defaults.md
set_defaults("nonogram", viewpoint="regular", solver="auto", heuristic="auto")

set_terms("nonogram", NonogramTerms())

set_ladder("nonogram", (
    Rung("line", RootPropagation("regular"),
         "line solving: each row and column alone keeps the cells every placement of its "
         "clue agrees on, to a fixpoint"),
    Rung("probing", RootPropagation("regular", probing=True),
         "line solving and root probing: a cell whose trial value fails at once takes "
         "the other"),
), Search("regular", "input/min"), generation={
    # measured: results/difficulty-benchmark (a sparser picture is less often unique, and
    # more often hard when it is)
    "search": Generation({"size": "12x12", "density": "0.4"},
                         "a larger, sparser picture", "a longer --time-limit (300)"),
})


def _cells(model: Model, instance: NonogramInstance) -> Cells:
    """The cell variables, with the clues' symmetries declared on them (for ``+symmetric``)."""
    cells = [[model.bool_var(f"cell_{r}_{c}") for c in range(instance.width)]
             for r in range(instance.height)]
    model.name_array("cell", cells)
    model.describe_group("rows", "each row's filled cells make its clue's blocks, in order")
    model.describe_group("columns", "each column's filled cells make its clue's blocks, "
                                    "in order")
    for symmetry in clue_symmetries(instance):
        model.add_symmetry(symmetry.name, {cells[r][c]: cells[image_r][image_c]
                                           for (r, c), (image_r, image_c)
                                           in symmetry.images.items()})
    return cells


def _lines(instance: NonogramInstance, cells: Cells) -> list[tuple[str, Clue, list[IntVar]]]:
    """Every row, then every column: a label, its clue and its cell variables."""
    rows = [(f"row{r}", clue, cells[r]) for r, clue in enumerate(instance.rows)]
    columns = [(f"col{c}", clue, [row[c] for row in cells])
               for c, clue in enumerate(instance.columns)]
    return rows + columns


def line_group(label: str) -> tuple[str, str]:
    """The group and the reader's name of a line labelled ``row3`` or ``col3``:
    ``("rows", "row 4")``, 1-based."""
    kind, number = ("rows", "row") if label.startswith("row") else ("columns", "column")
    return kind, f"{number} {int(label.lstrip('rowcl')) + 1}"


def _decoder(cells: Cells):
    def decode(assignment: Assignment) -> NonogramSolution:
        return NonogramSolution(tuple(tuple(assignment[v] for v in row) for row in cells))

    return decode


def _row_major(cells: Cells) -> list[IntVar]:
    return [v for row in cells for v in row]


def earliest_starts(clue: Clue) -> list[int]:
    """The first position each block can start at (all blocks pushed left)."""
    starts, position = [], 0
    for block in clue:
        starts.append(position)
        position += block + 1
    return starts


def latest_starts(clue: Clue, length: int) -> list[int]:
    """The last position each block can start at (all blocks pushed right)."""
    starts, end = [], length
    for block in reversed(clue):
        starts.append(end - block)
        end -= block + 1
    return starts[::-1]


def clue_automaton(clue: Clue) -> tuple[list[tuple[int, int, int]], list[int]]:
    """A DFA for ``0* 1^b1 0+ 1^b2 ... 1^bk 0*``: transitions and accepting states (start 0).

    >>> transitions, accepting = clue_automaton((2,))
    >>> sorted(transitions), accepting
    ([(0, 0, 0), (0, 1, 1), (1, 1, 2), (2, 0, 3), (3, 0, 3)], [2, 3])
    """
    transitions = [(0, 0, 0)]
    state = 0
    for index, block in enumerate(clue):
        if index:
            transitions += [(state, 0, state + 1), (state + 1, 0, state + 1)]
            state += 1
        for _ in range(block):
            transitions.append((state, 1, state + 1))
            state += 1
    if not clue:
        return transitions, [0]
    transitions += [(state, 0, state + 1), (state + 1, 0, state + 1)]
    return transitions, [state, state + 1]


def post_regular(model: Model, lines: list[tuple[str, Clue, list[IntVar]]]) -> None:
    """One ``regular`` constraint per line, its automaton built from the clue."""
    for label, clue, line in lines:
        transitions, accepting = clue_automaton(clue)
        group, name = line_group(label)
        model.add(regular(line, transitions, 0, accepting), name, group)


def post_block_starts(model: Model, lines: list[tuple[str, Clue, list[IntVar]]]
                      ) -> list[IntVar]:
    """``start[b]`` of each block, in order with a gap; cells channeled by reification."""
    starts: list[IntVar] = []
    for label, clue, line in lines:
        with model.group(line_group(label)[0]):
            starts += _post_line_starts(model, label, clue, line)
    return starts


def _post_line_starts(model: Model, label: str, clue: Clue, line: list[IntVar]
                      ) -> list[IntVar]:
    """One line's block starts, their order and gaps, and its cells channeled."""
    name = line_group(label)[1]  # every clause of the line reads as the line
    first, last = earliest_starts(clue), latest_starts(clue, len(line))
    block_starts = [model.int_var(lo, hi, f"{label}_start{b}")
                    for b, (lo, hi) in enumerate(zip(first, last))]
    for b in range(len(clue) - 1):
        model.add(linear([(1, block_starts[b + 1]), (-1, block_starts[b])], ">=",
                         clue[b] + 1), name)
    covering: list[list[IntVar]] = [[] for _ in line]
    for b, start in enumerate(block_starts):
        for position in range(first[b], last[b] + 1):
            at = model.bool_var(f"{label}_start{b}_at{position}")
            model.add(equivalent_to_equality(at, start, position), name)
            for j in range(position, position + clue[b]):
                covering[j].append(at)
    for cell, flags in zip(line, covering):
        model.add(linear([(1, cell), *((-1, f) for f in flags)], "==", 0), name)
    return block_starts


@viewpoint("nonogram", "regular")
def regular_viewpoint(instance: NonogramInstance) -> BuiltModel:
    """Cells with one regular constraint per line, its automaton built from the clue.

    ``cell[r][c]`` is 1 when filled; each row and column is a ``regular`` constraint
    whose automaton accepts exactly the lines with that clue (the logigraphe model
    of the Global Constraint Catalog). Search: the cells, row-major."""
    model = Model(f"nonogram-regular-{instance.name}")
    cells = _cells(model, instance)
    post_regular(model, _lines(instance, cells))
    model.branch_on(_row_major(cells))
    return BuiltModel(model, _decoder(cells))


@viewpoint("nonogram", "order")
def order(instance: NonogramInstance) -> BuiltModel:
    """Order encoding: started[b][j] says block b starts at or before position j.

    ``started`` is monotone in j and fixed outside the block's window; block b+1
    started by j implies block b started by j - len(b) - 1; ``covers[b][j]`` =
    started[b][j] and not started[b][j - len(b)] (clauses); ``cell[j]`` = the sum
    of covers[b][j]. Search: the cells, row-major."""
    model = Model(f"nonogram-order-{instance.name}")
    cells = _cells(model, instance)
    for label, clue, line in _lines(instance, cells):
        with model.group(line_group(label)[0]):
            _post_order_line(model, label, clue, line)
    model.branch_on(_row_major(cells))
    return BuiltModel(model, _decoder(cells))


def _post_order_line(model: Model, label: str, clue: Clue, line: list[IntVar]) -> None:
    name = line_group(label)[1]  # every clause of the line reads as the line
    length = len(line)
    first, last = earliest_starts(clue), latest_starts(clue, length)
    started = [[model.int_var(int(j >= last[b]), int(j >= first[b]),
                              f"{label}_started{b}_{j}") for j in range(length)]
               for b in range(len(clue))]
    covering: list[list[IntVar]] = [[] for _ in line]
    for b, block in enumerate(clue):
        for j in range(length - 1):
            model.add(implies(started[b][j], started[b][j + 1]), name)
        if b + 1 < len(clue):
            for j in range(length):
                earlier = j - block - 1
                if earlier < 0:
                    model.add(linear([(1, started[b + 1][j])], "==", 0), name)
                else:
                    model.add(implies(started[b + 1][j], started[b][earlier]), name)
        for j in range(first[b], min(length, last[b] + block)):
            covers = model.bool_var(f"{label}_covers{b}_{j}")
            model.add(implies(covers, started[b][j]), name)
            if j - block >= 0:
                before = started[b][j - block]
                model.add(clause(negative=(covers, before)), name)
                model.add(clause(positive=(covers, before), negative=(started[b][j],)), name)
            else:
                model.add(implies(started[b][j], covers), name)
            covering[j].append(covers)
    for cell, flags in zip(line, covering):
        model.add(linear([(1, cell), *((-1, f) for f in flags)], "==", 0), name)


@viewpoint("nonogram", "block-start")
def block_start(instance: NonogramInstance) -> BuiltModel:
    """Block starts: one integer start per block, cells channeled by reification.

    ``start[b]`` lies in the block's window and after the previous block plus a gap;
    ``at[b][s]`` <-> start[b] == s (reified equality), and ``cell[j]`` = the sum of
    the at-flags of the starts that cover j. Search: the cells, row-major."""
    model = Model(f"nonogram-block-start-{instance.name}")
    cells = _cells(model, instance)
    post_block_starts(model, _lines(instance, cells))
    model.branch_on(_row_major(cells))
    return BuiltModel(model, _decoder(cells))


def placements(clue: Clue, length: int) -> list[tuple[int, ...]]:
    """Every 0/1 line of ``length`` cells whose blocks are ``clue``.

    >>> placements((1, 1), 4)
    [(1, 0, 1, 0), (1, 0, 0, 1), (0, 1, 0, 1)]
    """
    if not clue:
        return [(0,) * length]
    block, rest = clue[0], clue[1:]
    room = length - (sum(rest) + len(rest))
    found: list[tuple[int, ...]] = []
    for start in range(room - block + 1):
        head = (0,) * start + (1,) * block
        if rest:
            found += [(*head, 0, *tail) for tail in placements(rest, length - len(head) - 1)]
        else:
            found.append(head + (0,) * (length - len(head)))
    return found


def placement_count(clue: Clue, length: int) -> int:
    """How many placements ``clue`` has in a line of ``length`` (without listing them)."""
    free = length - (sum(clue) + len(clue) - 1)
    if not clue:
        return 1
    return comb(free + len(clue), len(clue)) if free >= 0 else 0


@viewpoint("nonogram", "line-table", {"max_placements": MAX_PLACEMENTS})
def line_table(instance: NonogramInstance, max_placements: int) -> BuiltModel:
    """Line tables: each line a table constraint listing all placements of its clue.

    A line with more than ``max_placements`` placements is refused (a ``ModelTooLarge``
    naming it) before any is listed. Search: the cells."""
    model = Model(f"nonogram-line-table-{instance.name}")
    cells = _cells(model, instance)
    lines = _lines(instance, cells)
    height = len(instance.rows)
    for index, (_, clue, line) in enumerate(lines):
        count = placement_count(clue, len(line))
        if count > max_placements:  # named from 1, as the file's readers and checker do
            shown = (f"row {index + 1}" if index < height else f"column {index - height + 1}")
            raise ModelTooLarge(f"line-table: {shown} (clue {','.join(map(str, clue)) or '0'}) "
                                f"has {count:,} placements, more than max_placements="
                                f"{max_placements:,}; raise the option or use another viewpoint")
    for label, clue, line in lines:
        group, name = line_group(label)
        model.add(table(line, placements(clue, len(line))), name, group)
    model.branch_on(_row_major(cells))
    return BuiltModel(model, _decoder(cells))


@viewpoint("nonogram", "block-start-regular", {"search": SEARCH_SIDE})
def block_start_regular(instance: NonogramInstance, search: str) -> BuiltModel:
    """block-start and regular together, channeled through the shared cells.

    Search on the cells (row-major) or on the block starts (rows first, each line's
    blocks left to right)."""
    model = Model(f"nonogram-block-start-regular-{instance.name}")
    cells = _cells(model, instance)
    lines = _lines(instance, cells)
    post_regular(model, lines)
    starts = post_block_starts(model, lines)
    model.branch_on(_row_major(cells) if search == "cells" else starts)
    return BuiltModel(model, _decoder(cells))
