"""Bad input: a clear cutepy error naming the problem; never a crash, hang or wrong answer."""

from __future__ import annotations

import numpy as np
import pytest

import cutepy as cp
from cutepy import Layout, parse


@pytest.mark.parametrize(
    "shape, stride, words",
    [
        ((2, 0), None, "positive"),
        ((-1,), None, "positive"),
        ((2, 3), (1,), "congruent"),
        ((2, (3, 4)), (1, 2, 3), "congruent"),
        ((2.5,), None, "float"),
        ((True,), None, "boolean"),
        ("abc", None, "str"),
        ((2, cp.E(0)), None, "basis"),
    ],
)
def test_bad_layouts(shape, stride, words):
    with pytest.raises(cp.LayoutError, match=words):
        Layout(shape, stride)


def test_errors_are_value_errors():
    assert issubclass(cp.CutepyError, ValueError)
    for cls in (cp.LayoutError, cp.ParseError, cp.AdmissibilityError, cp.SymbolicError):
        assert issubclass(cls, cp.CutepyError)


def test_deep_nesting_is_refused_not_recursion_error():
    deep = 2
    for _ in range(5000):
        deep = (deep,)
    with pytest.raises(cp.CutepyError, match="deeper"):
        Layout(deep)
    text = "(" * 5000 + "2" + ")" * 5000
    with pytest.raises(cp.ParseError, match="deeper"):
        parse(text)


def test_huge_but_shallow_input_is_fine():
    L = Layout(tuple([2] * 62))
    assert L.size() == 2**62
    assert L(2**62 - 1) == 2**62 - 1
    assert cp.coalesce(L) == Layout(2**62, 1)


@pytest.mark.parametrize(
    "text, col",
    [
        ("(2,3", 5),
        ("(2,3):(1,", 10),
        ("(2,3):(1,2", 11),
        ("(2;3)", 3),
        ("(2,3):(1,2) junk", 13),
        ("<3:4, 8:2", 10),
        ("Sw<3,4> o 0 o 8:1", 7),
        ("", 1),
    ],
)
def test_malformed_notation_points_at_the_column(text, col):
    with pytest.raises(cp.ParseError) as info:
        parse(text)
    assert f"column {col}" in str(info.value)
    assert text in str(info.value)


def test_parse_rejects_invalid_layout_values():
    with pytest.raises(cp.ParseError, match="positive"):
        parse("(2,0):(1,2)")
    with pytest.raises(cp.ParseError, match="congruent"):
        parse("(2,3):(1,(2,3))")
    with pytest.raises(cp.ParseError, match="B must|at least B"):
        parse("Sw<3,4,1> o 0 o 8:1")


@pytest.mark.parametrize(
    "A, B, condition",
    [
        ("(4,6):(1,5)", "8:3", "stride divisibility fails at mode 0"),
        ("(4,6):(1,5)", "6:1", "shape divisibility fails at mode 0"),
        ("(4,6):(1,5)", "2:6", "stride divisibility fails at mode 0"),
        ("(4,2):(1,8)", "(2,2):(2,2)", "overlap in mode 0"),
    ],
)
def test_inadmissible_compositions_name_mode_values_and_condition(A, B, condition):
    with pytest.raises(cp.AdmissibilityError) as info:
        cp.composition(parse(A), parse(B))
    msg = str(info.value)
    assert condition in msg
    assert A in msg and B in msg


def test_cpp_silently_wrong_examples_raise():
    A = parse("(4,6):(1,5)")
    for B in ("8:3", "6:1"):
        with pytest.raises(cp.AdmissibilityError):
            cp.composition(A, parse(B))
    # divides and products built on an inadmissible composition raise too
    with pytest.raises(cp.AdmissibilityError):
        cp.logical_divide(A, parse("8:3"))


def test_complement_errors():
    with pytest.raises(cp.AdmissibilityError, match="starts inside"):
        cp.complement(parse("(2,2):(1,1)"))
    with pytest.raises(cp.AdmissibilityError, match="negative"):
        cp.complement(parse("4:-1"))


def test_offsets_refuse_int64_overflow():
    L = Layout((2, 3), (1, 2**62))
    with pytest.raises(cp.CutepyError, match="int64"):
        L.offsets()
    with pytest.raises(cp.CutepyError, match="int64"):
        Layout(4, 2**62).offsets(np.array([3]))
    with pytest.raises(cp.CutepyError, match="negative"):
        Layout(4).offsets(np.array([-1]))
    with pytest.raises(cp.CutepyError, match="integers"):
        Layout(4).offsets(np.array([0.5]))


def test_bad_modes_and_coordinates():
    L = Layout((2, 3))
    with pytest.raises(cp.CutepyError, match="out of range"):
        L[5]
    with pytest.raises(cp.CutepyError, match="does not match"):
        L((1, 2, 3))
    with pytest.raises(cp.CutepyError):
        L("x")
    with pytest.raises(cp.CutepyError, match="more modes"):
        cp.composition(L, (2, 2, 2))
    with pytest.raises(cp.CutepyError, match="range"):
        cp.take(L, 1, 5)


def test_swizzle_parameters():
    with pytest.raises(cp.CutepyError):
        cp.Swizzle(3, 4, 2)
    with pytest.raises(cp.CutepyError):
        cp.Swizzle(-1, 4, 3)


def test_size_one_leaf_with_negative_stride_is_fine():
    # regression: used to divide by zero while carrying the stride through A's modes
    A = parse("(8,(8,(2))):(2,(-1,(3)))")
    R = cp.composition(A, parse("(1):(-2)"))
    assert R.size() == 1 and R(0) == 0
    # C++ 4.x composes a negative B stride by |stride| and sign (A(-i) == -A(i)): g++ prints _2:_-2
    R = cp.composition(A, parse("2:-1"))
    assert str(R) == "2:-2" and R(1) == A(-1) == -2
    # B mixing signs over several modes of A borrows across them: refused
    with pytest.raises(cp.AdmissibilityError, match="mixes positive and negative"):
        cp.composition(parse("(4,4):(1,10)"), parse("(2,2):(-1,4)"))
