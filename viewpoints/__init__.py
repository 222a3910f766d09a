"""Viewpoints: models of each puzzle, one registered function per viewpoint."""

from puzzlelab.registry import import_submodules
from viewpoints.registry import (
    DEFAULTS,
    VIEWPOINTS,
    BuiltModel,
    Option,
    Viewpoint,
    get_viewpoint,
    set_defaults,
    viewpoint,
    viewpoints_of,
)

#: modules of this package that hold shared machinery, not viewpoints
INFRASTRUCTURE_MODULES = ("registry",)


def load_viewpoints() -> None:
    """Import every viewpoint module so each registers its viewpoints."""
    import viewpoints

    import_submodules(viewpoints, skip=INFRASTRUCTURE_MODULES)


load_viewpoints()

__all__ = ["DEFAULTS", "VIEWPOINTS", "BuiltModel", "Option", "Viewpoint", "get_viewpoint",
           "load_viewpoints", "set_defaults", "viewpoint", "viewpoints_of"]
