"""TMA reductions against a real Hopper GPU (stored: tests/data/tma_reduce_hardware.json, made
by tests/kernels/tma_reduce_hardware.py on an H200; its summary holds the commands).

On the GPU, seeded configurations ran as ``cp.reduce.async.bulk.tensor.<op>.tile`` with
cutepy's descriptor, coordinates and smem offsets, for every op and 13 element types: each run
either left global memory exactly as cutepy predicted (each tile element combined with the
element cutepy says it lands on, by the PTX rule for the op) or stopped with an illegal
instruction, the same for both configurations of every (op, type). Here the verdicts are read,
and the cases are planned again with today's cutepy (same descriptor, instructions and bytes).
"""

from __future__ import annotations

import json

import pytest

from cutepy import CutepyError
from tests.kernels import tma_cxx
from tests.kernels import tma_reduce_hardware as hw
from tests.paths import DATA

STORED = json.loads((DATA / "tma_reduce_hardware.json").read_text())
CASES = STORED["cases"]
ILLEGAL = "kernel 715 cudaErrorIllegalInstruction"


def gpu_table() -> dict[str, set[str]]:
    """op -> the element types the GPU reduced (as cutepy predicted)."""
    out: dict[str, set[str]] = {op: set() for op in hw.OPS}
    for r in CASES:
        if r["verdict"] == "match":
            out[r["case"]["reduction"]].add(r["case"]["dtype"])
    return out


def test_every_reduction_either_landed_as_predicted_or_was_refused_by_the_gpu() -> None:
    assert "sm_90" in STORED["summary"]["device"]
    assert {r["verdict"] for r in CASES} == {"match", ILLEGAL}
    by: dict = {}
    for r in CASES:
        by.setdefault((r["case"]["reduction"], r["case"]["dtype"]), set()).add(r["verdict"])
    assert len(by) == len(hw.OPS) * 13 and all(len(v) == 1 for v in by.values())
    swizzles = {r["descriptor"]["swizzle"] for r in CASES if r["verdict"] == "match"}
    assert swizzles == {"NONE", "32B", "64B", "128B"}


def test_the_gpu_reduces_what_the_ptx_isa_lists() -> None:
    """The hardware sees only the tensor map's data type: 8- and 16-bit types reduce under no op."""
    t = gpu_table()
    assert t["add"] == {"int32_t", "uint32_t", "uint64_t", "half_t", "bfloat16_t", "float", "tfloat32_t",
                        "double"}
    assert t["min"] == t["max"] == {"int32_t", "uint32_t", "int64_t", "uint64_t", "half_t", "bfloat16_t"}
    assert t["inc"] == t["dec"] == {"uint32_t"}
    assert t["and"] == t["or"] == t["xor"] == {"int32_t", "uint32_t", "uint64_t"}


@pytest.mark.parametrize("row", CASES, ids=lambda r: f"{r['id']}-{r['case']['reduction']}-"
                                                     f"{r['case']['dtype']}")
def test_cutepy_still_plans_what_the_gpu_checked(row: dict) -> None:
    p = hw.plan(row["case"])
    assert hw.hw.descriptor_json(p["desc"]) == row["descriptor"]
    assert (len(p["instr"]), p["hash"]) == (row["instructions"], row["expected_sha1"])


@pytest.mark.parametrize("row", CASES, ids=lambda r: f"{r['id']}-{r['case']['reduction']}-"
                                                     f"{r['case']['dtype']}")
def test_cutepy_builds_a_reduction_exactly_where_the_gpu_ran_it(row: dict) -> None:
    case = dict(row["case"], op=f"SM90_TMA_REDUCE_{row['case']['reduction'].upper()}")
    if row["verdict"] == "match":
        assert hw.hw.descriptor_json(tma_cxx.build(case).descriptor) == row["descriptor"]
    else:
        with pytest.raises(CutepyError, match=f"tensor.{row['case']['reduction']} runs only on"):
            tma_cxx.build(case)


def test_the_reduction_rules_are_the_ptx_isas() -> None:
    """The model's rules on values where each branch is taken (unsigned and signed min, inc's
    wrap to 0, dec's reload)."""
    import numpy as np

    u = np.array([5, 9, 0, 7], dtype=np.uint64)
    s = np.array([7, 3, 4, 7], dtype=np.uint64)
    assert hw.reduce("inc", "uint32_t", u, s).tolist() == [6, 0, 1, 0]
    assert hw.reduce("dec", "uint32_t", u, s).tolist() == [4, 3, 4, 6]
    neg = np.array([0xFFFFFFFF], dtype=np.uint64)  # -1 as int32
    assert hw.reduce("min", "int32_t", neg, np.array([1], dtype=np.uint64)).tolist() == [0xFFFFFFFF]
    assert hw.reduce("min", "uint32_t", neg, np.array([1], dtype=np.uint64)).tolist() == [1]
    assert hw.reduce("add", "uint32_t", neg, np.array([2], dtype=np.uint64)).tolist() == [1]
