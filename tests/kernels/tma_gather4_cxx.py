"""TMA gather4/scatter4 (``SM100_TMA_LOAD_2D_GATHER4``, ``SM100_TMA_LOAD_MULTICAST_2D_GATHER4``,
``SM100_TMA_STORE_2D_SCATTER4``) against CUTLASS 4.7: seeded configurations of
tests/kernels/tma_cxx.py built with ``make_tma_atom`` and a gather/scatter op (descriptor through
the recording stub, the atom, its gmem basis and TMA tensor), stored in
tests/data/tma_gather4_cxx47.jsonl. Regenerate as tests/kernels/tma_reduce_cxx.py says, with
``python -m tests.kernels.tma_gather4_cxx``.
"""

from __future__ import annotations

import json
import random

from tests.kernels import tma_cxx
from tests.paths import DATA

FILE = DATA / "tma_gather4_cxx47.jsonl"
OPS = ("SM100_TMA_LOAD_2D_GATHER4", "SM100_TMA_LOAD_MULTICAST_2D_GATHER4", "SM100_TMA_STORE_2D_SCATTER4")


def cases() -> list[dict]:
    """Every rank-2 load/store configuration with a gather/scatter op (and a few of rank 3, which
    C++ rejects), through ``make_tma_atom``."""
    rng = random.Random(34)
    out = []
    for c in tma_cxx.cases():
        if c["op"] not in ("SM90_TMA_LOAD", "SM90_TMA_STORE") or c.get("internal"):
            continue
        if c["rank"] == 2 or (c["rank"] == 3 and rng.random() < 0.1):
            op = OPS[2] if c["op"] == "SM90_TMA_STORE" else rng.choice(OPS[:2])
            out.append(dict(c, op=op, api="atom", cluster=1))
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
