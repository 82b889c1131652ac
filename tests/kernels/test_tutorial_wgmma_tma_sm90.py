"""CUTLASS's tutorial hopper/wgmma_tma_sm90 (gemm_nt, m=512, n=256, k=1024) built in cutepy: smem
layouts, TiledMMA, TMA atoms, CTA tiles, TMA partitions and, for threads 0, 1, 37 and 127, the MMA
partitions and fragments (descriptor fragments for A and B) equal C++'s prints
(tests/data/tutorial_wgmma_tma_sm90.txt, made by tests/kernels/tutorial_cxx.py)."""

from __future__ import annotations

import pytest

from cutepy.algebra.products import tile_to_shape
from cutepy.core.dynamic import dynamic
from cutepy.core.layout import Layout
from cutepy.kernels.atoms import gmma_smem_layout, mma_atom
from cutepy.kernels.pointer import gmem_ptr, smem_ptr
from cutepy.kernels.tensor import local_tile, make_tensor
from cutepy.kernels.tiled import make_tiled_mma
from cutepy.kernels.tma import make_tma_atom, tma_partition
from tests.kernels import tutorial_cxx
from tests.kernels.tutorial_cxx import group_tile as _group

STORED = tutorial_cxx.read() if tutorial_cxx.FILE.is_file() else {}


def build() -> dict[str, str]:
    M, N, K = dynamic(512), dynamic(256), dynamic(1024)  # the tutorial's run-time int m, n, k
    bM, bN, bK, bP = 128, 128, 64, 3
    sA_layout = tile_to_shape(gmma_smem_layout("MN", 128, "half_t"), (bM, bK, bP))
    sB_layout = tile_to_shape(gmma_smem_layout("MN", 128, "half_t"), (bN, bK, bP))
    mma = make_tiled_mma(mma_atom("SM90_64x64x16_F16F16F16_SS<MN,MN>"))
    A = make_tensor(gmem_ptr("half_t", 0x10000000), Layout((M, K), (1, M)))
    B = make_tensor(gmem_ptr("half_t", 0x20000000), Layout((N, K), (1, N)))
    # the tutorial's sA(_,_,0): a run-time 0, which drops the pointer flag (Sw o 0 o L); C++ still
    # reads the swizzle on bytes (tests/kernels/test_flag_slice.py)
    stage = dynamic(0)
    tma_a = make_tma_atom("SM90_TMA_LOAD", A, sA_layout(None, None, stage), (bM, bK))
    tma_b = make_tma_atom("SM90_TMA_LOAD", B, sB_layout(None, None, stage), (bN, bK))
    out = {"sA": sA_layout, "sB": sB_layout, "mma": mma, "tma_a": tma_a, "tma_b": tma_b}
    mA, mB = tma_a.get_tma_tensor((M, K)), tma_b.get_tma_tensor((N, K))
    mC = make_tensor(gmem_ptr("half_t", 0x30000000), Layout((M, N), (1, M)))
    # local_tile(m, cta_tiler, (1, 0, _), Step<...>): the projected tilers and coordinates
    bx, by = dynamic(1), dynamic(0)  # blockIdx.x, blockIdx.y
    gA, gB = local_tile(mA, (bM, bK), (bx, None)), local_tile(mB, (bN, bK), (by, None))
    gC = local_tile(mC, (bM, bN), (bx, by))
    sA = make_tensor(smem_ptr("half_t", 0x400), sA_layout)
    sB = make_tensor(smem_ptr("half_t", 0xc400), sB_layout)
    tAgA, tAsA = tma_partition(tma_a, 0, Layout(1), _group(sA, 2), _group(gA, 2))
    tBgB, tBsB = tma_partition(tma_b, 0, Layout(1), _group(sB, 2), _group(gB, 2))
    out |= {"gA": gA, "gB": gB, "gC": gC, "tAgA": tAgA, "tAsA": tAsA, "tBgB": tBgB, "tBsB": tBsB}
    for t in map(dynamic, tutorial_cxx.THREADS):  # threadIdx.x
        thr = mma.get_slice(t)
        out |= {f"tCsA {t}": thr.partition_A(sA), f"tCsB {t}": thr.partition_B(sB),
                f"tCgC {t}": thr.partition_C(gC), f"tCrC {t}": thr.partition_fragment_C(gC).layout,
                f"tCrA {t}": thr.partition_fragment_A(sA).layout,
                f"tCrB {t}": thr.partition_fragment_B(sB).layout}
    out["descriptors"] = [{k: list(v) if isinstance(v, tuple) else v for k, v in vars(a.descriptor).items()}
                          for a in (tma_a, tma_b)]
    return {k: v if k == "descriptors" else tutorial_cxx.cxx_print(v) for k, v in out.items()}


@pytest.mark.skipif(not STORED, reason="tests/data/tutorial_wgmma_tma_sm90.txt is missing")
def test_wgmma_tma_sm90_objects_equal_cxx() -> None:
    got = build()
    assert str(got.pop("descriptors")) == str(tutorial_cxx.read_descriptors())
    assert set(got) == set(STORED)
    wrong = {k: (got[k], STORED[k]) for k in got if got[k] != STORED[k]}
    assert not wrong, wrong


@pytest.mark.slow
@pytest.mark.parametrize("flag", list(tutorial_cxx.RUNS))
def test_the_stored_tma_tutorial_prints_are_what_cxx_prints_now(cxx, flag: str) -> None:
    """The stored hopper/wgmma_tma_sm90 and blackwell/01..05 prints are what CUTLASS's headers print
    today (the 4.7 headers where CUTEPY_CXX_INCLUDE points at them; the default headers must agree)."""
    path = tutorial_cxx.RUNS[flag][1]
    assert tutorial_cxx.run_cxx(flag) == path.read_text()
