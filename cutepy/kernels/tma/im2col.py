"""TMA im2col loads (Hopper): C++'s ``make_im2col_tma_copy`` (``cute/atom/copy_traits_sm90_im2col.hpp``,
CUTLASS 4.7) with its own descriptor, the arguments C++ hands ``cuTensorMapEncodeIm2col``, and the
driver's documented rules for them (``cuda.h``). Part of :mod:`cutepy.kernels.tma` (layer 4, kernel
values).

The gmem tensor is the activation in C++'s form ``((w, h[, d], n), c)``: the smem tile's two
contiguous directions pick the channel mode (``channelsPerPixel``) and the pixel mode
(``pixelsPerColumn``); the descriptor lists the modes as ``(c, w, h[, d], n)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...algebra.coalesce import coalesce
from ...algebra.composed import make_composed_layout
from ...algebra.composition import composition
from ...algebra.divides import logical_divide
from ...algebra.inverse import right_inverse
from ...core import inttuple as it
from ...core.basis import ArithTuple, ScaledBasis
from ...core.dynamic import dynamic, is_static_int
from ...core.errors import CutepyError
from ...core.layout import Layout, make_identity_layout, size
from ..tensor import Tensor
from .atom import TmaAtom, TmaTiledCopy, _gtensor_parts, _smem_parts
from .descriptor import SWIZZLE_SPAN, TMA_DATA_TYPE, _refuse, _swizzle_enum, _tma_type
from .sm90 import _cluster, _default_tiler, _tiled_tma

#: the im2col TMA loads C++ has (one CTA's thread issues each)
IM2COL_OPS = ("SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_MULTICAST")

#: cuda.h: the range of each pixel-box corner offset, by tensor rank
CORNER_RANGE = {3: 1 << 15, 4: 1 << 7, 5: 1 << 4}


@dataclass(frozen=True)
class Im2colDescriptor:
    """The arguments C++ passes to ``cuTensorMapEncodeIm2col``, mode ``c`` first.

    ``global_strides`` are in bytes (``rank - 1`` of them); the corners are the spatial offsets
    ``(w, h[, d])``; each enum is the suffix of its ``CU_TENSOR_MAP_*`` name.
    """

    data_type: str
    rank: int
    global_address: int
    global_dim: tuple
    global_strides: tuple
    pixel_box_lower_corner: tuple
    pixel_box_upper_corner: tuple
    channels_per_pixel: int
    pixels_per_column: int
    element_strides: tuple
    interleave: str = "NONE"
    swizzle: str = "NONE"
    l2_promotion: str = "NONE"  # C++ DescriptorAuxParams: L2Promotion::DISABLE
    oob_fill: str = "NONE"


@dataclass(frozen=True)
class Im2colTmaAtom(TmaAtom):
    """C++ ``Copy_Atom<Copy_Traits<SM90_TMA_LOAD_IM2COL[_MULTICAST], NumBitsPerTMA, TMATensor>>``: the
    im2col TMA atom, which keeps the coordinate tensor C++ built with its descriptor
    (``tma_tensor``, see :func:`make_im2col_tma_copy`)."""

    tma_tensor: Any = None

    def get_tma_tensor(self, shape: Any = None) -> Tensor:
        """C++ ``get_tma_tensor(shape)`` of an im2col TMA: the stored coordinate tensor (C++ ignores
        ``shape``: the conv's GEMM extents were fixed when the descriptor was made).

        Post: ``result(m, k)`` is the TMA coordinate ``(c, (w, h[, d]), n, (s, r[, t]))`` of GEMM row
              ``m`` (an output pixel) and column ``k`` (a channel and filter offset).
        """
        return self.tma_tensor


def _spatial(name: str, value: Any, n: int, default: int) -> tuple:
    if value is None:
        return (default,) * n
    v = tuple(value) if isinstance(value, tuple | list) else (value,)
    if len(v) != n or not all(isinstance(x, int) and type(x) is not bool for x in v):
        raise CutepyError(f"make_im2col_tma_copy: {name} must be {n} integers (one per spatial mode), "
                          f"not {value!r}")
    return v


def _mode_of(d: Any, what: str) -> int:
    if not isinstance(d, ScaledBasis) or len(d.mode) != 1 or d.value != 1:
        raise _refuse("the im2col box must run along whole gmem modes (C++ basis_get)",
                      f"the {what} direction of the TMA box has gmem stride {d}")
    return d.mode[0]


def make_im2col_tma_copy(op: str, gmem_tensor: Any, smem_layout: Any, cta_tile: Any = None,
                         cluster_size: Any = 1, lower_corner_whd: Any = None, upper_corner_whd: Any = None,
                         lower_padding_whd: Any = None, upper_padding_whd: Any = None,
                         stride_whd: Any = None, lower_srt: Any = None,
                         stride_srt: Any = None) -> TmaTiledCopy:
    """C++ ``make_im2col_tma_copy(op, tensor, slayout, cta_tiler, multicast, lower_corner_whd,
    upper_corner_whd, lower_padding_whd, upper_padding_whd, stride_whd, lower_srt, stride_srt)``:
    the CTA-collective TiledCopy of an im2col TMA load, with its descriptor.

    ``gmem_tensor`` is ``make_tensor(gmem_ptr(T, address), ((w, h[, d], n), c) layout)``; the
    spatial arguments are one integer per spatial mode (defaults: corners and paddings 0, strides
    1), as C++'s no-offset overload; a plain int is static (C++'s ``Int<n>``), ``dynamic(n)`` a
    run-time ``int`` (what a conv kernel passes: the GEMM extents it yields stay run-time, so a
    size-1 filter mode is kept where C++ keeps it). The paddings, ``lower_srt`` and ``stride_srt``
    (the dilation) shape only the TMA coordinate tensor ``get_tma_tensor()``, as in C++.

    Pre:  what C++ checks (the smem tile's shape is the CTA tile's; at least two smem modes continue
          gmem modes with stride 1: C++'s static_assert; the multicast count divides the box) and
          the driver's documented rules for ``cuTensorMapEncodeIm2col``: a TMA element type; rank 3,
          4 or 5; the gmem address 16-byte aligned; global dimensions 1..2^32; global strides
          multiples of 16 bytes under 2^40; each corner offset within +-2^15, +-2^7 or +-2^4 for
          rank 3, 4, 5; ``channelsPerPixel`` 1..256; ``pixelsPerColumn`` 1..1024; element strides
          1..8; the channels' bytes at most the swizzle span; a pixel bounding box of
          non-zero area (each spatial extent + upper corner - lower corner at least 1).
          Else ``CutepyError`` naming the rule.
    Post: ``result.descriptor`` is C++'s (an :class:`Im2colDescriptor`); ``result.layout_tv_tiled``
          and ``result.tiler_mn`` are C++'s TiledCopy's; ``result.get_tma_tensor()`` is C++'s
          coordinate tensor (GEMM ``(pixel, (c, s, r[, t]))`` -> TMA coordinate ``(c, (w, h[, d]), n,
          (s, r[, t]))``, see :func:`_im2col_tma_tensor`), which ``local_tile`` and ``partition_S``
          tile and partition as C++ does.

    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> g = make_tensor(gmem_ptr("half_t", 0x1000), Layout(((16, 16, 2), 64), ((64, 1024, 16384), 1)))
    >>> tma = make_im2col_tma_copy("SM90_TMA_LOAD_IM2COL", g, Layout((128, 64), (64, 1)),
    ...                            lower_corner_whd=(-1, -1), upper_corner_whd=(-1, -1),
    ...                            lower_padding_whd=(-1, -1), upper_padding_whd=(1, 1))
    >>> d = tma.descriptor
    >>> d.global_dim, d.global_strides, d.channels_per_pixel, d.pixels_per_column
    ((64, 16, 16, 2), (128, 2048, 32768), 64, 128)
    >>> d.pixel_box_lower_corner, d.element_strides
    ((-1, -1), (1, 1, 1, 1))
    >>> t = tma.get_tma_tensor()
    >>> t.layout.outer  # ((q, p, n), (c, s, r)) -> TMA coordinates: a 3x3 filter over 16x16 pixels
    ((16,16,2),(64,3,3)):((1@0@1,1@1@1,1@2),(1@0,1@0@3,1@1@3))
    >>> t(0), t(17, (5, 2, 1))  # GEMM row 17 is pixel (1, 1) of image 0; column (c 5, s 2, r 1)
    ((0, (-1, -1), 0, (0, 0)), (5, (0, 0), 0, (2, 1)))
    """
    if not isinstance(op, str) or op not in IM2COL_OPS:
        raise CutepyError(f"TMA im2col: unknown operation {it.short_repr(op)}; "
                          f"one of {', '.join(IM2COL_OPS)}")
    default = _default_tiler(smem_layout)
    tiler = default if cta_tile is None else cta_tile
    ptr, glayout = _gtensor_parts(gmem_tensor)
    gshape = glayout.shape if isinstance(glayout.shape, tuple) else (glayout.shape,)
    gstride = glayout.stride if isinstance(glayout.stride, tuple) else (glayout.stride,)
    sw, smem = _smem_parts(smem_layout, ptr.dtype)
    tma_name, bits = _tma_type(ptr.dtype, None)
    cta_t_map = _cluster(cluster_size)
    mc = cta_t_map.cosize()
    flat_shape = it.product_each_tuple(gshape)
    try:
        cta_v_map = composition(make_identity_layout(flat_shape), tiler)
    except CutepyError as e:
        raise CutepyError(f"TMA im2col: the CTA tile {it.short_repr(tiler)} does not tile the gmem tensor "
                          f"{glayout}: {e}") from None
    v_shape = cta_v_map.shape
    s_shape = smem.shape
    if (it.product_each_tuple(s_shape) if isinstance(s_shape, tuple) else s_shape) != (
            it.product_each_tuple(v_shape) if isinstance(v_shape, tuple) else v_shape):
        raise _refuse("TMA requires CTA_Tile and SLayout top-level shape equivalence (C++ static_assert)",
                      f"smem {smem.shape} against the CTA tile {v_shape}")
    if size(smem) % mc:
        raise _refuse("the number of active CTAs in TMA must divide the smem tile (C++ static_assert)",
                      f"{size(smem)} elements over {mc} CTAs")
    sidx_to_gmode = coalesce(composition(cta_v_map, right_inverse(smem)))
    full = composition(make_identity_layout(flat_shape), sidx_to_gmode)
    fs, fd = it.flatten_tuple(full.shape), it.flatten_tuple(full.stride)
    rank_s = 0
    while rank_s < len(fd) and isinstance(fd[rank_s], ScaledBasis) and fd[rank_s].value == 1:
        rank_s += 1
    if rank_s < 2:
        raise _refuse("IM2COL expects at least 2 modes of the smem to vectorize with gmem "
                      "(C++ static_assert)",
                      f"smem index -> gmem {full} continues {rank_s} gmem mode(s) with stride 1")
    trunc = Layout(tuple(fs[:2]), tuple(fd[:2]))
    if size(trunc) % mc:
        raise _refuse("the multicast count must divide the elements of one TMA (C++ safe_div)",
                      f"{size(trunc)} elements over {mc} CTAs")
    vt = logical_divide(trunc, size(trunc) // mc)
    m0 = Layout(vt.shape[0], vt.stride[0])
    range_c, range_p = size(m0[0]), size(m0[1])
    c_mode = _mode_of(m0.stride[0], "channel")
    p_mode = _mode_of(it.flatten_tuple(m0.stride[1])[0], "pixel")
    cwhdn_shape = it.flatten_tuple(gshape[c_mode]) + it.flatten_tuple(gshape[p_mode])
    cwhdn_stride = it.flatten_tuple(gstride[c_mode]) + it.flatten_tuple(gstride[p_mode])
    rank = len(cwhdn_shape)
    nsp = rank - 2
    if not 3 <= rank <= 5:
        raise _refuse("the driver requires an im2col tensor of rank 3, 4 or 5 (cuTensorMapEncodeIm2col)",
                      f"(c, w, h, d, n) modes {cwhdn_shape} have rank {rank}")
    lower = _spatial("lower_corner_whd", lower_corner_whd, nsp, 0)
    upper = _spatial("upper_corner_whd", upper_corner_whd, nsp, 0)
    lo_pad = _spatial("lower_padding_whd", lower_padding_whd, nsp, 0)
    up_pad = _spatial("upper_padding_whd", upper_padding_whd, nsp, 0)
    trav = _spatial("stride_whd", stride_whd, nsp, 1)
    srt = _spatial("lower_srt", lower_srt, nsp, 0)
    dil = _spatial("stride_srt", stride_srt, nsp, 1)
    if cwhdn_stride[0] != 1:
        raise _refuse("the channels must be contiguous in gmem (C++ passes no stride for c: it assumes one "
                      "element)", f"mode c has gmem stride {cwhdn_stride[0]}")
    desc = _im2col_descriptor(ptr.address, tma_name, bits, cwhdn_shape, cwhdn_stride, lower, upper,
                              range_c, range_p, trav, _swizzle_enum(sw))
    tensor = _im2col_tma_tensor(cwhdn_shape, p_mode, lower, upper, lo_pad, up_pad, trav, srt, dil)
    nbits = size(trunc) * bits
    vals = Layout((1, nbits), (0, 1))
    atom = Im2colTmaAtom(name=op, element_bits=ptr.bits, thr_id=Layout(1, 0), layout_src_tv_bits=vals,
                         layout_dst_tv_bits=vals, layout_ref_tv_bits=vals, op="st", cpp_type=op,
                         descriptor=desc, gbasis=vt, tma_swizzle=sw, num_multicast=mc, tma_tensor=tensor)
    return _tiled_tma(atom, smem, cta_t_map, cta_v_map)


def _cxx_div(a: Any, b: Any) -> Any:
    """C++'s integer division (truncated toward zero), run-time where an operand is."""
    q = abs(int(a)) // abs(int(b))
    q = q if (int(a) < 0) == (int(b) < 0) else -q
    return q if is_static_int(a) and is_static_int(b) else dynamic(q)


def _zeros(shape: Any) -> Any:
    """C++'s ``make_identity_tensor(shape)(0)``: an arithmetic tuple of zeros with ``shape``'s profile."""
    return ArithTuple(_zeros(s) for s in shape) if isinstance(shape, tuple) else 0


def _im2col_tma_tensor(cwhdn: tuple, p_mode: int, lower: tuple, upper: tuple, lo_pad: tuple,
                       up_pad: tuple, trav: tuple, srt: tuple, dil: tuple) -> Tensor:
    """C++ ``make_im2col_tma_copy_desc``'s coordinate tensor (``cute/atom/copy_traits_sm90_im2col.hpp``).

    With the GEMM extents ``q = (w + upper - lower - 1) / stride + 1`` per spatial mode (``p``, ``z``
    alike; then ``n``) and ``s = 1 + (upper_padding - upper_corner) / dilation`` per filter mode (for a
    positive dilation, else ``1 + (lower_corner - lower_padding) / dilation``; after ``c``), it is
    ``lower o outer o 0 o identity`` where ``lower = (0, lower_corner, 0, lower_srt)``, ``outer`` maps
    ``((q, p, z, n), (c, s, r, t))`` to TMA coordinates with strides ``((stride_w@0@1, stride_h@1@1,
    stride_d@2@1, 1@2), (1@0, dil_s@0@3, dil_r@1@3, dil_t@2@3))`` and ``identity`` is the identity
    layout of the linear GEMM shape ``(q*p*z*n, (c, s, r, t))``: a GEMM row is one linear index over
    the output pixels. The two GEMM modes are in the gmem tensor's order (``p_mode``: the gmem mode
    holding the pixels), as C++'s ``basis_get``.
    """
    nsp = len(cwhdn) - 2
    for i in range(nsp):
        if int(dil[i]) == 0:
            raise CutepyError(f"make_im2col_tma_copy: stride_srt[{i}] (the dilation) must not be 0 "
                              "(C++ divides by it)")
    mn = tuple(_cxx_div(cwhdn[i + 1] + upper[i] - lower[i] - 1, trav[i]) + 1 for i in range(nsp))
    mn += (cwhdn[nsp + 1],)
    k = (cwhdn[0],) + tuple(1 + _cxx_div(up_pad[i] - upper[i] if int(dil[i]) > 0 else lower[i] - lo_pad[i],
                                         dil[i]) for i in range(nsp))
    mn_stride = tuple(ScaledBasis(trav[i], (1, i)) for i in range(nsp)) + (ScaledBasis(1, (2,)),)
    k_stride = (ScaledBasis(1, (0,)),) + tuple(ScaledBasis(dil[i], (3, i)) for i in range(nsp))
    order = (0, 1) if p_mode == 0 else (1, 0)
    shapes, strides = (mn, k), (mn_stride, k_stride)
    linear = (it.product(mn), k)
    outer = Layout(tuple(shapes[o] for o in order), tuple(strides[o] for o in order))
    lin = tuple(linear[o] for o in order)
    composed = make_composed_layout(outer, _zeros(lin), make_identity_layout(lin))
    return Tensor(None, composed, ArithTuple((0, ArithTuple(lower), 0, ArithTuple(srt))))


def _im2col_descriptor(address: int, tma_name: str, bits: int, shape: tuple, stride: tuple, lower: tuple,
                       upper: tuple, range_c: int, range_p: int, trav: tuple,
                       swizzle: str) -> Im2colDescriptor:
    """C++ ``make_im2col_tma_copy_desc``'s arguments to the driver, checked by cuda.h's rules."""
    rank = len(shape)
    if address & 0b1111:
        raise _refuse("the gmem address must be 16-byte aligned", f"0x{address:x}")
    for i, s in enumerate(shape):
        if not 1 <= s <= 1 << 32:
            raise _refuse("a global dimension must be 1..2^32", f"globalDim[{i}] = {s}")
    bstride = tuple(d * bits // 8 for d in stride[1:])
    for i, b in enumerate(bstride):
        if b < 0 or b >= 1 << 40 or b % 16:
            raise _refuse("a global stride must be a multiple of 16 bytes under 2^40 "
                          "(cuTensorMapEncodeIm2col)",
                          f"globalStrides[{i}] = {b} bytes")
    lim = CORNER_RANGE[rank]
    for name, corner in (("pixelBoxLowerCorner", lower), ("pixelBoxUpperCorner", upper)):
        for i, v in enumerate(corner):
            if not -lim <= v < lim:
                raise _refuse(f"the driver requires each corner offset of a rank-{rank} im2col tensor in "
                              f"[{-lim}, {lim - 1}] (cuTensorMapEncodeIm2col)", f"{name}[{i}] = {v}")
    for i, (lo, hi) in enumerate(zip(lower, upper)):
        if shape[i + 1] + hi - lo < 1:
            raise _refuse("the driver requires the pixel bounding box to have non-zero area "
                          "(cuTensorMapEncodeIm2col; C++'s FastDivmod of the output extent asserts)",
                          f"spatial mode {i}: extent {shape[i + 1]} + upper corner {hi} - lower corner {lo} "
                          f"= {shape[i + 1] + hi - lo}")
    if not 1 <= range_c <= 256:
        raise _refuse("the driver requires channelsPerPixel 1..256 (cuTensorMapEncodeIm2col)",
                      f"channelsPerPixel = {range_c}")
    if not 1 <= range_p <= 1024:
        raise _refuse("the driver requires pixelsPerColumn 1..1024 (cuTensorMapEncodeIm2col)",
                      f"pixelsPerColumn = {range_p}")
    es = (1,) + trav + (1,)
    for i, e in enumerate(es):
        if not 1 <= e <= 8:
            raise _refuse("the driver requires element strides 1..8 (cuTensorMapEncodeIm2col)",
                          f"elementStrides[{i}] = {e} (the traversal stride)")
    span = SWIZZLE_SPAN[swizzle]
    inner = range_c * bits // 8
    if span is not None and inner > span:
        raise _refuse(f"the driver requires the channels' bytes to fit the swizzle span (SWIZZLE_{swizzle}: "
                      f"at most {span} bytes)", f"channelsPerPixel = {range_c} {tma_name} = {inner} bytes")
    return Im2colDescriptor(
        data_type=TMA_DATA_TYPE[tma_name], rank=rank, global_address=address, global_dim=tuple(shape),
        global_strides=bstride, pixel_box_lower_corner=lower, pixel_box_upper_corner=upper,
        channels_per_pixel=range_c, pixels_per_column=range_p, element_strides=es, swizzle=swizzle,
    )
