"""CUTLASS's tutorial blackwell/04_mma_tma_2sm_sm100 (2-SM UMMA 256x256, a 4x4 cluster, multicast
2-SM TMA; CTA (5, 1), block rank 5) built in cutepy: make_tma_atom_A/B_sm100, their descriptors,
the tiles, partitions, TMEM accumulator, tma_partition and the multicast masks equal C++'s prints
(tests/data/tutorial_blackwell_04.txt, ``python -m tests.kernels.tutorial_cxx --sm100-2sm``)."""

from __future__ import annotations

import pytest

from cutepy.algebra.divides import tiled_divide
from cutepy.core.dynamic import dynamic
from cutepy.core.layout import Layout
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import flat_coord, local_tile, make_tensor
from cutepy.kernels.tma import (
    create_tma_multicast_mask,
    make_tma_atom_A_sm100,
    make_tma_atom_B_sm100,
    tma_partition,
)
from tests.kernels import tutorial_cxx
from tests.kernels.tutorial_cxx import group_tile as _group

PATH = tutorial_cxx.FILE_SM100_2SM
STORED = tutorial_cxx.read(PATH) if PATH.is_file() else {}


def build() -> dict[str, str]:
    M, N, K, mA, mB, mC, mma, bM, bN, bK, sA_layout, sB_layout = tutorial_cxx.sm100_gemm_head(
        "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>")
    tiler = (bM, bN, bK)
    cluster = tiled_divide(Layout((4, 4, 1)), (Layout(2),))  # (V, M, N, K): the atom's 2 CTAs first
    op = "SM100_TMA_2SM_LOAD_MULTICAST"
    tma_a = make_tma_atom_A_sm100(op, mA, sA_layout, tiler, mma, cluster)
    tma_b = make_tma_atom_B_sm100(op, mB, sB_layout, tiler, mma, cluster)
    mA_tma, mB_tma = tma_a.get_tma_tensor((M, K)), tma_b.get_tma_tensor((N, K))
    out = {"mma": mma, "sA": sA_layout, "sB": sB_layout, "cluster": cluster, "tma_a": tma_a, "tma_b": tma_b,
           "mA": mA_tma, "mB": mB_tma}
    bx, by = dynamic(5), dynamic(1)  # blockIdx.x, blockIdx.y
    v, m = bx % 2, bx // 2
    gA, gB = local_tile(mA_tma, (bM, bK), (m, None)), local_tile(mB_tma, (bN, bK), (by, None))
    gC = local_tile(mC, (bM, bN), (m, by))
    tCsA = make_tensor(smem_ptr("half_t", 0x400), sA_layout)
    tCsB = make_tensor(smem_ptr("half_t", 0x4400), sB_layout)
    thr = mma.get_slice(v)
    tCgA, tCgB, tCgC = thr.partition_A(gA), thr.partition_B(gB), thr.partition_C(gC)
    crd = flat_coord(cluster, dynamic(5))  # block_rank_in_cluster()
    tAgA, tAsA = tma_partition(tma_a, crd[2], Layout(4), _group(tCsA, 3), _group(tCgA, 3))
    tBgB, tBsB = tma_partition(tma_b, crd[1], Layout(2), _group(tCsB, 3), _group(tCgB, 3))
    def mask(*modes: int) -> int:
        return create_tma_multicast_mask(cluster, crd, modes=modes)

    masks = (mask(2), mask(1), mask(0, 1) | mask(0, 2))
    out |= {"gA": gA, "gB": gB, "gC": gC, "tCgA": tCgA, "tCgB": tCgB, "tCgC": tCgC,
            "tCtAcc": thr.partition_fragment_C(gC), "tAgA": tAgA, "tAsA": tAsA, "tBgB": tBgB, "tBsB": tBsB,
            "masks": " ".join(map(str, masks))}
    got = {k: tutorial_cxx.cxx_print(v) for k, v in out.items()}
    descs = [{k: list(v) if isinstance(v, tuple) else v for k, v in vars(a.descriptor).items()}
             for a in (tma_a, tma_b)]
    got["descriptors"] = str(descs)
    return got


@pytest.mark.skipif(not STORED, reason="tests/data/tutorial_blackwell_04.txt is missing")
def test_blackwell_04_objects_equal_cxx() -> None:
    got = build()
    assert got.pop("descriptors") == str(tutorial_cxx.read_descriptors(PATH))
    assert set(got) == set(STORED)
    wrong = {k: (got[k], STORED[k]) for k in got if got[k] != STORED[k]}
    assert not wrong, wrong
