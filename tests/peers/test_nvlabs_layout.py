"""NVlabs PyCuTe's tests of layouts, tuples, shapes, swizzles, coordinates and tensors (test/test_layout.py,
test_make_layout.py, test_htuple.py, test_compatibility.py, test_typing.py, test_swizzle.py,
test_atuple.py, test_tensor.py in NVlabs/CuTe), rewritten against cutepy, with each answer that C++
CuTe can print compared with C++'s print (compiled here with g++ when the headers are installed).
Where PyCuTe and C++ CuTe differ, C++ wins and the case checks C++'s answer:

- ``make_layout_like`` and ``make_ordered_layout`` give a size-1 mode stride 0 in C++ (PyCuTe: the
  running product), and ``make_ordered_layout`` gives modes with equal orders the same stride
  (PyCuTe: consecutive strides, ties by position). Neither compiles with basis strides in C++;
  cutepy refuses them.
- ``0@0 == 0@1`` is false in C++ (PyCuTe: true, by implicit zeros); cutepy as C++.

| source file         | tests in the peer file | ported | not ported |
|---------------------|------------------------|--------|------------|
| test_layout.py      | 19                     | 15     | 4 (b, g)   |
| test_make_layout.py | 33                     | 26     | 7 (a, c, f) |
| test_htuple.py      | 34                     | 22     | 12 (a, e)  |
| test_compatibility.py | 41                   | 15     | 26 (a)     |
| test_typing.py      | 14                     | 1      | 13 (b, c, d) |
| test_swizzle.py     | 10                     | 4      | 6 (b)      |
| test_atuple.py      | 42                     | 3      | 39 (d)     |
| test_tensor.py      | 20                     | 6      | 14 (d)     |
| test_greatest_common_domain.py | 8           | 0      | 8 (a)      |
| test_layout_add.py  | 33                     | 0      | 33 (a)     |
| test_alg_copy.py    | 12                     | 0      | 12 (d)     |
| test_alg_gemm.py    | 1                      | 0      | 1 (d)      |
| test_docs_exports.py | 2                     | 0      | 2 (d)      |
| test_docstring_examples.py | 2               | 0      | 2 (d)      |
| total               | 271                    | 92     | 179        |

The NVlabs files exist in several versions; the table counts the union of the tests of the versions
read (test_layout.py at 5c2a113 and 1a4a2cd, test_make_layout.py at 2f1e813 and 1a4a2cd, the others
at one version). test_coshape_bounds_the_image is ported for its integer layouts; its F2 layouts, and
test_coshape_f2_stride_is_a_power_of_two and test_coprofile_of_an_f2_layout_is_a_leaf, are (b).
test_make_layout_of_nothing_is_trivial: C++ has no ``make_layout()``; cutepy refuses it too.

Partly ported (only the C++-meaningful half): test_is_tuple (e), test_atuple (ArithTuple + and *,
not + with a plain tuple), test_sbasis (basis equality; ``ScaledBasis(42,[0]) == (42,0,0,0,0)`` is
PyCuTe's implicit zeros), test_typing (the ``isinstance`` half: cutepy's counterpart of PyCuTe's
``Integer`` is the predicate ``inttuple.is_integer``; the sympy half is (c)).

Not ported:

(a) PyCuTe-only operations with no C++ CuTe counterpart: ``common_refinement`` /
    ``common_coarsening`` (26 tests of test_compatibility), ``greatest_common_domain``, ``layout_add``,
    ``tiler_to_layout`` of a tuple of layouts and of an integer (test_tiler_int,
    test_tiler_layout_is_identity, test_tiler_tuple_of_layouts; its shape case is C++'s
    ``make_identity_layout`` and is ported), ``lift`` (4 tests), ``transform_apply_leaf``, the
    ``leaves`` iterator; ``wrap``/``unwrap`` and ``repeat_like`` (C++ has them, cutepy does not:
    reported to the lead); PyCuTe's ``op[mode]`` convention (test_get_subscript_form,
    test_mode_forms_agree, test_mode_is_keyword_only, test_multiple_arguments).
(b) PyCuTe's F2 stride scalars (test_swizzle's TestF2 and TestF2Layout, test_typing's
    test_f2_is_not_integer): C++ writes swizzles as ``Swizzle`` functors, which are ported.
(c) sympy symbols (test_make_layout_like's test_sympy, test_sympy_substitution,
    test_make_ordered_layout's test_sympy; test_typing's sympy half and test_layout_with_sympy_2).
(d) PyCuTe's own classes and machinery: ``register_integer_type`` and the type-alias module layout
    (test_typing's TestTypeAliases, 10 tests), ArithTuple's implicit-zero equality and
    weak congruence, ``basis_repr``, ``is_basis``, ``proj``/``unit``, ``_set``, subtraction, ordering
    and F2 leaves (test_atuple: C++'s ArithmeticTuple has none of these), its ctypes storage
    (test_tensor's TestAccessor, 11 tests, and the writes through ``T[c] = v``, 3 tests: a cutepy
    Tensor is a read-only view of its engine), its copy/gemm algorithms and notebooks, its
    documentation checks.
(e) Lists as tuples (``is_tuple([1,2,3])``): cutepy's tuples are Python tuples only; the tuple half of
    test_is_tuple is ported.
(f) A divide by a basis-strided tiler (test_zipped_divide_equals_logical_divide_with_tiler): C++ does
    not compile it and cutepy refuses it (checked in test_nvlabs_algebra).
(g) ``coprofile`` (test_coprofile_matches_coshape, test_coprofile_is_congruent_to_coshape): cutepy
    lacks it (reported to the lead).
"""

from __future__ import annotations

import numpy as np
import pytest

import cutepy as cp
from cutepy import E, Layout, ScaledBasis
from cutepy.core import inttuple as it
from cutepy.core.basis import ArithTuple
from tests.cxx import cxx_cases

cxb = cxx_cases.cx  # C++ text of a value, basis strides included

def L(shape, stride=None):
    return Layout(shape) if stride is None else Layout(shape, stride)


# -- test_layout.py ------------------------------------------------------------------------

A3 = Layout((3, (2, 4)), (2, (1, 6)))


def test_layout_modes_and_values():
    A = A3
    assert A.size() == 24
    assert A[0] == Layout(3, 2)
    assert A[1] == Layout((2, 4), (1, 6))
    assert A[1][0] == Layout(2, 1)
    assert A == cp.make_layout(Layout(3, 2), cp.make_layout(Layout(2, 1), Layout(4, 6)))
    R = [0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11, 12, 14, 16, 13, 15, 17, 18, 20, 22, 19, 21, 23]
    for i in range(A[0].size()):
        for j in range(A[1].size()):
            index = i + j * A[0].size()
            assert R[index] == A(index) == A(i, j)


def test_default_stride_is_column_major():
    assert Layout(8) == Layout(8, 1)
    assert Layout((4, 8)) == Layout((4, 8), (1, 4))
    assert Layout((3, (2, 4))) == Layout((3, (2, 4)), (1, (3, 6)))


def test_base_stride_scales():
    # PyCuTe's Layout(shape, k) is Layout(shape, prefix_product(shape, k)); cutepy spells it that way
    assert Layout((4, 8), cp.prefix_product((4, 8), 2)) == Layout((4, 8), (2, 8))
    assert Layout((3, (2, 4)), cp.prefix_product((3, (2, 4)), 5)) == Layout((3, (2, 4)), (5, (15, 30)))


def test_explicit_stride():
    assert Layout((4, 8), (8, 1)).stride == (8, 1)
    assert Layout((3, (2, 4)), (24, (1, 6))).stride == (24, (1, 6))


def test_three_coordinate_forms_agree():
    A = A3
    for i in range(A.size()):
        crd_2d = (i % A[0].size(), i // A[0].size())
        crd_nat = (crd_2d[0], (crd_2d[1] % A[1].shape[0], crd_2d[1] // A[1].shape[0]))
        assert A(i) == A(crd_2d) == A(crd_nat) == A(*crd_nat)


def test_call_with_packed_or_unpacked_coord():
    assert A3((2, (1, 2))) == A3(2, (1, 2))


def test_out_of_bounds_integral_coordinate():
    assert A3(100) == 99


SLICES = [((1, 2), 6, None), ((1, None), 4, Layout((4,), (1,))), ((None, 2), 2, Layout((4,), (4,))),
          ((None, None), 0, Layout((4, 4), (4, 1)))]


@pytest.mark.parametrize("crd, off, sub", SLICES)
def test_slice_and_offset(crd, off, sub):
    A = Layout((4, 4), (4, 1))
    got_sub, got_off = cp.slice_and_offset(crd, A)
    assert got_off == off
    if None not in crd:
        assert got_off == A(*crd)
        assert got_sub.rank() == 0
    else:
        assert got_sub == sub


def test_structural_equality():
    assert Layout((3, 4)) == Layout((3, 4), (1, 3))
    assert Layout((3, 4)) != Layout((4, 3))
    assert Layout((3, 4), (1, 3)) != Layout((3, 4), (4, 1))


def test_functionally_equivalent_layouts_may_differ_structurally():
    A, B = Layout((4, 8), (1, 4)), Layout(32, 1)
    assert A != B
    assert all(A(i) == B(i) for i in range(32))


COSHAPE = [(((4, 8), (1, 4)), 32), (((4, 8), (8, 1)), 32), ((8, 1), 8), ((8, 0), 1),
           (((4, 8), (E(0), E(1))), (4, 8)), (((4, 8), (E(1), E(0))), (8, 4))]


@pytest.mark.parametrize("layout, want", COSHAPE)
def test_coshape(layout, want):
    assert cp.coshape(L(*layout)) == want


@pytest.mark.parametrize("layout", [((4, 8), (1, 4)), ((4, 8), (8, 1)), (8, 0)])
def test_coshape_bounds_the_image(layout):
    A = L(*layout)
    assert cp.coshape(A) > max(A(i) for i in range(A.size()))


# -- test_make_layout.py -------------------------------------------------------------------


def test_make_layout_concatenates_modes():
    assert cp.make_layout(Layout(3, 1), Layout(4, 3)) == Layout((3, 4), (1, 3))
    nested = cp.make_layout(Layout(3, 1), cp.make_layout(Layout(2, 1), Layout(4, 6)), Layout(2, 42))
    assert nested == Layout((3, (2, 4), 2), (1, (1, 6), 42))
    A = Layout((3, (2, 4)), (2, (1, 6)))
    assert A == cp.make_layout(A[0], cp.make_layout(A[1][0], A[1][1]))


def test_make_layout_of_nothing_is_refused_as_in_cxx():
    # PyCuTe: make_layout([]) == Layout((), ()); C++ has no make_layout() (does not compile)
    with pytest.raises(cp.CutepyError):
        cp.make_layout()


def test_a_shape_tiler_is_the_identity_layout():
    assert cp.make_identity_layout((4, 5)) == Layout((4, 5), (E(0), E(1)))
    assert cp.make_identity_layout((2, 3, 5)) == Layout((2, 3, 5), (E(0), E(1), E(2)))


def test_composition_with_a_tiler_is_with_its_coordinate_layout():
    # PyCuTe's tiler_to_layout: a shape is C++'s make_identity_layout, a tuple of layouts the layout
    # whose mode i has mode i's strides times E(i)
    A = Layout((12, (4, 8)), (59, (13, 1)))
    assert cp.composition(A, (3, 8)) == cp.composition(A, cp.make_identity_layout((3, 8)))
    tiler = (Layout(3, 4), Layout(8, 1))
    assert cp.composition(A, tiler) == cp.composition(A, Layout((3, 8), (4 * E(0), 1 * E(1))))


# (layout, C++'s make_layout_like); PyCuTe's answer where it differs is in the comment
LAYOUT_LIKE = [
    ((8, 1), (8, 1)), (((4, 8), (1, 4)), ((4, 8), (1, 4))), (((2, 3, 4), (1, 2, 6)), ((2, 3, 4), (1, 2, 6))),
    (((3, 4), (4, 1)), ((3, 4), (4, 1))),
    (((4, 8), (100, 1)), ((4, 8), (8, 1))), (((2, 3, 4), (1, 100, 20)), ((2, 3, 4), (1, 8, 2))),
    (((3, 4, 5), (1, 100, 10)), ((3, 4, 5), (1, 15, 3))),
    (((2, 2, 2, 2), (0, 2, 4, 1)), ((2, 2, 2, 2), (0, 2, 4, 1))),
    (((2, 3, 4, 5), (0, 42, 1, 0)), ((2, 3, 4, 5), (0, 4, 1, 0))),
    ((1, 0), (1, 0)), ((8, 0), (8, 0)), (((3, 7), (0, 0)), ((3, 7), (0, 0))),
    (((8, 4), (0, 2)), ((8, 4), (0, 1))),
    (((8, 4, 6), (1, 0, 2)), ((8, 4, 6), (1, 0, 8))),
    (((1, 4), (7, 2)), ((1, 4), (0, 1))),             # PyCuTe (1,4):(4,1)
    (((4, 1, 8), (1, 5, 4)), ((4, 1, 8), (1, 0, 4))),  # PyCuTe (4,1,8):(1,32,4)
    (((1, 1), (5, 7)), ((1, 1), (0, 0))),             # PyCuTe (1,1):(1,1)
    ((((2, 2), (2, 2)), ((1, 4), (8, 32))), (((2, 2), (2, 2)), ((1, 2), (4, 8)))),
    (((2, (3, 4)), (50, (1, 8))), ((2, (3, 4)), (12, (1, 3)))),
]
LAYOUT_LIKE_BATTERY = [
    (8, 1), (8, 3), ((2, 4), (1, 2)), ((2, 4), (4, 1)), ((2, 4), (1, 4)), ((8, 4), (1, 8)), ((8, 4), (4, 1)),
    ((2, 4, 6), (1, 2, 8)), ((2, 4, 6), (4, 1, 8)), ((2, 4, 8), (8, 1, 64)), ((2, 4, 8), (32, 0, 2)),
    ((2, 4, 8), (2, 0, 32)), ((2, 4, 4, 4, 2), (32, 0, 2, 0, 512)), (((2, 2), (2, 2)), ((1, 4), (8, 32))),
    ((2, (3, 4)), (3, (1, 6))), ((4, 2), (1, 16)), ((1, 4), (7, 2)), ((3, 7), (0, 0)),
]
LAYOUT_LIKE_COORD = [
    (4, E(0)), (4, E(1)), ((2, 3, 4), (E(0), E(1), E(2))), ((2, 3, 4), (E(2), E(1), E(0))),
    ((2, 3, 4), (E(1), E(2), E(0))), ((2, 3), (2 * E(0), 3 * E(1))), ((4, 3), (3 * E(0), 1 * E(0))),
    ((2, 3, 4), (E(0), 0, E(1))), ((2, 3), (0, E(0))), ((2, (3, 4)), (E(0), (E(1), E(2)))),
    ((2, 3, 4), (E(0, 0), E(0, 1), E(1))),
]


@pytest.mark.parametrize("layout, want", LAYOUT_LIKE)
def test_make_layout_like(layout, want):
    assert cp.make_layout_like(L(*layout)) == L(*want)


@pytest.mark.parametrize("layout", LAYOUT_LIKE_BATTERY)
def test_make_layout_like_postconditions(layout):
    A = L(*layout)
    R = cp.make_layout_like(A)
    assert R.shape == A.shape
    assert cp.make_layout_like(R) == R
    src, dst, shp = it.flatten_tuple(A.stride), it.flatten_tuple(R.stride), it.flatten_tuple(A.shape)
    for s, sd, dd in zip(shp, src, dst):
        # a stride-0 mode stays 0; so does (C++) a size-1 mode; every other mode is non-zero
        assert (dd == 0) == (sd == 0 or s == 1)
    modes = sorted(((s, sd, dd) for s, sd, dd in zip(shp, src, dst) if not (s == 1 or sd == 0)),
                   key=lambda m: m[1])
    current = 1
    for s, _sd, dd in modes:
        assert dd == current
        current *= s
    image = sorted({R(i) for i in range(R.size())})
    assert image == list(range(len(image)))


@pytest.mark.parametrize("layout", LAYOUT_LIKE_COORD)
def test_make_layout_like_of_basis_strides_is_refused_as_in_cxx(layout):
    with pytest.raises(cp.CutepyError):
        cp.make_layout_like(L(*layout))


# (shape, order, C++'s make_ordered_layout); PyCuTe's answer where it differs is in the comment
ORDERED = [
    (8, 0, (8, 1)), ((4, 8), (0, 1), ((4, 8), (1, 4))), ((4, 8), (1, 0), ((4, 8), (8, 1))),
    ((2, 3, 4), (0, 1, 2), ((2, 3, 4), (1, 2, 6))), ((2, 3, 4), (2, 1, 0), ((2, 3, 4), (12, 4, 1))),
    ((2, 2, 2, 2), (0, 2, 3, 1), ((2, 2, 2, 2), (1, 4, 8, 2))),
    ((2, 3, 4), (2, 0, 1), ((2, 3, 4), (12, 1, 3))),
    ((2, 3, 4, 5), (2, 67, 42, 50), ((2, 3, 4, 5), (1, 40, 2, 8))),
    ((4, 8), (5, 5), ((4, 8), (1, 1))),                          # PyCuTe (4,8):(1,4)
    ((8, 4), (5, 5), ((8, 4), (1, 1))),                          # PyCuTe (8,4):(1,8)
    ((2, 3, 4, 2), (0, 2, 3, 0), ((2, 3, 4, 2), (1, 4, 12, 1))),  # PyCuTe (1,4,12,2)
    (((2, 2), (2, 2)), ((0, 1), (2, 3)), (((2, 2), (2, 2)), ((1, 2), (4, 8)))),
    ((2, (3, 4)), (0, (1, 2)), ((2, (3, 4)), (1, (2, 6)))),
    ((2, (3, 4)), (2, (1, 0)), ((2, (3, 4)), (12, (4, 1)))),
    ((1, 4), (0, 1), ((1, 4), (0, 1))),                          # PyCuTe (1,4):(1,1)
    ((4, 1, 8), (0, 1, 2), ((4, 1, 8), (1, 0, 4))),              # PyCuTe (4,1,8):(1,4,4)
]


@pytest.mark.parametrize("shape, order, want", ORDERED)
def test_make_ordered_layout(shape, order, want):
    R = cp.make_ordered_layout(shape, order)
    assert R == L(*want)
    assert R.shape == shape
    shp, ords, dst = it.flatten_tuple(shape), it.flatten_tuple(order), it.flatten_tuple(R.stride)
    if len(set(ords)) == len(ords) and 1 not in shp:            # PyCuTe's post-condition, where C++ agrees
        assert sorted({R(i) for i in range(R.size())}) == list(range(R.size()))
        current = 1
        for _o, i in sorted(zip(ords, range(len(ords)))):
            assert dst[i] == current
            current *= shp[i]


def test_make_ordered_layout_relative_order():
    assert cp.make_ordered_layout((4, 8), (5, 7)) == cp.make_ordered_layout((4, 8), (0, 1))


ORDER_MISMATCH = [((4, 8), (0, 1, 2)), (8, (0, 1))]


@pytest.mark.parametrize("shape, order", ORDER_MISMATCH)
def test_make_ordered_layout_needs_a_congruent_order(shape, order):
    with pytest.raises(cp.CutepyError):
        cp.make_ordered_layout(shape, order)


def test_make_ordered_layout_takes_a_coarser_order_as_cxx():
    # PyCuTe refuses (4,(8,2)) ordered by (0,1); C++ orders the whole mode 1 by its one value
    assert cp.make_ordered_layout((4, (8, 2)), (0, 1)) == Layout((4, (8, 2)), (1, (4, 32)))


# -- test_htuple.py ------------------------------------------------------------------------


def test_is_tuple():
    assert it.is_tuple((1, 2, 3)) and it.is_tuple(())
    assert not it.is_tuple(7) and not it.is_tuple(None)


def test_tuple_products():
    assert cp.product(2) == 2 and cp.product((3, 2)) == 6 and cp.product(((2, 3), 4)) == 24
    assert it.product_each_tuple((2, 3)) == (2, 3) and it.product_each_tuple((2, 3, 4)) == (2, 3, 4)
    assert it.product_each_tuple(((2, 3), 4)) == (6, 4)
    assert it.product_each_tuple(((2, (3, 4)), (5, 6), 7)) == (24, 30, 7)
    assert cp.inner_product(2, 3) == 6 and cp.inner_product((1, 2), (3, 2)) == 7
    assert cp.inner_product(((2, 3), 4), ((2, 1), 2)) == 15
    assert cp.prefix_product(2) == 1 and cp.prefix_product((3, 2)) == (1, 3)
    assert cp.prefix_product((3, 2, 4)) == (1, 3, 6) and cp.prefix_product(((2, 3), 4)) == ((1, 2), 6)
    assert cp.prefix_product(((2, 3), (2, 1, 2), (5, 2, 1))) == ((1, 2), (6, 12, 12), (24, 120, 240))


IDX2CRD = [(7, 14, 7), (7, (3, 2, 4), (1, 0, 1)), (7, (3, (2, 4)), (1, (0, 1))),
           (7, ((3, 2), 4), ((1, 0), 1)),
           (7, 5, 7), (42, (3, 7, 2), (0, 0, 2)), (42, (3, 7, 2, 1), (0, 0, 0, 1)),
           (42, (3, 7, (2, 1)), (0, 0, (0, 1)))]


@pytest.mark.parametrize("idx, shape, want", IDX2CRD)
def test_idx2crd(idx, shape, want):
    assert cp.idx2crd(idx, shape) == want


def test_idx2crd_and_crd2idx_are_inverse():
    shape = ((2, 3), (2, 1, 2))
    for idx in range(7 * cp.product(shape)):
        assert idx == cp.crd2idx(idx, shape)
        assert idx != cp.idx2crd(idx, shape)
        assert idx == cp.crd2idx(cp.idx2crd(idx, shape), shape)


SHAPE = ((2, 3), (5, 7, 9))
S0, S1 = SHAPE
# (coordinate, PyCuTe's slice_, PyCuTe's dice_): the modes each keeps
SLICE_DICE = [
    (0, (), (SHAPE,)), (None, (SHAPE,), ()), ((None, 1), (S0,), (S1,)),
    ((1, (1, 1, None)), (S1[2],), (S0, S1[0], S1[1])), ((1, (1, None, None)), (S1[1], S1[2]), (S0, S1[0])),
    ((1, (None, None, None)), (S1[0], S1[1], S1[2]), (S0,)),
    ((None, (1, None, 1)), (S0, S1[1]), (S1[0], S1[2])),
    (((None, 1), (1, None, None)), (S0[0], S1[1], S1[2]), (S0[1], S1[0])),
]


def _modes(layout):
    """The top-level modes' shapes of a sliced or diced layout (PyCuTe returns them as a tuple)."""
    return layout.shape if type(layout.shape) is tuple else (layout.shape,)


@pytest.mark.parametrize("crd, kept, diced", SLICE_DICE)
def test_slice_and_dice(crd, kept, diced):
    A = Layout(SHAPE)
    sub, _ = cp.slice_and_offset(crd, A)
    assert it.flatten_tuple(_modes(sub)) == it.flatten_tuple(kept)
    assert it.flatten_tuple(_modes(cp.dice(crd, A))) == it.flatten_tuple(diced)


def test_get_with_a_path():
    # PyCuTe's get on an integer tuple; cutepy's get walks a layout, here one whose stride is that tuple
    t = ((0, 0, (0, 0, 0, 42)),)
    assert cp.get(Layout(it.transform_leaf(lambda _: 1, t), t), 0, 2, 3).stride == 42
    assert cp.get(Layout((1, (2, (3, 4)))), 1, 1, 0).shape == 3
    assert cp.get(Layout(7)) == Layout(7)


LAYOUT_2357 = Layout((2, 3, 5, 7), (1, 2, 6, 30))


def test_select_and_take_on_tuples():
    T = Layout((1, 2, 3, 4))
    assert cp.select(T, 0, 2).shape == (1, 3)
    assert cp.select(T, 2).shape in (3, (3,))
    assert cp.select(T, 0, 1, 3).shape == (1, 2, 4)
    assert cp.take(T, 1, 3).shape == (2, 3)
    assert cp.take(T, 0, 4).shape == (1, 2, 3, 4)


def test_select_and_take_on_layouts_are_cxx_select_and_take():
    A = LAYOUT_2357
    assert cp.select(A, 1, 3) == cp.make_layout(Layout(3, 2), Layout(7, 30)) == Layout((3, 7), (2, 30))
    assert cp.select(A, 0, 1, 3) == Layout((2, 3, 7), (1, 2, 30))
    assert cp.select(A, 2) == cp.make_layout(Layout(5, 6))
    assert cp.take(A, 1, 3) == cp.make_layout(Layout(3, 2), Layout(5, 6))
    assert cp.take(A, 1, 4) == cp.make_layout(Layout(3, 2), Layout(5, 6), Layout(7, 30))


def test_take_of_a_reversed_range_is_refused():
    with pytest.raises(cp.CutepyError):
        cp.take(Layout((1, 2, 3, 4)), 3, 1)


def test_transform_leaf():
    assert it.transform_leaf(lambda a: a * 2, ((1, (2, 3)), 4)) == ((2, (4, 6)), 8)
    got = it.transform_leaf(lambda a, b: a + b, ((1, (2, 3)), 4), ((10, (20, 30)), 40))
    assert got == ((11, (22, 33)), 44)


def test_flatten_and_unflatten():
    assert it.flatten_tuple(((1, (2, 3)), 4)) == (1, 2, 3, 4)
    assert it.flatten_tuple(7) == (7,)
    assert it.unflatten_tuple((10, 20, 30, 40), ((1, (2, 3)), 4)) == ((10, (20, 30)), 40)
    for x in [7, (3, 4), ((1, 2), 3), ((1, (2, 3)), 4)]:
        assert it.unflatten_tuple(it.flatten_tuple(x), x) == x


def test_modes_of_a_layout():
    A = Layout(((2, 3), 4), ((4, 8), 1))
    assert A.shape == ((2, 3), 4) and A[0].shape == (2, 3) and cp.get(A, 0, 1).shape == 3 and A[1].shape == 4
    assert cp.size(A) == 24 and cp.size(A[0]) == 6 and cp.size(A[1]) == 4
    assert cp.size(cp.get(A, 0, 0)) == 2 and cp.size(cp.get(A, 0, 1)) == 3
    assert cp.rank(A) == 2 and cp.rank(A[0]) == 2 and cp.rank(A[1]) == 1
    assert cp.depth(A) == 2 and cp.depth(A[0]) == 1 and cp.depth(A[1]) == 0


# -- test_compatibility.py -----------------------------------------------------------------

CONGRUENT = [((4, 8), (5, 7), True), (31, 42, True),
             (((4, 6), (3, (2, 2), 8)), ((1, 1), (1, (1, 1), 1)), True),
             ((4, 8), (4, (2, 4)), False), (31, (4, 8), False), ((1, 1, 1), (1, 1), False)]
WEAKLY_CONGRUENT = [(30, (3, 4), True), (30, ((3, 4), 5), True), (30, (((3, 4), 5), (6, 7)), True),
                    ((3, 4), 30, False), ((1, 2, 3), (1, 2), False), ((3, 4), (5, (6, 7)), True),
                    ((3, (4, 5)), (5, 6), False)]
COMPATIBLE = [(30, (2, 15), True), ((2, 15), (2, (3, 5)), True), (30, (2, (3, 5)), True), (30, (6, 5), True),
              ((6, 5), ((3, 2), 5), True), (30, ((3, 2), 5), True), ((2, (3, 5)), ((3, 2), 5), False),
              (((3, 2), 5), (2, (3, 5)), False), (24, 32, False), (24, (4, 8), False), (24, (4, 6), True),
              (24, ((2, 2), 6), True), (24, ((2, 2), (3, 2)), True),
              (24, ((2, 3), 4), True), (24, (24,), True),
              ((24,), 24, False), ((24,), (4, 6), False)]
REFLEXIVE = [7, (3, 4), ((1, 2), 3), ((1, (2, 3)), 4)]
IMPLIES = [(24, (4, 6)), (24, ((2, 2), (3, 2))), ((4, 6), ((2, 2), 6)), ((6, 5), ((3, 2), 5))]


@pytest.mark.parametrize("a, b, want", CONGRUENT)
def test_congruent(a, b, want):
    assert cp.congruent(a, b) is want


@pytest.mark.parametrize("a, b, want", WEAKLY_CONGRUENT)
def test_weakly_congruent(a, b, want):
    assert cp.weakly_congruent(a, b) is want


@pytest.mark.parametrize("a, b, want", COMPATIBLE)
def test_compatible(a, b, want):
    assert cp.compatible(a, b) is want


@pytest.mark.parametrize("x", REFLEXIVE)
def test_the_relations_are_reflexive(x):
    assert cp.congruent(x, x) and cp.weakly_congruent(x, x) and cp.compatible(x, x)


@pytest.mark.parametrize("a, b", IMPLIES)
def test_compatible_implies_weakly_congruent(a, b):
    assert cp.compatible(a, b) and cp.weakly_congruent(a, b)


def test_weakly_congruent_does_not_imply_compatible():
    assert cp.weakly_congruent(30, (3, 4)) and not cp.compatible(30, (3, 4))


# -- test_typing.py, test_swizzle.py, test_atuple.py ---------------------------------------


@pytest.mark.parametrize("value, want", [(1, True), (1.0, False), ("hi", False), (False, False)])
def test_integer_typing(value, want):
    assert it.is_integer(value) is want


def test_swizzle_with_zero_bits_is_the_identity():
    sw = cp.Swizzle(0, 0, 0)
    assert [sw(i) for i in range(32)] == list(range(32))


def test_swizzle_xor_pattern():
    sw = cp.Swizzle(2, 0, 2)
    assert [sw(i) for i in range(16)] == [0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12]


@pytest.mark.parametrize("bms", [(0, 0, 0), (1, 0, 1), (2, 0, 2), (2, 3, 3), (3, 0, 3)])
def test_swizzle_is_an_involution(bms):
    sw = cp.Swizzle(*bms)
    assert all(sw(sw(i)) == i for i in range(64))


@pytest.mark.parametrize("bms", [(-1, 0, 0), (0, -1, 0), (2, 0, -1)])
def test_swizzle_rejects_bad_parameters(bms):
    with pytest.raises(cp.CutepyError):
        cp.Swizzle(*bms)


def test_arith_tuple_addition_and_scaling():
    assert ArithTuple((1, 2, 3)) + ArithTuple((7, 8, 9)) == ArithTuple((8, 10, 12))
    nested = ArithTuple((1, 2, ArithTuple((3, 4)))) + ArithTuple((7, 8, ArithTuple((9, 10))))
    assert nested == (8, 10, (12, 14))
    assert ArithTuple((1, 2, 3)) * 4 == (4, 8, 12)


BASIS_PATHS = [(), (0,), (1,), (2,), (0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]


def test_basis_elements_are_equal_when_their_paths_are():
    for p in BASIS_PATHS[1:]:
        for q in BASIS_PATHS[1:]:
            if p == q:
                assert E(*p) == E(*q) and 3 * E(*p) == 3 * E(*q) and 0 * E(*p) == 0 * E(*q)
                assert 3 * E(*p) != 4 * E(*q)
            else:
                assert E(*p) != E(*q) and 0 * E(*p) != 3 * E(*q)
                assert 0 * E(*p) != 0 * E(*q)  # C++: 0@p != 0@q (PyCuTe: equal by implicit zeros)


COORD_LAYOUTS = [
    (((5, 4), (E(0), E(1))), lambda i, j: (i, j)), (((5, 4), (E(0), E(2))), lambda i, j: (i, 0, j)),
    (((5, 4), (E(2), E(1))), lambda i, j: (0, j, i)), (((5, 4), (E(2), 0)), lambda i, j: (0, 0, i)),
    (((5, 4), (E(2), E(1, 3))), lambda i, j: (0, (0, 0, 0, j), i)),
    (((4, (4, 2)), (E(1), (E(0), 4 * E(1)))), lambda i, j: (j % 4, i + 4 * (j // 4))),
]


def _coord(v):
    """A layout's value as {path: non-zero value} (PyCuTe compares coordinates with implicit zeros)."""
    out = {}

    def walk(x, path):
        if isinstance(x, ScaledBasis):
            walk(x.value, path + x.mode)
        elif isinstance(x, tuple):
            for i, y in enumerate(x):
                walk(y, path + (i,))
        elif x:
            out[path] = out.get(path, 0) + x
    walk(v, ())
    return {k: x for k, x in out.items() if x}


@pytest.mark.parametrize("layout, want", COORD_LAYOUTS)
def test_coordinate_layouts(layout, want):
    A = Layout(*layout)
    for i in range(A[0].size()):
        for j in range(A[1].size()):
            assert _coord(A(i, j)) == _coord(want(i, j))


# -- test_tensor.py ------------------------------------------------------------------------


def _iota_tensor(layout):
    """A tensor whose value at 1-D index i is i (PyCuTe fills T[i] = i)."""
    engine = np.zeros(layout.cosize(), dtype=np.int64)
    for i in range(layout.size()):
        engine[layout(i)] = i
    return cp.make_tensor(engine, layout)


def test_make_tensor():
    T = _iota_tensor(Layout((4, 4), (4, 1)))
    assert isinstance(T, cp.Tensor) and T.layout == Layout((4, 4), (4, 1))
    assert cp.make_tensor(np.zeros(15), (3, 5)).layout == Layout((3, 5), (1, 3))


def test_tensor_evaluation():
    T = _iota_tensor(Layout((4, 4), (4, 1)))
    assert T(6) == T.engine[T.layout(6)] == 6
    assert T(1, 2) == T.engine[T.layout(1, 2)]


def test_tensor_slicing_returns_a_subtensor():
    T = _iota_tensor(Layout((4, 4), (4, 1)))
    row = T(1, None)
    assert isinstance(row, cp.Tensor) and row.layout == Layout((4,), (1,))
    assert [row(j) for j in range(4)] == [T(1, j) for j in range(4)] == [1, 5, 9, 13]
    col = T(None, 2)
    assert col.layout == Layout((4,), (4,))
    assert [col(i) for i in range(4)] == [T(i, 2) for i in range(4)] == [8, 9, 10, 11]


def test_tensor_algebra_acts_on_the_layout():
    T = _iota_tensor(Layout((4, 4), (1, 4)))
    D = cp.logical_divide(T, Layout(2, 1))
    assert D.rank() == 2 and D.engine is T.engine
    assert D.layout == cp.logical_divide(T.layout, Layout(2, 1))


def test_identity_tensor_returns_coordinates():
    ident = cp.make_identity_tensor((3, 4))
    assert all(ident(i, j) == (i, j) for i in range(3) for j in range(4))
    ident = cp.make_identity_tensor((2, (3, 4)))
    assert all(ident(i, (j, k)) == (i, (j, k)) for i in range(2) for j in range(3) for k in range(4))


def test_identity_tensor_slices_keep_coordinates():
    row = cp.make_identity_tensor((3, 4))(1, None)
    assert all(row(j) == (1, j) for j in range(4))


# -- every case against C++ ----------------------------------------------------------------


def _cases():
    out = []

    def add(name, fn, src):
        out.append((name, fn, src))

    add("A3(100)", lambda: A3(100), f"print({cxb(A3)}(100));")
    add("make_layout()", lambda: cp.make_layout(), "print(make_layout());")
    for crd, _off, _sub in SLICES:
        c = "make_coord(" + ", ".join("_" if x is None else str(x) for x in crd) + ")"
        add(f"slice_and_offset {crd}", lambda crd=crd: cp.slice_and_offset(crd, Layout((4, 4), (4, 1)))[1],
            f"print(get<1>(slice_and_offset({c}, {cxb(Layout((4, 4), (4, 1)))})));")
    for layout, _ in COSHAPE:
        A = L(*layout)
        add(f"coshape {A}", lambda A=A: cp.coshape(A), f"print(coshape({cxb(A)}));")
    for layout, _ in LAYOUT_LIKE + [(x, None) for x in LAYOUT_LIKE_BATTERY + LAYOUT_LIKE_COORD]:
        A = L(*layout)
        add(f"make_layout_like {A}", lambda A=A: cp.make_layout_like(A),
            f"print(make_layout_like({cxb(A)}));")
    for shape, order, _ in ORDERED + [((4, 8), (5, 7), None), ((4, (8, 2)), (0, 1), None)] + [
            (s, o, None) for s, o in ORDER_MISMATCH]:
        add(f"make_ordered_layout {shape} {order}", lambda s=shape, o=order: cp.make_ordered_layout(s, o),
            f"print(make_ordered_layout({cxb(shape)}, {cxb(order)}));")
    for idx, shape, _ in IDX2CRD:
        add(f"idx2crd {idx} {shape}", lambda i=idx, s=shape: cp.idx2crd(i, s),
            f"print(idx2crd({idx}, {cxb(shape)}));")
    for x in [(2, 3), (2, 3, 4), ((2, 3), 4), ((2, (3, 4)), (5, 6), 7)]:
        add(f"product_each {x}", lambda x=x: it.product_each_tuple(x), f"print(product_each({cxb(x)}));")
    relations = (("congruent", CONGRUENT), ("weakly_congruent", WEAKLY_CONGRUENT), ("compatible", COMPATIBLE))
    for fn, table in relations:
        for a, b, _ in table:
            add(f"{fn} {a} {b}", lambda fn=fn, a=a, b=b: getattr(cp, fn)(a, b),
                f'std::printf("%s", {fn}({cxb(a)}, {cxb(b)}) ? "true" : "false");')
    for modes in ((1, 3), (0, 1, 3), (2,)):
        add(f"select {modes}", lambda m=modes: cp.select(LAYOUT_2357, *m),
            f"print(select<{','.join(map(str, modes))}>({cxb(LAYOUT_2357)}));")
    for b, e in ((1, 3), (1, 4), (0, 4)):
        add(f"take {b} {e}", lambda b=b, e=e: cp.take(LAYOUT_2357, b, e),
            f"print(take<{b},{e}>({cxb(LAYOUT_2357)}));")
    sw = "Swizzle<2,0,2>{}"
    add("Swizzle<2,0,2>", lambda: [cp.Swizzle(2, 0, 2)(i) for i in range(16)],
        'std::printf("[");' + ' std::printf(", ");'.join(f" print({sw}({i}));" for i in range(16))
        + ' std::printf("]");')
    for p in BASIS_PATHS[1:4]:
        for q in BASIS_PATHS[1:4]:
            ep, eq = cxb(E(*p)), cxb(E(*q))
            add(f"0@{p} == 0@{q}", lambda p=p, q=q: 0 * E(*p) == 0 * E(*q),
                f'std::printf("%s", (Int<0>{{}}*{ep} == Int<0>{{}}*{eq}) ? "true" : "false");')
    return out


def test_every_layout_case_prints_as_cxx(cxx):
    cases = _cases()
    bad = cxx_cases.print_mismatches(cxx, cases, keyed=True)
    assert not bad, "\n".join(bad)
