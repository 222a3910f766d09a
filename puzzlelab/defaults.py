"""Defaults that more than one layer states: the solver uses them, and the command line's
help names them without importing the solver layer (``solve --help`` stays light)."""

TREE_NODE_CAP = 100_000
"""Nodes a recorded search tree keeps before it is truncated (``--tree-nodes``)."""
