"""Execute the notebooks and store them with their outputs, so that a repository viewer
(GitHub) and the docs site show every picture without running anything.

    python notebooks/execute.py                       # every notebook in this folder
    python notebooks/execute.py 03_xla_tiling.ipynb   # some of them

Each notebook runs top to bottom in a fresh kernel, in this folder, importing the cutepy
of this checkout; a cell that raises stops the script with the notebook left as it was.
Outputs are stored as the kernel made them (pictures as SVG, as an ``<img>`` data URI for
untrusted viewers, and as text). ``tests/test_notebooks.py`` checks the stored outputs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
ROOT = FOLDER.parent
TIMEOUT = 120


def execute(path: Path) -> float:
    """Run one notebook and write it back with its outputs; the seconds it took."""
    import nbclient  # the test extra installs these
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:  # a clean start: no stale output survives a failed run
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    env = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env]))
    try:
        client = nbclient.NotebookClient(nb, timeout=TIMEOUT, kernel_name="python3",
                                         resources={"metadata": {"path": str(FOLDER)}})
        start = time.perf_counter()
        client.execute()
        seconds = time.perf_counter() - start
    finally:
        if env is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = env
    nb.metadata.pop("widgets", None)
    nbformat.validate(nb)
    nbformat.write(nb, path)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebook files (default: every NN_*.ipynb here)")
    args = parser.parse_args(argv)
    paths = [Path(p) if Path(p).exists() else FOLDER / p for p in args.notebooks] or \
        sorted(FOLDER.glob("[0-9][0-9]_*.ipynb"))
    for path in paths:
        seconds = execute(path)
        print(f"{path.name}: executed and stored in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
