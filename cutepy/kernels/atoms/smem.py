"""The canonical SM90 shared-memory layout atoms of GMMA, C++ ``GMMA::Layout_{K,MN}_{INTER,SW32,
SW64,SW128}_Atom<T>`` (``cute/atom/mma_traits_sm90_gmma.hpp``).

C++ defines them in bits, ``Swizzle<B,4,3> o smem_ptr o (8, W):(W, 1)`` (K-major) or
``(W, 8):(1, W)`` (MN-major) with ``W = 128 * 2**B`` bits, and upcasts them to the element
type. Its swizzle acts on byte addresses (the pointer's); cutepy returns the position-
independent form C++'s ``as_position_independent_swizzle_layout`` computes, whose swizzle
acts on element offsets, so that ``layout(m, k)`` is the element offset.

>>> gmma_smem_layout("K", 128, 16)
Sw<3,3,3> o 0 o (8,64):(64,1)
>>> gmma_smem_layout("MN", 32, 32)
Sw<1,2,3> o 0 o (8,8):(1,8)
>>> gmma_smem_layout("K", 0, 16)
(8,8):(8,1)
"""

from __future__ import annotations

from ...algebra.swizzle import ComposedLayout, Swizzle
from ...core.errors import CutepyError
from ...core.layout import Layout

#: swizzle width in bytes (0 = INTER, interleaved, no swizzle) -> Swizzle<B,...> bits
SWIZZLE_BITS = {0: 0, 32: 1, 64: 2, 128: 3}


def gmma_smem_layout(major: str, swizzle_bytes: int, element_bits: int) -> ComposedLayout | Layout:
    """``GMMA::Layout_{major}_{SW<swizzle_bytes>|INTER}_Atom<T>`` for ``T`` of ``element_bits`` bits.

    Pre:  ``major`` is ``"K"`` or ``"MN"``; ``swizzle_bytes`` is 0 (INTER), 32, 64 or 128;
          ``element_bits`` is a power of two from 4 to 128 (else ``CutepyError``).
    Post: a ``Swizzle o 0 o Layout`` whose offsets are element offsets, the atom covering
          ``8`` rows of ``16 * 2**B`` bytes each; for INTER (no swizzle) the plain layout, as C++'s
          position-independent form drops the identity swizzle.

    >>> gmma_smem_layout("K", 64, 16)
    Sw<2,3,3> o 0 o (8,32):(32,1)
    """
    if major not in ("K", "MN"):
        raise CutepyError(f"gmma_smem_layout: major must be 'K' or 'MN', not {major!r}")
    if swizzle_bytes not in SWIZZLE_BITS:
        raise CutepyError(
            f"gmma_smem_layout: swizzle_bytes must be 0 (INTER), 32, 64 or 128, not {swizzle_bytes!r}"
        )
    if element_bits not in (4, 8, 16, 32, 64, 128):
        raise CutepyError(
            f"gmma_smem_layout: element_bits must be a power of two from 4 to 128, not {element_bits!r}"
        )
    b = SWIZZLE_BITS[swizzle_bytes]
    w = (128 << b) // element_bits  # elements per row of the atom
    inner = Layout((8, w), (w, 1)) if major == "K" else Layout((w, 8), (1, w))
    if b == 0:
        return inner
    per16 = 128 // element_bits  # elements in the 16-byte unit the swizzle moves
    base = per16.bit_length() - 1
    return ComposedLayout(Swizzle(b, base, 3), 0, inner)
