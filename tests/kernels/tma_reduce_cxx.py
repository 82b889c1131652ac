"""TMA reduce-add (``SM90_TMA_REDUCE_ADD``, ``cp.reduce.async.bulk.tensor.add``) against CUTLASS 4.7:
every seeded store configuration of tests/kernels/tma_cxx.py built again with the reduce op
(descriptor through the recording stub of ``cuTensorMapEncodeTiled``, TiledCopy, TMA tensor and
partitions), stored in tests/data/tma_reduce_cxx47.jsonl. Regenerate (CUTLASS 4.7 at
/work/cutlass47/include)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])")
    N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        python -m tests.kernels.tma_reduce_cxx
"""

from __future__ import annotations

import json

from tests.kernels import tma_cxx
from tests.paths import DATA

FILE = DATA / "tma_reduce_cxx47.jsonl"
OP = "SM90_TMA_REDUCE_ADD"


def cases() -> list[dict]:
    """The stored store configurations with the reduce op (and the atom API for a few)."""
    out = []
    for i, c in enumerate(x for x in tma_cxx.cases() if x["op"] == "SM90_TMA_STORE"):
        out.append(dict(c, op=OP, api="atom" if i % 5 == 4 else "copy"))
    return out


def main() -> None:
    from tests.cxx import cxx_harness

    if cxx_harness.cutlass_version() != "4.7.0":
        raise SystemExit("put CUTLASS 4.7's include directory first on CUTEPY_CXX_INCLUDE")
    rows = tma_cxx.run_cxx(cases())
    with open(FILE, "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
