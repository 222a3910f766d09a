"""``python -m experiments.studies.startup``: see :mod:`experiments.studies.startup`."""

from experiments.studies.kit import run_main
from experiments.studies.startup import main

if __name__ == "__main__":
    run_main(main)
