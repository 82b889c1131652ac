"""CUTLASS's CuTe tutorials built in cutepy, print for print against C++ (CUTLASS 4.7, stored in
tests/data/tutorials_cxx47.txt by tests/kernels/tutorials_cxx.py), for threads 0, 1, 37 and the last."""

from __future__ import annotations

import numpy as np
import pytest

from cutepy import (
    Layout,
    Swizzle,
    check_tile,
    composition,
    copy,
    copy_atom,
    cosize,
    gemm,
    local_tile,
    make_fragment_like,
    make_tensor,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_mma,
    mma_atom,
    tile_to_shape,
    tiled_divide,
)
from tests.kernels import tutorials_cxx as tut

STORED = tut.read()


def _norm(lines: list[str]) -> list[str]:
    out = []
    for x in lines:
        out += [tut.condense(y.strip()) for y in str(x).splitlines() if y.strip()]
    return out


@pytest.mark.parametrize("name,tid", tut.cases())
def test_tutorial_partitions_equal_cxx(name: str, tid: int) -> None:
    want = STORED[(name, tid)]
    got = _norm(tut.cutepy_lines(name, tid))
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        if ": <swizzled> |" in g:  # the ldmatrix partitions of swizzled smem: every element's offset
            assert g.split(" | ", 1)[1] == w.split(" | ", 1)[1], (g, w)
        else:
            assert g == w, (g, w)


# -- each tutorial's CTA tile simulated on data ------------------------------------------------


def _gemm_tile(copyA, copyB, mma, sAL, sBL, bK: int, k_tiles: int, dt, s2r=None, seed: int = 0) -> None:
    """One CTA tile of the tutorials' main loop on random data: per k-tile, gmem -> smem with
    the TiledCopys, then (through registers with ``s2r`` atoms, else straight from smem) the
    TiledMMA; the 128 x 128 accumulator against numpy."""
    rng = np.random.default_rng(seed)
    K = bK * k_tiles
    a = rng.standard_normal((128, K)).astype(dt)
    b = rng.standard_normal((128, K)).astype(dt)
    mA = make_tensor(a.ravel(order="F"), Layout((128, K)))
    mB = make_tensor(b.ravel(order="F"), Layout((128, K)))
    gA = local_tile(mA, (128, 128, bK), (0, 0, None), proj=(1, None, 1))
    gB = local_tile(mB, (128, 128, bK), (0, 0, None), proj=(None, 1, 1))
    sA = make_tensor(np.zeros(cosize(sAL), dt), sAL)
    sB = make_tensor(np.zeros(cosize(sBL), dt), sBL)
    T = mma.size
    thr = [mma.get_slice(t) for t in range(T)]
    ctype = np.float16 if mma.atom.element_types[3] == "half_t" else np.float32
    gC = make_tensor(np.zeros(128 * 128, ctype), Layout((128, 128)))
    rC = [t.partition_fragment_C(gC) for t in thr]
    for k in range(k_tiles):
        copy(copyA, gA(None, None, k), sA)
        copy(copyB, gB(None, None, k), sB)
        if s2r is None:
            gemm(mma, sA, sB, rC)
        else:
            rA = [t.partition_fragment_A(sA) for t in thr]
            rB = [t.partition_fragment_B(sB) for t in thr]
            cpa, cpb = make_tiled_copy_A(s2r, mma), make_tiled_copy_B(s2r, mma)
            copy(cpa, sA, [cpa.get_slice(i).retile_D(rA[i]) for i in range(T)])
            copy(cpb, sB, [cpb.get_slice(i).retile_D(rB[i]) for i in range(T)])
            gemm(mma, rA, rB, rC)
    for i, t in enumerate(thr):
        copy(copy_atom("DefaultCopy", 32), rC[i], t.partition_C(gC))
    ref = a.astype(np.float32) @ b.astype(np.float32).T
    tol = 0.1 if ctype == np.float16 else 1e-3
    assert check_tile(mma, gC, ref, rtol=tol, atol=tol) == 128 * 128


def _fma(atom: str):
    cp = make_tiled_copy(copy_atom(atom, 32), Layout((32, 8)), Layout((4, 1)))
    return cp, cp, make_tiled_mma(mma_atom("UniversalFMA<float,float,float,float>"), (16, 16, 1))


def test_sgemm_2_and_sm70_tile_simulates_to_numpy() -> None:
    _gemm_tile(*_fma("UniversalCopy<uint128_t>"), Layout((128, 8)), Layout((128, 8)), 8, 2, np.float32)


def test_sgemm_sm80_nt_tile_simulates_to_numpy() -> None:
    _gemm_tile(*_fma("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"), Layout((128, 8)), Layout((128, 8)), 8, 2,
               np.float32, s2r=copy_atom("AutoVectorizingCopy", 32))


def test_sgemm_sm80_tn_tile_simulates_to_numpy() -> None:
    """The half-precision TN design: Swizzle<3,3,3> smem, cp.async 16x8 k-major, ldmatrix, 2x2 mma.sync."""
    atom = composition(Swizzle(3, 3, 3), Layout((8, (8, 8)), (8, (1, 64))))
    sL = tile_to_shape(atom, (128, 64))
    cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
                         Layout((16, 8), (8, 1)), Layout((1, 8)))
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F16F16F16F16_TN"), (2, 2), (32, 32, 16))
    _gemm_tile(cp, cp, mma, sL, sL, 64, 1, np.float16, s2r=copy_atom("SM75_U32x4_LDSM_N", 16))


def test_tiled_copy_tutorial_simulates() -> None:
    S = make_tensor(np.arange(256 * 512, dtype=np.float32), Layout((256, 512)))
    D = make_tensor(np.zeros(256 * 512, np.float32), Layout((256, 512)))
    cp = make_tiled_copy(copy_atom("UniversalCopy<uint128_t>", 32), Layout((32, 8)), Layout((4, 1)))
    tS, tD = tiled_divide(S, (128, 64)), tiled_divide(D, (128, 64))
    for bx, by in ((0, 0), (1, 7)):
        frag = [make_fragment_like(cp.get_slice(t).partition_D(tD((None, None), bx, by))) for t in range(256)]
        copy(cp, tS((None, None), bx, by), frag)
        copy(cp, frag, tD((None, None), bx, by))
    d, s = D.engine.reshape(512, 256).T, S.engine.reshape(512, 256).T
    assert (d[:128, :64] == s[:128, :64]).all() and (d[128:, 448:] == s[128:, 448:]).all()
    assert d[:128, 64:].sum() == 0
