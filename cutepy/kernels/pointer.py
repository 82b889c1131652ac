"""Typed pointers into global, shared and tensor memory: the engines of address tensors.

C++'s ``make_gmem_ptr<T>(p)``, ``make_smem_ptr<T>(p)`` and ``make_tmem_ptr<T>(addr)`` as
values: ``gmem_ptr("half_t", 0x1000)``. A tensor over a pointer evaluates to addresses:
``make_tensor(gmem_ptr("float", 256), Layout(4))(3) == 256 + 3 * 4`` (bytes). A shared-memory
pointer may carry a swizzle that acts on its byte addresses (C++'s ``swizzle_ptr``):
``make_tensor(smem_ptr(T), Sw<B,M,S> o smem_ptr[b](unset) o L)`` moves the swizzle of C++'s
pointer-flag layout onto the pointer, as C++ does. A tensor-memory address is C++'s 32-bit
``(lane << 16) | column`` word.

>>> p = smem_ptr("half_t", 0x400)
>>> p, p + 8, p[8]
(smem_ptr[16b](0x400), smem_ptr[16b](0x410), 1040)
>>> from cutepy.algebra.composed import ComposedLayout
>>> from cutepy.core.swizzle import SmemPtrFlag, Swizzle
>>> from cutepy.core.layout import Layout
>>> L = ComposedLayout(Swizzle(3, 4, 3), SmemPtrFlag(16), Layout((8, 64), (64, 1)))
>>> engine, inner = p.bind(L)
>>> engine, inner, engine[inner(1, 0)]
(Sw<3,4,3>_smem_ptr[16b](0x400), (8,64):(64,1), 1168)
>>> tmem_ptr("float", 0)[(3 << 16) + 5]
196613
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..algebra.casting import downcast, upcast
from ..algebra.composed import ComposedLayout, composed_parts, pointer_flag
from ..core.errors import CutepyError
from ..core.inttuple import short_repr
from ..core.layout import Layout
from ..core.swizzle import SmemPtrFlag, Swizzle

#: C++ element type name -> sizeof_bits (the names CuTe and CUTLASS spell)
ELEMENT_BITS: dict[str, int] = {
    "uint1b_t": 1, "bin1_t": 1, "int2b_t": 2, "uint2b_t": 2, "int4b_t": 4, "uint4b_t": 4,
    "float_e2m1_t": 4, "float_e2m3_t": 6, "float_e3m2_t": 6,
    "int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue8m0_t": 8,
    "float_ue4m3_t": 8, "bool": 8, "char": 8,
    "half_t": 16, "bfloat16_t": 16, "int16_t": 16, "uint16_t": 16,
    "float": 32, "tfloat32_t": 32, "int32_t": 32, "uint32_t": 32, "int": 32, "complex<half_t>": 32,
    "double": 64, "int64_t": 64, "uint64_t": 64, "complex<float>": 64, "complex<tfloat32_t>": 64,
    "uint128_t": 128, "complex<double>": 128,
}

#: the memory spaces a pointer lives in, as C++'s pointer tags name them
SPACES = ("gmem", "smem", "rmem", "tmem")

#: the largest address a pointer holds (C++ pointers are 64-bit, TMEM addresses 32-bit)
MAX_ADDRESS = {"gmem": (1 << 64) - 1, "smem": (1 << 64) - 1, "rmem": (1 << 64) - 1, "tmem": (1 << 32) - 1}


def element_bits(dtype: str) -> int:
    """``sizeof_bits<T>`` of the C++ element type named ``dtype`` (``cute::``/``cutlass::`` optional).

    Pre:  ``dtype`` names a CuTe element type (``half_t``, ``float``, ``int4b_t``, ...), else
          ``CutepyError`` listing the known names.
    Post: the width in bits.

    >>> element_bits("bfloat16_t"), element_bits("cutlass::int4b_t"), element_bits("complex<float>")
    (16, 4, 64)
    """
    if not isinstance(dtype, str):
        raise CutepyError(f"an element type is named by its C++ name (a str), not {short_repr(dtype)}")
    name = dtype.replace(" ", "")
    for prefix in ("cute::", "cutlass::", "std::"):
        name = name.replace(prefix, "")
    if name not in ELEMENT_BITS:
        raise CutepyError(f"unknown element type {dtype!r}: known are {', '.join(ELEMENT_BITS)}")
    return ELEMENT_BITS[name]


def _canonical(dtype: str) -> str:
    name = dtype.replace(" ", "")
    for prefix in ("cute::", "cutlass::", "std::"):
        name = name.replace(prefix, "")
    return name


class Iterator:
    """An engine that is an iterator, as C++'s: ``it[i]`` is a value (an address, a descriptor),
    ``it + i`` the iterator advanced by ``i``; a tensor over it prints ``str(it + offset)``."""

    __slots__ = ()


@dataclass(frozen=True)
class Pointer(Iterator):
    """A typed pointer: ``space`` (gmem, smem, rmem, tmem), the element type ``dtype`` (its C++
    name), ``address`` (bytes; TMEM: C++'s 32-bit address word) and an optional ``swizzle``
    acting on the byte addresses (shared memory only).

    ``p[i]`` is the address of element ``i``; ``p + i`` the pointer advanced by ``i`` elements.

    >>> gmem_ptr("float", 0x100)[3], gmem_ptr("float", 0x100) + 3
    (268, gmem_ptr[32b](0x10c))
    """

    space: str
    dtype: str
    address: int = 0
    swizzle: Swizzle | None = None

    def __post_init__(self) -> None:
        if self.space not in SPACES:
            raise CutepyError(f"a pointer's memory space is one of {SPACES}, not {self.space!r}")
        element_bits(self.dtype)
        if type(self.address) is not int or not 0 <= self.address <= MAX_ADDRESS[self.space]:
            raise CutepyError(
                f"{self.space}_ptr address {short_repr(self.address)} is not an integer in "
                f"0..{MAX_ADDRESS[self.space]}"
            )
        if self.swizzle is not None:
            if not isinstance(self.swizzle, Swizzle):
                raise CutepyError(f"a pointer's swizzle must be a Swizzle, not {self.swizzle!r}")
            if self.space != "smem":
                raise CutepyError(f"only shared-memory pointers carry a swizzle, not a {self.space} pointer")
        object.__setattr__(self, "dtype", _canonical(self.dtype))

    @property
    def bits(self) -> int:
        """``sizeof_bits`` of the element type."""
        return ELEMENT_BITS[self.dtype]

    @property
    def value_type(self) -> str:
        return self.dtype

    def _advance(self, i: Any) -> int:
        if self.space == "tmem":
            shift = max(0, (32 // self.bits).bit_length() - 1) if self.bits < 32 else 0
            i32 = int(i) & 0xFFFFFFFF
            rot = ((i32 >> shift) | (i32 << (32 - shift))) & 0xFFFFFFFF if shift else i32
            return (self.address + rot) & 0xFFFFFFFF
        return self.address + (int(i) * self.bits) // 8

    def __add__(self, i: Any) -> Pointer:
        return replace(self, address=self._advance(i))

    def __getitem__(self, i: Any) -> int:
        """The address of element ``i`` (swizzled for a swizzled shared-memory pointer)."""
        a = self._advance(i)
        return self.swizzle(a) if self.swizzle is not None else a

    def bind(self, layout: Any) -> tuple[Pointer, Any]:
        """C++'s ``make_tensor(ptr, layout)`` for a pointer-flag layout: ``(engine, layout)``.

        ``Sw o smem_ptr[b](unset) o L`` gives ``(Sw_ptr, L)``: the swizzle moves onto the
        pointer (C++'s ``make_tensor`` overload in ``pointer_flagged.hpp``); any other layout
        is returned as it is.

        Pre:  a pointer-flag layout goes with a shared-memory pointer of ``b``-bit elements
              (C++'s static asserts "Expected smem." and "Expected a B-bit pointer type."),
              else ``CutepyError``.
        Post: ``engine[inner(c)]`` is the byte address C++'s tensor gives at ``c``.

        >>> L = ComposedLayout(Swizzle(1, 4, 3), SmemPtrFlag(8), Layout((8, 32), (32, 1)))
        >>> smem_ptr("int8_t").bind(L)
        (Sw<1,4,3>_smem_ptr[8b](0x0), (8,32):(32,1))
        """
        if (flag := pointer_flag(layout)) is not None:
            sw, _, inner = composed_parts(layout)
            if self.space != "smem":
                raise CutepyError(
                    f"{layout} is a shared-memory layout; C++ requires an smem pointer, not {self}"
                )
            if flag.bits != self.bits:
                raise CutepyError(
                    f"{layout} expects {flag.bits}-bit elements; the pointer {self} has "
                    f"{self.bits}-bit {self.dtype} (C++: Expected a B-bit pointer type)"
                )
            if not isinstance(sw, Swizzle):
                raise CutepyError(f"{layout}: only a swizzle can act on the pointer's addresses")
            if self.swizzle is not None:
                raise CutepyError(f"{self} already carries a swizzle")
            return (replace(self, swizzle=sw) if sw.bits else self), inner
        return self, layout

    def __str__(self) -> str:
        if self.space == "tmem":
            return f"tmem_[{self.bits}b](0x{self.address >> 16:04x}.{self.address & 0xFFFF:04x})"
        text = f"{self.space}_ptr[{self.bits}b](0x{self.address:x})"
        return f"{self.swizzle}_{text}" if self.swizzle is not None else text

    __repr__ = __str__


def gmem_ptr(dtype: str, address: int = 0) -> Pointer:
    """C++ ``make_gmem_ptr<T>(address)``: a global-memory pointer to ``dtype`` elements.

    Pre:  ``dtype`` is a C++ element type name; ``address`` (bytes) is a 64-bit unsigned
          integer (else ``CutepyError``).
    Post: ``result[i] == address + i * sizeof_bits(dtype) / 8`` (floored for sub-byte types).

    >>> gmem_ptr("half_t", 0x1000), gmem_ptr("half_t", 0x1000)[5]
    (gmem_ptr[16b](0x1000), 4106)
    """
    return Pointer("gmem", dtype, address)


def smem_ptr(dtype: str, address: int = 0) -> Pointer:
    """C++ ``make_smem_ptr<T>(address)``: a shared-memory pointer to ``dtype`` elements.

    Pre:  ``dtype`` is a C++ element type name; ``address`` (bytes) a 64-bit unsigned integer.
    Post: ``result[i] == address + i * sizeof_bits(dtype) / 8``; a swizzled layout given to
          ``make_tensor`` with it swizzles these byte addresses.

    >>> smem_ptr("float", 64)[2]
    72
    """
    return Pointer("smem", dtype, address)


def tmem_ptr(dtype: str, address: int = 0) -> Pointer:
    """C++ ``make_tmem_ptr<T>(address)``: a tensor-memory address ``(lane << 16) | column``.

    Pre:  ``dtype`` is a C++ element type name; ``address`` a 32-bit unsigned integer.
    Post: ``result[i]`` is C++'s ``(ptr + i).get()``: ``address + i`` for 32-bit elements (one
          column each); narrower elements keep their sub-word index in the top bits, as C++.

    >>> tmem_ptr("float", 0), tmem_ptr("float", 0)[65536 + 3]
    (tmem_[32b](0x0000.0000), 65539)
    """
    return Pointer("tmem", dtype, address)


def element_swizzle(sw: Any, bits: int) -> Any:
    """C++ ``recast_layout<uint8_t, uint_bit_t<bits>>(sw)``: a swizzle on byte addresses as the
    swizzle on the offsets of ``bits``-bit elements.

    >>> element_swizzle(Swizzle(3, 4, 3), 16), element_swizzle(Swizzle(3, 4, 3), 4)
    (Sw<3,3,3>, Sw<3,5,3>)
    """
    return upcast(sw, bits // 8) if bits >= 8 else downcast(sw, 8 // bits)


def as_position_independent_swizzle_layout(layout: Any) -> Any:
    """C++ ``as_position_independent_swizzle_layout``: ``Sw o smem_ptr[b](unset) o L`` with the
    swizzle recast from bytes to ``b``-bit elements, over offset 0.

    Pre:  ``layout`` is a pointer-flag layout (else ``CutepyError``).
    Post: ``result(c)`` is the element offset whose byte address the pointer-flag form swizzles
          to, for a pointer aligned to the swizzle; a swizzle left without bits gives ``L``.

    >>> L = ComposedLayout(Swizzle(3, 4, 3), SmemPtrFlag(16), Layout((8, 64), (64, 1)))
    >>> as_position_independent_swizzle_layout(L)
    Sw<3,3,3> o 0 o (8,64):(64,1)
    """
    if (flag := pointer_flag(layout)) is None:
        raise CutepyError(f"{layout!r} is not a pointer-flag layout Sw o smem_ptr[b](unset) o L")
    outer, _, inner = composed_parts(layout)
    sw = element_swizzle(outer, flag.bits)
    if isinstance(sw, Swizzle) and sw.bits == 0:
        return inner
    return ComposedLayout(sw, 0, inner)


def as_pointer_flag_layout(layout: Any, dtype: str) -> Any:
    """The pointer-flag form of a swizzled layout over ``dtype`` elements.

    ``Sw<B,M,S> o 0 o L`` on element offsets becomes ``Sw<B,M+log2(b/8),S> o smem_ptr[b](unset)
    o L`` on byte addresses; a pointer-flag layout or a plain layout is returned as it is.

    Pre:  ``dtype`` is an element type of at least 8 bits when the layout is swizzled on element
          offsets; the offset is 0 (else ``CutepyError``).
    Post: ``as_position_independent_swizzle_layout(result) == layout`` for a swizzled ``layout``.

    >>> as_pointer_flag_layout(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))), "half_t")
    Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
    """
    bits = element_bits(dtype)
    if isinstance(layout, Layout) or pointer_flag(layout) is not None:
        return layout
    parts = composed_parts(layout)
    if parts is None or not isinstance(parts[0], Swizzle):
        raise CutepyError(f"{layout!r} is not a layout or a swizzled layout Sw o offset o L")
    sw, offset, inner = parts
    if type(offset) is not int or offset != 0:
        raise CutepyError(f"{layout}: a swizzled smem layout needs offset 0, not {offset}")
    if bits < 8 or bits & (bits - 1):
        raise CutepyError(
            f"{layout}: a swizzle on {bits}-bit element offsets has no byte form (elements under 8 bits)"
        )
    return ComposedLayout(Swizzle(sw.bits, sw.base + (bits // 8).bit_length() - 1, sw.shift),
                          SmemPtrFlag(bits), inner)


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = ["as_position_independent_swizzle_layout", "gmem_ptr", "smem_ptr", "tmem_ptr"]
