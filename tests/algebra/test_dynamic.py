"""Run-time integers (issue 21 item 9): C++'s ``int`` beside ``Int<N>``.

Making leaves dynamic changes an operation's nesting, not its result as a function (C++ keeps
modes it cannot prove mergeable), except where a run-time 1 (a size-1 mode) or 0 (a zero stride)
is kept as C++ keeps it: those can change the function, in C++ CuTe 4.7 exactly as here
(``complement`` of a run-time ``1:6`` is ``(_6,1):(_1,6)``, of the static one ``_1:_0``; the C++
prints are in tests/data/dynamic_units_cxx47.tsv); the arithmetic follows C++'s overloads
(cute/numeric/integral_constant.hpp); ``format(x, "cxx")`` and ``parse`` read and write C++'s print.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cutepy as cp
from cutepy import DynamicInt, Layout, dynamic, is_static
from cutepy.core.inttuple import flatten_tuple
from cutepy.strategies import (
    complementable_pairs,
    composable_pairs,
    divisible_pairs,
    layouts,
    swizzled_layouts,
    tiling_layouts,
    with_dynamic_leaves,
)
from tests.algebra import dynamic_units_cxx

SETTINGS = settings(max_examples=60, deadline=None)
UNITS_CXX47 = dynamic_units_cxx.read()


def _values(L) -> list:
    return [L(i) for i in range(L.size())]


def _same_function(R, D) -> None:
    assert R.size() == D.size()
    assert _values(R) == _values(D)


def _no_run_time_units(*xs) -> bool:
    """No run-time 1 in a shape and no run-time 0 in a stride (C++ keeps those: the function may
    change, see test_run_time_units_are_kept_as_cxx47_keeps_them)."""
    for x in xs:
        shape, stride = (x.shape, x.stride) if hasattr(x, "shape") else (x, ())
        if any(type(v) is DynamicInt and v == 1 for v in flatten_tuple(shape)):
            return False
        if any(type(v) is DynamicInt and v == 0 for v in flatten_tuple(stride)):
            return False
    return True


@pytest.mark.parametrize("case", dynamic_units_cxx.CASES, ids=dynamic_units_cxx.statement)
def test_run_time_units_are_kept_as_cxx47_keeps_them(case) -> None:
    assert dynamic_units_cxx.cutepy_print(case) == UNITS_CXX47[dynamic_units_cxx.statement(case)]


def test_a_run_time_unit_can_change_the_function() -> None:
    """The documented example (docs/algebra.md): a run-time size-1 mode is kept, so complement
    fills what a static one would not."""
    D, S = cp.complement(Layout(dynamic(1), 6)), cp.complement(Layout(1, 6))
    assert (D.size(), S.size()) == (6, 1)
    assert _values(D) == list(range(6)) and _values(S) == [0]


# -- the integer -------------------------------------------------------------------------------


@pytest.mark.parametrize("expr, static", [
    (lambda d: d * 0, True), (lambda d: 0 * d, True), (lambda d: 0 // d, True), (lambda d: d % 1, True),
    (lambda d: d % -1, True), (lambda d: 0 % d, True), (lambda d: d & 0, True), (lambda d: 0 & d, True),
    (lambda d: d * 1, False), (lambda d: d + 0, False), (lambda d: d // 1, False), (lambda d: d % 2, False),
    (lambda d: -d, False), (lambda d: abs(d), False), (lambda d: 2 - d, False), (lambda d: d * d * 0, True),
    (lambda d: d * dynamic(0), False),
])
def test_arithmetic_follows_cxx_static_zero_rules(expr, static):
    d = dynamic(6)
    r = expr(d)
    assert r == expr(6)
    assert is_static(r) is static


@given(st.integers(-50, 50), st.integers(-50, 50).filter(bool), st.booleans(), st.booleans())
def test_values_are_python_ints(a, b, da, db):
    x, y = (dynamic(a) if da else a), (dynamic(b) if db else b)
    for op in (lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q, lambda p, q: p // q,
               lambda p, q: p % q, lambda p, q: p & q, lambda p, q: p | q, lambda p, q: p ^ q):
        r = op(x, y)
        assert r == op(a, b)
        assert isinstance(r, int)


def test_dynamic_int_pickles_and_prints_plain():
    d = dynamic(12)
    assert type(pickle.loads(pickle.dumps(d))) is DynamicInt
    assert str(d) == repr(d) == format(d, "cxx") == "12"
    assert str(Layout((d, 4))) == "(12,4):(1,12)"


def test_dynamic_rejects_non_integers():
    with pytest.raises(cp.CutepyError):
        dynamic(2.5)
    with pytest.raises(cp.CutepyError):
        dynamic((1, "a"))


def test_is_static():
    assert is_static(4) and is_static((2, (3, 4))) and is_static(Layout((2, 3)))
    assert not is_static(dynamic(4)) and not is_static((2, (dynamic(3), 4)))
    assert not is_static(Layout((2, 3), (1, dynamic(2))))
    sw = cp.composition(cp.Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))
    assert is_static(sw)
    assert not is_static(cp.composition(cp.Swizzle(3, 0, 3), Layout((8, 8), (dynamic(8), 1))))
    assert not is_static(cp.make_tensor(None, Layout((dynamic(4), 2))))
    with pytest.raises(cp.CutepyError):
        is_static("8")


# -- C++'s print --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "((_2,_2),_4,(_2,_4)):((5120,_8),_32,(81920,163840))",
    "Sw<3,0,3> o 1 o (_8,_8):(_8,_1)",
    "(_4,8):(_1@0,1@1)",
    "(_2,_4):(_-1,_2)",
    "_1:_0",
])
def test_cxx_print_round_trips(text):
    assert format(cp.parse(text), "cxx") == text


def test_parse_without_underscores_is_static():
    assert is_static(cp.parse("(2,4):(1,2)"))
    assert format(cp.parse("(2,4):(1,2)"), "cxx") == "(_2,_4):(_1,_2)"


@SETTINGS
@given(st.data())
def test_format_cxx_parses_back(data):
    L = data.draw(with_dynamic_leaves(data.draw(layouts())))
    text = format(L, "cxx")
    # an all-static layout reads back static (checked above); an all-dynamic print has no _ to
    # tell C++'s form from cutepy's and reads back static too
    assume(not is_static(L) and "_" in text)
    P = cp.parse(text)
    assert P == L and format(P, "cxx") == format(L, "cxx")


# -- the function never changes --------------------------------------------------------------------


@SETTINGS
@given(st.data())
def test_coalesce_and_filter_keep_the_function(data):
    L = data.draw(layouts())
    D = data.draw(with_dynamic_leaves(L))
    _same_function(cp.coalesce(L), cp.coalesce(D))
    assert sorted(set(_values(cp.filter(L)))) == sorted(set(_values(cp.filter(D))))


@SETTINGS
@given(st.data())
def test_composition_keeps_the_function(data):
    A, B = data.draw(composable_pairs())
    DA, DB = data.draw(with_dynamic_leaves(A)), data.draw(with_dynamic_leaves(B))
    try:  # C++ checks divisibility where it is static: modes a run-time leaf keeps apart are
        R = cp.composition(DA, DB)  # checked one by one, and C++ static_asserts there too
    except cp.AdmissibilityError:
        assume(False)
    _same_function(cp.composition(A, B), R)


@SETTINGS
@given(st.data())
def test_complement_keeps_the_function(data):
    A, M = data.draw(complementable_pairs())
    DA, DM = data.draw(with_dynamic_leaves(A)), data.draw(with_dynamic_leaves(M))
    assume(_no_run_time_units(DA, DM))
    _same_function(cp.complement(A, M), cp.complement(DA, DM))


@SETTINGS
@given(st.data(), st.sampled_from(["logical_divide", "zipped_divide", "tiled_divide"]))
def test_divides_keep_the_function(data, op):
    A, T = data.draw(divisible_pairs())
    DA, DT = data.draw(with_dynamic_leaves(A)), data.draw(with_dynamic_leaves(T))
    fn = getattr(cp, op)
    try:  # C++ checks divisibility only where it is static: a run-time zero stride keeps modes
        D = fn(DA, DT)  # apart that a static one merges, and their divisibility is checked here
    except cp.AdmissibilityError:
        assume(False)
    _same_function(fn(A, T), D)


@SETTINGS
@given(st.data(), st.sampled_from(["logical_product", "zipped_product", "blocked_product", "raked_product"]))
def test_products_keep_the_function(data, op):
    A = data.draw(tiling_layouts(3))
    B = data.draw(tiling_layouts(2))
    DA, DB = data.draw(with_dynamic_leaves(A)), data.draw(with_dynamic_leaves(B))
    fn = getattr(cp, op)
    try:
        R = fn(A, B)
        D = fn(DA, DB)
    except cp.CutepyError:  # C++ rejects it too (mismatched ranks, divisibility checked statically)
        assume(False)
    _same_function(R, D)


@SETTINGS
@given(st.data())
def test_left_inverse_keeps_the_function(data):
    A = data.draw(tiling_layouts(3))
    DA = data.draw(with_dynamic_leaves(A))
    _same_function(cp.left_inverse(A), cp.left_inverse(DA))


@SETTINGS
@given(st.data())
def test_right_inverse_is_a_prefix(data):
    """C++ follows the chain of strides only while they are static: a run-time stride ends it,
    so the right inverse of a dynamic layout is a prefix of the static one's, still an inverse."""
    A = data.draw(tiling_layouts(3))
    DA = data.draw(with_dynamic_leaves(A))
    R, DR = cp.right_inverse(A), cp.right_inverse(DA)
    assert R.size() % DR.size() == 0
    assert _values(DR) == _values(R)[: DR.size()]
    assert all(A(DR(i)) == i for i in range(DR.size()))


@SETTINGS
@given(st.data())
def test_swizzled_slices_keep_the_function(data):
    C = data.draw(swizzled_layouts())
    assume(type(C.inner.shape) is tuple)
    crd = tuple(None if data.draw(st.booleans()) else data.draw(st.integers(0, cp.size(m) - 1))
                for m in C.inner)
    crd = (None,) + crd[1:]
    D = data.draw(with_dynamic_leaves(C))
    Dcrd = data.draw(with_dynamic_leaves(crd))
    S, o = cp.slice_and_offset(crd, C)
    DS, Do = cp.slice_and_offset(Dcrd, D)
    assert [S(i) + o for i in range(cp.size(S))] == [DS(i) + Do for i in range(cp.size(DS))]


# -- explain() and the equivalence decision with run-time integers -----------------------------


@SETTINGS
@given(st.data())
def test_explain_coalesce_shows_cxx_steps_with_run_time_integers(data):
    """explain(coalesce) of a layout with run-time integers shows C++'s steps (from the last mode
    to the first): one per flat mode after the flatten, a merge only where C++ merges, and the
    modes its steps leave are the result's."""
    L = data.draw(with_dynamic_leaves(data.draw(layouts())))
    assume(not is_static(L))
    D = cp.explain(cp.coalesce, L)
    R = cp.coalesce(L)
    assert format(D.result, "cxx") == format(R, "cxx")
    texts = [s.text for s in D.steps]
    n = len(flatten_tuple(L.shape))
    assert texts[0].startswith("flatten: ") and len(texts) == n + 1
    kept = sum(t.startswith(("start", "keep")) for t in texts)
    assert kept == (len(R.shape) if isinstance(R.shape, tuple) else int(not (R.shape == 1 and R.stride == 0)))
    for t in texts:  # a keep says why; never a false 'a*b != c'
        if t.startswith("keep ") and "!=" in t:
            s0, d0, d1 = (int(x) for x in t.split("(")[1].replace("*", " ").replace("!=", " ")
                          .rstrip(")").split())
            assert s0 * d0 != d1


def test_explain_coalesce_names_cxx_reasons():
    d = dynamic
    steps = [s.text for s in cp.explain(cp.coalesce, cp.make_layout((2, 4), (1, d(2)))).steps]
    assert steps == ["flatten: (2,4):(1,2)", "start with 4:2",
                     "keep 2:1 | 4:2 apart (2*1 == 2 only at run time: C++ merges statically equal strides)"]
    steps = [s.text for s in cp.explain(cp.coalesce, cp.make_layout((2, d(4), 1), (1, 2, 7))).steps]
    assert steps[1:] == ["drop 1:7 (size 1)", "start with 4:2",
                         "keep 2:1 | 4:2 apart (4 is a run-time shape: C++ merges into static ones)"]


@SETTINGS
@given(st.data())
def test_equivalence_reads_run_time_integers_by_value(data):
    """equivalent() and normal_form() decide the function: marking leaves run-time changes neither
    (they used C++'s coalesce, which keeps run-time modes apart, and answered 'not equivalent')."""
    from cutepy.equivalence import equivalent, normal_form

    L = data.draw(layouts())
    D = data.draw(with_dynamic_leaves(L))
    assert equivalent(D, L)
    assert equivalent(D, cp.coalesce(L))
    nf = normal_form(D)
    assert str(nf.layout()) == str(normal_form(L).layout()) and nf.check()


# -- complement with a shape cotarget holding run-time leaves ----------------------------------


def test_complement_of_a_mixed_shape_cotarget_equals_cxx():
    """C++ lays the cotarget's rest out column-major after the gaps (it was laid out row-major
    from 1: complement(2:1, (4, int 3)) gave (_2,3):(3,_1), overlapping A; C++ (_2,3):(_2,_4))."""
    from tests.algebra import complement_dyn_cxx as cd

    stored = cd.read()
    got = {cd.statement(c): cd.cutepy_print(c) for c in cd.CASES}
    assert set(got) == set(stored)
    wrong = {k: (got[k], stored[k]) for k in got if got[k] != stored[k]}
    assert not wrong, wrong


@pytest.mark.slow
def test_stored_complement_prints_are_what_cxx_prints_now(cxx):
    from tests.algebra import complement_dyn_cxx as cd

    assert [p for p in cd.run_cxx()] == [cd.read()[cd.statement(c)] for c in cd.CASES]


@SETTINGS
@given(st.data())
def test_complement_with_a_run_time_cotarget_keeps_the_function(data):
    A, n = data.draw(complementable_pairs())
    shape = data.draw(st.sampled_from([(n,), (n, 2), (2, n), (n, 3, 2)]))
    D = data.draw(with_dynamic_leaves(shape))
    assume(not is_static(D))
    R, C = cp.complement(A, shape), cp.complement(A, D)
    _same_function(R, C)


def test_an_unknown_format_spec_is_a_cutepy_error_naming_it() -> None:
    import cutepy as cp

    for value in (cp.Layout(4), cp.parse("Sw<3,3,3> o (8,64):(64,1)"), cp.make_identity_tensor((2, 3)),
                  cp.mma_atom("SM80_16x8x16_F32F16F16F32_TN")):
        with pytest.raises(cp.CutepyError, match="format spec 'xyz'"):
            format(value, "xyz")
        assert format(value, ">1") == str(value)
