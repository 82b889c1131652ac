"""The designer's checks: cover, vectorization and fit, passing and failing with reasons."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from cutepy import CutepyError, make_layout, mma_atoms
from cutepy.algebra.composed import ComposedLayout
from cutepy.algebra.products import tile_to_shape
from cutepy.core.inttuple import flatten_tuple as flatten
from cutepy.core.layout import Layout
from cutepy.core.swizzle import Swizzle
from cutepy.kernels.atoms import copy_atom, gmma_smem_layout, mma_atom
from cutepy.kernels.tiled import (
    TiledCopy,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_mma,
)
from cutepy.kernels.tiled.checks import check_cover, check_fits, check_vectorization, replication

MMA = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 16))
CP_ASYNC = copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16)


def test_cover_fails_with_the_uncovered_element() -> None:
    tc = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8)))
    broken = TiledCopy(tc.copy_atom, Layout((16, 1), (2, 0)), tc.tiler_mn)
    r = check_cover(broken)
    assert not r.ok and "held by no thread" in r.reason
    doubled = TiledCopy(tc.copy_atom, Layout((32, 2), (1, 0)), tc.tiler_mn)
    r = check_cover(doubled)
    assert not r.ok and "held by 2" in r.reason


def test_vectorization_reports_the_usable_width() -> None:
    g2s = make_tiled_copy(CP_ASYNC, Layout((16, 8), (8, 1)), Layout((1, 8)))
    row = Layout((128, 64), (64, 1))
    smem = ComposedLayout(Swizzle(3, 3, 3), 0, row)
    r = check_vectorization(g2s, row, smem)
    assert r.ok and r.value == 8
    col = Layout((128, 64))
    r = check_vectorization(g2s, col, smem)
    assert not r.ok and "source" in r.reason and r.value == 1
    narrow = ComposedLayout(Swizzle(3, 2, 3), 0, row)  # swizzles 4-element chunks: breaks 8-vectors
    r = check_vectorization(g2s, row, narrow)
    assert not r.ok and "destination" in r.reason


def test_vectorization_on_a_gmma_tile() -> None:
    smem = gmma_smem_layout("K", 128, 16)  # 8 x 64 atom
    tile = ComposedLayout(smem.outer, 0, tile_to_shape(smem.inner, (32, 64)))
    g2s = make_tiled_copy(CP_ASYNC, Layout((32, 8), (8, 1)), Layout((1, 8)))
    assert check_vectorization(g2s, Layout((32, 64), (64, 1)), tile).ok


def test_register_copies_fit_the_mma() -> None:
    s2r_A = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), MMA)
    assert check_fits(s2r_A, MMA, "A").ok
    s2r_B = make_tiled_copy_B(copy_atom("SM75_U32x2_LDSM_N", 16), MMA)
    assert check_fits(s2r_B, MMA, "B").ok
    r = check_fits(s2r_A, MMA, "B")
    assert not r.ok
    other = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (4, 1, 1), (64, 8, 16))
    r = check_fits(s2r_A, other, "A")
    assert not r.ok and "covers 32x16" in r.reason
    s2r_other = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), other)
    r = check_fits(s2r_other, MMA, "A")
    assert not r.ok and "does not divide" in r.reason
    r = check_fits(
        make_tiled_copy_A(copy_atom("UniversalCopy<uint32_t>", 16), other), MMA, "A", registers=True
    )
    assert not r.ok


def test_global_copies_fit_by_threads_and_tile() -> None:
    g2s = make_tiled_copy(CP_ASYNC, Layout((16, 8), (8, 1)), Layout((1, 8)))
    assert check_fits(g2s, MMA, "A").ok is False  # 128 copy threads vs 128 MMA threads, 16x64 tile > 32x16
    g2s_small = make_tiled_copy(CP_ASYNC, Layout((64, 2), (2, 1)), Layout((1, 8)))
    r = check_fits(g2s_small, MMA, "A")
    assert not r.ok and "does not divide" in r.reason
    g2s_ok = make_tiled_copy(CP_ASYNC, Layout((32, 4), (4, 1)), Layout((1, 8)))
    r = check_fits(
        g2s_ok, make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1), (32, 32, 32)), "A"
    )
    assert r.ok, r.reason
    assert check_fits(g2s_ok, MMA, "A", cta_tile=(128, 32)).ok
    r = check_fits(g2s_ok, MMA, "A", cta_tile=(128, 24))
    assert not r.ok and "block tile" in r.reason


# -- replication the design intends vs a mistake (issue 21, item 4) ----------------------------

def _atoms(n_big: int, seed: int) -> list[str]:
    names = list(mma_atoms())
    small = [n for n in names if not n.startswith(("SM90_64", "SM100_MMA"))]
    big = [n for n in names if n.startswith(("SM90_64", "SM100_MMA"))]
    return small + random.Random(seed).sample(big, n_big)


@pytest.mark.parametrize("layout", [(1, 1, 1), (2, 2, 1)])
def test_cover_passes_on_cutlass_tiled_mmas(layout: tuple) -> None:
    bad = []
    for name in _atoms(6 if layout == (1, 1, 1) else 2, 21):
        if layout != (1, 1, 1) and name.startswith(("SM90", "SM100")):
            continue  # GMMA/UMMA tile over warpgroups: one atom is their C++ use here
        r = check_cover(make_tiled_mma(mma_atom(name), layout))
        if not r.ok:
            bad.append((name, r.reason))
    assert bad == []


@pytest.mark.slow
def test_cover_passes_on_every_cutlass_mma_atom() -> None:
    bad = [(n, check_cover(make_tiled_mma(mma_atom(n))).reason) for n in mma_atoms()
           if not check_cover(make_tiled_mma(mma_atom(n))).ok]
    assert bad == []


def test_cover_passes_on_the_int4_atom_cutlass_47_fixed() -> None:
    """CUTLASS 4.2's SM80 int4 16x8x32 BLayout ((4,8),(8)):((32,1),(8)) left half of the 8x32
    tile to no thread; cutepy holds 4.7's stride 64 (tests/data/tiled_partitions_cxx47.txt)."""
    r = check_cover(make_tiled_mma(mma_atom("SM80_16x8x32_S32S4S4S32_TN")))
    assert r.ok, r.reason


@pytest.mark.parametrize("mma_name,layout", [("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)),
                                             ("SM80_16x8x16_F16F16F16F16_TN", (4, 1, 1)),
                                             ("SM80_16x8x8_F32F16F16F32_TN", (1, 4, 1)),
                                             ("SM80_16x8x16_F32BF16BF16F32_TN", (2, 4, 1))])
def test_cover_passes_on_ldmatrix_copies_of_replicated_operands(mma_name: str, layout: tuple) -> None:
    """make_tiled_copy_A/B of a 2x2 warp MMA hold each element twice (over ThrN / ThrM): intended."""
    mma = make_tiled_mma(mma_atom(mma_name), layout)
    for ldsm in ("SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x1_LDSM_N"):
        for make in (make_tiled_copy_A, make_tiled_copy_B):
            try:
                cp = make(copy_atom(ldsm, 16), mma)
            except CutepyError:
                continue  # C++ rejects this pairing too (too few values per thread)
            r = check_cover(cp)
            assert r.ok, (mma_name, ldsm, make.__name__, r.reason)


@given(st.integers(0, 3), st.integers(1, 3))
def test_cover_fails_when_a_thread_stride_is_broken(leaf: int, factor: int) -> None:
    """Replace one nonzero thread stride of a correct TiledCopy with another nonzero value: pairs
    collide or leave holes, and the reason says which element."""
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    cp = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    tv = cp.layout_tv_tiled
    shape, stride = list(flatten(tv[0].shape)), list(flatten(tv[0].stride))
    nz = [i for i, d in enumerate(stride) if d != 0]
    i = nz[leaf % len(nz)]
    new = stride[i] * (factor + 1) if factor < 3 else 0
    assume(new != stride[i])
    stride[i] = new
    broken = TiledCopy(cp.copy_atom, make_layout(Layout(tuple(shape), tuple(stride)), tv[1]), cp.tiler_mn)
    r = check_cover(broken)
    assert not r.ok and ("held by" in r.reason or "outside" in r.reason)
    assert replication(broken.layout_tv_tiled) >= 1


@given(st.sampled_from(["SM80_16x8x16_F32F16F16F32_TN", "SM70_8x8x4_F32F16F16F32_NT",
                        "SM90_64x64x16_F32F16F16_SS<K,K>"]),
       st.tuples(st.integers(1, 2), st.integers(1, 2), st.sampled_from((1, 2, 4))))
def test_first_k_group_is_the_threads_get_slice_puts_at_k_0(atom, warps):
    """check_cover's C threads (K coordinate 0), computed at once, are get_slice's one by one."""
    from cutepy.kernels.tiled.checks import _first_k_group

    mma = make_tiled_mma(mma_atom(atom), warps)
    threads = mma.thread_ids()
    assert _first_k_group(mma.thr_layout_vmnk, threads) == [
        t for t in threads if mma.get_slice(t).thr_vmnk[3] == 0]


def _cover_model(name: str, tv: Layout, M: int, N: int, times: int, threads: list | None) -> tuple:
    """check_cover's verdict on one TV layout, counted in plain Python (one call per pair)."""
    T = tv[0].size()
    vals = [tv(t + T * v) for v in range(tv.size() // T) for t in (range(T) if threads is None else threads)]
    outside = [x for x in vals if not 0 <= x < M * N]
    if outside:
        return False, f"{name}: a (thread, value) pair reaches index {min(outside)}, outside the {M}x{N} tile"
    counts = [vals.count(e) for e in range(M * N)]
    if 0 in counts:
        i = counts.index(0)
        return False, (f"{name}: element ({i % M},{i // M}) of the {M}x{N} tile is held by no thread "
                       f"({counts.count(0)} elements uncovered)")
    wrong = [e for e, c in enumerate(counts) if c != times]
    if wrong:
        i, k = wrong[0], counts[wrong[0]]
        return False, f"{name}: element ({i % M},{i // M}) is held by {k} (thread, value) pairs, not {times}"
    held = "once" if times == 1 else f"by {times} (thread, value) pairs"
    return True, f"{name}: each of {M}x{N} elements held {held}"


@given(st.lists(st.tuples(st.sampled_from((1, 2, 3, 4)), st.integers(-2, 12)), min_size=2, max_size=5),
       st.integers(1, 4), st.integers(1, 3), st.booleans(), st.data())
def test_cover_one_equals_a_plain_count(modes, cut, times, some_threads, data):
    """The numpy counting of one operand (out of the tile, holes, wrong multiplicity, success) gives
    the verdict and the first element a pair-by-pair Python count gives."""
    from cutepy.kernels.tiled.checks import _cover_one

    cut = min(cut, len(modes) - 1)
    thr, val = modes[:cut], modes[cut:]
    tv = Layout((tuple(s for s, _ in thr), tuple(s for s, _ in val)),
                (tuple(d for _, d in thr), tuple(d for _, d in val)))
    T = tv[0].size()
    threads = sorted(data.draw(st.sets(st.integers(0, T - 1), min_size=1))) if some_threads else None
    size = max(1, tv.cosize())
    M = data.draw(st.sampled_from([m for m in (1, 2, 3, 4, 6, 8) if size % m == 0] or [1]))
    N = max(1, size // M)
    r = _cover_one("A", tv, M, N, times, threads)
    ok, reason = _cover_model("A", tv, M, N, times, threads)
    event("covered" if ok else "outside" if "outside" in reason else "holes" if "held by no" in reason
          else "multiplicity")  # the verdicts the inputs reach
    assert r.ok == ok
    assert r.reason.startswith(reason), (r.reason, reason)
    assert r.value == (times if ok else None)
