"""TMA tensors with a static-ratio stride (an internal type wider than the element: C++'s
``_1/_2@0``) evaluated at static and run-time coordinates equal C++'s prints
(tests/data/tma_ratio_cxx.txt, made by tests/kernels/tma_ratio_cxx.py; compiled live where g++ and
the headers are here): a static coordinate gives a static ratio, a whole one an ``int``; a
run-time one C++'s truncating integer arithmetic. No ``Fraction`` that is whole is left."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy.core.basis import ScaledBasis, ratio_mul
from cutepy.core.dynamic import DynamicInt, dynamic
from cutepy.core.inttuple import flatten_tuple, format_tuple
from cutepy.core.layout import Layout
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import make_tma_copy
from tests.kernels import tma_ratio_cxx as rc

STORED = rc.read() if rc.FILE.is_file() else {}


def _tensors(case: tuple) -> tuple:
    """The TMA tensors of a run-time and of a static gmem shape, as the C++ case builds them."""
    dtype, internal, major, rows, cols = case
    out = []
    for wrap in (dynamic, lambda x: x):
        stride = (wrap(cols), 1) if major == "K" else (1, wrap(rows))
        g = make_tensor(gmem_ptr(dtype, 0x10000), Layout((wrap(rows), wrap(cols)), stride))
        sl = Layout((rows, cols), (cols, 1) if major == "K" else (1, rows))
        tma = make_tma_copy("SM90_TMA_LOAD", g, sl, (rows, cols), internal_type=internal)
        out.append(tma.get_tma_tensor((wrap(rows), wrap(cols))))
    return tuple(out)


def build(case: tuple) -> dict[str, str]:
    m, ms = _tensors(case)
    out = {"m": format(m, "cxx"), "ms": format(ms, "cxx")}
    for kind, vals in rc.POINTS:
        crd = [dynamic(v) if k == "d" else v for k, v in zip(kind, vals)]
        name = kind + " " + ",".join(map(str, vals))
        out[name] = format_tuple(m(*crd), cxx=True)
        out[name + " static shape"] = format_tuple(ms(*crd), cxx=True)
    return out


@pytest.mark.skipif(not STORED, reason="tests/data/tma_ratio_cxx.txt is missing")
@pytest.mark.parametrize("case", rc.CASES, ids=lambda c: "-".join(map(str, c)))
def test_ratio_coordinates_equal_cxx(case: tuple) -> None:
    got, want = build(case), STORED[" ".join(map(str, case))]
    assert set(got) == set(want)
    wrong = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
    assert not wrong, wrong
    assert any("/" in v for v in want.values()) and any("/" not in v for v in want.values())


@pytest.mark.slow
def test_the_stored_ratio_prints_are_what_cxx_prints_now(cxx) -> None:
    assert rc.run_cxx() == STORED


@given(num=st.integers(1, 7), den=st.sampled_from([2, 4, 8]), k=st.integers(-300, 300))
def test_ratio_times_integer_is_cxx_arithmetic(num: int, den: int, k: int) -> None:
    """Static: the exact product, whole products as ``int``; run-time: ``k * num / den`` truncated
    toward zero (C++'s ``int`` division), run-time."""
    r = Fraction(num, den)
    s = ratio_mul(r, k)
    assert s == r * k and (type(s) is int) == ((r * k).denominator == 1)
    d = ratio_mul(r, dynamic(k))
    assert type(d) is DynamicInt and d == int(k * num / den)
    e = ScaledBasis(r, (0,))  # the TMA stride r@0: coordinates times it as C++ computes them
    assert (k * e).value == s and type((dynamic(k) * e).value) is DynamicInt


@given(c=st.tuples(st.integers(0, 255), st.integers(0, 63)))
def test_no_whole_fraction_is_left(c: tuple) -> None:
    _, ms = _tensors(rc.CASES[0])
    for x in flatten_tuple(ms(*c)):
        assert type(x) is int or (type(x) is Fraction and x.denominator != 1)
