"""The TMA reductions beyond add against the CuTe DSL 4.8 (tests/data/tma_reduce_dsl48.jsonl, made by
``python -m tests.kernels.tma_reduce_dsl``, see there): for every kind the atom (thread ids, source and
destination TV layouts) and the TMA tensor equal the DSL's ``make_tiled_tma_atom(
CopyReduceBulkTensorTileS2GOp(ReductionKind.K), ...)`` built from the code cutepy emits; the element
types the GPU does not reduce (measured on an H200: tests/data/tma_reduce_hardware.json) are refused
(the DSL's host side checks none, so there the DSL built them)."""

from __future__ import annotations

import json
import re

import pytest

from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.emit.tma import DSL_OPS
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import TMA_DATA_TYPE, TMA_REDUCTIONS, make_tma_atom
from tests.kernels.tma_reduce_dsl import FILE, KINDS, SWEEP_TYPES, cases

ROWS = [json.loads(x) for x in FILE.read_text().splitlines() if not x.startswith("#")]


def build(case: dict, op: str | None = None):
    g = make_tensor(gmem_ptr(case["dtype"], 0x10000), Layout(tuple(case["gshape"]), tuple(case["gstride"])))
    return make_tma_atom(op or case["op"], g, Layout(tuple(case["sshape"]), tuple(case["sstride"])),
                         tuple(case["tile"]))


def accepted(case: dict) -> bool:
    return TMA_DATA_TYPE[case["dtype"]] in TMA_REDUCTIONS[case["op"]]


def test_the_stored_rows_are_the_cases() -> None:
    assert [r["case"] for r in ROWS] == cases()
    assert all(r["built"] for r in ROWS)  # the DSL's host side builds every kind on every type


def test_every_kind_has_a_dsl_name() -> None:
    assert {k for k in TMA_REDUCTIONS} == {f"SM90_TMA_REDUCE_{k}" for k in KINDS}
    for k in KINDS:
        want = f"cpasync.CopyReduceBulkTensorTileS2GOp(cute.ReductionKind.{k})"
        assert DSL_OPS[f"SM90_TMA_REDUCE_{k}"] == want


@pytest.mark.parametrize("i", range(len(cases())))
def test_reduce_atom_equals_the_dsl(i: int) -> None:
    row = ROWS[i]
    case = row["case"]
    if accepted(case):
        a = build(case)
    else:
        with pytest.raises(CutepyError, match="runs only on the tensor-map types"):
            build(case)
        a = build(case, "SM90_TMA_STORE")  # every reduction's atom is the store's
    got = (str(a.thr_id), str(a.layout_src_tv), str(a.layout_dst_tv))
    assert got == (row["thr_id"], row["src"], row["dst"])
    t = a.get_tma_tensor(tuple(case["gshape"]))
    assert re.sub(r"^ArithTuple", "tensor<", str(t)) + ">" == row["tensor"], case


def test_the_sweep_meets_the_measured_table() -> None:
    """Each kind is built for exactly the types the GPU reduces (UINT32 for .inc/.dec, ...)."""
    sweep = [r["case"] for r in ROWS if r["case"]["what"] == "sweep"]
    assert len(sweep) == len(KINDS) * len(SWEEP_TYPES)
    ok = {(c["op"], c["dtype"]) for c in sweep if c["op"] != "SM90_TMA_REDUCE_ADD" and accepted(c)}
    assert ("SM90_TMA_REDUCE_INC", "uint32_t") in ok and ("SM90_TMA_REDUCE_INC", "int32_t") not in ok
    assert ("SM90_TMA_REDUCE_MIN", "half_t") in ok and ("SM90_TMA_REDUCE_MIN", "float") not in ok
    assert ("SM90_TMA_REDUCE_XOR", "uint64_t") in ok and ("SM90_TMA_REDUCE_XOR", "double") not in ok
    assert ("SM90_TMA_REDUCE_XOR", "int64_t") not in ok and ("SM90_TMA_REDUCE_MAX", "int64_t") in ok
