"""The results store: one SQLite database per experiment, a row per run.

:mod:`.database` opens and reads it (:class:`ResultsStore`), :mod:`.rows` maps a run
record to its row and back, :mod:`.contradictions` marks wrong the claims of
"unsatisfiable" another run refutes, :mod:`.tables` declares the tables beside the
runs (sessions, instances, grid) and :mod:`.trees` keeps recorded search trees.
"""

from experiments.campaign.store.database import ResultsStore
from experiments.campaign.store.rows import CSV_LEFT_OUT, run_columns, runs_as_csv
from experiments.campaign.store.tables import CampaignPlan, Session, StoredInstance
from experiments.campaign.store.trees import StoredTree

__all__ = ["CSV_LEFT_OUT", "CampaignPlan", "ResultsStore", "Session", "StoredInstance",
           "StoredTree", "run_columns", "runs_as_csv"]
