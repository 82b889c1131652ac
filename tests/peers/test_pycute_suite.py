"""CUTLASS's pycute unit tests (test/python/pycute/*.py in NVIDIA/cutlass), rewritten against cutepy:
the same inputs and post-conditions, plus each answer printed exactly as C++ CuTe prints it
(compiled here with g++ when the headers are installed). Where pycute and C++ CuTe differ, C++ wins.

| source file               | tests in the peer file | ported | not ported (reason) |
|---------------------------|------------------------|--------|---------------------|
| test_coalesce.py          | 1 (12 cases)           | 1      | -                   |
| test_complement.py        | 1 (11 cases)           | 1      | -                   |
| test_composition.py       | 1 (38 cases)           | 1      | -                   |
| test_int_tuple.py         | 4 (17 cases)           | 4      | -                   |
| test_left_inverse.py      | 1 (10 cases)           | 1      | -                   |
| test_right_inverse.py     | 1 (13 cases)           | 1      | -                   |
| test_logical_product.py   | 4                      | 4      | -                   |
| test_product.py           | 4 (11 cases)           | 4      | -                   |
| test_swizzle.py           | 3 (5 swizzles)         | 3      | -                   |
| test_typing.py            | 1 (4 cases)            | 1      | the ``issubclass`` half (1) |
| total                     | 21                     | 21     |                     |

(1) pycute's ``Integer`` is an ABC; cutepy has no such class, its counterpart is the predicate
``inttuple.is_integer``, which ports the ``isinstance`` half of each case.

pycute's int_tuple functions are cutepy.core.tuples' (exported from ``cutepy``); pycute's ``Swizzle`` is
``cutepy.Swizzle``. pycute's ``Layout(shape)`` is column-major, as ``cutepy.Layout(shape)``.
"""

from __future__ import annotations

import pytest

import cutepy as cp
from cutepy import Layout
from cutepy.core import inttuple as it
from tests.cxx import cxx_cases

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

# test_product.py: (A, B) with the post-conditions of C++'s logical_product unit test
PRODUCT_LAYOUTS = [("1:0", "1:0"), ("1:1", "1:0"), ("1:0", "1:1"), ("1:1", "1:1"), ("3:1", "4:0"),
                   ("3:0", "4:1"), ("3:0", "4:0"), ("3:2", "4:1"), ("3:1", "(2,4):(1,2)")]
PRODUCT_INT_TILERS = [("(2,5):(5,1)", 4), ("3:2", 4)]

# test_int_tuple.py: (function, arguments, pycute's expected value)
INT_TUPLE = [
    ("product", (2,), 2), ("product", ((3, 2),), 6), ("product", (((2, 3), 4),), 24),
    ("inner_product", (2, 3), 6), ("inner_product", ((1, 2), (3, 2)), 7),
    ("inner_product", (((2, 3), 4), ((2, 1), 2)), 15),
    ("shape_div", ((3, 4), 6), (1, 2)), ("shape_div", ((3, 4), 12), (1, 1)),
    ("shape_div", ((3, 4), 36), (1, 1)),
    ("shape_div", (((3, 4), 6), 36), ((1, 1), 2)), ("shape_div", ((6, (3, 4)), 36), (1, (1, 2))),
    ("prefix_product", (2,), 1), ("prefix_product", ((3, 2),), (1, 3)),
    ("prefix_product", ((3, 2, 4),), (1, 3, 6)),
    ("prefix_product", (((2, 3), 4),), ((1, 2), 6)),
    ("prefix_product", (((2, 3), (2, 1, 2), (5, 2, 1)),), ((1, 2), (6, 12, 12), (24, 120, 240))),
]

# test_swizzle.py: pycute's table (cross-checked there against cute::Swizzle; here against g++ too)
PROBE_POINTS = [0, 1, 2, 7, 8, 9, 15, 16, 63, 64, 255, 256]
SWIZZLE_TABLE = [
    ((2, 3, -3), [0, 1, 2, 7, 72, 73, 79, 144, 255, 64, 63, 256]),
    ((1, 0, 1), [0, 1, 3, 6, 8, 9, 14, 16, 62, 64, 254, 256]),
    ((3, 2, 3), [0, 1, 2, 7, 8, 9, 15, 16, 59, 72, 227, 256]),
    ((2, 1, -2), [0, 1, 10, 31, 8, 9, 23, 16, 39, 64, 231, 256]),
]
INVOLUTIONS = [(0, 4, 0), (2, 3, -3), (1, 0, 1), (3, 2, 3), (2, 1, -2)]


# C++ CuTe 4.2 has no prefix_product: its column-major strides are compact_col_major, which agrees
# except that it gives a size-1 mode stride 0; only the cases without a size-1 mode are compared
CXX_NAME = {"prefix_product": "compact_col_major"}


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


@pytest.mark.parametrize("fn, args, want", INT_TUPLE)
def test_int_tuple_functions(fn, args, want):
    got = getattr(cp, fn)(*args)
    if fn == "product" and type(args[0]) is tuple:
        assert cp.product(got) == got  # pycute's product(product(x)): a product is an integer
    assert got == want


@pytest.mark.parametrize("a, b", PRODUCT_LAYOUTS + [(a, str(n)) for a, n in PRODUCT_INT_TILERS])
def test_logical_product_postconditions(a, b):
    A, B = P(a), P(b)
    R = cp.logical_product(A, B)
    assert R.rank() == 2          # post-conditions of test/unit/cute/core/logical_product.cpp
    assert R[0] == A
    assert R[1].size() == B.size()


@pytest.mark.parametrize("a, n", PRODUCT_INT_TILERS)
def test_an_integer_tiler_is_its_layout(a, n):
    A = P(a)
    assert cp.logical_product(A, n) == cp.logical_product(A, Layout(n))
    assert cp.zipped_product(A, n) == cp.zipped_product(A, Layout(n))
    assert cp.tiled_product(A, n) == cp.tiled_product(A, Layout(n))


def test_a_tuple_tiler_is_its_tuple_of_layouts():
    A = P("(2,5):(5,1)")
    assert cp.logical_product(A, (4, 2)) == cp.logical_product(A, (Layout(4), Layout(2)))


def test_a_zero_shift_swizzle_is_the_identity():
    sw = cp.Swizzle(0, 4, 0)
    assert [sw(x) for x in PROBE_POINTS] == PROBE_POINTS


@pytest.mark.parametrize("bms, want", SWIZZLE_TABLE)
def test_swizzle_patterns(bms, want):
    sw = cp.Swizzle(*bms)
    assert [sw(x) for x in PROBE_POINTS] == want


@pytest.mark.parametrize("bms", INVOLUTIONS)
def test_swizzle_is_an_involution(bms):
    sw = cp.Swizzle(*bms)
    domain = 1 << (sw.base + sw.bits + abs(sw.shift))
    assert all(sw(sw(x)) == x for x in range(domain))


@pytest.mark.parametrize("value, want", [(1, True), (1.0, False), ("hi", False), (False, False)])
def test_integer_typing(value, want):
    assert it.is_integer(value) is want


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
    for a, b in PRODUCT_LAYOUTS + [(a, str(n)) for a, n in PRODUCT_INT_TILERS]:
        out.append((f"logical_product {a} {b}", lambda a=a, b=b: cp.logical_product(P(a), P(b)),
                    f"print(logical_product({cx(P(a))}, {cx(P(b))}));"))
    for fn, args, _ in INT_TUPLE:
        if fn == "prefix_product" and 1 in it.flatten_tuple(args[0]):
            continue
        cfn = CXX_NAME.get(fn, fn)
        out.append((f"{fn}{args}", lambda fn=fn, args=args: getattr(cp, fn)(*args),
                    f"print({cfn}({', '.join(cx(a) for a in args)}));"))
    for bms, _ in SWIZZLE_TABLE + [((0, 4, 0), None)]:
        sw = "Swizzle<{},{},{}>{{}}".format(*bms)
        body = ' std::printf(", ");'.join(f" print({sw}({x}));" for x in PROBE_POINTS)
        out.append((f"Swizzle{bms}", lambda bms=bms: [cp.Swizzle(*bms)(x) for x in PROBE_POINTS],
                    f'std::printf("[");{body} std::printf("]");'))
    return out


def test_every_pycute_case_prints_as_cxx(cxx):
    cases = _cases()
    bad = cxx_cases.print_mismatches(cxx, cases)
    assert not bad, "\n".join(bad)
