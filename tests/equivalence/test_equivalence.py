"""equivalent() on integer and swizzled layouts: agrees with exhaustive comparison."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cutepy
from cutepy import ComposedLayout, Layout, Swizzle, composition, equivalent
from cutepy.core import inttuple as it
from cutepy.equivalence import normal_form
from cutepy.equivalence.verdict import first_difference
from cutepy.strategies import injective_layouts, layouts, swizzles


def _exhaustive(A, B) -> bool:
    return A.size() == B.size() and np.array_equal(A.offsets(), B.offsets())


def _rearranged(L: Layout, draw) -> Layout:
    """The same function written differently: nesting changed, size-1 modes inserted,
    mergeable modes split."""
    fs, fd = list(it.flatten_tuple(L.shape)), list(it.flatten_tuple(L.stride))
    out_s, out_d = [], []
    for s, d in zip(fs, fd):
        if s % 2 == 0 and s > 2 and draw(st.booleans()):
            out_s += [2, s // 2]
            out_d += [d, 2 * d]
        else:
            out_s.append(s)
            out_d.append(d)
        if draw(st.booleans()):
            out_s.append(1)
            out_d.append(draw(st.integers(0, 9)))
    if len(out_s) >= 2 and draw(st.booleans()):
        k = draw(st.integers(1, len(out_s) - 1))
        return Layout((tuple(out_s[:k]), tuple(out_s[k:])), (tuple(out_d[:k]), tuple(out_d[k:])))
    return Layout(tuple(out_s), tuple(out_d))


@st.composite
def equal_pairs(draw):
    A = draw(layouts(max_leaves=4))
    return A, _rearranged(A, draw)


@st.composite
def near_pairs(draw):
    """Pairs that often differ in one leaf only (close calls for the normal form)."""
    A = draw(layouts(max_leaves=4))
    fs, fd = list(it.flatten_tuple(A.shape)), list(it.flatten_tuple(A.stride))
    k = draw(st.integers(0, len(fd) - 1))
    fd[k] = draw(st.integers(0, 40))
    B = Layout(tuple(fs), tuple(fd))
    return A, _rearranged(B, draw)


@settings(max_examples=150)
@given(st.one_of(equal_pairs(), near_pairs(), st.tuples(layouts(), layouts())))
def test_agrees_with_exhaustive(pair):
    A, B = pair
    r = equivalent(A, B)
    assert bool(r) == _exhaustive(A, B)
    assert r.check()
    if not r:
        ce = r.counterexample
        assert ce is not None
        if A.size() == B.size():
            offs_a, offs_b = A.offsets(), B.offsets()
            first = int(np.nonzero(offs_a != offs_b)[0][0])
            assert ce.index == first  # the smallest differing index
            assert (ce.offset_a, ce.offset_b) == (int(offs_a[first]), int(offs_b[first]))
            assert A(ce.coord_a) == ce.offset_a and B(ce.coord_b) == ce.offset_b


@settings(max_examples=80)
@given(equal_pairs())
def test_proof_steps_recheck(pair):
    A, B = pair
    r = equivalent(A, B)
    assert r and r.check()
    for _, fa, fb in r.proof:
        assert fa.check() and fb.check()
        assert fa.layout() == cutepy.coalesce(A) and fb.layout() == cutepy.coalesce(B)


def test_normal_form_check_rejects_a_forged_step():
    nf = normal_form(Layout((2, 3), (1, 3)))
    assert nf.check() and nf.modes == ((2, 1), (3, 3))
    step = type(nf.steps[2])
    forged = type(nf)(nf.source, ((6, 1),), nf.steps[:2] + [step("merge", (2, 1, 3, 3), ((6, 1),))])
    assert not forged.check()
    wrong_end = type(nf)(nf.source, ((2, 1),), nf.steps)
    assert not wrong_end.check()


def test_huge_layouts_decide_instantly():
    A = Layout((1 << 20, 1 << 20, 1 << 20), (1, 1 << 20, 1 << 40))
    B = Layout(((1 << 30, 1 << 10), 1 << 20), ((1, 1 << 30), 1 << 40))
    n = 0

    def trace(frame, event, arg):  # work counted as executed lines, not timed
        nonlocal n
        n += event == "line"
        return trace

    sys.settrace(trace)
    try:
        r = equivalent(A, B)
    finally:
        sys.settrace(None)
    assert r and n < 5_000  # 342 lines measured; enumerating would be 2^60 elements
    C = Layout((1 << 30, 1 << 30), (1, (1 << 30) + 1))
    r = equivalent(A, C)
    assert not r and r.counterexample.index == 1 << 30 and r.check()


def test_stride_zero_and_size_one():
    assert equivalent(Layout((2, 3), (0, 0)), Layout(6, 0))
    assert equivalent(Layout((1, 4, 1), (7, 2, 3)), Layout(4, 2))
    assert equivalent(Layout(1, 5), Layout(1, 0))
    r = equivalent(Layout((2, 2), (0, 1)), Layout((2, 2), (1, 0)))
    assert not r and r.counterexample.index == 1


def test_sizes_differ():
    r = equivalent(Layout(4, 1), Layout(6, 1))
    assert not r and r.counterexample.index == 4
    assert r.counterexample.offset_a is None and r.counterexample.offset_b == 4
    assert "domains differ" in r.text()


def test_by_modes_and_subdomain():
    A = Layout(((2, 2), (2, 3)), ((2, 12), (1, 4)))  # f32[3,5]{1,0:T(2,2)}
    B = Layout((4, 6), (2, 1))                          # some other layout on the 3x5 region
    assert not equivalent(A, B, domain=(3, 5))
    r = equivalent(A, Layout(((2, 2), (2, 3)), ((2, 12), (1, 4))), domain=(3, 5))
    assert r and r.domain == (3, 5)
    # differ only in the padding column 5: equal on the logical region
    C = Layout(((2, 2), (5, 1)), ((2, 12), (1, 0)))
    D = Layout(((2, 2), (5, 1)), ((2, 12), (1, 99)))
    assert equivalent(C, D, domain=(4, 5))
    padded = Layout((4, 8), (8, 1))  # f32[3,5]{1,0:T(2,8)}: a row pitch of 8
    r = equivalent(padded, Layout((3, 5), (8, 1)), domain=(3, 5))
    assert r and r.check() and not equivalent(padded, Layout((3, 5), (8, 1)), by="modes")
    r = equivalent(Layout((4, 6), (6, 1)), Layout((4, 6), (6, 2)), by="modes")
    assert not r and r.counterexample.coord_a == (0, 1)
    assert not equivalent(Layout((4, 6)), Layout((6, 4)), by="modes")
    assert equivalent(Layout((4, 6)), Layout((6, 4)))  # both 24:1 as index functions
    with pytest.raises(cutepy.CutepyError):
        equivalent(A, B, domain=(5, 5))


def test_by_coordinate_allows_other_nesting():
    A = Layout(((2, 3), 4), ((1, 2), 6))
    B = Layout((2, (3, 4)), (1, (2, 6)))
    assert equivalent(A, B, by="coordinate")
    r = equivalent(Layout((6, 4)), B, by="coordinate")
    assert not r and "leaves differ" in r.text()


def test_index_prefix_domain():
    r = equivalent(Layout(8, 1), Layout((4, 2), (1, 9)), domain=4)
    assert r and r.check()
    assert not equivalent(Layout(8, 1), Layout((4, 2), (1, 9)), domain=5)


def test_first_difference_limit():
    assert first_difference(((4, 1),), ((2, 1), (2, 5)), 4) == 2
    assert first_difference(((4, 1),), ((2, 1), (2, 5)), 2) is None


# -- swizzles -------------------------------------------------------------------------


def _pow2_layouts():
    @st.composite
    def build(draw):
        n = draw(st.integers(1, 3))
        bits = draw(st.permutations(range(7)))
        shapes, strides, k = [], [], 0
        for _ in range(n):
            w = draw(st.integers(1, 2))
            shapes.append(1 << w)
            strides.append(1 << bits[k] if draw(st.integers(0, 5)) else 0)
            k += 1
        return Layout(tuple(shapes), tuple(strides))

    return build()


@settings(max_examples=120)
@given(swizzles(), swizzles(), st.one_of(_pow2_layouts(), injective_layouts(3)), st.integers(0, 2))
def test_swizzles_agree_with_exhaustive(s1, s2, L, mode):
    A = composition(s1, L)
    if mode == 0:
        B = composition(s2, L)
    elif mode == 1:
        B = composition(s1, _rearranged_same(L))
    else:
        B = L
    r = equivalent(A, B)
    assert bool(r) == _exhaustive(A, B)
    assert r.check()
    if not r and r.counterexample.index is not None:
        k = r.counterexample.index
        assert A(k) != B(k)


def _rearranged_same(L: Layout) -> Layout:
    return Layout((L.shape, 1), (L.stride, 3))


def test_swizzle_xor_map_and_counterexample():
    sw = Swizzle(3, 4, 3)
    A = composition(sw, Layout((8, 128), (128, 1)))
    B = composition(sw, Layout((128, 8), (1, 128)))
    r = equivalent(A, Layout(((8, 128)), (128, 1)))
    assert not r and r.method == "xor map" and r.check()
    assert equivalent(composition(sw, Layout(1024, 1)), composition(sw, Layout((2, 512), (1, 2))))
    assert not equivalent(A, B)
    # a swizzle that never reaches its source bits is the identity
    small = ComposedLayout(sw, 0, Layout(64, 1))
    r = equivalent(small, Layout(64, 1))
    assert r and "never applies" in r.text()


def test_non_linear_swizzled_falls_back_to_exhaustive():
    sw = Swizzle(2, 0, 2)
    A = composition(sw, Layout((3, 5), (5, 1)))
    r = equivalent(A, composition(sw, Layout((3, 5), (5, 1))))
    assert r and r.method == "exhaustive"


def test_text_latex_html():
    r = equivalent(Layout((2, 2), (1, 2)), Layout(4, 1))
    assert "merge 2:1 ++ 2:2 -> 4:1" in r.text()
    assert r.latex().startswith("\\begin{aligned}") and "\\mathrm{nf}" in r.latex()
    assert "equivalent" in r._repr_html_()
    bad = equivalent(Layout(4, 2), Layout(4, 1))
    assert "A(1) &= 2" in bad.latex() and "not equivalent" in repr(bad)


@settings(max_examples=100)
@given(layouts(max_leaves=3), layouts(max_leaves=3), st.integers(1, 8), st.integers(1, 8))
def test_subdomain_agrees_with_exhaustive(A, B, v0, v1):
    A = Layout((A.shape, 4), (A.stride, 3))
    B = Layout((B.shape, 4), (B.stride, 3))
    v0 = min(v0, A[0].size(), B[0].size())
    v1 = min(v1, 4)
    r = equivalent(A, B, domain=(v0, v1))
    truth = all(A(i, j) == B(i, j) for i in range(v0) for j in range(v1))
    assert bool(r) == truth and r.check()


# -- composed layouts: by modes, by coordinate, on a region, and past the enumeration limit -----


def test_composed_layouts_by_modes_coordinate_and_region():
    S = Swizzle(3, 4, 3)
    A = composition(S, Layout((8, 64), (64, 1)))
    B = composition(S, Layout((8, (8, 8)), (64, (1, 8))))
    C = composition(S, Layout((8, 64), (1, 8)))
    assert equivalent(A, B, by="modes") and equivalent(A, A, by="coordinate")
    assert not equivalent(A, B, by="coordinate")  # (8,64) and (8,8,8): other natural coordinates
    for dom in ((4, 8), (2, 3), (8, 64)):
        r = equivalent(A, C, domain=dom)
        want = all(A(i, j) == C(i, j) for i in range(dom[0]) for j in range(dom[1]))
        assert bool(r) == want and r.check()
    r = equivalent(A, C, domain=100)
    assert not r and r.check() and r.counterexample.index == 1


def test_swizzled_layouts_past_the_limit_are_decided_by_the_period():
    from cutepy.equivalence import EXHAUSTIVE_LIMIT

    S = Swizzle(3, 4, 3)  # reads and writes bits below 2**10
    A = composition(S, Layout((3, 128, 2**15), (128, 1, 1024)))
    B = composition(S, Layout((3, 128, (2**5, 2**10)), (128, 1, (1024, 2**15))))
    assert A.size() > EXHAUSTIVE_LIMIT
    r = equivalent(A, B)
    assert r and r.method == "period" and r.check()
    C = composition(S, Layout((3, 128, 2**15), (128, 1, 2048)))
    r = equivalent(A, C)
    assert not r and r.check() and A(r.counterexample.index) != C(r.counterexample.index)
    D = composition(S, Layout((3, 128, 2**15), (1, 3, 1024)))
    r = equivalent(A, D)
    assert not r and r.check()
    E = composition(S, Layout((3, 128, 2**15), (128, 1, 384)))
    assert equivalent(E, E).method == "identical"
    with pytest.raises(cutepy.CutepyError, match="EXHAUSTIVE_LIMIT"):
        equivalent(E, composition(S, Layout((3, 128, 2**15), (128, 1, 385))))
