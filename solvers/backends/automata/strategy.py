"""What a search of the automata backend does, in network positions (no numba here)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Strategy:
    """How to search: what to branch on, in which order, and when to probe.

    Attributes:
        decision: the decision variables (network positions) in the plan's order.
        preferred: for each variable, the value tried first.
        rest: the other variables, finished off in this order, smallest value first.
        guided: branch on beliefs (the backend's ``auto``) instead of the plan's order.
        probe_root: probe before the first choice.
        probe_every: probe below the root every this many levels (0: never).
        merge: when probing, also fix what both values of a probed variable fix alike.
        belief_rounds: most rounds of belief updates after a choice.
        tolerance: a message moving less than this does not wake the other constraints.
    """

    decision: np.ndarray
    preferred: np.ndarray
    rest: np.ndarray
    guided: bool = False
    probe_root: bool = False
    probe_every: int = 0
    merge: bool = True
    # the fastest of the tolerances and rounds tried on Faase (docs/hard-nonograms.md)
    belief_rounds: int = 10
    tolerance: float = 0.1

    @property
    def probes(self) -> bool:
        """Whether this search probes at all (else its probe counts are None)."""
        return self.probe_root or self.probe_every > 0
