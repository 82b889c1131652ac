"""TMA reduce-add against CUTLASS 4.7 (tests/data/tma_reduce_cxx47.jsonl, made by
``python -m tests.kernels.tma_reduce_cxx``, see there): the same descriptor, TiledCopy, TMA tensor
and partitions as C++'s ``make_tma_copy(SM90_TMA_REDUCE_ADD{}, ...)`` / ``make_tma_atom``, and the
same refusals; where C++ builds it for an element type the GPU does not add (8- and 16-bit types,
INT64: an illegal instruction on an H200, tests/data/tma_reduce_hardware.json), cutepy refuses."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cutepy import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import make_tma_copy
from cutepy.kernels.tma.descriptor import TMA_DATA_TYPE, TMA_REDUCTIONS
from tests.kernels import tma_cxx
from tests.kernels.test_tma import check_row
from tests.kernels.tma_reduce_cxx import FILE, OP, cases

ROWS = [json.loads(line) for line in FILE.read_text().splitlines()] if FILE.exists() else []


def test_the_stored_rows_are_the_cases() -> None:
    assert [r["case"] for r in ROWS] == [json.loads(json.dumps(c)) for c in cases()]
    assert len(ROWS) == 58


def _gpu_refuses(row: dict) -> bool:
    return TMA_DATA_TYPE[row["case"].get("internal") or row["case"]["dtype"]] not in TMA_REDUCTIONS[OP]


def check(row: dict) -> str:
    if row["ok"] and _gpu_refuses(row):
        with pytest.raises(CutepyError, match="tensor.add runs only on|overhangs a gmem mode"):
            tma_cxx.build(row["case"])
        return "C++ builds, the GPU faults"
    return check_row(row)


@pytest.mark.parametrize("i", range(58))
def test_tma_reduce_add_equals_cxx47(i: int) -> None:
    check(ROWS[i])


def test_outcomes_cover_built_and_refused() -> None:
    got = Counter(check(r) for r in ROWS)
    assert got["built"] >= 20 and got["refused"] >= 1 and got["C++ builds, the GPU faults"] >= 20, got


def test_reduce_has_the_store_descriptor() -> None:
    g = make_tensor(gmem_ptr("float", 0x10000), Layout((256, 128), (128, 1)))
    red = make_tma_copy(OP, g, Layout((64, 32), (32, 1)))
    st = make_tma_copy("SM90_TMA_STORE", g, Layout((64, 32), (32, 1)))
    assert red.descriptor == st.descriptor and red.copy_atom.cpp_type == OP
    assert str(red) == str(st)
