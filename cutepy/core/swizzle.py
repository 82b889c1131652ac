"""The swizzle ``Sw<B,M,S>``: a function of an offset that XORs bits, and its evaluation.

Layer 1 (the layout's values), beside :class:`~cutepy.core.layout.Layout`: it imports only
the values below it. ``Swizzle(B, M, S)`` XORs the ``B`` bits starting at bit ``M + S`` into
the ``B`` bits starting at bit ``M`` (a negative ``S`` shifts the other way); shared-memory
tiles use it to avoid bank conflicts. It is evaluated here, on an integer or on a numpy
integer array alike (:meth:`Swizzle.__call__`); :mod:`cutepy.core.evaluate` applies it to a
whole domain in place. A swizzle over a layout, ``Sw o offset o L``, is the composed layout of
:mod:`cutepy.algebra.composed`, which also registers the swizzle's variants of
``composition`` and ``make_layout`` (their results are composed layouts); the casts of a
swizzle are registered here.

>>> sw = Swizzle(3, 4, 3)
>>> sw(0b1110000000), sw(0b0000010000)
(1008, 16)
>>> make_swizzle(0b1110000000, 0b0001110000)
Sw<3,4,3>
"""

from __future__ import annotations

from typing import Any

from . import inttuple as it
from .errors import AdmissibilityError, CutepyError
from .kinds import COMPOSITION, DOWNCAST, MAKE_LAYOUT, MAX_ALIGNMENT, UPCAST, SwizzleKind
from .tuples import as_int

#: C++ keeps a swizzle's masks in a 32-bit int: ``B + M + |S|`` must stay below its sign bit.
MAX_SWIZZLE_BITS = 31


class Swizzle(SwizzleKind):
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

    def compose(self, B: Any) -> Any:
        """``sw.compose(L)``: the method spelling of ``composition(sw, L)`` (its swizzle variant)."""
        return COMPOSITION.of(self)(self, B)

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
        return MAKE_LAYOUT.of(self)(self)


@UPCAST.register(Swizzle)
def _upcast(sw: Swizzle, n: int) -> Swizzle:
    """C++'s ``upcast<N>(Sw<B,M,S>)``: ``M`` drops by ``log2 N``; bits below 0 are lost."""
    m = sw.base - _pow2_log(n, "upcast")
    if m >= 0:
        return Swizzle(sw.bits, m, sw.shift)
    return Swizzle(max(sw.bits + m, 0), 0, sw.shift)


@DOWNCAST.register(Swizzle)
def _downcast(sw: Swizzle, n: int) -> Swizzle:
    """C++'s ``downcast<N>(Sw<B,M,S>)``: ``M`` grows by ``log2 N``."""
    return Swizzle(sw.bits, sw.base + _pow2_log(n, "downcast"), sw.shift)


@MAX_ALIGNMENT.register(Swizzle)
def _max_alignment(sw: Swizzle) -> int:
    """C++'s ``max_alignment(Sw<B,M,S>)``: ``2**M``, the runs the swizzle leaves alone."""
    return 1 << sw.base


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



#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = ["Swizzle", "make_swizzle"]
