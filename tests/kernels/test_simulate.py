"""Simulation on data (issue 21): element access, copy/copy_if/gemm through every thread's
partition, checked against numpy, and the errors a broken design raises."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy import (
    CutepyError,
    Layout,
    SimulationError,
    Swizzle,
    check_tile,
    composition,
    copy,
    copy_atom,
    copy_if,
    elem_less,
    gemm,
    local_tile,
    make_identity_tensor,
    make_tensor,
    make_tensor_like,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_mma,
    mma_atom,
    size,
    tensor,
    tile_to_shape,
)
from cutepy.kernels.tensor import Tensor

# -- element access -------------------------------------------------------------------------


@given(st.integers(1, 6), st.integers(1, 6), st.booleans())
def test_index_and_coordinate_access_agree_with_the_layout(m: int, n: int, row: bool) -> None:
    L = Layout((m, n), (n, 1)) if row else Layout((m, n))
    t = make_tensor(np.arange(m * n) * 10, L)
    for i in range(m * n):
        c = (i % m, i // m)
        assert t[i] == t(i) == t[c] == t(*c) == 10 * L(c)


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_writes_land_where_the_layout_says(m: int, n: int, data: st.DataObject) -> None:
    t = make_tensor(np.zeros(m * n, np.int64), Layout((m, n), (n, 1)))
    i, j = data.draw(st.integers(0, m - 1)), data.draw(st.integers(0, n - 1))
    t[i, j] = 7
    t[(i + 1) % m + m * j] = 5 if (i + 1) % m != i else 7
    assert t.engine[i * n + j] == 7 and t(i, j) == 7
    assert t.engine.sum() == (7 if m == 1 else 12)


def test_access_errors_say_what_is_wrong() -> None:
    t = make_tensor(np.zeros(6), Layout((2, 3)))
    with pytest.raises(CutepyError, match="outside the tensor"):
        t[6]
    with pytest.raises(CutepyError, match="outside the shape"):
        t[2, 0] = 1.0
    with pytest.raises(CutepyError, match="cannot be written"):
        make_identity_tensor((2, 2))[0] = 1
    with pytest.raises(CutepyError, match="slice cannot be assigned"):
        t[None, 0] = 1.0
    assert not t.engine.any()


def test_mode_access_is_cxx_tensor_of_i_and_slices_by_none() -> None:
    t = make_tensor(np.arange(12), Layout((3, 4)))
    assert tensor(t, 1).layout == Layout(4, 3)
    assert t[None, 2].layout == Layout((3,), (1,)) and t[None, 2].offset == 6
    assert make_identity_tensor((4, 8))[9] == (1, 2)


def test_make_tensor_like_gives_each_value_its_own_element() -> None:
    frag = make_tensor_like(make_identity_tensor((4, 8)), bool)
    assert frag.engine.dtype == bool and len(set(frag.layout.offsets().tolist())) == 32


# -- copy ---------------------------------------------------------------------------------

_SHAPES = st.sampled_from([((4, 8), (1, 2)), ((8, 4), (2, 1)), ((16, 8), (1, 8)), ((32, 4), (4, 1))])


@settings(max_examples=25)
@given(_SHAPES, st.booleans(), st.booleans(), st.booleans(), st.integers(1, 2))
def test_tiled_copy_of_a_whole_tile_copies_every_element(cfg, thr_row, src_row, dst_swz, reps) -> None:
    """copy(tiled_copy, src, dst) == dst takes src's value at every coordinate, whatever the
    thread order, the source layout, the destination layout (swizzled too) or the tiles per thread."""
    (tm, tn), (vm, vn) = cfg
    thr = Layout((tm, tn), (tn, 1)) if thr_row else Layout((tm, tn))
    cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), thr, Layout((vm, vn)))
    M, N = tm * vm * reps, tn * vn
    assume(M % 8 == 0 and N % 8 == 0)
    sL = Layout((M, N), (N, 1)) if src_row else Layout((M, N))
    src = make_tensor(np.arange(M * N, dtype=np.float32), sL)
    dL = composition(Swizzle(1, 0, 3), Layout((M, N))) if dst_swz else Layout((M, N), (N, 1))
    dst = make_tensor(np.zeros(M * N, np.float32), dL)
    copy(cp, src, dst)
    assert all(dst(m, n) == src(m, n) for m in range(M) for n in range(N))
    assert check_tile(cp, dst, np.array([[src(m, n) for n in range(N)] for m in range(M)])) == M * N


def test_ldmatrix_exchanges_values_between_threads() -> None:
    """LDSM: each thread gives addresses (ValLayoutSrc) and receives registers (ValLayoutDst);
    per-thread register fragments end up holding the MMA's A values."""
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    ldsm = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    a = np.random.default_rng(1).standard_normal((32, 16)).astype(np.float16)
    sA = make_tensor(a.ravel(), Layout((32, 16), (16, 1)))
    frags = [mma.get_slice(t).partition_fragment_A(sA) for t in range(128)]
    copy(ldsm, sA, [ldsm.get_slice(t).retile_D(frags[t]) for t in range(128)])
    for t in (0, 1, 37, 127):
        want = mma.get_slice(t).partition_A(sA)
        assert [float(frags[t][i]) for i in range(size(want))] == [float(want[i]) for i in range(size(want))]


def test_copy_if_reads_and_writes_only_predicated_values() -> None:
    """CUTLASS's tiled_copy_if tutorial: a 528 x 300 tensor, 128 x 64 tiles; the corner tile runs
    past the tensor and the predicate (elem_less of the identity tensor) keeps it inside."""
    shape = (528, 300)
    S = make_tensor(np.arange(528 * 300, dtype=np.float32), Layout(shape))
    D = make_tensor(np.zeros(528 * 300, dtype=np.float32), Layout(shape))
    cp = make_tiled_copy(copy_atom("UniversalCopy<uint128_t>", 32), Layout((32, 8)), Layout((4, 1)))
    for blk in ((4, 4), (0, 4), (4, 0)):
        cS = local_tile(make_identity_tensor(shape), (128, 64), blk)
        P = make_tensor_like(cS, bool)
        for i in range(size(P)):
            P[i] = elem_less(cS[i], shape)
        copy_if(cp, P, local_tile(S, (128, 64), blk), local_tile(D, (128, 64), blk))
    d, s = D.engine.reshape(300, 528).T, S.engine.reshape(300, 528).T
    want = np.zeros_like(s)
    for r, c in ((slice(512, None), slice(256, None)), (slice(0, 128), slice(256, None)),
                 (slice(512, None), slice(0, 64))):
        want[r, c] = s[r, c]
    assert (d == want).all()
    with pytest.raises(SimulationError, match="reads offset"):  # without the predicate: out of bounds
        copy(cp, local_tile(S, (128, 64), (4, 4)), make_tensor(np.zeros(128 * 64), Layout((128, 64))))


def test_an_aliasing_fragment_is_caught_and_nothing_is_written() -> None:
    """The fragment issue 21 saw: ((2,2,2),4,2):((0,0,0),1,1), 64 values in 5 registers."""
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    ldsm = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    a = np.arange(128 * 32, dtype=np.float16)
    sA = make_tensor(a, Layout((128, 32), (32, 1)))
    alias = Layout(((2, 2, 2), 4, 2), ((0, 0, 0), 1, 1))
    bad = [Tensor(np.zeros(5, np.float16), alias) for _ in range(128)]
    with pytest.raises(SimulationError, match=r"thread 0 value \d+ .* both write offset"):
        copy(ldsm, sA, [ldsm.get_slice(t).retile_D(bad[t]) for t in range(128)])
    assert not any(b.engine.any() for b in bad)


# -- gemm ---------------------------------------------------------------------------------


def _col_major(x: np.ndarray) -> Tensor:
    return make_tensor(x.ravel(order="F"), Layout(x.shape))


@settings(max_examples=12)
@given(
    st.sampled_from(["UniversalFMA<float,float,float,float>", "SM80_16x8x8_F32F16F16F32_TN",
                     "SM80_16x8x16_F32F16F16F32_TN", "SM70_8x8x4_F32F16F16F32_NT",
                     "SM75_16x8x8_F32F16F16F32_TN"]),
    st.sampled_from([(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 2, 1)]),
    st.integers(1, 2), st.integers(1, 2), st.integers(1, 2), st.integers(0, 2**31),
)
def test_gemm_of_whole_tiles_equals_numpy(name, atoms, rm, rn, rk, seed) -> None:
    """gemm(tiled_mma, A, B, C) adds A @ B^T, whatever the atom (warp-wide, quad-pair SM70,
    one-thread FMA), the atom layout, and the number of MMA tiles per thread."""
    if name.startswith("Universal"):
        atoms = (atoms[0] * 4, atoms[1] * 4, 1)
    mma = make_tiled_mma(mma_atom(name), atoms)
    M, N, K = (t * r for t, r in zip(mma.tile_size_mnk, (rm, rn, rk)))
    rng = np.random.default_rng(seed)
    dt = np.float32 if name.startswith("Universal") else np.float16
    a, b = rng.standard_normal((M, K)).astype(dt), rng.standard_normal((N, K)).astype(dt)
    c0 = rng.standard_normal((M, N)).astype(np.float32)
    C = _col_major(c0)
    gemm(mma, _col_major(a), _col_major(b), C)
    ref = c0 + a.astype(np.float32) @ b.astype(np.float32).T
    assert check_tile(mma, C, ref, rtol=1e-3, atol=1e-3) == M * N


def _sm80_tile(swizzle_read: Swizzle | None = None) -> tuple:
    """The whole SM80 loop of issue 21 for one CTA tile: gmem -> swizzled smem (cp.async) ->
    registers (ldmatrix) -> mma.sync -> gmem; ``swizzle_read`` reads smem with another swizzle."""
    rng = np.random.default_rng(0)
    M, N, K = 128, 128, 32
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((N, K)).astype(np.float16)
    gA, gB = make_tensor(a.ravel(), Layout((M, K), (K, 1))), make_tensor(b.ravel(), Layout((N, K), (K, 1)))
    gC = make_tensor(np.zeros(M * N, np.float32), Layout((M, N), (N, 1)))
    atom = composition(Swizzle(2, 3, 3), Layout((8, 32), (32, 1)))
    sA = make_tensor(np.zeros(M * K, np.float16), tile_to_shape(atom, (M, K)))
    sB = make_tensor(np.zeros(N * K, np.float16), tile_to_shape(atom, (N, K)))
    g2s = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
                          Layout((32, 4), (4, 1)), Layout((1, 8)))
    copy(g2s, gA, sA)
    copy(g2s, gB, sB)
    if swizzle_read is not None:
        wrong = composition(swizzle_read, Layout((8, 32), (32, 1)))
        sA = make_tensor(sA.engine, tile_to_shape(wrong, (M, K)))
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
    thr = [mma.get_slice(t) for t in range(mma.size)]
    rA = [t.partition_fragment_A(sA) for t in thr]
    rB = [t.partition_fragment_B(sB) for t in thr]
    rC = [t.partition_fragment_C(gC) for t in thr]
    s2rA = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    s2rB = make_tiled_copy_B(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    copy(s2rA, sA, [s2rA.get_slice(i).retile_D(rA[i]) for i in range(mma.size)])
    copy(s2rB, sB, [s2rB.get_slice(i).retile_D(rB[i]) for i in range(mma.size)])
    gemm(mma, rA, rB, rC)
    for i, t in enumerate(thr):
        copy(copy_atom("UniversalCopy<float>"), rC[i], t.partition_C(gC))
    return mma, gC, a.astype(np.float32) @ b.astype(np.float32).T


def test_sm80_gemm_tile_end_to_end_equals_numpy() -> None:
    mma, gC, ref = _sm80_tile()
    assert check_tile(mma, gC, ref) == 128 * 128


def test_a_bad_swizzle_shows_as_a_wrong_tile_with_threads_named() -> None:
    mma, gC, ref = _sm80_tile(Swizzle(3, 3, 3))
    where = r"differ from the reference:\n  \(\d+, \d+\): got .* held by thread \d+ value \d+"
    with pytest.raises(SimulationError, match=where):
        check_tile(mma, gC, ref)


def test_gemm_rejects_fragments_of_the_wrong_shape() -> None:
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"))
    A = [make_tensor(np.zeros(4, np.float16), Layout(4)) for _ in range(32)]
    B = [make_tensor(np.zeros(4, np.float16), Layout(4)) for _ in range(32)]
    C = [make_tensor(np.zeros(4, np.float32), Layout(4)) for _ in range(32)]
    with pytest.raises(SimulationError, match="mode 0 must hold the atom's 8 values"):
        gemm(mma, A, B, C)
    with pytest.raises(CutepyError, match="list of 3 per-thread tensors"):
        gemm(mma, A[:3], B, C)


@settings(max_examples=15)
@given(st.sampled_from(["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
                        "SM75_16x8x8_F32F16F16F32_TN", "SM80_8x8x4_F64F64F64F64_TN"]),
       st.sampled_from([(1, 1, 1), (2, 2, 1), (4, 1, 1), (1, 2, 1)]), st.integers(1, 3), st.integers(1, 3),
       st.integers(0, 127))
def test_fragments_of_identity_tensors_do_not_alias(name, layout, rm, rk, t) -> None:
    """Issue 21 item 1: a fragment like a coordinate tensor's partition gets one register per value,
    the layout C++'s partition_fragment_A(mma, shape) gives."""
    from cutepy import partition_fragment_A, partition_fragment_C

    mma = make_tiled_mma(mma_atom(name), layout)
    M, N, K = mma.tile_size_mnk
    shape_a, shape_c = (M * rm, K * rk), (M * rm, N)
    thr = mma.get_slice(t % mma.size)
    frag = thr.partition_fragment_A(make_identity_tensor(shape_a))
    assert frag.layout == partition_fragment_A(mma, shape_a).layout
    assert len(set(frag.layout.offsets().tolist())) == size(frag.layout)
    frag_c = thr.partition_fragment_C(make_identity_tensor(shape_c))
    assert frag_c.layout == partition_fragment_C(mma, shape_c).layout


def test_sm90_gmma_tile_from_swizzled_smem_equals_numpy() -> None:
    """Issue 21's SM90 design: a bf16 64x128x16 SS GMMA atom (every one of its 128 threads names
    the whole A and B tiles: the simulation checks they agree) over 128B-swizzled K-major smem
    (element form of GMMA::Layout_K_SW128_Atom<bfloat16_t>), K = 64; bf16 computes in float32."""
    mma = make_tiled_mma(mma_atom("SM90_64x128x16_F32BF16BF16_SS"))
    rng = np.random.default_rng(3)
    a = rng.standard_normal((64, 64)).astype(np.float32)
    b = rng.standard_normal((128, 64)).astype(np.float32)
    atom = composition(Swizzle(3, 3, 3), Layout((8, 64), (64, 1)))
    sA = make_tensor(np.zeros(64 * 64, np.float32), tile_to_shape(atom, (64, 64)))
    sB = make_tensor(np.zeros(128 * 64, np.float32), tile_to_shape(atom, (128, 64)))
    for t, x in ((sA, a), (sB, b)):  # t(m, k) = x[m, k] at every coordinate, colexicographically
        t.engine[t.layout.offsets()] = x.ravel(order="F")
    assert sA[5, 9] == a[5, 9] and sB[100, 63] == b[100, 63]
    C = make_tensor(np.zeros(64 * 128, np.float32), Layout((64, 128)))
    gemm(mma, sA, sB, C)
    assert check_tile(mma, C, a @ b.T, rtol=1e-3, atol=1e-3) == 64 * 128


def test_transpose_through_a_swizzled_tile_found_and_simulated() -> None:
    """Issue 21's transpose: rows written into shared memory, columns read back through the
    transposed view; find_swizzle takes both views and finds Sw<5,0,5> (both accesses at their
    ideal), and the simulated copies give numpy's transpose."""
    from cutepy.banks import Viewed, find_swizzle

    M = N = 32
    tc = make_tiled_copy(copy_atom("UniversalCopy<float>"), Layout((8, 32), (32, 1)), Layout((1, 1)))
    view = Layout((N, M), (M, 1))                              # (n, m) -> the tile's index m + M n
    r = find_swizzle(Layout((M, N), (N, 1)), [(tc, "st", None), Viewed((tc, "ld", None), view)], 4)
    assert r.found and [a.wavefronts for a in r.baseline] == [32, 1024]
    assert [a.wavefronts for a in r.table] == [32, 32]
    s = np.random.default_rng(2).standard_normal((M, N)).astype(np.float32)
    sT = make_tensor(np.zeros(M * N, np.float32), r.layout)
    copy(tc, make_tensor(s.ravel(), Layout((M, N), (N, 1))), sT)             # rows in
    gD = make_tensor(np.zeros(M * N, np.float32), Layout((N, M), (M, 1)))
    copy(tc, make_tensor(sT.engine, composition(r.layout, view)), gD)        # columns out
    assert (gD.engine.reshape(N, M) == s.T).all()
