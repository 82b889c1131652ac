"""Hypothesis strategies for integer tuples, shapes and layouts (any, tiling, injective,
negative-stride), coordinates of a shape, and run-time leaves in any of them.

Part of :mod:`cutepy.strategies` (layer 4, analyses); import the strategies from there. The
first module the package loads: it says what to install when hypothesis is missing.
"""

from __future__ import annotations

from typing import Any

try:
    from hypothesis import strategies as st
except ImportError as exc:  # an ImportError (not a CutepyError): the module itself cannot load
    raise ImportError("cutepy.strategies needs hypothesis: pip install cutepy[test]") from exc

from ..algebra.composed import ComposedLayout, composed_parts
from ..core import inttuple as it
from ..core.dynamic import dynamic
from ..core.layout import Layout

__all__ = [
    "int_tuples",
    "shapes",
    "layouts",
    "injective_layouts",
    "tiling_layouts",
    "negative_stride_layouts",
    "coordinates",
    "with_dynamic_leaves",
]

_SMALL = (1, 2, 2, 3, 4, 4, 6, 8)


@st.composite
def _nest(draw: Any, leaves: list, max_depth: int) -> Any:
    """Group a flat list of leaves into a random nested tuple (depth <= max_depth)."""
    if max_depth == 0 or len(leaves) <= 1 or not draw(st.booleans()):
        return tuple(leaves)
    out: list = []
    i = 0
    while i < len(leaves):
        k = draw(st.integers(1, len(leaves) - i))
        chunk = leaves[i : i + k]
        if k > 1:
            out.append(draw(_nest(chunk, max_depth - 1)))
        else:
            out.append(chunk[0])
        i += k
    return tuple(out)


def nest_profile(draw: Any, n: int, max_depth: int) -> Any:
    """A random nesting profile with ``n`` leaves (a scalar when n == 1 and drawn so); the
    other strategies of the package nest their leaves with it (not exported)."""
    if n == 1 and draw(st.booleans()):
        return 0
    return draw(_nest([0] * n, max_depth))


def int_tuples(leaves: st.SearchStrategy | None = None, max_leaves: int = 4,
               max_depth: int = 2) -> st.SearchStrategy:
    """Nested integer tuples (or plain ints) with up to ``max_leaves`` leaves (default 1..8)."""
    leaves = st.integers(1, 8) if leaves is None else leaves

    @st.composite
    def build(draw: Any) -> Any:
        n = draw(st.integers(1, max_leaves))
        profile = nest_profile(draw, n, max_depth)
        flat = [draw(leaves) for _ in range(n)]
        return it.unflatten_tuple(flat, profile) if type(profile) is tuple else flat[0]

    return build()


def shapes(max_leaves: int = 4, max_depth: int = 2, max_size: int = 512) -> st.SearchStrategy:
    """Hierarchical shapes with small leaves and a bounded size."""
    return int_tuples(st.sampled_from(_SMALL), max_leaves, max_depth).filter(
        lambda s: it.product(s) <= max_size
    )


@st.composite
def layouts(draw: Any, max_leaves: int = 4, max_depth: int = 2, max_stride: int = 32,
            negative: bool = False) -> Layout:
    """Any layout: random shape, random strides (0 included, negatives if asked)."""
    shape = draw(shapes(max_leaves, max_depth))
    lo = -max_stride if negative else 0
    flat = [draw(st.integers(lo, max_stride)) for _ in it.flatten_tuple(shape)]
    stride = it.unflatten_tuple(flat, shape) if type(shape) is tuple else flat[0]
    return Layout(shape, stride)


@st.composite
def tiling_layouts(draw: Any, max_leaves: int = 4, max_depth: int = 2, gaps: bool = True) -> Layout:
    """Injective layouts whose sorted strides tile: each stride is a multiple of the extent of
    the modes below it (so complement completes them). Modes appear in random order."""
    n = draw(st.integers(1, max_leaves))
    flat_shape = [draw(st.sampled_from((2, 2, 3, 4, 4, 6, 8))) for _ in range(n)]
    order = draw(st.permutations(range(n)))
    strides = [0] * n
    cur = 1
    for k in order:
        g = draw(st.sampled_from((1, 1, 1, 2, 3))) if gaps else 1
        strides[k] = cur * g
        cur = cur * g * flat_shape[k]
    profile = nest_profile(draw, n, max_depth)
    if type(profile) is not tuple:
        return Layout(flat_shape[0], strides[0])
    return Layout(it.unflatten_tuple(flat_shape, profile), it.unflatten_tuple(strides, profile))


def injective_layouts(max_leaves: int = 4, max_depth: int = 2) -> st.SearchStrategy:
    """Injective layouts: distinct offsets for distinct indices."""
    return st.one_of(
        tiling_layouts(max_leaves, max_depth),
        layouts(max_leaves, max_depth).filter(_is_injective),
    )


def _is_injective(L: Layout) -> bool:
    offs = L.offsets()
    return len(set(offs.tolist())) == offs.size


@st.composite
def negative_stride_layouts(draw: Any, max_leaves: int = 4, max_depth: int = 2) -> Layout:
    """Tiling layouts with some strides negated (reversed modes): injective, C++-evaluable."""
    L = draw(tiling_layouts(max_leaves, max_depth))
    flat = it.flatten_tuple(L.stride) if type(L.stride) is tuple else (L.stride,)
    signs = [draw(st.sampled_from((1, -1))) for _ in flat]
    if all(g == 1 for g in signs):
        signs[0] = -1
    neg = tuple(d * g for d, g in zip(flat, signs))
    return Layout(L.shape, it.unflatten_tuple(neg, L.shape) if type(L.shape) is tuple else neg[0])


@st.composite
def coordinates(draw: Any, shape: Any, natural: bool = False) -> Any:
    """A coordinate of ``shape``: an index, or (always when ``natural``) a natural coordinate,
    or anything between (a coordinate of a coarser profile)."""
    if type(shape) is not tuple:
        return draw(st.integers(0, shape - 1))
    if not natural and draw(st.booleans()):
        return draw(st.integers(0, it.product(shape) - 1))
    return tuple(draw(coordinates(s, natural)) for s in shape)


@st.composite
def with_dynamic_leaves(draw: Any, x: Any) -> Any:
    """``x`` (an integer, a tuple, a layout or a swizzled layout) with a random subset of its
    integer leaves made run-time integers (:func:`cutepy.dynamic`, C++'s ``int``); the values
    stay the same, and so does every operation's result as a function, except where a run-time
    1 (size-1 mode) or 0 (zero stride) is kept as C++ keeps it, which can change it
    (``complement`` of a run-time ``1:6`` is ``(_6,1):(_1,6)``, as in C++ 4.7).

    >>> from hypothesis import given, settings
    >>> from cutepy import Layout, is_static
    >>> @settings(max_examples=5)
    ... @given(with_dynamic_leaves(Layout((4, 8))))
    ... def check(L):
    ...     assert L == Layout((4, 8))
    >>> check()
    """
    if type(x) is Layout:
        return Layout(draw(with_dynamic_leaves(x.shape)), draw(with_dynamic_leaves(x.stride)))
    if (parts := composed_parts(x)) is not None:
        return ComposedLayout(parts[0], parts[1], draw(with_dynamic_leaves(parts[2])))
    if type(x) is tuple:
        return tuple(draw(with_dynamic_leaves(y)) for y in x)
    if type(x) is int and draw(st.booleans()):
        return dynamic(x)
    return x
