"""SM100 UMMA accumulators in tensor memory against C++'s make_fragment_C (tests/data/umma_tmem_cxx.txt)."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import mma_atom
from cutepy.kernels.tensor import make_identity_tensor
from cutepy.kernels.tiled import make_tiled_mma, partition_fragment_C
from cutepy.kernels.tmem import make_tmem_frg, tmem_columns
from tests.kernels import umma_cxx as U

STORED = U.read() if U.FILE.is_file() else {}


@pytest.mark.skipif(not STORED, reason="tests/data/umma_tmem_cxx.txt is missing")
@pytest.mark.parametrize("c", U.CASES, ids=U.name)
def test_accumulator_layout_equals_cxx(c: tuple) -> None:
    _, m, n = c
    mma = make_tiled_mma(mma_atom(U.name(c)))
    thr = mma.get_slice(0)
    frag = thr.partition_fragment_C(make_identity_tensor((m, n)))
    assert str(frag.layout) == STORED[U.name(c)]
    assert partition_fragment_C(mma, (m, n)).layout == frag.layout


def test_accumulator_columns_and_addresses() -> None:
    t = make_tmem_frg("float", ((128, 256), 1, 1))
    assert tmem_columns(t) == 256
    assert t((37, 5), 0, 0) == (37 << 16) | 5
    # a 64-row accumulator interleaves lanes in groups of 16 (the lane quarters of each warp)
    t64 = make_tmem_frg("float", ((64, 128), 1, 1))
    lanes = sorted({a >> 16 for a in (t64.engine[int(o)] for o in t64.layout.offsets())})
    assert lanes == [q * 32 + i for q in range(4) for i in range(16)]


def test_tmem_refusals() -> None:
    with pytest.raises(CutepyError, match="more TMEM"):
        make_tmem_frg("float", ((128, 256), 1, 3))
    with pytest.raises(CutepyError, match="M-mode"):
        make_tmem_frg("float", ((32, 64), 1, 1))
    with pytest.raises(CutepyError, match="SMEM Tensor to construct"):
        make_tiled_mma(mma_atom(U.name(U.CASES[0]))).get_slice(0).partition_fragment_A(
            make_identity_tensor((128, 16)))
