"""Divides: split a layout into tiles and the layout of the tiles.

For a layout ``(M, N, L, ...)`` and a tiler ``<TileM, TileN>``::

    logical_divide : ((TileM,RestM), (TileN,RestN), L, ...)
    zipped_divide  : ((TileM,TileN), (RestM,RestN,L,...))
    tiled_divide   : ((TileM,TileN), RestM, RestN, L, ...)
    flat_divide    : (TileM, TileN, RestM, RestN, L, ...)

>>> from cutepy import Layout
>>> logical_divide(Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2))
((2,2),(2,3)):((4,1),(2,8))
>>> A = Layout((8, 6))
>>> zipped_divide(A, (4, 3))
((4,3),(2,2)):((1,8),(4,24))
>>> tiled_divide(A, (4, 3))
((4,3),2,2):((1,8),4,24)
>>> flat_divide(A, (4, 3))
(4,3,2,2):(1,8,4,24)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import events as ev
from . import inttuple as it
from .coalesce import coalesce_flat
from .complement import complement
from .composition import composition
from .errors import CutepyError
from .layout import Layout, as_layout, make_layout
from .swizzle import ComposedLayout
from .tracing import recorder, recording


def _tiler(t: Any) -> Any:
    """Normalise a tiler: a Layout, None, or a tuple of tilers (ints become ``n:1``)."""
    if t is None or type(t) is Layout:
        return t
    if it.is_integer(t):  # C++'s make_layout(n): n:1, and 1:0; symbolic sizes too (checked)
        return Layout(t)
    if isinstance(t, (tuple, list)):
        return tuple(_tiler(x) for x in t)
    if hasattr(t, "compose"):
        return t
    raise CutepyError(f"{t!r} is not a tiler (a layout, a shape, or a tuple of tilers)")


def _cotarget(A: Any, T: Any) -> Any:
    """C++ divides by ``complement(T, shape(coalesce(A)))``: the rest is ``ceil_div`` mode by mode.

    That equals ``complement(T, size(A))`` unless T's extent splits a mode of A unevenly;
    then the shape is passed (plain-integer layouts only; a symbolic A keeps its size).
    """
    size = A.size()
    if type(A) is not Layout or type(T) is not Layout:
        return size
    if type(T.shape) is int and type(T.stride) is int:  # the common case, without flattening
        extent = T.shape * abs(T.stride) if T.stride != 0 and T.shape != 1 else 1
        first = A.shape
        while type(first) is tuple and first:
            first = first[0]
        if type(first) is int and first != 1 and first % extent == 0:
            return size  # the extent splits A's first mode evenly: the size will do
    fs = it.flatten(A.shape) if type(A.shape) is tuple else (A.shape,)
    fd = it.flatten(A.stride) if type(A.stride) is tuple else (A.stride,)
    ts = it.flatten(T.shape) if type(T.shape) is tuple else (T.shape,)
    td = it.flatten(T.stride) if type(T.stride) is tuple else (T.stride,)
    if any(type(x) is not int for x in fs + fd + ts + td):
        return size
    extent = max([s * abs(d) for s, d in zip(ts, td) if d != 0 and s != 1], default=1)
    first = next((s for s in fs if s != 1), 1)
    if first % extent == 0:  # the extent splits coalesce(A)'s first mode evenly: the size will do
        return size
    with recording(None):  # the shape of coalesce(A) (C++'s bw_coalesce); not a step to explain
        cs = coalesce_flat(fs, fd)[0]
    shape = list(cs) if type(cs) is tuple else [cs]
    if len(shape) < 2 or it.product(it.ceil_div(tuple(shape), extent)) == -(-size // extent):
        return size
    return tuple(shape)


def _modes(A: Layout) -> list[Layout]:
    return list(A) if type(A.shape) is tuple else [A]


def logical_divide(A: Any, tiler: Any) -> Any:
    """``composition(A, make_layout(T, complement(T, size(A))))``, by mode for a tuple tiler."""
    if (rec := recorder()) and rec.opens(logical_divide):
        return rec.framed(logical_divide, A, tiler)
    tiler = _tiler(tiler)
    if type(A) is ComposedLayout:  # as C++: divide the layout under the swizzle
        return ComposedLayout(A.outer, A.offset, logical_divide(A.inner, tiler))
    if isinstance(A, Layout) or not hasattr(A, "compose"):
        A = as_layout(A)
        if tiler is None:
            rec and rec.emit(ev.NoTiler())
            return A
        if isinstance(tiler, tuple):
            return by_mode(logical_divide, A, tiler)
    elif isinstance(tiler, tuple):
        raise CutepyError("logical_divide of a composed layout takes a single layout tiler")
    # as C++: the cotarget is the shape of coalesce(A), not its size (ceil_div per mode)
    divisor = make_layout(tiler, complement(tiler, _cotarget(A, tiler)))
    rec and rec.emit(ev.Divisor(divisor))
    return composition(A, divisor)


def by_mode(op: Callable[[Any, Any], Layout], A: Layout, tiler: tuple) -> Layout:
    """``op`` applied mode by mode (``op(A_i, tiler_i)``); A's modes past the tiler are kept."""
    modes = _modes(A)
    if len(tiler) > len(modes):
        raise CutepyError(f"{op.__name__}: the tiler has {len(tiler)} modes, {A} has {len(modes)}")
    out = [op(m, t) for m, t in zip(modes, tiler)] + modes[len(tiler):]
    len(tiler) < len(modes) and (rec := recorder()) and rec.emit(ev.KeptModes(len(tiler)))
    return make_layout(*out)


def unzip_modes(L: Layout, tiler: Any) -> tuple[Layout, Layout]:
    """Split a by-mode divide or product into (tile part, rest part), as C++'s ``zip2_by``."""
    if isinstance(tiler, tuple):
        modes = _modes(L)
        pairs = []
        for m, t in zip(modes, tiler):
            if t is None:
                raise CutepyError("zipped, tiled and flat divides/products need a tiler in every mode")
            pairs.append(unzip_modes(m, t))
        firsts = [p[0] for p in pairs]
        seconds = [p[1] for p in pairs] + modes[len(tiler):]
        empty = Layout._new((), ())  # as C++: an empty tiler zips to an empty tile mode
        return (make_layout(*firsts) if firsts else empty), (make_layout(*seconds) if seconds else empty)
    return L[0], L[1]


def zip_by_tiler(logical: Callable[[Any, Any], Layout], A: Any, tiler: Any) -> Layout:
    """``logical(A, tiler)`` regrouped as ``((tile modes...), (rest modes..., extra modes...))``."""
    tiler = _tiler(tiler)
    if tiler is None:
        raise CutepyError(f"{logical.__name__.replace('logical', 'zipped')}: no tiler (None); the zipped, "
                          "tiled and flat forms need one (C++ rejects `_` here)")
    if type(A) is ComposedLayout:  # as C++: zip the layout under the swizzle
        return ComposedLayout(A.outer, A.offset, zip_by_tiler(logical, A.inner, tiler))
    L = logical(A, tiler)
    if not isinstance(tiler, tuple):
        (rec := recorder()) and rec.emit(ev.Zipped(L))
        return L
    tiles, rest = unzip_modes(L, tiler)
    (rec := recorder()) and rec.emit(ev.Unzipped(tiles, rest))
    return make_layout(tiles, rest)


def _spread(mode: Layout) -> list[Layout]:
    """C++'s slice with ``repeat<rank>(_)``: a mode of rank > 1 spreads its modes; rank 1 stays
    whole; the empty mode (an empty tiler's tile) is sliced away."""
    if mode.shape == ():
        return []
    return list(mode) if type(mode.shape) is tuple and len(mode.shape) > 1 else [mode]


def unpack_rest(z: Any) -> Any:
    """``(T, (R0, R1, ...))`` -> ``(T, R0, R1, ...)``: the tiled form (C++ ``z(_, repeat<R1>(_))``)."""
    if type(z) is ComposedLayout:
        return ComposedLayout(z.outer, z.offset, unpack_rest(z.inner))
    return make_layout(z[0], *_spread(z[1]))


def unpack_all(z: Any) -> Any:
    """``((T0, T1, ...), (R0, R1, ...))`` -> ``(T0, T1, ..., R0, R1, ...)``: the flat form."""
    if type(z) is ComposedLayout:
        return ComposedLayout(z.outer, z.offset, unpack_all(z.inner))
    return make_layout(*_spread(z[0]), *_spread(z[1]))


def zipped_divide(A: Any, tiler: Any) -> Layout:
    """``((TileM,TileN,...), (RestM,RestN,...,L,...))``."""
    if (rec := recorder()) and rec.opens(zipped_divide):
        return rec.framed(zipped_divide, A, tiler)
    return zip_by_tiler(logical_divide, A, tiler)


def tiled_divide(A: Any, tiler: Any) -> Layout:
    """``((TileM,TileN,...), RestM, RestN, ..., L, ...)``."""
    if (rec := recorder()) and rec.opens(tiled_divide):
        return rec.framed(tiled_divide, A, tiler)
    return unpack_rest(zipped_divide(A, tiler))


def flat_divide(A: Any, tiler: Any) -> Layout:
    """``(TileM, TileN, ..., RestM, RestN, ..., L, ...)``."""
    if (rec := recorder()) and rec.opens(flat_divide):
        return rec.framed(flat_divide, A, tiler)
    return unpack_all(zipped_divide(A, tiler))
