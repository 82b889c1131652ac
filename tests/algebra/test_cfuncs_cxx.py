"""The C++ CuTe functions cutepy gained for issue 10 (item 7; item 5 for swizzled layouts),
checked against C++ CuTe's print (CUTLASS 4.2 headers, g++; tests/cxx/cxx_harness.py).

- ``CASES``: chosen inputs, each printed by cutepy and by C++ and compared exactly; C++
  rejects some at compile time (a static_assert) and cutepy must raise ``CutepyError`` there;
  where C++ answers against the operation's own definition cutepy must raise
  ``AdmissibilityError`` and the test checks that C++'s answer is indeed wrong.
- A seeded sample of the new families of tests/cxx/cxx_cases.py (``CFUNC_OPERATIONS``), as the
  differential in tests/cxx/ does for the older ones (``CUTEPY_CFUNC_CASES``, default 80).
- A port of CUTLASS's C++ unit test ``test/unit/cute/core/domain_distribute.cpp``:

  ==========================================  ===================  ========  ============
  source file                                 tests in the peer    ported    not ported
  ==========================================  ===================  ========  ============
  test/unit/cute/core/domain_distribute.cpp   1 (TEST Distribute,  1 (all 5  none
                                              5 cases)             cases)
  ==========================================  ===================  ========  ============

  The same shapes and the same post-conditions (``evenly_divides(b, size(R))``,
  ``evenly_divides(a, R)``, ``R`` strictly increasing), plus C++'s print of each ``R``.
"""

from __future__ import annotations

import os
import random

import pytest

import cutepy as cp
from cutepy import ComposedLayout, Layout, Swizzle
from cutepy.core.errors import AdmissibilityError, CutepyError
from tests.cxx import cxx_cases
from tests.cxx.cxx_cases import cx

P = cp.parse
SAMPLE = int(os.environ.get("CUTEPY_CFUNC_CASES", "80"))
SEED = int(os.environ.get("CUTEPY_CFUNC_SEED", "20261125"))


def _sw(b, m, s, off, text):
    return ComposedLayout(Swizzle(b, m, s), off, P(text))


def _evals(R, js):
    return f"{R} | " + " ".join(str(R(j)) for j in js)


def _cx_evals(expr, js):
    body = " ".join(f'print(R({j})); printf(" ");' for j in js)
    return f'auto R = {expr}; print(R); printf(" | "); {body}'


def _cx_coord(c):
    return "make_coord(" + ", ".join(_cx_coord(x) for x in c) + ")" if type(c) is tuple else cx(c)


# (name, cutepy thunk, C++ statement, expectation): "same" prints equal; "reject" C++ does not
# compile and cutepy raises CutepyError; "cxx-wrong" C++ answers against the definition checked
# by the thunk's ``valid`` (cutepy raises AdmissibilityError)
L48 = P("(4,8):(1,4)")
SW1 = _sw(1, 0, 1, 4, "(4,2):(2,1)")
SW3 = _sw(3, 4, 3, 32, "(8,64):(64,1)")
PROD_T = _sw(1, 0, 1, 0, "(2,2):(2,1)")
WRONG_T = _sw(3, 3, 3, 0, "(8,64):(64,1)")
GENERAL = ComposedLayout(P("8:2"), 0, P("(8,64):(64,1)"))


def _product_definition(A, T):
    C = cp.complement(A, A.size() * T.cosize())
    return [A(i) + C(T(j)) for j in range(T.size()) for i in range(A.size())]


CASES = [
    # max_alignment: Layout (negative strides: C++'s truncating gcd), Swizzle, swizzled layouts
    *[(f"max_alignment {t}", (lambda t=t: cp.max_alignment(P(t))), f"print(max_alignment({cx(P(t))}));",
       "same")
      for t in ("(4,8):(1,4)", "(4,8):(8,1)", "(4,8):(1,8)", "(4,8):(2,16)", "(4,8):(-1,4)", "(4,8):(1,-4)",
                "(4,8):(0,1)", "(4,6,2):(1,8,4)", "(4,3):(3,1)", "1:0", "4:0", "(2,(3,4)):(1,(2,12))")],
    # C++'s truncating gcd answers -2 here: an alignment is positive, so cutepy refuses
    ("max_alignment (4,8):(1,-6)", lambda: cp.max_alignment(P("(4,8):(1,-6)")),
     f"print(max_alignment({cx(P('(4,8):(1,-6)'))}));", "cxx-wrong"),
    ("max_alignment Sw<3,4,3>", lambda: cp.max_alignment(Swizzle(3, 4, 3)),
     "print(max_alignment(Swizzle<3,4,3>{}));", "same"),
    *[(f"max_alignment swizzled offset {o}", (lambda o=o: cp.max_alignment(_sw(3, 4, 3, o, "(8,64):(64,1)"))),
       f"print(max_alignment({cx(_sw(3, 4, 3, o, '(8,64):(64,1)'))}));", "same") for o in (0, 8, 12, 64)],
    ("max_alignment general composed", lambda: cp.max_alignment(GENERAL),
     f"print(max_alignment({cx(GENERAL)}));", "same"),
    # coprofile
    ("coprofile int strides", lambda: cp.coprofile(L48), f"print(coprofile({cx(L48)}));", "same"),
    ("coprofile identity", lambda: cp.coprofile(cp.make_identity_layout((4, (8, 2)))),
     "print(coprofile(make_identity_layout(make_shape(Int<4>{}, make_shape(Int<8>{}, Int<2>{})))));", "same"),
    ("coprofile nested basis", lambda: cp.coprofile(Layout((4, 8), (cp.E(1), cp.E(0, 1)))),
     "print(coprofile(make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(E<1>{}, E<0,1>{}))));", "same"),
    # domain_offset
    ("domain_offset layout", lambda: cp.domain_offset((1, 2), L48),
     f"print(domain_offset({_cx_coord((1, 2))}, {cx(L48)}));", "same"),
    ("domain_offset layout index", lambda: cp.domain_offset(5, P("(4,8):(8,-1)")),
     f"print(domain_offset(Int<5>{{}}, {cx(P('(4,8):(8,-1)'))}));", "same"),
    ("domain_offset swizzled", lambda: cp.domain_offset((1, 2), _sw(1, 0, 1, 3, "(4,8):(1,4)")),
     f"print(domain_offset({_cx_coord((1, 2))}, {cx(_sw(1, 0, 1, 3, '(4,8):(1,4)'))}));", "same"),
    # domain_distribute: layout.hpp's own example and more
    ("domain_distribute doc example", lambda: cp.domain_distribute((15, 14), 6),
     "print(domain_distribute(make_shape(Int<15>{}, Int<14>{}), Int<6>{}));", "same"),
    ("domain_distribute nested", lambda: cp.domain_distribute((4, (6, 2)), 16),
     "print(domain_distribute(make_shape(Int<4>{}, make_shape(Int<6>{}, Int<2>{})), Int<16>{}));", "same"),
    ("domain_distribute none", lambda: cp.domain_distribute((3, 5), 4),
     "print(domain_distribute(make_shape(Int<3>{}, Int<5>{}), Int<4>{}));", "same"),
    # crd2crd
    ("crd2crd by mode", lambda: cp.crd2crd((1, 2), (4, 8), (4, (2, 4))),
     "print(crd2crd(make_coord(Int<1>{}, Int<2>{}), make_shape(Int<4>{}, Int<8>{}), "
     "make_shape(Int<4>{}, make_shape(Int<2>{}, Int<4>{}))));", "same"),
    ("crd2crd index", lambda: cp.crd2crd(9, (4, 8), (8, 4)),
     "print(crd2crd(Int<9>{}, make_shape(Int<4>{}, Int<8>{}), make_shape(Int<8>{}, Int<4>{})));", "same"),
    ("crd2crd to 1-D", lambda: cp.crd2crd((1, 2), (4, 8), 32),
     "print(crd2crd(make_coord(Int<1>{}, Int<2>{}), make_shape(Int<4>{}, Int<8>{}), Int<32>{}));", "same"),
    ("crd2crd rank mismatch", lambda: cp.crd2crd((1, 2), (4, 8), (2, 2, 8)),
     "print(crd2crd(make_coord(Int<1>{}, Int<2>{}), make_shape(Int<4>{}, Int<8>{}), "
     "make_shape(Int<2>{}, Int<2>{}, Int<8>{})));", "reject"),
    # ceil_div(target, Layout), evenly_divides
    ("ceil_div by 4:1", lambda: cp.ceil_div((16, 12), P("4:1")),
     f"print(ceil_div(make_shape(Int<16>{{}}, Int<12>{{}}), {cx(P('4:1'))}));", "same"),
    ("ceil_div by (4,2):(1,32)", lambda: cp.ceil_div((16, 12), P("(4,2):(1,32)")),
     f"print(ceil_div(make_shape(Int<16>{{}}, Int<12>{{}}), {cx(P('(4,2):(1,32)'))}));", "same"),
    ("ceil_div 100 by 8:2", lambda: cp.ceil_div(100, P("8:2")),
     f"print(ceil_div(Int<100>{{}}, {cx(P('8:2'))}));", "same"),
    ("evenly_divides layout", lambda: cp.evenly_divides((16, 12), P("(4,2):(1,16)")),
     f'printf(evenly_divides({cx((16, 12))}, {cx(P("(4,2):(1,16)"))}) ? "true" : "false");',
     "same"),
    # composition of swizzles, make_layout(Swizzle)
    ("Sw o Sw identity", lambda: cp.composition(Swizzle(3, 4, 3), Swizzle(3, 4, 3)),
     "print(composition(Swizzle<3,4,3>{}, Swizzle<3,4,3>{}));", "same"),
    ("Sw o Sw merge", lambda: cp.composition(Swizzle(2, 4, 3), Swizzle(1, 6, 3)),
     "print(composition(Swizzle<2,4,3>{}, Swizzle<1,6,3>{}));", "same"),
    ("Sw o Sw negative shift", lambda: cp.composition(Swizzle(1, 3, -2), Swizzle(1, 4, -2)),
     "print(composition(Swizzle<1,3,-2>{}, Swizzle<1,4,-2>{}));", "same"),
    ("Sw o Sw shifts differ", lambda: cp.composition(Swizzle(3, 4, 3), Swizzle(2, 4, 2)),
     "print(composition(Swizzle<3,4,3>{}, Swizzle<2,4,2>{}));", "reject"),
    ("Sw o Sw no swizzle", lambda: cp.composition(Swizzle(1, 1, 1), Swizzle(1, 0, 1)),
     "print(composition(Swizzle<1,1,1>{}, Swizzle<1,0,1>{}));", "reject"),
    *[(f"make_layout Sw<{b},{m},{s}>", (lambda b=b, m=m, s=s: cp.make_layout(Swizzle(b, m, s))),
       f"print(make_layout(Swizzle<{b},{m},{s}>{{}}));", "same")
      for b, m, s in ((3, 4, 3), (2, 0, -2), (0, 4, 3), (1, 2, 5))],
    # inverses of a swizzled layout with an offset: C++'s print and values
    *[(f"{op} offset {C}", (lambda op=op, C=C: _evals(getattr(cp, op)(C), range(0, 8))),
       _cx_evals(f"{op}({cx(C)})", range(0, 8)), "same")
      for op in ("right_inverse", "left_inverse") for C in (SW1, SW3, _sw(2, 1, -2, 2, "((4,8)):((8,1))"))],
    # logical_product(Layout, Sw o 0 o L) and the products built on it
    *[(f"{op} by swizzled", (lambda op=op: getattr(cp, op)(P("(2,2):(1,2)"), PROD_T)),
       f"print({op}({cx(P('(2,2):(1,2)'))}, {cx(PROD_T)}));", "same")
      for op in ("logical_product", "zipped_product", "tiled_product", "flat_product")],
    ("logical_product C++ wrong", lambda: cp.logical_product(P("(4,2):(1,4)"), WRONG_T),
     f"print(logical_product({cx(P('(4,2):(1,4)'))}, {cx(WRONG_T)}));", "cxx-wrong"),
    ("logical_product offset", lambda: cp.logical_product(P("(2,2):(1,2)"), _sw(1, 0, 1, 2, "(2,2):(2,1)")),
     f"print(logical_product({cx(P('(2,2):(1,2)'))}, {cx(_sw(1, 0, 1, 2, '(2,2):(2,1)'))}));", "reject"),
    # integer-tuple helpers
    ("product_each int", lambda: cp.product_each(4), "print(product_each(Int<4>{}));", "same"),
    ("compact_order", lambda: cp.compact_order(((2, 2), 3, 4), ((1, 2), 0, 3)),
     f"print(compact_order({cx(((2, 2), 3, 4))}, {cx(((1, 2), 0, 3))}));", "same"),
    ("round_up", lambda: cp.round_up((10, 7, 3), (4, 8)),
     f"print(round_up({cx((10, 7, 3))}, {cx((4, 8))}));", "same"),
]

# the definition each "cxx-wrong" case's C++ answer (its printed text) breaks
VALID = {
    "logical_product C++ wrong": lambda text: cxx_cases._offsets(P(text)) == _product_definition(
        P("(4,2):(1,4)"), WRONG_T),
    "max_alignment (4,8):(1,-6)": lambda text: int(text) >= 1,
}


@pytest.fixture(scope="module")
def results(cxx):
    keys = [expect == "reject" for _, _, _, expect in CASES]
    return cxx.run_cases([c for _, _, c, _ in CASES], keys=keys)


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_cutepy_answers_as_cxx(k, results, cxx):
    name, thunk, _, expect = CASES[k]
    res = results[k]
    if expect == "reject":
        assert not res.ok, f"C++ compiled {name}: {res.output}"
        with pytest.raises(CutepyError):
            thunk()
        return
    assert res.ok, res.error
    want = cxx.normalise(res.output)
    if expect == "cxx-wrong":
        with pytest.raises(AdmissibilityError):
            thunk()
        assert not VALID[name](want), f"C++'s {want} meets the definition: cutepy should answer it"
        return
    assert cxx_cases.show(thunk()) == want


def test_the_new_families_print_what_cxx_prints(cxx):
    r = random.Random(SEED)
    names = list(cxx_cases.CFUNC_OPERATIONS)
    cases = [cxx_cases.CFUNC_OPERATIONS[names[i % len(names)]][1](r) for i in range(SAMPLE)]
    verdicts = cxx_cases.run(cases)
    bad = [v for v in verdicts if v.kind in ("fail", "other-form")]
    assert not bad, cxx_cases.table(verdicts) + "".join(
        f"\n[{v.kind}] {v.case.op} {v.case.args}\n  cutepy: {v.cutepy}\n  C++:    {v.cxx}" for v in bad)
    assert {v.case.op.split("(")[0] for v in verdicts} >= {"max_alignment", "coprofile", "domain_offset",
                                                            "domain_distribute", "crd2crd", "right_inverse",
                                                            "left_inverse", "logical_product", "make_layout"}


# -- CUTLASS test/unit/cute/core/domain_distribute.cpp -----------------------------------------

DISTRIBUTE = [
    (((64, 3), (8, 8)), 128),
    ((192, (8, 8)), 128),
    (((64, 3), (8, 8)), 128 * 8),
    ((192, (8, 8)), 128 * 8),
    (((64, 3),), 128),
]


@pytest.fixture(scope="module")
def distribute_prints(cxx):
    return cxx.run_cases([f"print(domain_distribute({cx(a)}, {cx(b)}));" for a, b in DISTRIBUTE])


@pytest.mark.parametrize("k", range(len(DISTRIBUTE)), ids=[f"{a}-{b}" for a, b in DISTRIBUTE])
def test_domain_distribute_cpp(k, distribute_prints, cxx):
    shape_a, shape_b = DISTRIBUTE[k]
    R = cp.domain_distribute(shape_a, shape_b)
    assert cp.evenly_divides(shape_b, R.size())
    assert cp.evenly_divides(shape_a, R)
    offs = [R(i) for i in range(R.size())]
    assert all(offs[i] < offs[j] for i in range(len(offs)) for j in range(i + 1, len(offs)))
    assert distribute_prints[k].ok
    assert str(R) == cxx.normalise(distribute_prints[k].output)
