"""Viewpoints: models of each puzzle, one registered function per viewpoint.

Every module of the package is imported; a viewpoint module registers its
functions in ``VIEWPOINTS`` (the registry, not a list kept here, says which
modules hold viewpoints), and ``registry`` is the machinery they share.
"""

from puzzlelab.registry import import_submodules
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
    """Import every module of the package, so that each registers its viewpoints."""
    import viewpoints

    import_submodules(viewpoints)


load_viewpoints()

__all__ = ["COUNTING_DEFAULTS", "DEFAULTS", "VIEWPOINTS", "BuiltModel", "Defaults", "Option",
           "Viewpoint", "counting_defaults", "get_viewpoint", "load_viewpoints", "set_defaults",
           "viewpoint", "viewpoints_of"]
