"""SPEC section 1's worked examples and the API surface, as example tests."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cutepy as cp
from cutepy import E, Layout, parse


@pytest.mark.parametrize(
    "expr, expected",
    [
        (lambda: cp.coalesce(parse("(2,(1,6)):(1,(6,2))")), "12:1"),
        (lambda: cp.coalesce(parse("(2,(1,6)):(1,(6,2))"), (1, 1)), "(2,6):(1,2)"),
        (lambda: cp.composition(parse("(6,2):(8,2)"), parse("(4,3):(3,1)")), "((2,2),3):((24,2),8)"),
        (lambda: cp.composition(parse("(12,(4,8)):(59,(13,1))"), parse("<3:4, 8:2>")),
         "(3,(2,4)):(236,(26,1))"),
        (lambda: cp.composition(parse("(12,(4,8)):(59,(13,1))"), (3, 8)), "(3,(4,2)):(59,(13,1))"),
        (lambda: cp.complement(parse("4:2"), 24), "(2,3):(1,8)"),
        (lambda: cp.logical_divide(parse("(4,2,3):(2,1,8)"), parse("4:2")),
         "((2,2),(2,3)):((4,1),(2,8))"),
        (lambda: cp.logical_product(parse("(2,2):(4,1)"), parse("6:1")),
         "((2,2),(2,3)):((4,1),(2,8))"),
    ],
)
def test_spec_worked_examples(expr, expected):
    assert str(expr()) == expected


def test_notation():
    L = Layout(((2, 2), 3), ((24, 2), 8))
    assert str(L) == repr(L) == "((2,2),3):((24,2),8)"
    assert str(Layout((3,), (2,))) == "(3):(2)"
    assert str(Layout(8, 1)) == "8:1"
    assert parse("(_2, _4):(_1, _2)") == Layout((2, 4), (1, 2))
    assert parse("<3:4, 8:2>") == (Layout(3, 4), Layout(8, 2))
    assert parse("(3,4)") == Layout((3, 4), (1, 3))


def test_layout_is_immutable_and_hashable():
    L = Layout((2, 3))
    assert hash(L) == hash(Layout((2, 3), (1, 2)))
    assert {L: 1}[Layout((2, 3), (1, 2))] == 1
    with pytest.raises(AttributeError):
        L.shape = (3, 2)


def test_inttuple_functions():
    assert cp.idx2crd((1, 5), (3, (2, 3))) == (1, (1, 2))
    assert cp.idx2crd(16, (3, (2, 3))) == (1, (1, 2))
    assert cp.crd2idx((1, (1, 2)), (3, (2, 3))) == 16
    assert cp.crd2idx((1, 5), (3, (2, 3))) == 16
    assert cp.shape_div((4, 6), 8) == (1, 3)
    assert cp.ceil_div((3, 5), 2) == (2, 5)
    assert cp.prefix_product((2, (3, 4))) == (1, (2, 6))
    assert cp.inner_product((1, (2, 3)), (4, (5, 6))) == 32
    assert cp.congruent((1, (2, 3)), (4, (5, 6)))
    assert cp.weakly_congruent((1, 2), (1, (2, 3)))
    assert not cp.weakly_congruent((1, (2, 3)), (1, 2))
    assert cp.compatible(6, (2, 3)) and not cp.compatible((2, 3), 6)
    assert cp.product(((2, 3), 4)) == cp.size(((2, 3), 4)) == 24
    assert cp.rank(((2, 3), 4)) == 2 and cp.depth(((2, 3), 4)) == 2


def test_evaluation_forms():
    L = parse("((2,2),3):((24,2),8)")
    assert L(5) == 32
    assert L(1, 2) == L(((1, 0), 2)) == 40
    assert [L(i) for i in range(12)] == L.offsets().tolist()
    assert L.offsets(np.array([[0, 1], [2, 3]])).tolist() == [[0, 24], [2, 26]]


def test_slicing_and_dice():
    L = Layout((4, 3), (3, 1))
    assert L(2, None) == Layout((3,), (1,))
    assert L(None, 1) == Layout((4,), (3,))
    sub, off = cp.slice_and_offset((2, None), L)
    assert (sub, off) == (Layout((3,), (1,)), 6)
    assert cp.dice((2, None), L) == Layout((4,), (3,))
    N = Layout(((2, 3), 4), ((1, 2), 6))
    assert N(((None, 1), None)) == Layout((2, 4), (1, 6))


def test_mode_access_and_manipulation():
    L = Layout((2, 3, 4))
    assert L[1] == Layout(3, 2)
    assert cp.get(Layout(((2, 3), 4)), 0, 1) == Layout(3, 2)
    assert cp.select(L, 2, 0) == Layout((4, 2), (6, 1))
    assert cp.take(L, 1, 3) == Layout((3, 4), (2, 6))
    assert cp.group(L, 0, 2) == Layout(((2, 3), 4), ((1, 2), 6))
    assert cp.append(L, Layout(5, 0)) == Layout((2, 3, 4, 5), (1, 2, 6, 0))
    assert cp.prepend(Layout(4), n=3) == Layout((1, 1, 4), (0, 0, 1))
    assert cp.replace(L, 1, Layout(7, 9)) == Layout((2, 7, 4), (1, 9, 6))
    assert cp.flatten(Layout(((2, 3), 4))) == Layout((2, 3, 4), (1, 2, 6))
    assert (L.size(), L.cosize(), L.rank(), L.depth()) == (24, 24, 3, 1)


def test_constructors():
    assert cp.LayoutLeft((2, 3)) == Layout((2, 3), (1, 2))
    assert cp.LayoutRight((2, (3, 4))) == Layout((2, (3, 4)), (12, (4, 1)))
    assert cp.make_layout((2, 3), cp.LayoutRight) == Layout((2, 3), (3, 1))
    assert cp.make_layout(Layout(2, 3), Layout(4, 1)) == Layout((2, 4), (3, 1))
    assert cp.make_ordered_layout((2, 3, 4), (1, 2, 0)) == Layout((2, 3, 4), (4, 8, 1))
    assert cp.make_layout_like(Layout((2, 3), (10, 1))) == Layout((2, 3), (3, 1))
    I = cp.make_identity_layout((4, 8))
    assert str(I) == "(4,8):(1@0,1@1)"
    assert I(5) == (1, 1) and I(3, 7) == (3, 7)
    assert str(parse("(4,8):(1@0,1@1)")) == "(4,8):(1@0,1@1)"
    # identity layouts compose: the coordinates of a tile
    T = cp.composition(I, (2, 4))
    assert [tuple(T(i)) for i in range(3)] == [(0, 0), (1, 0), (0, 1)]
    assert cp.tile_to_shape(Layout((2, 2)), (4, 6)) == Layout(((2, 2), (2, 3)), ((1, 4), (2, 8)))
    assert E(1) * 3 == cp.ScaledBasis(3, (1,))


def test_inverses_and_common():
    assert cp.right_inverse(parse("(4,2):(2,1)")) == parse("(2,4):(4,1)")
    assert cp.left_inverse(parse("4:2")) == parse("(2,4):(0,1)")
    assert cp.nullspace(parse("(2,3,4):(1,0,2)")) == parse("3:2")
    assert cp.max_common_vector(parse("(4,8):(1,4)"), parse("(4,8):(1,8)")) == 4
    assert cp.max_common_layout(parse("(4,8):(1,4)"), parse("(4,8):(1,8)")) == parse("4:1")
    assert cp.upcast(parse("(4,8):(1,4)"), 2) == parse("(2,8):(1,2)")
    assert cp.downcast(parse("(4,8):(1,4)"), 2) == parse("(8,8):(1,8)")


def test_divide_and_product_mode_orders():
    A = Layout((8, 6, 5))
    assert cp.logical_divide(A, (4, 3)) == parse("((4,2),(3,2),5):((1,4),(8,24),48)")
    assert cp.zipped_divide(A, (4, 3)) == parse("((4,3),(2,2,5)):((1,8),(4,24,48))")
    assert cp.tiled_divide(A, (4, 3)) == parse("((4,3),2,2,5):((1,8),4,24,48)")
    assert cp.flat_divide(A, (4, 3)) == parse("(4,3,2,2,5):(1,8,4,24,48)")
    B = Layout((2, 3))
    # a tuple tiler multiplies mode by mode, each mode on its own
    assert cp.logical_product(B, (2, 2)) == parse("((2,2),(3,2)):((1,2),(2,1))")
    assert cp.zipped_product(B, (2, 2)) == parse("((2,3),(2,2)):((1,2),(2,1))")
    assert cp.tiled_product(B, (2, 2)) == parse("((2,3),2,2):((1,2),2,1)")
    assert cp.flat_product(B, (2, 2)) == parse("(2,3,2,2):(1,2,2,1)")
    assert cp.blocked_product(Layout((2, 2)), Layout((2, 3))) == parse("((2,2),(2,3)):((1,4),(2,8))")
    assert cp.raked_product(Layout((2, 2)), Layout((2, 3))) == parse("((2,2),(3,2)):((4,1),(8,2))")


def test_swizzle_and_composed_layout():
    sw = cp.Swizzle(3, 4, 3)
    C = cp.composition(sw, parse("(8,8):(8,1)"))
    assert str(C) == "Sw<3,4,3> o 0 o (8,8):(8,1)"
    assert parse(str(C)) == C
    assert C(1, 2) == sw(10)
    assert C.offsets().tolist() == [sw(x) for x in parse("(8,8):(8,1)").offsets().tolist()]
    # composition on the right keeps the swizzle outside
    D = cp.composition(C, Layout(4, 2))
    assert str(D) == "Sw<3,4,3> o 0 o 4:16"
    # a layout on the left of a composed layout
    F = cp.composition(Layout(1024, 2), C)
    assert F(3) == 2 * C(3)
    assert sw(sw(12345)) == 12345
    neg = cp.Swizzle(2, 3, -3)
    assert neg(neg(77)) == 77


def test_import_does_not_load_sympy():
    code = "import cutepy, sys; assert 'sympy' not in sys.modules, 'sympy imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
