"""``partition_all``: every thread's partition at once equals each thread's own ``get_slice(t)``
partition (the value and the kind of every leaf, C++'s print), for SM80/SM90 GEMM designs of a
sweep (TiledMMA ``partition_A``, cp.async ``partition_D``, ldmatrix ``partition_S`` over swizzled
and pointer-flag smem tensors), run-time and static thread indices, and layouts or coordinate
tensors the batch does not cover (partitioned one thread at a time)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from cutepy import (
    CutepyError,
    Layout,
    Swizzle,
    composition,
    copy_atom,
    make_tensor,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_mma,
    mma_atom,
    tile_to_shape,
)
from cutepy.kernels.atoms import gmma_smem_layout
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import Tensor, as_position_independent_swizzle_tensor, make_identity_tensor
from cutepy.kernels.tiled import partition_all


def told(x):
    """A partition as C++ tells it apart: its print with static and run-time leaves, its offset's kind."""
    layout = x.layout if isinstance(x, Tensor) else x
    offset = x.offset if isinstance(x, Tensor) else None
    return str(x), format(layout, "cxx"), type(offset).__name__, repr(offset)


def same_as_each_thread(tiled, which, tensor, static):
    parts = partition_all(tiled, which, tensor, static=static)
    assert len(parts) == tiled.size
    alone = dataclasses.replace(tiled)  # an equal value that keeps nothing from the batch
    for t in range(tiled.size):
        want = getattr(alone.get_slice(t, static=static), f"partition_{which}")(tensor)
        got = parts[t]
        assert got == want and told(got) == told(want), (which, t)
    return parts


@st.composite
def sm80_designs(draw):
    wm, wn = draw(st.sampled_from(((2, 2), (4, 1), (1, 4), (2, 4))))
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (wm, wn, 1), (16 * wm, 16 * wn, 16))
    bM, bK = draw(st.sampled_from((64, 128))), draw(st.sampled_from((32, 64)))
    atom = composition(Swizzle(draw(st.integers(1, 3)), 3, 3), Layout((8, bK), (bK, 1)))
    sA = make_tensor(smem_ptr("half_t", 0), tile_to_shape(atom, (bM, bK, draw(st.integers(1, 3)))))
    bits = draw(st.sampled_from((32, 64, 128)))
    vec, per_row = bits // 16, bK // (bits // 16)
    g2s = make_tiled_copy(copy_atom(f"SM80_CP_ASYNC_CACHEALWAYS<uint{bits}_t>", 16),
                          Layout((mma.size // per_row, per_row), (per_row, 1)), Layout((1, vec)))
    s2r = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    # another atom of the same shape: its partitions find the first's folded layouts (kept on sA)
    mma16 = make_tiled_mma(mma_atom("SM80_16x8x16_F16F16F16F16_TN"), (wm, wn, 1), (16 * wm, 16 * wn, 16))
    return [(mma, "A", sA), (g2s, "D", sA), (s2r, "S", sA), (mma16, "A", sA)]


@settings(max_examples=12, deadline=None)
@given(sm80_designs(), st.booleans())
def test_sm80_every_thread(parts, static):
    for tiled, which, tensor in parts:
        P = same_as_each_thread(tiled, which, tensor, static)
        assert P.offsets is not None  # made as a batch, not one thread at a time
        assert partition_all(tiled, which, tensor, static=static)._subs is P._subs  # kept on the value


@settings(max_examples=6, deadline=None)
@given(st.sampled_from((64, 128, 256)), st.integers(1, 3), st.integers(1, 3), st.booleans())
def test_sm90_every_thread(n, sw, stages, static):
    mma = make_tiled_mma(mma_atom(f"SM90_64x{n}x16_F32F16F16_SS<K,K>"), (1, 1, 1))
    layout = tile_to_shape(gmma_smem_layout("K", 16 << sw, "half_t"), (64, 64, stages))
    sA = make_tensor(smem_ptr("half_t", 0x400), layout)
    g2s = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
                          Layout((16, 8), (8, 1)), Layout((1, 8)))
    same_as_each_thread(mma, "A", sA, static)
    same_as_each_thread(g2s, "D", as_position_independent_swizzle_tensor(sA), static)


def test_coordinate_tensors_and_layouts_are_partitioned_one_thread_at_a_time():
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    P = same_as_each_thread(mma, "C", make_identity_tensor((32, 32)), False)
    assert P.offsets is None
    L = same_as_each_thread(mma, "B", Layout((32, 16), (16, 1)), True)
    assert L.offsets is not None and len(L.layouts) == 1


@st.composite
def small_swizzled_tensors(draw):
    """A rank-2 swizzled layout (some strides negative) over which a small TiledCopy runs."""
    b, m = draw(st.integers(1, 2)), draw(st.integers(0, 2))
    s = draw(st.integers(b, b + 1))
    rows, cols = draw(st.sampled_from((2, 4, 8))), draw(st.sampled_from((4, 8, 16)))
    order = draw(st.booleans())
    stride = (cols, 1) if order else (1, rows)
    stride = tuple(d * draw(st.sampled_from((1, 1, -1))) for d in stride)
    return make_tensor(None, composition(Swizzle(b, m, s), Layout((rows, cols), stride)))


@settings(max_examples=40, deadline=None)
@given(small_swizzled_tensors(), st.sampled_from(((2, 1), (2, 2), (1, 2))), st.sampled_from((1, 2)),
       st.booleans())
def test_every_thread_or_the_first_threads_error(tensor, threads, vec, static):
    """Over any swizzled tensor, ``partition_all`` is every thread's partition, or raises the error
    the first refused thread's own partition raises (C++'s refusals, carries into the swizzle)."""
    tc = make_tiled_copy(copy_atom("UniversalCopy<uint16_t>", 16), Layout(threads, (threads[1], 1)),
                         Layout((1, vec)))
    alone = dataclasses.replace(tc)
    want = []
    for t in range(tc.size):
        try:
            want.append(told(alone.get_slice(t, static=static).partition_S(tensor)))
        except CutepyError as e:
            want.append((type(e).__name__, str(e)))
            break
    try:
        parts = partition_all(tc, "S", tensor, static=static)
    except CutepyError as e:
        assert want[-1] == (type(e).__name__, str(e))
        return
    assert [told(parts[t]) for t in range(len(want))] == want


def test_the_tables_kept_on_a_tensor_stay_bounded_and_change_nothing(monkeypatch):
    from cutepy.algebra import composed
    from cutepy.kernels.tiled import partitions

    monkeypatch.setattr(partitions, "FOLD_LIMIT", 1)
    monkeypatch.setattr(composed, "FOLD_LIMIT", 2)
    sA = make_tensor(None, composition(Swizzle(3, 3, 3), Layout((64, 64), (64, 1))))
    for warps in ((2, 2, 1), (4, 1, 1), (1, 4, 1), (2, 2, 1)):
        mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), warps)
        same_as_each_thread(mma, "A", sA, False)
        assert len(composed.kept_table(sA.layout, "partitions")) <= 1
        assert len(composed.fold_table(sA.layout)) <= 2
