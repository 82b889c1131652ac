"""CUTLASS's tutorial blackwell/03_mma_tma_multicast_sm100 (1-SM UMMA 128x256, a 4x4 cluster, multicast
TMA; CTA (5, 1), block rank 5) built in cutepy, with what blackwell/01 builds too (the UMMA descriptor
fragments and the TMEM -> register copy): TMA atoms, tiles, partitions, descriptor fragments, the TMEM
accumulator, tma_partition, multicast masks and the TMEM copy of threads 0, 1, 37 and 127 equal C++'s
prints (tests/data/tutorial_blackwell_03.txt, ``python -m tests.kernels.tutorial_cxx --sm100-03``)."""

from __future__ import annotations

import pytest

from cutepy.algebra.divides import tiled_divide
from cutepy.core.dynamic import dynamic
from cutepy.core.layout import Layout
from cutepy.kernels.gmma_desc import make_gmma_desc_tensor
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import flat_coord, local_tile, make_tensor
from cutepy.kernels.tma import create_tma_multicast_mask, make_tma_atom, tma_partition
from cutepy.kernels.tmem_copy import make_tmem_copy
from tests.kernels import tutorial_cxx
from tests.kernels.tutorial_cxx import group_tile as _group

PATH = tutorial_cxx.FILE_SM100_03
STORED = tutorial_cxx.read(PATH) if PATH.is_file() else {}


def build() -> dict[str, str]:
    M, N, K, mA, mB, mC, mma, bM, bN, bK, sA_layout, sB_layout = tutorial_cxx.sm100_gemm_head(
        "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>")
    cluster = tiled_divide(Layout((4, 4, 1)), (Layout(1),))  # (V, M, N, K): a 1-SM atom
    tma_a = make_tma_atom("SM90_TMA_LOAD_MULTICAST", mA, sA_layout, (bM, bK), cluster[2].size())
    tma_b = make_tma_atom("SM90_TMA_LOAD_MULTICAST", mB, sB_layout, (bN, bK), cluster[1].size())
    mA_tma, mB_tma = tma_a.get_tma_tensor((M, K)), tma_b.get_tma_tensor((N, K))
    out = {"cluster": cluster, "tma_a": tma_a, "tma_b": tma_b}
    bx, by = dynamic(5), dynamic(1)  # blockIdx.x, blockIdx.y
    v, m = bx % cluster[0].size(), bx // cluster[0].size()
    gA, gB = local_tile(mA_tma, (bM, bK), (m, None)), local_tile(mB_tma, (bN, bK), (by, None))
    gC = local_tile(mC, (bM, bN), (m, by))
    tCsA = make_tensor(smem_ptr("half_t", 0x400), sA_layout)
    tCsB = make_tensor(smem_ptr("half_t", 0x4400), sB_layout)
    thr = mma.get_slice(v)
    tCgA, tCgB, tCgC = thr.partition_A(gA), thr.partition_B(gB), thr.partition_C(gC)
    tCtAcc = thr.partition_fragment_C(gC)
    out |= {"tCgA": tCgA, "tCgB": tCgB, "tCgC": tCgC,
            "tCrA": make_gmma_desc_tensor("K", tCsA, "UMMA").layout,
            "tCrB": make_gmma_desc_tensor("K", tCsB, "UMMA").layout, "tCtAcc": tCtAcc}
    crd = flat_coord(cluster, dynamic(5))  # block_rank_in_cluster()
    tAgA, tAsA = tma_partition(tma_a, crd[2], Layout(cluster[2].size()), _group(tCsA, 3), _group(tCgA, 3))
    tBgB, tBsB = tma_partition(tma_b, crd[1], Layout(cluster[1].size()), _group(tCsB, 3), _group(tCgB, 3))

    def mask(*modes: int) -> int:
        return create_tma_multicast_mask(cluster, crd, modes=modes)

    out |= {"tAgA": tAgA, "tAsA": tAsA, "tBgB": tBgB, "tBsB": tBsB,
            "masks": " ".join(map(str, (mask(2), mask(1), mask(0, 1) | mask(0, 2))))}
    t2r = make_tmem_copy("SM100_TMEM_LOAD_32dp32b1x", tCtAcc)
    out["t2r"] = t2r
    for t in map(dynamic, tutorial_cxx.THREADS):  # threadIdx.x
        out[f"tDtAcc {t}"] = t2r.get_slice(t).partition_S(tCtAcc)
        out[f"tDgC {t}"] = t2r.get_slice(t).partition_D(tCgC)
    got = {k: tutorial_cxx.cxx_print(v) for k, v in out.items()}
    descs = [{k: list(v) if isinstance(v, tuple) else v for k, v in vars(a.descriptor).items()}
             for a in (tma_a, tma_b)]
    got["descriptors"] = str(descs)
    return got


@pytest.mark.skipif(not STORED, reason="tests/data/tutorial_blackwell_03.txt is missing")
def test_blackwell_03_objects_equal_cxx() -> None:
    got = build()
    assert got.pop("descriptors") == str(tutorial_cxx.read_descriptors(PATH))
    assert set(got) == set(STORED)
    wrong = {k: (got[k], STORED[k]) for k in got if got[k] != STORED[k]}
    assert not wrong, wrong
