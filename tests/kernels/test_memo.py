"""cutepy.kernels.memo: what a TiledMMA / TiledCopy keeps is what it would compute again, a
run-time or symbolic layout is never taken for the static one it equals, and tables stay bounded."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from cutepy import (
    Layout,
    Swizzle,
    composition,
    copy_atom,
    dynamic,
    make_tensor,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_mma,
    mma_atom,
    tile_to_shape,
)
from cutepy.banks import analyze_copy
from cutepy.kernels import memo
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tiled.checks import check_cover


def _fresh(x):
    """An equal value with nothing kept on it."""
    return dataclasses.replace(x)


def _cxx(x) -> str:
    return format(x, "cxx")


SW = composition(Swizzle(3, 3, 3), Layout((8, 64), (64, 1)))


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([(2, 2, 1), (4, 1, 1), (1, 2, 1)]), st.sampled_from([64, 128]), st.integers(2, 3),
       st.data())
def test_kept_partitions_are_the_ones_computed_again(warps, bM, stages, data):
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), warps, (16 * warps[0], 16 * warps[1], 16))
    s2r = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    sA = make_tensor(smem_ptr("half_t", 0), tile_to_shape(SW, (bM, 64, stages)))
    threads = data.draw(st.lists(st.integers(0, mma.size - 1), min_size=1, max_size=4))
    for _ in range(2):  # the second round reads what the first kept
        for t in threads:
            want_a = _fresh(mma).get_slice(t).partition_A(sA)
            want_s = _fresh(s2r).get_slice(t).partition_S(sA)
            assert _cxx(mma.get_slice(t).partition_A(sA)) == _cxx(want_a)
            assert _cxx(s2r.get_slice(t).partition_S(sA)) == _cxx(want_s)
    assert mma.__dict__.get("_slices") and s2r.__dict__.get("_slices")  # something was kept


def test_a_run_time_layout_is_not_the_static_one_it_equals():
    """``dynamic(64)`` equals 64 (and hashes alike) but prints ``64`` where C++ prints ``_64``:
    a partition of the run-time layout after the static one is computed, not taken."""
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    static, run_time = Layout((32, 64), (64, 1)), Layout((32, dynamic(64)), (dynamic(64), 1))
    assert static == run_time
    a = mma.get_slice(3).partition_A(make_tensor(smem_ptr("half_t", 0), static))
    b = mma.get_slice(3).partition_A(make_tensor(smem_ptr("half_t", 0), run_time))
    want = _fresh(mma).get_slice(3).partition_A(make_tensor(smem_ptr("half_t", 0), run_time))
    assert _cxx(b) == _cxx(want) and _cxx(a) != _cxx(b)
    t = mma.get_slice(dynamic(3))  # a run-time thread index: computed each time, as before
    assert _cxx(t.partition_A(make_tensor(smem_ptr("half_t", 0), static))) == _cxx(
        _fresh(mma).get_slice(dynamic(3)).partition_A(make_tensor(smem_ptr("half_t", 0), static)))


def test_kept_checks_and_bank_reports_equal_fresh_ones():
    cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16), Layout((16, 8), (8, 1)),
                         Layout((1, 8)))
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
    stage = tile_to_shape(SW, (128, 64))
    for _ in range(2):
        assert check_cover(cp) == check_cover(_fresh(cp))
        assert check_cover(mma) == check_cover(_fresh(mma))
        assert analyze_copy(cp, dst=stage) == analyze_copy(_fresh(cp), dst=stage)
        assert analyze_copy(cp, dst=Layout((128, 64), (64, 1))) == analyze_copy(
            _fresh(cp), dst=Layout((128, 64), (64, 1)))


def test_tables_are_bounded(monkeypatch):
    monkeypatch.setattr(memo, "LIMIT", 256)  # the bound, whatever it is, small enough to reach quickly
    cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
    for n in range(1, 3 * memo.LIMIT):
        cp.get_slice(0).partition_S(Layout((4, 16 * n), (16 * n, 1)))
        assert len(cp.__dict__["_derived"]) <= memo.LIMIT
        assert len(cp.__dict__["_slices"]) <= memo.SLICE_LIMIT


def test_exact_keys():
    from cutepy.algebra.composed import ComposedLayout
    from cutepy.core.swizzle import SmemPtrFlag

    assert memo.exact_key(ComposedLayout(Swizzle(3, 4, 3), SmemPtrFlag(16), Layout((8, 64), (64, 1))))
    assert not memo.exact_key(ComposedLayout(Swizzle(3, 4, 3), dynamic(8), Layout((8, 64), (64, 1))))
    assert not memo.exact_key((1, True)) and not memo.exact_key([1, 2])


def test_coordinate_tensor_partitions_are_kept_and_exact():
    """A coordinate (identity) tensor's basis strides are exact keys: its partitions are kept,
    equal to fresh ones; a run-time scale is not taken for the static one."""
    from cutepy import make_identity_tensor

    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    cC = make_identity_tensor((32, 16))
    for t in (0, 5, 127, 5):
        assert _cxx(mma.get_slice(t).partition_C(cC)) == _cxx(_fresh(mma).get_slice(t).partition_C(cC))
    from cutepy.core.basis import ScaledBasis

    assert memo.exact_key(ScaledBasis(2, (1,))) and not memo.exact_key(ScaledBasis(dynamic(2), (1,)))


def test_run_time_and_static_thread_indices_are_kept_apart():
    """``get_slice(t)`` is a run-time index (a kernel's ``threadIdx.x``), ``static=True`` C++'s
    ``Int<t>``: on a swizzled smem tensor their partitions differ in form; each is kept under its
    own kind and equals the one computed afresh, whichever comes first."""
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
    s2r = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    sA = make_tensor(smem_ptr("half_t", 0), tile_to_shape(SW, (128, 64, 2)))
    for t in (5, 37):
        for static in (True, False, True, False):
            got = s2r.get_slice(t, static=static).partition_S(sA)
            assert _cxx(got) == _cxx(_fresh(s2r).get_slice(t, static=static).partition_S(sA))
            got = mma.get_slice(t, static=static).partition_A(sA)
            assert _cxx(got) == _cxx(_fresh(mma).get_slice(t, static=static).partition_A(sA))
    run_time = _cxx(s2r.get_slice(37).partition_S(sA))
    assert run_time != _cxx(s2r.get_slice(37, static=True).partition_S(sA))
    assert any(k[1][0] == ("dynamic", 37) for k in s2r.__dict__["_slices"] if type(k[0]) is int)
