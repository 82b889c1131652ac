"""Hypothesis strategies that generate layouts, for cutepy's own tests and for yours.

Requires ``hypothesis`` (installed with the ``test`` extra). Every strategy yields
plain-integer :class:`~cutepy.Layout` objects (or pairs) small enough to check
exhaustively.

>>> from hypothesis import given, settings
>>> from cutepy import composition
>>> from cutepy.strategies import composable_pairs
>>> @settings(deadline=None, max_examples=50)
... @given(composable_pairs())
... def test_composition(pair):
...     A, B = pair
...     R = composition(A, B)
...     assert all(R(i) == A(B(i)) for i in range(B.size()))
>>> test_composition()
"""

from __future__ import annotations

from typing import Any

try:
    from hypothesis import strategies as st
except ImportError as exc:  # an ImportError (not a CutepyError): the module itself cannot load
    raise ImportError("cutepy.strategies needs hypothesis: pip install cutepy[test]") from exc

from .algebra.complement import complement
from .algebra.composition import is_admissible
from .algebra.swizzle import ComposedLayout, Swizzle, composed_parts
from .core import inttuple as it
from .core.dynamic import dynamic
from .core.errors import CutepyError
from .core.layout import Layout

__all__ = [
    "int_tuples",
    "shapes",
    "layouts",
    "injective_layouts",
    "tiling_layouts",
    "composable_pairs",
    "divisible_pairs",
    "complementable_pairs",
    "swizzles",
    "negative_stride_layouts",
    "swizzled_layouts",
    "offset_swizzled_layouts",
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


def _profile_like(draw: Any, n: int, max_depth: int) -> Any:
    """A random nesting profile with ``n`` leaves (a scalar when n == 1 and drawn so)."""
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
        profile = _profile_like(draw, n, max_depth)
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
    profile = _profile_like(draw, n, max_depth)
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


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def _aligned_layout(draw: Any, A: Layout, max_leaves: int = 3) -> Layout:
    """A layout whose strides and shapes come from A's mode extents, so that it is
    likely (not certain) to compose admissibly with A."""
    fs = it.flatten_tuple(A.shape) if type(A.shape) is tuple else (A.shape,)
    prefix = [1]
    for s in fs:
        prefix.append(prefix[-1] * s)
    n = draw(st.integers(1, max_leaves))
    shape, stride = [], []
    for _ in range(n):
        k = draw(st.integers(0, len(fs)))
        base = prefix[k]
        d = base * draw(st.sampled_from(_divisors(fs[k]) if k < len(fs) else (1, 2)))
        s = draw(st.sampled_from(_divisors(fs[k]) if k < len(fs) else (1, 2, 3)))
        shape.append(s)
        stride.append(draw(st.sampled_from((d, d, d, 0))))
    profile = _profile_like(draw, n, 1)
    if type(profile) is not tuple:
        return Layout(shape[0], stride[0])
    return Layout(it.unflatten_tuple(shape, profile), it.unflatten_tuple(stride, profile))


@st.composite
def composable_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, Layout]:
    """``(A, B)`` such that ``composition(A, B)`` is admissible."""
    A = draw(layouts(max_leaves))
    B = draw(st.one_of(_aligned_layout(A), layouts(3)).filter(lambda B: is_admissible(A, B)))
    return A, B


@st.composite
def divisible_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, Layout]:
    """``(A, T)`` such that ``logical_divide(A, T)`` (and the other divides) are defined:
    T is a tiling layout and the composition with ``(T, complement(T, size(A)))`` is admissible."""
    A = draw(layouts(max_leaves))
    T = draw(tiling_layouts(2, 1).filter(lambda T: _divides_ok(A, T)))
    return A, T


def _divides_ok(A: Layout, T: Layout) -> bool:
    try:
        C = complement(T, A.size())
    except CutepyError:
        return False
    return is_admissible(A, Layout._new((T.shape, C.shape), (T.stride, C.stride)))


@st.composite
def complementable_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, int]:
    """``(A, M)``: a tiling layout and a cotarget at least its cosize."""
    A = draw(tiling_layouts(max_leaves))
    M = A.cosize() * draw(st.integers(1, 4)) + draw(st.sampled_from((0, 0, 1, 3)))
    return A, M


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
    profile = _profile_like(draw, len(flat), 2)
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
