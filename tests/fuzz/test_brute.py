"""The brute-force model itself, against answers that do not come from cutepy.

Expected values are the worked examples of the seed specification (C++ CuTe results:
``composition((6,2):(8,2), (4,3):(3,1)) = ((2,2),3):((24,2),8)``, ...), the figure of
XLA's tiled-layout docs (``f32[3,5]{1,0:T(2,2)}``) and hand arithmetic.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.fuzz import brute


def L(shape, stride):  # a layout as plain data: the model reads nothing else
    return SimpleNamespace(shape=shape, stride=stride)


def test_colexicographic_with_unbounded_last_mode():
    assert brute.colex(5, [2, 3]) == [1, 2]
    assert brute.colex(7, [2, 3]) == [1, 3]  # past the size: the last mode takes the rest


def test_spec_composition_example_holds_in_the_model():
    A, B, R = L((6, 2), (8, 2)), L((4, 3), (3, 1)), L(((2, 2), 3), ((24, 2), 8))
    brute.check_composition(R, A, B)
    with pytest.raises(brute.WrongAnswer):
        brute.check_composition(L(((2, 2), 3), ((24, 2), 9)), A, B)


def test_spec_complement_example_holds_in_the_model():
    brute.check_complement(L((2, 3), (1, 8)), L(4, 2), 24)
    with pytest.raises(brute.WrongAnswer):
        brute.check_complement(L((2, 3), (1, 4)), L(4, 2), 24)  # meets 4:2 at 4


def test_spec_divide_and_product_examples_hold_in_the_model():
    brute.check_logical_divide(L(((2, 2), (2, 3)), ((4, 1), (2, 8))), L((4, 2, 3), (2, 1, 8)), L(4, 2))
    brute.check_logical_product(L(((2, 2), (2, 3)), ((4, 1), (2, 8))), L((2, 2), (4, 1)), L(6, 1))
    brute.check_coalesce(L(12, 1), L((2, (1, 6)), (1, (6, 2))))


def test_swizzle_by_hand():
    # Sw<3,4,3>: bits 7..9 XOR into bits 4..6
    assert brute.swizzle(0b1110000000, 3, 4, 3) == 0b1111110000
    assert brute.swizzle(0b0000010000, 3, 4, 3) == 0b0000010000
    assert brute.swizzle(0b0000010000, 1, 4, -1) == 0b0000110000  # bit 4 into bit 5


def test_xla_docs_figure():
    # f32[3,5]{1,0:T(2,2)}: row 2 col 3 is element 17, the buffer holds 2*3 tiles of 4
    assert brute.xla_linear_index([3, 5], [1, 0], [[2, 2]], (2, 3)) == 17
    assert brute.xla_linear_index([2, 3], [0, 1], [], (0, 1)) == 2
    assert brute.xla_buffer_elements([3, 5], [1, 0], [[2, 2]]) == 24


def test_model_refuses_domains_it_cannot_enumerate():
    with pytest.raises(brute.TooBig):
        brute.table(L(1 << 40, 1))
