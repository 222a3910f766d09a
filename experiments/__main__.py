"""``python -m experiments`` runs the ``puzzlelab`` command line."""

from experiments.cli import main

main()
