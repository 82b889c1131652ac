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

from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.events import Event, NoTiler
from ..core.kinds import (
    BLOCKED_PRODUCT,
    FLAT_PRODUCT,
    LOGICAL_PRODUCT,
    LOGICAL_PRODUCT_BY_TILER,
    RAKED_PRODUCT,
    TILE_TO_SHAPE,
    TILED_PRODUCT,
    ZIPPED_PRODUCT,
)
from ..core.layout import Layout, _wide, as_layout, layout_arg, make_layout
from ..core.tracing import recorder
from .complement import complement, static_complement
from .composition import _compose_flat, _times, composition
from .divides import _tiler, by_mode, unpack_all, unpack_rest, zip_by_tiler

# -- the steps explain() shows: the decisions this algorithm reports, and their words --------
# (an event without words is worded by its explainer in cutepy.derivation, which knows the
# derivation around it)


class Room(Event):
    """``logical_product``: the complement of A reaches ``size = size(A) * cosize(B)``."""

    A: Any
    B: Any
    size: Any

    def words(self, tex: Any) -> str:
        return (f"room for the copies: size(A) * cosize(B) = {self.A.size()} * {self.B.cosize()} = "
                f"{self.size}")


class Padded(Event):
    """Blocked and raked products: A and B padded to ``rank`` with ``1:0`` modes."""

    rank: int
    A: Any
    B: Any
    size: Any

    def words(self, tex: Any) -> str:
        return f"pad both to rank {self.rank} with 1:0 modes: A = {self.A}, B = {self.B}"


class PairMode(Event):
    """Mode ``i`` of a blocked/raked product: the pair ``pair`` coalesced to ``result``."""

    i: int
    pair: Any
    result: Any


class Copies(Event):
    """``tile_to_shape``: ``shape`` copies per mode, laid out as ``layout``."""

    shape: tuple
    layout: Any

    def words(self, tex: Any) -> str:
        return f"copies per mode: {self.shape}, laid out as {self.layout}"


def logical_product(A: Any, tiler: Any) -> Layout:
    """``(A, composition(complement(A, size(A)*cosize(B)), B))``, by mode for a tuple tiler.

    A swizzled tiler ``Sw o 0 o L`` gives, as C++, ``Sw' o logical_product(A, L)`` with the
    swizzle ``Sw'`` moved to where the product puts L's swizzled bits.

    Pre:  ``A`` is a Layout; ``tiler`` is a layout, a swizzled layout over offset 0 or a tuple of
          layouts with at most ``rank(A)`` modes; ``complement(A, ...)`` exists (else
          ``AdmissibilityError``).
    Post: ``size(result) == size(A) * size(tiler)``; ``result`` restricted to mode 0 is ``A``
          and each copy of ``A`` is laid out by ``tiler``:
          ``result(i, j) == A(i) + complement(A, size(A) * cosize(tiler))(tiler(j))``.

    >>> logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))
    ((2,2),(2,3)):((4,1),(2,8))
    """
    rec = recorder()
    if rec and rec.opens(logical_product):
        return rec.framed(logical_product, A, tiler)
    if type(A) is not Layout and (impl := LOGICAL_PRODUCT.of(A)) is not None:
        return impl(A, tiler)
    if type(tiler) is not Layout:
        tiler = _tiler(tiler)
    if type(A) is not Layout:
        A = as_layout(A)
    if type(tiler) is not Layout:
        if (impl := LOGICAL_PRODUCT_BY_TILER.of(tiler)) is not None:
            return impl(tiler, A)
        if tiler is None:
            if rec:
                rec.emit(NoTiler())
            return A
        if isinstance(tiler, tuple):
            return by_mode(logical_product, A, tiler)
    room = A.size() * tiler.cosize()
    if rec:
        rec.emit(Room(A, tiler, room))
    return make_layout(A, composition(complement(A, room), tiler))


#: Largest product with a swizzled tiler whose result is checked element by element.
MAX_PRODUCT_CHECK = 1 << 22


def zipped_product(A: Any, tiler: Any) -> Layout:
    """``((M,N,...), (TileM,TileN,...,L,...))``: :func:`logical_product` with the tiles zipped.

    Pre:  as :func:`logical_product`.
    Post: mode 0 is the block ``A`` (by mode), mode 1 enumerates its copies; the function is
          ``logical_product(A, tiler)``'s, regrouped.

    >>> zipped_product(Layout((2, 2), (1, 2)), (Layout(3, 1), Layout(2, 1)))
    ((2,2),(3,2)):((1,2),(2,1))
    """
    rec = recorder()
    if rec and rec.opens(zipped_product):
        return rec.framed(zipped_product, A, tiler)
    if type(A) is not Layout and (impl := ZIPPED_PRODUCT.of(A)) is not None:
        return impl(A, tiler)
    return zip_by_tiler(logical_product, A, tiler)


def tiled_product(A: Any, tiler: Any) -> Layout:
    """``((M,N,...), TileM, TileN, ..., L, ...)``: :func:`zipped_product` with mode 1 unpacked.

    Pre:  as :func:`logical_product`.
    Post: ``result(a, b0, b1, ...) == zipped_product(A, tiler)(a, (b0, b1, ...))``.

    >>> tiled_product(Layout((2, 2), (1, 2)), (Layout(3, 1), Layout(2, 1)))
    ((2,2),3,2):((1,2),2,1)
    """
    rec = recorder()
    if rec and rec.opens(tiled_product):
        return rec.framed(tiled_product, A, tiler)
    if type(A) is not Layout and (impl := TILED_PRODUCT.of(A)) is not None:
        return impl(A, tiler)
    return unpack_rest(zipped_product(A, tiler))


def flat_product(A: Any, tiler: Any) -> Layout:
    """``(M, N, ..., TileM, TileN, ..., L, ...)``: :func:`zipped_product` with both modes unpacked.

    Pre:  as :func:`logical_product`.
    Post: ``result(a0, a1, ..., b0, b1, ...) == zipped_product(A, tiler)((a0, a1, ...), (b0, b1, ...))``.

    >>> flat_product(Layout((2, 2), (1, 2)), (Layout(3, 1), Layout(2, 1)))
    (2,2,3,2):(1,2,2,1)
    """
    rec = recorder()
    if rec and rec.opens(flat_product):
        return rec.framed(flat_product, A, tiler)
    if type(A) is not Layout and (impl := FLAT_PRODUCT.of(A)) is not None:
        return impl(A, tiler)
    return unpack_all(zipped_product(A, tiler))


def _append_rank(L: Layout, r: int) -> Layout:
    """C++'s ``append<R>(layout)``: pad with ``1:0`` modes up to rank ``r`` (a scalar becomes a
    tuple); the value itself where nothing is added (its kept forms with it)."""
    s, d = _padded(L._shape, L._stride, r)
    return L if s is L._shape else Layout._new(s, d)


def _interleave_static(A: Layout, B: Layout, block_first: bool) -> Layout | None:
    """:func:`_interleave`'s common case (called only while no recorder listens) in one pass: the
    complement's coalesced modes read from A's kept gaps serve as its ``coalesce_x``; a one-mode
    complement ``s:d`` composes with B by scaling B's strides by ``d`` (composition's own short
    path). ``None`` where that does not apply or a step would refuse: the steps then run, and
    raise their own errors (``tests/algebra/test_fast_paths.py`` holds the two paths equal)."""
    sa, sb = A._shape, B._shape
    if sa == () or sb == ():
        return None
    room = A.size() * B.cosize()
    if type(room) is not int:
        return None
    try:
        sd = static_complement(A, room)
    except CutepyError:  # the steps name the padded layouts in their errors
        return None
    if sd is None:
        return None
    cs, cd = sd
    if _wide(cs) is not None or _wide(cd) is not None:
        return None  # past 64 bits: complement's own check words the error
    r = max(len(sa) if type(sa) is tuple else 1, len(sb) if type(sb) is tuple else 1)
    if type(cs) is not tuple and (d := _times(B._stride, cd)) is not None:
        if _wide(d) is not None:
            return None
        cs, cd = _padded(sb, d, r)  # c o B, then padded as c o append<R>(B) is
    else:
        if type(cs) is tuple:
            ls, ld = cs, cd
        else:  # coalesce_x of a one-mode complement (a 1 counts as 2 there)
            ls, ld = ((2,), (0,)) if cs == 1 else ((cs,), (cd,))
        try:
            C = _compose_flat(ls, ld, Layout._new(cs, cd), _append_rank(B, r))
        except CutepyError:
            return None
        cs, cd = C._shape, C._stride
    sa, da = _padded(sa, A._stride, r)
    # ranks that cannot zip give None: the steps word the error
    return _zip(sa, da, cs, cd) if block_first else _zip(cs, cd, sa, da)


def _zip(fs: Any, fd: Any, ss: Any, sd: Any) -> Layout | None:
    """C++'s ``zip(first, second)`` of two layouts given as shape and stride: a scalar first gives
    one mode holding the pair; a tuple first pairs its modes with second's, which must be a tuple
    of the same rank (else ``None``)."""
    if type(fs) is not tuple:
        return Layout._new(((fs, ss),), ((fd, sd),))
    if type(ss) is not tuple or len(ss) != len(fs):
        return None
    return Layout._new(tuple(zip(fs, ss)), tuple(zip(fd, sd)))


def _padded(s: Any, d: Any, r: int) -> tuple[Any, Any]:
    """C++'s ``append<R>`` on a shape and a stride: ``1:0`` modes up to rank ``r``; the same
    objects where nothing is added."""
    if type(s) is not tuple:
        if r <= 1:
            return s, d
        s, d = (s,), (d,)
    k = r - len(s)
    return (s + (1,) * k, d + (0,) * k) if k else (s, d)


def _interleave(A: Any, B: Any, block_first: bool) -> Any:
    if type(A) is not Layout:
        A = as_layout(A)
    if type(B) is not Layout:
        B = as_layout(B)
    rec = recorder()
    if rec is None and (out := _interleave_static(A, B, block_first)) is not None:
        return out
    r = max(len(A._shape) if type(A._shape) is tuple else 1, len(B._shape) if type(B._shape) is tuple else 1)
    Ap, Bp = _append_rank(A, r), _append_rank(B, r)
    room = A.size() * B.cosize()  # padding with 1:0 changes neither
    if rec:
        rec.emit(Padded(r, Ap, Bp, room))
    if rec:
        C = composition(complement(Ap, room), Bp)
    else:
        try:  # filter(Ap) == filter(A) (the padding's 1:0 modes are filtered out): A's kept forms serve
            c = complement(A, room)
        except CutepyError:
            c = complement(Ap, room)  # the error names the padded layout, as the steps above do
        C = composition(c, Bp)
    first, second = (Ap, C) if block_first else (C, Ap)
    out = _zip(first._shape, first._stride, second._shape, second._stride)
    if out is None:
        raise CutepyError(f"{'blocked' if block_first else 'raked'}_product of {A} and {B}: C++ cannot zip "
                          f"{first} with {second} (mismatched ranks)")
    if rec and type(first._shape) is tuple:
        for i, (pair_s, pair_d) in enumerate(zip(out._shape, out._stride)):
            rec.emit(PairMode(i, Layout._new(pair_s, pair_d), Layout._new(pair_s, pair_d)))
    return out


def blocked_product(A: Any, B: Any) -> Layout:
    """Each mode ``(A_i, B_i)``: copies of the block A laid out by B, block-contiguous.

    Matches C++ 4.x: ``zip(logical_product(append<R>(A), append<R>(B)))``, both padded to a
    common rank ``R`` with ``1:0`` modes; the modes are not coalesced.

    Pre:  as :func:`logical_product` for the padded layouts; the two can be zipped (else
          ``CutepyError``).
    Post: ``rank(result) == max(rank(A), rank(B))``; ``size(result) == size(A) * size(B)``.

    >>> blocked_product(Layout((2, 2), (2, 1)), Layout((2, 3), (3, 1)))
    ((2,2),(2,3)):((2,12),(1,4))
    """
    rec = recorder()
    if rec and rec.opens(blocked_product):
        return rec.framed(blocked_product, A, B)
    if type(A) is not Layout and (impl := BLOCKED_PRODUCT.of(A)) is not None:
        return impl(A, B)
    return _interleave(A, B, True)


def raked_product(A: Any, B: Any) -> Layout:
    """Each mode ``(B_i, A_i)``: the copies of A interleaved (raked) across B.

    Pre:  as :func:`blocked_product`.
    Post: ``rank(result) == max(rank(A), rank(B))``; ``size(result) == size(A) * size(B)``;
          the same modes as ``blocked_product`` with each pair swapped.

    >>> raked_product(Layout((2, 2), (2, 1)), Layout((2, 3), (3, 1)))
    ((2,2),(3,2)):((12,2),(4,1))
    """
    rec = recorder()
    if rec and rec.opens(raked_product):
        return rec.framed(raked_product, A, B)
    if type(A) is not Layout and (impl := RAKED_PRODUCT.of(A)) is not None:
        return impl(A, B)
    return _interleave(A, B, False)


def tile_to_shape(block: Any, target_shape: Any, order: Any = None) -> Any:
    """Repeat ``block`` (in ``order``, default column-major) until it covers ``target_shape``.

    As C++: ``blocked_product(append<R>(block), make_ordered_layout(target / block, order))``
    (no coalesce).

    Pre:  ``rank(block) <= rank(target_shape)`` and each of the block's mode sizes divides the
          target's (else ``CutepyError``).
    Post: ``compatible(target_shape, shape(result))``; mode ``i`` of the result holds
          ``target_shape[i] / size(block[i])`` copies of ``block[i]``.

    >>> tile_to_shape(Layout((2, 2), (1, 2)), (4, 6))
    ((2,2),(2,3)):((1,4),(2,8))
    """
    rec = recorder()
    if rec and rec.opens(tile_to_shape):
        return rec.framed(tile_to_shape, block, target_shape, order)
    target_shape = layout_arg(target_shape, "tile_to_shape").shape  # a shape: positive 64-bit leaves
    if type(block) is not Layout and (impl := TILE_TO_SHAPE.of(block)) is not None:
        return impl(block, target_shape, order)
    block = as_layout(block)
    target = target_shape if type(target_shape) is tuple else (target_shape,)
    r = len(target) if type(target_shape) is tuple else 1
    if block.rank() > r:
        raise CutepyError(f"tile_to_shape: {block} has more modes than the target {target_shape}")
    padded = _append_rank(block, r)
    block_shape = it.product_each_tuple(padded.shape) if type(padded.shape) is tuple else (padded.size(),)
    target_shape_each = it.product_each_tuple(target)
    for b, t in zip(block_shape, target_shape_each):
        if t % b != 0:
            raise CutepyError(
                f"tile_to_shape: the block's extent {b} does not divide the target's {t}"
            )
    # C++'s product_each wraps a scalar target, so the copies are a rank-1 tuple layout there too
    product_shape = tuple(t // b for b, t in zip(block_shape, target_shape_each))
    if order is None:
        strides = it.compact_major(product_shape)
    else:
        strides = it.compact_order_tuple(product_shape, order)
    copies = Layout._grown(product_shape, strides)
    if rec:
        rec.emit(Copies(product_shape, copies))
    return blocked_product(padded, copies)

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "blocked_product", "flat_product", "logical_product", "raked_product", "tile_to_shape",
    "tiled_product", "zipped_product",
]
