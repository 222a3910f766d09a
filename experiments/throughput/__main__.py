"""``python -m experiments.throughput``: see :mod:`experiments.throughput`."""

import sys

from experiments.throughput.cli import main

if __name__ == "__main__":
    sys.exit(main())
