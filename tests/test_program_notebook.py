"""Notebook 06 (TPU-MLIR local memory) is stored clean and runs top to bottom in < 20 s."""

from __future__ import annotations

import os
import time
from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "06_tpu_mlir_lmem.ipynb"


def test_notebook_06_is_clean_v4() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=nbformat.NO_CONVERT)
    assert nb.nbformat == 4
    nbformat.validate(nb)
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# 06")
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_notebook_06_runs_and_draws(monkeypatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=60, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "notebooks")}})
    start = time.perf_counter()
    client.execute()
    assert time.perf_counter() - start < 20
    outs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert [o for o in outs if o.output_type == "error"] == []
    assert sum("image/svg+xml" in o.get("data", {}) for o in outs) >= 5
    text = "".join(o.get("text", "") for o in outs if o.output_type == "stream")
    assert "(2,(4,2),2,3):(16,(32,8),3,1)" in text and "MISMATCH" not in text
    assert text.count("ok: ") >= 5
