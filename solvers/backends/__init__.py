"""Solver backends, one module each, registered by name in ``BACKENDS``."""

from puzzlelab.registry import Registry, import_submodules
from solvers.backends.base import Backend

BACKENDS: Registry[type[Backend]] = Registry("solver")

#: modules of this package that hold shared machinery, not a backend
INFRASTRUCTURE_MODULES = ("base", "timing", "interrupt", "constraint_search")


def load_backends() -> None:
    """Import every backend module so each registers itself."""
    import solvers.backends as package

    import_submodules(package, skip=INFRASTRUCTURE_MODULES)


__all__ = ["BACKENDS", "Backend", "load_backends"]
