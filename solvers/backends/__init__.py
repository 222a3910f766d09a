"""Solver backends, one module each, registered by name in ``BACKENDS``."""

from puzzlelab.registry import Registry, import_submodules
from solvers.backends.base import Backend

BACKENDS: Registry[type[Backend]] = Registry("solver", order=lambda backend: backend.__module__)
"""Listed in the package's module order, however the modules came to be imported."""

_loaded = False


def load_backends() -> None:
    """Import every backend module so each registers itself (once: a solve calls this,
    and scanning the package each time would cost more than a small search)."""
    global _loaded
    if _loaded:
        return
    import solvers.backends as package

    import_submodules(package)
    _loaded = True


__all__ = ["BACKENDS", "Backend", "load_backends"]
