"""tensor-layouts' layout tests (tests/layouts.py in jduprat/tensor-layouts), rewritten against cutepy.

Each test below carries the peer test's name and its inputs and checks, written with cutepy's
C++-named functions (the peer's ``compose`` is ``composition``, ``Layout(a, b)`` and ``concat`` are
``make_layout``, ``mode`` is ``get``, ``dice_modes`` is ``dice``, ``slice_modes`` is the shape of
a slice, ``crd2flat``/``crd2offset`` are ``crd2idx`` with and without strides, ``Tile(...)`` is a
tuple of layouts, ``functionally_equal`` is ``equivalent``). ``test_every_case_prints_as_cxx``
prints every answer the tests pin as C++ CuTe 4.2 prints it (compiled with g++ when the headers
are installed).

Where tensor-layouts and C++ disagree, C++ wins and the test checks C++'s answer:

- ``rank`` of an integer is 1 in C++ (``rank(Int<2>{}) == _1``), not 0.
- ``coalesce(L, profile)`` coalesces mode ``i`` of ``L`` by ``profile[i]`` and keeps the modes past
  the profile's rank (C++ ``transform_layout``); tensor-layouts regroups ``L`` by the profile's sizes.
- ``logical_divide(L, n)`` with an integer tiler divides the whole layout (C++ treats a non-tuple
  tiler as one layout), not its first mode.
- ``composition(L, tiler)`` with fewer tiler modes than ``L`` drops the modes the tiler does not
  reach (C++: "Drop any modes of lhs that aren't hit by rhs"); tensor-layouts keeps them.
  ``zipped_divide``/``tiled_divide`` by the tiler ``(2,)`` keep the tile as a tuple ``(2)``.
- ``logical_product(4:2, 3:1)``: C++ rejects it (static_assert "Shape Divisibility Condition");
  tensor-layouts answers ``(4,2):(2,1)``, which has size 8, not 12. cutepy raises.
- ``composition((8,8):(8,1), 2:3)`` and ``(3:3)``: C++ answers (``_2:_24``, ``_3:_24``), tensor-
  layouts (and pycute) raise.
- ``product_each(16)`` is ``(16)`` (a tuple of rank 1), ``make_ordered_layout(s, order)`` reads
  ``order[i]`` as the rank of mode ``i`` in the stride order (``(2,3,4)`` with ``(2,0,1)`` is
  ``(2,3,4):(12,1,3)``), ``dice((0,_), L)`` keeps the tuple: ``(3):(1)``, and
  ``tile_to_shape(4:1, 16)`` is ``((4,(4))):((1,(4)))``.
- ``depth(())`` and ``complement`` of the rank-0 layout do not compile in C++; the first is not
  asserted; for the second tensor-layouts answers ``8:1`` and cutepy raises, as C++ refuses.

Count (tests/layouts.py: 186 tests; 166 ported, 20 not ported):

- not ported, no C++ CuTe counterpart (tensor-layouts' own helpers or class internals):
  test_concatenate_tuples (Python's tuple ``+``), test_sort_layouts (no ``sort`` of a layout in C++),
  test_shape_modulo, test_shape_mod_non_divisible, test_shape_div_mod_complementary (C++ CuTe 4.2 has
  no ``shape_mod``), test_layout_squeeze (no ``squeeze`` in C++; ``filter`` also coalesces),
  test_idx2crd_accepts_layout (a Layout passed as a shape), test_tile_basic,
  test_tile_type_checking, test_tile_repr (the peer's ``Tile`` class; cutepy's tilers are tuples),
  test_make_layout_like_basic, test_make_layout_like_partial, test_make_layout_like_with_layout_tiler,
  test_make_layout_like_int_tiler (the peer's ``make_layout_like(layout, tiler)`` is not C++'s
  one-argument ``make_layout_like``, which cutepy implements), test_is_layout (a Python isinstance;
  C++'s ``is_layout`` is a compile-time trait), test_offset_swizzled_layout_repr (the peer's Tensor
  repr), test_upcast_preserves_functional_semantics (checks only ``L(i) < cosize(L)``, a tautology of
  evaluation, not of upcast), test_layout_str_scalar, test_layout_str_tuple, test_layout_str_swizzled
  (the peer's ``str`` format; the ``repr`` tests above them are ported as C++'s print).
- found cutepy bugs and gaps, all fixed since: test_crd2crd_hierarchical_to_flat and test_safe_div
  (the functions were missing), test_product_each_scalar, test_tile_to_shape_1d
  (``tile_to_shape(4:1, 16)`` was ``((4,4)):((1,4))``, C++ ``((4,(4))):((1,(4)))``),
  test_offset_swizzled_layout_basic (a tensor slice of a swizzled layout lost its offset).
"""

from __future__ import annotations

import numpy as np
import pytest

import cutepy as cp
from cutepy import Layout, Swizzle
from cutepy.core import inttuple as it
from cutepy.core.errors import AdmissibilityError, CutepyError
from tests.cxx import cxx_cases


def offsets(L):
    return [L(i) for i in range(cp.size(L))]


def image(L):
    return sorted(set(offsets(L)))


# -- tuples ---------------------------------------------------------------------------------


def test_tuple_empty():
    t = ()
    assert cp.size(t) == 1
    assert cp.rank(t) == 0  # depth(()) and get<0>(()) do not compile in C++


def test_tuple_scalar():
    assert cp.size(2) == 2
    assert cp.rank(2) == 1  # C++: rank(Int<2>{}) == _1 (tensor-layouts: 0)
    assert cp.depth(2) == 0


@pytest.mark.parametrize("name", ["single_element", "nested_single_element"])
def test_tuple_single_element(name):
    """test_tuple_single_element and test_tuple_nested_single_element (the same body in the peer)."""
    t = (2,)
    assert cp.size(t) == 2 and cp.rank(t) == 1 and cp.depth(t) == 1
    assert cp.get(Layout(t), 0) == Layout(2, 1)


def test_tuple_flat_collection():
    t = (3, 127, 128)
    assert cp.size(t) == 48768 and cp.rank(t) == 3 and cp.depth(t) == 1
    assert [cp.get(Layout(t), i).shape for i in range(3)] == [3, 127, 128]


def test_tuple_nested_collection():
    t = (1, 2, (3, 4), 5, (6,))
    assert cp.size(t) == 720 and cp.rank(t) == 5 and cp.depth(t) == 2
    assert [cp.get(Layout(t), i).shape for i in range(5)] == [1, 2, (3, 4), 5, (6,)]


def test_shape_normalization():
    L1 = Layout(2)
    assert (L1.shape, L1.stride) == (2, 1)
    assert Layout((3, 4, 5)).shape == (3, 4, 5)
    assert Layout((1, (2, 3))).shape == (1, (2, 3))


def test_layout_from_layouts():
    a, b = Layout(3, 1), Layout(4, 3)
    row = cp.make_layout(a, b)
    assert row == Layout((3, 4), (1, 3))
    col = cp.make_layout(b, a)
    assert col == Layout((4, 3), (3, 1))
    assert cp.make_layout(row, col) == Layout(((3, 4), (4, 3)), ((1, 3), (3, 1)))
    aa = cp.make_layout(a)
    assert aa == Layout((3,), (1,))
    assert cp.make_layout(aa) == Layout(((3,),), ((1,),))
    assert cp.make_layout(a, cp.make_layout(a), a) == Layout((3, (3,), 3), (1, (1,), 1))


def test_append_prepend_replace_group():
    a, b = Layout(3, 1), Layout(4, 3)
    ab = cp.append(a, b)
    assert ab == Layout((3, 4), (1, 3))
    assert cp.prepend(a, b) == Layout((4, 3), (3, 1))
    c = cp.append(ab, ab)
    assert c == Layout((3, 4, (3, 4)), (1, 3, (1, 3)))
    assert cp.replace(c, 2, b) == Layout((3, 4, 4), (1, 3, 3))
    a = Layout((2, 3, 5, 7))
    assert a == Layout((2, 3, 5, 7), (1, 2, 6, 30))
    g = cp.group(a, 0, 2)
    assert g == Layout(((2, 3), 5, 7), ((1, 2), 6, 30))
    gg = cp.group(g, 1, 3)
    assert gg == Layout(((2, 3), (5, 7)), ((1, 2), (6, 30)))
    assert cp.flatten(g) == cp.flatten(gg) == Layout((2, 3, 5, 7), (1, 2, 6, 30))


CONGRUENT = [
    (3, 5, True),
    (3, (3,), False),
    ((3, 128, 128), (1, 256, 64), True),
    ((3, 128), (1, 256, 64), False),
    ((2, (3, 4)), (5, (6, 7)), True),
    ((2, (3, 4)), (5, 6), False),
    ((2, 3), (4, 5), True),
]

WEAKLY_CONGRUENT = [
    (3, 5, True),
    (6, (2, 3), True),
    (1, ((2, 3), (4, 5)), True),
    ((2, 3), 6, False),
    (((2, 3), 4), 24, False),
    (6, (6,), True),
    ((6,), 6, False),
    ((2, 3), (4, 5), True),
    ((3, 128, 128), (1, 256, 64), True),
    ((3, 128), (1, 256, 64), False),
    ((1, 256, 64), (3, 128), False),
    ((2, (3, 4)), (5, (6, 7)), True),
    ((2, (3, 4)), (5, 6), False),
    ((2, 3), (5, (6, 7)), True),
    ((2, 3), ((4, 5), ((6, 7), 8)), True),
    ((4, 5), (2, 3), True),
]

COMPATIBLE = [
    (24, 32, False),
    (24, (4, 6), True),
    ((4, 6), ((2, 2), 6), True),
    (((2, 2), 6), ((2, 2), (3, 2)), True),
    (24, ((2, 2), (3, 2)), True),
    (24, ((2, 3), 4), True),
    (((2, 3), 4), ((2, 2), (3, 2)), False),
    (((2, 2), (3, 2)), ((2, 3), 4), False),
    (24, (24,), True),
    ((24,), 24, False),
    ((24,), (4, 6), False),
]


def test_congruent():
    for a, b, want in CONGRUENT:
        assert it.congruent(a, b) is want, (a, b)


def test_weakly_congruent():
    for a, b, want in WEAKLY_CONGRUENT:
        assert it.weakly_congruent(a, b) is want, (a, b)


def test_compatible():
    for a, b, want in COMPATIBLE:
        assert it.compatible(a, b) is want, (a, b)


def test_layout_basic():
    Layout((), ())
    L1 = Layout((3, 128, 128), (16384, 128, 1))
    assert cp.rank(L1.shape) == 3 and cp.size(L1.shape) == 49152 and cp.depth(L1.stride) == 1
    assert cp.rank(Layout((2, 2, 2), (1, 2, 4))) == 3
    Layout(128, 5)
    Layout((16, 12, 512, 512), (0, 0, 1, 512))
    Layout((6, 1, 12, 2, 2), (2, 0, 12, 144, 1))


def test_layout_type_validation():
    # cutepy's errors are CutepyError (a ValueError) naming the bad leaf and its type
    for shape, stride, match in [
        ((4, 2), "row", "stride.*str"),
        ("abc", None, "shape.*str"),
        ((4, 2), 1.5, "stride.*float"),
        (3.14, None, "shape.*float"),
        (None, None, "shape.*NoneType"),
    ]:
        with pytest.raises(CutepyError, match=match):
            Layout(shape, stride)
    Layout((4, 2), (1, 4))
    Layout(((2, 2), 4), ((1, 2), 4))
    Layout(8)
    assert Layout([4, 2]) == Layout((4, 2))


def test_layout_rank_size_cosize():
    v = Layout(31, 1)
    assert (cp.rank(v), cp.size(v)) == (1, 31) and cp.get(v, 0) == v
    L5 = Layout((64, 32), (1, 128))
    assert (cp.rank(L5), cp.size(L5), cp.cosize(L5)) == (2, 2048, 4032)
    assert (cp.get(L5, 0), cp.get(L5, 1)) == (Layout(64, 1), Layout(32, 128))
    L6 = Layout((3, 8, 8, 8), (1, 3, 24, 192))
    assert (cp.rank(L6), cp.size(L6), cp.cosize(L6)) == (4, 1536, 1536) and cp.get(L6, 2) == Layout(8, 24)
    L7 = Layout((2, 2, 2, 2, 2), (160, 80, 40, 20, 10))
    assert (cp.rank(L7), cp.size(L7), cp.cosize(L7)) == (5, 32, 311)
    assert (cp.get(L7, 0), cp.get(L7, 4)) == (Layout(2, 160), Layout(2, 10))


def test_layout_filter():
    assert cp.filter(Layout((64, 8, 8, 128), (8, 1, 0, 512))) == Layout((64, 8, 128), (8, 1, 512))
    assert cp.filter(Layout((3, 8, 8, 8), (16, 0, 0, 0))) == Layout(3, 16)
    assert cp.size(cp.filter(Layout((), ()))) == 1


def test_layout_computed_strides():
    assert Layout((2, 2, 2, 2, 2)).stride == (1, 2, 4, 8, 16)
    assert Layout((1, 2, (3, 4), 5, (6,))).stride == (0, 1, (2, 6), 24, (120,))


def test_concatenate_layouts():
    L17, L18 = Layout((7, 2), (2, 1)), Layout((3, 3, 3), (0, 10, 30))
    C = cp.make_layout(*L17, *L18)
    assert C == Layout((7, 2, 3, 3, 3), (2, 1, 0, 10, 30))
    assert cp.size(C) == cp.size(L17) * cp.size(L18)
    assert all(C(i) == L17(i) for i in range(cp.size(L17)))


def test_concatenate_scalar_layouts():
    r = cp.make_layout(Layout(3, 1), Layout(4, 3))
    assert r == Layout((3, 4), (1, 3)) and cp.size(r) == 12
    assert it.flatten_tuple((1, 2, (3, 4), 5, (6,))) == (1, 2, 3, 4, 5, 6)
    assert cp.flatten(Layout((1, 2, (3, 4), 5, (6,)))) == Layout((1, 2, 3, 4, 5, 6), (0, 1, 2, 6, 24, 120))


COALESCE = [
    (((64, 32), (1, 64)), (2048, 1)),
    (((2, 4), (1, 2)), (8, 1)),
    (((2, (1, 6)), (1, (6, 2))), (12, 1)),
    (((3, 5, 2), (7, 21, 4)), ((15, 2), (7, 4))),
    (((2, 2, 2, 2, 2), (8, 16, 1024, 2048, 4096)), ((4, 8), (8, 1024))),
    (((3, 4, 1, 5), (1, 8, 3, 32)), ((3, 20), (1, 8))),
]


def test_coalesce_layouts():
    assert cp.size(cp.coalesce(Layout((), ()))) == 1
    for a, want in COALESCE:
        assert cp.coalesce(Layout(*a)) == Layout(*want)


# (layout, profile, C++'s answer): C++ coalesces mode i by profile[i] and keeps the rest
COALESCE_PROFILE = [
    (((2, 4, 2, 2), (1, 2, 8, 16)), (4, 4), ((2, 4, 2, 2), (1, 2, 8, 16))),
    (((2, 2, 2, 2), (1, 2, 8, 16)), (4, 4), ((2, 2, 2, 2), (1, 2, 8, 16))),
    (((4, 2, 2), (1, 8, 16)), (4, 4), ((4, 2, 2), (1, 8, 16))),
    (((2, 2, 2, 2), (1, 4, 16, 64)), (4, 4), ((2, 2, 2, 2), (1, 4, 16, 64))),
    (((2, 2, 2, 2, 2, 2), (1, 2, 4, 8, 16, 32)), (4, 4, 4), ((2, 2, 2, 2, 2, 2), (1, 2, 4, 8, 16, 32))),
    (((8, 4), (1, 8)), (8, 4), ((8, 4), (1, 8))),
]


def test_coalesce_by_mode_with_profile():
    for a, prof, want in COALESCE_PROFILE:
        assert cp.coalesce(Layout(*a), prof) == Layout(*want)
    assert cp.coalesce(Layout((2, 4, 2, 2), (1, 2, 8, 16))) == Layout(32, 1)


COALESCE_NONE = [
    (((2, (1, 6)), (1, (6, 2))), ((2, 6), (1, 2))),
    ((((2, 4), (2, 4)), ((1, 2), (8, 16))), ((8, 8), (1, 8))),
    (((4, 8), (1, 4)), ((4, 8), (1, 4))),
    (((2, (1, 1, 6)), (1, (0, 0, 2))), ((2, 6), (1, 2))),
]


def test_coalesce_per_mode_with_none_profile():
    for a, want in COALESCE_NONE:
        assert cp.coalesce(Layout(*a), (None, None)) == Layout(*want)
    assert cp.coalesce(Layout((2, (1, 6)), (1, (6, 2)))) == Layout(12, 1)
    assert cp.coalesce(Layout(((2, 4), (2, 4)), ((1, 2), (8, 16)))) == Layout(64, 1)


COMPLEMENT = [
    ((4, 2), 16, ((2, 2), (1, 8))),
    ((4, 1), 16, (4, 4)),
    ((4, 1), 24, (6, 4)),
    (((2, 2), (1, 4)), 16, ((2, 2), (2, 8))),
    ((6, 1), 24, (4, 6)),
    (((4, 2), (1, 16)), None, (4, 4)),
    ((8, 1), 32, (4, 8)),
    ((4, 4), 32, ((4, 2), (1, 16))),
]


def test_complement_layouts():
    with pytest.raises(CutepyError):  # the peer answers 8:1; C++ does not compile rank 0
        cp.complement(Layout((), ()), 8)
    for a, cot, want in COMPLEMENT:
        assert cp.complement(Layout(*a), cot) == Layout(*want)


def test_complement_rejects_negative_strides():
    for L in (Layout(4, -1), Layout((2, 3), (-1, 2))):
        with pytest.raises(AdmissibilityError, match="negative"):
            cp.complement(L)


def test_complement_rejects_zero_sized_shapes():
    # cutepy rejects a zero-sized shape already when the layout is made
    for shape, stride in ((0, 1), ((2, 0), (1, 2))):
        with pytest.raises(CutepyError, match="positive"):
            cp.complement(Layout(shape, stride))


def test_coordinate_functions():
    L8 = Layout((2, 3), (1, 5))
    assert [L8(i, j) for j in range(3) for i in range(2)] == [0, 1, 5, 6, 10, 11] == offsets(L8)
    L9 = Layout((2, 2), (64, 2))
    assert [L9(0, 0), L9(1, 0), L9(0, 1), L9(1, 1)] == [0, 64, 2, 66] == offsets(L9)
    L10 = Layout((4, 2, 2), (3, 3, 100))
    assert (L10(7), L10(9)) == (12, 103)


def test_coordinate_validation():
    L = Layout((4, 8), (1, 4))
    with pytest.raises(CutepyError, match="called with an index"):
        L()
    with pytest.raises(CutepyError, match="does not match the shape"):
        L(1, 2, 3)
    # tensor-layouts refuses a list coordinate; cutepy reads it as a tuple (not asserted)
    assert (L(1), L(1, 2), L((1, 2))) == (1, 9, 9)


def test_idx2crd_crd2flat_crd2offset():
    shape, stride = (3, (2, 3)), (3, (12, 1))
    for c in (16, (1, 5), (1, (1, 2))):
        assert it.idx2crd(c, shape) == (1, (1, 2))
        assert it.crd2idx(c, shape) == 16
        assert it.crd2idx(c, shape, stride) == 17


def test_crd2crd_hierarchical_to_flat():
    crd2crd = cp.crd2crd  # C++ argument order: crd2crd(coord, src_shape, dst_shape)
    src, dst = ((2, 3), 2), (6, 2)
    for i in range(12):
        assert crd2crd(it.idx2crd(i, src), src, dst) == it.idx2crd(i, dst)
    assert crd2crd(((0, 1), 0), src, dst) == (2, 0)
    assert crd2crd(((1, 2), 1), src, dst) == (5, 1)
    assert crd2crd(3, 8, (2, 4)) == (1, 1)
    assert crd2crd((1, 0), (2, 4), 8) == 1
    assert crd2crd((1, 2), (3, 4), (3, 4)) == (1, 2)


SHAPE_DIV = [
    ((6, 2), 2, (3, 2)),
    ((6, 2), 3, (2, 2)),
    ((6, 2), 6, (1, 2)),
    ((6, 2), 12, (1, 1)),
    ((3, 6, 2, 8), 3, (1, 6, 2, 8)),
    ((3, 6, 2, 8), 6, (1, 3, 2, 8)),
    ((3, 6, 2, 8), 9, (1, 2, 2, 8)),
    ((3, 6, 2, 8), 72, (1, 1, 1, 4)),
    (12, 4, 3),
    (4, 12, 1),
    (8, 2, 4),
    (2, 8, 1),
]


def test_shape_division():
    for a, b, want in SHAPE_DIV[:8]:
        assert it.shape_div(a, b) == want


def test_shape_div_non_divisible():
    for a, b, want in SHAPE_DIV[8:]:
        assert it.shape_div(a, b) == want
    for a, b in ((6, 4), (4, 6)):  # C++: static_assert "Static shape_div failure"
        with pytest.raises(CutepyError, match="divides"):
            it.shape_div(a, b)


def _divide_keeps_offsets(L, tiler):
    R = cp.logical_divide(L, tiler)
    assert all(R(i) == L(i) for i in range(cp.size(L)))
    return R


def test_logical_divide_cross_mode():
    _divide_keeps_offsets(Layout((4, 3), (1, 4)), 12)
    _divide_keeps_offsets(Layout((4, 6), (1, 4)), 8)
    _divide_keeps_offsets(Layout((2, 3, 4), (1, 2, 6)), 6)


DIVIDE_NON_DIVISIBLE = [(((6, 2), (1, 6)), 4), (((4, 3), (1, 4)), 6), (((3, 4), (1, 3)), 6)]


def test_logical_divide_non_divisible():
    for a, n in DIVIDE_NON_DIVISIBLE:
        _divide_keeps_offsets(Layout(*a), n)


COMPOSE = [
    ((8, 2), (4, 1), (4, 2)),
    ((8, 2), (4, 2), (4, 4)),
    (((4, 8), (1, 4)), (4, 1), (4, 1)),
    (((4, 8), (1, 4)), (4, 4), (4, 4)),
    ((16, 1), ((4, 4), (1, 4)), ((4, 4), (1, 4))),
    ((16, 2), ((4, 4), (1, 4)), ((4, 4), (2, 8))),
    (((4, 4), (1, 4)), ((2, 2), (1, 2)), ((2, 2), (1, 2))),
    (((6, 2), (8, 2)), ((4, 3), (3, 1)), (((2, 2), 3), ((24, 2), 8))),
]


def test_compose_basic():
    for a, b, want in COMPOSE[:2]:
        assert cp.composition(Layout(*a), Layout(*b)) == Layout(*want)


def test_compose_2d_outer():
    for a, b, want in COMPOSE[2:4]:
        assert cp.composition(Layout(*a), Layout(*b)) == Layout(*want)


def test_compose_2d_inner():
    for a, b, want in COMPOSE[4:6]:
        assert cp.composition(Layout(*a), Layout(*b)) == Layout(*want)


def test_compose_two_2d():
    a, b, want = COMPOSE[6]
    assert cp.composition(Layout(*a), Layout(*b)) == Layout(*want)


def _composes(A, B):
    C = cp.composition(A, B)
    assert offsets(C) == [A(B(i)) for i in range(cp.size(B))]
    return C


def test_compose_functional_equivalence():
    _composes(Layout((4, 8), (1, 4)), Layout((2, 4), (1, 2)))
    _composes(Layout((8, 4), (4, 1)), Layout(8, 1))
    _composes(Layout(32, 1), Layout(((2, 2), (2, 2)), ((1, 4), (8, 16))))


def test_compose_nested_result():
    a, b, want = COMPOSE[7]
    assert _composes(Layout(*a), Layout(*b)) == Layout(*want)
    C = _composes(Layout((10, 2), (16, 4)), Layout((5, 4), (1, 5)))
    assert C in (Layout(((5, 1), (2, 2)), ((16, 4), (80, 4))), Layout((5, (2, 2)), (16, (80, 4))))


def test_logical_divide_basic():
    R = _divide_keeps_offsets(Layout((8,)), 2)
    assert (R.shape, R.stride) == ((2, 4), (1, 2))


def test_logical_divide_tuple_tiler():
    assert cp.size(_divide_keeps_offsets(Layout((4, 8)), (2, 4))) == 32


def test_logical_divide_strided():
    assert cp.size(_divide_keeps_offsets(Layout((8,), (2,)), 4)) == 8


def test_logical_divide_2d():
    assert cp.size(_divide_keeps_offsets(Layout((4, 6), (1, 4)), (2, 3))) == 24


def test_logical_divide_hierarchical_stride():
    assert cp.size(_divide_keeps_offsets(Layout(((2, 4), 8), ((1, 2), 8)), (4, 4))) == 64


def test_tiled_divide():
    R = cp.tiled_divide(Layout((8, 8)), (2, 2))
    assert R.shape == ((2, 2), 4, 4) and cp.size(R) == 64


def test_zipped_divide():
    R = cp.zipped_divide(Layout((8, 8)), (2, 2))
    assert R.shape == ((2, 2), (4, 4)) and cp.size(R) == 64


def test_flat_divide():
    R = cp.flat_divide(Layout((8, 8)), (2, 2))
    assert R.shape == (2, 2, 4, 4) and cp.size(R) == 64


def test_divide_1d_tiler_on_2d_layout():
    # C++ divides the whole layout by a non-tuple tiler: (2, rest of both modes), coalesced
    L = Layout((8, 6))
    assert cp.logical_divide(L, 2).shape == (2, 24)
    assert cp.zipped_divide(L, 2).shape == (2, 24)
    assert cp.tiled_divide(L, 2).shape == (2, 24)
    assert cp.flat_divide(L, 2).shape == (2, 24)
    # the by-mode reading tensor-layouts expects is C++'s tuple tiler (2,)
    assert cp.logical_divide(L, (2,)).shape == ((2, 4), 6)
    assert cp.zipped_divide(L, (2,)).shape == ((2,), (4, 6))
    assert cp.tiled_divide(L, (2,)).shape == ((2,), 4, 6)  # C++: ((_2),_4,_6)
    assert cp.flat_divide(L, (2,)).shape == ((2,), 4, 6)  # C++: ((_2),_4,_6)


def test_divide_1d_known_results():
    for op in (cp.logical_divide, cp.zipped_divide, cp.tiled_divide, cp.flat_divide):
        assert op(Layout(16), 4) == Layout((4, 4), (1, 4))


DIVIDE_TUPLE = [
    (((5, 8), (1, 5)), (2, 4), (((2, 3), (4, 2)), ((1, 2), (5, 20)))),
    (((3, 8), (1, 3)), (2, 4), (((2, 2), (4, 2)), ((1, 2), (3, 12)))),
    (((7, 6), (1, 7)), (3, 4), (((3, 3), (4, 2)), ((1, 3), (7, 28)))),
]


def test_logical_divide_non_divisible_tuple_tiler():
    for a, t, want in DIVIDE_TUPLE:
        R = cp.logical_divide(Layout(*a), t)
        assert R == Layout(*want)
        assert cp.size(R) == cp.size(it.product_each_tuple(want[0]))
    r4 = _divide_keeps_offsets(Layout((8, 6)), (4, 3))
    assert r4.shape == ((4, 2), (3, 2))


def test_logical_divide_rejects_over_rank_tiler():
    with pytest.raises(CutepyError, match="tiler has 3 modes"):
        cp.logical_divide(Layout((4, 8), (1, 4)), (2, 4, 6))
    with pytest.raises(CutepyError, match="tiler has 2 modes"):
        cp.logical_divide(Layout(8), (2, 4))
    cp.logical_divide(Layout((4, 8), (1, 4)), (2, 4))
    cp.logical_divide(Layout((4, 8, 3), (1, 4, 32)), (2, 4))


def test_logical_product():
    assert cp.logical_product(Layout(4, 1), Layout(8, 1)) == Layout((4, 8), (1, 4))
    # C++: static_assert "Shape Divisibility Condition" (complement (2,2):(1,8) cannot take 3 of it)
    with pytest.raises(AdmissibilityError, match="divisibility"):
        cp.logical_product(Layout(4, 2), Layout(3, 1))


A12 = Layout((12, (4, 8)), (59, (13, 1)))


def _by_mode_offsets(A, tiler, R):
    """R(i) == A_0(T_0(i0)) + A_1(T_1(i1)) with (i0, i1) the coordinate of i in R's two modes."""
    T0, T1 = (t if type(t) is Layout else Layout(t) for t in tiler)
    n0 = cp.size(T0)
    for i in range(cp.size(R)):
        assert R(i) == A[0](T0(i % n0)) + A[1](T1(i // n0))


def test_compose_with_tile():
    tiler = (Layout(3, 4), Layout(8, 2))
    R = cp.composition(A12, tiler)
    assert R == Layout((3, (2, 4)), (236, (26, 1)))
    _by_mode_offsets(A12, tiler, R)


def test_compose_tile_partial_modes():
    # C++ drops the modes the tiler does not reach: (_2):(_1) (tensor-layouts keeps them, rank 3)
    R = cp.composition(Layout((4, 8, 16), (1, 4, 32)), (Layout(2, 1),))
    assert cp.rank(R) == 1 and R == Layout((2,), (1,))


def test_compose_tile_scalar_modes():
    R = cp.composition(Layout((8, 4), (1, 8)), (Layout(2, 1), Layout(2, 1)))
    assert R == Layout((2, 2), (1, 8))


def test_compose_shape_as_tiler():
    R = cp.composition(A12, (3, 8))
    assert R == Layout((3, (4, 2)), (59, (13, 1)))
    assert R == cp.composition(A12, (Layout(3, 1), Layout(8, 1)))
    _by_mode_offsets(A12, (3, 8), R)


def test_compose_shape_tiler_variants():
    a = Layout((16, 8), (1, 16))
    assert cp.composition(a, (4, 2)) == cp.composition(a, (Layout(4, 1), Layout(2, 1)))
    R = cp.composition(Layout((8, 4), (2, 16)), (2,))
    assert R.shape[0] == 2 and R == Layout((2,), (2,))  # C++ drops mode 1 (tensor-layouts keeps it)


def test_compose_mixed_tiler():
    tiler = (Layout(3, 4), 8)
    R = cp.composition(A12, tiler)
    assert R == Layout((3, (4, 2)), (236, (13, 1)))
    _by_mode_offsets(A12, tiler, R)


def test_compose_mixed_tiler_reversed():
    a, tiler = Layout((8, 16), (1, 8)), (4, Layout(4, 2))
    R = cp.composition(a, tiler)
    assert R == Layout((4, 4), (1, 16))
    _by_mode_offsets(a, tiler, R)


def test_blocked_product_morton():
    m1 = Layout((2, 2), (1, 2))
    m2 = cp.blocked_product(m1, m1)
    assert m2 == Layout(((2, 2), (2, 2)), ((1, 4), (2, 8)))
    assert cp.blocked_product(m1, m2) == Layout(((2, (2, 2)), (2, (2, 2))), ((1, (4, 16)), (2, (8, 32))))


def test_core_matrix_operations():
    tile2 = cp.coalesce(cp.blocked_product(Layout((8, 1), (1, 0)), Layout((1, 8), (0, 1))), (None, None))
    assert tile2 == Layout((8, 8), (1, 8))
    tile3 = cp.coalesce(cp.logical_product(tile2, Layout((8, 8), (1, 8))), (None, None))
    assert tile3 == Layout((64, 64), (1, 64))


def test_safe_div():
    safe_div = cp.safe_div
    assert [safe_div(12, 3), safe_div(12, 4), safe_div(12, 1), safe_div(12, 12), safe_div(0, 5)] == [
        4,
        3,
        12,
        1,
        0,
    ]
    for b in (0, 5):  # C++: static_assert / assert divisibility
        with pytest.raises(CutepyError):
            safe_div(12, b)


# the peer's repr tests, as C++'s print (and parse(print) as the eval round trip)
SW_L = cp.composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))
PRINTS = [
    (Layout(8, 2), "8:2"),
    (Layout((4, 8), (1, 4)), "(4,8):(1,4)"),
    (Layout(((2, 3), (2, 4)), ((1, 6), (2, 12))), "((2,3),(2,4)):((1,6),(2,12))"),
    (SW_L, "Sw<3,0,3> o 0 o (8,8):(8,1)"),
]


def test_layout_repr_scalar():
    assert str(PRINTS[0][0]) == PRINTS[0][1]


def test_layout_repr_tuple():
    assert str(PRINTS[1][0]) == PRINTS[1][1]


def test_layout_repr_hierarchical():
    assert str(PRINTS[2][0]) == PRINTS[2][1]


def test_layout_repr_swizzled():
    assert str(SW_L) == PRINTS[3][1]


def test_layout_repr_eval_roundtrip():
    for L in (
        Layout(8, 2),
        Layout((4, 8), (1, 4)),
        Layout((4, 8), (0, 1)),
        Layout(((2, 3), (2, 4)), ((1, 6), (2, 12))),
    ):
        assert cp.parse(str(L)) == L


def test_layout_repr_eval_roundtrip_swizzled():
    assert cp.parse(str(SW_L)) == SW_L


def test_layout_hash():
    L1, L2, L3 = Layout((4, 8), (1, 4)), Layout((4, 8), (1, 4)), Layout((4, 8), (2, 4))
    assert hash(L1) == hash(L2) and L1 == L2 and hash(L1) != hash(L3)
    d = {L1: "a", L3: "b"}
    assert d[L2] == "a" and d[L3] == "b"
    assert len({L1, L2, L3}) == 2


def test_layout_eq_identity_shortcircuit():
    L = Layout((4, 8), (1, 4))
    assert L == L
    L_sw = cp.composition(Swizzle(3, 0, 3), L)
    assert L_sw == L_sw


def test_layout_eq_structural():
    L1, L2 = Layout((4, 8), (1, 4)), Layout((4, 8), (1, 4))
    assert L1 is not L2 and L1 == L2


def test_layout_eq_non_layout():
    L = Layout((4, 8), (1, 4))
    assert L != 42 and L != "not a layout" and L != (4, 8) and L != None  # noqa: E711


def test_swizzle_eq_identity_shortcircuit():
    sw = Swizzle(3, 0, 3)
    assert sw == sw


def test_swizzle_eq_structural():
    sw1, sw2 = Swizzle(3, 0, 3), Swizzle(3, 0, 3)
    assert sw1 is not sw2 and sw1 == sw2


def test_compose_functional_property():
    _composes(Layout((4, 6, 8, 10), (2, 3, 5, 7)), Layout(6, 12))


def test_swizzle_eq():
    sw1 = Swizzle(3, 0, 3)
    assert sw1 == Swizzle(3, 0, 3)
    assert sw1 != Swizzle(2, 0, 3) and sw1 != Swizzle(3, 1, 3) and sw1 != Swizzle(3, 0, -3)
    assert sw1 != "not a swizzle"


def test_swizzled_layout_eq_hash():
    sw1 = cp.composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))
    sw2 = cp.composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))
    sw3 = cp.composition(Swizzle(3, 0, 3), Layout((8, 8), (1, 8)))
    sw4 = cp.composition(Swizzle(2, 0, 3), Layout((8, 8), (8, 1)))
    assert sw1 == sw2 and sw1 != sw3 and sw1 != sw4 and hash(sw1) == hash(sw2)
    assert sw1 != Layout((8, 8), (8, 1))
    assert len({sw1, sw2, sw3}) == 2


def _swizzled_tensor():
    return cp.make_tensor(np.arange(64), SW_L)


def test_offset_swizzled_layout_basic():
    T = _swizzled_tensor()
    assert Layout((8, 8), (8, 1))(3, 0) == 24
    # C++ (make_tensor(data, Sw<3,0,3> o (8,8):(8,1))(3,_)): 27 26 25 24 31 30 29 28, as T(3, j)
    assert [T(3, j) for j in range(8)] == [27, 26, 25, 24, 31, 30, 29, 28]
    row = T(3, None)
    assert [row(j) for j in range(8)] == [27, 26, 25, 24, 31, 30, 29, 28]


def test_offset_swizzled_layout_eq():
    T = _swizzled_tensor()
    s1, s2, s3 = T(3, None), T(3, None), T(4, None)
    assert s1 == s2 and s1 != s3
    assert s1.layout == s2.layout and hash(s1.layout) == hash(s2.layout) and s1.layout != s3.layout


def test_compose_layout_with_swizzled_layout():
    R = cp.composition(Layout(64, 1), SW_L)
    assert cp.get_swizzle_portion(R) == Swizzle(3, 0, 3)
    assert cp.get_nonswizzle_portion(R) == Layout((8, 8), (8, 1))
    assert offsets(R) == offsets(SW_L)


def test_compose_layout_with_swizzled_layout_nontrivial():
    inner = cp.composition(Swizzle(2, 0, 2), Layout(16, 1))
    outer = Layout(16, 2)
    R = cp.composition(outer, inner)
    assert offsets(R) == [outer(inner(i)) for i in range(16)]
    assert type(R) is cp.ComposedLayout and type(R.outer) is Swizzle


def test_tile_to_shape_1d():
    block = Layout(4, 1)
    R = cp.tile_to_shape(block, 16)
    assert R == cp.blocked_product(block, Layout((4,), (1,)))
    assert cp.size(R) == 16
    assert R == Layout(((4, (4,)),), ((1, (4,)),))  # C++: ((_4,(_4))):((_1,(_4)))


def test_tile_to_shape_2d():
    block = Layout((2, 3), (1, 2))
    R = cp.tile_to_shape(block, (8, 6))
    assert R == cp.blocked_product(block, Layout((4, 2), (1, 4)))
    assert R.shape == ((2, 4), (3, 2))


def test_tile_to_shape_with_order():
    block = Layout((2, 3), (1, 2))
    R = cp.tile_to_shape(block, (4, 6), (1, 0))
    assert R == cp.blocked_product(block, cp.make_ordered_layout((2, 2), (1, 0)))


def test_tile_to_shape_exact_fit():
    block = Layout((4, 8), (1, 4))
    assert cp.tile_to_shape(block, (4, 8)) == cp.blocked_product(block, Layout((1, 1), (1, 1)))


def test_tile_to_shape_nested_block():
    assert cp.size(cp.tile_to_shape(Layout(((2, 2), 3), ((1, 2), 4)), (8, 9))) == 72


def test_unflatten_tuple():
    assert it.unflatten_tuple((1, 2, 3, 4, 5), ((0, 0), (0, 0, 0))) == ((1, 2), (3, 4, 5))
    assert it.unflatten_tuple((1, 2, 3, 4), ((0, 0), (0, 0))) == ((1, 2), (3, 4))
    assert it.unflatten_tuple((1, 2, 3), (0, 0, 0)) == (1, 2, 3)
    assert it.unflatten_tuple((1, 2, 3, 4), (((0, 0), 0), 0)) == (((1, 2), 3), 4)


def _unflatten_layout(L, profile):
    return Layout(it.unflatten_tuple(L.shape, profile), it.unflatten_tuple(L.stride, profile))


def test_unflatten_layout():
    R = _unflatten_layout(Layout((2, 3, 5, 7), (1, 2, 6, 30)), ((0, 0), (0, 0)))
    assert (R.shape, R.stride) == (((2, 3), (5, 7)), ((1, 2), (6, 30)))
    original = Layout(((2, 3), (5, 7)), ((1, 2), (6, 30)))
    assert _unflatten_layout(cp.flatten(original), original.shape) == original


def test_unflatten_identity():
    flat = Layout((2, 3, 5), (1, 2, 6))
    assert _unflatten_layout(flat, (0, 0, 0)) == flat


def test_product_each_flat():
    assert it.product_each_tuple((4, 8)) == (4, 8) and it.product_each_tuple((2, 3, 5)) == (2, 3, 5)


def test_product_each_nested():
    assert it.product_each_tuple(((2, 2), 8)) == (4, 8)
    assert it.product_each_tuple((3, (2, 4))) == (3, 8)
    assert it.product_each_tuple(((2, 3), (4, 5))) == (6, 20)


def test_product_each_scalar():
    assert cp.product_each(16) == (16,)  # the public, C++-shaped one (cutepy.core.inttuple's keeps 16)


def test_product_each_deeply_nested():
    assert it.product_each_tuple(((2, (3, 4)), 5)) == (24, 5)


def test_make_ordered_layout_column_major():
    R = cp.make_ordered_layout((4, 8))
    assert R == Layout((4, 8), (1, 4)) == cp.make_ordered_layout((4, 8), (0, 1))


def test_make_ordered_layout_row_major():
    assert cp.make_ordered_layout((4, 8), (1, 0)) == Layout((4, 8), (8, 1))


def test_make_ordered_layout_3d():
    # C++: order[i] is mode i's place in the stride order (tensor-layouts: (4,8,1))
    assert cp.make_ordered_layout((2, 3, 4), (2, 0, 1)) == Layout((2, 3, 4), (12, 1, 3))


def test_make_ordered_layout_scalar():
    assert cp.make_ordered_layout(16) == Layout(16, 1)


L34 = Layout((3, 4), (1, 4))


def test_dice_modes_scalar_coord():
    assert cp.dice(0, L34) == L34 and cp.dice(5, L34) == L34


def test_dice_modes_none_coord():
    assert cp.size(cp.dice(None, L34)) == 1


def test_dice_modes_keep_one_mode():
    assert cp.dice((0, None), L34) == Layout((3,), (1,))  # C++ (_3):(_1)
    assert cp.dice((None, 0), L34) == Layout((4,), (4,))


def test_dice_modes_keep_all():
    assert cp.dice((0, 0), L34) == L34


def test_dice_modes_drop_all():
    assert cp.size(cp.dice((None, None), L34)) == 1


def test_dice_modes_complement_of_slice_modes():
    L = Layout((2, 3, 5), (1, 2, 6))
    crd = (0, None, 0)
    assert cp.slice_and_offset(crd, L)[0].shape == (3,)
    assert cp.dice(crd, L) == Layout((2, 5), (1, 6))


def _nullspace_post(L):
    K = cp.nullspace(L)
    assert cp.size(K) == cp.size(L) // cp.size(cp.filter(L))
    assert all(L(K(i)) == 0 for i in range(cp.size(K)))
    return K


def test_nullspace_all_zero_strides():
    _nullspace_post(Layout((2, 2, 2), (0, 0, 0)))


def test_nullspace_all_zero_large():
    _nullspace_post(Layout((7, 5, 16), (0, 0, 0)))


def test_nullspace_partial_zero():
    _nullspace_post(Layout((2, 2, 2), (1, 0, 2)))


def test_nullspace_partial_zero_large():
    _nullspace_post(Layout((7, 5, 16), (3, 1, 0)))


def test_nullspace_no_zero_strides():
    assert cp.size(_nullspace_post(Layout((4, 8), (1, 4)))) == 1


def test_nullspace_scalar_nonzero_stride():
    K = _nullspace_post(Layout(4, 1))
    assert cp.size(K) == 1 and K == Layout(1, 0)


def test_nullspace_scalar_zero_stride():
    assert cp.size(_nullspace_post(Layout(4, 0))) == 4


def test_max_common_vector_identical():
    assert cp.max_common_vector(Layout(8, 1), Layout(8, 1)) == 8


def test_max_common_vector_contiguous_prefix():
    assert cp.max_common_vector(Layout(8, 1), Layout((2, 4), (1, 4))) == 2


def test_max_common_vector_no_common():
    assert cp.max_common_vector(Layout((4, 2), (2, 1)), Layout(8, 1)) == 1


def test_max_common_layout_identical():
    a = Layout(8, 1)
    R = cp.max_common_layout(a, a)
    assert cp.size(R) == 8 and all(a(R(i)) == i for i in range(8))


def test_max_common_layout_partial():
    a, b = Layout(8, 1), Layout((2, 4), (1, 4))
    R = cp.max_common_layout(a, b)
    assert cp.size(R) == 2 and all(a(R(i)) == i == b(R(i)) for i in range(2))


def test_flat_product_basic():
    block, tiler = Layout(4, 1), Layout(3, 1)
    R = cp.flat_product(block, tiler)
    assert offsets(R) == offsets(cp.zipped_product(block, tiler))


def test_flat_product_2d():
    block, tiler = Layout((2, 4), (1, 2)), Layout(3, 1)
    R = cp.flat_product(block, tiler)
    assert offsets(R) == offsets(cp.zipped_product(block, tiler))


def _raked_vs_blocked(block, tiler):
    raked, blocked = cp.raked_product(block, tiler), cp.blocked_product(block, tiler)
    assert cp.size(raked) == cp.size(blocked)
    assert set(offsets(raked)) == set(offsets(blocked))
    return raked, blocked


def test_raked_product_basic():
    _raked_vs_blocked(Layout((2, 2), (1, 2)), Layout((2, 2), (1, 2)))


def test_raked_product_1d():
    _raked_vs_blocked(Layout(4, 1), Layout(3, 1))


def test_raked_product_interleave_order():
    raked, blocked = _raked_vs_blocked(Layout(4, 1), Layout(2, 1))
    assert offsets(blocked) == [0, 1, 2, 3, 4, 5, 6, 7]
    assert offsets(raked) == [0, 4, 1, 5, 2, 6, 3, 7]


UPCAST = [
    (((32, 32), (32, 1)), 16, ((32, 2), (2, 1))),
    (((32, (32, 4)), (32, (1, 1024))), 16, ((32, (2, 4)), (2, (1, 64)))),
    ((((4, 8), (16, 2)), ((256, 16), (1, 128))), 16, (((4, 8), (1, 2)), ((16, 1), (1, 8)))),
    (((4, 8), (8, 1)), 1, ((4, 8), (8, 1))),
]


def test_upcast_simple_stride1():
    a, n, want = UPCAST[0]
    assert cp.upcast(Layout(*a), n) == Layout(*want)


def test_upcast_hierarchical_value_mode():
    a, n, want = UPCAST[1]
    assert cp.upcast(Layout(*a), n) == Layout(*want)


def test_upcast_transpose_layout():
    a, n, want = UPCAST[2]
    assert cp.upcast(Layout(*a), n) == Layout(*want)


def test_upcast_identity():
    a, n, want = UPCAST[3]
    assert cp.upcast(Layout(*a), n) == Layout(*want)


def test_upcast_broadcast_stride():
    R = cp.upcast(Layout((4, 8), (0, 1)), 4)
    assert R.stride[0] == 0 and R.shape[0] == 4


LDSM = [
    ("SM75_U32x1_LDSM_N", ((32, 2), (2, 1))),
    ("SM75_U32x4_LDSM_N", ((32, (2, 4)), (2, (1, 64)))),
    ("SM75_U16x2_LDSM_T", (((4, 8), (1, 2)), ((16, 1), (1, 8)))),
    ("SM75_U16x4_LDSM_T", (((4, 8), (1, 2, 2)), ((16, 1), (1, 8, 64)))),
    ("SM75_U16x8_LDSM_T", (((4, 8), (1, 2, 4)), ((16, 1), (1, 8, 64)))),
]


def test_upcast_known_copy_atoms():
    for name, (shape, stride) in LDSM:
        R = cp.upcast(cp.copy_atom(name, 16).layout_dst_tv_bits, 16)
        assert (R.shape, R.stride) == (shape, stride), name


def test_downcast_simple():
    assert cp.downcast(Layout((32, 2), (2, 1)), 16) == Layout((32, 32), (32, 1))


def test_upcast_downcast_roundtrip():
    for L in (Layout((32, 32), (32, 1)), Layout((32, (32, 4)), (32, (1, 1024)))):
        assert cp.downcast(cp.upcast(L, 16), 16) == L


def test_downcast_upcast_roundtrip():
    for L in (Layout((32, 2), (2, 1)), Layout((4, 8), (8, 1))):
        assert cp.upcast(cp.downcast(L, 4), 4) == L


def iter_layout(L):
    """tensor-layouts' iter_layout: (coordinate, offset) in colexicographic order."""
    return [(it.idx2crd(i, L.shape), L(i)) for i in range(cp.size(L))]


def test_iter_layout_scalar():
    assert iter_layout(Layout(1, 0)) == [(0, 0)]


def test_iter_layout_1d():
    assert iter_layout(Layout(4, 1)) == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_iter_layout_1d_strided():
    assert iter_layout(Layout(4, 2)) == [(0, 0), (1, 2), (2, 4), (3, 6)]


def test_iter_layout_2d_col_major():
    assert iter_layout(Layout((2, 3), (1, 2))) == [
        ((0, 0), 0),
        ((1, 0), 1),
        ((0, 1), 2),
        ((1, 1), 3),
        ((0, 2), 4),
        ((1, 2), 5),
    ]


def test_iter_layout_2d_row_major():
    assert [o for _, o in iter_layout(Layout((2, 3), (3, 1)))] == [0, 3, 1, 4, 2, 5]


def test_iter_layout_hierarchical():
    L = Layout(((2, 2), 2), ((1, 4), 2))
    pairs = iter_layout(L)
    assert len(pairs) == cp.size(L) and all(L(c) == o for c, o in pairs)


def test_iter_layout_broadcast():
    assert [o for _, o in iter_layout(Layout((4, 2), (0, 1)))] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_iter_layout_swizzled():
    sw = cp.composition(Swizzle(2, 0, 2), Layout((4, 4), (4, 1)))
    pairs = [(it.idx2crd(i, sw.shape), sw(i)) for i in range(cp.size(sw))]
    assert len(pairs) == 16 and all(sw(c) == o for c, o in pairs)


def test_layout_len():
    # tensor-layouts' len is the size; cutepy's (like pycute's) is the rank, so size() is asked
    assert (cp.size(Layout(8, 1)), cp.size(Layout((4, 8), (1, 4))), cp.size(Layout(1, 0))) == (8, 32, 1)


def test_layout_iter_protocol():
    L = Layout((2, 3), (1, 2))
    coords = [c for c, _ in iter_layout(L)]
    assert len(coords) == 6 and coords[0] == (0, 0) and coords[-1] == (1, 2)
    assert all(L(c) == L(it.crd2idx(c, L.shape)) for c in coords)
    assert {L(c) for c in coords} == {0, 1, 2, 3, 4, 5}


def test_image_contiguous():
    assert image(Layout(4, 1)) == [0, 1, 2, 3] and image(Layout((2, 3), (1, 2))) == list(range(6))


def test_image_strided():
    assert image(Layout(4, 2)) == [0, 2, 4, 6]


def test_image_broadcast():
    assert image(Layout((4, 2), (0, 1))) == [0, 1] and image(Layout(4, 0)) == [0]


def test_image_swizzled():
    assert image(cp.composition(Swizzle(2, 0, 2), Layout((4, 4), (4, 1)))) == list(range(16))


def injective(L):
    return len(image(L)) == cp.size(L)


def surjective(L, codomain=None):
    """tensor-layouts' is_surjective: as many distinct offsets as the codomain (default cosize) holds."""
    return len(image(L)) == (cp.cosize(L) if codomain is None else codomain)


def bijective(L):
    return injective(L) and surjective(L)


def test_is_injective_contiguous():
    assert injective(Layout(4, 1)) and injective(Layout((2, 3), (3, 1)))


def test_is_injective_strided():
    assert injective(Layout(4, 2))


def test_is_injective_broadcast():
    assert not injective(Layout((4, 2), (0, 1))) and not injective(Layout(4, 0))


def test_is_surjective_contiguous():
    assert surjective(Layout(4, 1)) and surjective(Layout((2, 3), (1, 2)))


def test_is_surjective_strided():
    assert not surjective(Layout(4, 2)) and cp.cosize(Layout(4, 2)) == 7


def test_is_surjective_custom_codomain():
    L = Layout(4, 2)
    assert not surjective(L)
    assert surjective(L, 4)


def test_is_bijective_contiguous():
    assert all(bijective(Layout(*a)) for a in ((4, 1), ((2, 3), (1, 2)), ((2, 3), (3, 1))))


def test_is_bijective_strided():
    assert not bijective(Layout(4, 2))


def test_is_bijective_broadcast():
    assert not bijective(Layout((4, 2), (0, 1)))


def test_is_bijective_swizzled():
    assert bijective(SW_L)


def test_is_bijective_identity():
    assert bijective(Layout(1, 0))


def test_image_injectivity_consistency():
    for L in (
        Layout(8, 1),
        Layout(4, 2),
        Layout((4, 2), (0, 1)),
        Layout((3, 3), (1, 3)),
        Layout((2, 4), (4, 1)),
    ):
        assert injective(L) == (len(set(offsets(L))) == cp.size(L))
    assert [injective(L) for L in (Layout(8, 1), Layout((4, 2), (0, 1)))] == [True, False]


def contiguous(L):
    """tensor-layouts' is_contiguous: a bijection onto [0, size)."""
    return image(L) == list(range(cp.size(L)))


def test_is_contiguous_basic():
    assert all(contiguous(Layout(*a)) for a in ((4, 1), ((2, 3), (1, 2)), ((2, 3), (3, 1))))


def test_is_contiguous_strided():
    assert not contiguous(Layout(4, 2))


def test_is_contiguous_broadcast():
    assert not contiguous(Layout((4, 2), (0, 1)))


def test_is_contiguous_agrees_with_bijective():
    for a in ((4, 1), (4, 2), ((4, 2), (0, 1)), ((3, 3), (1, 3)), ((2, 4), (4, 1)), ((8, 8), (8, 1)), (1, 0)):
        L = Layout(*a)
        assert contiguous(L) == bijective(L)


def test_functionally_equal_identity():
    L = Layout((4, 8), (1, 4))
    assert cp.equivalent(L, L)


def test_functionally_equal_coalesce():
    L = Layout(((2, 2), (2, 4)), ((1, 4), (2, 8)))
    assert cp.equivalent(L, cp.coalesce(L))


def test_functionally_equal_flatten():
    L = Layout(((2, 2), (2, 4)), ((1, 4), (2, 8)))
    assert cp.equivalent(L, cp.flatten(L))


def test_functionally_equal_structurally_different():
    a = Layout(((2, 2), 2), ((1, 4), 2))
    b = cp.coalesce(a)
    assert a != b and cp.equivalent(a, b)


def test_functionally_equal_different_sizes():
    assert not cp.equivalent(Layout(4, 1), Layout(8, 1))


def test_functionally_equal_broadcast():
    a = Layout((4, 2), (0, 1))
    assert cp.equivalent(a, Layout((4, 2), (0, 1)))
    assert not cp.equivalent(a, Layout((4, 2), (1, 0)))


def test_functionally_equal_row_col_major():
    assert not cp.equivalent(Layout((3, 4), (1, 3)), Layout((3, 4), (4, 1)))


# -- every pinned answer, printed by C++ ------------------------------------------------------


def _bool(expr):
    return f'printf("%s", ({expr}) ? "true" : "false");'


def _cases():
    cx, ct = cxx_cases.cx, cxx_cases.cx_tiler
    out = []

    def add(name, fn, stmt):
        out.append((name, fn, stmt if stmt.endswith(";") else f"print({stmt});"))

    for t in ((), (2,), (3, 127, 128), (1, 2, (3, 4), 5, (6,))):
        add(f"size {t}", lambda t=t: cp.size(t), f"size({cx(t)})")
        add(f"rank {t}", lambda t=t: cp.rank(t), f"rank({cx(t)})")
    for t in (2, (2,), (3, 127, 128), (1, 2, (3, 4), 5, (6,))):
        add(f"depth {t}", lambda t=t: cp.depth(t), f"depth({cx(t)})")
    add("rank 2", lambda: cp.rank(2), "rank(Int<2>{})")
    for a, b, _ in CONGRUENT:
        add(f"congruent {a} {b}", lambda a=a, b=b: it.congruent(a, b), _bool(f"congruent({cx(a)}, {cx(b)})"))
    for a, b, _ in WEAKLY_CONGRUENT:
        add(
            f"weakly_congruent {a} {b}",
            lambda a=a, b=b: it.weakly_congruent(a, b),
            _bool(f"weakly_congruent({cx(a)}, {cx(b)})"),
        )
    for a, b, _ in COMPATIBLE:
        add(
            f"compatible {a} {b}",
            lambda a=a, b=b: it.compatible(a, b),
            _bool(f"compatible({cx(a)}, {cx(b)})"),
        )
    a, b = Layout(3, 1), Layout(4, 3)
    add("make_layout(a)", lambda: cp.make_layout(a), f"make_layout({cx(a)})")
    add(
        "make_layout(make_layout(a))",
        lambda: cp.make_layout(cp.make_layout(a)),
        f"make_layout(make_layout({cx(a)}))",
    )
    add(
        "make_layout(a, (a), a)",
        lambda: cp.make_layout(a, cp.make_layout(a), a),
        f"make_layout({cx(a)}, make_layout({cx(a)}), {cx(a)})",
    )
    add(
        "append",
        lambda: cp.append(cp.append(a, b), cp.append(a, b)),
        f"append(append({cx(a)}, {cx(b)}), append({cx(a)}, {cx(b)}))",
    )
    add("prepend", lambda: cp.prepend(a, b), f"prepend({cx(a)}, {cx(b)})")
    c = Layout((3, 4, (3, 4)), (1, 3, (1, 3)))
    add("replace", lambda: cp.replace(c, 2, b), f"replace<2>({cx(c)}, {cx(b)})")
    g = Layout((2, 3, 5, 7))
    add("group", lambda: cp.group(g, 0, 2), f"group<0,2>({cx(g)})")
    add("group group", lambda: cp.group(cp.group(g, 0, 2), 1, 3), f"group<1,3>(group<0,2>({cx(g)}))")
    for L in (
        Layout((64, 64, 1), (1, 64, 0)),
        Layout((64, 64, 1, 32, 1), (2048, 32, 0, 1, 0)),
        Layout((64, 8, 8, 128), (8, 1, 0, 512)),
        Layout((3, 8, 8, 8), (16, 0, 0, 0)),
    ):
        add(f"filter {L}", lambda L=L: cp.filter(L), f"filter({cx(L)})")
    for s in ((2, 2, 2, 2, 2), (1, 2, (3, 4), 5, (6,))):
        add(f"compact {s}", lambda s=s: Layout(s), f"make_layout({cx(s)})")
        add(f"flatten {s}", lambda s=s: cp.flatten(Layout(s)), f"flatten(make_layout({cx(s)}))")
    L17, L18 = Layout((7, 2), (2, 1)), Layout((3, 3, 3), (0, 10, 30))
    add(
        "concat",
        lambda: cp.make_layout(*L17, *L18),
        "make_layout("
        + ", ".join(f"layout<{i}>({cx(L17)})" for i in range(2))
        + ", "
        + ", ".join(f"layout<{i}>({cx(L18)})" for i in range(3))
        + ")",
    )
    for x, _ in COALESCE:
        add(f"coalesce {x}", lambda x=x: cp.coalesce(Layout(*x)), f"coalesce({cx(Layout(*x))})")
    for x, prof, _ in COALESCE_PROFILE:
        add(
            f"coalesce {x} {prof}",
            lambda x=x, p=prof: cp.coalesce(Layout(*x), p),
            f"coalesce({cx(Layout(*x))}, {cx(prof)})",
        )
    for x, _ in COALESCE_NONE:
        add(
            f"coalesce {x} (_,_)",
            lambda x=x: cp.coalesce(Layout(*x), (None, None)),
            f"coalesce({cx(Layout(*x))}, make_tuple(_, _))",
        )
    for x, cot, _ in COMPLEMENT:
        A = Layout(*x)
        cs = cx(A) if cot is None else f"{cx(A)}, {cx(cot)}"
        add(f"complement {A} {cot}", lambda A=A, cot=cot: cp.complement(A, cot), f"complement({cs})")
    L8, L9, L10 = Layout((2, 3), (1, 5)), Layout((2, 2), (64, 2)), Layout((4, 2, 2), (3, 3, 100))
    for L, idx in ((L8, range(6)), (L9, range(4)), (L10, (7, 9))):
        for i in idx:
            add(f"{L}({i})", lambda L=L, i=i: L(i), f"{cx(L)}({cx(i)})")
    shape, stride = (3, (2, 3)), (3, (12, 1))
    for crd in (16, (1, 5), (1, (1, 2))):
        add(f"idx2crd {crd}", lambda c=crd: it.idx2crd(c, shape), f"idx2crd({cx(crd)}, {cx(shape)})")
        add(f"crd2idx {crd}", lambda c=crd: it.crd2idx(c, shape), f"crd2idx({cx(crd)}, {cx(shape)})")
        add(
            f"crd2idx {crd} stride",
            lambda c=crd: it.crd2idx(c, shape, stride),
            f"crd2idx({cx(crd)}, {cx(shape)}, {cx(stride)})",
        )
    for x, y, _ in SHAPE_DIV:
        add(f"shape_div {x} {y}", lambda x=x, y=y: it.shape_div(x, y), f"shape_div({cx(x)}, {cx(y)})")
    for x, y in ((6, 4), (4, 6)):
        add(f"shape_div {x} {y}", lambda x=x, y=y: it.shape_div(x, y), f"shape_div({cx(x)}, {cx(y)})")
    for x, n in ((((4, 3), (1, 4)), 12), (((4, 6), (1, 4)), 8), (((2, 3, 4), (1, 2, 6)), 6)) + tuple(
        DIVIDE_NON_DIVISIBLE
    ):
        add(
            f"logical_divide {x} {n}",
            lambda x=x, n=n: cp.logical_divide(Layout(*x), n),
            f"logical_divide({cx(Layout(*x))}, {cx(n)})",
        )
    for x, y, _ in COMPOSE + [(((10, 2), (16, 4)), ((5, 4), (1, 5)), None)]:
        add(
            f"composition {x} {y}",
            lambda x=x, y=y: cp.composition(Layout(*x), Layout(*y)),
            f"composition({cx(Layout(*x))}, {cx(Layout(*y))})",
        )
    divs = (
        (Layout((8,)), 2),
        (Layout((4, 8)), (2, 4)),
        (Layout((8,), (2,)), 4),
        (Layout((4, 6), (1, 4)), (2, 3)),
        (Layout(((2, 4), 8), ((1, 2), 8)), (4, 4)),
        (Layout((8, 6)), (4, 3)),
    )
    for L, t in divs + tuple((Layout(*x), y) for x, y, _ in DIVIDE_TUPLE):
        add(
            f"logical_divide {L} {t}",
            lambda L=L, t=t: cp.logical_divide(L, t),
            f"logical_divide({cx(L)}, {ct(t)})",
        )
    for op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        for L, t in ((Layout((8, 8)), (2, 2)), (Layout((8, 6)), 2), (Layout((8, 6)), (2,)), (Layout(16), 4)):
            add(f"{op} {L} {t}", lambda L=L, t=t, op=op: getattr(cp, op)(L, t), f"{op}({cx(L)}, {ct(t)})")
    for x, y in (((4, 1), (8, 1)), ((4, 2), (3, 1))):
        add(
            f"logical_product {x} {y}",
            lambda x=x, y=y: cp.logical_product(Layout(*x), Layout(*y)),
            f"logical_product({cx(Layout(*x))}, {cx(Layout(*y))})",
        )
    tilers = [
        (A12, (Layout(3, 4), Layout(8, 2))),
        (Layout((4, 8, 16), (1, 4, 32)), (Layout(2, 1),)),
        (Layout((8, 4), (1, 8)), (Layout(2, 1), Layout(2, 1))),
        (A12, (3, 8)),
        (A12, (Layout(3, 1), Layout(8, 1))),
        (Layout((16, 8), (1, 16)), (4, 2)),
        (Layout((8, 4), (2, 16)), (2,)),
        (A12, (Layout(3, 4), 8)),
        (Layout((8, 16), (1, 8)), (4, Layout(4, 2))),
    ]
    for L, t in tilers:
        add(f"composition {L} {t}", lambda L=L, t=t: cp.composition(L, t), f"composition({cx(L)}, {ct(t)})")
    m1 = Layout((2, 2), (1, 2))
    m2 = Layout(((2, 2), (2, 2)), ((1, 4), (2, 8)))
    add("morton2", lambda: cp.blocked_product(m1, m1), f"blocked_product({cx(m1)}, {cx(m1)})")
    add("morton3", lambda: cp.blocked_product(m1, m2), f"blocked_product({cx(m1)}, {cx(m2)})")
    t1, mul1, t2, mul2 = (
        Layout((8, 1), (1, 0)),
        Layout((1, 8), (0, 1)),
        Layout((8, 8), (1, 8)),
        Layout((8, 8), (1, 8)),
    )
    add(
        "core tile2",
        lambda: cp.coalesce(cp.blocked_product(t1, mul1), (None, None)),
        f"coalesce(blocked_product({cx(t1)}, {cx(mul1)}), make_tuple(_, _))",
    )
    add(
        "core tile3",
        lambda: cp.coalesce(cp.logical_product(t2, mul2), (None, None)),
        f"coalesce(logical_product({cx(t2)}, {cx(mul2)}), make_tuple(_, _))",
    )
    add("swizzled print", lambda: SW_L, cx(SW_L))
    add("swizzled slice", lambda: SW_L(3, None), f"{cx(SW_L)}(Int<3>{{}}, _)")
    add(
        "Layout o swizzled",
        lambda: cp.composition(Layout(64, 1), SW_L),
        f"composition({cx(Layout(64, 1))}, {cx(SW_L)})",
    )
    sw16 = cp.composition(Swizzle(2, 0, 2), Layout(16, 1))
    add(
        "16:2 o swizzled",
        lambda: cp.composition(Layout(16, 2), sw16),
        f"composition({cx(Layout(16, 2))}, {cx(sw16)})",
    )
    for blk, trg, order in (
        (Layout(4, 1), 16, None),
        (Layout((2, 3), (1, 2)), (8, 6), None),
        (Layout((2, 3), (1, 2)), (4, 6), (1, 0)),
        (Layout((4, 8), (1, 4)), (4, 8), None),
        (Layout(((2, 2), 3), ((1, 2), 4)), (8, 9), None),
    ):
        args = f"{cx(blk)}, {cx(trg)}" + ("" if order is None else f", {cx(order)}")
        add(
            f"tile_to_shape {blk} {trg} {order}",
            lambda b=blk, t=trg, o=order: cp.tile_to_shape(b, t, o),
            f"tile_to_shape({args})",
        )
    for blk, rep in (
        (Layout(4, 1), Layout((4,), (1,))),
        (Layout((2, 3), (1, 2)), Layout((4, 2), (1, 4))),
        (Layout((2, 3), (1, 2)), Layout((2, 2), (2, 1))),
        (Layout((4, 8), (1, 4)), Layout((1, 1), (1, 1))),
    ):
        add(
            f"blocked_product {blk} {rep}",
            lambda b=blk, r=rep: cp.blocked_product(b, r),
            f"blocked_product({cx(blk)}, {cx(rep)})",
        )
    for flat, prof in (
        ((1, 2, 3, 4, 5), ((0, 0), (0, 0, 0))),
        ((1, 2, 3, 4), ((0, 0), (0, 0))),
        ((1, 2, 3), (0, 0, 0)),
        ((1, 2, 3, 4), (((0, 0), 0), 0)),
    ):
        add(
            f"unflatten {flat} {prof}",
            lambda f=flat, p=prof: it.unflatten_tuple(f, p),
            f"unflatten({cx(flat)}, {cx(prof)})",
        )
    for s in ((4, 8), (2, 3, 5), ((2, 2), 8), (3, (2, 4)), ((2, 3), (4, 5)), ((2, (3, 4)), 5)):
        add(f"product_each {s}", lambda s=s: it.product_each_tuple(s), f"product_each({cx(s)})")
    for s, o in (((4, 8), (0, 1)), ((4, 8), (1, 0)), ((2, 3, 4), (2, 0, 1)), (16, 0)):  # C++ needs an order
        args = cx(s) if o is None else f"{cx(s)}, {cx(o)}"
        add(
            f"make_ordered_layout {s} {o}",
            lambda s=s, o=o: cp.make_ordered_layout(s, o),
            f"make_ordered_layout({args})",
        )
    L235 = Layout((2, 3, 5), (1, 2, 6))
    for crd, L in (
        (0, L34),
        (5, L34),
        (None, L34),
        ((0, None), L34),
        ((None, 0), L34),
        ((0, 0), L34),
        ((None, None), L34),
        ((0, None, 0), L235),
    ):
        add(f"dice {crd} {L}", lambda c=crd, L=L: cp.dice(c, L), f"dice({ct(crd)}, {cx(L)})")
    add(
        "slice (0,_,0)",
        lambda: cp.slice_and_offset((0, None, 0), L235)[0].shape,
        f"slice({ct((0, None, 0))}, {cx(L235.shape)})",
    )
    for L in (
        Layout((2, 2, 2), (0, 0, 0)),
        Layout((7, 5, 16), (0, 0, 0)),
        Layout((2, 2, 2), (1, 0, 2)),
        Layout((7, 5, 16), (3, 1, 0)),
        Layout((4, 8), (1, 4)),
        Layout(4, 1),
        Layout(4, 0),
    ):
        add(f"nullspace {L}", lambda L=L: cp.nullspace(L), f"nullspace({cx(L)})")
    for x, y in (
        (Layout(8, 1), Layout(8, 1)),
        (Layout(8, 1), Layout((2, 4), (1, 4))),
        (Layout((4, 2), (2, 1)), Layout(8, 1)),
    ):
        add(
            f"max_common_vector {x} {y}",
            lambda x=x, y=y: cp.max_common_vector(x, y),
            f"max_common_vector({cx(x)}, {cx(y)})",
        )
        add(
            f"max_common_layout {x} {y}",
            lambda x=x, y=y: cp.max_common_layout(x, y),
            f"max_common_layout({cx(x)}, {cx(y)})",
        )
    for x, y in ((Layout(4, 1), Layout(3, 1)), (Layout((2, 4), (1, 2)), Layout(3, 1))):
        for op in ("flat_product", "zipped_product"):
            add(f"{op} {x} {y}", lambda x=x, y=y, op=op: getattr(cp, op)(x, y), f"{op}({cx(x)}, {cx(y)})")
    for x, y in ((m1, m1), (Layout(4, 1), Layout(3, 1)), (Layout(4, 1), Layout(2, 1))):
        for op in ("raked_product", "blocked_product"):
            add(f"{op} {x} {y}", lambda x=x, y=y, op=op: getattr(cp, op)(x, y), f"{op}({cx(x)}, {cx(y)})")
    for x, n, _ in UPCAST + [(((4, 8), (0, 1)), 4, None)]:
        add(f"upcast {x} {n}", lambda x=x, n=n: cp.upcast(Layout(*x), n), f"upcast<{n}>({cx(Layout(*x))})")
    for x, n in ((((32, 2), (2, 1)), 16), (((32, 2), (2, 1)), 4), (((4, 8), (8, 1)), 4)):
        add(
            f"downcast {x} {n}",
            lambda x=x, n=n: cp.downcast(Layout(*x), n),
            f"downcast<{n}>({cx(Layout(*x))})",
        )
    for name, _ in LDSM:
        bits = cp.copy_atom(name, 16).layout_dst_tv_bits
        add(f"upcast {name}", lambda b=bits: cp.upcast(b, 16), f"upcast<16>({cx(bits)})")
    return out


def test_every_case_prints_as_cxx(cxx):
    cases = _cases()
    bad = cxx_cases.print_mismatches(cxx, cases)
    assert not bad, "\n".join(bad)
