"""Blackwell tensor memory (TMEM): the accumulator fragments of SM100 UMMA atoms, as C++'s
``UMMA::tmem_frg<ValueType, StorageType, N_SM, TmemAlloc>::make`` lays them out
(``cute/atom/mma_traits_sm100_frag.hpp``, CUTLASS 4.7).

TMEM is 128 lanes (data paths, DP) x 512 columns of 32-bit cells per SM; a TMEM address is
``(lane << 16) | column``. An accumulator ``((M_MMA, N_MMA), MMA_M, MMA_N, ...)`` is laid out
lane-first: row ``m`` of a 128-row accumulator is lane ``m``, column ``n`` column ``n``.

>>> t = make_tmem_frg("float", ((128, 256), 1, 1))
>>> t
tmem_[32b](0x0000.0000) o ((128,256),1,1):((65536,1),0,0)
>>> hex(t((37, 5), 0, 0)), tmem_columns(t)
('0x250005', 256)
"""

from __future__ import annotations

from typing import Any

from ..algebra.composition import composition
from ..algebra.products import tiled_product
from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.layout import Layout, size
from .pointer import element_bits, tmem_ptr
from .tensor import Tensor

LANES = 128
COLUMNS = 512
MAX_CAPACITY_BITS = LANES * COLUMNS * 32


def dp(bits: int) -> int:
    """C++ ``TMEM::DP<T>``: the address step of one lane for ``bits``-bit values."""
    shift = (32 // bits).bit_length() - 1 if bits < 32 else 0
    return (1 << 16) << shift


def make_tmem_frg(value_type: str, tmem_shape: Any, n_sm: int = 1, storage_type: str = "uint32_t",
                  alloc: str = "Interleaved") -> Tensor:
    """C++ ``UMMA::tmem_frg<ValueType, StorageType, N_SM, TmemAlloc>::make(tmem_shape)``.

    Pre:  ``tmem_shape`` is ``((M_MMA, N_MMA), Rest...)``; ``n_sm`` 1 or 2; ``alloc`` one of
          ``Interleaved``, ``NonInterleaved`` (1 SM), ``Duplicated`` (2 SM); ``M_MMA`` 64 or 128
          (1 SM) or 32, 64, 128 (2 SM); the fragment fits TMEM (C++'s "Requesting more TMEM than
          is available."); else ``CutepyError`` naming C++'s assert.
    Post: a tensor over ``tmem_ptr(value_type)`` whose value at ``(m, n)`` is the TMEM address
          (``lane << 16 | column``) of accumulator element ``(m, n)``.

    >>> t = make_tmem_frg("float", ((128, 256), 1, 1))
    >>> t.layout, hex(t(((1, 2), 0, 0)))
    (((128,256),1,1):((65536,1),0,0), '0x10002')
    """
    vbits, sbits = element_bits(value_type), element_bits(storage_type)
    if vbits > sbits:
        raise CutepyError("TMEM MMA allocations require StorageType big enough for ValueType: "
                          f"{value_type} is {vbits} bits, {storage_type} {sbits}")
    if not isinstance(tmem_shape, tuple) or not isinstance(tmem_shape[0], tuple) or len(tmem_shape[0]) != 2:
        raise CutepyError(f"Expected post-partitioned shape ((M_MMA,N_MMA),...), not {tmem_shape}")
    if size(Layout(tmem_shape)) * sbits > MAX_CAPACITY_BITS:
        raise CutepyError(f"Requesting more TMEM than is available: {tmem_shape} of {sbits}-bit storage is "
                          f"{size(Layout(tmem_shape)) * sbits} bits, TMEM holds {MAX_CAPACITY_BITS}")
    m_mma, n_mma = tmem_shape[0]
    rest = tmem_shape[1:]
    rest_layout = Layout(rest)  # C++ make_layout(take<1,R>(tmem_shape))
    restride = Layout((128, 16384), (dp(vbits), sbits // vbits))
    if n_sm == 1:
        if alloc not in ("Interleaved", "NonInterleaved"):
            raise CutepyError(f"UMMA_1SM only accepts Interleaved or NonInterleaved, not {alloc}")
        if m_mma == 64:
            atom = Layout(((16, 4), n_mma), ((1, 32), 128))
            ts = 1 if alloc == "Interleaved" else 2
            # C++ compact_col_major(rest, tile_stride): tile in DPs first, skipping a tile if 2
            rest_layout = Layout(rest, it.transform_leaf(lambda d: d * ts, Layout(rest).stride))
        elif m_mma == 128:
            atom = Layout((128, n_mma), (1, 128))
        else:
            raise CutepyError(f"UMMA_1SM M-mode size should be 64 or 128, not {m_mma}")
    elif n_sm == 2:
        if alloc not in ("Interleaved", "Duplicated"):
            raise CutepyError(f"UMMA_2SM only accepts Interleaved or Duplicated, not {alloc}")
        if m_mma == 32:
            atom = Layout((32, (n_mma // 4, 4)), (1, (128, 32)))
        elif m_mma == 64 and alloc == "Interleaved":
            atom = Layout((64, (n_mma // 2, 2)), (1, (128, 64)))
        elif m_mma in (64, 128):
            atom = Layout((128, n_mma), (1, 128))
        else:
            raise CutepyError(f"UMMA_2SM M-mode size should be 32 or 64 or 128, not {m_mma}")
    else:
        raise CutepyError(f"UMMA expects N_SM == 1 or N_SM == 2, not {n_sm}")
    logical = tiled_product(atom, rest_layout)
    return Tensor(tmem_ptr(value_type), composition(restride, logical))


def tmem_columns(t: Tensor) -> int:
    """How many TMEM columns a TMEM tensor spans (the allocation ``tcgen05.alloc`` needs, before
    rounding up to a power of two >= 32).

    Pre:  ``t`` is a tensor over ``tmem_ptr`` with a plain layout (else ``CutepyError``).
    Post: ``1 + max(column) - min(column)`` over its addresses.

    >>> tmem_columns(make_tmem_frg("float", ((128, 256), 1, 1)))
    256
    """
    if not isinstance(t, Tensor) or getattr(t.engine, "space", None) != "tmem":
        raise CutepyError(f"tmem_columns takes a tensor over tmem_ptr, not {t!r}")
    cols = [a & 0xFFFF for a in (t.engine[int(o) + t.offset] for o in t.layout.offsets())]
    return max(cols) - min(cols) + 1


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = ["make_tmem_frg", "tmem_columns"]
