"""CUTLASS's tutorial blackwell/01_mma_sm100 (1-SM UMMA 128x256 from plain gmem tensors, CTA (1, 2))
built in cutepy: smem layouts, tiles, MMA partitions, UMMA descriptor fragments, the TMEM accumulator
and the TMEM -> register copy of threads 0, 1, 37 and 127 equal C++'s prints
(tests/data/tutorial_blackwell_01.txt, ``python -m tests.kernels.tutorial_cxx --sm100-01``)."""

from __future__ import annotations

import pytest

from cutepy.core.dynamic import dynamic
from cutepy.kernels.gmma_desc import make_gmma_desc_tensor
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import local_tile, make_tensor
from cutepy.kernels.tmem_copy import make_tmem_copy
from tests.kernels import tutorial_cxx

PATH = tutorial_cxx.FILE_SM100_01
STORED = tutorial_cxx.read(PATH) if PATH.is_file() else {}


def build() -> dict[str, str]:
    M, N, K, mA, mB, mC, mma, bM, bN, bK, sA_layout, sB_layout = tutorial_cxx.sm100_gemm_head(
        "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,K,K>")
    bx, by = dynamic(1), dynamic(2)  # blockIdx.x, blockIdx.y; the cluster's V mode has size _1
    v, m = bx % 1, bx // 1  # mma_coord_vmnk: bx % _1 is C++'s static _0
    gA, gB = local_tile(mA, (bM, bK), (m, None)), local_tile(mB, (bN, bK), (by, None))
    gC = local_tile(mC, (bM, bN), (m, by))
    tCsA = make_tensor(smem_ptr("half_t", 0x400), sA_layout)
    tCsB = make_tensor(smem_ptr("half_t", 0x4400), sB_layout)
    thr = mma.get_slice(v)
    tCgA, tCgB, tCgC = thr.partition_A(gA), thr.partition_B(gB), thr.partition_C(gC)
    tCtAcc = thr.partition_fragment_C(gC)
    t2r = make_tmem_copy("SM100_TMEM_LOAD_32dp32b1x", tCtAcc)
    out = {"sA": sA_layout, "sB": sB_layout, "gA": gA, "gB": gB, "gC": gC, "tCgA": tCgA, "tCgB": tCgB,
           "tCgC": tCgC, "tCrA": make_gmma_desc_tensor("K", tCsA, "UMMA").layout,
           "tCrB": make_gmma_desc_tensor("K", tCsB, "UMMA").layout, "tCtAcc": tCtAcc, "t2r": t2r}
    for t in map(dynamic, tutorial_cxx.THREADS):  # threadIdx.x
        out[f"tDgC {t}"] = t2r.get_slice(t).partition_D(tCgC)
        out[f"tDtAcc {t}"] = t2r.get_slice(t).partition_S(tCtAcc)
    return {k: tutorial_cxx.cxx_print(v) for k, v in out.items()}


@pytest.mark.skipif(not STORED, reason="tests/data/tutorial_blackwell_01.txt is missing")
def test_blackwell_01_objects_equal_cxx() -> None:
    got = build()
    assert set(got) == set(STORED)
    wrong = {k: (got[k], STORED[k]) for k in got if got[k] != STORED[k]}
    assert not wrong, wrong
