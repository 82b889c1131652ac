"""SM90 GMMA descriptor fragments (partition_fragment_A/B of _SS atoms) against C++'s prints
(tests/data/gmma_desc_cxx.txt), and the canonical-layout refusals."""

from __future__ import annotations

import pytest

from cutepy.algebra.products import tile_to_shape
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.atoms import gmma_smem_layout, mma_atom
from cutepy.kernels.gmma_desc import GmmaDescriptor, make_gmma_desc
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tiled import make_tiled_mma
from tests.kernels import gmma_desc_cxx as G

STORED = G.read() if G.FILE.is_file() else {}


def _fragments(c: tuple):
    t, n, ma, mb, swa, swb, bm, bn, bk, p = c
    mma = make_tiled_mma(mma_atom(G.cutepy_name(c)))
    sA = make_tensor(smem_ptr(t, 0x400), tile_to_shape(gmma_smem_layout(ma, swa, t), (bm, bk, p)))
    sB = make_tensor(smem_ptr(t, 0x10000), tile_to_shape(gmma_smem_layout(mb, swb, t), (bn, bk, p)))
    thr = mma.get_slice(0)
    return thr.partition_fragment_A(sA), thr.partition_fragment_B(sB)


@pytest.mark.skipif(not STORED, reason="tests/data/gmma_desc_cxx.txt is missing")
@pytest.mark.parametrize("c", G.CASES, ids=G.key)
def test_descriptor_fragments_equal_cxx(c: tuple) -> None:
    la, lb, wa, wb = STORED[G.key(c)]
    fA, fB = _fragments(c)
    assert str(fA.layout) == la and str(fB.layout) == lb
    # host C++ reads every smem address as 0: its words lack the start address (0x400, 0x10000)
    assert [f"{int(fA(i)) - (0x400 >> 4):x}" for i in range(fA.size())] == wa.split()
    assert [f"{int(fB(i)) - (0x10000 >> 4):x}" for i in range(fB.size())] == wb.split()


def test_descriptor_fields_round_trip() -> None:
    d = GmmaDescriptor((2 << 62) | (7 << 32) | (3 << 16) | 0x123)
    fields = (d.start_address, d.leading_byte_offset, d.stride_byte_offset, d.layout_type)
    assert fields == (0x123, 3, 7, "B64")
    assert "layout_type:  0x2 (B64)" in str(d)


def test_non_canonical_layouts_are_refused_with_cxx_words() -> None:
    # K-major with a K extent of 3 16-byte units, and a row-major tile that is MN-major for GMMA
    bad_k = make_tensor(smem_ptr("half_t"), Layout((64, 24), (24, 1)))
    with pytest.raises(CutepyError, match="Not a canonical GMMA_K Layout"):
        make_gmma_desc("K", bad_k)
    with pytest.raises(CutepyError, match="Not a canonical GMMA_MN Layout"):
        make_gmma_desc("MN", make_tensor(smem_ptr("half_t"), Layout((64, 16), (16, 1))))
    with pytest.raises(CutepyError, match="smem"):
        make_gmma_desc("K", make_tensor(None, Layout((64, 16))))
