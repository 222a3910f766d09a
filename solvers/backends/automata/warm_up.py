"""Make every kernel ready once per process, before any search is timed; ``python -m
solvers.backends.automata.warm_up`` makes them ready ahead, for a machine's later runs.

Importing the kernels compiles each for its one signature, or loads it from the disk
cache (:mod:`.kernel_cache`: about 0.15 s; 2.7 to 3.4 s to compile them on a machine
that never has). A tiny model run through every path then makes numba's first calls
happen here, in the backend's build time, not in a search.
"""

from __future__ import annotations

import functools

import numpy as np

from solvers.backends.automata.kernel_cache import cache_folder, mark_ready
from solvers.backends.automata.network import compile_network
from solvers.backends.automata.search import Search
from solvers.backends.automata.strategy import Strategy
from solvers.builders import clause, exactly_one
from solvers.model import Model


@functools.cache
def warm_up() -> None:
    """Run a guided, probing search and a plain one on a three-variable model."""
    model = Model("warm-up")
    a, b, c = (model.bool_var(name) for name in "abc")
    network = compile_network(model.variables, [exactly_one([a, b, c]), clause([a, b])])
    decision = np.arange(3, dtype=np.int64)
    for guided in (True, False):
        strategy = Strategy(decision, np.zeros(3, np.int64), np.zeros(0, np.int64),
                            guided=guided, probe_root=True, probe_every=1)
        for _ in Search(network, strategy, lambda: False).solutions():
            pass  # every solution: the whole search, backtracking included, is compiled
    mark_ready()


def main() -> None:
    """Compile (or load) every kernel, run each path once, and say where they are kept
    (importing this module compiled them)."""
    warm_up()
    print(f"automata kernels ready, kept in {cache_folder()}")


if __name__ == "__main__":
    main()
