"""cutepy.banks.swizzle_search: the classic SM80/SM90 tiles, the impossible case, and the search
checked against brute force over a wider family."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cutepy.algebra.composed import ComposedLayout
from cutepy.banks import analyze_copy, analyze_layout, find_swizzle, swizzle_family
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.core.swizzle import Swizzle
from tests.banks.banks_copies import tiled_copy

# (tile, smem layout as CUTLASS tiles its atom, copies, element bytes, CUTLASS's swizzle)
# The swizzles are CUTLASS's SM80 CuTe GEMM configurations
# (test/unit/gemm/device/default_gemm_configuration.hpp) and, for SM90, the GMMA
# Layout_K_SW128_Atom<half_t>, which C++ prints as Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1):
# Sw<3,4,3> on byte addresses is Sw<3,3,3> on 2-byte elements.
CLASSIC = [
    ("fp16 K-major 128x64: cp.async 16 B + ldmatrix.x4", Layout((128, 64), (64, 1)),
     ["cp_half_k64", "ldsm_half_a"], 2, Swizzle(3, 3, 3)),
    ("fp16 M-major 128x64: cp.async 16 B + ldmatrix.trans", Layout(((64, 2), (8, 8)), ((1, 512), (64, 1024))),
     ["cp_half_m", "ldsmt_half_a"], 2, Swizzle(3, 3, 3)),
    ("fp16 K-major 128x32: cp.async 16 B + ldmatrix.x4", Layout((128, 32), (32, 1)),
     ["cp_half_k32", "ldsm_half_a"], 2, Swizzle(2, 3, 3)),
    ("tf32 K-major 128x32: cp.async 16 B + ldmatrix.x4", Layout((128, 32), (32, 1)),
     ["cp_tf32_k32", "ldsm_tf32_a"], 4, Swizzle(3, 2, 3)),
    ("int8 K-major 128x64: cp.async 16 B + ldmatrix.x4", Layout((128, 64), (64, 1)),
     ["cp_int8_k64", "ldsm_int8_a"], 1, Swizzle(2, 4, 3)),
    ("SM90 fp16 C tile 64x64: stmatrix.x4 epilogue", Layout((64, 64), (64, 1)),
     ["stsm_half_c"], 2, Swizzle(3, 3, 3)),
]


@pytest.mark.parametrize("case", CLASSIC, ids=[c[0] for c in CLASSIC])
def test_classic_tiles_get_cutlass_swizzle(case) -> None:
    _, smem, copies, E, expected = case
    copies = [tiled_copy(c) for c in copies]
    r = find_swizzle(smem, copies, E)
    assert r.found and r.swizzle == expected
    assert r.layout == ComposedLayout(expected, 0, smem)
    assert any(b.bank_conflicts for b in r.baseline)          # the plain tile conflicts
    for copy, row in zip(copies, r.table):
        exact = analyze_copy(copy, r.layout)                  # the proof table is the exact model
        assert (row.wavefronts, row.ideal, row.instructions) == (exact.wavefronts, exact.ideal,
                                                                 len(exact.instructions))
        assert exact.bank_conflicts == 0


def test_the_issue_case_fp16_64x64() -> None:
    smem = Layout((64, 64), (64, 1))
    r = find_swizzle(smem, [tiled_copy("cp_half_k64"), tiled_copy("ldsm_half_a")], 2)
    assert r.found and r.swizzle.bits == 3 and r.wavefronts == r.ideal
    # and with TV layouts: lane t of cp.async row t // 8, 16 B chunk t % 8; ldmatrix as the atom
    cp = Layout(((8, 16), (8, 4)), ((512, 1), (64, 16)))
    lds = Layout(((8, 2, 2, 4), (8, 4)), ((1, 8, 512, 16), (64, 1024)))
    r2 = find_swizzle(smem, [(cp, "cp.async", 8), (lds, "ldmatrix", 8)], 2)
    assert r2.swizzle == r.swizzle == Swizzle(3, 3, 3)


def test_tf32_m_major_scalar_reads_need_a_different_swizzle_than_cutlass() -> None:
    # CUTLASS pairs Sw<3,2,3> with UniversalCopy (4-byte ld) for M-major tf32 A; the exact
    # rule finds that pairing conflicts on the reads and that a 2-bit swizzle avoids it.
    smem = Layout(((32, 4), (8, 4)), ((1, 256), (32, 1024)))
    copies = [tiled_copy("cp_tf32_m"), tiled_copy("univ_tf32_a")]
    cutlass = ComposedLayout(Swizzle(3, 2, 3), 0, smem)
    assert analyze_copy(copies[1], cutlass).bank_conflicts > 0
    r = find_swizzle(smem, copies, 4)
    assert r.found and r.swizzle.bits == 2
    assert all(analyze_copy(c, r.layout).bank_conflicts == 0 for c in copies)


def test_no_swizzle_can_serve_a_64_byte_copy_of_128_byte_rows() -> None:
    # int8 rows of 128 B (the SM90 SW128 atom's shape) written by CUTLASS's cp.async for 64 B
    # rows: a phase covers rows r, r+1 at the same 64 bytes, so bank bit 6 must take row bit 0,
    # while ldmatrix needs row bits 0-2 on bank bits 4-6: no single XOR block does both.
    smem = Layout((64, 128), (128, 1))
    copies = [tiled_copy("cp_int8_k64"), tiled_copy("ldsm_int8_a")]
    r = find_swizzle(smem, copies, 1)
    assert not r.found and r.alternatives == ()
    assert r.swizzle == Swizzle(3, 4, 3)                          # the GMMA SW128 swizzle
    assert [row.bank_conflicts > 0 for row in r.table] == [True, False]
    for sw in swizzle_family(r.bits):                             # the proof, checked one by one
        layout = ComposedLayout(sw, 0, smem)
        try:
            total = sum(analyze_copy(c, layout).bank_conflicts for c in copies)
        except CutepyError:                                       # breaks a 16-byte vector
            continue
        assert total > 0


def test_a_column_and_a_diagonal_cannot_both_be_conflict_free() -> None:
    smem = Layout((32, 32), (32, 1))                              # fp32, 128-byte rows
    column = Layout(32, 1)                                         # lane t: (t, 0)
    diagonal = Layout(32, 33)                                      # lane t: (t, t)
    assert find_swizzle(smem, [(column, "ld", 1)], 4).swizzle == Swizzle(5, 0, 5)
    r = find_swizzle(smem, [(column, "ld", 1), (diagonal, "ld", 1)], 4)
    assert not r.found and r.wavefronts > r.ideal
    assert "no swizzle of the family reaches the ideal" in r.summary()


def test_an_ideal_tile_needs_no_swizzle() -> None:
    r = find_swizzle(Layout((8, 32), (32, 1)), [(Layout(((4, 8), 8), ((64, 1), 8)), "ld", 8)], 2)
    assert r.found and r.swizzle is None and r.layout == Layout((8, 32), (32, 1))
    assert "no swizzle" in str(r)


def test_family_bounds_and_order() -> None:
    fam = swizzle_family(12)
    for sw in fam:
        top = sw.base + abs(sw.shift) + sw.bits
        assert sw.bits >= 1 and abs(sw.shift) >= sw.bits and top <= 12
    keys = [(s.bits, abs(s.shift), s.shift < 0, s.base) for s in fam]
    assert keys == sorted(keys) and len(set(fam)) == len(fam)


def _cost(smem, sw, tv, op, V, E):
    layout = smem if sw is None else ComposedLayout(sw, 0, smem)
    try:
        r = analyze_layout(layout, tv, element_bytes=E, vector_elems=V, op=op)
    except CutepyError:
        return None
    return r.wavefronts - r.ideal


def _pow2(x: int) -> int:
    return 1 << max(0, x - 1).bit_length()


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([1, 2, 4]), st.data())
def test_search_agrees_with_brute_force_over_a_wider_family(E, data) -> None:
    V = data.draw(st.sampled_from([v for v in (1, 2, 4, 8, 16) if v * E <= 16]))
    # 32 lanes on a grid: lane t -> row (t % a) * sr, vector column (t // a) * sc of a row-major tile
    a = data.draw(st.sampled_from([1, 2, 4, 8, 16, 32]))
    sr, sc = data.draw(st.integers(0, 9)), data.draw(st.integers(0, 5))
    rows = max(4, _pow2((a - 1) * sr + 1))
    cols = max(V, 8, _pow2(((32 // a) - 1) * sc * V + V))
    assume(rows * cols <= 4096)
    smem = Layout((rows, cols), (cols, 1))                     # index i = m + rows n
    tv = Layout(((a, 32 // a), V), ((sr, sc * V * rows), rows))
    op = data.draw(st.sampled_from(["ld", "st"]))
    r = find_swizzle(smem, [(tv, op, V)], E)
    n = r.bits
    # every swizzle with one bit more than the searched bound n allows
    wider = [Swizzle(B, M, sign * S) for B in range(1, n + 2) for S in range(B, n + 2)
             for sign in (1, -1) for M in range(0, n + 2) if M + S + B <= n + 1]
    costs = {sw: _cost(smem, sw, tv, op, V, E) for sw in wider}
    costs[None] = _cost(smem, None, tv, op, V, E)
    valid = {sw: c for sw, c in costs.items() if c is not None}
    ideal_bits = [0 if sw is None else sw.bits for sw, c in valid.items() if c == 0]
    assert r.found == bool(ideal_bits)
    assert r.wavefronts - r.ideal == min(valid.values())          # nothing wider does better
    assert r.wavefronts <= sum(b.wavefronts for b in r.baseline)
    assert r.ideal == sum(b.ideal for b in r.baseline)            # a swizzle never changes the phases
    if r.found:
        assert (0 if r.swizzle is None else r.swizzle.bits) == min(ideal_bits)
        assert _cost(smem, r.swizzle, tv, op, V, E) == 0


def test_bad_searches_are_refused() -> None:
    smem = Layout((8, 64), (64, 1))
    tv = Layout((8, 8), (1, 64))
    with pytest.raises(CutepyError, match="plain layout"):
        find_swizzle(ComposedLayout(Swizzle(3, 3, 3), 0, smem), [(tv, "ld", 8)], 2)
    with pytest.raises(CutepyError, match="at least one access"):
        find_swizzle(smem, [], 2)
    with pytest.raises(CutepyError, match="op must be"):
        find_swizzle(smem, [(tv, "load", 8)], 2)
    with pytest.raises(CutepyError, match="not consecutive"):
        find_swizzle(smem, [(Layout((8, 8), (64, 1)), "ld", 8)], 2)
    with pytest.raises(CutepyError, match="moves 2-byte elements"):
        find_swizzle(Layout((64, 64), (64, 1)), [tiled_copy("ldsm_half_a")], 4)
    with pytest.raises(CutepyError, match="expected"):
        find_swizzle(smem, [(tv,)], 2)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([(32, 32), (16, 64), (64, 16), (8, 128)]), st.sampled_from([1, 2, 4]),
       st.sampled_from(["ld", "st"]))
def test_a_viewed_access_is_the_access_rewritten_through_its_view(shape, E, op) -> None:
    """A transpose: row writes and column reads (the rows of the transposed view) searched together
    give what the hand rewrite (the read's TV layout composed into the tile's index) gives."""
    from cutepy.algebra.composition import composition
    from cutepy.banks import Viewed

    M, N = shape
    tile = Layout((M, N), (N, 1))
    rows = (Layout((32, M * N // 32), (M * N // 32, 1)), "st", 1)
    view = Layout((N, M), (M, 1))                      # transposed coordinate -> tile index
    read = (Layout((32, M * N // 32), (M * N // 32, 1)), op, 1)
    by_view = find_swizzle(tile, [rows, Viewed(read, view)], E)
    by_hand = find_swizzle(tile, [rows, (composition(view, read[0]), op, 1)], E)
    assert (by_view.found, by_view.swizzle) == (by_hand.found, by_hand.swizzle)
    assert [a.wavefronts for a in by_view.table] == [a.wavefronts for a in by_hand.table]
