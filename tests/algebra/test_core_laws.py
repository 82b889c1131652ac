"""Property tests: every law of SPEC section 1, over generated layouts."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cutepy as cp
from cutepy import Layout
from cutepy.core import inttuple as it
from cutepy.strategies import (
    complementable_pairs,
    composable_pairs,
    divisible_pairs,
    injective_layouts,
    layouts,
    shapes,
    swizzles,
    tiling_layouts,
)


def admitted(op, *args):
    """``op(*args)``, or None where it raises AdmissibilityError (the caller then ``assume``s)."""
    try:
        return op(*args)
    except cp.AdmissibilityError:
        return None


def values(L, n=None):
    """Offsets at indices 0..n-1 by scalar evaluation (independent of the numpy path)."""
    n = L.size() if n is None else n
    return [L(i) for i in range(n)]


# -- int tuples ------------------------------------------------------------------


@given(shapes())
def test_idx2crd_crd2idx_roundtrip(shape):
    for i in range(it.product(shape)):
        crd = it.idx2crd(i, shape)
        assert it.congruent(crd, shape)
        assert it.crd2idx(crd, shape) == i


@given(shapes())
def test_flatten_unflatten_roundtrip(shape):
    assert it.unflatten_tuple(it.flatten_tuple(shape), shape) == shape
    assert it.product(it.flatten_tuple(shape)) == it.product(shape)


# -- evaluation ------------------------------------------------------------------


@given(layouts())
def test_offsets_match_scalar_evaluation(L):
    assert L.offsets().tolist() == values(L)


def _mixed_radix_offsets(L):
    """``L(i)`` for every ``i`` by mixed-radix digits, numpy only (independent of cutepy's fill)."""
    i = np.arange(L.size(), dtype=np.int64)
    out = np.zeros_like(i)
    for s, d in zip(it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)):
        out += (i % s) * d
        i //= s
    return out


@given(st.lists(st.sampled_from((2, 3, 4, 8, 16, 64, 256, 1024)), min_size=2, max_size=18),
       st.data())
def test_offsets_of_a_large_layout_asked_again(leaves, data):
    """A layout of 2^16..2^21 elements keeps the tables of its one 2-D add from the second call:
    every call gives a fresh array equal to the mixed-radix reference, limits checked each time."""
    n = 1
    for k, s in enumerate(leaves):
        if n * s > 1 << 21:
            leaves = leaves[:k]
            break
        n *= s
    assume(n >= 1 << 16)
    strides = [data.draw(st.integers(-3000, 3000)) for _ in leaves]
    L = Layout(tuple(leaves), tuple(strides))
    want = _mixed_radix_offsets(L)
    first = L.offsets()
    first[:] = -1  # the caller's array: writing to it changes nothing kept
    for _ in range(2):
        assert np.array_equal(L.offsets(), want)
    with cp.limits(max_elements=n - 1), pytest.raises(cp.CutepyError, match="above the limit"):
        L.offsets()


@given(layouts(), st.lists(st.integers(0, 2000), max_size=20))
def test_offsets_at_indices(L, idx):
    assert L.offsets(np.array(idx, dtype=np.int64)).tolist() == [L(i) for i in idx]


@given(layouts())
def test_natural_and_coarse_coordinates_agree(L):
    for i in range(L.size()):
        nat = it.idx2crd(i, L.shape)
        assert L(nat) == L(i)
        if L.rank() > 1:
            coarse = tuple(
                it.crd2idx(c, s) for c, s in zip(nat, L.shape)
            )
            assert L(*coarse) == L(i)


@given(layouts())
def test_cosize_bounds_offsets(L):
    offs = L.offsets()
    assert offs.max() + 1 <= L.cosize()
    if all(d >= 0 for d in it.flatten_tuple(L.stride)):
        assert offs.max() + 1 == L.cosize()


# -- notation --------------------------------------------------------------------


@given(layouts(negative=True))
def test_print_parse_roundtrip(L):
    assert cp.parse(str(L)) == L
    spaced = re.sub(r"(-?\d+)", r"_\1", str(L)).replace(",", ", ").replace(":", " : ")
    assert cp.parse(spaced) == L


@given(st.lists(layouts(), min_size=1, max_size=3))
def test_tiler_roundtrip(ls):
    text = "<" + ", ".join(map(str, ls)) + ">"
    assert cp.parse(text) == tuple(ls)


# -- coalesce ---------------------------------------------------------------------


@given(layouts(negative=True))
def test_coalesce_keeps_function_and_is_idempotent(L):
    C = cp.coalesce(L)
    assert C.size() == L.size()
    assert C.depth() <= 1
    assert values(C) == values(L)
    assert cp.coalesce(C) == C


@given(layouts())
def test_coalesce_by_mode(L):
    assume(L.rank() >= 2)
    prof = (1,) * L.rank()
    C = cp.coalesce(L, prof)
    assert C.rank() == L.rank()
    for i in range(L.rank()):
        assert values(C[i]) == values(L[i])


@given(layouts())
def test_filter_keeps_image_and_drops_zeros(L):
    F = cp.filter(L)
    assert set(values(F)) == set(values(L))
    if set(values(L)) == {0}:
        assert F == Layout(1, 0)
    else:
        assert all(d != 0 for d in it.flatten_tuple(F.stride))


# -- composition -------------------------------------------------------------------


@given(composable_pairs())
def test_composition_postconditions(pair):
    A, B = pair
    R = cp.composition(A, B)
    assert it.compatible(B.shape, R.shape)
    assert R.size() == B.size()
    assert values(R) == [A(B(i)) for i in range(B.size())]


@given(layouts(), layouts(3))
def test_composition_is_correct_or_refuses(A, B):
    try:
        R = cp.composition(A, B)
    except cp.AdmissibilityError as e:
        assert "inadmissible" in str(e)
        R = None
    assume(R is not None)
    assert values(R) == [A(B(i)) for i in range(B.size())]


@given(layouts(), st.lists(st.integers(1, 4), min_size=1, max_size=2))
def test_composition_by_mode_with_shape_tiler(A, tile):
    assume(A.rank() >= len(tile))
    R = admitted(cp.composition, A, tuple(tile))
    assume(R is not None)
    assert R.rank() == len(tile)
    for i, t in enumerate(tile):
        assert values(R[i]) == [A[i](j) for j in range(t)]


# -- complement -------------------------------------------------------------------


@given(complementable_pairs())
def test_complement_postconditions(pair):
    A, M = pair
    C = cp.complement(A, M)
    a_img = set(values(A))
    c_img = values(C)
    # disjoint images (0 is shared)
    assert a_img & set(c_img) == {0}
    # ordered strides: the complement is increasing along its domain
    assert all(x < y for x, y in zip(c_img, c_img[1:]))
    # completes A: (A, C) is a bijection onto [0, size(A)*size(C)) covering [0, M)
    AC = cp.make_layout(A, C)
    img = sorted(values(AC))
    assert img == list(range(AC.size()))
    assert AC.size() >= M


@given(layouts())
def test_complement_default_cotarget_is_disjoint(A):
    C = admitted(cp.complement, A)
    assume(C is not None)
    assert set(values(cp.filter(A))) & set(values(C)) == {0}


# -- inverses ---------------------------------------------------------------------


@given(layouts())
def test_right_inverse(A):
    R = cp.right_inverse(A)
    for i in range(R.size()):
        assert A(R(i)) == i


@given(injective_layouts())
def test_left_inverse_of_injective(A):
    L = admitted(cp.left_inverse, A)
    assume(L is not None)
    for i in range(A.size()):
        assert L(A(i)) == i


@given(tiling_layouts())
def test_left_inverse_of_tiling_layouts_always_exists(A):
    L = cp.left_inverse(A)
    assert [L(A(i)) for i in range(A.size())] == list(range(A.size()))


@given(layouts())
def test_nullspace(A):
    N = cp.nullspace(A)
    for i in range(N.size()):
        assert A(N(i)) == 0


@given(layouts(), layouts())
def test_max_common_vector(A, B):
    assume(A.size() == B.size())
    n = admitted(cp.max_common_vector, A, B)
    V = admitted(cp.max_common_layout, A, B)
    assume(n is not None and V is not None)
    assert n >= 1
    for i in range(V.size()):
        assert A(V(i)) == i and B(V(i)) == i


# -- divides and products ---------------------------------------------------------


@given(divisible_pairs())
def test_logical_divide(pair):
    A, T = pair
    D = cp.logical_divide(A, T)
    assert D.rank() == 2
    assert values(D[0]) == values(cp.composition(A, T))
    # When (T, complement(T, size(A))) is a bijection of A's domain, the divide is A
    # re-indexed: the same offsets, as often.
    assume(cp.make_layout(T, cp.complement(T, A.size())).size() == A.size())
    assert D.size() == A.size()
    assert sorted(values(D)) == sorted(values(A))
    Z = cp.zipped_divide(A, T)
    assert Z == D
    assert Z[0] == cp.composition(A, T)


@given(layouts(3), st.lists(st.sampled_from((1, 2, 4)), min_size=1, max_size=2))
def test_divide_mode_orders(A, tile):
    assume(A.rank() >= len(tile))
    assume(all(A[i].size() % t == 0 for i, t in enumerate(tile)))
    tile = tuple(tile)
    L = admitted(cp.logical_divide, A, tile)
    assume(L is not None)
    Z = cp.zipped_divide(A, tile)
    T = cp.tiled_divide(A, tile)
    F = cp.flat_divide(A, tile)
    k = len(tile)
    rest = [L[i] for i in range(k, L.rank())]
    assert Z[0] == cp.make_layout(*[L[i][0] for i in range(k)])
    assert Z[1] == cp.make_layout(*[L[i][1] for i in range(k)], *rest)
    # the same function (C++'s make_layout(1) is 1:0 in a divide, 1:1 in a composition)
    assert values(Z[0]) == values(cp.composition(A, tile))
    # C++ spreads a mode of rank > 1 and keeps a rank-1 mode whole (z(_, repeat<R>(_)))
    spread = [*Z[1]] if Z[1].rank() > 1 else [Z[1]]
    assert T == cp.make_layout(Z[0], *spread)
    assert F == cp.make_layout(*([*Z[0]] if Z[0].rank() > 1 else [Z[0]]), *spread)
    # every divide is a rearrangement of A's offsets on A's domain
    for X in (L, Z, T, F):
        assert X.size() == A.size()
        assert sorted(values(X)) == sorted(values(A))


@given(tiling_layouts(3), layouts(2))
def test_logical_product(A, B):
    P = admitted(cp.logical_product, A, B)
    assume(P is not None)
    assert P[0] == A
    assert P.size() == A.size() * B.size()
    # the copies of A are placed at offsets given by B through A's complement
    C = cp.complement(A, A.size() * B.cosize())
    assert values(P[1]) == [C(B(i)) for i in range(B.size())]


@given(tiling_layouts(2, 1, gaps=False), tiling_layouts(2, 1))
def test_blocked_and_raked_products(A, B):
    # C++ cannot zip a rank-1 tuple with a scalar layout (cutepy raises; test_products_of_rank_1_*)
    assume(max(A.rank(), B.rank()) > 1 or (type(A.shape) is tuple) == (type(B.shape) is tuple))
    bp = cp.blocked_product(A, B)
    rp = cp.raked_product(A, B)
    lp = cp.logical_product(A, B)
    assert bp.size() == rp.size() == lp.size() == A.size() * B.size()
    # same set of offsets, arranged differently
    assert sorted(values(bp)) == sorted(values(lp)) == sorted(values(rp))
    r = max(A.rank(), B.rank())
    assert bp.rank() == rp.rank() == r


@given(tiling_layouts(2, 1, gaps=False), st.lists(st.sampled_from((1, 2, 3)), min_size=2, max_size=2))
def test_tile_to_shape(block, reps):
    block2 = cp.make_layout(*([block] if block.rank() == 1 else list(block)))
    assume(block2.rank() <= 2)
    padded = cp.append(block2, n=2) if block2.rank() < 2 else block2
    bs = it.product_each_tuple(padded.shape)
    target = tuple(b * r for b, r in zip(bs, reps))
    T = cp.tile_to_shape(block2, target)
    assert it.product_each_tuple(T.shape) == target


# -- swizzles -----------------------------------------------------------------------


@given(swizzles(), st.integers(0, 1 << 12))
def test_swizzle_is_an_involution(sw, x):
    assert sw(sw(x)) == x


@given(swizzles(), layouts())
def test_composed_layout_evaluates_outer_of_inner(sw, L):
    C = cp.composition(sw, L)
    assert C.offsets().tolist() == [sw(L(i)) for i in range(L.size())]
    assert cp.parse(str(C)) == C


def test_products_of_rank_1_tuple_and_scalar_are_rejected_as_cxx_does():
    # C++: zip of a rank-1 tuple and a scalar does not compile
    with pytest.raises(cp.CutepyError, match="cannot zip"):
        cp.blocked_product(Layout((2,), (1,)), Layout(2, 1))
    # C++ prints ((_2,_2)):((_1,_2)) for two scalar layouts
    assert str(cp.blocked_product(Layout(2, 1), Layout(2, 1))) == "((2,2)):((1,2))"
    assert str(cp.raked_product(Layout(2, 1), Layout(2, 1))) == "((2,2)):((2,1))"
