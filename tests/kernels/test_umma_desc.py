"""SM100 UMMA shared-memory descriptors (C++'s make_fragment_A/B of MMA-shaped smem, as the Blackwell
tutorials build them) against C++'s prints (tests/data/umma_desc_cxx.txt)."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.atoms import gmma_smem_layout, mma_atom, tile_to_mma_shape
from cutepy.kernels.gmma_desc import make_gmma_desc_tensor, make_umma_desc, operand_majors
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tiled import make_tiled_mma, partition_shape_A, partition_shape_B
from tests.kernels import umma_cxx as U

STORED = U.read_desc() if U.DESC_FILE.is_file() else {}


@pytest.mark.skipif(not STORED, reason="tests/data/umma_desc_cxx.txt is missing")
@pytest.mark.parametrize("c", U.DESC_CASES, ids=U.desc_key)
def test_umma_descriptor_fragments_equal_cxx(c: tuple) -> None:
    _, _, _, ma, mb, swa, swb = c
    mma = make_tiled_mma(mma_atom(U.desc_name(c)))
    M, N, K = mma.tile_size_mnk[0], mma.tile_size_mnk[1], mma.tile_size_mnk[2] * 4
    sA = make_tensor(smem_ptr("half_t", 0x400),
                     tile_to_mma_shape(gmma_smem_layout(ma, swa, "half_t"), partition_shape_A(mma, (M, K))))
    sB = make_tensor(smem_ptr("half_t", 0x8400),
                     tile_to_mma_shape(gmma_smem_layout(mb, swb, "half_t"), partition_shape_B(mma, (N, K))))
    assert operand_majors(mma.atom.cpp_type) == (ma, mb)
    fA = make_gmma_desc_tensor(ma, sA, "UMMA")
    fB = make_gmma_desc_tensor(mb, sB, "UMMA")
    la, lb, wa, wb = STORED[U.desc_key(c)]
    assert str(fA.layout) == la and str(fB.layout) == lb
    # host C++ reads every smem address as 0: its words lack the start address (0x400, 0x8400)
    assert [f"{int(fA(i)) - (0x400 >> 4):x}" for i in range(fA.size())] == wa.split()
    assert [f"{int(fB(i)) - (0x8400 >> 4):x}" for i in range(fB.size())] == wb.split()


def test_umma_descriptor_refusals() -> None:
    with pytest.raises(CutepyError, match="Not a canonical UMMA_K Layout"):
        make_umma_desc("K", make_tensor(smem_ptr("half_t"), Layout((12, 16), (16, 1))))
    with pytest.raises(CutepyError, match="smem"):
        make_umma_desc("MN", make_tensor(None, Layout((64, 16))))
