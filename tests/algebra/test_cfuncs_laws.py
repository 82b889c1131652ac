"""Laws of the C++ CuTe functions cutepy gained for issue 10 (item 7, and item 5 for swizzled
layouts): max_alignment, coprofile, domain_offset, domain_distribute, crd2crd, ceil_div and
evenly_divides with a Layout, composition of swizzles, make_layout(Swizzle), logical_product by
a swizzled layout, inverses of swizzled layouts with an offset, and the integer-tuple helpers.

Each law is a hypothesis property over cutepy.strategies (negative-stride and swizzled layouts
where the function takes them). C++'s own answers are checked in tests/algebra/test_cfuncs_cxx.py.
"""

from __future__ import annotations

import math

from hypothesis import assume, given
from hypothesis import strategies as st

import cutepy as cp
from cutepy import ComposedLayout, Layout, Swizzle
from cutepy.core import inttuple as it
from cutepy.core.errors import AdmissibilityError, CutepyError
from cutepy.strategies import (
    coordinates,
    layouts,
    negative_stride_layouts,
    offset_swizzled_layouts,
    shapes,
    swizzled_layouts,
    swizzles,
    tiling_layouts,
)


def _plain(x):
    """An ArithTuple (a basis coordinate) as nested plain tuples."""
    return tuple(_plain(v) for v in x) if isinstance(x, tuple) else x


# -- max_alignment ---------------------------------------------------------------------------


def _aligned_blocks(offsets, n: int) -> bool:
    """The set of offsets is a union of whole aligned blocks ``[k*n, k*n + n)``."""
    img = set(int(x) for x in offsets)
    return all(all(x - x % n + t in img for t in range(n)) for x in img)


@given(st.one_of(layouts(), tiling_layouts()))
def test_max_alignment_splits_the_image_into_aligned_vectors(L):
    n = cp.max_alignment(L)
    assert n >= 1
    assert _aligned_blocks(L.offsets(), n)


@given(st.one_of(swizzled_layouts(), offset_swizzled_layouts()))
def test_max_alignment_of_a_swizzled_layout_keeps_vectors_inside_the_swizzle(C):
    n = cp.max_alignment(C)
    assert n >= 1 and (1 << C.outer.base) % n == 0 and C.offset % n == 0
    assert n == math.gcd(1 << C.outer.base, C.offset, cp.max_alignment(C.inner))
    assert _aligned_blocks(C.offsets(), n)


@given(negative_stride_layouts())
def test_max_alignment_of_a_negative_stride_layout_divides_its_size(L):
    try:
        n = cp.max_alignment(L)
    except cp.AdmissibilityError:  # C++'s truncating gcd answers a negative number: refused
        assume(False)
    assert n >= 1 and L.size() % n == 0


@given(swizzles())
def test_max_alignment_of_a_swizzle_is_its_base(sw):
    assert cp.max_alignment(sw) == 2 ** sw.base


# -- coprofile ---------------------------------------------------------------------------------


@given(st.one_of(layouts(negative=True), shapes().map(cp.make_identity_layout)))
def test_coprofile_is_congruent_with_every_offset(L):
    prof = cp.coprofile(L)
    assert all(x == 0 for x in (it.flatten_tuple(prof) if type(prof) is tuple else (prof,)))
    for i in range(L.size()):
        assert it.congruent(prof, _plain(L(i)))


# -- domain_offset -----------------------------------------------------------------------------


@given(st.one_of(layouts(negative=True), negative_stride_layouts()), st.data())
def test_domain_offset_of_a_layout_moves_the_pointer(L, data):
    crd = data.draw(coordinates(L.shape))
    L2, p = cp.domain_offset(crd, L)
    assert L2 == L and p == L(crd)
    for i in range(L.size()):
        assert p + L2(i) == L(i) + L(crd)


@given(st.one_of(swizzled_layouts(), offset_swizzled_layouts()), st.data())
def test_domain_offset_of_a_swizzled_layout_keeps_the_offset_inside(C, data):
    crd = data.draw(coordinates(C.shape))
    C2, p = cp.domain_offset(crd, C)
    assert p == 0 and C2.inner == C.inner and C2.outer == C.outer
    for i in range(C.size()):
        assert C2(i) == C.outer(C.offset + C.inner(crd) + C.inner(i))


# -- domain_distribute (the post-conditions of CUTLASS's domain_distribute.cpp) --------------


@given(shapes(max_leaves=4, max_size=4096), st.integers(1, 512))
def test_domain_distribute_meets_its_post_conditions(shape, b):
    R = cp.domain_distribute(shape, b)
    assert b % R.size() == 0 and cp.evenly_divides(b, R.size())
    assert cp.evenly_divides(shape, R)
    offs = [R(i) for i in range(R.size())]
    assert all(x < y for x, y in zip(offs, offs[1:]))
    assert cp.is_admissible(cp.make_layout(shape), R)


# -- crd2crd -----------------------------------------------------------------------------------


@st.composite
def _reshaped(draw, shape):
    """A shape with the same size in each top-level mode: a random factorisation of each integer
    mode, the size of each tuple mode (where crd, source and destination modes are all tuples,
    C++ converts them mode by mode, and their sub-modes' sizes may differ)."""
    def refactor(n):
        parts = []
        for p in (2, 3, 5, 7):
            while n % p == 0:
                parts.append(p)
                n //= p
        if n > 1:
            parts.append(n)
        if not parts:
            return 1
        parts = draw(st.permutations(parts))
        cut = draw(st.integers(1, len(parts)))
        head = math.prod(parts[:cut])
        return head if cut == len(parts) else (head, math.prod(parts[cut:]))
    if type(shape) is tuple:
        return tuple(refactor(s) if type(s) is int else it.product(s) for s in shape)
    return refactor(shape)


@given(shapes(), st.data())
def test_crd2crd_keeps_the_index(src, data):
    dst = data.draw(_reshaped(src))
    crd = data.draw(coordinates(src))
    out = cp.crd2crd(crd, src, dst)
    assert cp.crd2idx(out, dst) == cp.crd2idx(crd, src)
    assert out == cp.idx2crd(cp.crd2idx(crd, src), dst) or type(crd) is tuple


# -- ceil_div and evenly_divides with a Layout tiler -------------------------------------------


@given(tiling_layouts(3, 1, gaps=True), shapes(3, 1))
def test_ceil_div_by_a_layout_is_the_rest_of_a_divide(T, target):
    try:
        rest = cp.ceil_div(target, T)
    except CutepyError:
        assume(False)
    assert rest == cp.complement(T, target).shape


@given(tiling_layouts(3, 1, gaps=True), st.integers(1, 512))
def test_ceil_div_by_a_layout_covers_an_integer_target(T, n):
    # (a tuple target is divided mode by mode, as C++'s shape-wise ceil_div: no such bound)
    try:
        rest = cp.ceil_div(n, T)
    except CutepyError:
        assume(False)
    C = cp.complement(T, n)
    assert rest == C.shape and cp.make_layout(T, C).cosize() >= n


@given(tiling_layouts(3, 1, gaps=False), st.integers(1, 512))
def test_ceil_div_by_a_compact_layout_counts_whole_tiles(T, n):
    rest = cp.ceil_div(n, T)
    assert it.product(rest) == -(-n // T.size())


@given(st.integers(1, 200), st.integers(1, 64))
def test_ceil_div_by_a_compact_layout_is_integer_ceil_div(t, n):
    assert cp.ceil_div(t, Layout(n, 1)) == (t + n - 1) // n
    assert cp.evenly_divides(t, Layout(n, 1)) == (t % n == 0)
    assert cp.evenly_divides(t, n) == (t % n == 0)


# -- swizzles ----------------------------------------------------------------------------------


@given(swizzles(), st.integers(0, 4), st.integers(0, 4))
def test_composition_of_swizzles_is_their_composition(a, bits, base):
    assume(bits <= abs(a.shift))
    b = Swizzle(bits, base, a.shift)
    try:
        sw = cp.composition(a, b)
    except CutepyError:
        assume(False)
    top = 1 << (max(a.yyy_mask, a.zzz_mask, b.yyy_mask, b.zzz_mask).bit_length() + 1)
    assert all(sw(x) == a(b(x)) for x in range(top))


@given(swizzles())
def test_a_swizzle_composed_with_itself_is_the_identity(a):
    assert cp.composition(a, a) == Swizzle(0, 0, 0)


@given(swizzles())
def test_make_layout_of_a_swizzle_is_the_swizzle_on_cxx_domain(sw):
    n = sw.bits + sw.base + abs(sw.shift)
    assume(n > 0)
    L = cp.make_layout(sw)
    assert L.size() == n
    assert all(L(i) == sw(i) for i in range(n))
    assert (type(L) is Layout) == (sw.bits == 0)


@given(tiling_layouts(2, 1), swizzled_layouts(2))
def test_logical_product_by_a_swizzled_layout_repeats_the_block(A, T):
    try:
        R = cp.logical_product(A, T)
    except CutepyError:  # C++'s moved swizzle is no swizzle, or another function (AdmissibilityError)
        assume(False)
    C = cp.complement(A, A.size() * T.cosize())
    assert R.size() == A.size() * T.size()
    n = A.size()
    for k in range(R.size()):
        assert R(k) == A(k % n) + C(T(k // n))


@given(offset_swizzled_layouts())
def test_left_inverse_of_a_swizzled_layout_with_an_offset(C):
    assume(C.offset != 0)
    R = cp.left_inverse(C)
    assert type(R) is ComposedLayout and R.offset == -C.offset
    assert all(R(C(i)) == i for i in range(C.size()))


@given(offset_swizzled_layouts())
def test_right_inverse_of_a_swizzled_layout_with_an_offset(C):
    assume(C.offset != 0)
    try:
        R = cp.right_inverse(C)
    except AdmissibilityError:
        assume(False)
    n = cp.right_inverse(C.inner).size()
    assert all(C(R(j)) == j for j in range(n))


@given(offset_swizzled_layouts())
def test_an_inverse_with_a_swizzle_inside_has_no_domain(C):
    assume(C.offset != 0)
    R = cp.left_inverse(C)
    for query in (lambda: R.size(), lambda: R.shape, lambda: R[0]):
        try:
            query()
        except CutepyError:
            continue
        raise AssertionError("a composed layout with a swizzle innermost answered a domain query")


# -- integer-tuple helpers ---------------------------------------------------------------------


@given(shapes())
def test_compact_strides_are_the_major_layouts(s):
    assert Layout(s, cp.compact_col_major(s)) == cp.make_layout(s, cp.LayoutLeft)
    assert Layout(s, cp.compact_row_major(s)) == cp.make_layout(s, cp.LayoutRight)
    n = len(it.flatten_tuple(s)) if type(s) is tuple else 1
    order = it.unflatten_tuple(tuple(range(n)), s) if type(s) is tuple else 0
    assert cp.compact_order(s, order) == cp.compact_col_major(s)


@given(shapes(), st.data())
def test_compact_order_is_a_bijection_onto_its_size(s, data):
    flat = it.flatten_tuple(s) if type(s) is tuple else (s,)
    perm = data.draw(st.permutations(range(len(flat))))
    order = it.unflatten_tuple(tuple(perm), s) if type(s) is tuple else perm[0]
    L = Layout(s, cp.compact_order(s, order))
    assert sorted(L(i) for i in range(L.size())) == list(range(L.size()))


@given(st.integers(0, 10**6), st.integers(1, 1000))
def test_round_up_is_the_next_multiple(a, b):
    r = cp.round_up(a, b)
    assert r % b == 0 and a <= r < a + b


@given(shapes())
def test_product_each_keeps_the_size(s):
    pe = cp.product_each(s)
    assert type(pe) is tuple and it.product(pe) == it.product(s) and len(pe) == it.rank_tuple(s)


# -- coordinate comparisons, unflatten, the composed overloads of the mode functions -----------


@given(shapes(), st.data())
def test_elem_less_is_the_bounds_check_of_a_coordinate(s, data):
    crd = data.draw(coordinates(s, natural=True))
    assert cp.elem_less(crd, s)
    assert not cp.elem_less(s, s) and not cp.lex_less(s, s) and not cp.colex_less(s, s)


@given(shapes(), st.data())
def test_colex_order_is_the_order_of_indices(s, data):
    n = it.product(s)
    i, j = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    a, b = cp.idx2crd(i, s), cp.idx2crd(j, s)
    flat_a = it.flatten_tuple(a) if type(a) is tuple else (a,)
    flat_b = it.flatten_tuple(b) if type(b) is tuple else (b,)
    assert cp.colex_less(flat_a, flat_b) == (i < j)
    assert cp.lex_less(tuple(reversed(flat_a)), tuple(reversed(flat_b))) == (i < j)
    assert cp.colex_geq(flat_a, flat_b) == (i >= j) and cp.colex_gtr(flat_a, flat_b) == (i > j)
    assert cp.lex_leq(flat_a, flat_b) == (not cp.lex_less(flat_b, flat_a))


@given(st.one_of(layouts(negative=True), negative_stride_layouts()))
def test_unflatten_undoes_flatten(L):
    F = cp.flatten(L)
    assert cp.unflatten(F, L.shape) == L


@given(st.one_of(swizzled_layouts(), offset_swizzled_layouts()), st.data())
def test_mode_functions_of_a_composed_layout_act_on_its_inner_layout(C, data):
    inner = C.inner
    rk = len(inner.shape) if type(inner.shape) is tuple else 1
    i = data.draw(st.integers(0, rk - 1))
    b = data.draw(st.integers(0, rk))
    e = data.draw(st.integers(b, rk))
    for got, want in ((cp.get(C, i) if type(inner.shape) is tuple else None, cp.get(inner, i)
                       if type(inner.shape) is tuple else None),
                      (cp.flatten(C), cp.flatten(inner)), (cp.group(C, b, e), cp.group(inner, b, e)),
                      (cp.append(C, Layout(2, 0)), cp.append(inner, Layout(2, 0)))):
        if want is None:
            continue
        assert type(got) is ComposedLayout and got.inner == want
        assert got.outer == C.outer and got.offset == C.offset
    F = cp.flatten(C)
    assert [F(k) for k in range(F.size())] == [C(k) for k in range(C.size())]


@given(st.one_of(layouts(negative=True), swizzled_layouts()), st.sampled_from([4, 8, 16, 32, 64]),
       st.sampled_from([4, 8, 16, 32, 64]))
def test_recast_layout_reads_cxx_and_dsl_argument_orders_alike(L, old_bits, new_bits):
    """C++'s recast_layout<Old, New>(L) is recast_layout(L, old, new); the CuTe DSL writes
    recast_layout(new, old, L): the same layout, or the same refusal."""
    try:
        want = cp.recast_layout(L, old_bits, new_bits)
    except CutepyError as e:
        try:
            cp.recast_layout(new_bits, old_bits, L)
        except CutepyError as f:
            assert str(f) == str(e)
        else:
            raise AssertionError("the DSL order built what the C++ order refused") from None
        return
    assert cp.recast_layout(new_bits, old_bits, L) == want


@given(layouts(negative=True), st.data())
def test_select_takes_cxx_modes_or_the_dsls_mode_keyword(L, data):
    """select(L, i, j) (C++'s select<i,j>) equals select(L, mode=[i, j]) (the CuTe DSL's)."""
    r = cp.rank(L)
    assume(r >= 1)
    modes = data.draw(st.lists(st.integers(0, r - 1), max_size=4))
    got = cp.select(L, mode=modes)
    assert got == cp.select(L, *modes)
    tuple_ = isinstance(L.shape, tuple)
    shapes_, strides_ = (L.shape, L.stride) if tuple_ else ((L.shape,), (L.stride,))
    assert got.shape == tuple(shapes_[i] for i in modes)
    assert got.stride == tuple(strides_[i] for i in modes)
