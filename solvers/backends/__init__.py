"""Solver backends, one module each, registered by name in ``BACKENDS``.

Every backend is named as soon as this package is imported, from its module's source
(the ``@BACKENDS.register("name")`` it carries), and imported only when first asked
for: a solve pays for its own solver's library alone, not for OR-tools, numba and
Choco together. Adding a backend is still adding one module.
"""

from pathlib import Path

from puzzlelab.registry import Registry
from solvers.backend_contract import Backend

BACKENDS: Registry[type[Backend]] = Registry("solver", order=lambda backend: backend.__module__)
"""Listed in the package's module order, however the modules came to be imported."""


def load_backends() -> None:
    """Import every backend module (``list``, the reference tables, the test grid)."""
    BACKENDS.load()


REGISTERS = r"""(?m)^@BACKENDS\.register\(\s*["']([^"']+)["']\s*\)"""
BACKENDS.expect_from_sources(__name__, Path(__file__).parent, REGISTERS)
# the portfolio calls the solving layer, which calls these backends: it sits above them
BACKENDS.expect_from_sources("solvers.portfolio", Path(__file__).parent.parent / "portfolio",
                             REGISTERS)

__all__ = ["BACKENDS", "Backend", "load_backends"]
