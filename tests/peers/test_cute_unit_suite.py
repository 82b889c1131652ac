"""CUTLASS's C++ CuTe unit tests (test/unit/cute/core/complement.cpp, logical_divide.cpp,
logical_product.cpp in NVIDIA/cutlass), rewritten against cutepy: the same static inputs and
the same post-conditions, plus each answer printed exactly as C++ CuTe prints it."""

from __future__ import annotations

import math

import pytest

import cutepy as cp
from cutepy.core import inttuple as it
from tests.cxx import cxx_cases

P = cp.parse

# (layout, cotargets); None means the layout's cosize, as the C++ test's one-argument form
COMPLEMENT = [
    ("1:0", [None, 2, 5, (2, 2)]), ("1:1", [None, 2, 5, (2, 2)]), ("1:2", [1, 2, 8, 5, (2, 2)]),
    ("4:0", [1, 2, 8]), ("4:1", [1, 2, 8]), ("4:2", [1, None, 16, 19, (2, 2)]),
    ("4:4", [1, None, 17, (2, 2)]),
    ("(2,4):(1,2)", [None]), ("(2,3):(1,2)", [None]), ("(2,4):(1,4)", [None]), ("(2,4):(1,6)", [None]),
    ("(2,4,8):(8,1,64)", [None]), ("(2,4,8):(8,1,0)", [None, 460]), ("((2,2),(2,2)):((1,4),(8,32))", [None]),
    ("((2,2),(2,2)):((1,32),(8,4))", [None]), ("(4,6):(1,6)", [None]), ("(4,2):(1,10)", [None]),
    ("(4,2):(1,16)", [None]), ("12:1", [1, None, 53, 128]), ("12:2", [1, None, 53, 128]),
    ("(3,6):(1,3)", [None]), ("(3,6):(1,9)", [None]), ("(3,6):(1,10)", [None]), ("64:1", [(32, 4, 4)]),
]

DIVIDE = [("1:0", "1:0"), ("1:0", "1:1"), ("1:1", "1:0"), ("1:1", "1:1"), ("6:1", "2:1"), ("6:1", "2:3"),
          ("6:1", "(2,3):(3,1)"), ("6:2", "2:1"), ("6:2", "2:3"), ("6:2", "(2,3):(3,1)"),
          ("(6,6):(1,12)", "(6,3):(3,1)"), ("(6,6):(12,1)", "(6,3):(3,1)"), ("32:1", "2:8"),
          ("(4,1):(1,1)", "2:1"), ("(4,1):(1,1)", "2:2"), ("(8,8):(1,8)", "32:2"), ("(8,8):(8,1)", "32:2"),
          ("2:1", "32:1"), ("48:1", "32:1"), ("96:1", "32:2"), ("32:1", "48:1")]

PRODUCT = [("1:0", "1:0"), ("1:1", "1:0"), ("1:0", "1:1"), ("1:1", "1:1"), ("3:1", "4:0"), ("3:0", "4:1"),
           ("3:0", "4:0"), ("3:2", "4:1"), ("(3):(1)", "(2,4):(1,2)"), ("(2,4):(1,2)", "(3):(1)"),
           ("(8,(2,2)):(1,(8,16))", "(4):(2)"), ("(2,2):(1,2)", "(3,3):(3,1)"), ("(3):(32)", "(32):(1)"),
           ("(3):(2)", "(4):(1)"), ("(3):(32)", "(128):(1)"), ("(3):(32)", "(8,8):(1,8)"),
           ("(3):(32)", "(8,8):(8,1)"), ("((4,2)):((1,16))", "(4,4):(1,4)"),
           ("((4,2)):((1,16))", "(4,2):(2,1)"),
           ("((2,2),(2,2)):((1,4),(8,32))", "(2,2):(1,2)"), ("((2,2),(2,2)):((1,4),(8,32))", "(2,2):(2,1)"),
           ("((4,6)):((1,6))", "(3):(1)")]


def offsets(L):
    return [L(i) for i in range(L.size())]


@pytest.mark.parametrize("text, cotarget", [(t, c) for t, cs in COMPLEMENT for c in cs])
def test_complement_postconditions(text, cotarget):
    L = P(text)
    cot = L.cosize() if cotarget is None else cotarget
    n = it.product(cot)
    R = cp.complement(L, cot)
    completed = cp.make_layout(L, R)
    assert completed.cosize() >= n                                            # (1)
    assert R.cosize() <= -(-n // L.cosize()) * L.cosize()                     # (2)
    r, img = offsets(R), set(offsets(L))
    assert all(r[i - 1] < r[i] for i in range(1, len(r)))                     # ordered (3)
    assert all(x not in img for x in r[1:])                                   # disjoint (4)
    assert R.size() <= R.cosize()
    assert R.size() >= n // cp.filter(L).size()
    assert completed.cosize() <= R.cosize() + L.cosize()
    assert R.cosize() >= n // cp.filter(L).size()
    assert cp.complement(completed).size() == 1


@pytest.mark.parametrize("a, b", DIVIDE)
def test_logical_divide_postconditions(a, b):
    A, B = P(a), P(b)
    R = cp.logical_divide(A, B)
    assert R.rank() == 2
    assert it.compatible(B.shape, R[0].shape)


@pytest.mark.parametrize("a, b", PRODUCT)
def test_logical_product_postconditions(a, b):
    A, B = P(a), P(b)
    R = cp.logical_product(A, B)
    assert R.rank() == 2
    assert R[0] == A
    assert it.compatible(B.shape, R[1].shape)


def _cases():
    cx = cxx_cases.cx
    out = []
    for t, cs in COMPLEMENT:
        for c in cs:
            cot = P(t).cosize() if c is None else c
            out.append((f"complement({t}, {cot})", lambda t=t, cot=cot: cp.complement(P(t), cot),
                        f"print(complement({cx(P(t))}, {cx(cot)}));"))
    for a, b in DIVIDE:
        out.append((f"logical_divide({a}, {b})", lambda a=a, b=b: cp.logical_divide(P(a), P(b)),
                    f"print(logical_divide({cx(P(a))}, {cx(P(b))}));"))
    for a, b in PRODUCT:
        out.append((f"logical_product({a}, {b})", lambda a=a, b=b: cp.logical_product(P(a), P(b)),
                    f"print(logical_product({cx(P(a))}, {cx(P(b))}));"))
    return out


def test_every_cute_unit_case_prints_as_cxx(cxx):
    cases = _cases()
    bad = cxx_cases.print_mismatches(cxx, cases)
    assert not bad, "\n".join(bad)


def test_round_up_bound_uses_cxx_round_up():
    # the bound (2) above is CuTe's round_up(size(cotarget), cosize(layout))
    assert -(-19 // 7) * 7 == math.ceil(19 / 7) * 7 == 21
