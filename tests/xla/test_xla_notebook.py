"""Notebook 03 (XLA tiling) is stored clean, runs top to bottom in < 20 s, and checks itself."""

from __future__ import annotations

import os
import time
from pathlib import Path

import nbclient
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "03_xla_tiling.ipynb"


def test_notebook_03_is_clean_v4() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=nbformat.NO_CONVERT)
    assert nb.nbformat == 4
    nbformat.validate(nb)
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# 03")
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "outputs must be cleared"


def test_notebook_03_runs_and_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=60, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "notebooks")}})
    start = time.perf_counter()
    client.execute()
    assert time.perf_counter() - start < 20
    outs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert [o for o in outs if o.output_type == "error"] == []
    assert sum("image/svg+xml" in o.get("data", {}) for o in outs) >= 3
    text = "".join(o.get("text", "") for o in outs if o.output_type == "stream")
    assert "layout ((2,2),(2,3)):((2,12),(1,4))" in text
    assert "layout ((2,2),(4,2)):((1,16),(2,8))" in text
    assert text.count("agree on all") == 8 and "False" not in text
    assert "bytes equal the model's: True" in text
