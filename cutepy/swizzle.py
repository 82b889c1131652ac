"""Swizzles and composed layouts: ``Sw<B,M,S> o offset o layout``.

``Swizzle(B, M, S)`` XORs the ``B`` bits starting at bit ``M + S`` into the ``B`` bits
starting at bit ``M`` (a negative ``S`` shifts the other way). It is how shared-memory
tiles avoid bank conflicts.

>>> from cutepy import Layout, composition
>>> sw = Swizzle(3, 4, 3)
>>> sw(0b1110000000), sw(0b0000010000)
(1008, 16)
>>> C = composition(sw, Layout((8, 8), (8, 1)))
>>> print(C)
Sw<3,4,3> o 0 o (8,8):(8,1)
>>> C(1, 2), C.size()
(10, 64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import CutepyError
from .layout import Layout, as_layout

#: C++ keeps a swizzle's masks in a 32-bit int: ``B + M + |S|`` must stay below its sign bit.
MAX_SWIZZLE_BITS = 31


class Swizzle:
    """CuTe's ``Swizzle<B, M, S>``: ``offset ^ ((offset & yyy_mask) >> S)``."""

    __slots__ = ("bits", "base", "shift", "yyy_mask", "zzz_mask")

    def __init__(self, bits: int, base: int, shift: int | None = None):
        shift = bits if shift is None else shift
        for name, v in (("B", bits), ("M", base), ("S", shift)):
            if type(v) is not int:
                raise CutepyError(f"Swizzle {name} must be an integer, got {v!r}")
        if bits < 0 or base < 0:
            raise CutepyError(f"Swizzle<{bits},{base},{shift}>: B and M must be non-negative")
        if abs(shift) < bits:
            raise CutepyError(f"Swizzle<{bits},{base},{shift}>: |S| must be at least B")
        if bits + base + abs(shift) > MAX_SWIZZLE_BITS:
            raise CutepyError(f"Swizzle<{bits},{base},{shift}>: B + M + |S| = {bits + base + abs(shift)} "
                              f"bits; C++'s 32-bit masks allow at most {MAX_SWIZZLE_BITS}")
        self.bits, self.base, self.shift = bits, base, shift
        msk = (1 << bits) - 1
        self.yyy_mask = msk << (base + max(0, shift))
        self.zzz_mask = msk << (base - min(0, shift))

    def __call__(self, offset: Any) -> Any:
        """Apply to an int or to a numpy integer array."""
        y = offset & self.yyy_mask
        if self.shift >= 0:
            return offset ^ (y >> self.shift)
        return offset ^ (y << -self.shift)

    apply = __call__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swizzle) and (self.bits, self.base, self.shift) == (
            other.bits,
            other.base,
            other.shift,
        )

    def __hash__(self) -> int:
        return hash((Swizzle, self.bits, self.base, self.shift))

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"

    __repr__ = __str__

    def compose(self, B: Any) -> Any:
        """``Sw o B``: a composed layout with offset 0 (``B`` itself when the swizzle has no bits, as C++)."""
        if self.bits == 0 and isinstance(B, Layout):
            return B
        return ComposedLayout(self, 0, _as_inner(B))


def _as_inner(B: Any) -> Any:
    if isinstance(B, (ComposedLayout, Layout)):
        return B
    if type(B) is int:
        return Layout(B)
    if isinstance(B, (tuple, str)):
        return as_layout(B)
    raise CutepyError(f"cannot compose a swizzle with {B!r}")


class ComposedLayout:
    """``outer o offset o inner``: evaluates ``outer(offset + inner(c))``.

    ``outer`` is a :class:`Swizzle`, a :class:`Layout` or another composed layout;
    ``inner`` is a :class:`Layout` (or composed layout) and gives the domain.
    """

    __slots__ = ("outer", "offset", "inner")

    def __init__(self, outer: Any, offset: Any, inner: Any):
        if not isinstance(outer, (Swizzle, Layout, ComposedLayout)):
            raise CutepyError(f"ComposedLayout: {outer!r} cannot be the outer function")
        if not isinstance(inner, (Layout, ComposedLayout)):
            raise CutepyError(f"ComposedLayout: {inner!r} is not a layout")
        self.outer, self.offset, self.inner = outer, offset, inner

    # domain queries come from the inner layout
    @property
    def shape(self) -> Any:
        return self.inner.shape

    def size(self) -> Any:
        return self.inner.size()

    def rank(self) -> int:
        return self.inner.rank()

    def depth(self) -> int:
        return self.inner.depth()

    def cosize(self) -> Any:
        """As C++: a swizzle permutes within aligned blocks, so the cosize is the inner layout's."""
        if isinstance(self.outer, Swizzle):
            return self.inner.cosize()
        return int(self.offsets().max()) + 1

    def __call__(self, *args: Any) -> Any:
        crd = args[0] if len(args) == 1 else args
        from .layout import _has_none, slice_and_offset

        if _has_none(crd) and isinstance(self.outer, Swizzle) and isinstance(self.inner, Layout):
            # C++'s swizzle slice folds the swizzle into strides where it can; the algebra
            # layer holds it (a lazy import: this layer sits below the algebra)
            from .composition import slice_and_offset_swizzled

            return slice_and_offset_swizzled(crd, self)[0]
        if _has_none(crd):
            if not isinstance(self.inner, Layout):
                raise CutepyError("slicing a doubly composed layout is not supported")
            sub, off = slice_and_offset(crd, self.inner)
            return ComposedLayout(self.outer, self.offset + off, sub)
        return self.outer(self.offset + self.inner(*args))

    def __getitem__(self, i: int) -> ComposedLayout:
        return ComposedLayout(self.outer, self.offset, self.inner[i])

    def offsets(self, indices: Any = None) -> np.ndarray:
        """Every offset of the domain (or of given indices) as int64, vectorized."""
        inner = self.inner.offsets(indices) + self.offset
        if isinstance(self.outer, Swizzle):
            return self.outer(inner)
        return self.outer.offsets(inner)

    def compose(self, B: Any) -> ComposedLayout:
        """``(outer o offset o inner) o B == outer o offset o (inner o B)``."""
        from .composition import composition

        return ComposedLayout(self.outer, self.offset, composition(self.inner, B))

    def compose_left(self, A: Layout) -> ComposedLayout:
        """``A o (this)``: a composed layout with ``A`` outermost."""
        return ComposedLayout(A, 0, self)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ComposedLayout)
            and self.outer == other.outer
            and self.offset == other.offset
            and self.inner == other.inner
        )

    def __hash__(self) -> int:
        return hash((ComposedLayout, self.outer, self.offset, self.inner))

    def __str__(self) -> str:
        inner = f"({self.inner})" if isinstance(self.inner, ComposedLayout) else str(self.inner)
        return f"{self.outer} o {self.offset} o {inner}"

    __repr__ = __str__

    def _repr_svg_(self) -> str | None:
        try:
            from .viz import layout_svg
        except ImportError:
            return None
        try:
            return layout_svg(self)
        except CutepyError:
            return None


def make_composed_layout(outer: Any, offset: Any, inner: Any) -> ComposedLayout:
    """CuTe's ``make_composed_layout(outer, offset, inner)``."""
    return ComposedLayout(outer, offset, _as_inner(inner))


def get_swizzle_portion(layout: Any) -> Swizzle:
    """The swizzle of ``Sw o offset o L``; a plain Layout's is the identity ``Sw<0,4,3>`` (as C++).

    >>> get_swizzle_portion(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 8), (8, 1))))
    Sw<3,3,3>
    """
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return layout.outer
    if isinstance(layout, Layout):
        return Swizzle(0, 4, 3)
    raise CutepyError(f"get_swizzle_portion: {layout!r} is not a layout or a swizzled layout")


def get_nonswizzle_portion(layout: Any) -> Any:
    """The layout under the swizzle of ``Sw o offset o L`` (``L``); a plain Layout is its own.

    >>> get_nonswizzle_portion(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 8), (8, 1))))
    (8,8):(8,1)
    """
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return layout.inner
    if isinstance(layout, Layout):
        return layout
    raise CutepyError(f"get_nonswizzle_portion: {layout!r} is not a layout or a swizzled layout")
