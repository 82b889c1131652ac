"""The swizzled slice's kept plan (``algebra/composed.py``: ``_slice_plan``) gives exactly what the
general path computes from scratch (``_slice_swizzled_general``, C++ 4.7's steps): the same
layout and offset, static and run-time leaves alike, and the same error, for every coordinate of
every pattern of wildcards, the first time and once the plan is kept; negative strides too."""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from cutepy import ComposedLayout, CutepyError, Layout, Swizzle, composition, dynamic, tile_to_shape
from cutepy.algebra import composed as cm
from cutepy.core import inttuple as it
from cutepy.core.layout import slice_and_offset
from cutepy.strategies import coordinates, offset_swizzled_layouts, swizzled_layouts, with_dynamic_leaves


def outcome(fn, *args):
    """What ``fn(*args)`` gives, told apart as C++ tells it: values with each leaf's kind."""
    try:
        sub, off = fn(*args)
    except CutepyError as e:
        return ("error", type(e).__name__, str(e))
    return ("ok", type(sub).__name__, format(sub, "cxx"), type(off).__name__, off)


@st.composite
def wildcarded(draw, shape):
    """A coordinate of ``shape`` with some of its modes (at any level) left free (``None``)."""
    def walk(s):
        if draw(st.integers(0, 3)) == 0:
            return None
        if type(s) is tuple and draw(st.booleans()):
            return tuple(walk(x) for x in s)
        return draw(coordinates(s))
    return walk(shape)


@st.composite
def smem_layouts(draw):
    """A shared-memory layout as kernels build one: a swizzled row-major atom ``Sw<B,M,S> o
    (8, W):(W, 1)`` tiled to a larger (rows, cols) tile (hierarchical modes)."""
    b = draw(st.integers(1, 3))
    m = draw(st.integers(0, 3))
    s = draw(st.integers(b, b + 1))
    w = 1 << (m + s)
    atom = composition(Swizzle(b, m, s), Layout((8, w), (w, 1)))
    tiled = tile_to_shape(atom, (8 * draw(st.sampled_from((1, 2, 4))), w * draw(st.sampled_from((1, 2)))))
    return ComposedLayout(tiled.outer, draw(st.sampled_from((0, 0, w, 8 * w))), tiled.inner)


def _refill(draw, pattern, shape):
    """A coordinate of ``shape`` with ``pattern``'s wildcards (``None``) and fresh values elsewhere."""
    if pattern is None:
        return None
    if type(pattern) is tuple:
        return tuple(_refill(draw, p, s) for p, s in zip(pattern, shape))
    return draw(coordinates(shape))


@st.composite
def sliced_cases(draw):
    C = draw(st.one_of(swizzled_layouts(), offset_swizzled_layouts(), smem_layouts()))
    if draw(st.booleans()):  # negative strides: some modes of the inner layout reversed
        flat = it.flatten_tuple(C.inner.stride) if type(C.inner.stride) is tuple else (C.inner.stride,)
        neg = tuple(d * draw(st.sampled_from((1, -1))) for d in flat)
        stride = it.unflatten_tuple(neg, C.inner.shape) if type(C.inner.shape) is tuple else neg[0]
        C = ComposedLayout(C.outer, C.offset, Layout(C.inner.shape, stride))
    shape = C.inner.shape if type(C.inner.shape) is tuple else (C.inner.shape,)
    if type(C.inner.shape) is not tuple:
        C = ComposedLayout(C.outer, C.offset, Layout(shape, (C.inner.stride,)))
    crds = [draw(wildcarded(shape))]
    pattern = cm._pattern(crds[0])
    for _ in range(3):  # more coordinates of the same pattern, other values, maybe run-time leaves
        crd = _refill(draw, pattern, shape) if type(pattern) is tuple else crds[0]
        crds.append(draw(with_dynamic_leaves(crd)) if draw(st.booleans()) else crd)
    return C, crds


@given(sliced_cases())
def test_kept_plan_gives_the_general_answer(case):
    C, crds = case
    for crd in crds:  # the first makes the plan, the others find it kept
        want = outcome(cm._slice_swizzled_general, crd, C)
        assert outcome(cm.slice_and_offset_swizzled, crd, C) == want
    fresh = ComposedLayout(C.outer, C.offset, C.inner)  # an equal value without kept plans
    for crd in reversed(crds):
        want = outcome(cm._slice_swizzled_general, crd, C)
        assert outcome(cm.slice_and_offset_swizzled, crd, fresh) == want


@given(swizzled_layouts(), st.data())
def test_plans_stay_bounded(C, data):
    shape = C.inner.shape if type(C.inner.shape) is tuple else (C.inner.shape,)
    L = ComposedLayout(C.outer, C.offset, Layout(shape, C.inner.stride if type(C.inner.shape) is tuple
                                                 else (C.inner.stride,)))
    with mock.patch.object(cm, "PLAN_LIMIT", 2):  # a bound small enough to reach
        for _ in range(8):
            crd = data.draw(wildcarded(shape))
            want = outcome(cm._slice_swizzled_general, crd, L)
            assert outcome(cm.slice_and_offset_swizzled, crd, L) == want
            assert len(L._plans or {}) <= 2


@st.composite
def many_cases(draw):
    """A layout and several coordinates of one pattern of wildcards, all static or all run-time."""
    C, _ = draw(sliced_cases())
    shape = C.inner.shape
    first = draw(wildcarded(shape))
    pattern = cm._pattern(first)
    assume(type(pattern) is tuple and any(x is not None for x in it.flatten_tuple(pattern)))
    crds = [first] + [_refill(draw, pattern, shape) for _ in range(draw(st.integers(1, 6)))]
    if draw(st.booleans()):
        crds = [it.transform_leaf(lambda x: x if x is None else dynamic(x), c) for c in crds]
    return C, crds


@given(many_cases())
def test_many_at_once_is_each_alone(case):
    """``slice_and_offset_many`` gives each coordinate's general answer; where any of them is
    refused it gives None (each is then sliced alone) or raises that coordinate's own error:
    an error is never lost or changed."""
    C, crds = case
    fixed = np.array([int(slice_and_offset(c, C.inner)[1]) for c in crds], dtype=np.int64)
    want = [outcome(cm._slice_swizzled_general, c, C) for c in crds]
    folds = cm.fold_table(ComposedLayout(C.outer, C.offset, C.inner))  # the second, a new equal
    for L in (C, ComposedLayout(C.outer, C.offset, C.inner)):           # layout, finds the first's
        try:
            got = cm.slice_and_offset_many(lambda i: crds[i], L, fixed,
                                           lambda i: cm._slice_swizzled_general(crds[i], C), folds)
        except CutepyError as e:
            assert ("error", type(e).__name__, str(e)) in want
            continue
        if got is None:
            continue
        assert all(w[0] == "ok" for w in want)
        for i, w in enumerate(want):
            assert outcome(lambda j, r: (r[0][r[1][j]], r[3](int(r[2][j]))), i, got) == w
    assert len(folds) <= cm.FOLD_LIMIT
