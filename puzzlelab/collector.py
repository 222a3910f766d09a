"""Python's cyclic garbage collector in the objects a process keeps to its end.

A collector pass runs every few hundred allocations and, now and then, looks at every
object the process holds. Modules, a campaign's plan, the records read back from a
store: each is made once, in bulk, and kept to the end, so those passes find nothing to
free, and the full ones grow with everything already made. In a campaign's runner they
took 0.18 s of a 2,000-run campaign, most of it going again over matplotlib's 75,000
objects. So our own processes (the command line, a campaign's workers) make their
start-up's objects without collecting, then leave them out of every later pass
(``gc.freeze``); where PuzzleLab is used as a library, the process is the user's, and
its collector is left as the user set it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_own_process = False


def start_up() -> None:
    """Called first by our own processes' entry points: no collection until
    :func:`settled` (start-up makes objects that live as long as the process)."""
    global _own_process
    _own_process = True
    gc.disable()


def is_own_process() -> bool:
    """Whether this process is one of PuzzleLab's own (the command line, a worker), whose
    interpreter it may tune, rather than a user's that imports it."""
    return _own_process


def settled() -> None:
    """What the process holds now lives to its end: in our own processes, later passes
    leave it out and collection goes on; used as a library, nothing changes."""
    if _own_process:
        gc.freeze()
        gc.enable()


@contextmanager
def making_lasting_objects() -> Iterator[None]:
    """In our own processes, no collection while the block makes objects that outlive
    it (records read in bulk, a library imported): every pass in it would find nothing
    to free. They are then left out of later passes, before collection resumes (else
    the first pass would go over all of them at once). In a user's process, nothing
    changes."""
    if not _own_process:  # the user's process: its collector is the user's to set
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
