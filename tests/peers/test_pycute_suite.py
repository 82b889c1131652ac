"""CUTLASS's pycute unit tests (python/pycute tests in NVIDIA/cutlass: test_coalesce, test_composition,
test_complement, test_left_inverse, test_right_inverse, test_logical_product), rewritten against
cutepy: the same inputs and post-conditions, plus each answer printed exactly as C++ CuTe prints it
(compiled here with g++ when the headers are installed)."""

from __future__ import annotations

import cxx_cases
import pytest

import cutepy as cp
from cutepy import Layout

P = cp.parse

COALESCE = ["1:0", "1:1", "(2,4):(1,2)", "(2,4,6):(1,2,8)", "(2,4,6):(1,6,2)", "(2,1,6):(1,7,2)",
            "(2,1,6):(4,7,8)", "(2,(4,6)):(1,(2,8))", "(2,4):(4,1)", "(2,4,6):(24,6,1)", "(2,1,3):(2,4,4)",
            "((2,2),(2,2)):((1,4),(8,32))"]

COMPOSITION = [
    ("1:0", "1:0"), ("1:0", "1:1"), ("1:1", "1:0"), ("1:1", "1:1"), ("4:1", "4:1"), ("4:2", "4:1"),
    ("4:1", "4:2"), ("4:0", "4:1"), ("4:1", "4:0"), ("1:0", "4:1"), ("4:1", "1:0"), ("4:1", "2:1"),
    ("4:2", "2:1"), ("4:1", "2:2"), ("4:2", "2:2"), ("12:1", "(4,3):(1,4)"), ("12:2", "(4,3):(1,4)"),
    ("12:1", "(4,3):(3,1)"), ("12:2", "(4,3):(3,1)"), ("12:1", "(2,3):(2,4)"), ("(4,3):(1,4)", "(4,3):(1,4)"),
    ("(4,3):(1,4)", "12:1"), ("(4,3):(1,4)", "6:2"), ("(4,3):(1,4)", "(6,2):(2,1)"),
    ("(4,3):(3,1)", "(4,3):(1,4)"), ("(4,3):(3,1)", "12:1"), ("(4,3):(3,1)", "6:2"),
    ("(4,3):(3,1)", "(6,2):(2,1)"), ("(8,8):(1,8)", "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))"),
    ("(8,8):(8,1)", "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))"),
    ("((2,2,2),(2,2,2)):((1,16,4),(8,2,32))", "8:4"), ("(4,2):(1,16)", "(4,2):(2,1)"),
    ("(2,2):(2,1)", "(2,2):(2,1)"), ("(4,8,2):(1,4,32)", "(2,2,2):(2,8,1)"),
    ("(4,8,2):(2,8,1)", "(2,2,2):(1,8,2)"), ("(4,8,2):(2,8,1)", "(4,2,2):(2,8,1)"),
    ("(4,6,8):(1,4,7)", "6:1"), ("(4,6,8,10):(2,3,5,7)", "6:12"),
]

COMPLEMENT = ["1:0", "1:1", "4:0", "(2,4):(1,2)", "(2,3):(1,2)", "(2,4):(1,4)", "(2,4,8):(8,1,64)",
              "((2,2),(2,2)):((1,4),(8,32))", "(2,(3,4)):(3,(1,6))", "(4,6):(1,6)", "(4,10):(1,10)"]

LEFT_INVERSE = ["1:0", "(1,1):(0,0)", "1:1", "4:1", "4:2", "(8,4):(1,8)", "(8,4):(4,1)", "(2,4,6):(1,2,8)",
                "(2,4,6):(4,1,8)", "(4,2):(1,16)"]

RIGHT_INVERSE = ["1:0", "(1,1):(0,0)", "(3,7):(0,0)", "1:1", "4:0", "4:1", "4:2", "(2,4):(0,2)",
                 "(8,4):(1,8)", "(8,4):(4,1)", "(2,4,6):(1,2,8)", "(2,4,6):(4,1,8)", "(4,2):(1,16)"]

PRODUCTS = [("(2,5):(5,1)", 4), ("4:1", 3), ("(4,8):(1,4)", 16), ("((2,2),(2,2)):((1,4),(8,32))", 4)]


def offsets(L, n=None):
    return [L(i) for i in range(L.size() if n is None else n)]


@pytest.mark.parametrize("text", COALESCE)
def test_coalesce_keeps_the_function(text):
    L = P(text)
    R = cp.coalesce(L)
    assert R.size() == L.size()
    assert offsets(R) == offsets(L)


@pytest.mark.parametrize("a, b", COMPOSITION)
def test_composition_is_a_of_b(a, b):
    A, B = P(a), P(b)
    R = cp.composition(A, B)
    assert offsets(R) == [A(B(i)) for i in range(R.size())]


@pytest.mark.parametrize("text", COMPLEMENT)
def test_complement_codomains_are_disjoint(text):
    L = P(text)
    R = cp.complement(L)
    for a in offsets(L):
        for b in offsets(R):
            assert a != b or a == b == 0


@pytest.mark.parametrize("text", LEFT_INVERSE)
def test_left_inverse(text):
    L = P(text)
    inv = cp.left_inverse(L)
    assert [inv(L(i)) for i in range(L.size())] == list(range(L.size()))


@pytest.mark.parametrize("text", RIGHT_INVERSE)
def test_right_inverse(text):
    L = P(text)
    inv = cp.right_inverse(L)
    assert [L(inv(i)) for i in range(inv.size())] == list(range(inv.size()))


@pytest.mark.parametrize("a, n", PRODUCTS)
def test_logical_product_with_an_integer_tiler(a, n):
    A = P(a)
    R = cp.logical_product(A, n)
    assert R == cp.logical_product(A, Layout(n))
    assert R.size() == A.size() * n
    assert cp.zipped_product(A, n).size() == cp.tiled_product(A, n).size() == A.size() * n


def test_logical_product_values_and_tuples():
    A = P("(2,5):(5,1)")
    assert cp.logical_product(A, 4) == P("((2,5),4):((5,1),10)")
    assert cp.logical_product(A, None) is A
    assert cp.logical_product(A, (4, 2)) == cp.make_layout(cp.logical_product(A[0], Layout(4)),
                                                         cp.logical_product(A[1], Layout(2)))


def _cases():
    cx = cxx_cases.cx
    out = []
    for t in COALESCE:
        out.append((f"coalesce {t}", lambda t=t: cp.coalesce(P(t)), f"print(coalesce({cx(P(t))}));"))
    for a, b in COMPOSITION:
        out.append((f"{a} o {b}", lambda a=a, b=b: cp.composition(P(a), P(b)),
                    f"print(composition({cx(P(a))}, {cx(P(b))}));"))
    for t in COMPLEMENT:
        out.append((f"complement {t}", lambda t=t: cp.complement(P(t)), f"print(complement({cx(P(t))}));"))
    for t in LEFT_INVERSE:
        out.append((f"left_inverse {t}", lambda t=t: cp.left_inverse(P(t)),
                    f"print(left_inverse({cx(P(t))}));"))
    for t in RIGHT_INVERSE:
        out.append((f"right_inverse {t}", lambda t=t: cp.right_inverse(P(t)),
                    f"print(right_inverse({cx(P(t))}));"))
    for a, n in PRODUCTS:
        for op in ("logical_product", "zipped_product", "tiled_product"):
            out.append((f"{op} {a} {n}", lambda a=a, n=n, op=op: getattr(cp, op)(P(a), n),
                        f"print({op}({cx(P(a))}, {cx(n)}));"))
    return out


def test_every_pycute_case_prints_as_cxx(cxx):
    cases = _cases()
    results = cxx.run_cases([c[2] for c in cases])
    bad = []
    for (name, fn, _), r in zip(cases, results):
        got = cxx_cases.show(fn())
        if not r.ok or got != cxx.normalise(r.output):
            bad.append(f"{name}: cutepy {got}, C++ {r.output or r.error[:200]}")
    assert not bad, "\n".join(bad)
