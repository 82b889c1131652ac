"""C++ CuTe's IntTuple helpers that the peers' suites reach for: ``slice``/``dice`` of an
IntTuple, ``max``/``min``, ``wrap``/``unwrap``, ``repeat_like`` (cute/int_tuple.hpp,
cute/algorithm/tuple_algorithms.hpp): their laws, and their prints against C++."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cutepy as cp
from cutepy.core import inttuple as it
from cutepy.strategies import int_tuples, layouts, with_dynamic_leaves
from tests.cxx import cxx_cases


@st.composite
def wildcard_coords(draw, shape):
    """A natural coordinate of ``shape`` with some leaves (or whole modes) the wildcard None."""
    if type(shape) is not tuple:
        return None if draw(st.booleans()) else draw(st.integers(0, shape - 1))
    if draw(st.integers(0, 4)) == 0:
        return None
    return tuple(draw(wildcard_coords(s)) for s in shape)


@given(int_tuples(), st.data())
def test_slice_and_dice_split_the_leaves(t, data):
    crd = data.draw(wildcard_coords(t))
    kept, fixed = cp.slice(crd, t), cp.dice(crd, t)
    assert type(kept) is tuple or crd is None
    assert it.product(kept) * it.product(fixed) == it.product(t)
    flat = it.flatten_tuple(t) if type(t) is tuple else (t,)
    kept_leaves = it.flatten_tuple(kept) if type(kept) is tuple else (kept,)
    assert sorted(kept_leaves + it.flatten_tuple(fixed)) == sorted(flat)


@given(layouts(), st.data())
def test_slice_of_a_layout_is_the_slice_of_its_shape_and_stride(L, data):
    crd = data.draw(wildcard_coords(L.shape))
    sub = cp.slice(crd, L)
    assert sub == cp.slice_and_offset(crd, L)[0]
    assert sub.shape == cp.slice(crd, L.shape) or (crd is None and sub == L)


@given(int_tuples(st.integers(-9, 9)))
def test_max_and_min_are_the_extreme_leaves(t):
    flat = it.flatten_tuple(t) if type(t) is tuple else (t,)
    assert cp.max(t) == max(flat) and cp.min(t) == min(flat)


@given(int_tuples(), st.integers(0, 3))
def test_wrap_unwrap_and_repeat_like(t, x):
    assert cp.wrap(t) == (t if type(t) is tuple else (t,))
    assert cp.unwrap(cp.wrap(cp.wrap(t))) == cp.unwrap(t)
    assert type(cp.unwrap(t)) is not tuple or len(cp.unwrap(t)) != 1
    r = cp.repeat_like(t, x)
    assert cp.congruent(r, t) and set(it.flatten_tuple(r) if type(r) is tuple else (r,)) == {x}


def test_bad_arguments_are_named():
    with pytest.raises(cp.CutepyError, match="max"):
        cp.max(())
    with pytest.raises(cp.CutepyError, match="slice"):
        cp.slice((None, 1), (3, 2.5))
    with pytest.raises(cp.CutepyError, match="does not match"):
        cp.slice((None, 1, 0), (3, 4))
    with pytest.raises(cp.CutepyError, match="repeat_like"):
        cp.repeat_like("x", 0)


def test_star_import_keeps_the_builtins():
    scope: dict = {}
    exec("from cutepy import *", scope)
    assert "max" not in scope and "min" not in scope and "slice" not in scope


TUPLES = [(3, 4), ((2, 3), 4), (2, (3, (4, 5)), 6), 7]
SLICES = [((None, 0), (3, 4)), ((1, None), (3, 4)), ((None, (0, None)), (2, (3, 4))),
          (((None, 1), None), ((2, 3), 4)), ((None, (None, 1)), (2, (3, 4)))]


def _crd(c):
    if c is None:
        return "_"
    if type(c) is tuple:
        return "make_coord(" + ", ".join(_crd(x) for x in c) + ")"
    return cxx_cases.cx(c)


def _cases():
    out = []
    for t in TUPLES:
        out.append((lambda t=t: cp.max(t), f"print(cute::max({cxx_cases.cx(t)}));"))
        out.append((lambda t=t: cp.min(t), f"print(cute::min({cxx_cases.cx(t)}));"))
        out.append((lambda t=t: cp.wrap(t), f"print(wrap({cxx_cases.cx(t)}));"))
        out.append((lambda t=t: cp.unwrap(t), f"print(unwrap({cxx_cases.cx(t)}));"))
        out.append((lambda t=t: cp.repeat_like(t, 0), f"print(repeat_like({cxx_cases.cx(t)}, Int<0>{{}}));"))
    for c, t in SLICES:
        out.append((lambda c=c, t=t: cp.slice(c, t), f"print(slice({_crd(c)}, {cxx_cases.cx(t)}));"))
        out.append((lambda c=c, t=t: cp.dice(c, t), f"print(dice({_crd(c)}, {cxx_cases.cx(t)}));"))
    return out


def test_prints_as_cxx(cxx):
    cases = _cases()
    results = cxx.run_cases([src for _, src in cases])
    for (fn, src), r in zip(cases, results):
        assert r.ok, (src, r.error)
        assert cxx_cases.show(fn()) == cxx.normalise(r.output), src


# -- cutepy.format: an IntTuple printed C++'s way -------------------------------------------------


def _cx_dyn(t):
    """C++'s spelling of an IntTuple: ``Int<N>{}`` for a static leaf, ``int(N)`` for a run-time one."""
    if type(t) is tuple:
        return "make_tuple(" + ", ".join(_cx_dyn(x) for x in t) + ")"
    return f"int({int(t)})" if type(t) is cp.DynamicInt else f"Int<{t}>{{}}"


@given(layouts(), st.data())
def test_format_of_a_shape_is_the_shape_part_of_the_layout_print(L, data):
    L = data.draw(with_dynamic_leaves(L))
    text = format(L, "cxx")
    assert cp.format(L.shape, "cxx") + ":" + cp.format(L.stride, "cxx") == text
    assert cp.format(L.shape) == format(L.shape)  # any other spec: Python's format


def test_format_prints_tuples_as_cxx(cxx):
    d = cp.dynamic
    tuples = [(64, 32), (64, d(32)), (d(128), (d(8), 2)), 7, d(7), ((1, d(1)), (d(0), 0))]
    results = cxx.run_cases([f"print({_cx_dyn(t)});" for t in tuples])
    for t, r in zip(tuples, results):
        assert r.ok, (t, r.error)
        assert cp.format(t, "cxx") == r.output.strip(), t


def test_format_refuses_what_is_not_an_int_tuple():
    with pytest.raises(cp.CutepyError, match="format: argument 1"):
        cp.format((1, "a"), "cxx")
    with pytest.raises(TypeError):  # Python's own format of a tuple with a spec, unchanged
        format((64, 32), "cxx")
