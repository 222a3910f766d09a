"""``python -m experiments.studies.shikaku_levels``: see the package."""

from experiments.studies.kit import run_main
from experiments.studies.shikaku_levels import main

run_main(main)
