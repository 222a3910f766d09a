"""Viewpoints: models of each puzzle, one registered function per viewpoint.

A viewpoint module registers its functions in ``VIEWPOINTS``, its puzzle's defaults in
``DEFAULTS``, its puzzle's grades in ``LADDERS`` and its words in ``TERMS`` (the
registries, not a list kept here, say which modules hold viewpoints); ``registry``,
``grades`` and ``terms`` are the machinery they share. Each is named from its module's
source when this package is imported, and imported when first asked for.
"""

from pathlib import Path

from viewpoints.grades import LADDERS
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
from viewpoints.terms import TERMS, Subject, Terms, set_terms


def load_viewpoints() -> None:
    """Import every viewpoint module (the registry's whole listing, the test grid)."""
    VIEWPOINTS.load()
    DEFAULTS.load()
    LADDERS.load()
    TERMS.load()


_HERE = Path(__file__).parent
VIEWPOINTS.expect_from_sources(__name__, _HERE,
                               r'(?m)^@viewpoint\(\s*"([\w-]+)",\s*"([\w-]+)"')
DEFAULTS.expect_from_sources(__name__, _HERE, r'(?m)^set_defaults\(\s*"([\w-]+)"')
LADDERS.expect_from_sources(__name__, _HERE, r'(?m)^set_ladder\(\s*"([\w-]+)"')
TERMS.expect_from_sources(__name__, _HERE, r'(?m)^set_terms\(\s*"([\w-]+)"')

__all__ = ["COUNTING_DEFAULTS", "DEFAULTS", "LADDERS", "TERMS", "VIEWPOINTS", "BuiltModel",
           "Defaults", "Option", "Subject", "Terms", "Viewpoint", "counting_defaults",
           "get_viewpoint", "load_viewpoints", "set_defaults", "set_terms", "viewpoint",
           "viewpoints_of"]
