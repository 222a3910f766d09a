"""Experiment specs: every setting a spec's TOML file may hold, read and validated.

:mod:`.experiment` reads a spec into an :class:`ExperimentSpec` (its grid and limits),
:mod:`.choices` its viewpoint and solver entries (each with options and a label),
:mod:`.settings` its presentation settings (``table``, ``trees``, ``explain``), :mod:`.values` each
value with its type checked, and :mod:`.locating` points every error at its line.
"""

from experiments.campaign.spec.choices import SolverChoice, ViewpointChoice
from experiments.campaign.spec.experiment import (
    DEFAULTED,
    GROWING,
    KEYS,
    PRESENTATION,
    REQUIRED,
    ExperimentSpec,
    InstanceSet,
    load_spec,
    parse_spec,
)
from experiments.campaign.spec.locating import spec_error
from experiments.campaign.spec.settings import (
    GROUPINGS,
    TREE_FILTERS,
    ExplainSettings,
    TableSettings,
    TreeSettings,
    check_explained,
    explain_settings,
    table_settings,
)

__all__ = ["DEFAULTED", "GROUPINGS", "GROWING", "KEYS", "PRESENTATION", "REQUIRED",
           "TREE_FILTERS", "ExperimentSpec", "ExplainSettings", "InstanceSet",
           "SolverChoice", "TableSettings", "TreeSettings", "ViewpointChoice", "check_explained",
           "explain_settings", "load_spec", "parse_spec", "spec_error", "table_settings"]
