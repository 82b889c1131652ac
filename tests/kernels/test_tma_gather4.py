"""TMA gather4/scatter4 against CUTLASS 4.7 (tests/data/tma_gather4_cxx47.jsonl, made by
``python -m tests.kernels.tma_gather4_cxx``, see there): the descriptor (a box of one row of mode 0),
the atom (four rows' bits), its gmem basis and TMA tensor equal C++'s ``make_tma_atom``, and
rank-3 tensors are refused as C++'s static_assert rejects them."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import make_tma_atom
from tests.kernels.test_tma import check_row
from tests.kernels.tma_gather4_cxx import FILE, cases

ROWS = [json.loads(line) for line in FILE.read_text().splitlines()] if FILE.exists() else []


def test_the_stored_rows_are_the_cases() -> None:
    assert [r["case"] for r in ROWS] == [json.loads(json.dumps(c)) for c in cases()]
    assert len(ROWS) == 89


@pytest.mark.parametrize("i", range(89))
def test_tma_gather4_equals_cxx47(i: int) -> None:
    check_row(ROWS[i])


def test_outcomes_cover_every_op_built_and_refused() -> None:
    built = Counter(r["case"]["op"] for r in ROWS if check_row(r) == "built")
    assert len(built) == 3 and min(built.values()) >= 5, built
    assert any(check_row(r) == "refused" and r["case"]["rank"] == 3 for r in ROWS)


def test_gather4_moves_four_rows_of_one_row_boxes() -> None:
    g = make_tensor(gmem_ptr("half_t", 0x1000), Layout((512, 64), (64, 1)))
    a = make_tma_atom("SM100_TMA_LOAD_2D_GATHER4", g, Layout((64, 64), (64, 1)), (64, 64))
    assert a.descriptor.box_dim == (64, 1) and a.layout_src_tv == Layout((1, 256), (0, 1))
    g3 = make_tensor(gmem_ptr("half_t", 0x1000), Layout((8, 64, 64), (4096, 64, 1)))
    with pytest.raises(CutepyError, match="only supports 2-D tensors"):
        make_tma_atom("SM100_TMA_STORE_2D_SCATTER4", g3, Layout((1, 8, 64), (512, 64, 1)), (1, 8, 64))
