"""TMA reduce-add against CUTLASS 4.7 (tests/data/tma_reduce_cxx47.jsonl, made by
``python -m tests.kernels.tma_reduce_cxx``, see there): the same descriptor, TiledCopy, TMA tensor
and partitions as C++'s ``make_tma_copy(SM90_TMA_REDUCE_ADD{}, ...)`` / ``make_tma_atom``, and the
same refusals."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cutepy.core.layout import Layout
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import make_tma_copy
from tests.kernels.test_tma import check_row
from tests.kernels.tma_reduce_cxx import FILE, OP, cases

ROWS = [json.loads(line) for line in FILE.read_text().splitlines()] if FILE.exists() else []


def test_the_stored_rows_are_the_cases() -> None:
    assert [r["case"] for r in ROWS] == [json.loads(json.dumps(c)) for c in cases()]
    assert len(ROWS) == 58


@pytest.mark.parametrize("i", range(58))
def test_tma_reduce_add_equals_cxx47(i: int) -> None:
    check_row(ROWS[i])


def test_outcomes_cover_built_and_refused() -> None:
    got = Counter(check_row(r) for r in ROWS)
    assert got["built"] >= 40 and got["refused"] >= 1, got


def test_reduce_has_the_store_descriptor() -> None:
    g = make_tensor(gmem_ptr("float", 0x10000), Layout((256, 128), (128, 1)))
    red = make_tma_copy(OP, g, Layout((64, 32), (32, 1)))
    st = make_tma_copy("SM90_TMA_STORE", g, Layout((64, 32), (32, 1)))
    assert red.descriptor == st.descriptor and red.copy_atom.cpp_type == OP
    assert str(red) == str(st)
