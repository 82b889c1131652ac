"""CUTLASS's tutorial blackwell/05_mma_tma_epi_sm100, its epilogue (2-SM UMMA 256x256, CTA (5, 1)):
TMA atoms for C (load) and D (store) over 128x64 epilogue tiles, the epilogue tiles of the TMEM
accumulator, tma_partition and the TMEM -> smem copy of threads 0, 1, 37 and 127 equal C++'s prints
(tests/data/tutorial_blackwell_05.txt, ``python -m tests.kernels.tutorial_cxx --sm100-epi``)."""

from __future__ import annotations

import pytest

from cutepy import zipped_divide
from cutepy.algebra.products import tile_to_shape
from cutepy.core.dynamic import dynamic
from cutepy.core.layout import Layout, group
from cutepy.kernels.atoms import gmma_smem_layout, mma_atom
from cutepy.kernels.pointer import gmem_ptr, smem_ptr
from cutepy.kernels.tensor import local_tile, make_tensor
from cutepy.kernels.tiled import make_tiled_mma, partition_shape_C
from cutepy.kernels.tma import make_tma_atom, tma_partition
from cutepy.kernels.tmem_copy import make_tmem_copy
from tests.kernels import tutorial_cxx

PATH = tutorial_cxx.FILE_SM100_EPI
STORED = tutorial_cxx.read(PATH) if PATH.is_file() else {}


def build() -> dict[str, str]:
    M, N = dynamic(512), dynamic(1024)  # the tutorial's run-time int Gemm_M, Gemm_N
    mC = make_tensor(gmem_ptr("float", 0x30000000), Layout((M, N), (N, 1)))
    mD = make_tensor(gmem_ptr("float", 0x40000000), Layout((M, N), (N, 1)))
    mma = make_tiled_mma(mma_atom("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>"))
    bM, bN = mma.tile_size_mnk[0], mma.tile_size_mnk[1]
    shape_c = partition_shape_C(mma, (bM, bN))
    epi = (shape_c[0][0], shape_c[0][1] // 4)
    sC_layout = group(tile_to_shape(gmma_smem_layout("K", 128, "float"), epi), 0, 2)
    sD_layout = group(tile_to_shape(gmma_smem_layout("K", 128, "float"), epi), 0, 2)
    tma_c = make_tma_atom("SM90_TMA_LOAD", mC, sC_layout, epi)
    tma_d = make_tma_atom("SM90_TMA_STORE", mD, sD_layout, epi)
    mC_tma, mD_tma = tma_c.get_tma_tensor((M, N)), tma_d.get_tma_tensor((M, N))
    out = {"sC": sC_layout, "tma_c": tma_c, "tma_d": tma_d, "mC": mC_tma, "mD": mD_tma}
    bx, by = dynamic(5), dynamic(1)  # blockIdx.x, blockIdx.y
    thr = mma.get_slice(bx % 2)
    gC = local_tile(mC_tma, (bM, bN), (bx // 2, by))
    gD = local_tile(mD_tma, (bM, bN), (bx // 2, by))
    tCgC, tCgD = thr.partition_C(gC), thr.partition_C(gD)
    tCtAcc = thr.partition_fragment_C(gC)
    tAcc_epi = zipped_divide(tCtAcc, (epi,))
    gC_epi, gD_epi = zipped_divide(tCgC, (epi,)), zipped_divide(tCgD, (epi,))
    sC_epi = make_tensor(smem_ptr("float", 0x400), sC_layout)
    sD_epi = make_tensor(smem_ptr("float", 0x8400), sD_layout)
    tGS_gC, tGS_sC = tma_partition(tma_c, 0, Layout(1, 0), sC_epi, gC_epi)
    tSG_gD, tSG_sD = tma_partition(tma_d, 0, Layout(1, 0), sD_epi, gD_epi)
    t2r = make_tmem_copy("SM100_TMEM_LOAD_32dp32b1x", tAcc_epi(None, 0))
    out |= {"tAcc_epi": tAcc_epi, "gC_epi": gC_epi, "tGS_gC": tGS_gC, "tGS_sC": tGS_sC, "tSG_gD": tSG_gD,
            "tSG_sD": tSG_sD, "t2r": t2r}
    for t in map(dynamic, tutorial_cxx.THREADS):  # threadIdx.x
        out[f"tTR_tAcc {t}"] = t2r.get_slice(t).partition_S(tAcc_epi)
        out[f"tTR_sC {t}"] = t2r.get_slice(t).partition_D(sC_epi)
    got = {k: tutorial_cxx.cxx_print(v) for k, v in out.items()}
    descs = [{k: list(v) if isinstance(v, tuple) else v for k, v in vars(a.descriptor).items()}
             for a in (tma_c, tma_d)]
    got["descriptors"] = str(descs)
    return got


@pytest.mark.skipif(not STORED, reason="tests/data/tutorial_blackwell_05.txt is missing")
def test_blackwell_05_epilogue_equals_cxx() -> None:
    got = build()
    assert got.pop("descriptors") == str(tutorial_cxx.read_descriptors(PATH))
    assert set(got) == set(STORED)
    wrong = {k: (got[k], STORED[k]) for k in got if got[k] != STORED[k]}
    assert not wrong, wrong
