"""The portfolio: whole solves of several configurations, in turn or side by side, as
one backend (``auto``).

:mod:`.race` runs configurations (a backend and a heuristic each) here or in forked
children, the first answer winning; :mod:`.backend` is the backend that declares the
portfolio and runs its configurations. It sits above the solving layer, which it calls
for each configuration, so it is not among :mod:`solvers.backends`, which that layer
calls; the backend registry names it all the same.
"""

from solvers.portfolio.race import (
    CORES_VARIABLE,
    Configuration,
    Outcome,
    Race,
    cores_allowed,
    run_here,
)

__all__ = ["CORES_VARIABLE", "Configuration", "Outcome", "Race", "cores_allowed", "run_here"]
