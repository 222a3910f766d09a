"""The tree-cost benchmark: what it measures with the recording on holds the cap (its
README is made from its runs.csv: ``test_committed_reports.py``)."""

from __future__ import annotations

import pytest

from experiments.studies import tree_cost


@pytest.mark.slow
def test_recording_on_keeps_about_fourteen_bytes_a_node_and_stops_at_the_cap() -> None:
    rows = tree_cost.measure_on()
    figures = {(row["case"], row["figure"]): float(str(row["value"])) for row in rows}
    for case in tree_cost.MEMORY_CASES:
        assert 14 <= figures[(case, "bytes_per_node")] < 16
        assert figures[(case, "nodes")] <= 100_000
    past = next(case for case in tree_cost.MEMORY_CASES if "past the cap" in case)
    assert figures[(past, "truncated")] == 1 and figures[(past, "nodes")] == 100_000
    assert figures[(past, "peak_on_bytes")] < 16 * 100_000 + figures[(past, "peak_off_bytes")]
