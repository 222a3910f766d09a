"""``python -m experiments.studies.throughput``: see :mod:`experiments.studies.throughput`."""

from experiments.studies.kit import run_main
from experiments.studies.throughput.cli import main

if __name__ == "__main__":
    run_main(main)
