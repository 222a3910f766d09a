"""The example notebook runs, headless, in a Jupyter kernel of this interpreter, and every
object it shows displays itself: a cell tagged ``shows-svg`` shows a picture, one tagged
``shows-html`` a page, and none falls back to text. The notebook is kept without outputs.
"""

from __future__ import annotations

import os
from typing import Any

import nbformat
import pytest
from ipykernel.kernelspec import install
from nbclient import NotebookClient

from tests.paths import ROOT

NOTEBOOK = ROOT / "docs" / "notebooks" / "first-steps.ipynb"
SHOWS = {"shows-svg": "image/svg+xml", "shows-html": "text/html"}
"""A code cell's tag, and the kind of output the cell must show."""
KERNEL = "python3"


def code_cells(notebook: Any) -> list[Any]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def expected_kind(cell: Any) -> str | None:
    """What the cell is there to show, by its tag (None: nothing in particular)."""
    shown = [SHOWS[tag] for tag in cell.metadata.get("tags", []) if tag in SHOWS]
    return shown[0] if shown else None


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The notebook run in its own folder, in a kernel of this interpreter that imports
    this checkout (its spec written to a folder of its own, found first)."""
    prefix = tmp_path_factory.mktemp("kernel")
    install(kernel_name=KERNEL, prefix=str(prefix))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUPYTER_PATH", str(prefix / "share" / "jupyter"))
        patch.setenv("PYTHONPATH", os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
        notebook = nbformat.read(NOTEBOOK, as_version=4)
        NotebookClient(notebook, timeout=300, kernel_name=KERNEL,
                       resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return notebook


def test_the_notebook_is_stored_without_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    assert all(not cell.outputs and cell.execution_count is None
               for cell in code_cells(notebook))


def test_the_notebook_shows_pictures_and_pages() -> None:
    kinds = [expected_kind(cell) for cell in code_cells(nbformat.read(NOTEBOOK, as_version=4))]
    assert set(SHOWS.values()) <= set(kinds)


def test_every_cell_shows_what_it_is_there_to_show(executed: Any) -> None:
    missing = []
    for number, cell in enumerate(code_cells(executed), 1):
        kind = expected_kind(cell)
        shown = {name for output in cell.outputs for name in output.get("data", {})}
        if kind is not None and kind not in shown:
            missing.append((number, kind, sorted(shown)))
    assert not missing, f"cells without their rich display: {missing}"


def test_no_display_fell_back_to_text(executed: Any) -> None:
    errors = [output.get("text", "") for cell in code_cells(executed)
              for output in cell.outputs
              if output.output_type == "stream" and output.get("name") == "stderr"]
    assert not any("repr is shown" in text for text in errors), errors


def test_the_pictures_and_pages_hold_what_they_show(executed: Any) -> None:
    data = [output.get("data", {}) for cell in code_cells(executed) for output in cell.outputs]
    pictures = [shown["image/svg+xml"] for shown in data if "image/svg+xml" in shown]
    pages = [shown["text/html"] for shown in data if "text/html" in shown]
    assert all(picture.lstrip().startswith("<svg") for picture in pictures)
    assert any("data:image/svg+xml" in page and "correct" in page for page in pages)
    assert any("backtracks" in page for page in pages)
    assert any('class="results"' in page for page in pages)
