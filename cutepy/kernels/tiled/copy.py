"""TiledCopy: a copy atom repeated over threads and values, and each thread's source and
destination partitions, ported from C++ CuTe's ``cute/atom/copy_atom.hpp`` (CUTLASS 4.2).

>>> from cutepy.kernels.atoms import copy_atom
>>> cp = make_tiled_copy(copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", 16),
...                      Layout((16, 8), (8, 1)), Layout((1, 8)))
>>> cp.tiler_mn, cp.layout_tv_tiled, cp.size
((16, 64), ((8,16),8):((128,1),16), 128)
>>> from cutepy.kernels.tensor import make_identity_tensor
>>> cp.get_slice(1).partition_S(make_identity_tensor((16, 64)))
ArithTuple(0,8) o ((8,1),1,1):((1@1,0),0,0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...algebra.casting import upcast
from ...algebra.coalesce import coalesce, filter
from ...algebra.composed import is_layout
from ...algebra.composition import composition
from ...algebra.divides import zipped_divide
from ...algebra.inverse import left_inverse, right_inverse
from ...algebra.products import logical_product, raked_product
from ...core.errors import CutepyError
from ...core.inttuple import StaticCxxFormat, format_tuple, format_value, short_repr
from ...core.inttuple import flatten_tuple as flatten
from ...core.inttuple import product_each_tuple as product_each
from ...core.kinds import SIZE, ThreadsKind
from ...core.layout import Layout, make_layout, prepend, size, slice_and_offset
from ..atoms.copy import CopyAtom
from ..memo import derived, derived_of, sliced
from ..tensor import Tensor, thread_index
from .mma import MAX_THREADS, TiledMMA
from .zip import rank_of, repeat_wild, zip_layout


def _tiler_shape(tiler: Any) -> Any:
    """C++ ``shape(Tiler_MN)``: an int stays, a layout gives its shape, a tuple maps."""
    if isinstance(tiler, tuple):
        return tuple(_tiler_shape(t) for t in tiler)
    return tiler.shape if isinstance(tiler, Layout) else tiler


@dataclass(frozen=True)
class TiledCopy(StaticCxxFormat, ThreadsKind):
    """C++ ``TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>``.

    ``layout_tv_tiled`` maps (thread, value) to the column-major index of the
    ``tiler_mn`` tile; ``tiler_mn`` is a shape (or a tuple of layouts).

    >>> from cutepy.kernels.atoms import copy_atom
    >>> cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
    >>> cp.tiler_mn, cp.layout_tv_tiled, cp.size
    ((4, 16), ((8,4),2):((8,1),4), 32)
    """

    copy_atom: CopyAtom
    layout_tv_tiled: Layout
    tiler_mn: Any
    #: how it was made, for code that rebuilds it as a person writes it (``cutepy.emit``):
    #: ``("make_tiled_copy", thr_layout, val_layout)`` or ``("make_tiled_copy_A", tiled_mma)``
    #: (``_B``, ``_C``); ``None`` for other constructions. Not part of the value (not compared).
    origin: Any = field(default=None, compare=False, repr=False)

    @property
    def size(self) -> int:
        return derived(self, ("size",), lambda: size(self.layout_tv_tiled[0]))

    def _size(self) -> int:
        """C++ ``size(tiled_copy)``: the number of threads."""
        return self.size

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
        atom_layout_tv = zipped_divide(
            self.layout_tv_tiled, (Layout(atom_thr), Layout(atom_val))
        )
        trg_layout_tv = composition(atom_layout_tv, (ref2trg, None))
        thrval2mn = coalesce(zip_layout(trg_layout_tv), (1, (1, 1)))
        tv = composition(L, (thrval2mn, None))
        return slice_and_offset(((None, None), None), tv)[0]

    def tidfrg_S(self, L: Layout) -> Layout:
        # the same for every thread: made once per layout
        return derived_of(self, "S", L, lambda: self._tidfrg(L, self.copy_atom.layout_src_tv))

    def tidfrg_D(self, L: Layout) -> Layout:
        return derived_of(self, "D", L, lambda: self._tidfrg(L, self.copy_atom.layout_dst_tv))

    def _tidfrg(self, L: Layout, trg: Layout) -> Layout:
        return self.tile2thrfrg(zipped_divide(L, self.tiler_mn), self._ref2trg(trg))

    def _ref_tile(self) -> Layout:
        return Layout((_tiler_shape(self.tiler_mn), 1))

    @property
    def layout_src_tv_tiled(self) -> Layout:
        """C++ ``get_layoutS_TV``: (thread, value) -> tile index, as the source sees it."""
        return derived(self, ("tvS",), lambda: self._layout_tv(self.copy_atom.layout_src_tv))

    @property
    def layout_dst_tv_tiled(self) -> Layout:
        """C++ ``get_layoutD_TV``: (thread, value) -> tile index, as the destination sees it."""
        return derived(self, ("tvD",), lambda: self._layout_tv(self.copy_atom.layout_dst_tv))

    def _layout_tv(self, trg: Layout) -> Layout:
        L = self.tile2thrfrg(self._ref_tile(), self._ref2trg(trg))
        return slice_and_offset((None, None, 0), L)[0]

    def get_layoutS_TV(self) -> Layout:  # noqa: N802  (C++'s name)
        """C++'s ``get_layoutS_TV()``: :attr:`layout_src_tv_tiled` (the DSL's name) under C++'s."""
        return self.layout_src_tv_tiled

    def get_layoutD_TV(self) -> Layout:  # noqa: N802  (C++'s name)
        """C++'s ``get_layoutD_TV()``: :attr:`layout_dst_tv_tiled` under C++'s name."""
        return self.layout_dst_tv_tiled

    def retile(self, tensor: Any) -> Any:
        """C++ ``retile``: a thread's fragment ``(V, Rest...)`` regrouped as ``(AtomV, RestV, Rest...)``."""
        L = tensor.layout if isinstance(tensor, Tensor) else tensor
        if not is_layout(L):
            raise CutepyError(f"retile takes a tensor or a layout (a thread's fragment), "
                              f"not {short_repr(tensor)}")
        R = L.rank()
        V = size(L[0]) if isinstance(L.shape, tuple) else size(L)
        nthr = size(self.layout_tv_tiled[0])
        frg_mn = upcast(
            composition(right_inverse(self.layout_tv_tiled), Layout(_tiler_shape(self.tiler_mn))),
            nthr * V,
        )
        atom_val = size(self.copy_atom.layout_ref_tv[1])
        frg_v = zipped_divide(
            logical_product(Layout(V), right_inverse(frg_mn)), Layout(atom_val)
        )
        shp = frg_mn.shape
        t_tiler = prepend(
            Layout(product_each(shp) if isinstance(shp, tuple) else shp), Layout(V)
        )
        t = zipped_divide(L, tuple(Layout(s) for s in t_tiler.shape))
        v = composition(t, (frg_v, None))
        crd = (None, (0,) + (None,) * (R - 1)) if R > 1 else (None, 0)
        out = slice_and_offset(crd, v)
        if isinstance(tensor, Tensor):
            return Tensor(tensor.engine, out[0], tensor.offset + out[1])
        return out[0]

    def get_slice(self, thr_idx: int, *, static: bool = False) -> ThrCopy:
        """The partitioner of thread ``thr_idx`` (C++ ``get_slice``): run-time, as a kernel's
        ``threadIdx.x``; ``static=True`` for C++'s ``Int<N>`` (as :meth:`TiledMMA.get_slice`)."""
        thr_idx = thread_index(thr_idx, static, "thread")
        if not thr_idx < self.size:
            raise CutepyError(f"thread {short_repr(thr_idx)} is outside this TiledCopy's {self.size} threads")
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


SIZE.register(TiledCopy, TiledCopy._size)  # C++'s size(tiled_copy): its threads


@dataclass(frozen=True)
class ThrCopy:
    """C++ ``ThrCopy``: thread ``thr_idx``'s view of a TiledCopy.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> from cutepy.kernels.tensor import make_identity_tensor
    >>> cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
    >>> cp.get_slice(1).partition_S(make_identity_tensor((4, 16)))
    ArithTuple(0,2) o ((1,2),1,1):((0,1@1),0,0)
    """

    tiled_copy: TiledCopy
    thr_idx: int

    def _part(self, frg: Layout, tensor: Any) -> Any:
        crd = thread_crd(self.thr_idx, _layout_of(tensor))
        # kept on the TiledCopy: a sweep partitions alike again
        sub, off = sliced(self.tiled_copy, frg, crd)
        if isinstance(tensor, Tensor):
            return Tensor(tensor.engine, sub, tensor.offset + off)
        return sub

    def partition_S(self, tensor: Any) -> Any:
        """This thread's source values: ``(CopyV, RestM, RestN, ...)``."""
        return self._part(self.tiled_copy.tidfrg_S(_layout_of(tensor)), tensor)

    def partition_D(self, tensor: Any) -> Any:
        """This thread's destination values: ``(CopyV, RestM, RestN, ...)``."""
        return self._part(self.tiled_copy.tidfrg_D(_layout_of(tensor)), tensor)

    def __str__(self) -> str:
        return f"ThrCopy\n  ThrIdx: {self.thr_idx}\n{self.tiled_copy}"

    def __format__(self, spec: str) -> str:
        """``format(x, "cxx")``: C++'s exact print, the thread index as given (``_N`` static, ``N``
        run-time: ``threadIdx.x``), the TiledCopy static."""
        return format_value(self, spec, lambda: f"ThrCopy\n  ThrIdx: "
                            f"{format_tuple(self.thr_idx, cxx=True)}\n{self.tiled_copy:cxx}")

    def retile_S(self, tensor: Any) -> Any:
        return self.tiled_copy.retile(tensor)

    def retile_D(self, tensor: Any) -> Any:
        return self.tiled_copy.retile(tensor)


def thread_crd(thr_idx: Any, layout: Any) -> tuple:
    """The coordinate thread ``thr_idx`` slices its fragment of ``layout`` at: ``(thr, _, _...)``."""
    return (thr_idx, None, repeat_wild(rank_of(layout.shape)))


def _layout_of(x: Any) -> Any:
    """The layout a TiledCopy partitions: a tensor's (plain or composed, e.g. the swizzled
    ``Sw o 0 o L`` of ``as_position_independent_swizzle_tensor``), or a layout or its shape."""
    if isinstance(x, Tensor):
        return x.layout
    return x if is_layout(x) else Layout(x)


def make_tiled_copy_impl(atom: CopyAtom, layout_tv: Layout, tiler: Any, origin: Any = None) -> TiledCopy:
    """C++ ``make_tiled_copy_impl(atom, layout_tv, tiler)``: the TiledCopy of a (thread, value) ->
    tile-index layout over a tiler, as C++ builds every TiledCopy (``make_tiled_copy``,
    ``make_tiled_copy_A`` ... end here); ``TiledCopy(atom, layout_tv, tiler)`` without the checks.

    Pre:  ``atom`` is a copy atom; the threads of ``layout_tv`` are a multiple of the atom's and at
          most :data:`~cutepy.kernels.tiled.copy.MAX_THREADS`, its values a multiple of the atom's
          (C++'s static asserts; else ``CutepyError``). ``origin`` (how it was made, for
          :mod:`cutepy.emit`) is not part of the value.
    Post: ``result.layout_tv_tiled == layout_tv`` and ``result.tiler_mn == tiler``.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> tc = make_tiled_copy_impl(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 2), (2, 1)), (2, 4))
    >>> tc.size, tc.get_layoutS_TV()
    (4, (4,(1,2)):(2,(0,1)))
    """
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
    return TiledCopy(atom, layout_tv, tiler, origin)


def make_tiled_copy(atom: CopyAtom, thr_layout: Any, val_layout: Any = None) -> TiledCopy:
    """C++ ``make_tiled_copy``: threads laid out by ``thr_layout`` ((m,n) -> thread), each
    copying a ``val_layout`` block ((m,n) -> value); the blocks are raked across the threads.

    Pre:  ``thr_layout`` and ``val_layout`` are layouts or shapes; ``size(thr_layout)`` is a
          multiple of the atom's threads and ``size(val_layout)`` of its values (else ``CutepyError``).
    Post: ``tiler_mn == product_each(shape(raked_product(thr_layout, val_layout)))`` and
          ``layout_tv_tiled == right_inverse(raked_product(thr, val)) o (size(thr), size(val))``.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8), (8, 1)), Layout((1, 2)))
    >>> cp.tiler_mn, cp.layout_tv_tiled
    ((4, 16), ((8,4),2):((8,1),4))
    """
    thr = thr_layout if isinstance(thr_layout, Layout) else Layout(thr_layout)
    val = (
        Layout(1)
        if val_layout is None
        else (val_layout if isinstance(val_layout, Layout) else Layout(val_layout))
    )
    layout_mn = raked_product(thr, val)
    layout_tv = composition(right_inverse(layout_mn), Layout((size(thr), size(val))))
    s = layout_mn.shape
    tiler = product_each(s) if isinstance(s, tuple) else s
    return make_tiled_copy_impl(atom, layout_tv, tiler, ("make_tiled_copy", thr, val))


def make_tiled_copy_A(atom: CopyAtom, mma: TiledMMA) -> TiledCopy:
    """C++ ``make_tiled_copy_A``: the copy whose threads and values are the TiledMMA's A.

    Pre:  the MMA's A layout has a multiple of the atom's threads and values per thread
          (else ``CutepyError``).
    Post: ``layout_tv_tiled == mma.tv_layout_A_tiled`` and ``tiler_mn == (M, K)`` of the MMA tile.

    >>> from cutepy.kernels.atoms import copy_atom, mma_atom
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> cp = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    >>> cp.tiler_mn, cp.size
    ((32, 16), 128)
    """
    _need_tiled_mma(mma, "make_tiled_copy_A")
    M, _, K = mma.tile_size_mnk
    return make_tiled_copy_impl(atom, mma.tv_layout_A_tiled, (M, K), ("make_tiled_copy_A", mma))


def make_tiled_copy_B(atom: CopyAtom, mma: TiledMMA) -> TiledCopy:
    """C++ ``make_tiled_copy_B``: the copy whose threads and values are the TiledMMA's B.

    Pre:  the MMA's B layout has a multiple of the atom's threads and values per thread
          (else ``CutepyError``).
    Post: ``layout_tv_tiled == mma.tv_layout_B_tiled`` and ``tiler_mn == (N, K)`` of the MMA tile.

    >>> from cutepy.kernels.atoms import copy_atom, mma_atom
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> make_tiled_copy_B(copy_atom("SM75_U32x2_LDSM_N", 16), mma).tiler_mn
    (16, 16)
    """
    _need_tiled_mma(mma, "make_tiled_copy_B")
    _, N, K = mma.tile_size_mnk
    return make_tiled_copy_impl(atom, mma.tv_layout_B_tiled, (N, K), ("make_tiled_copy_B", mma))


def make_tiled_copy_C(atom: CopyAtom, mma: TiledMMA) -> TiledCopy:
    """C++ ``make_tiled_copy_C``: the copy whose threads and values are the TiledMMA's C.

    Pre:  the MMA's C layout has a multiple of the atom's threads and values per thread
          (else ``CutepyError``).
    Post: ``layout_tv_tiled == mma.tv_layout_C_tiled`` and ``tiler_mn == (M, N)`` of the MMA tile.

    >>> from cutepy.kernels.atoms import copy_atom, mma_atom
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> make_tiled_copy_C(copy_atom("UniversalCopy<uint32_t>", 16), mma).tiler_mn
    (32, 16)
    """
    _need_tiled_mma(mma, "make_tiled_copy_C")
    M, N, _ = mma.tile_size_mnk
    return make_tiled_copy_impl(atom, mma.tv_layout_C_tiled, (M, N), ("make_tiled_copy_C", mma))


def make_tiled_copy_S(atom: CopyAtom, tiled_copy: TiledCopy) -> TiledCopy:
    """C++ ``make_tiled_copy_S``: a copy with ``atom`` whose threads and values are the
    source side of ``tiled_copy`` (e.g. the register-side copy matching an LDSM copy).

    Pre:  ``tiled_copy`` is a TiledCopy; its source TV layout has a multiple of ``atom``'s
          threads and values per thread (else ``CutepyError``).
    Post: ``result.tiler_mn == tiled_copy.tiler_mn`` and
          ``result.layout_tv_tiled == tiled_copy.layout_src_tv_tiled``.

    >>> from cutepy.kernels.atoms import copy_atom, mma_atom
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> ldsm = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    >>> cp = make_tiled_copy_S(copy_atom("UniversalCopy<uint32_t>", 16), ldsm)
    >>> cp.tiler_mn, cp.layout_tv_tiled
    ((32, 16), ((16,2,2,2),(8,1)):((1,256,16,0),(32,0)))
    """
    _need_tiled_copy(tiled_copy, "make_tiled_copy_S")
    return make_tiled_copy_impl(atom, tiled_copy.layout_src_tv_tiled, tiled_copy.tiler_mn)


def make_tiled_copy_D(atom: CopyAtom, tiled_copy: TiledCopy) -> TiledCopy:
    """C++ ``make_tiled_copy_D``: a copy with ``atom`` whose threads and values are the
    destination side of ``tiled_copy``.

    Pre:  ``tiled_copy`` is a TiledCopy; its destination TV layout has a multiple of
          ``atom``'s threads and values per thread (else ``CutepyError``).
    Post: ``result.tiler_mn == tiled_copy.tiler_mn`` and
          ``result.layout_tv_tiled == tiled_copy.layout_dst_tv_tiled``.

    >>> from cutepy.kernels.atoms import copy_atom, mma_atom
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> ldsm = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    >>> cp = make_tiled_copy_D(copy_atom("UniversalCopy<uint32_t>", 16), ldsm)
    >>> cp.tiler_mn, cp.layout_tv_tiled
    ((32, 16), ((4,8,2,2),((2,2,2),1)):((64,1,16,0),((32,8,256),0)))
    """
    _need_tiled_copy(tiled_copy, "make_tiled_copy_D")
    return make_tiled_copy_impl(atom, tiled_copy.layout_dst_tv_tiled, tiled_copy.tiler_mn)


def _need_tiled_mma(x: Any, fn: str) -> None:
    if not isinstance(x, TiledMMA):
        raise CutepyError(f"{fn} takes a TiledMMA (cutepy.make_tiled_mma), not {short_repr(x)}")


def _need_tiled_copy(x: Any, fn: str) -> None:
    if not isinstance(x, TiledCopy):
        raise CutepyError(f"{fn} takes a TiledCopy (cutepy.make_tiled_copy...), not {x!r}")


def _by_mode_tiler(shape: tuple, layout_tv: Layout) -> tuple:
    """C++'s "awkward by-mode tiler": for each mode ``i`` of ``shape``, the (filtered) layout of
    the mode-``i`` coordinates that ``layout_tv`` reaches (it maps to column-major indices of
    ``shape``): ``filter(make_layout(shape, e_i) o layout_tv)``."""
    zeros = (0,) * len(shape)
    return tuple(
        filter(composition(Layout(shape, zeros[:i] + (1,) + zeros[i + 1 :]), layout_tv))
        for i in range(len(shape))
    )


def _retile_to(atom: CopyAtom, shape: tuple, layout_tv: Layout) -> TiledCopy:
    """The TiledCopy over the by-mode tiler of the part of ``shape`` that ``layout_tv`` reaches,
    with ``layout_tv`` re-expressed in the tile's coordinates (C++'s common tail of
    ``make_tiled_copy_C_atom`` and ``make_cotiled_copy``)."""
    tiler = _by_mode_tiler(shape, layout_tv)
    # tile coord -> coord of `shape`, and its inverse applied to the codomain of layout_tv
    tile2full = composition(Layout(shape), tiler)
    return make_tiled_copy_impl(atom, composition(left_inverse(tile2full), layout_tv), tiler)


def make_tiled_copy_C_atom(atom: CopyAtom, mma: TiledMMA) -> TiledCopy:
    """C++ ``make_tiled_copy_C_atom``: the smallest TiledCopy that retiles the MMA's C
    (for pipelined epilogues storing sub-tiles): each thread keeps only the first
    ``atom.num_val_src`` values of its C fragment, in the MMA's value order.

    Algorithm (as C++): ``layout_TV = layoutC_TV o (threads, copy_V)``; the tiler is, per mode of
    ``(M, N)``, ``filter(make_layout((M,N), e_i) o layout_TV)`` (a tuple of layouts); the TV
    layout is ``left_inverse(make_layout((M,N)) o tiler) o layout_TV``.

    Pre:  ``mma`` is a TiledMMA; ``atom.num_val_src`` is at most the MMA's C values per thread,
          and the result passes :func:`make_tiled_copy_impl`'s checks (else ``CutepyError``).
    Post: ``tiler_mn`` is a pair of layouts (the M and N coordinates used); for every thread
          ``t`` and value ``v < num_val_src``, ``make_layout((M,N)) o tiler`` maps
          ``layout_tv_tiled(t, v)`` to ``mma.tv_layout_C_tiled(t, v)``.

    >>> from cutepy.kernels.atoms import copy_atom, mma_atom
    >>> from cutepy.kernels.tiled.mma import make_tiled_mma
    >>> mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    >>> cp = make_tiled_copy_C_atom(copy_atom("UniversalCopy<uint32_t>", 16), mma)
    >>> cp.tiler_mn, cp.layout_tv_tiled
    (((8,2):(1,16), (8,2):(2,1)), ((4,8,2,2),2):((16,1,8,64),128))
    """
    if not isinstance(atom, CopyAtom):
        raise CutepyError(f"a TiledCopy is built from a copy atom (cutepy.copy_atom), not {atom!r}")
    if not isinstance(mma, TiledMMA):
        raise CutepyError(f"make_tiled_copy_C_atom takes a TiledMMA (cutepy.make_tiled_mma), not {mma!r}")
    layout_c = mma.tv_layout_C_tiled
    copy_v, mma_v = atom.num_val_src, size(layout_c[1])
    if copy_v > mma_v:
        raise CutepyError(
            f"make_tiled_copy_C_atom: {atom.name} copies {copy_v} values per thread, more than the "
            f"{mma_v} C values each thread of the TiledMMA holds"
        )
    layout_tv = composition(layout_c, Layout((size(layout_c[0]), copy_v)))
    M, N, _ = mma.tile_size_mnk
    return _retile_to(atom, (M, N), layout_tv)


def make_cotiled_copy(atom: CopyAtom, atom_tv_layout: Layout, data_layout: Layout) -> TiledCopy:
    """C++ ``make_cotiled_copy``: a TiledCopy from ``(thread, value) -> data address`` offsets,
    for when threads care about vector width and offsets rather than which coordinates they own.

    Algorithm (as C++): ``layout_tv_data = (left_inverse(data_layout), 1:0) o atom_tv_layout``
    maps (thread, value) to the data coordinate (column-major index; addresses past the data
    get the stride-0 mode); the tiler is, per mode of ``product_each(shape(data_layout))``,
    the filtered layout of the coordinates reached, and the TV layout is re-expressed in it.

    Pre:  both are plain layouts with integer shapes and strides; ``left_inverse(data_layout)``
          exists and composes with ``atom_tv_layout`` (else ``AdmissibilityError``, where C++'s
          static asserts fail; stride-0 data modes are dropped, as in C++); the values of
          ``atom_tv_layout`` lie in
          ``data_layout``: ``coalesce((data_layout, 1:0) o layout_tv_data[1]) ==
          coalesce(atom_tv_layout[1])`` (C++'s static assert; else ``CutepyError``); the result
          passes :func:`make_tiled_copy_impl`'s checks. As in C++, the thread mode is not checked.
    Post: ``tiler_mn`` is a tuple of layouts, one per mode of ``data_layout``; for every thread
          ``t`` and value ``v`` whose address lies in ``data_layout``,
          ``data_layout(make_layout(product_each(shape(data_layout))) o tiler)(layout_tv_tiled(t, v))
          == atom_tv_layout(t, v)``.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> cp = make_cotiled_copy(copy_atom("UniversalCopy<uint128_t>", 16),
    ...                        Layout((32, 8), (8, 1)), Layout((64, 32), (32, 1)))
    >>> cp.tiler_mn, cp.layout_tv_tiled
    ((8:1, (4,8):(8,1)), ((4,8),8):((8,1),32))
    """
    if not isinstance(atom, CopyAtom):
        raise CutepyError(f"a TiledCopy is built from a copy atom (cutepy.copy_atom), not {atom!r}")
    for what, L in (("atom_tv_layout", atom_tv_layout), ("data_layout", data_layout)):
        if type(L) is not Layout:
            raise CutepyError(f"make_cotiled_copy: {what} must be a plain Layout, not {L!r}")
        if not all(type(x) is int for x in flatten((L.shape, L.stride))):
            raise CutepyError(f"make_cotiled_copy: {what} {L} must have integer shapes and strides "
                              "(C++ requires static layouts)")
    if atom_tv_layout.rank() != 2:
        raise CutepyError(f"make_cotiled_copy: atom_tv_layout {atom_tv_layout} is not (thread, value)")
    # data addr -> data coord; 1:0 appended so that addresses off the end get stride 0
    inv_data = make_layout(left_inverse(data_layout), Layout(1, 0))
    layout_tv_data = composition(inv_data, atom_tv_layout)
    reached = coalesce(composition(make_layout(data_layout, Layout(1, 0)), layout_tv_data[1]))
    if reached != coalesce(atom_tv_layout[1]):
        raise CutepyError(
            f"make_cotiled_copy: the memory pointed to by the values of {atom_tv_layout} does not exist "
            f"in the data layout {data_layout} (the values reach {reached} of it)"
        )
    s = product_each(data_layout.shape) if isinstance(data_layout.shape, tuple) else (data_layout.shape,)
    return _retile_to(atom, s, layout_tv_data)


__all__ = [
    "ThrCopy",
    "TiledCopy",
    "make_tiled_copy",
    "make_tiled_copy_A",
    "make_tiled_copy_B",
    "make_tiled_copy_C",
    "make_tiled_copy_C_atom",
    "make_tiled_copy_D",
    "make_tiled_copy_S",
    "make_tiled_copy_impl",
    "make_cotiled_copy",
]
