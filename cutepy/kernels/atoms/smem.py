"""The canonical SM90 shared-memory layout atoms of GMMA, C++ ``GMMA::Layout_{K,MN}_{INTER,SW32,
SW64,SW128}_Atom<T>`` (``cute/atom/mma_traits_sm90_gmma.hpp``).

C++ defines them in bits, ``Swizzle<B,4,3> o smem_ptr[1b] o (8, W):(W, 1)`` (K-major) or
``(W, 8):(1, W)`` (MN-major) with ``W = 128 * 2**B`` bits, and upcasts them to the element
type: ``Sw<B,4,3> o smem_ptr[b](unset) o L``, whose swizzle acts on the byte addresses of the
shared-memory pointer the layout is given to (``make_tensor(smem_ptr(T), layout)``). That is
what :func:`gmma_smem_layout` returns; ``as_position_independent_swizzle_layout`` of it is the
form whose swizzle acts on element offsets.

>>> gmma_smem_layout("K", 128, 16)
Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
>>> gmma_smem_layout("MN", 32, 32)
Sw<1,4,3> o smem_ptr[32b](unset) o (8,8):(1,8)
>>> gmma_smem_layout("K", 0, "half_t")
Sw<0,4,3> o smem_ptr[16b](unset) o (8,8):(8,1)
"""

from __future__ import annotations

from typing import Any

from ...algebra.composed import ComposedLayout
from ...algebra.divides import tiled_divide
from ...algebra.products import tile_to_shape
from ...core.errors import CutepyError
from ...core.inttuple import product_each_tuple as product_each
from ...core.layout import Layout
from ...core.swizzle import SmemPtrFlag, Swizzle
from ..pointer import element_bits as _element_bits

#: swizzle width in bytes (0 = INTER, interleaved, no swizzle) -> Swizzle<B,...> bits
SWIZZLE_BITS = {0: 0, 32: 1, 64: 2, 128: 3}


def gmma_smem_layout(major: str, swizzle_bytes: int, element: int | str) -> ComposedLayout:
    """``GMMA::Layout_{major}_{SW<swizzle_bytes>|INTER}_Atom<T>`` for ``T`` of ``element`` bits
    (or named by its C++ name), in C++'s pointer-flag form.

    Pre:  ``major`` is ``"K"`` or ``"MN"``; ``swizzle_bytes`` is 0 (INTER), 32, 64 or 128;
          ``element`` is a power of two of bits from 4 to 128 or a C++ element type name of
          such a width (else ``CutepyError``).
    Post: ``Sw<B,4,3> o smem_ptr[b](unset) o L`` as C++ prints it: ``L`` covers ``8`` rows of
          ``16 * 2**B`` bytes in elements; the swizzle acts on byte addresses (INTER keeps the
          bitless ``Sw<0,4,3>``, as C++).

    >>> gmma_smem_layout("K", 64, 16)
    Sw<2,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)
    """
    if major not in ("K", "MN"):
        raise CutepyError(f"gmma_smem_layout: major must be 'K' or 'MN', not {major!r}")
    if swizzle_bytes not in SWIZZLE_BITS:
        raise CutepyError(
            f"gmma_smem_layout: swizzle_bytes must be 0 (INTER), 32, 64 or 128, not {swizzle_bytes!r}"
        )
    bits = _element_bits(element) if isinstance(element, str) else element
    if bits not in (4, 8, 16, 32, 64, 128):
        raise CutepyError(
            f"gmma_smem_layout: the element must be a power of two from 4 to 128 bits, not {element!r}"
        )
    b = SWIZZLE_BITS[swizzle_bytes]
    w = (128 << b) // bits  # elements per row of the atom
    inner = Layout((8, w), (w, 1)) if major == "K" else Layout((w, 8), (1, w))
    return ComposedLayout(Swizzle(b, 4, 3), SmemPtrFlag(bits), inner)


def tile_to_mma_shape(atom: Any, mma_tile_shape: Any, order: Any = None) -> Any:
    """C++ ``UMMA::tile_to_mma_shape(atom, mma_tile_shape)``: an smem layout atom tiled to a
    post-partitioned MMA shape ``((MMA_M, MMA_K), M_MMAs, K_MMAs, ...)``.

    As C++: ``tile_to_shape(atom, ((MMA_M, M_MMAs), (MMA_K, K_MMAs), ...))`` then
    ``tiled_divide`` by ``(MMA_M, MMA_K)``, so mode 0 is one MMA's operand.

    Pre:  ``mma_tile_shape`` has rank >= 3 with a rank-2 mode 0; the atom tiles it (else
          ``CutepyError``).
    Post: ``shape(result)`` is ``mma_tile_shape``'s profile, ``((MMA_M, MMA_K), M_MMAs, K_MMAs, ...)``.

    >>> tile_to_mma_shape(gmma_smem_layout("K", 128, "half_t"), ((128, 16), 1, 4))
    Sw<3,4,3> o smem_ptr[16b](unset) o ((128,16),1,4):((64,1),0,16)
    """
    s = mma_tile_shape
    if not isinstance(s, tuple) or len(s) < 3 or not isinstance(s[0], tuple):
        raise CutepyError(f"tile_to_mma_shape: expected ((MMA_M,MMA_K),M_MMAs,K_MMAs,...), not {s}")
    head = mma_tile_shape[0]
    if len(head) != 2:
        raise CutepyError(f"tile_to_mma_shape: mode 0 of {mma_tile_shape} must have 2 modes")
    mn_shape = tuple(zip(head, mma_tile_shape[1:3])) + tuple(mma_tile_shape[3:])
    tiled = tile_to_shape(atom, mn_shape, order)
    return tiled_divide(tiled, tuple(product_each(head)))
