"""``python -m experiments.studies.throughput``: see :mod:`experiments.studies.throughput`."""

import sys

from experiments.studies.throughput.cli import main

if __name__ == "__main__":
    sys.exit(main())
