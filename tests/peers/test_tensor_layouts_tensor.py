"""tensor-layouts' tensor tests (tests/tensor.py in jduprat/tensor-layouts), rewritten against cutepy.

Their ``Tensor(layout, offset=k, data=buf)`` maps to cutepy's tensors as follows:

- without ``data`` their tensor is an offset calculator: ``t(c) == k + layout(c)``. That is
  ``cp.Tensor(None, layout, k)`` (no engine: its values are the offsets themselves);
- with ``data`` it is C++'s ``make_tensor(ptr + k, layout)``: ``cp.Tensor(np.array(buf), layout, k)``
  (``cp.make_tensor`` when the offset is 0);
- ``t[i, :]`` / ``t[(i, None)]`` is C++'s ``tensor(i, _)``: ``T(i, None)``; ``t[i]`` is ``T(i)``;
- writes (``t[c] = v``): cutepy has no element-write call (C++'s ``tensor(c) = v``), so the ports
  write through the engine at ``T.offset + T.layout(c)``; that tests the same thing, that
  slices and views share their engine with the parent rather than copy it.

Where tensor-layouts and C++ CuTe differ, C++ wins (checked with g++ in
``test_every_slice_prints_as_cxx``):

- slicing a swizzled tensor: tensor-layouts keeps the swizzle and a *linear* offset (``i * 8``);
  C++'s ``slice_and_offset`` of ``Sw o L`` decays to a plain layout and moves the *swizzled*
  offset into the pointer (row 3 of ``Sw<3,0,3> o (8,8):(8,1)`` is ``((_4,_2)):((_-1,_4))`` at
  ``+27``). The ports check C++'s form and the invariant ``row(j) == T(i, j)``. cutepy dropped
  that offset (a bug this port found, fixed).
- a hierarchical slice ``T((1, None), ((None, 0), None))``: tensor-layouts keeps the nesting
  ``(2, (2, 2))``; C++ flattens it to ``(_2,_2,_2):(_1,_2,_100)``, and so does cutepy.
- ``tensor(c)`` on a tensor with data: tensor-layouts returns the offset; C++ returns the element.
- errors: a wrong-rank or non-integer coordinate is a ``CutepyError`` (theirs: IndexError/TypeError).

Count (tests/tensor.py): 114 tests in the peer file, 104 ported, 10 not ported
(ported names keep theirs; rank-3 slices are test_rank3_fix_*, test_flat_eval and test_copy are
parametrized over their three tests each):

- test_repr_no_offset, test_repr_with_offset: their class's text format (cutepy prints C++'s
  ``engine o layout`` form, tested in tests/kernels/test_tensor.py);
- test_hash_consistent_with_equality, test_different_data_can_collide_hash: hashing; cutepy's
  tensors are unhashable by design (a mutable numpy engine; C++ has no hash either). The ``==``
  halves of these and of test_equal_tensors are ported;
- test_data_property_setter, test_data_setter_validates_size, test_data_setter_accepts_none,
  test_data_swap_does_not_affect_existing_slices: re-assigning a tensor's storage in place
  (C++ has no such operation; a new tensor is ``make_tensor(engine, layout)``);
- test_setitem_without_data_raises: no element-write API in cutepy (see above);
- test_view_no_storage_raises: a cutepy tensor without an engine is a coordinate tensor, and
  ``make_tensor(None, layout)`` is another one, not an error.
"""

from __future__ import annotations

import numpy as np
import pytest

import cutepy as cp
from cutepy import ComposedLayout, Layout, Swizzle
from tests.cxx import cxx_cases


def T(layout, offset=0):
    """tensor-layouts' ``Tensor(layout, offset)`` without data: values are offsets."""
    return cp.Tensor(None, layout, offset)


def D(buf, layout, offset=0):
    """tensor-layouts' ``Tensor(layout, offset, data=buf)``: C++'s ``make_tensor(ptr + offset, layout)``."""
    return cp.Tensor(np.array(buf), layout, offset)


def store(t, crd, value):
    """C++ ``t(crd) = value``: write through the engine."""
    t.engine[t.offset + t.layout(crd)] = value


def sw(b, m, s, shape, stride):
    return cp.composition(Swizzle(b, m, s), Layout(shape, stride))


# -- construction, equality, call ------------------------------------------------------------


def test_rank2_column_major():
    L = Layout((4, 8), (1, 4))
    t = T(L)
    assert t.layout == L and t.offset == 0 and t.shape == (4, 8) and t.stride == (1, 4)
    assert cp.rank(t.layout) == 2 and cp.size(t) == 32


def test_rank2_row_major():
    t = T(Layout((4, 8), (8, 1)))
    assert t.shape == (4, 8) and t.stride == (8, 1)
    assert (t(0, 0), t(0, 1), t(1, 0)) == (0, 1, 8)


def test_rank1_contiguous():
    t = T(Layout(32, 1))
    assert cp.rank(t.layout) == 1 and cp.size(t) == 32
    assert [t(i) for i in range(32)] == list(range(32))


def test_rank1_strided():
    t = T(Layout(16, 2))
    assert [t(i) for i in range(16)] == [2 * i for i in range(16)]


def test_rank3_tensor():
    t = T(Layout((2, 4, 8), (32, 8, 1)))
    assert cp.rank(t.layout) == 3 and cp.size(t) == 64
    assert (t(0, 0, 0), t(1, 0, 0), t(0, 1, 0), t(0, 0, 1), t(1, 2, 3)) == (0, 32, 8, 1, 32 + 16 + 3)


def test_with_offset():
    t = T(Layout((4, 8), (1, 4)), 100)
    assert t.offset == 100
    assert (t(0, 0), t(1, 0), t(0, 1), t(3, 7)) == (100, 101, 104, 100 + 3 + 7 * 4)


def test_hierarchical_shape():
    t = T(Layout(((2, 4), 8), ((1, 2), 8)))
    assert cp.rank(t.layout) == 2
    assert t.layout[0].shape == (2, 4) and cp.tensor(t, 0).shape == (2, 4)  # t[0] is element 0, as C++
    assert cp.size(t) == 2 * 4 * 8


def test_equal_tensors():
    L = Layout((4, 8), (1, 4))
    assert T(L) == T(L)


def test_different_offset():
    L = Layout((4, 8), (1, 4))
    assert T(L) != T(L, 1)


def test_different_layout():
    assert T(Layout((4, 8), (1, 4))) != T(Layout((4, 8), (8, 1)))


def test_column_major_indexing():
    t = T(Layout((4, 8), (1, 4)))
    assert all(t(i, j) == i + 4 * j for i in range(4) for j in range(8))


def test_row_major_indexing():
    t = T(Layout((4, 8), (8, 1)))
    assert all(t(i, j) == 8 * i + j for i in range(4) for j in range(8))


def test_with_offset_indexing():
    L = Layout((4, 8), (1, 4))
    a, b = T(L), T(L, 1000)
    assert all(b(i, j) == 1000 + a(i, j) for i in range(4) for j in range(8))


def test_hierarchical_indexing():
    t = T(Layout(((2, 4), 8), ((1, 2), 8)))
    assert (t((0, 0), 0), t((1, 0), 0), t((0, 1), 0), t((0, 0), 1)) == (0, 1, 2, 8)


# -- slicing ---------------------------------------------------------------------------------


def test_fix_mode0_keep_mode1():
    t = T(Layout((4, 8), (1, 4)))
    for i in range(4):
        row = t(i, None)
        assert isinstance(row, cp.Tensor)
        assert row.offset == i and row.shape == (8,) and row.stride == (4,)   # C++: (_8):(_4)
        assert [row(j) for j in range(8)] == [t(i, j) for j in range(8)]


def test_fix_mode1_keep_mode0():
    t = T(Layout((4, 8), (1, 4)))
    for j in range(8):
        col = t(None, j)
        assert col.offset == 4 * j and col.shape == (4,) and col.stride == (1,)
        assert [col(i) for i in range(4)] == [t(i, j) for i in range(4)]


def test_fix_all_modes():
    t = T(Layout((4, 8), (1, 4)))
    for i in range(4):
        for j in range(8):
            v = t(i, j)
            assert type(v) is int and v == i + 4 * j


def test_single_index_flat_eval():
    L = Layout((4, 8), (1, 4))
    t = T(L)
    assert type(t(2)) is int and t(2) == L(2)
    assert [t(i) for i in range(32)] == [L(i) for i in range(32)]


def test_row_major_fix_row():
    t = T(Layout((4, 8), (8, 1)))
    row = t(2, None)
    assert row.offset == 16 and row.stride == (1,)
    assert [row(j) for j in range(8)] == [t(2, j) for j in range(8)]


def test_row_major_fix_column():
    t = T(Layout((4, 8), (8, 1)))
    col = t(None, 5)
    assert col.offset == 5 and col.stride == (8,)
    assert [col(i) for i in range(4)] == [t(i, 5) for i in range(4)]


def test_rank3_fix_mode0():
    t = T(Layout((2, 4, 8), (32, 8, 1)))
    s = t(1, None, None)
    assert s.offset == 32 and s.shape == (4, 8) and s.stride == (8, 1)
    assert all(s(i, j) == t(1, i, j) for i in range(4) for j in range(8))


def test_rank3_fix_mode1():
    t = T(Layout((2, 4, 8), (32, 8, 1)))
    s = t(None, 2, None)
    assert s.offset == 16 and s.shape == (2, 8)
    assert all(s(b, w) == t(b, 2, w) for b in range(2) for w in range(8))


def test_rank3_fix_mode2():
    t = T(Layout((2, 4, 8), (32, 8, 1)))
    s = t(None, None, 5)
    assert s.offset == 5 and s.shape == (2, 4)
    assert all(s(b, h) == t(b, h, 5) for b in range(2) for h in range(4))


def test_rank3_fix_two_modes():
    t = T(Layout((2, 4, 8), (32, 8, 1)))
    s = t(1, 2, None)
    assert s.offset == 48 and s.shape == (8,)
    assert [s(w) for w in range(8)] == [t(1, 2, w) for w in range(8)]


def test_sequential_slices():
    t = T(Layout((4, 8, 2), (1, 4, 32)))
    s1 = t(2, None, None)
    assert s1.offset == 2
    s2 = s1(3, None)
    assert s2.offset == 2 + 3 * 4
    assert s2(1) == 2 + 3 * 4 + 32


def test_slice_with_initial_offset():
    L = Layout((4, 8), (1, 4))
    row = T(L, 100)(2, None)
    assert row.offset == 102
    assert [row(j) for j in range(8)] == [100 + L(2, j) for j in range(8)]


def test_double_slice_equivalence():
    t = T(Layout((4, 8), (1, 4)))
    assert all(t(i, None)(j) == t(i, j) for i in range(4) for j in range(8))


def test_hierarchical_mode0():
    t = T(Layout(((2, 4), 8), ((1, 2), 8)))
    s = t((1, 2), None)
    assert isinstance(s, cp.Tensor)
    assert [s(j) for j in range(8)] == [t((1, 2), j) for j in range(8)]


def test_hierarchical_mode1():
    t = T(Layout(((2, 4), 8), ((1, 2), 8)))
    s = t(None, 5)
    assert s.shape == ((2, 4),)                      # C++: ((_2,_4)):((_1,_2))
    assert all(s(((a, b),)) == t((a, b), 5) for a in range(2) for b in range(4))


# -- swizzled tensors ---------------------------------------------------------------------


def test_swizzled_construction():
    t = T(sw(3, 0, 3, (8, 8), (8, 1)))
    assert isinstance(t.layout, ComposedLayout) and t.layout.outer == Swizzle(3, 0, 3)
    assert cp.rank(t.layout) == 2


def test_swizzled_call_differs_from_linear():
    lin, swz = T(Layout((8, 8), (8, 1))), T(sw(3, 0, 3, (8, 8), (8, 1)))
    assert sum(lin(i, j) != swz(i, j) for i in range(8) for j in range(8)) > 0


def test_swizzle_xor_pattern():
    s = Swizzle(3, 0, 3)
    assert (s(8), s(9), s(16)) == (8 ^ 1, 9 ^ 1, 16 ^ 2)


def _check_rows_and_columns(t, rows, cols):
    for i in range(rows):
        r = t(i, None)
        assert r.offset == t(i, 0)             # C++: the swizzled offset moves into the pointer
        assert [r(j) for j in range(cols)] == [t(i, j) for j in range(cols)]
    for j in range(cols):
        c = t(None, j)
        assert c.offset == t(0, j)
        assert [c(i) for i in range(rows)] == [t(i, j) for i in range(rows)]


def test_swizzled_slice_row():
    t = T(sw(3, 0, 3, (8, 8), (8, 1)))
    for i in range(8):
        row = t(i, None)
        assert type(row.layout) is Layout                    # C++ decays the slice
        assert row.offset == t(i, 0)
        assert [row(j) for j in range(8)] == [t(i, j) for j in range(8)]


def test_swizzled_slice_column():
    t = T(sw(3, 0, 3, (8, 8), (8, 1)))
    for j in range(8):
        col = t(None, j)
        assert col.offset == j
        assert [col(i) for i in range(8)] == [t(i, j) for i in range(8)]


def test_swizzled_full_grid_exhaustive():
    _check_rows_and_columns(T(sw(3, 0, 3, (8, 8), (8, 1))), 8, 8)


def test_swizzle_2_1_3():
    _check_rows_and_columns(T(sw(2, 1, 3, (4, 8), (8, 1))), 4, 8)


def test_swizzle_1_2_3():
    t = T(sw(1, 2, 3, (2, 8), (8, 1)))
    for i in range(2):
        assert [t(i, None)(j) for j in range(8)] == [t(i, j) for j in range(8)]


def test_swizzled_with_offset():
    L = sw(3, 0, 3, (8, 8), (8, 1))
    t = T(L, 100)
    for i in range(8):
        row = t(i, None)
        assert row.offset == 100 + L(i, 0)                 # C++: ptr + 100 + Sw(8 i)
        assert [row(j) for j in range(8)] == [t(i, j) for j in range(8)]


def test_swizzled_sequential_slices():
    L = sw(3, 0, 3, (8, 8, 2), (8, 1, 64))
    t = T(L)
    s1 = t(3, None, None)
    assert s1.offset == L(3, 0, 0)                      # C++: 27
    s2 = s1(5, None)
    assert s2.offset == L(3, 5, 0)                      # C++: 30
    assert [s2(k) for k in range(2)] == [t(3, 5, k) for k in range(2)]


def test_swizzled_column_major():
    _check_rows_and_columns(T(sw(3, 0, 3, (8, 8), (1, 8))), 8, 8)


# -- tensors over the algebra's results ------------------------------------------------------


def test_composed_layout():
    A, B = Layout((4, 8), (1, 4)), Layout((2, 4), (1, 2))
    t = T(cp.composition(A, B))
    assert [t(i) for i in range(8)] == [A(B(i)) for i in range(8)]


def test_composed_layout_slicing():
    A, B = Layout((4, 8), (1, 4)), Layout((2, 4), (1, 2))
    t = T(cp.composition(A, B))
    assert cp.rank(t.layout) == 2                  # their test only checks slices when rank 2
    for i in range(cp.size(t.layout[0])):
        s = t(i, None)
        assert [s(j) for j in range(cp.size(s))] == [t(i, j) for j in range(cp.size(s))]


def test_complement_layout():
    comp = cp.complement(Layout((4,), (2,)), 8)
    t = T(comp)
    assert [t(i) for i in range(cp.size(comp))] == [comp(i) for i in range(cp.size(comp))]
    assert [t(i) for i in range(cp.size(comp))] == [0, 1]          # the gaps of {0, 2, 4, 6}


def test_complement_tensor_slicing():
    comp = cp.complement(Layout((2, 2), (1, 4)), 8)
    t = T(comp)
    assert [t(i) for i in range(cp.size(comp))] == [comp(i) for i in range(cp.size(comp))]


def test_logical_divide_simple():
    L = Layout(16, 1)
    t = T(cp.logical_divide(L, Layout(4)))
    assert cp.rank(t.layout) == 2
    assert [t(i) for i in range(16)] == [L(i) for i in range(16)]


def test_logical_divide_2d():
    L = Layout((8, 8), (1, 8))
    t = T(cp.logical_divide(L, Layout((4, 4))))
    assert all(0 <= t(i) < cp.cosize(L) for i in range(cp.size(t)))


def test_logical_divide_slicing():
    t = T(cp.logical_divide(Layout(16, 1), Layout(4)))
    assert cp.rank(t.layout) == 2
    assert cp.size(t(0, None)) == 4      # their check: the rest mode of (4,4):(1,4) has 4 tiles


def test_logical_product_simple():
    p = cp.logical_product(Layout(4, 1), Layout(2, 4))
    t = T(p)
    assert all(0 <= t(i) < cp.cosize(p) for i in range(cp.size(p)))


def test_logical_product_slicing():
    t = T(cp.logical_product(Layout(4, 1), Layout(2, 4)))
    assert cp.rank(t.layout) == 2
    for i in range(cp.size(t.layout[0])):
        s = t(i, None)
        assert [s(j) for j in range(cp.size(s))] == [t(i, j) for j in range(cp.size(s))]


def test_coalesced_layout():
    L = Layout((2, 2, 2), (1, 2, 4))
    t = T(cp.coalesce(L))
    assert [t(i) for i in range(8)] == [L(i) for i in range(8)]


def test_coalesced_slicing():
    t = T(cp.coalesce(Layout((2, 2, 2), (1, 2, 4))))
    assert cp.rank(t.layout) == 1
    assert [t(i) for i in range(8)] == list(range(8))


def test_flattened_layout():
    L = Layout(((2, 4), (2, 2)), ((1, 2), (8, 16)))
    t = T(cp.flatten(L))
    assert [t(i) for i in range(32)] == [L(i) for i in range(32)]


def test_swizzled_after_divide():
    divided = cp.logical_divide(Layout((8, 8), (1, 8)), Layout((4, 4)))
    t = T(cp.composition(Swizzle(2, 0, 2), divided))
    vals = [t(i) for i in range(cp.size(t))]
    assert all(type(v) is int and v >= 0 for v in vals)


# -- edge cases and errors ------------------------------------------------------------------


def test_rank1_slicing():
    t = T(Layout(16, 1))
    assert all(type(t(i)) is int and t(i) == i for i in range(16))


def test_rank1_swizzled():
    L = sw(2, 0, 2, 8, 1)
    t = T(L)
    assert [t(i) for i in range(8)] == [Swizzle(2, 0, 2)(i) for i in range(8)]


def test_zero_offset_preserved():
    t = T(Layout((4, 8), (1, 4)))
    assert t(0, None).offset == 0 and t(None, 0).offset == 0


def test_wrong_rank_indices():
    t = T(Layout((4, 8), (1, 4)))
    with pytest.raises(cp.CutepyError):
        t(1, 2, 3)


def test_invalid_key_type():
    t = T(Layout((4, 8), (1, 4)))
    with pytest.raises(cp.CutepyError):
        t("invalid", None)


def test_invalid_single_key():
    t = T(Layout((4, 8), (1, 4)))
    with pytest.raises(cp.CutepyError):
        t("bad")


# -- C++ patterns ---------------------------------------------------------------------------


def test_cute_tensor_slice_pattern():
    t = T(Layout((4, 8), (1, 4)))
    assert all(t(i, None)(j) == i + 4 * j for i in range(4) for j in range(8))


def test_cute_shared_memory_swizzle():
    t = T(sw(3, 0, 3, (8, 8), (8, 1)))
    for thread in range(8):
        row = t(thread, None)
        assert len({row(col) % 32 for col in range(8)}) == 8


def test_cute_tiled_tensor():
    t = T(cp.logical_divide(Layout(16, 1), Layout(4)))
    assert cp.rank(t.layout) == 2
    assert [t(None, 0)(i) for i in range(4)] == [0, 1, 2, 3]
    assert [t(None, 1)(i) for i in range(4)] == [4, 5, 6, 7]


def test_cute_mma_fragment_pattern():
    t = T(Layout(((2, 4), 8), ((1, 2), 8)))
    t0, t1 = t((0, 0), None), t((1, 0), None)
    assert isinstance(t0, cp.Tensor) and isinstance(t1, cp.Tensor)
    assert t0.offset != t1.offset or t0(0) != t1(0)


def test_hierarchical_slice_preserves_structure():
    """Figure 5 of arXiv:2603.02298. C++ flattens the sliced modes: (_3,_2):(_15,_100) at +8 and
    (_2,_2,_2):(_1,_2,_100) at +4 (tensor-layouts keeps (2, (2, 2)))."""
    A = Layout(((3, 2), ((2, 3), 2)), ((4, 1), ((2, 15), 100)))
    t = T(A)
    s = t(2, ((0, None), None))
    assert s.offset == 8 and s.layout == Layout((3, 2), (15, 100))
    assert all(A(2, ((0, j1), j2)) == s(j1, j2) for j1 in range(3) for j2 in range(2))
    s = t((1, None), ((None, 0), None))
    assert s.offset == 4 and s.layout == Layout((2, 2, 2), (1, 2, 100))
    assert all(A((1, a), ((b, 0), c)) == s(a, b, c) for a in range(2) for b in range(2) for c in range(2))


def test_tensor_slice_with_none():
    t = T(Layout((4, 8), (1, 4)))
    assert t((2, None)) == t(2, None)


# -- flat evaluation, copy ------------------------------------------------------------------


@pytest.mark.parametrize("shape, stride", [((4, 8), (8, 1)), ((4, 8), (1, 4)), ((2, 4, 8), (32, 8, 1))])
def test_flat_eval(shape, stride):
    """test_flat_eval_rank2_row_major, _rank2_col_major, _rank3."""
    L = Layout(shape, stride)
    t = T(L)
    assert [t(i) for i in range(cp.size(L))] == [L(i) for i in range(cp.size(L))]


def test_flat_eval_with_offset():
    L = Layout((4, 8), (8, 1))
    t = T(L, 100)
    assert [t(i) for i in range(32)] == [100 + L(i) for i in range(32)]


def test_flat_eval_with_data():
    L = Layout((4, 8), (8, 1))
    buf = list(range(32))
    t = cp.make_tensor(np.array(buf), L)
    assert [int(t(i)) for i in range(32)] == [buf[L(i)] for i in range(32)]


def test_flat_eval_consistent_with_setitem():
    t = cp.make_tensor(np.zeros(32, dtype=np.int64), Layout((4, 8), (8, 1)))
    for i in range(32):
        store(t, i, 10 * i)
    assert [int(t(i)) for i in range(32)] == [10 * i for i in range(32)]


def test_slice_mode0_still_works():
    t = T(Layout((4, 8), (1, 4)))
    row = t(2, None)
    assert row.offset == 2 and [row(j) for j in range(8)] == [t(2, j) for j in range(8)]


@pytest.mark.parametrize("src_layout, dst_layout", [
    (((4, 8), (8, 1)), ((4, 8), (8, 1))),                   # test_copy_same_layout
    (((4, 8), (8, 1)), ((4, 8), (1, 4))),                   # test_copy_different_layouts
    (((2, 4, 8), (32, 8, 1)), ((2, 4, 8), (1, 2, 8))),      # test_copy_rank3
])
def test_copy(src_layout, dst_layout):
    S, Dl = Layout(*src_layout), Layout(*dst_layout)
    n = cp.size(S)
    src = cp.make_tensor(np.arange(n), S)
    dst = cp.make_tensor(np.zeros(n, dtype=np.int64), Dl)
    for i in range(n):
        store(dst, i, src(i))
    if S == Dl:
        assert list(dst.engine) == list(src.engine)
    assert all(dst(i) == src(i) for i in range(n))
    assert all(dst(c) == src(c) for c in np.ndindex(*S.shape))


# -- storage --------------------------------------------------------------------------------


def test_construction_with_data():
    L, buf = Layout((4, 8), (8, 1)), np.arange(32)
    t = cp.make_tensor(buf, L)
    assert t.engine is buf and t.layout == L and t.offset == 0


def test_construction_with_data_and_offset():
    buf = np.arange(64)
    t = cp.Tensor(buf, Layout((4, 8), (8, 1)), 5)
    assert t.offset == 5 and t.engine is buf


def test_data_too_small_raises():
    with pytest.raises(cp.CutepyError, match="outside the engine"):
        cp.make_tensor(np.arange(10), Layout((4, 8), (8, 1)))


def test_data_larger_than_cosize():
    buf = np.arange(100)
    assert cp.make_tensor(buf, Layout((4, 8), (8, 1))).engine is buf


def test_data_none_by_default():
    assert T(Layout((4, 8), (8, 1))).engine is None


LETTERS = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ012345")


def test_getitem_returns_data_element():
    t = D(LETTERS, Layout((4, 8), (8, 1)))
    assert (t(0, 0), t(0, 1), t(1, 0), t(3, 7)) == ("A", "B", "I", "5")


def test_getitem_without_data_returns_offset():
    assert T(Layout((4, 8), (8, 1)))(2, 3) == 19


def test_call_unaffected_by_data():
    """tensor-layouts' call returns the offset even with data; C++'s ``tensor(c)`` is the element."""
    t = D(LETTERS, Layout((4, 8), (8, 1)))
    assert t.layout(2, 3) == 19 and t(2, 3) == LETTERS[19]


def test_getitem_single_mode_returns_data():
    t = D(list("ABCDEFGH"), Layout(8, 1))
    assert (t(0), t(7)) == ("A", "H")


def test_getitem_flat_eval_returns_data():
    t = D(list(range(32)), Layout((4, 8), (1, 4)))
    assert not isinstance(t(2), cp.Tensor) and t(2) == t.layout(2)


def test_setitem_writes_to_data():
    t = D(list(range(32)), Layout((4, 8), (8, 1)))
    store(t, (2, 3), 999)
    assert t.engine[19] == 999 and t(2, 3) == 999


def test_setitem_rank1():
    t = D(list(range(16)), Layout(8, 2))
    store(t, 3, 42)
    assert t.engine[6] == 42


def test_slice_shares_data():
    t = D(list(range(32)), Layout((4, 8), (8, 1)))
    assert t(2, None).engine is t.engine


def test_slice_data_read():
    t = D(list(range(32)), Layout((4, 8), (8, 1)))
    assert t(2, None)(3) == 19 == t(2, 3)


def test_slice_data_write():
    t = D(list(range(32)), Layout((4, 8), (8, 1)))
    store(t(2, None), 3, 999)
    assert t.engine[19] == 999 and t(2, 3) == 999


def test_chained_slice_data():
    t = D(list(range(32)), Layout((4, 8), (8, 1)))
    assert all(t(i, None)(j) == t(i, j) for i in range(4) for j in range(8))


def test_hierarchical_slice_propagates_data():
    L = Layout(((2, 4), 8), ((1, 2), 8))
    t = D(list(range(cp.cosize(L))), L)
    assert t((0, None), None).engine is t.engine


# -- equality with data ----------------------------------------------------------------------


def test_same_contents_equal():
    L = Layout(8, 1)
    assert D([1, 2, 3, 4, 5, 6, 7, 8], L) == D([1, 2, 3, 4, 5, 6, 7, 8], L)


def test_different_contents_not_equal():
    L = Layout(8, 1)
    assert D([1, 2, 3, 4, 5, 6, 7, 8], L) != D([8, 7, 6, 5, 4, 3, 2, 1], L)


def test_one_has_data_other_does_not():
    L = Layout(8, 1)
    a, b = D([1, 2, 3, 4, 5, 6, 7, 8], L), T(L)
    assert a != b and b != a


def test_both_none_equal():
    L = Layout((4, 8), (8, 1))
    assert T(L) == T(L)


def test_same_data_identity_shortcut():
    buf = np.array([1, 2, 3, 4, 5, 6, 7, 8])
    assert cp.Tensor(buf, Layout(8, 1)) == cp.Tensor(buf, Layout(8, 1))


def test_different_data_lengths_not_equal():
    L = Layout(4, 1)
    assert D([1, 2, 3, 4], L) != D([1, 2, 3, 4, 5, 6, 7, 8], L)


# -- views (C++: make_tensor(t.data(), other_layout)) ----------------------------------------


def test_view_shares_data():
    t = D(list("ABCDEFGH"), Layout((2, 4), (4, 1)))
    assert cp.make_tensor(t.engine, Layout(8, 1)).engine is t.engine


def test_view_reads_same_data():
    t = D(list("ABCDEFGH"), Layout((2, 4), (4, 1)))
    flat = cp.make_tensor(t.engine, Layout(8, 1))
    assert (flat(0), flat(7)) == ("A", "H")


def test_view_write_visible():
    t = D(list("ABCDEFGH"), Layout((2, 4), (4, 1)))
    store(cp.make_tensor(t.engine, Layout(8, 1)), 0, "Z")
    assert t(0, 0) == "Z"


def test_view_different_layout():
    buf = list(range(12))
    t = D(buf, Layout(12, 1))
    assert cp.make_tensor(t.engine, Layout((3, 4), (4, 1)))(1, 2) == buf[1 * 4 + 2]


def test_view_cosize_too_large_raises():
    t = D(list(range(8)), Layout(8, 1))
    with pytest.raises(cp.CutepyError):
        cp.make_tensor(t.engine, Layout(16, 1))


def test_view_smaller_cosize():
    t = D(list(range(16)), Layout(16, 1))
    small = cp.make_tensor(t.engine, Layout(4, 1))
    assert (small(0), small(3)) == (0, 3)


# -- C++'s slices, compiled ----------------------------------------------------------------

PLAIN_SLICES = [
    (Layout((4, 8), (1, 4)), (2, None)),
    (Layout((4, 8), (1, 4)), (None, 5)),
    (Layout((4, 8), (8, 1)), (2, None)),
    (Layout((4, 8), (8, 1)), (None, 5)),
    (Layout((2, 4, 8), (32, 8, 1)), (1, None, None)),
    (Layout((2, 4, 8), (32, 8, 1)), (None, 2, None)),
    (Layout((2, 4, 8), (32, 8, 1)), (1, 2, None)),
    (Layout(((2, 4), 8), ((1, 2), 8)), ((1, 2), None)),
    (Layout(((2, 4), 8), ((1, 2), 8)), (None, 5)),
    (Layout(((3, 2), ((2, 3), 2)), ((4, 1), ((2, 15), 100))), (2, ((0, None), None))),
    (Layout(((3, 2), ((2, 3), 2)), ((4, 1), ((2, 15), 100))), ((1, None), ((None, 0), None))),
]
SWIZZLED_SLICES = [
    (sw(3, 0, 3, (8, 8), (8, 1)), (3, None)),
    (sw(3, 0, 3, (8, 8), (8, 1)), (None, 5)),
    (sw(2, 1, 3, (4, 8), (8, 1)), (1, None)),
    (sw(3, 0, 3, (8, 8), (1, 8)), (None, 6)),
    (sw(3, 0, 3, (8, 8, 2), (8, 1, 64)), (3, None, None)),
]


def _cx_crd(c):
    if c is None:
        return "_"
    if type(c) is int:
        return f"Int<{c}>{{}}"
    return "make_coord(" + ", ".join(_cx_crd(x) for x in c) + ")"


def _check_slices(cxx, cases):
    srcs = []
    for L, crd in cases:
        args = ", ".join(_cx_crd(x) for x in crd)
        srcs.append(f"static int buf[4096]; auto t = make_tensor(&buf[0], {cxx_cases.cx(L)}); "
                    f"auto r = t({args}); print(r.layout()); printf(\" %d\", int(r.data() - &buf[0]));")
    results = cxx.run_cases(srcs, includes=cxx.DEFAULT_INCLUDES + ("cute/tensor.hpp",))
    bad = []
    for (L, crd), r in zip(cases, results):
        s = T(L)(*crd)
        got = f"{cxx_cases.show(s.layout)} {s.offset}"
        if not r.ok or got != cxx.normalise(r.output):
            bad.append(f"{L} {crd}: cutepy {got}, C++ {r.output or r.error[:200]}")
    assert not bad, "\n".join(bad)


def test_every_slice_prints_as_cxx(cxx):
    _check_slices(cxx, PLAIN_SLICES)


def test_every_swizzled_slice_prints_as_cxx(cxx):
    _check_slices(cxx, SWIZZLED_SLICES)
