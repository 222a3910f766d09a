"""``python -m experiments.studies.course_tables``: see the package."""

from experiments.studies.course_tables import main
from experiments.studies.kit import run_main

run_main(main)
