"""cutepy.core.evaluate: whole-domain offsets against an independent model, limits, int64."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy import CutepyError, Layout, Swizzle
from cutepy.algebra.composed import ComposedLayout
from cutepy.core.evaluate import offsets
from cutepy.core.limits import DEFAULT_MAX_ELEMENTS, limits, max_elements
from cutepy.strategies import layouts
from tests.fuzz import brute


@given(layouts(negative=True))
def test_offsets_match_the_model(L):
    assert offsets(L).tolist() == brute.table(L)


@given(layouts(), st.integers(0, 3), st.integers(0, 4), st.sampled_from([1, 2, 3, -1, -2, -3]),
       st.integers(-8, 64))
def test_swizzled_offsets_match_the_model(L, b, m, s, off):
    sw = Swizzle(b, m, s if abs(s) >= b else b)
    C = ComposedLayout(sw, off, L)
    assert offsets(C).tolist() == brute.table(C)


@pytest.mark.parametrize("L", [
    Layout((300, 1000), (1000, 1)),  # more than one block, row-major
    Layout((2, 100003), (100003, 1)),  # a small first mode, a prime second
    Layout((3, 5, 7, 1000), (7000, 1, 5, 35)),
    Layout(((2, 4), (8, 1000)), ((1, 16000), (2, 16))),
])
@pytest.mark.parametrize("swizzle", [None, Swizzle(3, 4, 3), Swizzle(2, 0, -3)])
def test_blockwise_paths_match_the_model(L, swizzle):
    obj = L if swizzle is None else ComposedLayout(swizzle, 7, L)
    got = offsets(obj)
    n = brute.size(L)
    for i in list(range(0, n, 997)) + [n - 1]:
        assert got[i] == brute.evaluate(obj, i)


def test_limit_is_checked_before_allocating():
    with pytest.raises(CutepyError, match="above the limit"):
        offsets(Layout(1 << 40))
    with pytest.raises(CutepyError, match="above the limit of 100"):
        offsets(Layout((10, 11)), max_elements=100)
    assert offsets(Layout((10, 11)), max_elements=110).size == 110


def test_limits_context_is_scoped_and_restored():
    assert max_elements() == DEFAULT_MAX_ELEMENTS
    with limits(max_elements=8):
        with pytest.raises(CutepyError):
            offsets(Layout(9))
        assert offsets(Layout(8)).size == 8
    assert max_elements() == DEFAULT_MAX_ELEMENTS
    with pytest.raises(CutepyError, match="positive integer"):
        with limits(max_elements=0):
            pass


def test_no_int64_wraparound():
    with pytest.raises(CutepyError, match="beyond int64"):
        offsets(Layout((3, 4), (2**62, 1)))
    with pytest.raises(CutepyError, match="beyond int64"):
        offsets(Layout((4, 2), (1, 2**62)), [0, 11])  # index 11 is (3, 2): 3 + 2^63
    with pytest.raises(CutepyError, match="beyond int64"):
        offsets(ComposedLayout(Swizzle(3, 4, 3), 2**63 - 5, Layout(8)))


@pytest.mark.parametrize("bad", [[2**70], 2**64, [-1], [1.5], np.array([2**63], dtype=np.uint64), [True]])
def test_bad_indices_are_cutepy_errors(bad):
    with pytest.raises(CutepyError):
        offsets(Layout((4, 3), (3, 1)), bad)


# -- L(i): the index fast path is crd2idx -------------------------------------------------------


@given(layouts(negative=True, max_depth=3), st.data())
def test_call_at_an_index_is_crd2idx(L, data):
    """``L(i)`` (the fast path for plain-int leaves and ``i >= 0``) is ``crd2idx(i, shape, stride)``
    everywhere, indices past the domain included (the last mode takes what is left), and keeps
    the general path's types for run-time leaves."""
    from cutepy.core import inttuple as it
    from cutepy.strategies import with_dynamic_leaves

    i = data.draw(st.integers(0, 4 * L.size()))
    assert L(i) == it.crd2idx(i, L.shape, L.stride)
    D = Layout(data.draw(with_dynamic_leaves(L.shape)), L.stride)
    got, want = D(i), it.crd2idx(i, D.shape, D.stride)
    assert got == want and type(got) is type(want)


@given(st.lists(st.tuples(st.sampled_from((1, 1, 2, 3, 4)), st.sampled_from(("chain", 0, 1, 2, -3, 5))),
                min_size=1, max_size=6), st.data())
def test_call_form_merges_and_drops_exactly(leaves, data):
    """The flat form ``L(i)`` keeps on the value drops size-1 leaves and merges a leaf whose
    stride continues the one before (``d1 == s0 * d0``): on layouts full of both, ``L(i)`` is
    still ``crd2idx`` at every index, past the domain included, on the first call and the next;
    ``size()`` and ``cosize()`` (kept too) are the formulas'."""
    from cutepy.core import inttuple as it

    shape, stride, prev = [], [], None
    for s, d in leaves:
        d = (prev[0] * prev[1] if prev else 1) if d == "chain" else d
        shape.append(s)
        stride.append(d)
        prev = (s, d)
    L = Layout(tuple(shape), tuple(stride))
    for i in sorted(data.draw(st.lists(st.integers(0, 3 * L.size()), min_size=1, max_size=5))):
        want = it.crd2idx(i, L.shape, L.stride)
        assert L(i) == want and L(i) == want
    assert L.size() == it.product(L.shape) and L.size() == it.product(L.shape)
    assert L.cosize() == 1 + sum((s - 1) * abs(d) for s, d in zip(shape, stride)) == L.cosize()


@pytest.mark.parametrize("L", [
    Layout(1 << 16),  # one mode: a table of rows plus one offset per row
    Layout((256, 256), (256, 1)),
    Layout(((2, 4), (8, 512)), ((1, 8192), (8, 2))),
    Layout((64, 1024), (-1024, 3)),  # negative strides
    Layout((1031, 17), (17, 1)),  # a prime first mode: rows of 1031
    Layout((1024, 8), (8, 1)),  # the table holds the whole second mode: one row
    Layout((2, 3, 4096), (1, 2, 6)),  # merged into one mode of 24576
])
def test_one_broadcast_add_matches_the_index_model(L):
    """Plain layouts of many elements take the one 2-D add (a table of the first modes plus
    one offset per row); the per-index evaluation (divmod per leaf) is the model."""
    got = offsets(L)
    assert got.dtype == np.int64 and got.shape == (L.size(),)
    assert np.array_equal(got, offsets(L, np.arange(L.size())))
    assert [int(got[i]) for i in (0, 1, 1000, L.size() - 1)] == [L(i) for i in (0, 1, 1000, L.size() - 1)]
