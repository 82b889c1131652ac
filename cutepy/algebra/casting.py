"""``upcast``, ``downcast`` and ``recast_layout``: a layout re-expressed in wider or narrower
elements; and the compact layouts made in the image of another (``make_layout_like``,
``make_fragment_like``, ``make_ordered_layout``), as C++ CuTe builds them.

>>> from cutepy import Layout
>>> upcast(Layout((4, 8), (1, 4)), 2)
(2,8):(1,2)
>>> downcast(Layout((4, 8), (1, 4)), 2)
(8,8):(1,8)
>>> recast_layout(Layout((4, 8), (1, 4)), 16, 32)
(2,8):(1,2)
>>> make_layout_like(Layout((2, 3, 4), (20, 0, 1)))
(2,3,4):(4,0,1)
"""

from __future__ import annotations

from math import gcd
from typing import Any

from ..core import inttuple as it
from ..core.basis import ScaledBasis
from ..core.errors import AdmissibilityError, CutepyError
from ..core.kinds import DOWNCAST, MAKE_FRAGMENT_LIKE, MAKE_LAYOUT_LIKE, MAX_ALIGNMENT, UPCAST
from ..core.layout import Layout, is_static, layout_arg
from ..core.tuples import as_int, check_int_tuple
from .coalesce import coalesce
from .divides import logical_divide
from .inverse import right_inverse
from .products import tiled_product


def _int_strides(layout: Layout, fn: str) -> None:
    """Raise unless every stride of ``layout`` is an integer (not a basis element)."""
    for d in it.flatten_tuple(layout.stride):
        if isinstance(d, ScaledBasis):
            raise CutepyError(f"{fn} of {layout} needs integer strides; {d} is a basis element")


def _check_factor(n: Any, what: str) -> int:
    n = as_int(n)
    if type(n) is not int or not 1 <= n <= 1 << 63:
        raise CutepyError(f"{what}: the factor must be a positive 64-bit integer, got {it.short_repr(n)}")
    return n


def _up(s: Any, d: Any, n: int, L: Layout) -> tuple[Any, Any]:
    if type(s) is tuple:
        pairs = [_up(a, b, n, L) for a, b in zip(s, d)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if d == 0:
        return s, d
    ad = abs(d)
    if ad % n != 0 and n % ad != 0:
        raise AdmissibilityError(f"upcast of {L} by {n}: stride {d} and {n} do not divide one another "
                                 "(C++: Divisibility condition)")
    sign = 1 if d > 0 else -1
    return -(-s // -(-n // ad)), sign * -(-ad // n)


def upcast(layout: Any, n: int) -> Any:
    """Layout of ``n``-element vectors, as C++'s ``upcast<N>``.

    Per leaf: stride 0 stays; otherwise ``|d|`` and ``n`` must divide one another, the
    shape becomes ``ceil(s / ceil(n / |d|))`` and the stride ``sign(d) * ceil(|d| / n)``.
    A composed layout upcasts its swizzle (``M`` drops by ``log2 n``), offset and layout.

    Pre:  ``n`` is a positive integer (a power of two for a swizzle; else ``CutepyError``);
          each non-zero stride and ``n`` divide one another, and a composed layout's offset is a
          multiple of ``n`` (else ``AdmissibilityError``).
    Post: congruent with ``layout``, each leaf transformed as above; for a compact
          column-major ``layout`` whose size ``n`` divides, ``size(result) == size(layout) / n``.

    >>> upcast(Layout((4, 8), (1, 4)), 2)
    (2,8):(1,2)
    >>> upcast(Layout(6, -2), 4)
    3:-1
    """
    n = _check_factor(n, "upcast")
    if type(layout) is not Layout and (impl := UPCAST.of(layout)) is not None:
        return impl(layout, n)
    if type(layout) is not Layout:
        layout = layout_arg(layout, "upcast")
    _int_strides(layout, "upcast")
    s, d = _up(layout.shape, layout.stride, n, layout)
    return Layout._grown(s, d)


def _down(s: Any, d: Any, n: int) -> tuple[Any, Any]:
    if type(s) is tuple:
        pairs = [_down(a, b, n) for a, b in zip(s, d)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if d == 1 or d == -1:
        return s * n, d
    return s, d * n


def downcast(layout: Any, n: int) -> Any:
    """Layout of the ``n`` sub-elements of each element, as C++'s ``downcast<N>``.

    Stride-(+-1) leaves grow by ``n``; other strides are scaled by ``n``.

    Pre:  ``n`` is a positive integer (else ``CutepyError``); some leaf has stride 1 (C++:
          "Downcast requires adjacent elements"), else ``AdmissibilityError``.
    Post: ``size(result) == n * size(layout)`` and ``result(n * i + j) == n * layout(i) + j``
          for ``0 <= j < n`` when the stride-1 leaf comes first.

    >>> downcast(Layout((4, 8), (1, 4)), 2)
    (8,8):(1,8)
    >>> downcast(Layout((4, 8), (2, 8)), 2)
    Traceback (most recent call last):
    ...
    cutepy.AdmissibilityError: downcast of (4,8):(2,8) by 2: no mode has stride 1 \
(C++: Downcast requires adjacent elements)
    """
    n = _check_factor(n, "downcast")
    if type(layout) is not Layout and (impl := DOWNCAST.of(layout)) is not None:
        return impl(layout, n)
    if type(layout) is not Layout:
        layout = layout_arg(layout, "downcast")
    _int_strides(layout, "downcast")
    stride = layout.stride
    if 1 not in (it.flatten_tuple(stride) if type(stride) is tuple else (stride,)):
        raise AdmissibilityError(f"downcast of {layout} by {n}: no mode has stride 1 "
                                 "(C++: Downcast requires adjacent elements)")
    s, d = _down(layout.shape, stride, n)
    return Layout._grown(s, d)


def recast_layout(layout: Any, old_bits: int, new_bits: int) -> Any:
    """The layout of the same memory seen as ``new_bits``-wide elements instead of ``old_bits``.

    C++'s ``recast_layout<OldType, NewType>(layout)``: with ``new/old = num/den`` in lowest
    terms, ``downcast(den)`` after ``upcast(num)`` (either step skipped when it is 1). The CuTe
    DSL's order, ``recast_layout(new_type_bits, old_type_bits, src_layout)``, is read too: a
    layout is never an int, so the two orders cannot be confused.

    Pre:  ``old_bits`` and ``new_bits`` are positive integers (else ``CutepyError``); the
          layout meets :func:`upcast`'s and :func:`downcast`'s conditions for the two factors.
    Post: the result addresses the same bits: ``size(result) * new_bits == size(layout) * old_bits``
          for a compact ``layout``.

    >>> recast_layout(Layout((4, 8), (1, 4)), 32, 8)
    (16,8):(1,16)
    >>> recast_layout(8, 32, Layout((4, 8), (1, 4)))  # the CuTe DSL's order
    (16,8):(1,16)
    """
    if isinstance(layout, int) and not isinstance(new_bits, int):  # DSL: (new, old, layout)
        layout, old_bits, new_bits = new_bits, old_bits, layout
    old_bits, new_bits = as_int(old_bits), as_int(new_bits)
    for what, b in (("old_bits", old_bits), ("new_bits", new_bits)):
        if type(b) is not int or b < 1:
            raise CutepyError(f"recast_layout: {what} must be a positive integer, got {b!r}")
    g = gcd(old_bits, new_bits)
    num, den = new_bits // g, old_bits // g
    if num != 1:
        layout = upcast(layout, num)
    if den != 1:
        layout = downcast(layout, den)
    return layout


def make_layout_like(layout: Layout) -> Layout:
    """A compact layout with ``layout``'s shape, strides in the same order; stride-0 leaves stay 0.

    C++: ``make_layout(shape, compact_order(filter_zeros(stride, shape), stride))`` (equal
    strides start at the same place; size-1 leaves get stride 0).

    Pre:  ``layout`` is a Layout with integer strides.
    Post: ``shape(result) == shape(layout)`` and the result orders its strides like
          ``layout``'s; with distinct non-zero strides it is compact (a bijection onto
          ``[0, size(layout) / size(nullspace(layout)))``).

    >>> make_layout_like(Layout((2, 3, 4), (20, 0, 1)))
    (2,3,4):(4,0,1)
    """
    if type(layout) is not Layout and (impl := MAKE_LAYOUT_LIKE.of(layout)) is not None:
        return impl(layout)
    if type(layout) is not Layout:
        layout = layout_arg(layout, "make_layout_like")
    _int_strides(layout, "make_layout_like")
    shape, stride = layout.shape, layout.stride
    return Layout._grown(shape, it.compact_order_tuple(it.filter_zeros_tuple(stride, shape), stride))


def make_ordered_layout(shape: Any, order: Any = None) -> Layout:
    """A compact layout whose strides grow in ``order`` (C++'s ``make_ordered_layout``).

    Pre:  ``shape`` is a shape; ``order`` (default column-major) is congruent with it
          (else ``CutepyError``).
    Post: ``shape(result) == shape``; the result is compact and the leaf with the ``k``-th
          smallest ``order`` gets the ``k``-th smallest non-zero stride (size-1 leaves get 0).

    >>> make_ordered_layout((2, 3, 4), (1, 2, 0))
    (2,3,4):(4,8,1)
    >>> make_ordered_layout((2, 1, 4), (1, 2, 0))
    (2,1,4):(4,0,1)
    """
    shape = Layout(shape).shape
    if order is None:
        return Layout._grown(shape, it.compact_major(shape))
    order = as_int(order)
    check_int_tuple(order, "make_ordered_layout", 2)
    return Layout._grown(shape, it.compact_order_tuple(shape, order))


def basis_as_int(L: Layout) -> Layout:
    """A coordinate layout's basis strides ``c@i`` as distinct integers ``c * W**rank(i)`` (``W``
    past every coordinate it reaches), so that a fragment shaped like it is compact: each value
    gets its own register, the modes ordered by coordinate mode, then by stride.

    Pre:  ``L`` is a Layout (integer and basis strides).
    Post: ``shape(result) == shape(L)``; integer strides unchanged; distinct basis leaves give
          distinct integers, ordered by coordinate mode first.

    >>> from cutepy import make_identity_layout
    >>> basis_as_int(make_identity_layout((4, 2)))
    (4,2):(5,25)
    """
    leaves = list(zip(it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)))
    paths = sorted({d.mode for _, d in leaves if isinstance(d, ScaledBasis)})
    w = 1 + sum(abs(d.value if isinstance(d, ScaledBasis) else d) * (s - 1) for s, d in leaves)
    rank = {p: i + 1 for i, p in enumerate(paths)}

    def conv(d: Any) -> Any:
        return d.value * w ** rank[d.mode] if isinstance(d, ScaledBasis) else d

    return Layout(L.shape, it.transform_leaf(conv, L.stride))


def make_fragment_like(layout: Any, dtype: Any = None) -> Layout:
    """A compact layout like ``layout`` whose mode 0 is column-major (C++'s ``make_fragment_like``).

    Mode 0 keeps its stride-0 leaves and is otherwise LayoutLeft; the other modes follow
    ``layout``'s stride order; the two are joined by ``tiled_product``. A rank-1 layout
    gives the compact column-major layout of its shape. A swizzled layout gives the fragment of
    the layout under its swizzle; a tensor a fresh zeroed register tensor over the fragment, of
    ``dtype`` (the DSL's ``make_fragment_like(src, dtype)``; default the tensor's). A coordinate
    layout's basis strides each get their own registers (:func:`basis_as_int`), so no two values
    of a fragment of an identity tensor alias.

    Pre:  ``layout`` is a layout (plain or swizzled), a shape or a tensor; ``dtype`` only with a
          tensor (else ``CutepyError``).
    Post: ``shape(result) == shape(layout)``; the result is compact once its stride-0 modes are
          filtered (``cosize(filter(result)) == size(filter(result))``).

    >>> make_fragment_like(Layout((4, 3, 2), (3, 0, 12)))
    (4,3,2):(1,4,12)
    """
    if type(layout) is not Layout and (impl := MAKE_FRAGMENT_LIKE.of(layout)) is not None:
        return impl(layout) if dtype is None else impl(layout, dtype)
    if dtype is not None:
        raise CutepyError(f"make_fragment_like: a dtype makes a register tensor; pass a tensor, not {layout}")
    if type(layout) is not Layout:
        return Layout._grown(Layout(layout).shape, it.compact_major(Layout(layout).shape))
    shape, stride = layout.shape, layout.stride
    leaves = it.flatten_tuple(stride) if type(stride) is tuple else (stride,)
    if any(isinstance(d, ScaledBasis) for d in leaves):
        stride = basis_as_int(layout).stride  # a coordinate layout: one register per value
    if type(shape) is not tuple or len(shape) < 2 or not is_static(shape):  # as C++: a run-time
        return Layout._grown(shape, it.compact_major(shape))  # shape gives the compact layout
    mode0 = Layout._new(shape[0], it.compact_major(it.filter_zeros_tuple(stride[0], shape[0])))
    rest = Layout._new(shape[1:], it.compact_order_tuple(shape[1:], stride[1:]))
    return tiled_product(mode0, rest)


def cxx_gcd(t: Any, u: Any) -> Any:
    """C++ CuTe's ``gcd`` on integers, remainders truncated toward zero: the sign of the result
    follows C++'s loop (``gcd(4, -6) == -2``), as C++ answers with negative strides."""
    while True:
        if t == 0:
            return u
        u = it.tdivmod(u, t)[1]
        if u == 0:
            return t
        t = it.tdivmod(t, u)[1]


def cxx_gcd_all(x: Any) -> Any:
    """C++'s ``gcd`` of an IntTuple: a right fold over its modes (``gcd(a, gcd(b, c))``)."""
    if type(x) is not tuple:
        return x
    vals = [cxx_gcd_all(v) for v in x]
    acc = vals[-1]
    for v in reversed(vals[:-1]):
        acc = cxx_gcd(v, acc)
    return acc


def max_alignment(layout: Any) -> Any:
    """The largest ``N`` for which C++'s ``upcast<N>(layout)`` compiles (C++'s ``max_alignment``).

    For a Layout, as C++: ``F = coalesce(layout)`` with every non-integer (symbolic, C++'s
    dynamic) shape taken as 1 and stride as 0; ``P = logical_divide(F, right_inverse(F))``;
    the answer is ``gcd(size(P[0]), stride(P[1]))``: the contiguous run, cut to a divisor of
    every other stride. A swizzle ``Sw<B,M,S>`` gives ``2**M``; ``Sw o offset o L`` gives
    ``gcd(2**M, offset, max_alignment(L))``; any other composed layout 1. Where C++'s
    truncating ``gcd`` of negative strides answers a negative number (``(4,8):(1,-6)`` gives
    ``-2``), cutepy raises ``AdmissibilityError``.

    Pre:  ``layout`` is a Layout with integer (not basis) strides, a Swizzle or a composed
          layout (else ``CutepyError``); C++'s answer is positive (else ``AdmissibilityError``).
    Post: ``result >= 1``; for a Layout with positive strides it divides the size of its
          contiguous (stride-1) run and every other stride of ``coalesce(layout)``.

    >>> max_alignment(Layout((4, 8), (1, 4))), max_alignment(Layout((4, 8), (1, 8)))
    (32, 4)
    >>> from cutepy import ComposedLayout, Swizzle
    >>> max_alignment(ComposedLayout(Swizzle(3, 4, 3), 8, Layout((8, 64), (64, 1))))
    8
    """
    if type(layout) is not Layout and (impl := MAX_ALIGNMENT.of(layout)) is not None:
        return impl(layout)
    if type(layout) is not Layout:
        layout = layout_arg(layout, "max_alignment")
    _int_strides(layout, "max_alignment")
    flat = coalesce(layout)
    fs = flat.shape if type(flat.shape) is tuple else (flat.shape,)
    fd = flat.stride if type(flat.stride) is tuple else (flat.stride,)
    static_s = tuple(s if type(s) is int else 1 for s in fs)
    static_d = tuple(d if type(d) is int else 0 for d in fd)
    F = Layout(static_s, static_d) if len(fs) > 1 else Layout(static_s[0], static_d[0])
    P = logical_divide(F, right_inverse(F))
    n = cxx_gcd(P[0].size(), cxx_gcd_all(P[1].stride))
    if n < 1:  # C++'s truncating gcd of negative strides: no alignment is negative
        raise AdmissibilityError(f"max_alignment of {layout}: C++ answers {n} (its gcd keeps the sign of a "
                                 "negative stride); an alignment is a positive element count")
    return n

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "downcast", "make_fragment_like", "make_layout_like", "make_ordered_layout", "max_alignment",
    "recast_layout", "upcast",
]
