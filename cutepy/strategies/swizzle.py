"""Hypothesis strategies for swizzles and swizzled layouts (``Sw<B,M,S> o offset o L``).

Part of :mod:`cutepy.strategies` (layer 4, analyses); import the strategies from there.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ..algebra.composed import ComposedLayout
from ..core import inttuple as it
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from .layout import nest_profile

__all__ = ["swizzles", "swizzled_layouts", "offset_swizzled_layouts"]

@st.composite
def swizzles(draw: Any) -> Any:
    """Valid ``Swizzle(B, M, S)`` with small parameters (|S| >= B)."""
    b = draw(st.integers(0, 3))
    m = draw(st.integers(0, 3))
    s = draw(st.integers(b, 4)) * draw(st.sampled_from((1, 1, -1)))
    if s < 0 and m + s < 0:
        s = -s
    return Swizzle(b, m, s)


@st.composite
def swizzled_layouts(draw: Any, max_leaves: int = 3) -> ComposedLayout:
    """``Sw<B,M,S> o 0 o L`` with a compact ``L`` (random mode order) spanning the swizzle's bits."""
    b = draw(st.integers(1, 3))
    m = draw(st.integers(0, 3))
    s = draw(st.integers(b, b + 1)) * draw(st.sampled_from((1, 1, -1)))
    if s < 0 and m + s < 0:
        s = -s
    sw = Swizzle(b, m, s)
    need = 1 << (b + m + abs(s))
    n = draw(st.integers(1, max_leaves))
    flat = [draw(st.sampled_from((2, 4, 8))) for _ in range(n)]
    while it.product(tuple(flat)) < need:
        flat.append(draw(st.sampled_from((2, 4, 8))))
    order = draw(st.permutations(range(len(flat))))
    strides = [0] * len(flat)
    cur = 1
    for k in order:
        strides[k] = cur
        cur *= flat[k]
    profile = nest_profile(draw, len(flat), 2)
    if type(profile) is not tuple:
        return ComposedLayout(sw, 0, Layout(flat[0], strides[0]))
    shape, stride = it.unflatten_tuple(tuple(flat), profile), it.unflatten_tuple(tuple(strides), profile)
    return ComposedLayout(sw, 0, Layout(shape, stride))


@st.composite
def offset_swizzled_layouts(draw: Any, max_leaves: int = 3) -> ComposedLayout:
    """``Sw<B,M,S> o offset o L`` as :func:`swizzled_layouts`, with an offset in ``[0, size(L))``
    (a slice or a ``domain_offset`` leaves one there)."""
    C = draw(swizzled_layouts(max_leaves))
    return ComposedLayout(C.outer, draw(st.integers(0, C.size() - 1)), C.inner)
