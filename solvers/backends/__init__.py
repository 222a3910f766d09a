"""Solver backends, one module each, registered by name in ``BACKENDS``.

Every backend is named as soon as this package is imported, from its module's source
(the ``@BACKENDS.register("name")`` it carries), and imported only when first asked
for: a solve pays for its own solver's library alone, not for OR-tools, numba and
Choco together. Adding a backend is still adding one module.
"""

import re
from pathlib import Path

from puzzlelab.registry import Registry
from solvers.backends.base import Backend

BACKENDS: Registry[type[Backend]] = Registry("solver", order=lambda backend: backend.__module__)
"""Listed in the package's module order, however the modules came to be imported."""

_REGISTERS = re.compile(r"""@BACKENDS\.register\(\s*["']([^"']+)["']\s*\)""")


def _name_backends() -> None:
    """Expect each backend under its name, reading (not importing) its module."""
    folder = Path(__file__).parent
    for path in sorted([*folder.glob("*.py"), *folder.glob("*/__init__.py")]):
        module = path.parent.name if path.name == "__init__.py" else path.stem
        if module.startswith("_") or module == "backends":
            continue
        for name in _REGISTERS.findall(path.read_text(encoding="utf-8")):
            BACKENDS.expect(name, f"{__name__}.{module}")


def load_backends() -> None:
    """Import every backend module (``list``, the reference tables, the test grid)."""
    BACKENDS.load()


_name_backends()

__all__ = ["BACKENDS", "Backend", "load_backends"]
