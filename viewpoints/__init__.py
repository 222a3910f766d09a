"""Viewpoints: models of each puzzle, one registered function per viewpoint.

A viewpoint module registers its functions in ``VIEWPOINTS`` and its puzzle's defaults in
``DEFAULTS`` (the registries, not a list kept here, say which modules hold viewpoints);
``registry`` is the machinery they share. Each is named from its module's source when
this package is imported, and imported when first asked for.
"""

from pathlib import Path

from viewpoints.registry import (
    COUNTING_DEFAULTS,
    DEFAULTS,
    VIEWPOINTS,
    BuiltModel,
    Defaults,
    Option,
    Viewpoint,
    counting_defaults,
    get_viewpoint,
    set_defaults,
    viewpoint,
    viewpoints_of,
)


def load_viewpoints() -> None:
    """Import every viewpoint module (the registry's whole listing, the test grid)."""
    VIEWPOINTS.load()
    DEFAULTS.load()


_HERE = Path(__file__).parent
VIEWPOINTS.expect_from_sources(__name__, _HERE,
                               r'(?m)^@viewpoint\(\s*"([\w-]+)",\s*"([\w-]+)"')
DEFAULTS.expect_from_sources(__name__, _HERE, r'(?m)^set_defaults\(\s*"([\w-]+)"')

__all__ = ["COUNTING_DEFAULTS", "DEFAULTS", "VIEWPOINTS", "BuiltModel", "Defaults", "Option",
           "Viewpoint", "counting_defaults", "get_viewpoint", "load_viewpoints", "set_defaults",
           "viewpoint", "viewpoints_of"]
