"""What every study and benchmark stands on, one module a job:

- :mod:`.publish`: progress on stderr, the report printed and written beside its results
  (keeping the part written by hand), a wrong answer's exit status;
- :mod:`.markdown`: Markdown tables from rows and column specs, and the figures in them;
- :mod:`.study`: a study whose report is made from its rows alone, measured or read back
  from its ``runs.csv`` (``--from``);
- :mod:`.processes`: whole processes timed in interleaved rounds, each answer checked;
- :mod:`.records`: runs solved in this process through the campaign's own path, kept as
  the campaign's run records;
- :mod:`.tatham`: the programs of Simon Tatham's Portable Puzzle Collection, the outside
  generator studies and tests share (imported by name, as it runs programs).
"""

from experiments.studies.kit.markdown import (
    NONE,
    Column,
    code,
    figure,
    ms,
    table,
    target_verdict,
    text,
    yes_no,
)
from experiments.studies.kit.processes import (
    ROOT,
    Ended,
    Process,
    Spread,
    Timing,
    Turn,
    puzzlelab_script,
    run_once,
    spread_columns,
    time_rounds,
)
from experiments.studies.kit.publish import BY_HAND, progress, publish, run_main
from experiments.studies.kit.study import Row, Rows, RowsStudy, Study, plain_rows, read_rows

__all__ = [
    "BY_HAND",
    "NONE",
    "ROOT",
    "Column",
    "Ended",
    "Process",
    "Row",
    "Rows",
    "RowsStudy",
    "Spread",
    "Study",
    "Timing",
    "Turn",
    "code",
    "figure",
    "ms",
    "plain_rows",
    "progress",
    "publish",
    "puzzlelab_script",
    "read_rows",
    "run_main",
    "run_once",
    "spread_columns",
    "table",
    "target_verdict",
    "text",
    "time_rounds",
    "yes_no",
]
