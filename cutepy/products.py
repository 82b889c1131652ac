"""Products: repeat a layout over the layout of its copies.

For a block ``(M, N, L, ...)`` and a tiler ``<TileM, TileN>``::

    logical_product: ((M,TileM), (N,TileN), L, ...)
    zipped_product : ((M,N), (TileM,TileN,L,...))
    tiled_product  : ((M,N), TileM, TileN, L, ...)
    flat_product   : (M, N, TileM, TileN, L, ...)

>>> from cutepy import Layout
>>> logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))
((2,2),(2,3)):((4,1),(2,8))
>>> blocked_product(Layout((2, 2)), Layout((2, 3)))
((2,2),(2,3)):((1,4),(2,8))
>>> raked_product(Layout((2, 2)), Layout((2, 3)))
((2,2),(3,2)):((4,1),(8,2))
>>> tile_to_shape(Layout((2, 2)), (4, 6))
((2,2),(2,3)):((1,4),(2,8))
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from . import inttuple as it
from .coalesce import coalesce, coalesce_flat
from .complement import complement
from .composition import composition
from .divides import _tiler, by_mode, unpack_all, unpack_rest, zip_by_tiler
from .errors import CutepyError
from .layout import Layout, append, as_layout, make_layout, make_ordered_layout
from .tracing import recorder


def logical_product(A: Any, tiler: Any) -> Layout:
    """``(A, composition(complement(A, size(A)*cosize(B)), B))``, by mode for a tuple tiler."""
    if (rec := recorder()) and rec.opens(logical_product):
        return rec.framed(logical_product, A, tiler)
    A = as_layout(A)
    tiler = _tiler(tiler)
    if tiler is None:
        rec and rec.emit(ev.NoTiler())
        return A
    if isinstance(tiler, tuple):
        return by_mode(logical_product, A, tiler)
    room = A.size() * tiler.cosize()
    rec and rec.emit(ev.Room(A, tiler, room))
    return make_layout(A, composition(complement(A, room), tiler))


def zipped_product(A: Any, tiler: Any) -> Layout:
    """``((M,N,...), (TileM,TileN,...,L,...))``."""
    if (rec := recorder()) and rec.opens(zipped_product):
        return rec.framed(zipped_product, A, tiler)
    return zip_by_tiler(logical_product, A, tiler)


def tiled_product(A: Any, tiler: Any) -> Layout:
    """``((M,N,...), TileM, TileN, ..., L, ...)``."""
    if (rec := recorder()) and rec.opens(tiled_product):
        return rec.framed(tiled_product, A, tiler)
    return unpack_rest(zipped_product(A, tiler))


def flat_product(A: Any, tiler: Any) -> Layout:
    """``(M, N, ..., TileM, TileN, ..., L, ...)``."""
    if (rec := recorder()) and rec.opens(flat_product):
        return rec.framed(flat_product, A, tiler)
    return unpack_all(zipped_product(A, tiler))


def _padded_modes(L: Layout, r: int) -> tuple[tuple, tuple]:
    s, d = L._shape, L._stride
    if type(s) is not tuple:
        s, d = (s,), (d,)
    k = r - len(s)
    return s + (1,) * k, d + (0,) * k


def _interleave(A: Any, B: Any, block_first: bool) -> Layout:
    A, B = as_layout(A), as_layout(B)
    r = max(A.rank(), B.rank())
    a_s, a_d = _padded_modes(A, r)
    Ap = Layout._new(a_s, a_d)
    Bp = Layout._new(*_padded_modes(B, r))
    room = Ap.size() * Bp.cosize()
    (rec := recorder()) and rec.emit(ev.Padded(r, Ap, Bp, room))
    C = composition(complement(Ap, room), Bp)
    c_s, c_d = C._shape, C._stride
    ss, dd = [], []
    for i in range(r):
        if block_first:
            pair_s, pair_d = (a_s[i], c_s[i]), (a_d[i], c_d[i])
        else:
            pair_s, pair_d = (c_s[i], a_s[i]), (c_d[i], a_d[i])
        s, d = coalesce_flat(it.flatten(pair_s), it.flatten(pair_d))
        ss.append(s)
        dd.append(d)
        rec and rec.emit(ev.PairMode(i, Layout._new(pair_s, pair_d), Layout._new(s, d)))
    return Layout._new(tuple(ss), tuple(dd))


def blocked_product(A: Any, B: Any) -> Layout:
    """Each mode ``(A_i, B_i)``: copies of the block A laid out by B, block-contiguous.

    Matches C++: ``coalesce(zip(logical_product(A, B)), (1,)*rank)`` with both padded to a
    common rank with ``1:0`` modes.
    """
    if (rec := recorder()) and rec.opens(blocked_product):
        return rec.framed(blocked_product, A, B)
    return _interleave(A, B, True)


def raked_product(A: Any, B: Any) -> Layout:
    """Each mode ``(B_i, A_i)``: the copies of A interleaved (raked) across B."""
    if (rec := recorder()) and rec.opens(raked_product):
        return rec.framed(raked_product, A, B)
    return _interleave(A, B, False)


def tile_to_shape(block: Any, target_shape: Any, order: Any = None) -> Layout:
    """Repeat ``block`` (in ``order``, default column-major) until it covers ``target_shape``."""
    if (rec := recorder()) and rec.opens(tile_to_shape):
        return rec.framed(tile_to_shape, block, target_shape, order)
    block = as_layout(block)
    target = target_shape if type(target_shape) is tuple else (target_shape,)
    r = len(target)
    if block.rank() > r:
        raise CutepyError(f"tile_to_shape: {block} has more modes than the target {target_shape}")
    if type(block.shape) is not tuple:
        block = Layout._new((block.shape,), (block.stride,))
    padded = append(block, n=r)
    block_shape = it.product_each(padded.shape)
    target_shape_each = it.product_each(target)
    for b, t in zip(block_shape, target_shape_each):
        if t % b != 0:
            raise CutepyError(
                f"tile_to_shape: the block's extent {b} does not divide the target's {t}"
            )
    product_shape = tuple(t // b for b, t in zip(block_shape, target_shape_each))
    copies = make_ordered_layout(product_shape, order)
    rec and rec.emit(ev.Copies(product_shape, copies))
    return coalesce(blocked_product(padded, copies), product_shape)
