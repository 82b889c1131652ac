"""solve_swizzle and solve_conflict_free: C++'s swizzles found, impossibility proved, and the
answers checked at every input (and against a brute-force search over the whole family)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy import CutepyError, Layout, Swizzle, composition, gmma_smem_layout, tile_to_shape
from cutepy.algebra.composed import ComposedLayout
from cutepy.banks import analyze_layout, find_swizzle
from cutepy.core.evaluate import offsets
from cutepy.kernels.pointer import as_position_independent_swizzle_layout
from cutepy.linear.convert import swizzles
from cutepy.linear.solve import solve_conflict_free, solve_swizzle
from cutepy.notation import parse
from tests.kernels.atoms.atoms_cxx import SMEM_CASES, SMEM_FILE, read_table
from tests.linear import sm80_cxx
from tests.linear.strategies import linear_cute_layouts

STORED_SM80 = sm80_cxx.read()
STORED_GMMA = read_table(SMEM_FILE)


@pytest.mark.parametrize("case", SMEM_CASES, ids=lambda c: "/".join(map(str, c)))
def test_solve_swizzle_finds_the_gmma_atoms_swizzle(case):
    """Every GMMA smem atom (K/MN, INTER/SW32/64/128, 8-64 bits): the swizzle found is the one C++
    prints for the atom's element-offset form (tests/data/atoms_smem.txt; none for INTER)."""
    # C++'s atom swizzles byte addresses (smem_ptr[b]); solve on its element-offset form
    atom = as_position_independent_swizzle_layout(gmma_smem_layout(*case))
    cxx = STORED_GMMA["/".join(map(str, case))][1]
    assert str(atom) == cxx
    inner = atom.inner if isinstance(atom, ComposedLayout) else atom
    r = solve_swizzle(inner, atom)
    assert r.found and r.offset == 0
    if cxx.startswith("Sw<"):
        assert str(r.swizzle) == cxx.split(" o ")[0]
    else:
        assert r.swizzle.bits == 0
    assert np.array_equal(offsets(r.layout(inner)), offsets(atom))


@pytest.mark.parametrize("name", [c[0] for c in sm80_cxx.CASES])
def test_solve_swizzle_finds_cutlass_sm80_swizzles(name):
    """CUTLASS's SM80 smem atoms tiled to a CTA tile, both layouts as C++ 4.7 prints them: the
    swizzle found from their offsets alone is the one C++ printed."""
    plain, swizzled = STORED_SM80[name]
    A, B = parse(plain), parse(swizzled)
    r = solve_swizzle(A, B)
    assert r.found and str(r.swizzle) == swizzled.split(" o ")[0] and r.offset == 0, (name, r)
    assert np.array_equal(offsets(r.layout(A)), offsets(B))
    _, sw, atom, tile = next(c for c in sm80_cxx.CASES if c[0] == name)
    assert str(tile_to_shape(composition(sw, atom), tile)) == swizzled  # cutepy builds the same


def test_sm80_layouts_match_live_cxx(cxx):
    res = cxx.run_cases([sm80_cxx.case_source(sw, atom, tile) for _, sw, atom, tile in sm80_cxx.CASES])
    for (name, *_), r in zip(sm80_cxx.CASES, res):
        assert r.ok, r.error[:300]
        assert cxx.normalise(r.output).split("|") == STORED_SM80[name]


def test_solve_swizzle_with_an_offset():
    A = Layout((8, 8), (8, 1))
    B = ComposedLayout(Swizzle(2, 0, 3), 64, A)
    r = solve_swizzle(A, B)
    assert r.found and r.offset == 64
    assert np.array_equal(offsets(r.layout(A)), offsets(B))


def test_solve_swizzle_proves_impossibility():
    # a transpose is linear but no swizzle: the proof names a failing equation
    r = solve_swizzle(Layout((4, 4), (4, 1)), Layout((4, 4), (1, 4)))
    assert not r.found and r.swizzle is None and "no swizzle" in r.proof
    # not even a linear map: A(2) = 0 but B(2) = 2
    r = solve_swizzle(Layout((2, 2), (1, 0)), Layout((2, 2), (1, 2)))
    assert not r.found and "no linear map" in r.proof
    with pytest.raises(CutepyError, match="found no swizzle"):
        r.layout(Layout((2, 2), (1, 0)))
    with pytest.raises(CutepyError, match="not the same domain"):
        solve_swizzle(Layout(4, 1), Layout(8, 1))
    with pytest.raises(CutepyError, match="not F2-linear|not linear"):
        solve_swizzle(Layout(3, 1), Layout(3, 1))


@given(linear_cute_layouts(rank=2, swizzled=False), st.data())
def test_solve_swizzle_recovers_a_random_swizzle_as_a_function(arg, data):
    A, nbits, out_bits = arg
    fam = swizzles(max(out_bits, 2))
    sw = data.draw(st.sampled_from(fam))
    B = ComposedLayout(sw, 0, A)
    r = solve_swizzle(A, B)
    assert r.found and r.swizzle.bits <= sw.bits
    assert np.array_equal(offsets(r.layout(A)), offsets(B))


def test_solve_swizzle_finds_a_swizzle_whose_offset_shares_bits_with_a_under_another_swizzle():
    """Issue 33, item 2: B = Sw<1,0,1> o 2 o A by construction; the identity fits the linear part
    but would need the offset 3, which carries into A's bit 0."""
    A = Layout(2, 1)
    B = ComposedLayout(Swizzle(1, 0, 1), 2, A)
    r = solve_swizzle(A, B)
    assert r.found, r.proof
    assert [r.layout(A)(i) for i in range(2)] == [B(i) for i in range(2)] == [3, 2]


@given(linear_cute_layouts(rank=2, swizzled=False), st.data())
def test_solve_swizzle_finds_every_swizzle_with_an_offset_off_a(arg, data):
    """B = Sw o off o A with ``off`` sharing no bit with A (no carries): a solution exists."""
    A, _, out_bits = arg
    sw = data.draw(st.sampled_from([Swizzle(0, 0, 0)] + swizzles(max(out_bits + 1, 2))))
    a_bits = 0
    for i in range(A.size()):
        a_bits |= A(i)
    off = data.draw(st.integers(0, (1 << (out_bits + 1)) - 1)) & ~a_bits
    B = ComposedLayout(sw, off, A) if sw.bits or off else A
    r = solve_swizzle(A, B)
    assert r.found, r.proof
    assert np.array_equal(offsets(r.layout(A)), offsets(B))


@given(linear_cute_layouts(rank=2, swizzled=False), linear_cute_layouts(rank=2, swizzled=True))
def test_solve_swizzle_answers_agree_with_brute_force(arg_a, arg_b):
    A, _, na = arg_a
    B, _, nb = arg_b
    if A.size() != (B.inner.size() if isinstance(B, ComposedLayout) else B.size()):
        B = A if not isinstance(B, ComposedLayout) else ComposedLayout(B.outer, 0, A)
    r = solve_swizzle(A, B)
    want = offsets(B)
    brute = [
        s
        for s in [Swizzle(0, 0, 0)] + swizzles(max(na, nb, 2))
        if np.array_equal(offsets(ComposedLayout(s, 0, A)) if s.bits else offsets(A), want)
    ]
    assert r.found == bool(brute)
    if r.found:
        assert np.array_equal(offsets(r.layout(A)), want)
        assert r.swizzle.bits == min(s.bits for s in brute)


# ---- the bank question --------------------------------------------------------------------------

K64 = Layout((8, 64), (64, 1))
LD16 = Layout(((8, 4), 8), ((1, 64), 8))  # lane t: row t % 8, 16 B at column 8 (t // 8)


def _conflict_free(tv, vector):
    def judge(smem):
        return analyze_layout(smem, tv, element_bytes=2, vector_elems=vector).bank_conflicts == 0

    return judge


def test_solve_conflict_free_agrees_with_the_bank_search():
    r = solve_conflict_free(K64, [(LD16, 16)], 2, bank_model=_conflict_free(LD16, 8))
    exact = find_swizzle(K64, [(LD16, "ld", 8)], element_bytes=2)
    assert r.found and exact.found and r.swizzle == exact.swizzle == Swizzle(3, 3, 3)
    assert (
        analyze_layout(
            ComposedLayout(r.swizzle, 0, K64), LD16, element_bytes=2, vector_elems=8
        ).bank_conflicts
        == 0
    )
    assert analyze_layout(K64, LD16, element_bytes=2, vector_elems=8).bank_conflicts > 0


@pytest.mark.parametrize("cols", [32, 64])
def test_rank_condition_matches_the_bank_model_for_every_swizzle(cols):
    smem = Layout((8, cols), (cols, 1))
    tv = Layout(((8, cols // 8), 8), ((1, 64), 8))
    judge = _conflict_free(tv, 8)
    r = solve_conflict_free(smem, [(tv, 16)], 2)
    assert r.found and judge(ComposedLayout(r.swizzle, 0, smem))
    # no candidate of fewer bits passes the exact model either
    for sw in swizzles(9):
        if sw.bits < r.swizzle.bits and sw.base >= 3:
            assert not judge(ComposedLayout(sw, 0, smem))


def test_solve_conflict_free_proves_impossibility():
    # 32 lanes 2**25 words apart: every lane in bank 0, and the family searched (swizzles of the
    # low 24 offset bits) cannot reach the bits that tell the lanes apart
    far = Layout(32, 1 << 25)
    r = solve_conflict_free(far, [(Layout((32, 1), (1, 0)), 4)], 4)
    assert not r.found and r.swizzle is None and "no swizzle" in r.proof and "(0, 5)" in r.proof
    # 8 distinct words: 32 bytes are conflict-free whatever the layout
    r = solve_conflict_free(Layout((8, 2), (2, 1)), [(Layout((8, 2), (2, 1)), 4)], 4)
    assert r.found and r.swizzle.bits == 0


def test_solve_conflict_free_agrees_with_find_swizzle_on_the_sm80_tile():
    # fp16 64x64 K-major tile: cp.async 16 B writes (row t // 8, chunk t % 8) and ldmatrix.x4 reads,
    # as tests/banks/test_swizzle_search.py builds them; cutepy.banks searches the family exhaustively
    smem = Layout((64, 64), (64, 1))
    cp = Layout(((8, 16), (8, 4)), ((512, 1), (64, 16)))
    lds = Layout(((8, 2, 2, 4), (8, 4)), ((1, 8, 512, 16), (64, 1024)))
    exact = find_swizzle(smem, [(cp, "cp.async", 8), (lds, "ldmatrix", 8)], 2)

    def judge(s):
        return all(
            analyze_layout(s, tv, element_bytes=2, vector_elems=8, op=op).bank_conflicts == 0
            for tv, op in ((cp, "cp.async"), (lds, "ldmatrix"))
        )

    r = solve_conflict_free(smem, [(cp, 16), (lds, 16)], 2, bank_model=judge)
    assert r.found and exact.found and r.swizzle == exact.swizzle == Swizzle(3, 3, 3)


def test_a_pointer_flag_layout_is_refused_with_the_way_to_read_it():
    """gmma_smem_layout's form swizzles byte addresses; solve_swizzle and from_cute say so
    (and name as_position_independent_swizzle_layout) rather than calling it non-linear."""
    from cutepy.linear import from_cute

    gm = tile_to_shape(gmma_smem_layout("K", 128, "half_t"), (64, 64))
    for call in (lambda: solve_swizzle(Layout((64, 64), (64, 1)), gm),
                 lambda: from_cute(gm, kind="shared", shape=[64, 64])):
        with pytest.raises(CutepyError, match="as_position_independent_swizzle_layout"):
            call()
    assert solve_swizzle(Layout((64, 64), (64, 1)), as_position_independent_swizzle_layout(gm)).found
