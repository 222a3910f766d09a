"""``solve --tree FILE``: the run's search tree, recorded and written as JSON or drawn.

The options are checked before the search (a suffix the writer does not take, a
backend that cannot record), so a long solve never ends in a refusal.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import TYPE_CHECKING

from experiments.cli.app import at_least
from puzzlelab.defaults import TREE_NODE_CAP
from puzzlelab.errors import OptionError
from puzzlelab.wording import counted

if TYPE_CHECKING:
    from experiments.campaign.solving import PuzzleRun



def tree_arguments(parser: ArgumentParser) -> None:
    """``--tree FILE`` and ``--tree-nodes N``."""
    parser.add_argument("--tree", type=Path, metavar="FILE",
                        help="record the search tree and write it here: .json (its nodes), "
                             ".svg or .pdf (drawn as CP-Profiler draws, failed subtrees "
                             "collapsed); on a solver that records trees")
    parser.add_argument("--tree-nodes", type=at_least(1), metavar="N",
                        default=TREE_NODE_CAP,
                        help=f"nodes the tree keeps before it is truncated (default "
                             f"{TREE_NODE_CAP:,})")


def tree_cap(given: Namespace, solver: str, heuristic: str) -> int | None:
    """The node cap to record with (None without ``--tree``); refuses a suffix it cannot
    write, and a solver or heuristic under which no tree is recorded, before solving."""
    path: Path | None = given.tree
    if path is None:
        return None
    from experiments.analysis.tree_drawing import TREE_SUFFIXES

    if path.suffix.lower() not in TREE_SUFFIXES:
        raise OptionError(f"--tree {path}: write a tree as {', '.join(TREE_SUFFIXES)}, "
                          f"not {path.suffix or 'a file without a suffix'}")
    from solvers import BACKENDS
    from solvers.solving import refuse_tree

    refuse_tree(solver, BACKENDS.get(solver).capabilities, None)
    return int(given.tree_nodes)


def write_run_tree(run: PuzzleRun, path: Path, file: Path) -> str:
    """Write ``run``'s tree to ``path``; what to tell the user."""
    tree = run.result.tree
    if tree is None:  # the solve was refused or failed before its search
        return f"no search tree to write ({run.status.value})"
    asked = run.identity
    about = {"puzzle": asked.puzzle, "instance": asked.instance, "file": str(file),
             "viewpoint": asked.viewpoint, "options": dict(asked.options),
             "solver": asked.solver, "heuristic": asked.heuristic, "status": run.status.value}
    from experiments.analysis.tree_drawing import title_of, write_tree

    # the picture names the file, the JSON keeps its path
    write_tree(tree, path, about, title=title_of({**about, "file": file.name}))
    counts = tree.counts()
    truncated = f", truncated at {tree.cap:,} nodes" if tree.truncated else ""
    return (f"wrote {path} ({counted(counts['nodes'], 'node')}, "
            f"{counted(counts['failures'], 'failure')}, "
            f"{counted(counts['solutions'], 'solution')}{truncated})")
