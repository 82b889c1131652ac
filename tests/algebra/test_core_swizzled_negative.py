"""Property tests of the C++-exactness items over swizzled (``Sw o 0 o L``) and negative-stride
layouts: every operation keeps its definition, as C++ CuTe computes it."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cutepy as cp
from cutepy import ComposedLayout, Layout
from cutepy.algebra.casting import make_fragment_like, make_layout_like, make_ordered_layout, recast_layout
from cutepy.algebra.complement import coshape
from cutepy.algebra.composed import get_nonswizzle_portion, get_swizzle_portion, slice_and_offset_swizzled
from cutepy.core import inttuple as it
from cutepy.core.layout import get_1d_coord, get_flat_coord, get_hier_coord
from cutepy.strategies import (
    layouts,
    negative_stride_layouts,
    shapes,
    swizzled_layouts,
    tiling_layouts,
)


def offsets(L):
    return [L(i) for i in range(L.size())]


def admitted(op, *args):
    try:
        return op(*args)
    except cp.AdmissibilityError:
        return None


# -- swizzled layouts through the algebra ---------------------------------------------------


@given(swizzled_layouts())
def test_coalesce_of_swizzled_keeps_the_function_and_the_swizzle(C):
    R = cp.coalesce(C)
    assert type(R) is ComposedLayout and R.outer == C.outer
    assert offsets(R) == offsets(C)


@given(swizzled_layouts(), st.sampled_from((1, 2, 4)))
def test_complement_of_swizzled_is_the_complement_of_its_layout(C, k):
    n = C.inner.cosize() * k
    assert cp.complement(C, n) == cp.complement(C.inner, n)
    assert cp.complement(C) == cp.complement(C.inner, C.inner.cosize())


@given(swizzled_layouts(), st.data())
def test_composition_with_swizzled_on_either_side(C, data):
    B = data.draw(tiling_layouts(2, 1, gaps=False))
    assume(B.cosize() <= C.size())
    R = admitted(cp.composition, C, B)
    assume(R is not None)
    assert offsets(R) == [C(B(i)) for i in range(B.size())]
    A = Layout(C.cosize())            # a compact A that covers C's offsets
    R2 = cp.composition(A, C)
    assert offsets(R2) == [A(C(i)) for i in range(C.size())]


@given(swizzled_layouts())
def test_inverses_of_swizzled_meet_their_postconditions_or_refuse(C):
    # C++: inverse(L) o Sw; where L reorders the swizzle's bits C++ fails to compile
    # (make_swizzle) or answers wrongly, and cutepy raises instead
    def right(R):
        return [C(R(i)) for i in range(R.size())] == list(range(R.size()))

    def left(R):
        return [R(C(i)) for i in range(C.size())] == list(range(C.size()))

    for op, check in ((cp.right_inverse, right), (cp.left_inverse, left)):
        try:
            R = op(C)
        except cp.CutepyError:
            continue
        assert check(R)
    L = C.inner
    assume(all(d in (1, 2, 4, 8, 16, 32, 64, 128, 256) for d in it.flatten_tuple(L.stride)))
    assume(sorted(it.flatten_tuple(L.stride)) == list(it.flatten_tuple(L.stride)))
    # a column-major L keeps the bits in order: both inverses exist
    assert [C(cp.right_inverse(C)(i)) for i in range(C.size())] == list(range(C.size()))


@given(swizzled_layouts(), st.sampled_from((1, 2, 4)))
def test_divides_and_products_of_swizzled_rearrange_its_offsets(C, t):
    assume(C.size() % t == 0)
    for op in (cp.logical_divide, cp.zipped_divide, cp.tiled_divide, cp.flat_divide):
        R = op(C, Layout(t))
        assert type(R) is ComposedLayout and R.outer == C.outer
        assert sorted(offsets(R)) == sorted(offsets(C))
    P = cp.logical_product(C, Layout(2))
    assert P.size() == 2 * C.size()
    assert offsets(P)[:C.size()] == offsets(C)


@given(swizzled_layouts(), st.data())
def test_tiler_forms_of_swizzled_act_on_its_layout_under_the_same_swizzle(C, data):
    # C++ (layout_composed.hpp): each divide, product and tile_to_shape of Sw o 0 o L is
    # Sw o 0 o op(L, ...), by tuple tilers too
    modes = C.shape if type(C.shape) is tuple else (C.shape,)
    tiler = tuple(data.draw(st.sampled_from([d for d in (1, 2, 4) if it.product(m) % d == 0]))
                  for m in modes)
    B = Layout(tuple(data.draw(st.sampled_from((1, 2))) for _ in modes))
    ops = [(op, tiler) for op in (cp.logical_divide, cp.zipped_divide, cp.tiled_divide, cp.flat_divide)]
    ops += [(op, B) for op in (cp.logical_product, cp.blocked_product, cp.raked_product)]
    for op, arg in ops:
        try:
            want = op(C.inner, arg)
        except cp.CutepyError:  # e.g. C++ cannot zip a scalar block with a rank-1 tiler: nor here
            with pytest.raises(cp.CutepyError):
                op(C, arg)
            continue
        R = op(C, arg)
        assert type(R) is ComposedLayout and R.outer == C.outer
        assert R.inner == want
        assert offsets(R) == [C.outer(R.inner(i)) for i in range(R.size())]
    target = tuple(it.product(m) * 2 for m in modes)
    T = cp.tile_to_shape(C, target)
    assert T.outer == C.outer and T.inner == cp.tile_to_shape(C.inner, target)
    assert it.product(T.shape) == it.product(target)


@given(swizzled_layouts(), st.sampled_from((1, 2)))
def test_upcast_downcast_of_swizzled_move_the_swizzle_base(C, n):
    up = admitted(cp.upcast, C, n)
    assume(up is not None)
    assert up.outer.base == max(C.outer.base - (n.bit_length() - 1), 0)
    down = admitted(cp.downcast, C, n)
    assume(down is not None)
    assert down.outer.base == C.outer.base + n.bit_length() - 1


@given(swizzled_layouts())
def test_swizzle_portions_split_the_composed_layout(C):
    assert get_swizzle_portion(C) == C.outer
    assert get_nonswizzle_portion(C) == C.inner
    assert cp.make_composed_layout(get_swizzle_portion(C), 0, get_nonswizzle_portion(C)) == C


@given(swizzled_layouts(), st.data())
def test_slicing_swizzled_as_cxx_layout_plus_offset(C, data):
    shape = C.shape
    assume(type(shape) is tuple and len(shape) >= 2)
    k = data.draw(st.integers(0, len(shape) - 1))
    fixed = data.draw(st.integers(0, it.product(shape[k]) - 1))
    crd = tuple(fixed if i == k else None for i in range(len(shape)))
    sub, off = slice_and_offset_swizzled(crd, C)
    assert cp.slice_and_offset(crd, C) == (sub, off)
    T = cp.make_tensor(None, C)(crd)          # a tensor's slice keeps the fixed offset
    assert [T(j) for j in range(sub.size())] == [off + sub(j) for j in range(sub.size())]
    rest = [i for i in range(len(shape)) if i != k]
    free = cp.make_layout(*[Layout(shape[i]) for i in rest])  # coordinates of the free modes
    for j in range(sub.size()):
        c = list(it.idx2crd(j, free.shape) if len(rest) > 1 else (j,))
        full = tuple(fixed if i == k else c.pop(0) for i in range(len(shape)))
        assert sub(j) + off == C(full)


@given(swizzled_layouts(), st.data())
def test_max_common_vector_of_swizzled_is_capped_by_the_swizzle_base(C, data):
    B = Layout(C.shape, it.compact_major(C.shape))
    n = cp.max_common_vector(C, B)
    assert 1 <= n <= 1 << C.outer.base
    V = cp.max_common_layout(C, B)
    assert V.size() <= 1 << C.outer.base


# -- negative strides ------------------------------------------------------------------------


@given(negative_stride_layouts(), st.integers(0, 200))
def test_negative_index_mirrors_the_positive_one(L, i):
    assert L(-i) == -L(i)  # C++'s truncating division


@given(negative_stride_layouts())
def test_coalesce_filter_of_negative_strides_keep_the_function(L):
    assert offsets(cp.coalesce(L)) == offsets(L)
    assert sorted(set(offsets(cp.filter(L)))) == sorted(set(offsets(L)))


@given(layouts(), negative_stride_layouts(3, 1))
def test_composition_with_negative_strides_is_correct_or_refuses(A, B):
    R = admitted(cp.composition, A, B)
    assume(R is not None)
    assert offsets(R) == [A(B(i)) for i in range(B.size())]


@given(negative_stride_layouts())
def test_complement_of_negative_strides_refuses_clearly(L):
    with pytest.raises(cp.AdmissibilityError, match="negative"):
        cp.complement(L)


@given(negative_stride_layouts(), st.sampled_from((1, 2, 4)))
def test_divides_of_negative_strides_compose_with_the_tiler(L, t):
    # the tiler is positive, so its complement exists; the first mode is L o tiler (or the
    # composition's divisibility condition refuses, as C++'s static_assert does)
    assume(L.size() % t == 0)
    R = admitted(cp.logical_divide, L, Layout(t))
    assume(R is not None)
    assert [R(i, 0) for i in range(t)] == [L(i) for i in range(t)]
    assert sorted(offsets(R)) == sorted(offsets(L))
    modes = L.shape if type(L.shape) is tuple else (L.shape,)
    assume(it.product(modes[0]) % t == 0)
    Z = admitted(cp.zipped_divide, L, (t,) + tuple(it.product(m) for m in modes[1:]))
    assume(Z is not None)
    assert sorted(offsets(Z)) == sorted(offsets(L))
    assert [Z(i) for i in range(t)] == [L(i) for i in range(t)]


@given(negative_stride_layouts())
def test_right_inverse_of_negative_strides_meets_its_postcondition(L):
    # C++ builds the inverse from the |stride| = 1, 2, ... chain; L(R(i)) == i on R's domain
    R = cp.right_inverse(L)
    assert [L(R(i)) for i in range(R.size())] == list(range(R.size()))


@given(negative_stride_layouts())
def test_left_inverse_of_negative_strides_refuses(L):
    # C++ builds it from complement(L), undefined for a negative stride, and answers negative
    # shapes ((4,3):(-1,4) gives (-1,-4,3):(0,1,4), compiled here); cutepy refuses
    with pytest.raises(cp.AdmissibilityError, match="-"):
        cp.left_inverse(L)


@given(negative_stride_layouts(), st.sampled_from((1, 2, 4)))
def test_upcast_of_negative_strides_keeps_the_sign(L, n):
    U = admitted(cp.upcast, L, n)
    assume(U is not None)
    for d, u in zip(it.flatten_tuple(L.stride) if type(L.stride) is tuple else (L.stride,),
                    it.flatten_tuple(U.stride) if type(U.stride) is tuple else (U.stride,)):
        assert (d < 0) == (u < 0)


# -- coordinates, compact layouts, casts --------------------------------------------------------


@given(shapes(), st.integers(0, 3))
def test_idx2crd_past_the_shape_puts_the_rest_in_the_last_mode(shape, k):
    n = it.product(shape)
    for i in (n * k, n * k + n - 1):
        crd = it.idx2crd(i, shape)
        assert it.crd2idx(crd, shape) == i


@given(tiling_layouts(gaps=False))
def test_offset_to_coordinate_functions_invert_a_compact_layout(L):
    for i in range(L.size()):
        off = L(i)
        assert L(get_hier_coord(L, off)) == off
        assert get_1d_coord(L, off) == i
        flat = get_flat_coord(L, off)
        assert L(*flat) == off if type(flat) is tuple else L(flat) == off


@given(shapes())
def test_compact_layouts_give_size_1_modes_stride_0(shape):
    for strides in (it.compact_major(shape), it.compact_major(shape, "right"),
                    make_ordered_layout(shape).stride):
        fs = it.flatten_tuple(shape) if type(shape) is tuple else (shape,)
        fd = it.flatten_tuple(strides) if type(strides) is tuple else (strides,)
        assert all(d == 0 for s, d in zip(fs, fd) if s == 1)
        L = Layout(shape, strides)
        assert sorted(offsets(L)) == list(range(L.size()))


@given(layouts())
def test_make_layout_like_and_fragment_like_are_compact(L):
    for M in (make_layout_like(L), make_fragment_like(L)):
        assert it.product_each_tuple(M.shape) == it.product_each_tuple(L.shape) or M.size() == L.size()
        nz = [x for x in offsets(M)]
        assert max(nz) < max(M.size(), 1) or M.size() == 0
    like = make_layout_like(L)
    fs, fd = it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)
    ld = it.flatten_tuple(like.stride)
    assert all(d == 0 for s, d, e in zip(fs, ld, fd) if s == 1 or e == 0)


@given(tiling_layouts(gaps=False), st.sampled_from((8, 16, 32)), st.sampled_from((8, 16, 32)))
def test_recast_layout_roundtrips_when_both_casts_divide(L, a, b):
    R = admitted(recast_layout, L, a, b)
    assume(R is not None)
    back = admitted(recast_layout, R, b, a)
    assume(back is not None)
    assert back.size() * 1 == L.size() or a != b
    if a == b:
        assert R == L


@given(layouts())
def test_coshape_is_the_cosize_for_integer_strides(L):
    assert coshape(L) == L.cosize()


@pytest.mark.parametrize("bad", [0, -1, 2.5])
def test_casts_reject_non_positive_or_fractional_factors(bad):
    L = Layout((4, 8), (1, 4))
    for op in (cp.upcast, cp.downcast):
        with pytest.raises(cp.CutepyError):
            op(L, bad)
    with pytest.raises(cp.CutepyError):
        cp.complement(L, bad)


def test_downcast_needs_a_stride_1_mode_as_cxx():
    with pytest.raises(cp.AdmissibilityError, match="adjacent"):
        cp.downcast(Layout((4, 8), (2, 8)), 2)


def test_swizzle_parameters_are_bounded():
    with pytest.raises(cp.CutepyError, match="at most 31"):
        cp.Swizzle(3, 26, 3)
    with pytest.raises(cp.CutepyError):
        cp.Swizzle(3, 0, 2)


def test_zipped_tiled_flat_forms_need_a_tiler():
    L = Layout((4, 2, 3))
    for op in (cp.zipped_divide, cp.tiled_divide, cp.flat_divide, cp.zipped_product, cp.tiled_product,
               cp.flat_product):
        with pytest.raises(cp.CutepyError, match="tiler"):
            op(L, None)


@given(swizzled_layouts(), swizzled_layouts())
def test_nested_composed_layouts_print_as_a_flat_chain_and_parse_back(C, D):
    # C++ prints layout_a, " o ", offset, " o ", layout_b with no parentheses, so a nested
    # composed layout reads as a chain; the parser groups the chain to the right
    N = cp.make_composed_layout(C.outer, 1, D)
    text = str(N)
    assert "(" + str(D.outer) not in text and text.count(" o ") == 4
    back = cp.parse(text)
    assert back == N
    assert offsets(back) == [C.outer(1 + D(i)) for i in range(D.size())]
