"""Experiments: solving at scale, in rooms by job.

- :mod:`experiments.campaign`: the campaign engine (specs, the grid, the run record and its
  verdicts, solving one instance, the store, the runner and its executors);
- :mod:`experiments.analysis`: tables, ``runs.csv`` and reports, read from the store alone;
- :mod:`experiments.reasoning`: reasoning features above solving (grades now), their
  puzzle-specific parts declared beside the viewpoints;
- :mod:`experiments.studies`: benchmarks and studies, the only code here naming a puzzle;
- :mod:`experiments.cli`: the ``puzzlelab`` command line, argument handling only;
- :mod:`experiments.api`: the Python API (run an experiment, read its runs back);
- :mod:`experiments.generate`: random instances, unique ones checked by a solver (and of
  one grade, through the reasoning).

Nothing is imported here, so that ``puzzlelab --help`` pays for no room it does not use.
"""
