"""The teaching notebooks run top to bottom, quickly, and are stored without outputs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

try:  # the test extra installs these: a missing one is a failure, not a skip
    import nbclient
    import nbformat
except ImportError as e:  # pragma: no cover
    pytest.fail(f"notebook tests need nbclient, nbformat and ipykernel (pip install -e '.[test]'): {e}",
                pytrace=False)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ["01_layouts.ipynb", "02_algebra.ipynb", "04_kernel_tiling.ipynb"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_is_clean_v4(name: str) -> None:
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=nbformat.NO_CONVERT)
    assert nb.nbformat == 4
    nbformat.validate(nb)
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "outputs must be cleared"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the kernel imports this checkout of cutepy even when it is not installed
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}
    )
    start = time.perf_counter()
    client.execute()
    assert time.perf_counter() - start < 20
    pictures = [
        out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
        if "image/svg+xml" in out.get("data", {})
    ]
    assert len(pictures) >= 3, "each notebook draws its layouts"
    errors = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if out.output_type == "error"]
    assert errors == []
