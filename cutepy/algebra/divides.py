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

import math
from collections.abc import Callable
from typing import Any

from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.events import Event, KeptModes, NoTiler
from ..core.kinds import (
    COMPOSITION_BY_B,
    FLAT_DIVIDE,
    LOGICAL_DIVIDE,
    MAP_LAYOUT,
    TILED_DIVIDE,
    ZIPPED_DIVIDE,
)
from ..core.layout import Layout, as_layout, derived, make_layout
from ..core.tracing import recorder, recording
from ..core.tuples import as_int, check_int_tuple
from ..core.tuples import ceil_div as checked_ceil_div
from .coalesce import coalesce_flat
from .complement import complement
from .composition import composition

# -- the steps explain() shows: the decisions this algorithm reports, and their words --------
# (an event without words is worded by its explainer in cutepy.derivation, which knows the
# derivation around it)


class Divisor(Event):
    """``logical_divide``: the divisor ``(T, complement(T, size(A)))``."""

    layout: Any

    def words(self, tex: Any) -> tuple:
        return f"the divisor (T, complement) = {self.layout}", "", self.layout


class Zipped(Event):
    """A single-layout tiler: the logical result ``layout`` is already (tile, rest)."""

    layout: Any


class Unzipped(Event):
    """A tuple tiler: every mode's tile part, then every rest part."""

    tiles: Any
    rest: Any


def _tiler(t: Any) -> Any:
    """Normalise a tiler: a Layout, None, or a tuple of tilers (ints become ``n:1``)."""
    if t is None or type(t) is Layout:
        return t
    if type(t) is tuple:
        for x in t:
            if type(x) is not Layout:
                break
        else:
            return t  # layouts already
    if it.is_integer(t):  # C++'s make_layout(n): n:1, and 1:0; symbolic sizes too (checked)
        return Layout(t)
    if isinstance(t, (tuple, list)):
        return tuple(_tiler(x) for x in t)
    if COMPOSITION_BY_B.of(t) is not None:  # a swizzle or a swizzled layout composes from the right
        return t
    raise CutepyError(f"{t!r} is not a tiler (a layout, a shape, or a tuple of tilers)")


def _cotarget_facts(A: Layout) -> tuple[Any, tuple, tuple, bool, bool, Any]:
    """What :func:`_cotarget` reads of A alone (kept on the value): its size, its flat modes,
    whether a leaf is a run-time integer, whether every leaf is a plain ``int``, and (then)
    its first leaf other than 1."""
    fs, dyn_s = it.flatten_dyn(A._shape)
    fd, dyn_d = it.flatten_dyn(A._stride)
    ints = all(type(x) is int for x in fs + fd)
    first = next((s for s in fs if s != 1), 1) if ints else None
    return A.size(), fs, fd, dyn_s or dyn_d, ints, first


def _tiler_facts(T: Layout) -> tuple[tuple, tuple, bool, Any]:
    """What :func:`_cotarget` reads of the tiler alone (kept on the value): its flat modes,
    whether a leaf is a run-time integer, and its extent ``max(s * |d|)`` over the modes of
    stride not 0 and shape not 1 (``None`` unless every leaf is a plain ``int``)."""
    ts, dyn_s = it.flatten_dyn(T._shape)
    td, dyn_d = it.flatten_dyn(T._stride)
    if any(type(x) is not int for x in ts + td):
        return ts, td, dyn_s or dyn_d, None
    return ts, td, False, max([s * abs(d) for s, d in zip(ts, td) if d != 0 and s != 1], default=1)


def _cotarget(A: Any, T: Any) -> Any:
    """C++ divides by ``complement(T, shape(coalesce(A)))``: the rest is ``ceil_div`` mode by mode.

    That equals ``complement(T, size(A))`` unless T's extent splits a mode of A unevenly;
    then the shape is passed (plain-integer layouts only; a symbolic A keeps its size).
    """
    if type(A) is not Layout or type(T) is not Layout:
        return A.size()
    size, fs, fd, dyn_a, ints_a, first = derived(A, _cotarget_facts)
    _, _, dyn_t, extent = derived(T, _tiler_facts)
    if dyn_a or dyn_t:  # C++'s shape(coalesce(A))
        with recording(None):
            return coalesce_flat(fs, fd)[0]
    if not ints_a or extent is None:
        return size
    if first % extent == 0:  # the extent splits coalesce(A)'s first mode evenly: the size will do
        return size
    if _divides_evenly(fs, extent):  # then so does every coalesced grouping: the size will do
        return size
    with recording(None):  # the shape of coalesce(A) (C++'s bw_coalesce); not a step to explain
        cs = coalesce_flat(fs, fd)[0]
    shape = list(cs) if type(cs) is tuple else [cs]
    if len(shape) < 2 or it.product(it.ceil_div_tuple(tuple(shape), extent)) == -(-size // extent):
        return size
    return tuple(shape)


def _divides_evenly(shape: tuple, n: int) -> bool:
    """Whether ``ceil_div(shape, n)`` is exact at every mode: each mode divides what is left of
    ``n`` or is divided by it. Merging adjacent modes keeps this, so it holds for any
    coalesced form of ``shape`` too, and then ``product(ceil_div(shape, n)) == ceil(size / n)``.

    >>> _divides_evenly((4, 2, 3), 8), _divides_evenly((6, 4), 4)
    (True, False)
    """
    for x in shape:
        if n == 1:
            return True
        if x % n == 0:
            n = 1
        elif n % x == 0:
            n //= x
        else:
            return False
    return True


def _mode_list(A: Layout) -> tuple[Layout, ...]:
    """A's top-level modes as layouts (a form kept on the value: the modes keep theirs)."""
    s, d = A._shape, A._stride
    if type(s) is not tuple:
        return (A,)
    return tuple([Layout._new(x, y) for x, y in zip(s, d)])


def _modes(A: Layout) -> list[Layout]:
    return list(derived(A, _mode_list)) if type(A) is Layout else (list(A) if type(A.shape) is tuple else [A])


def logical_divide(A: Any, tiler: Any) -> Any:
    """``composition(A, make_layout(T, complement(T, size(A))))``, by mode for a tuple tiler.

    ``A`` is a Layout (or a shape), a swizzled layout (divided under its swizzle, as C++) or a
    tensor (its layout divided, its engine kept); an integer tiler ``n`` is ``n:1``, ``None``
    keeps a mode.

    Pre:  the tiler (each mode of a tuple tiler) has a complement in ``A``'s size and divides
          ``A``'s shape where composition needs it (else ``AdmissibilityError``); a tuple tiler
          has at most ``rank(A)`` modes (else ``CutepyError``).
    Post: ``result == composition(A, make_layout(tiler, complement(tiler, size(A))))``: mode 0
          (of each mode) is one tile, mode 1 enumerates the tiles.

    >>> logical_divide(Layout(8, 1), 4)
    (4,2):(1,4)
    >>> from cutepy import make_identity_tensor
    >>> logical_divide(make_identity_tensor((4, 8)), (2, 4))
    ArithTuple(0,0) o ((2,2),(4,2)):((1@0,2@0),(1@1,4@1))
    """
    rec = recorder()
    if rec and rec.opens(logical_divide):
        return rec.framed(logical_divide, A, tiler)
    if type(A) is not Layout and (impl := LOGICAL_DIVIDE.of(A)) is not None:
        return impl(A, tiler)
    if type(tiler) is not Layout:
        tiler = _tiler(tiler)
    if type(A) is not Layout:
        A = as_layout(A)
    if tiler is None:
        if rec:
            rec.emit(NoTiler())
        return A
    if type(tiler) is tuple:
        return by_mode(logical_divide, A, tiler)
    # as C++: the cotarget is the shape of coalesce(A), not its size (ceil_div per mode)
    c = complement(tiler, _cotarget(A, tiler))
    if type(tiler) is Layout and type(c) is Layout:  # make_layout(tiler, c), without its tests
        divisor = Layout._new((tiler._shape, c._shape), (tiler._stride, c._stride))
    else:
        divisor = make_layout(tiler, c)
    if rec:
        rec.emit(Divisor(divisor))
    return composition(A, divisor)


def by_mode(op: Callable[[Any, Any], Layout], A: Layout, tiler: tuple) -> Layout:
    """``op`` applied mode by mode (``op(A_i, tiler_i)``); A's modes past the tiler are kept."""
    modes = _modes(A)
    if len(tiler) > len(modes):
        raise CutepyError(f"{op.__name__}: the tiler has {len(tiler)} modes, {A} has {len(modes)}")
    out = [op(m, t) for m, t in zip(modes, tiler)] + modes[len(tiler):]
    if len(tiler) < len(modes):
        rec = recorder()
        if rec:
            rec.emit(KeptModes(len(tiler)))
    return make_layout(*out)


def unzip_modes(L: Layout, tiler: Any) -> tuple[Layout, Layout]:
    """Split a by-mode divide or product into (tile part, rest part), as C++'s ``zip2_by``: a mode
    whose tiler is ``None`` was left as it is, and must itself be a (tile, rest) pair."""
    if isinstance(tiler, tuple):
        modes = _modes(L)
        pairs = [unzip_modes(m, t) for m, t in zip(modes, tiler)]
        firsts = [p[0] for p in pairs]
        seconds = [p[1] for p in pairs] + modes[len(tiler):]
        empty = Layout._new((), ())  # as C++: an empty tiler zips to an empty tile mode
        return (make_layout(*firsts) if firsts else empty), (make_layout(*seconds) if seconds else empty)
    if tiler is None and (type(L.shape) is not tuple or len(L.shape) != 2):
        raise CutepyError(f"a tiler mode None keeps the mode {L} as it is, and zipping needs it to be "
                          "a (tile, rest) pair (C++'s zip2_by: \"Expected a pair\")")
    return L[0], L[1]


def zip_by_tiler(logical: Callable[[Any, Any], Layout], A: Any, tiler: Any) -> Layout:
    """``logical(A, tiler)`` regrouped as ``((tile modes...), (rest modes..., extra modes...))``."""
    tiler = _tiler(tiler)
    if tiler is None:
        raise CutepyError(f"{logical.__name__.replace('logical', 'zipped')}: no tiler (None); the zipped, "
                          "tiled and flat forms need one (C++ rejects `_` here)")
    L = logical(A, tiler)
    if not isinstance(tiler, tuple):
        rec = recorder()
        if rec:
            rec.emit(Zipped(L))
        return L
    rec = recorder()
    if type(L) is Layout and not rec:  # unzip_modes on the shape and stride tuples
        ts, td, rs, rd = _unzip_tuples(L._shape, L._stride, tiler)
        return Layout._new((ts, rs), (td, rd))
    tiles, rest = unzip_modes(L, tiler)
    if rec:
        rec.emit(Unzipped(tiles, rest))
    return make_layout(tiles, rest)


def _unzip_tuples(s: Any, d: Any, tiler: Any) -> tuple[Any, Any, Any, Any]:
    """:func:`unzip_modes` of the layout ``s:d`` as (tile shape, tile stride, rest shape, rest
    stride), with no layout built on the way (the same results and errors)."""
    if isinstance(tiler, tuple):
        ms, md = (s, d) if type(s) is tuple else ((s,), (d,))
        ts, td, rs, rd = [], [], [], []
        for x, y, t in zip(ms, md, tiler):
            a, b, c, e = _unzip_tuples(x, y, t)
            ts.append(a)
            td.append(b)
            rs.append(c)
            rd.append(e)
        n = len(tiler)
        rs.extend(ms[n:])
        rd.extend(md[n:])
        return tuple(ts), tuple(td), tuple(rs), tuple(rd)
    if type(s) is not tuple or len(s) != 2:
        unzip_modes(Layout._new(s, d), tiler)  # raises as it does
    return s[0], d[0], s[1], d[1]


def _spread(mode: Layout) -> list[Layout]:
    """C++'s slice with ``repeat<rank>(_)``: a mode of rank > 1 spreads its modes; rank 1 stays
    whole; the empty mode (an empty tiler's tile) is sliced away."""
    if mode.shape == ():
        return []
    return list(mode) if type(mode.shape) is tuple and len(mode.shape) > 1 else [mode]


def unpack_rest(z: Any) -> Any:
    """``(T, (R0, R1, ...))`` -> ``(T, R0, R1, ...)``: the tiled form (C++ ``z(_, repeat<R1>(_))``);
    a swizzled ``z`` (a product by a swizzled tiler) unpacks the layout under its swizzle."""
    if type(z) is not Layout and (impl := MAP_LAYOUT.of(z)) is not None:
        return impl(z, unpack_rest)
    return make_layout(z[0], *_spread(z[1]))


def unpack_all(z: Any) -> Any:
    """``((T0, T1, ...), (R0, R1, ...))`` -> ``(T0, T1, ..., R0, R1, ...)``: the flat form."""
    if type(z) is not Layout and (impl := MAP_LAYOUT.of(z)) is not None:
        return impl(z, unpack_all)
    return make_layout(*_spread(z[0]), *_spread(z[1]))


def zipped_divide(A: Any, tiler: Any) -> Layout:
    """``((TileM,TileN,...), (RestM,RestN,...,L,...))``: :func:`logical_divide` with the tiles zipped.

    A ``None`` mode of a tuple tiler keeps a mode that is already a (tile, rest) pair, as
    C++'s ``zip2_by`` (the TiledMMA partitioners divide ``(_, (ThrM, ThrN))`` so).

    Pre:  as :func:`logical_divide`; a tiler is given (not ``None``), and each ``None`` mode of a
          tuple tiler has rank 2 (else ``CutepyError``).
    Post: mode 0 is one tile and mode 1 enumerates the tiles; the function is
          ``logical_divide(A, tiler)``'s, regrouped.

    >>> zipped_divide(Layout((8, 6)), (4, 3))
    ((4,3),(2,2)):((1,8),(4,24))
    >>> zipped_divide(Layout(((32, 4), (4, 8))), (None, (2, 2)))
    ((32,(2,2)),(4,(2,4))):((1,(128,512)),(32,(256,1024)))
    """
    rec = recorder()
    if rec and rec.opens(zipped_divide):
        return rec.framed(zipped_divide, A, tiler)
    if type(A) is not Layout and (impl := ZIPPED_DIVIDE.of(A)) is not None:
        return impl(A, tiler)
    return zip_by_tiler(logical_divide, A, tiler)


def tiled_divide(A: Any, tiler: Any) -> Layout:
    """``((TileM,TileN,...), RestM, RestN, ..., L, ...)``: :func:`zipped_divide` with mode 1 unpacked.

    Pre:  as :func:`zipped_divide`.
    Post: ``result(t, r0, r1, ...) == zipped_divide(A, tiler)(t, (r0, r1, ...))``.

    >>> tiled_divide(Layout((8, 6)), (4, 3))
    ((4,3),2,2):((1,8),4,24)
    """
    rec = recorder()
    if rec and rec.opens(tiled_divide):
        return rec.framed(tiled_divide, A, tiler)
    if type(A) is not Layout and (impl := TILED_DIVIDE.of(A)) is not None:
        return impl(A, tiler)
    return unpack_rest(zipped_divide(A, tiler))


def flat_divide(A: Any, tiler: Any) -> Layout:
    """``(TileM, TileN, ..., RestM, RestN, ..., L, ...)``: :func:`zipped_divide` with both modes unpacked.

    Pre:  as :func:`zipped_divide`.
    Post: ``result(t0, t1, ..., r0, r1, ...) == zipped_divide(A, tiler)((t0, t1, ...), (r0, r1, ...))``.

    >>> flat_divide(Layout((8, 6)), (4, 3))
    (4,3,2,2):(1,8,4,24)
    """
    rec = recorder()
    if rec and rec.opens(flat_divide):
        return rec.framed(flat_divide, A, tiler)
    if type(A) is not Layout and (impl := FLAT_DIVIDE.of(A)) is not None:
        return impl(A, tiler)
    return unpack_all(zipped_divide(A, tiler))


def ceil_div(target: Any, tiler: Any) -> Any:
    """How many tiles of ``tiler`` cover ``target``: C++'s ``ceil_div``, the Layout overload included.

    With a Layout ``tiler`` this is the rest mode of :func:`logical_divide`:
    ``shape(complement(tiler, shape(target)))`` (C++ does not check that the tiler divides
    the target, so the answer exists where ``logical_divide`` may not). With integers or
    integer tuples it is :func:`cutepy.core.tuples.ceil_div`.

    Pre:  ``target`` is a shape (or a Layout, whose shape is taken); ``tiler`` is a Layout with
          positive integer strides that ``complement`` accepts, or an IntTuple (else
          ``CutepyError``/``AdmissibilityError``).
    Post: for a Layout tiler, ``size(tiler) * size(result) >= size(target)`` when the tiler is
          compact; ``result == ceil_div(target, size(tiler))`` for a compact 1-D tiler over a
          1-D target.

    >>> ceil_div((16, 12), Layout((4, 2), (1, 32))), ceil_div(100, Layout(8, 2))
    ((8, 3), (2, 7))
    >>> ceil_div((16, 12), 8)
    (2, 12)
    """
    if isinstance(target, Layout):
        target = target.shape
    if isinstance(tiler, Layout):
        check_int_tuple(target, "ceil_div", 1)
        return complement(tiler, target).shape
    return checked_ceil_div(target, tiler)


def domain_distribute(shape_a: Any, b: Any) -> Layout:
    """A layout of ``b`` elements (or fewer) spread over ``shape_a``: C++'s ``domain_distribute``.

    Mode by mode of ``flatten(shape_a)`` it takes ``gcd(a_i, rest)`` elements (``rest`` is
    ``b`` divided by what the modes before took), with the compact column-major strides of
    ``shape_a``, coalesced. It may find fewer than ``b`` elements (C++: "not guaranteed to
    find all").

    Pre:  ``shape_a`` is a shape (or a Layout, whose shape is taken); ``b`` is a positive integer
          (C++ requires a static integer; else ``CutepyError``).
    Post: ``size(result)`` divides ``b``; ``result`` is strictly increasing; each leaf of the
          result divides the mode of ``shape_a`` it comes from, so ``zipped_divide(make_layout(
          shape_a), result)`` is admissible.

    >>> domain_distribute((15, 14), 6), domain_distribute((4, (6, 2)), 16)
    ((3,2):(1,15), (8,2):(1,24))
    """
    shape_a = getattr(shape_a, "shape", shape_a)  # a layout (plain or swizzled) gives its shape
    shape_a, b = as_int(shape_a), as_int(b)
    check_int_tuple(shape_a, "domain_distribute", 1)
    if type(b) is not int or b < 1:
        raise CutepyError(f"domain_distribute: b must be a positive integer, got {it.short_repr(b)}")
    flat = it.flatten_tuple(shape_a) if type(shape_a) is tuple else (shape_a,)
    if any(type(x) is not int or x < 1 for x in flat):
        raise CutepyError(f"domain_distribute: the shape {it.short_repr(shape_a)} must have positive "
                          "integer leaves (C++ requires a static shape)")
    shapes, rest = [], b
    for a in flat:
        g = math.gcd(a, rest)
        shapes.append(g)
        rest //= g
    strides = it.compact_major(flat)
    with recording(None):  # a construction, not a step to explain
        s, d = coalesce_flat(tuple(shapes), strides)
    return Layout._grown(s, d)


def evenly_divides(shape_a: Any, tiler: Any) -> bool:
    """Whether ``tiler`` tiles ``shape_a`` with no partial tile: C++'s ``evenly_divides``.

    A tuple tiler answers mode by mode (``False`` when it has more modes than ``shape_a``);
    otherwise ``size(a) == size(tiler) * size(ceil_div(shape(a), tiler))``, with the Layout
    form of :func:`ceil_div` for a Layout tiler.

    Pre:  ``shape_a`` is a shape or a Layout; ``tiler`` an integer, a Layout or a tuple of them
          (else ``CutepyError``).
    Post: for integers, ``result == (a % b == 0)``; for a tuple tiler, the conjunction over its modes.

    >>> evenly_divides((15, 14), domain_distribute((15, 14), 6)), evenly_divides(128, 96)
    (True, False)
    """
    a = getattr(shape_a, "shape", shape_a)  # a layout (plain or swizzled) gives its shape
    check_int_tuple(a, "evenly_divides", 1)
    if type(tiler) is tuple:
        modes = a if type(a) is tuple else (a,)
        if len(tiler) > len(modes):
            return False
        return all(evenly_divides(m, t) for m, t in zip(modes, tiler))
    if not isinstance(tiler, Layout):
        check_int_tuple(tiler, "evenly_divides", 2)
    size_b = tiler.size() if isinstance(tiler, Layout) else it.product(tiler)
    return bool(it.product(a) == size_b * it.product(ceil_div(a, tiler)))

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "ceil_div", "domain_distribute", "evenly_divides", "flat_divide", "logical_divide", "tiled_divide",
    "zipped_divide",
]
