"""Swizzles and composed layouts: ``Sw<B,M,S> o offset o layout``.

This module is the top of the algebra: a composed layout implements each operation as a
method (``_coalesce``, ``_logical_divide``, ...), mostly by applying it to the layout under
its outer function, as C++'s overloads do; the public operations hand it their work through
:func:`cutepy.core.layout.own`, so no other module asks whether a layout is composed.

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

from typing import TYPE_CHECKING, Any

from ..core import inttuple as it
from ..core.dynamic import DynamicInt, static_eq
from ..core.errors import AdmissibilityError, CutepyError, LayoutError, SymbolicError
from ..core.layout import (
    MAX_LEAF,
    Layout,
    _fill_none,
    _has_none,
    _leaf,
    _wide,
    append,
    as_layout,
    dice,
    flatten,
    get,
    group,
    is_static,
    slice_and_offset,
    take,
)
from ..core.tuples import as_int
from .casting import cxx_gcd as _cxx_gcd
from .casting import downcast, make_fragment_like, make_layout_like, max_alignment, upcast
from .coalesce import coalesce, filter
from .complement import complement
from .composition import coalesce_x, composition
from .divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from .inverse import (
    MAX_INVERSE_CHECK,
    left_inverse,
    max_common_layout,
    max_common_vector,
    right_inverse,
)
from .products import (
    MAX_PRODUCT_CHECK,
    blocked_product,
    flat_product,
    logical_product,
    raked_product,
    tile_to_shape,
    tiled_product,
    zipped_product,
)

if TYPE_CHECKING:  # numpy is imported only where offsets are computed
    import numpy as np

#: C++ keeps a swizzle's masks in a 32-bit int: ``B + M + |S|`` must stay below its sign bit.
MAX_SWIZZLE_BITS = 31


class Swizzle:
    """CuTe's ``Swizzle<B, M, S>``: ``offset ^ ((offset & yyy_mask) >> S)``.

    >>> sw = Swizzle(2, 0, 2)
    >>> sw, [sw(i) for i in range(16)]
    (Sw<2,0,2>, [0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12])
    """

    __slots__ = ("bits", "base", "shift", "yyy_mask", "zzz_mask")

    def __init__(self, bits: int, base: int, shift: int | None = None):
        shift = bits if shift is None else shift
        for name, v in (("B", bits), ("M", base), ("S", shift)):
            if type(v) is not int:
                raise CutepyError(f"Swizzle {name} must be an integer, got {it.short_repr(v)}")
            if not -MAX_SWIZZLE_BITS <= v <= MAX_SWIZZLE_BITS:
                raise CutepyError(f"Swizzle {name} = {it.short_repr(v)}: C++'s 32-bit masks allow "
                                  f"B + M + |S| <= {MAX_SWIZZLE_BITS}")
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

    def __reduce__(self):
        return (Swizzle, (self.bits, self.base, self.shift))

    __repr__ = __str__

    def _composition(self, B: Any) -> Any:
        """``Sw o B``: a composed layout with offset 0 (``B`` itself when the swizzle has no bits, as C++);
        ``Sw o Sw'`` is one swizzle (see :func:`compose_swizzles`)."""
        if isinstance(B, Swizzle):
            return compose_swizzles(self, B)
        if self.bits == 0 and isinstance(B, Layout):
            return B
        return ComposedLayout(self, 0, _as_inner(B))

    compose = _composition  # ``sw.compose(L)``: the method spelling of ``composition(sw, L)``

    def _rcomposition(self, A: Layout) -> Any:
        """``A o Sw`` as C++: A moves the swizzle's bits (``make_swizzle(A(Y), A(Z))``)."""
        return _compose_swizzle_right(A, self)

    def _upcast(self, n: int) -> Swizzle:
        """C++'s ``upcast<N>(Sw<B,M,S>)``: ``M`` drops by ``log2 N``; bits below 0 are lost."""
        m = self.base - _pow2_log(n, "upcast")
        if m >= 0:
            return Swizzle(self.bits, m, self.shift)
        return Swizzle(max(self.bits + m, 0), 0, self.shift)

    def _downcast(self, n: int) -> Swizzle:
        """C++'s ``downcast<N>(Sw<B,M,S>)``: ``M`` grows by ``log2 N``."""
        return Swizzle(self.bits, self.base + _pow2_log(n, "downcast"), self.shift)

    def _max_alignment(self) -> int:
        """C++'s ``max_alignment(Sw<B,M,S>)``: ``2**M``, the runs the swizzle leaves alone."""
        return 1 << self.base

    def make_layout(self) -> Any:
        """C++'s ``make_layout(Sw<B,M,S>)``: ``Sw o 0 o (M+B+|S|):1`` (what ``cutepy.make_layout(sw)``
        returns).

        C++ writes the bit count ``M + B + |S|`` where the size ``2**(M+B+|S|)`` might be expected;
        cutepy gives what C++ gives. A swizzle without bits gives the plain layout.

        Pre:  not ``Sw<0,0,0>`` (C++'s ``0:1`` has no elements; ``CutepyError``).
        Post: ``result(i) == self(i)`` for ``0 <= i < M + B + |S|``.

        >>> Swizzle(3, 4, 3).make_layout()
        Sw<3,4,3> o 0 o 10:1
        """
        n = self.base + self.bits + abs(self.shift)
        if n == 0:
            raise CutepyError("make_layout(Sw<0,0,0>): C++ gives the 0-element layout 0:1; a cutepy "
                              "layout has at least one element")
        return _with_swizzle(self, Layout(n, 1))


class SmemPtrFlag(int):
    """C++'s ``smem_ptr_flag_bits<B>``: the offset slot of ``Sw<B,M,S> o smem_ptr[Bb](unset) o L``.

    It stands for a shared-memory pointer to ``B``-bit elements that is not set yet: the
    swizzle acts on the *byte* addresses of that pointer (``make_tensor(smem_ptr(T), layout)``
    moves it onto the pointer). As a number it is C++'s ``Int<0>``; it equals only a flag
    of the same width, so ``Sw o smem_ptr[16b](unset) o L`` and ``Sw o 0 o L`` differ.

    >>> f = SmemPtrFlag(16)
    >>> f, f + 3, f == 0, f == SmemPtrFlag(16)
    (smem_ptr[16b](unset), 3, False, True)
    """

    bits: int

    def __new__(cls, bits: int) -> SmemPtrFlag:
        if type(bits) is not int or bits < 1 or bits & (bits - 1):
            raise CutepyError(f"smem_ptr[{bits!r}b]: the element width must be a power of two of bits")
        obj = super().__new__(cls, 0)
        obj.bits = bits
        return obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SmemPtrFlag) and other.bits == self.bits

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((SmemPtrFlag, self.bits))

    def __str__(self) -> str:
        return f"smem_ptr[{self.bits}b](unset)"

    __repr__ = __str__

    def __reduce__(self) -> tuple:
        return (SmemPtrFlag, (self.bits,))


def is_ptr_flag(x: Any) -> bool:
    """Whether ``x`` is the offset slot ``smem_ptr[Bb](unset)`` of a pointer-flag swizzled layout."""
    return isinstance(x, SmemPtrFlag)


def _pow2_log(n: int, what: str) -> int:
    """``log2 n`` for the power of two ``n`` a swizzle is up- or downcast by (else ``CutepyError``)."""
    if n & (n - 1):
        raise CutepyError(f"{what} of a swizzle: {n} is not a power of two")
    return n.bit_length() - 1


def _on_inner(op: Any) -> Any:
    """The method applying ``op`` to the layout under the outer function, outer and offset kept:
    C++'s overloads for a composed layout, ``composition(layout_a(), offset(), op(layout_b()))``."""

    def method(self: ComposedLayout, *args: Any) -> Any:
        return _compose3(self.outer, self.offset, op(self._domain(), *args))

    method.__name__ = method.__qualname__ = f"_{op.__name__}"
    method.__doc__ = f"``{op.__name__}`` of the layout under the swizzle (as C++)."
    return method


def _compose3(outer: Any, offset: Any, inner: Any) -> Any:
    """C++'s ``composition(layout_a, offset, layout_b)``, which every operation on a composed
    layout builds its result with: ``outer o offset o inner``, or ``inner`` itself where the
    outer function is a swizzle without bits and the offset is 0 (C++ drops ``Sw<0,M,S>``)."""
    if isinstance(outer, Swizzle) and outer.bits == 0 and offset == 0 and type(inner) is Layout:
        return inner
    return ComposedLayout(outer, offset, inner)


def _as_inner(B: Any) -> Any:
    if isinstance(B, (ComposedLayout, Layout)):
        return B
    if type(B) is int:
        return Layout(B)
    if isinstance(B, tuple):
        return as_layout(B)
    raise CutepyError(f"cannot compose a swizzle with {B!r}")


def _offset_arg(offset: Any) -> Any:
    """A composed layout's offset checked as a stride is: an integer within 64 bits (numpy's
    become ``int``), a symbolic integer, a basis element, or a tuple of them (a coordinate offset
    of a basis-strided layout)."""
    if isinstance(offset, int) and type(offset) is not bool and -MAX_LEAF <= offset <= MAX_LEAF:
        return offset  # an int subclass is kept as it is (SmemPtrFlag: C++'s smem_ptr_flag_bits)
    if isinstance(offset, tuple):
        for x in offset:
            _offset_arg(x)
        if _wide(offset) is not None:
            raise LayoutError(f"ComposedLayout: the offset {it.short_repr(offset)} has a leaf beyond "
                              f"64 bits (|leaf| <= {MAX_LEAF}), as in C++ CuTe")
        return offset
    try:
        return _leaf(offset, "the offset", False)
    except LayoutError as e:
        raise LayoutError(f"ComposedLayout: {e}") from None


class ComposedLayout:
    """``outer o offset o inner``: evaluates ``outer(offset + inner(c))``.

    ``outer`` is a :class:`Swizzle`, a :class:`Layout` or another composed layout;
    ``inner`` is a :class:`Layout` (or composed layout) and gives the domain. As in C++,
    ``inner`` may also be a bare :class:`Swizzle` (the inverse of a swizzled layout with an
    offset is ``inverse(L) o -offset o Sw``): such a composed layout is a function of an
    index with no domain of its own, so it evaluates at an index but has no shape or size.

    >>> C = ComposedLayout(Swizzle(1, 0, 1), 0, Layout((2, 2), (2, 1)))
    >>> C, [C(i) for i in range(4)]
    (Sw<1,0,1> o 0 o (2,2):(2,1), [0, 3, 1, 2])
    """

    __slots__ = ("outer", "offset", "inner")

    def __init__(self, outer: Any, offset: Any, inner: Any):
        if not isinstance(outer, (Swizzle, Layout, ComposedLayout)):
            raise CutepyError(f"ComposedLayout: {outer!r} cannot be the outer function")
        if not isinstance(inner, (Layout, ComposedLayout, Swizzle)):
            raise CutepyError(f"ComposedLayout: {inner!r} is not a layout")
        if type(offset) is not int or not -MAX_LEAF <= offset <= MAX_LEAF:
            offset = _offset_arg(offset)
        self.outer, self.offset, self.inner = outer, offset, inner

    def _domain(self) -> Any:
        """The inner layout, which gives the domain (a bare swizzle inside has none)."""
        if isinstance(self.inner, Swizzle):
            raise CutepyError(f"{self} has no domain (a swizzle is innermost): it has no shape or size, "
                              "evaluate it at an index")
        return self.inner

    # domain queries come from the inner layout
    @property
    def shape(self) -> Any:
        return self._domain().shape

    def size(self) -> Any:
        return self._domain().size()

    def rank(self) -> int:
        return self._domain().rank()

    def depth(self) -> int:
        return self._domain().depth()

    def cosize(self) -> Any:
        """As C++: a swizzle permutes within aligned blocks, so the cosize is the inner layout's."""
        self._domain()
        if isinstance(self.outer, Swizzle):
            return self.inner.cosize()
        return int(self.offsets().max()) + 1

    def __call__(self, *args: Any) -> Any:
        crd = args[0] if len(args) == 1 else args
        if isinstance(self.inner, Swizzle):
            if len(args) != 1 or not it.is_integer(crd) or isinstance(crd, bool):
                raise CutepyError(f"{self} is evaluated at an integer index, not at {it.short_repr(crd)}")
            return self.outer(self.offset + self.inner(crd))
        if _has_none(crd):
            return self.slice_and_offset(crd)[0]
        return self.outer(self.offset + self.inner(*args))

    def slice_and_offset(self, crd: Any) -> tuple[Any, Any]:
        """C++'s ``slice_and_offset(crd, outer o offset o inner)``: the free part and the offset.

        Pre:  ``crd`` as for :func:`cutepy.core.layout.slice_and_offset` over ``inner``'s shape.
        Post: ``self(c) == offset + sub(c')``, ``c'`` the wildcard positions of ``c``.

        >>> ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1))).slice_and_offset((3, None))
        (((4,2)):((-1,4)), 27)
        """
        if not isinstance(self.inner, Layout):
            raise CutepyError("slicing a doubly composed layout is not supported")
        if isinstance(self.offset, SmemPtrFlag):  # C++ never folds the swizzle of a flagged layout
            sub, off = slice_and_offset(crd, self.inner)
            if not _has_none(crd):
                return sub, self(crd)
            # C++ 4.7 keeps the flag for a static 0 offset only; any other offset (a run-time 0
            # too) takes the flag's place: Sw o off o sub, the swizzle then on element offsets
            return ComposedLayout(self.outer, self.offset if static_eq(off, 0) else off, sub), 0
        if isinstance(self.outer, Swizzle):  # C++ folds the swizzle into strides where it can
            return slice_and_offset_swizzled(crd, self)
        sub, off = slice_and_offset(crd, self.inner)
        return ComposedLayout(self.outer, self.offset + off, sub), 0

    def __getitem__(self, i: int) -> ComposedLayout:
        return ComposedLayout(self.outer, self.offset, self._domain()[i])

    def offsets(self, indices: Any = None, *, max_elements: int | None = None) -> np.ndarray:
        """Every offset of the domain (or of given indices) as int64, vectorized and in place
        (:func:`cutepy.core.evaluate.composed_offsets`, with its limits)."""
        if isinstance(self.inner, Swizzle):
            return self._offsets_without_domain(indices)
        from ..core import evaluate  # lazy: whole-domain evaluation loads numpy

        return evaluate.composed_offsets(self, self.outer, self.offset, self.inner, indices, max_elements)

    _offsets = offsets  # what cutepy.core.evaluate.offsets hands a composed layout to

    def _offsets_without_domain(self, indices: Any) -> np.ndarray:
        """``outer(offset + Sw(i))`` at given indices; a Layout outside is evaluated as C++ does
        at a negative index (truncating division: ``L(-k) == -L(k)``)."""
        if indices is None:
            raise CutepyError(f"{self} has no domain (a swizzle is innermost): pass the indices")
        import numpy as np  # lazy: only array evaluation needs numpy

        idx = np.asarray(indices)
        if idx.dtype.kind not in "iu":
            raise CutepyError(f"indices of {self} must be integers, got dtype {idx.dtype}")
        vals = self.inner(idx.astype(np.int64)) + self.offset
        if isinstance(self.outer, Layout):
            return np.sign(vals) * self.outer.offsets(np.abs(vals))
        if isinstance(self.outer, Swizzle):
            return self.outer(vals)
        return self.outer.offsets(vals)

    # -- the algebra (reached through cutepy.core.layout.own from each public operation) ----
    def _map_layout(self, fn: Any) -> ComposedLayout:
        """``fn`` applied to the layout under the outer function, outer and offset kept."""
        return _compose3(self.outer, self.offset, fn(self._domain()))

    _coalesce = _on_inner(coalesce)
    _filter = _on_inner(filter)
    _logical_divide = _on_inner(logical_divide)
    _zipped_divide = _on_inner(zipped_divide)
    _tiled_divide = _on_inner(tiled_divide)
    _flat_divide = _on_inner(flat_divide)
    _logical_product = _on_inner(logical_product)
    _zipped_product = _on_inner(zipped_product)
    _tiled_product = _on_inner(tiled_product)
    _flat_product = _on_inner(flat_product)
    _blocked_product = _on_inner(blocked_product)
    _raked_product = _on_inner(raked_product)
    _tile_to_shape = _on_inner(tile_to_shape)
    _get = _on_inner(get)
    _take = _on_inner(take)
    _group = _on_inner(group)
    _append = _on_inner(append)
    _flatten = _on_inner(flatten)

    def _composition(self, B: Any) -> ComposedLayout:
        """``(outer o offset o inner) o B == outer o offset o (inner o B)``."""
        return _compose3(self.outer, self.offset, composition(self.inner, B))

    def _rcomposition(self, A: Layout) -> Any:
        """``A o (this)``: as C++ for a swizzle outside (A moves its bits), else ``A`` outermost."""
        if isinstance(self.outer, Swizzle):
            return _compose_swizzle_right(A, self)
        return ComposedLayout(A, 0, self)

    def _complement(self, cotarget: Any) -> Layout:
        """As C++: the complement of the layout under the swizzle, up to this layout's cosize."""
        return complement(self._domain(), self.cosize() if cotarget is None else cotarget)

    def _rlogical_product(self, A: Layout) -> Any:
        """C++'s ``logical_product(A, Sw o 0 o L)``: the product with L, then a new swizzle made of
        where the product sends the swizzle's active Y and Z bits of L (checked: where the moved
        swizzle is not the product's function, ``AdmissibilityError``)."""
        sw, L = self.outer, self.inner
        if not isinstance(sw, Swizzle) or not isinstance(L, Layout):
            raise CutepyError(f"logical_product of {A} by {self}: C++ takes a composed tiler only as a "
                              "swizzle over a layout")
        if self.offset != 0:
            raise CutepyError(f"logical_product of {A} by {self}: C++ requires the swizzle's offset to be 0")
        new = logical_product(A, L)
        b, m, s = sw.bits, sw.base, abs(sw.shift)
        only_zy = Layout._new((1 << m, 1 << b, 1 << (s - b), 1 << b, 1), (0, 1 << m, 0, 1 << (m + s), 0))
        projected = composition(only_zy, L)
        active = projected(projected.size() - 1)
        new_z = new((0, L(active & sw.zzz_mask)))
        new_y = new((0, L(active & sw.yyy_mask)))
        try:
            moved = make_swizzle(new_y, new_z)
        except CutepyError as e:  # C++ fails make_swizzle's static_assert here
            raise CutepyError(f"logical_product of {A} by {self}: the product moves the swizzle's bits to "
                              f"Y = {new_y:#b}, Z = {new_z:#b}, which no swizzle has ({e})") from None
        result = _with_swizzle(moved, new)
        _check_product(A, self, result)
        return result

    def _upcast(self, n: int) -> ComposedLayout:
        """C++'s ``upcast<N>``: the swizzle, the offset and the layout each upcast (kept composed
        even when the swizzle has no bits left: C++'s upcast offset is an unsigned ``C<0u>``, which
        the identity-dropping ``composition(Sw<0,M,S>, Int<0>, L)`` does not match)."""
        off = self.offset
        if isinstance(off, SmemPtrFlag):  # as C++: the flag widens with the elements
            off = SmemPtrFlag(off.bits * n)
        elif off % n:
            raise AdmissibilityError(f"upcast by {n}: the offset {off} is not a multiple of {n}")
        else:
            off = off // n
        return ComposedLayout(upcast(self.outer, n), off, upcast(self.inner, n))

    def _downcast(self, n: int) -> ComposedLayout:
        """C++'s ``downcast<N>``: the swizzle, the offset and the layout each downcast (kept
        composed, as :meth:`_upcast`)."""
        off = self.offset
        if isinstance(off, SmemPtrFlag):  # as C++: the flag narrows with the elements
            if off.bits % n:
                raise AdmissibilityError(f"downcast by {n}: {off} has fewer than {n} bits")
            off = SmemPtrFlag(off.bits // n)
        else:
            off = off * n
        return ComposedLayout(downcast(self.outer, n), off, downcast(self.inner, n))

    def _make_layout_like(self) -> Layout:
        """As C++: the compact layout like the layout under the swizzle."""
        return make_layout_like(self._domain())

    def _make_fragment_like(self) -> Layout:
        """As C++: the register fragment of the layout under the swizzle."""
        return make_fragment_like(self._domain())

    def _max_alignment(self) -> int:
        """``gcd(2**M, offset, max_alignment(L))`` for ``Sw<B,M,S> o offset o L``; 1 for any other
        composed layout (C++: "do not attempt for general ComposedLayouts")."""
        if type(self.outer) is not Swizzle or isinstance(self.inner, Swizzle):
            return 1
        if not it.is_int(self.offset):
            raise CutepyError(f"max_alignment of {self}: the offset must be an integer")
        return _cxx_gcd(1 << self.outer.base, _cxx_gcd(self.offset, max_alignment(self.inner)))

    def _right_inverse(self) -> Any:
        return _inverse(right_inverse, self)

    def _left_inverse(self) -> Any:
        return _inverse(left_inverse, self)

    def _nullspace(self) -> Layout:
        """As C++: a swizzled layout's nullspace is ``1:0``."""
        return Layout._new(1, 0)

    def _max_common_layout(self, other: Any) -> Layout:
        """The common layout of the layout under the swizzle and ``other``, cut to the ``2**M``
        elements the swizzle keeps in order (as C++)."""
        common = max_common_layout(self._swizzled_inner(), other)
        base = 1 << self.outer.base
        return composition(common, base) if base < common.size() else common

    _rmax_common_layout = _max_common_layout

    def _max_common_vector(self, other: Any) -> Any:
        """As C++: capped at ``2**M`` by each swizzle, no cap when both sides share one swizzle."""
        if isinstance(other, ComposedLayout):
            vec = max_common_vector(self._swizzled_inner(), other._swizzled_inner())
            if self.outer == other.outer:
                return vec
            return min(vec, 1 << self.outer.base, 1 << other.outer.base)
        return min(max_common_vector(self._swizzled_inner(), other), 1 << self.outer.base)

    _rmax_common_vector = _max_common_vector

    def _swizzled_inner(self) -> Layout:
        if not isinstance(self.outer, Swizzle):
            raise CutepyError(f"{self} is not a swizzled layout (Sw o offset o layout)")
        return self.inner

    def _slice_and_offset(self, crd: Any) -> tuple[Any, Any]:
        return self.slice_and_offset(crd)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ComposedLayout)
            and self.outer == other.outer
            and self.offset == other.offset
            and self.inner == other.inner
        )

    def __hash__(self) -> int:
        return hash((ComposedLayout, self.outer, self.offset, self.inner))

    def __reduce__(self):
        return (ComposedLayout, (self.outer, self.offset, self.inner))

    def __str__(self) -> str:  # as C++: a nested composed layout prints as a flat chain
        return f"{self.outer} o {self.offset} o {self.inner}"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        """``format(C, "cxx")``: C++'s exact print (``_N`` static, ``N`` dynamic) of every part."""
        return it.format_value(self, spec, lambda: " o ".join(
            _format_cxx(p) for p in (self.outer, self.offset, self.inner)))

    def _is_static(self) -> bool:
        return all(is_static(p) for p in (self.offset, self.inner)
                   if not isinstance(p, (Swizzle, SmemPtrFlag)))


def _format_cxx(x: Any) -> str:
    """A part of a composed layout as C++ prints it: layouts and offsets with ``_`` on static ints."""
    if isinstance(x, (Swizzle, SmemPtrFlag)):
        return str(x)
    if isinstance(x, (Layout, ComposedLayout)):
        return format(x, "cxx")
    return it.format_tuple(x, True)


def is_layout(x: Any) -> bool:
    """Whether ``x`` is a layout, plain or composed (C++'s ``is_layout`` trait).

    Pre:  none (any object).
    Post: ``True`` for a Layout and a composed layout (``Sw o offset o L`` included); ``False``
          for shapes, swizzles, tensors and anything else.

    >>> is_layout(Layout(4)), is_layout(make_composed_layout(Swizzle(1, 0, 1), 0, Layout(4))), is_layout((4,))
    (True, True, False)
    """
    return isinstance(x, (Layout, ComposedLayout))


def composed_parts(x: Any) -> tuple[Any, Any, Any] | None:
    """``(outer, offset, inner)`` of a composed layout (C++'s ``layout_a()``, ``offset()``,
    ``layout_b()``), None for anything else: the one place that tells a composed layout apart,
    for the analyses that read its structure (equivalence, pictures, emitted code).

    Pre:  none (any object).
    Post: ``x == ComposedLayout(*result)`` when ``result`` is not None.

    >>> composed_parts(make_composed_layout(Swizzle(1, 0, 1), 2, Layout(4))), composed_parts(Layout(4))
    ((Sw<1,0,1>, 2, 4:1), None)
    """
    return (x.outer, x.offset, x.inner) if isinstance(x, ComposedLayout) else None


def pointer_flag(x: Any) -> SmemPtrFlag | None:
    """The pointer flag of ``Sw<B,M,S> o smem_ptr[b](unset) o L`` (C++'s ``smem_ptr_flag_bits``),
    None for anything else: whether the swizzle of ``x`` acts on byte addresses.

    Pre:  none (any object).
    Post: ``result is x.offset`` for a pointer-flag layout, else None.

    >>> pointer_flag(ComposedLayout(Swizzle(3, 4, 3), SmemPtrFlag(16), Layout(8))), pointer_flag(Layout(8))
    (smem_ptr[16b](unset), None)
    """
    parts = composed_parts(x)
    return parts[1] if parts is not None and isinstance(parts[1], SmemPtrFlag) else None


def make_composed_layout(outer: Any, offset: Any, inner: Any) -> ComposedLayout:
    """CuTe's ``make_composed_layout(outer, offset, inner)``.

    Pre:  ``outer`` is a Swizzle, a Layout or a composed layout, ``inner`` a layout (or a shape)
          (else ``CutepyError``).
    Post: ``result(c) == outer(offset + inner(c))``; ``shape(result) == shape(inner)``.

    >>> make_composed_layout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1)))
    Sw<3,3,3> o 0 o (8,64):(64,1)
    """
    return ComposedLayout(outer, offset, _as_inner(inner))


def get_swizzle_portion(layout: Any) -> Swizzle:
    """The swizzle of ``Sw o offset o L``; a plain Layout's is the identity ``Sw<0,4,3>`` (as C++).

    Pre:  ``layout`` is a Layout or a composed layout (else ``CutepyError``).
    Post: ``layout == get_swizzle_portion(layout) o 0 o get_nonswizzle_portion(layout)`` for a
          swizzle over offset 0.

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

    Pre:  ``layout`` is a Layout or a composed layout (else ``CutepyError``).
    Post: the inner layout ``L``: same shape as ``layout``, and ``layout(c) == Sw(offset + L(c))``.

    >>> get_nonswizzle_portion(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 8), (8, 1))))
    (8,8):(8,1)
    """
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return layout.inner
    if isinstance(layout, Layout):
        return layout
    raise CutepyError(f"get_nonswizzle_portion: {layout!r} is not a layout or a swizzled layout")


def make_swizzle(y_mask: int, z_mask: int) -> Swizzle:
    """The swizzle that XORs the bits of ``y_mask`` into those of ``z_mask`` (C++'s ``make_swizzle<Y,Z>``).

    Pre:  both masks are non-negative, have the same number of bits, and together they are the
          masks of one ``Swizzle<B,M,S>`` (else ``CutepyError``, where C++ fails a static_assert).
    Post: ``result`` is ``Sw<B,M,S>`` with ``yyy_mask == y_mask`` and ``zzz_mask == z_mask``.

    >>> make_swizzle(0b1000, 0b0100), make_swizzle(0b11000000, 0b00000110)
    (Sw<1,2,1>, Sw<2,1,5>)
    """
    y_mask, z_mask = as_int(y_mask), as_int(z_mask)
    for what, m in (("Y", y_mask), ("Z", z_mask)):
        if type(m) is not int or m < 0:
            raise CutepyError(f"make_swizzle: the {what} mask must be a non-negative integer, got {m!r}")
    b = bin(y_mask).count("1")
    if b != bin(z_mask).count("1"):
        raise CutepyError(f"make_swizzle: masks {y_mask:#b} and {z_mask:#b} have different numbers of bits")
    tz_y = (y_mask & -y_mask).bit_length() - 1 if y_mask else 32
    tz_z = (z_mask & -z_mask).bit_length() - 1 if z_mask else 32
    sw = Swizzle(b, min(tz_y, tz_z) % 32, tz_y - tz_z)
    if sw.yyy_mask | sw.zzz_mask != y_mask | z_mask:
        raise CutepyError(f"make_swizzle: masks {y_mask:#b} and {z_mask:#b} are not those of one swizzle")
    return sw


def compose_swizzles(a: Swizzle, b: Swizzle) -> Swizzle:
    """``a o b`` for two swizzles of the same shift: one swizzle (C++'s ``composition(Swizzle, Swizzle)``).

    C++ XORs the masks: ``make_swizzle<Ya ^ Yb, Za ^ Zb>()``. That is ``a o b`` exactly when
    no bit ``b`` writes is one ``a`` reads (``Zb & Ya == 0``). Masks that break this never
    make one swizzle, so C++ rejects them too; the check stays as a guard
    (``AdmissibilityError``).

    Pre:  ``a.shift == b.shift`` and the XORed masks are those of one swizzle (else
          ``CutepyError``, where C++ fails a static_assert).
    Post: ``result(x) == a(b(x))`` for every ``x >= 0``; ``a o a`` is the identity ``Sw<0,0,0>``.

    >>> compose_swizzles(Swizzle(2, 4, 3), Swizzle(1, 6, 3))
    Sw<3,4,3>
    >>> compose_swizzles(Swizzle(3, 4, 3), Swizzle(3, 4, 3))
    Sw<0,0,0>
    """
    for k, sw in enumerate((a, b), start=1):
        if not isinstance(sw, Swizzle):
            raise CutepyError(f"composition of swizzles: argument {k} is {it.short_repr(sw)}, not a Swizzle")
    if a.shift != b.shift:
        raise CutepyError(f"composition {a} o {b}: C++ merges only swizzles of the same shift")
    try:
        sw = make_swizzle(a.yyy_mask ^ b.yyy_mask, a.zzz_mask ^ b.zzz_mask)
    except CutepyError as e:
        raise CutepyError(f"composition {a} o {b}: the XORed masks make no swizzle ({e})") from None
    if b.zzz_mask & a.yyy_mask:
        raise AdmissibilityError(
            f"composition {a} o {b}: C++'s {sw} is not the composition: {b} writes bits "
            f"{b.zzz_mask & a.yyy_mask:#b} that {a} reads")
    return sw


def domain_offset(crd: Any, layout: Any) -> tuple[Any, Any]:
    """C++'s ``domain_offset``: the layout that starts at ``crd``, and the offset to add to a pointer.

    A Layout stays and gives ``layout(crd)``; a composed layout keeps the offset itself
    (``outer o (offset + inner(crd)) o inner``, pointer offset 0), as C++.

    Pre:  ``layout`` is a Layout (or a shape) or a composed layout; ``crd`` is a coordinate
          (or an index) of its shape (else ``CutepyError``).
    Post: ``(L, p)`` with ``p + L(c) == layout(c) + layout(crd)`` for a Layout, and
          ``L(c) == outer(offset + inner(crd) + inner(c))`` for a composed layout.

    >>> domain_offset((1, 2), Layout((4, 8), (1, 4)))
    ((4,8):(1,4), 9)
    >>> domain_offset((1, 2), ComposedLayout(Swizzle(1, 0, 1), 3, Layout((4, 8), (1, 4))))
    (Sw<1,0,1> o 12 o (4,8):(1,4), 0)
    """
    if isinstance(layout, ComposedLayout):
        if _has_none(crd):
            raise CutepyError(f"domain_offset: the coordinate {it.short_repr(crd)} has a wildcard")
        return ComposedLayout(layout.outer, layout.offset + layout._domain()(crd), layout.inner), 0
    layout = as_layout(layout) if not isinstance(layout, Layout) else layout
    if _has_none(crd):
        raise CutepyError(f"domain_offset: the coordinate {it.short_repr(crd)} has a wildcard")
    return layout, layout(crd)


def _with_swizzle(sw: Swizzle, L: Layout) -> Any:
    """``sw o 0 o L``; a swizzle without bits is the identity and gives ``L`` (as C++)."""
    return L if sw.bits == 0 else ComposedLayout(sw, 0, L)


def _compose_swizzle_right(A: Layout, B: Any) -> Any:
    """``A o Sw`` and ``A o (Sw o 0 o L)`` as C++: A moves the bits, ``make_swizzle(A(Y), A(Z))``."""
    if type(B) is ComposedLayout:
        if not isinstance(B.outer, Swizzle):
            return B._rcomposition(A)
        if B.offset != 0:
            raise CutepyError(f"composition {A} o ({B}): C++ requires the composed layout's offset to be 0")
        return composition(_compose_swizzle_right(A, B.outer), B.inner)
    return _with_swizzle(make_swizzle(A(B.yyy_mask), A(B.zzz_mask)), A)




def slice_and_offset_swizzled(crd: Any, C: ComposedLayout) -> tuple[Any, Any]:
    """C++'s ``slice_and_offset`` of ``Sw<B,M,S> o offset o L``: the sliced layout and the offset.

    When the fixed coordinates decide only bits the swizzle leaves alone, or when the free
    modes touch only one side (Y or Z) of it, the swizzle folds into a plain layout with
    signed strides; otherwise the result stays ``Sw o offset' o slice(L)``. As in C++, an
    all-wildcard slice keeps the swizzle. A slice C++ 4.7 refuses at compile time (its
    divisibility asserts on the swizzle's bit projections, ``to_mixed_bits``'s powers of two)
    raises ``AdmissibilityError``; one C++ compiles wrongly (the fixed offset carries into the
    swizzle's bits) gives the right answer or raises, checked element by element (beyond C++;
    tests/data/swizzle_slice_cxx47.txt holds C++'s prints).

    >>> C = ComposedLayout(Swizzle(3, 1, 4), 0, Layout((32, 8), (8, 1)))
    >>> slice_and_offset_swizzled((5, None), C)
    (((2,2,2)):((1,-2,4)), 42)
    """
    sw, inner = C.outer, C.inner
    sliced, fixed = slice_and_offset(crd, inner)
    if not _has_none(crd) or _fill_none(crd) == crd:
        return sliced, C(crd)
    if crd is None or (type(crd) is tuple and all(x is None for x in it.flatten_tuple(crd))):
        return ComposedLayout(sw, C.offset, sliced), 0
    # as C++ (4.7, checked: tests/data/swizzle_slice_cxx47.txt): the swizzle's bit projections
    # compose with the fixed and the free parts first, under its static divisibility asserts
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    proj = (1 << m, 1 << b, 1 << (s - b), 1 << b, 1)
    anti = Layout._new(proj, (1, 0, 1 << (m + b), 0, 1 << (m + s + b)))
    only = Layout._new(proj, (0, 1 << m, 0, 1 << (m + s), 0))
    diced = dice(crd, inner)
    _cxx_compose(anti, diced, crd, C)
    only_diced = _cxx_compose(only, diced, crd, C)
    for x, y in zip(it.flatten_tuple(only_diced.shape if only_diced else ()),
                    it.flatten_tuple(only_diced.stride if only_diced else ())):
        if x * y & (x * y - 1):  # C++'s to_mixed_bits of the fixed part: "Requires pow2 shape*stride."
            raise AdmissibilityError(f"slice_and_offset({crd}, {C}): C++ refuses this slice (the fixed "
                                     f"part's swizzle bits {only_diced} need power-of-two extents)")
    _cxx_compose(only, sliced, crd, C)
    code = sw.yyy_mask | sw.zzz_mask
    off_only_zy = C.offset ^ (fixed & code)
    off_anti_zy = fixed & ~code
    n = sliced.size()
    active = sliced(n - 1) & code if n > 0 else 0
    if active & ~sw(active):  # the free modes reach both Y and Z: the swizzle stays
        return _exact_slice(crd, C, ComposedLayout(sw, off_only_zy, sliced), off_anti_zy, sliced, fixed)
    z = sw.zzz_mask & -sw.zzz_mask
    y = sw.yyy_mask & -sw.yyy_mask

    # C++ chooses each stride by a test of the offset: a run-time offset makes them run-time strides
    kind = DynamicInt if type(off_only_zy) is DynamicInt else int

    def strides(first: bool) -> tuple:
        if first:
            return tuple(kind(z << i if off_only_zy & (y << i) == 0 else -(z << i)) for i in range(b))
        return tuple(kind((y + z) << i if off_only_zy & (z << i) == 0 else (y - z) << i) for i in range(b))

    lo, hi = strides(z < y), strides(z > y)
    # C++'s layout (1<<M, (2,..), 1<<(S-B), (2,..), 1):(1, lo, 1<<(M+B), hi, 1<<(M+B+S)), composed
    # as C++ composes it (a coordinate known only at run time makes lo and hi run-time strides,
    # which C++ then leaves unmerged)
    two = (2,) * b
    shape = (1 << m, two if b != 1 else 2, 1 << (s - b), two if b != 1 else 2, 1)
    stride = (1, lo if b != 1 else lo[0], 1 << (m + b), hi if b != 1 else hi[0], 1 << (m + b + s))
    try:
        folded = composition(Layout._new(shape, stride), sliced)
    except AdmissibilityError:  # C++ may still compile it: its answer, checked below
        folded = _cxx_compose(Layout._new(shape, stride), sliced, crd, C)
        if folded is None:
            raise
    return _exact_slice(crd, C, folded, sw(off_only_zy) + off_anti_zy, sliced, fixed)


def _cxx_compose(A: Layout, B: Layout, crd: Any, C: ComposedLayout) -> Any:
    """C++'s ``composition(A, B)`` of static layouts as ``composition_impl`` computes it, under its
    static (weak) divisibility asserts, which refuse a slice of a swizzled layout at compile time
    (``AdmissibilityError`` naming the one that fails); ``None`` for run-time leaves. (cutepy's
    :func:`composition` checks more, its post-condition; here C++'s own answer is wanted.)"""
    if not all(type(x) is int for x in it.flatten_tuple((A.shape, A.stride, B.shape, B.stride))):
        return None
    ls, ld = coalesce_x(A)

    def refuse(what: str) -> AdmissibilityError:
        return AdmissibilityError(f"slice_and_offset({crd}, {C}): C++ refuses this slice (its {what} "
                                  f"Divisibility Condition fails in composing {A} o {B})")

    def leaf(rs: int, rd: int) -> tuple[Any, Any]:
        if rd == 0:
            return rs, 0
        if len(ls) == 1:
            return rs, rd * ld[0]
        out_s, out_d = [], []
        for s, d in zip(ls[:-1], ld[:-1]):
            if rd % s != 0 and not rd < s:
                raise refuse("Stride")
            nshape, nstride = -(-s // abs(rd)), -(-abs(rd) // s) * (1 if rd > 0 else -1)
            if nshape != 1 and rs != 1:
                new = min(nshape, rs)
                if rs % new != 0:
                    raise refuse("Shape")
                out_s.append(new)
                out_d.append(rd * d)
                rs //= new
            rd = nstride
        if not out_s:
            return rs, rd * ld[-1]
        if rs != 1:
            out_s.append(rs)
            out_d.append(rd * ld[-1])
        return (tuple(out_s), tuple(out_d)) if len(out_s) > 1 else (out_s[0], out_d[0])

    def walk(s: Any, d: Any) -> tuple[Any, Any]:
        if type(s) is tuple:
            parts = [walk(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        return leaf(s, d)

    return Layout._new(*walk(B.shape, B.stride))


def _exact_slice(crd: Any, C: ComposedLayout, sub: Any, off: Any, sliced: Layout,
                 fixed: Any) -> tuple[Any, Any]:
    """``(sub, off)`` when ``off + sub(i) == C(crd at free index i)`` for every free index (checked
    element by element up to 2**20 of them), else ``AdmissibilityError``: C++'s split of the
    fixed offset into the swizzle's bits assumes that adding it never carries into them."""
    n = sliced.size()
    if type(n) is not int or n > 1 << 20 or not is_static(sliced) or type(off) is not int:
        return sub, off
    import numpy as np  # lazy: whole-domain evaluation loads numpy

    got = np.asarray(sub.offsets(), dtype=np.int64) + off
    v = np.asarray(sliced.offsets(), dtype=np.int64) + (fixed + C.offset)
    sw = C.outer
    y = v & sw.yyy_mask
    want = v ^ (y >> sw.shift if sw.shift >= 0 else y << -sw.shift)
    if not np.array_equal(got, want):
        i = int(np.argmax(got != want))
        raise AdmissibilityError(
            f"slice_and_offset({crd}, {C}): C++'s answer {sub} + {off} gives {int(got[i])} at free "
            f"index {i}, where the layout holds {int(want[i])}: the fixed offset carries into the "
            "swizzle's bits")
    return sub, off


def _inverse(inverse: Any, A: ComposedLayout) -> Any:
    """``inverse(Sw o 0 o L) = inverse(L) o Sw`` (a swizzle is its own inverse), as C++; with an
    offset, C++'s ``inverse(L) o -offset o Sw``, a function of an index with no domain of its own.
    Checked element by element against the post-condition (``AdmissibilityError`` where C++'s
    answer breaks it): the right inverse on its own domain, the left (quasi-)inverse as C++'s
    ``A(R(A(i))) == A(i)`` on A's."""
    name = inverse.__name__
    if not isinstance(A.outer, Swizzle):
        raise CutepyError(f"{name} of {A}: C++ inverts a composed layout only with a swizzle outside")
    if A.offset != 0:
        if type(A.offset) is not int:
            raise CutepyError(f"{name} of {A}: the offset must be an integer")
        if not isinstance(A.inner, Layout):
            raise CutepyError(f"{name} of {A}: the inner layout must be a Layout")
        inv = inverse(A.inner)
        R = ComposedLayout(inv, -A.offset, A.outer)
        n = A.size() if inverse is left_inverse else inv.size()
    else:
        R = composition(inverse(A.inner), A.outer)
        n = A.size() if inverse is left_inverse else R.size()
    if it.is_symbolic_leaf(n):  # the post-condition is checked element by element
        raise SymbolicError(f"{name} of {A}: the inverse of a swizzled layout is checked on each of its "
                            f"{n} elements: substitute values for the symbols first (cutepy.subs)")
    if n > MAX_INVERSE_CHECK:
        raise CutepyError(f"{name} of {A}: {n} elements to check, more than "
                          f"MAX_INVERSE_CHECK = {MAX_INVERSE_CHECK}")
    import numpy as np  # lazy: only this check of a swizzled inverse needs numpy

    idx = np.arange(n, dtype=np.int64)
    if inverse is left_inverse:  # C++'s post-condition of a quasi-inverse: A(R(A(i))) == A(i)
        idx = A.offsets(idx)
        got = A.offsets(R.offsets(idx))
    elif A.offset != 0:
        inner = np.asarray(R.offsets(idx)) + 0
        got = A.outer(A.offset + np.sign(inner) * A.inner.offsets(np.abs(inner)))
    else:
        got = A.offsets(R.offsets(idx))
    if not np.array_equal(got, idx):
        k = int(np.nonzero(got != idx)[0][0])
        which = f"A(R({int(idx[k])}))" if inverse is left_inverse else f"A(R({k}))"
        why = ("the offset moves the swizzle's input out of the range the inverse of the layout covers"
               if A.offset != 0 else "L moves the swizzle's bits out of order, so the swizzle does not "
               "commute with it")
        raise AdmissibilityError(
            f"{name} of {A}: C++'s answer {R} breaks the post-condition: {which} = {int(got[k])}: {why}")
    return R


def _check_product(A: Layout, T: ComposedLayout, R: Any) -> None:
    """``R(i, j) == A(i) + C(T(j))``, ``C = complement(A, size(A) * cosize(T))``: where C++'s
    moved swizzle is not that function, raise instead of answering silently wrong."""
    n = A.size() * T.size()
    if type(n) is not int:
        raise CutepyError(f"logical_product of {A} by {T}: symbolic sizes cannot be checked")
    if n > MAX_PRODUCT_CHECK:
        raise CutepyError(f"logical_product of {A} by {T}: {n} elements to check, more than "
                          f"MAX_PRODUCT_CHECK = {MAX_PRODUCT_CHECK}")
    import numpy as np  # lazy: only this check of a swizzled product needs numpy

    C = complement(A, A.size() * T.cosize())
    want = (A.offsets()[:, None] + C.offsets(T.offsets())[None, :]).reshape(-1, order="F")
    got = R.offsets()
    if not np.array_equal(got, want):
        k = int(np.nonzero(got != want)[0][0])
        raise AdmissibilityError(
            f"logical_product of {A} by {T}: C++'s answer {R} breaks the product's definition: at "
            f"index {k} it gives {int(got[k])}, A(i) + complement(A)(tiler(j)) is {int(want[k])} (the "
            "swizzle does not move with the product)")

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "ComposedLayout", "Swizzle", "domain_offset", "get_nonswizzle_portion", "get_swizzle_portion",
    "make_composed_layout", "make_swizzle",
]
