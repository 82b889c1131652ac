"""TiledCopy: a copy atom repeated over threads and values, and each thread's source and
destination partitions, ported from C++ CuTe's ``cute/atom/copy_atom.hpp`` (CUTLASS 4.2).

>>> from cutepy.atoms import copy_atom
>>> cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
...                      Layout((16, 8), (8, 1)), Layout((1, 8)))
>>> cp.tiler_mn, cp.layout_tv_tiled, cp.size
((16, 64), ((8,16),8):((128,1),16), 128)
>>> from cutepy.tensor import make_identity_tensor
>>> cp.get_slice(1).partition_S(make_identity_tensor((16, 64)))
ArithTuple(0,8) o ((8,1),1,1):((1@1,0),0,0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..atoms.copy import CopyAtom
from ..casting import upcast
from ..coalesce import coalesce
from ..composition import composition
from ..errors import CutepyError
from ..inttuple import product_each
from ..inverse import right_inverse
from ..layout import Layout, prepend, size, slice_and_offset
from ..products import logical_product, raked_product
from ..tensor import Tensor, compact_layout
from .mma import MAX_THREADS, TiledMMA
from .zip import rank_of, repeat_wild, zip_layout, zipped_divide_cxx


def _tiler_shape(tiler: Any) -> Any:
    """C++ ``shape(Tiler_MN)``: an int stays, a layout gives its shape, a tuple maps."""
    if isinstance(tiler, tuple):
        return tuple(_tiler_shape(t) for t in tiler)
    return tiler.shape if isinstance(tiler, Layout) else tiler


@dataclass(frozen=True)
class TiledCopy:
    """C++ ``TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>``.

    ``layout_tv_tiled`` maps (thread, value) to the column-major index of the
    ``tiler_mn`` tile; ``tiler_mn`` is a shape (or a tuple of layouts).

    >>> from cutepy.atoms import copy_atom
    >>> cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
    >>> cp.tiler_mn, cp.layout_tv_tiled, cp.size
    ((4, 16), ((8,4),2):((8,1),4), 32)
    """

    copy_atom: CopyAtom
    layout_tv_tiled: Layout
    tiler_mn: Any

    @property
    def size(self) -> int:
        return size(self.layout_tv_tiled[0])

    @property
    def tile_shape(self) -> tuple:
        """The extent of the tile in each mode (C++ ``product_each(shape(Tiler_MN))``)."""
        s = _tiler_shape(self.tiler_mn)
        return product_each(s) if isinstance(s, tuple) else (s,)

    # -- C++ tidfrg_S / tidfrg_D / tile2thrfrg -----------------------------------------
    def _ref2trg(self, trg: Layout) -> Layout:
        return composition(right_inverse(self.copy_atom.layout_ref_tv), trg)

    def tile2thrfrg(self, L: Layout, ref2trg: Layout) -> Layout:
        """``(Thr, (AtomV, RestV), Rest...)`` of ``L`` whose mode 0 is one tile."""
        atom_thr = size(self.copy_atom.layout_ref_tv[0])
        atom_val = size(self.copy_atom.layout_ref_tv[1])
        atom_layout_tv = zipped_divide_cxx(
            self.layout_tv_tiled, (compact_layout(atom_thr), compact_layout(atom_val))
        )
        trg_layout_tv = composition(atom_layout_tv, (ref2trg, None))
        thrval2mn = coalesce(zip_layout(trg_layout_tv), (1, (1, 1)))
        tv = composition(L, (thrval2mn, None))
        return slice_and_offset(((None, None), None), tv)[0]

    def tidfrg_S(self, L: Layout) -> Layout:
        return self.tile2thrfrg(
            zipped_divide_cxx(L, self.tiler_mn), self._ref2trg(self.copy_atom.layout_src_tv)
        )

    def tidfrg_D(self, L: Layout) -> Layout:
        return self.tile2thrfrg(
            zipped_divide_cxx(L, self.tiler_mn), self._ref2trg(self.copy_atom.layout_dst_tv)
        )

    def _ref_tile(self) -> Layout:
        return compact_layout((_tiler_shape(self.tiler_mn), 1))

    @property
    def layout_src_tv_tiled(self) -> Layout:
        """C++ ``get_layoutS_TV``: (thread, value) -> tile index, as the source sees it."""
        L = self.tile2thrfrg(self._ref_tile(), self._ref2trg(self.copy_atom.layout_src_tv))
        return slice_and_offset((None, None, 0), L)[0]

    @property
    def layout_dst_tv_tiled(self) -> Layout:
        """C++ ``get_layoutD_TV``: (thread, value) -> tile index, as the destination sees it."""
        L = self.tile2thrfrg(self._ref_tile(), self._ref2trg(self.copy_atom.layout_dst_tv))
        return slice_and_offset((None, None, 0), L)[0]

    def retile(self, tensor: Any) -> Any:
        """C++ ``retile``: a thread's fragment ``(V, Rest...)`` regrouped as ``(AtomV, RestV, Rest...)``."""
        L = tensor.layout if isinstance(tensor, Tensor) else tensor
        R = L.rank()
        V = size(L[0]) if isinstance(L.shape, tuple) else size(L)
        nthr = size(self.layout_tv_tiled[0])
        frg_mn = upcast(
            composition(right_inverse(self.layout_tv_tiled), compact_layout(_tiler_shape(self.tiler_mn))),
            nthr * V,
        )
        atom_val = size(self.copy_atom.layout_ref_tv[1])
        frg_v = zipped_divide_cxx(
            logical_product(compact_layout(V), right_inverse(frg_mn)), compact_layout(atom_val)
        )
        shp = frg_mn.shape
        t_tiler = prepend(
            compact_layout(product_each(shp) if isinstance(shp, tuple) else shp), compact_layout(V)
        )
        t = zipped_divide_cxx(L, tuple(compact_layout(s) for s in t_tiler.shape))
        v = composition(t, (frg_v, None))
        crd = (None, (0,) + (None,) * (R - 1)) if R > 1 else (None, 0)
        out = slice_and_offset(crd, v)
        if isinstance(tensor, Tensor):
            return Tensor(tensor.engine, out[0], tensor.offset + out[1])
        return out[0]

    def get_slice(self, thr_idx: int) -> ThrCopy:
        if type(thr_idx) is not int or not 0 <= thr_idx < self.size:
            raise CutepyError(f"thread {thr_idx!r} is outside this TiledCopy's {self.size} threads")
        return ThrCopy(self, thr_idx)

    get_thread_slice = get_slice

    def __str__(self) -> str:
        tiler = self.tiler_mn
        t = "(" + ",".join(str(x) for x in tiler) + ")" if isinstance(tiler, tuple) else str(tiler)
        return (
            f"TiledCopy\n  Tiler_MN:       {t}\n  TiledLayout_TV: {self.layout_tv_tiled}\n{self.copy_atom}"
        )

    def __repr__(self) -> str:
        return f"TiledCopy({self.copy_atom!r}, {self.layout_tv_tiled}, {self.tiler_mn})"


@dataclass(frozen=True)
class ThrCopy:
    """C++ ``ThrCopy``: thread ``thr_idx``'s view of a TiledCopy.

    >>> from cutepy.atoms import copy_atom
    >>> from cutepy.tensor import make_identity_tensor
    >>> cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
    >>> cp.get_slice(1).partition_S(make_identity_tensor((4, 16)))
    ArithTuple(0,2) o ((1,2),1,1):((0,1@1),0,0)
    """

    tiled_copy: TiledCopy
    thr_idx: int

    def _part(self, frg: Layout, tensor: Any) -> Any:
        crd = (self.thr_idx, None, repeat_wild(rank_of(_layout_of(tensor).shape)))
        if isinstance(tensor, Tensor):
            return Tensor(tensor.engine, frg, tensor.offset).slice(crd)
        return slice_and_offset(crd, frg)[0]

    def partition_S(self, tensor: Any) -> Any:
        """This thread's source values: ``(CopyV, RestM, RestN, ...)``."""
        return self._part(self.tiled_copy.tidfrg_S(_layout_of(tensor)), tensor)

    def partition_D(self, tensor: Any) -> Any:
        """This thread's destination values: ``(CopyV, RestM, RestN, ...)``."""
        return self._part(self.tiled_copy.tidfrg_D(_layout_of(tensor)), tensor)

    def retile_S(self, tensor: Any) -> Any:
        return self.tiled_copy.retile(tensor)

    def retile_D(self, tensor: Any) -> Any:
        return self.tiled_copy.retile(tensor)


def _layout_of(x: Any) -> Layout:
    if isinstance(x, Tensor):
        if not isinstance(x.layout, Layout):
            raise CutepyError(
                "TiledCopy partitions tensors with plain layouts here; partition the "
                "swizzle's inner layout and apply the swizzle to the offsets"
            )
        return x.layout
    return x if isinstance(x, Layout) else compact_layout(x)


def make_tiled_copy_impl(atom: CopyAtom, layout_tv: Layout, tiler: Any) -> TiledCopy:
    """C++ ``make_tiled_copy_impl``, with its static checks as errors."""
    if not isinstance(atom, CopyAtom):
        raise CutepyError(f"a TiledCopy is built from a copy atom (cutepy.copy_atom), not {atom!r}")
    at, av = size(atom.layout_ref_tv[0]), size(atom.layout_ref_tv[1])
    tt, tv = size(layout_tv[0]), size(layout_tv[1])
    if tt > MAX_THREADS:
        raise CutepyError(f"TiledCopy: {tt} threads exceed the limit {MAX_THREADS}")
    if tt % at != 0:
        raise CutepyError(f"TiledCopy uses too few threads for {atom.name}: {tt} is not a multiple of {at}")
    if tv % av != 0:
        raise CutepyError(
            f"TiledCopy uses too few values for {atom.name}: {tv} values per thread are not "
            f"a multiple of the atom's {av}"
        )
    return TiledCopy(atom, layout_tv, tiler)


def make_tiled_copy(atom: CopyAtom, thr_layout: Any, val_layout: Any = None) -> TiledCopy:
    """C++ ``make_tiled_copy``: threads laid out by ``thr_layout`` ((m,n) -> thread), each
    copying a ``val_layout`` block ((m,n) -> value); the blocks are raked across the threads.

    Pre:  ``thr_layout`` and ``val_layout`` are layouts or shapes; ``size(thr_layout)`` is a
          multiple of the atom's threads and ``size(val_layout)`` of its values (else ``CutepyError``).
    Post: ``tiler_mn == product_each(shape(raked_product(thr_layout, val_layout)))`` and
          ``layout_tv_tiled == right_inverse(raked_product(thr, val)) o (size(thr), size(val))``.

    >>> from cutepy.atoms import copy_atom
    >>> cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
    >>> cp.tiler_mn, cp.layout_tv_tiled
    ((4, 16), ((8,4),2):((8,1),4))
    """
    thr = thr_layout if isinstance(thr_layout, Layout) else compact_layout(thr_layout)
    val = (
        compact_layout(1)
        if val_layout is None
        else (val_layout if isinstance(val_layout, Layout) else compact_layout(val_layout))
    )
    layout_mn = raked_product(thr, val)
    layout_tv = composition(right_inverse(layout_mn), compact_layout((size(thr), size(val))))
    s = layout_mn.shape
    tiler = product_each(s) if isinstance(s, tuple) else s
    return make_tiled_copy_impl(atom, layout_tv, tiler)


def make_tiled_copy_A(atom: CopyAtom, mma: TiledMMA) -> TiledCopy:
    """C++ ``make_tiled_copy_A``: the copy whose threads and values are the TiledMMA's A.

    Pre:  the MMA's A layout has a multiple of the atom's threads and values per thread
          (else ``CutepyError``).
    Post: ``layout_tv_tiled == mma.tv_layout_A_tiled`` and ``tiler_mn == (M, K)`` of the MMA tile.

    >>> from cutepy.atoms import copy_atom, mma_atom
    >>> from cutepy.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> cp = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    >>> cp.tiler_mn, cp.size
    ((32, 16), 128)
    """
    M, _, K = mma.tile_size_mnk
    return make_tiled_copy_impl(atom, mma.tv_layout_A_tiled, (M, K))


def make_tiled_copy_B(atom: CopyAtom, mma: TiledMMA) -> TiledCopy:
    """C++ ``make_tiled_copy_B``: the copy whose threads and values are the TiledMMA's B.

    Pre:  the MMA's B layout has a multiple of the atom's threads and values per thread
          (else ``CutepyError``).
    Post: ``layout_tv_tiled == mma.tv_layout_B_tiled`` and ``tiler_mn == (N, K)`` of the MMA tile.

    >>> from cutepy.atoms import copy_atom, mma_atom
    >>> from cutepy.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> make_tiled_copy_B(copy_atom("SM75_U32x2_LDSM_N", 16), mma).tiler_mn
    (16, 16)
    """
    _, N, K = mma.tile_size_mnk
    return make_tiled_copy_impl(atom, mma.tv_layout_B_tiled, (N, K))


def make_tiled_copy_C(atom: CopyAtom, mma: TiledMMA) -> TiledCopy:
    """C++ ``make_tiled_copy_C``: the copy whose threads and values are the TiledMMA's C.

    Pre:  the MMA's C layout has a multiple of the atom's threads and values per thread
          (else ``CutepyError``).
    Post: ``layout_tv_tiled == mma.tv_layout_C_tiled`` and ``tiler_mn == (M, N)`` of the MMA tile.

    >>> from cutepy.atoms import copy_atom, mma_atom
    >>> from cutepy.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> make_tiled_copy_C(copy_atom("UniversalCopy<uint32_t>", 16), mma).tiler_mn
    (32, 16)
    """
    M, N, _ = mma.tile_size_mnk
    return make_tiled_copy_impl(atom, mma.tv_layout_C_tiled, (M, N))


__all__ = [
    "ThrCopy",
    "TiledCopy",
    "make_tiled_copy",
    "make_tiled_copy_A",
    "make_tiled_copy_B",
    "make_tiled_copy_C",
    "make_tiled_copy_impl",
]
