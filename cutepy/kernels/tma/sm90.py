"""The SM90 makers: C++'s ``make_tma_atom`` and ``make_tma_copy`` (TMA load, multicast load and
store; the 2-SM ops too, given a CTA tile). Part of :mod:`cutepy.kernels.tma` (layer 4, kernel values).
"""

from __future__ import annotations

from typing import Any

from ...algebra.composed import composed_parts
from ...algebra.composition import composition
from ...algebra.inverse import right_inverse
from ...algebra.products import tile_to_shape
from ...core import inttuple as it
from ...core.errors import CutepyError
from ...core.layout import Layout, size
from ..tiled.copy import make_tiled_copy_impl
from .atom import TmaAtom, TmaTiledCopy, _cta_v_map, _tma_atom
from .descriptor import _refuse


def _default_tiler(slayout: Any) -> Any:
    """The smem layout's shape as a tiler (and the check, at the public entry points, that it is a
    layout)."""
    if composed_parts(slayout) is None and not isinstance(slayout, Layout):
        raise CutepyError(f"TMA: the smem layout must be a layout or a swizzled layout, not "
                          f"{it.short_repr(slayout)}")
    s = slayout.shape
    return it.product_each_tuple(s) if isinstance(s, tuple) else s


def _cluster(cluster_size: Any) -> Layout:
    if isinstance(cluster_size, Layout):
        return cluster_size
    if type(cluster_size) is not int and not isinstance(cluster_size, tuple):
        raise CutepyError(f"TMA: the cluster size must be an int, a shape or a layout, not {cluster_size!r}")
    L = Layout(cluster_size)
    if size(L) < 1 or size(L) > 16:
        raise _refuse("the multicast count must be 1..16 CTAs", f"cluster size {cluster_size}")
    return L


def make_tma_atom(op: str, gmem_tensor: Any, smem_layout: Any, cta_tile: Any = None,
                  cluster_size: Any = 1, internal_type: str | None = None) -> TmaAtom:
    """C++ ``make_tma_atom``: the TMA copy atom (one instruction, the whole box) and its descriptor.

    Pre:  as :func:`make_tma_copy`.
    Post: ``result.descriptor`` is what C++ passes to ``cuTensorMapEncodeTiled``; the atom moves
          ``size(result.gbasis)`` elements (``ValLayoutSrc`` ``(1, n)``, ``(2, n)`` for 2-SM ops).

    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> g = make_tensor(gmem_ptr("half_t", 0x1000), Layout((512, 64), (64, 1)))
    >>> a = make_tma_atom("SM90_TMA_LOAD", g, Layout((64, 64), (64, 1)), (64, 64))
    >>> a.descriptor.box_dim, a.get_tma_tensor((512, 64)).layout, a.layout_src_tv
    ((64, 64), (512,64):(1@1,1@0), (1,4096):(0,1))
    """
    default = _default_tiler(smem_layout)  # (checks the smem layout)
    tiler = default if cta_tile is None else cta_tile
    mc = size(_cluster(cluster_size))
    atom, _ = _tma_atom(op, gmem_tensor, smem_layout, mc, _cta_v_map(gmem_tensor, tiler), internal_type)
    return atom


def make_tma_copy(op: str, gmem_tensor: Any, smem_layout: Any, cta_tile: Any = None,
                  cluster_size: Any = 1, internal_type: str | None = None) -> TmaTiledCopy:
    """C++ ``make_tma_copy(op, gtensor, slayout, cta_tile, cluster_size)``: the CTA-collective
    TiledCopy of a TMA load, multicast load or store, with its descriptor.

    ``gmem_tensor`` is ``make_tensor(gmem_ptr(T, address), layout)``; ``smem_layout`` a plain
    layout, a swizzled layout in C++'s pointer-flag form (``Sw o smem_ptr[b](unset) o L``, as
    ``tile_to_shape(gmma_smem_layout(...), ...)`` gives) or on element offsets (``Sw o 0 o L``,
    read as ``Sw<B,M+log2(b/8),S>`` on bytes); ``cta_tile`` defaults to the smem layout's
    shape, ``cluster_size`` (the multicast CTAs) to 1; ``internal_type`` moves the data as
    another C++ type (C++'s ``make_tma_copy<TmaInternalType>``): C++ recasts the gmem tensor to
    it, so the descriptor counts internal elements and, for a wider type, the TMA tensor's step
    along the contiguous mode is a fraction (``1/2@0`` for ``half_t`` moved as ``uint32_t``).

    Pre:  every rule C++ checks and the driver's documented rules (else ``CutepyError`` naming
          the rule and the numbers): the gmem tensor recasts to the internal type (C++'s
          "Divisibility condition"); the smem tile's size is the CTA tile's; smem element 1
          continues a gmem mode with stride 1 (same majorness); the element type has a TMA
          format; the swizzle is a TMA swizzle; the gmem address is 16-byte aligned; global
          dimensions 1..2^32; global strides multiples of 16 bytes under 2^40; box dimensions
          1..256 after the multicast split, which must divide the box; the inner box dimension
          a multiple of 16 bytes and at most the swizzle span; and, where C++ silently builds
          a TMA that moves the wrong elements, no tile longer than 1 along a gmem mode of
          extent 1 (TMA cannot clip a mode the descriptor drops).
    Post: ``result.descriptor`` is C++'s; ``result.tiler_mn`` the CTA tile;
          ``result.layout_tv_tiled`` maps (CTA of the multicast, value) to smem coordinates as C++.

    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> g = make_tensor(gmem_ptr("float", 0), Layout((1024, 256)))
    >>> make_tma_copy("SM90_TMA_LOAD_MULTICAST", g, Layout((64, 32)), cluster_size=2).descriptor.box_dim
    (64, 16)
    >>> make_tma_copy("SM90_TMA_LOAD", g, Layout((64, 32), (32, 1)))
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: TMA: the majorness of smem does not match the majorness of gmem: TMA mode 0 \
(smem's contiguous direction, box 32) has gmem stride 1024 float elements, not 1
    """
    default = _default_tiler(smem_layout)  # (checks the smem layout)
    tiler = default if cta_tile is None else cta_tile
    cta_t_map = _cluster(cluster_size)
    cta_v_map = _cta_v_map(gmem_tensor, tiler)
    nthr_cta = cta_t_map.cosize()
    atom, smem = _tma_atom(op, gmem_tensor, smem_layout, nthr_cta, cta_v_map, internal_type)
    return _tiled_tma(atom, smem, cta_t_map, cta_v_map)


def _tiled_tma(atom: TmaAtom, smem: Layout, cta_t_map: Layout, cta_v_map: Layout) -> TmaTiledCopy:
    """The tail C++'s ``make_tma_copy`` and ``make_tma_copy_im2col`` share: the TiledCopy over the
    CTAs of the multicast (``cta_t_map``) and the smem tile's values (``cta_v_map``)."""
    nthr_cta = cta_t_map.cosize()
    elems = size(atom.layout_ref_tv_bits[1]) // atom.element_bits
    inv_smem = right_inverse(smem)
    layout_v = composition(inv_smem, Layout(elems))
    layout_V = tile_to_shape(Layout((layout_v.shape,), (layout_v.stride,)), size(cta_v_map))
    if elems % nthr_cta:
        raise _refuse("the multicast count must divide the elements of one TMA (C++ safe_div)",
                      f"{elems} elements over {nthr_cta} CTAs")
    layout_t = Layout(nthr_cta, elems // nthr_cta)
    layout_T = composition(inv_smem, composition(layout_t, cta_t_map))
    layout_tv = Layout((layout_T.shape, layout_V.shape), (layout_T.stride, layout_V.stride))
    v_shape = cta_v_map.shape
    cta_tiler = it.product_each_tuple(v_shape) if isinstance(v_shape, tuple) else v_shape
    tc = make_tiled_copy_impl(atom, layout_tv, cta_tiler)
    return TmaTiledCopy(tc.copy_atom, tc.layout_tv_tiled, tc.tiler_mn, smem_layout=smem)
