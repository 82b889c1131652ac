"""The TMA box traced into gmem: C++'s ``detail::construct_tma_gbasis`` (box mode -> gmem mode,
C++'s ``TmaGmemBasis``) and ``gmem_tma_basis_stride`` (each gmem mode's step in TMA coordinates).
Part of :mod:`cutepy.kernels.tma` (layer 4, kernel values).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...algebra.coalesce import coalesce
from ...algebra.composition import composition
from ...algebra.inverse import right_inverse
from ...core import inttuple as it
from ...core.basis import ScaledBasis, basis_like
from ...core.dynamic import DynamicInt, is_static_int, static_eq
from ...core.layout import Layout, make_identity_layout, size
from .descriptor import MAX_BOX, MAX_RANK, _get_path, _recast, _refuse


def _coalesce_256(L: Layout) -> Layout:
    """C++ ``detail::coalesce_256``: merge flat modes while the merged extent stays <= 256.

    As C++, every test is a compile-time one: a mode is skipped only for a static extent 1, and
    two modes merge only when ``shape * stride == next stride`` and the merged extent are static
    (a run-time stride keeps the modes apart)."""
    fs, fd = it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)
    ns, nd = [fs[0]], [fd[0]]
    single = True  # C++'s NewShape is still the first mode alone (not yet a tuple)
    for s, d in zip(fs[1:], fd[1:]):
        if static_eq(s, 1):
            continue
        if single and static_eq(ns[0], 1):  # replace a leading static 1 with anything
            ns, nd = [s], [d]
        elif static_eq(ns[-1] * nd[-1], d) and is_static_int(s * ns[-1]) and s * ns[-1] <= MAX_BOX:
            ns[-1] *= s
        else:
            ns.append(s)
            nd.append(d)
            single = False
    if single and static_eq(ns[0], 1):
        return Layout(1, 0)
    return Layout(tuple(ns) if len(ns) > 1 else ns[0], tuple(nd) if len(nd) > 1 else nd[0])


def _modes(L: Layout) -> tuple[tuple, tuple]:
    """Top-level (shape, stride) pairs, a rank-1 layout wrapped."""
    if isinstance(L.shape, tuple):
        return L.shape, L.stride
    return (L.shape,), (L.stride,)


def _basis_value(e: Any) -> Any:
    return e.value if isinstance(e, ScaledBasis) else e


def _construct_gbasis(gshape: Any, glayout_t: Layout, glayout: Layout, slayout: Layout,
                      cta_v_map: Layout, old_bits: int, new_bits: int) -> Layout:
    """C++ ``detail::construct_tma_gbasis``: TMA box shape -> gmem mode (basis strides)."""
    if size(slayout) != size(cta_v_map):
        raise _refuse(
            "TMA requires CTA_Tile and SLayout top-level size equivalence",
            f"the smem layout {slayout} has {size(slayout)} elements, the CTA tile {cta_v_map.shape} "
            f"has {size(cta_v_map)}",
        )
    inv_smem = right_inverse(slayout)
    full = coalesce(composition(cta_v_map, inv_smem))
    fshape, fstride = _modes(full)
    smem_rank = 0
    for d in fstride:
        if not static_eq(_basis_value(d), 1):  # C++: not is_constant<1>
            break
        smem_rank += 1
    if smem_rank == 0 or not isinstance(fstride[0], ScaledBasis):
        raise _refuse(
            "could not find a common tile-gmem vectorization (C++ static_assert: does the tile "
            "select out major GMEM modes?)",
            f"smem element 1 is not the next element of any gmem mode (smem index -> gmem mode: {full})",
        )
    sidx2gmode = Layout(fshape[:smem_rank], fstride[:smem_rank])
    tile_gstride = _recast(composition(glayout, sidx2gmode), old_bits, new_bits)
    tma_gstride = _coalesce_256(tile_gstride)
    gbasis = make_identity_layout(gshape)
    tile_gbasis_tmp = composition(gbasis, sidx2gmode)
    tile_gbasis = Layout(tile_gstride.shape, tile_gbasis_tmp.stride)
    gs = tma_gstride.shape if isinstance(tma_gstride.shape, tuple) else (tma_gstride.shape,)
    tile = composition(tile_gbasis, Layout(gs))
    tshape, tstride = _modes(tile)
    present = [b for b in it.flatten_tuple(tile.stride) if isinstance(b, ScaledBasis)]
    rest = []
    flat = (glayout_t.shape, glayout_t.stride, gbasis.stride)
    for s, d, e in zip(*(it.flatten_tuple(x) for x in flat)):
        if static_eq(s, 1) or static_eq(d, 0):  # C++ drops a static extent 1 or stride 0 only
            continue
        if any(b == e for b in present):
            continue
        rest.append(e)
    shapes, strides = tshape + (1,) * len(rest), tstride + tuple(rest)
    r = len(shapes)
    if r > MAX_RANK:  # C++ group<4,-1>: the trailing modes fold into the fifth
        shapes = shapes[:4] + (shapes[4:],)
        strides = strides[:4] + (strides[4:],)
    elif r == MAX_RANK:
        shapes = shapes[:4] + ((shapes[4],),)
        strides = strides[:4] + ((strides[4],),)
    return Layout(shapes, strides)


def _g_stride(gshape: Any, glayout: Layout, glayout_t: Layout, gbasis: Layout, bstride: list,
              old_bits: int, tma_bits: int) -> Any:
    """C++'s ``gmem_tma_basis_stride``: each gmem mode's step in TMA coordinates."""
    tstrides = gbasis.stride

    def leaf(e: Any) -> Any:
        if not isinstance(e, ScaledBasis):  # a rank-1 gmem tensor: its one mode
            e = ScaledBasis(1, ())
        si, di = _get_path(glayout_t.shape, e.mode), _get_path(glayout_t.stride, e.mode)
        if static_eq(si, 1) or static_eq(di, 0):  # C++'s is_constant: a run-time 1 or 0 stays
            return 0
        for j, dj in enumerate(tstrides):  # noqa: B007  (j and dj are read after the break)
            parts = dj if isinstance(dj, tuple) else (dj,)
            if any(p == e for p in parts):
                break
        else:
            return 0
        if j == 0:  # C++ trait_ratio(old, tma) * stride: a fraction where the TMA type is wider
            d = _get_path(glayout.stride, e.mode)
            scale = Fraction(old_bits * d, tma_bits)
            if scale.denominator == 1:  # run-time where the gmem stride is
                return ScaledBasis(int(scale) if is_static_int(d) else DynamicInt(scale), (0,))
            return ScaledBasis(scale, (0,))
        if len(dj if isinstance(dj, tuple) else (dj,)) == 1:
            return ScaledBasis(1, (j,))
        scale = -(-int(di * tma_bits // max(bstride[j], 16)) // 8)
        return ScaledBasis(DynamicInt(scale), (j,))  # C++: an int32_t, a run-time scale

    return it.transform_leaf(leaf, basis_like(gshape))
