"""Shared kernel of PuzzleLab: the exception tree and the name registries.

Every layer (``puzzles``, ``solvers``, ``viewpoints``, ``experiments``) may import
this package; it imports nothing of the project, so the layer rules hold.
"""

__version__ = "0.1.0"
