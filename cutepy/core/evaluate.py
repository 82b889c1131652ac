"""Whole-domain evaluation of a layout with numpy, no Python loop per element.

The offset of index ``i`` is ``sum(c_k * d_k)`` over the flat modes ``(s_k, d_k)``,
where ``c_k = (i // (s_0 * ... * s_{k-1})) % s_k`` (colexicographic coordinates). The
whole domain is written in place, block by block: a cache-sized block ``T`` holds the
first modes, and every later block is ``T`` plus one integer (the offset of the block's
first element), so no temporary grows with the output. A plain layout of ``2**16`` to ``2**24``
elements asked again keeps the two small tables of that add on the value (64 KiB at most,
read-only); every call returns a new array.

>>> from cutepy import Layout
>>> offsets(Layout(((2, 2), 3), ((24, 2), 8)))
array([ 0, 24,  2, 26,  8, 32, 10, 34, 16, 40, 18, 42])
>>> offsets(Layout((4, 3), (3, 1)), [0, 5, 11, 12])
array([ 0,  4, 11,  3])

Limits: a whole-domain table has at most :func:`max_elements` entries (``2**28`` unless
raised with :func:`limits` or the ``max_elements=`` argument), checked before anything
is allocated; offsets must fit in int64 (else a :class:`CutepyError`, never a wrapped
number).

>>> with limits(max_elements=10):
...     offsets(Layout(16))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cutepy.CutepyError: whole-domain offsets of 16:1 need 16 elements, above the limit of 10; ...
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from . import inttuple as it
from .errors import CutepyError, SymbolicError
from .limits import DEFAULT_MAX_ELEMENTS, _check_limit, limits, show_int  # noqa: F401 (re-exported)
from .limits import max_elements as _max_elements_in_force
from .swizzle import Swizzle

_INT64_MAX = (1 << 63) - 1
_TWO63, _TWO64 = 1 << 63, 1 << 64

# elements per block: the block and its scratch stay in the L2 cache
_BLOCK = 1 << 15
# elements per row of the one 2-D add of a plain layout (see _broadcast_fill), and the fewest
# that make it pay (shorter rows: the block loop of _fill)
_ROW = 1 << 12
_MIN_ROW = 1 << 10
# a plain layout keeps its tables (see _kept_tables) for a domain of this many elements; T and R
# hold at most _ROW offsets each (64 KiB in all)
_KEEP_MIN, _KEEP_MAX = 1 << 16, 1 << 24
# offsets a step of _table adds at once (modes taken together)
_GROUP = 16
# swizzled blocks kept per residue (see _fill)
_CACHED_BLOCKS = 8


def _flat_int_modes(layout: Any) -> tuple[tuple, tuple]:
    fs = it.flatten_tuple(layout.shape)
    fd = it.flatten_tuple(layout.stride)
    for s, d in zip(fs, fd):
        if type(s) is not int or type(d) is not int:
            if isinstance(s, int) and isinstance(d, int):  # run-time integers (cutepy.dynamic): values
                return tuple(int(x) for x in fs), tuple(int(x) for x in fd)
            symbolic = it.is_symbolic_leaf(s) or it.is_symbolic_leaf(d)
            raise (SymbolicError if symbolic else CutepyError)(
                f"whole-domain evaluation of {layout} needs integer shapes and strides; "
                "substitute symbols (or use the identity's coordinates) first"
            )
    return fs, fd


def _reach(fs: tuple, fd: tuple) -> int:
    return sum((s - 1) * abs(d) for s, d in zip(fs, fd))


def _modes(fs: tuple, fd: tuple) -> list[tuple[int, int]]:
    """Flat modes without size-1 modes, neighbours merged where ``d_{k+1} == s_k * d_k``."""
    out: list[tuple[int, int]] = []
    for s, d in zip(fs, fd):
        if s == 1:
            continue
        if out and out[-1][0] * out[-1][1] == d:
            ps, pd = out.pop()
            out.append((ps * s, pd))
        else:
            out.append((s, d))
    return out


def offsets(
    layout: Any, indices: Any = None, *, max_elements: int | None = None,
    keep: Callable[[Any, Callable[[Any], Any]], Any] | None = None,
) -> np.ndarray:
    """``layout(i)`` as an int64 array, for ``i`` in ``range(size)`` or in ``indices``.

    ``layout`` is a :class:`~cutepy.core.layout.Layout` or a composed layout
    ``outer o offset o inner`` (outer a swizzle, a layout or another composed layout).

    ``keep`` is how the value keeps what it derives (:meth:`Layout.offsets` passes
    :func:`~cutepy.core.layout.derived`): the plan and tables of a large plain layout are then
    made once. Without it, nothing is kept.

    Pre:  integer shapes and strides; for the whole domain, ``size <= max_elements``
          (the argument, else the limit of :func:`limits`, default ``2**28``) and every
          offset fits in int64; ``indices`` an integer array-like of non-negative values.
    Post: ``result[k] == layout(k)`` (or ``layout(indices[k])``); nothing is allocated
          when a precondition fails (a :class:`CutepyError` says which).

    >>> from cutepy import Layout
    >>> offsets(Layout((2, 3), (1, 4)))
    array([0, 1, 4, 5, 8, 9])
    """
    if (impl := getattr(layout, "_offsets", None)) is not None:  # composed: see composed_offsets
        return impl(indices, max_elements=max_elements)
    if indices is not None:
        return _offsets_at(layout, indices)
    limit = _max_elements_in_force() if max_elements is None else max_elements
    _check_limit(limit)
    if keep is None:
        fs, fd = _flat_int_modes(layout)
        return _fill(layout, fs, fd, limit, 0, None)
    fs, fd, n, lo, hi = keep(layout, _plan)
    if _KEEP_MIN <= n <= min(limit, _KEEP_MAX) and -_INT64_MAX <= lo and hi <= _INT64_MAX:
        # a layout asked again finds the tables of its one 2-D add made (at most 64 KiB)
        tables = keep(layout, _kept_tables)
        if tables is not None:
            return _add_tables(*tables, n)
    return _fill(layout, fs, fd, limit, 0, None)


def _is_swizzle(f: Any) -> bool:
    return isinstance(f, Swizzle)


def composed_offsets(layout: Any, outer: Any, off: Any, inner: Any, indices: Any = None,
                     max_elements: int | None = None) -> np.ndarray:
    """``outer(off + inner(i))`` for every index of ``inner``'s domain (or for ``indices``), int64.

    The evaluation of a composed layout ``layout = outer o off o inner`` (its ``offsets`` method
    calls this with its parts): a swizzle over a Layout is filled block by block with the XOR
    applied in place; other outer functions are evaluated at the inner offsets.

    Pre:  ``off`` an integer; as :func:`offsets` for ``inner`` and ``outer``.
    Post: ``result[k] == layout(k)`` (or ``layout(indices[k])``), nothing allocated on failure.

    >>> from cutepy import Layout, Swizzle, make_composed_layout
    >>> C = make_composed_layout(Swizzle(1, 0, 1), 0, Layout(4))
    >>> composed_offsets(C, C.outer, C.offset, C.inner)
    array([0, 1, 3, 2])
    """
    if not isinstance(off, int) or isinstance(off, bool):  # a pointer flag is C++'s Int<0>
        raise CutepyError(f"the offset of {layout} must be an integer, got {off!r}")
    if _is_swizzle(outer) and max(outer.yyy_mask, outer.zzz_mask) > _INT64_MAX:
        raise CutepyError(f"{layout}: swizzled offsets go beyond int64; no array is made")
    if indices is None:
        limit = _max_elements_in_force() if max_elements is None else max_elements
        _check_limit(limit)
        if _is_swizzle(outer) and getattr(inner, "_offsets", None) is None:  # a swizzle over a Layout
            fs, fd = _flat_int_modes(inner)
            return _fill(layout, fs, fd, limit, off, outer)
        vals = offsets(inner, max_elements=limit)
    else:
        vals = offsets(inner, indices)
    if off:
        if vals.size and (int(vals.max()) + off > _INT64_MAX or int(vals.min()) + off < -_INT64_MAX):
            raise CutepyError(f"offsets of {layout} go beyond int64; no array is made")
        vals += off
    if _is_swizzle(outer):
        scratch = np.empty(min(vals.size, _BLOCK), np.int64)
        for start in range(0, vals.size, _BLOCK):  # in place, one cache-sized block at a time
            _swizzle_in_place(vals[start:start + _BLOCK], outer, scratch)
        return vals
    return offsets(outer, vals)


def _bounds(fs: tuple, fd: tuple, base: int) -> tuple[int, int]:
    lo = base + sum((s - 1) * d for s, d in zip(fs, fd) if d < 0)
    hi = base + sum((s - 1) * d for s, d in zip(fs, fd) if d > 0)
    return lo, hi


def _swizzle_in_place(v: np.ndarray, sw: Any, scratch: np.ndarray) -> None:
    """``v ^= (v & yyy) >> S`` (or ``<< -S``) through a scratch block, no temporaries."""
    s = scratch[: v.size]
    np.bitwise_and(v, sw.yyy_mask, out=s)
    if sw.shift >= 0:
        np.right_shift(s, sw.shift, out=s)
    else:
        np.left_shift(s, -sw.shift, out=s)
    np.bitwise_xor(v, s, out=v)


def _fill(
    layout: Any, fs: tuple, fd: tuple, limit: int, base: int, swizzle: Any
) -> np.ndarray:
    """The whole domain of the flat modes ``fs:fd`` plus ``base``, swizzled if given."""
    n = it.product(fs)
    if n > limit:
        raise CutepyError(
            f"whole-domain offsets of {it.short_repr(layout)} need {show_int(n)} elements, above the limit "
            f"of {limit}; "
            "raise it with cutepy.limits(max_elements=...) or offsets(..., max_elements=...)"
        )
    lo, hi = _bounds(fs, fd, base)
    if hi > _INT64_MAX or lo < -_INT64_MAX:
        raise CutepyError(
            f"offsets of {it.short_repr(layout)} reach {show_int(hi if hi > _INT64_MAX else lo)}, "
            "beyond int64; no array is made"
        )
    modes = _modes(fs, fd)
    if swizzle is None and (not modes or (len(modes) == 1 and modes[0][1] == 0)):
        return np.full(n, base, dtype=np.int64)
    if swizzle is None and (out := _broadcast_fill(modes, base, n)) is not None:
        return out
    if len(modes) == 1 and swizzle is None:
        s, d = modes[0]
        # integer arithmetic, not np.arange(start, stop, step): its length is computed in float64
        # and comes out short once |d| reaches 2**53
        out = np.arange(s, dtype=np.int64)
        out *= d
        out += base
        return out
    out = np.empty(n, dtype=np.int64)
    # the block: the first j modes, then L rows of mode j
    m, j = 1, 0
    while j < len(modes) and m * modes[j][0] <= _BLOCK:
        m *= modes[j][0]
        j += 1
    if j == len(modes):
        _table(out, modes, base)
        if swizzle is not None:
            _swizzle_in_place(out, swizzle, np.empty(n, np.int64))
        return out
    sj, dj = modes[j]
    rows = _BLOCK // m
    if swizzle is not None:
        # rows a multiple of P / gcd(dj, P): then the row offsets c*dj of the blocks are
        # multiples of the swizzle's period P and add no residues (see below)
        period = 1 << (swizzle.yyy_mask | swizzle.zzz_mask).bit_length()
        q = period // math.gcd(dj, period)
        if q <= rows:
            rows -= rows % q
    block = np.empty(m * rows, dtype=np.int64)
    _table(block, modes[:j] + [(rows, dj)], 0)
    outer = modes[j + 1 :]
    span = m * sj
    starts = [(c, min(rows, sj - c) * m) for c in range(0, sj, rows)]
    if swizzle is None:
        for o_idx, o_off in enumerate(_small_offsets(outer)):
            first = o_idx * span
            for c, k in starts:
                np.add(block[:k], base + o_off + c * dj, out=out[first + c * m : first + c * m + k])
        return out
    # Sw(x + h) == Sw(x) + h when h is a multiple of P = 2^(highest swizzle bit + 1): the
    # swizzle reads and writes only bits below P. Three ways, cheapest first:
    #  1. few residues c % P among the block constants c: one swizzled block per residue,
    #     then every block is that block plus one integer;
    #  2. the first j modes have strides that are multiples of P: a block is their table A
    #     plus the swizzle of the few row offsets, one broadcast add;
    #  3. else add, then swizzle the block in place through a scratch block.
    period = 1 << (swizzle.yyy_mask | swizzle.zzz_mask).bit_length()
    plan = [
        (o_idx * span + c * m, k, base + o_off + c * dj)
        for o_idx, o_off in enumerate(_small_offsets(outer))
        for c, k in starts
    ]
    residues = {const % period for _, _, const in plan}
    if len(residues) <= _CACHED_BLOCKS:
        scratch = np.empty(m * rows, dtype=np.int64)
        cache = {}
        for r in residues:
            cache[r] = block + r
            _swizzle_in_place(cache[r], swizzle, scratch)
        for first, k, const in plan:
            r = const % period
            np.add(cache[r][:k], const - r, out=out[first : first + k])
        return out
    if m >= 64 and all(d % period == 0 for _, d in modes[:j]):
        table = np.empty(m, dtype=np.int64)
        _table(table, modes[:j], 0)
        row_offsets = np.arange(rows, dtype=np.int64) * dj
        low = np.empty(rows, dtype=np.int64)
        scratch = np.empty(rows, dtype=np.int64)
        for first, k, const in plan:
            np.add(row_offsets, const, out=low)
            _swizzle_in_place(low, swizzle, scratch)
            r = k // m
            np.add(low[:r, None], table[None, :], out=out[first : first + k].reshape(r, m))
        return out
    scratch = np.empty(m * rows, dtype=np.int64)
    for first, k, const in plan:
        dst = out[first : first + k]
        np.add(block[:k], const, out=dst)
        _swizzle_in_place(dst, swizzle, scratch)
    return out


def _broadcast_fill(modes: list[tuple[int, int]], base: int, n: int) -> np.ndarray | None:
    """The whole domain as one 2-D add, ``out[b + B*r] = T[b] + R[r]`` (:func:`_split_tables`):
    one pass that writes ``out`` once, as a fill does. ``None`` when the modes give no such split."""
    tables = _split_tables(modes, base, n)
    return None if tables is None else _add_tables(*tables, n)


def _add_tables(T: np.ndarray, R: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(n, dtype=np.int64)
    np.add(T[None, :], R[:, None], out=out.reshape(-1, T.size))
    return out


def _split_tables(modes: list[tuple[int, int]], base: int, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(T, R)``: ``T`` the table of the first modes (and ``rows`` of the next, ``rows`` dividing
    it), ``B = T.size`` elements that stay in the L1/L2 cache; ``R`` the offsets of the rest.
    ``None`` when the modes give no such split with rows of at least ``_MIN_ROW`` elements."""
    m, j = 1, 0
    while j < len(modes) and m * modes[j][0] <= _ROW:
        m *= modes[j][0]
        j += 1
    if j == len(modes):
        return None
    sj, dj = modes[j]
    rows = math.gcd(sj, _ROW // m)
    B = m * rows
    if B < _MIN_ROW:
        return None
    T = np.empty(B, dtype=np.int64)
    _table(T, modes[:j] + [(rows, dj)], 0)
    R = np.empty(n // B, dtype=np.int64)
    rest = ([(sj // rows, rows * dj)] if sj > rows else []) + modes[j + 1 :]  # rows*dj used only then
    _table(R, rest, base)
    return T, R


def _plan(layout: Any) -> tuple:
    """``(fs, fd, n, lo, hi)`` of a plain layout: its flat integer modes, its size and the least and
    greatest offset (kept on the value by :func:`offsets`'s ``keep``)."""
    fs, fd = _flat_int_modes(layout)
    return (fs, fd, it.product(fs), *_bounds(fs, fd, 0))


def _kept_tables(layout: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_split_tables` of a plain layout, read-only (kept on the value by :func:`offsets`'s
    ``keep``: asked once the size and the offsets passed their checks, for ``_KEEP_MIN <= size
    <= _KEEP_MAX``)."""
    fs, fd, n, _, _ = _plan(layout)
    tables = _split_tables(_modes(fs, fd), 0, n)
    if tables is None or tables[1].size > _ROW:
        return None  # (R longer than T: not kept, the value keeps at most 2 * _ROW offsets)
    for t in tables:
        t.flags.writeable = False
    return tables


def _table(out: np.ndarray, modes: list[tuple[int, int]], base: int) -> None:
    """Fill ``out`` (of size ``prod(s)``) by doubling: each step copies the block so far once per
    offset of the next modes, taken together while they hold at most ``_GROUP`` offsets (one numpy
    call a step, not one a mode: a layout of many size-2 modes takes a few steps)."""
    out[0] = base  # (no modes: the one offset)
    m, i = 1, 0
    while i < len(modes):
        s, d = modes[i]
        i += 1
        if s <= _GROUP:  # the next modes as one: their offsets, as Python ints
            group = [(s, d)]
            while i < len(modes) and s * modes[i][0] <= _GROUP:
                s *= modes[i][0]
                group.append(modes[i])
                i += 1
            # int64 modulo 2^64: a group's offsets alone may pass int64 where, added to the rest,
            # every offset is inside it (checked before): numpy's int64 adds wrap the same way
            step = np.array([(v + _TWO63) % _TWO64 - _TWO63 for v in _small_offsets(group)], dtype=np.int64)
        else:
            step = np.arange(s, dtype=np.int64)
            step *= d
        if m == 1:  # the first step: one pass
            np.add(step, base, out=out[:s])
        else:
            np.add(out[:m][None, :], step[1:, None], out=out[m : m * s].reshape(s - 1, m))
        m *= s


def _small_offsets(modes: list[tuple[int, int]]) -> list[int]:
    """Offsets of the outer modes (at most ``n / _BLOCK`` of them) as Python ints."""
    vals = [0]
    for s, d in modes:
        vals = [v + c * d for c in range(s) for v in vals]
    return vals


def _offsets_at(layout: Any, indices: Any) -> np.ndarray:
    try:
        idx = np.asarray(indices)
    except (OverflowError, ValueError, TypeError) as e:
        raise CutepyError(f"indices must be an array of int64 integers: {e}") from None
    if idx.dtype.kind not in "iu":
        raise CutepyError(
            f"indices must be integers that fit in int64, got dtype {idx.dtype}"
            + (" (a value beyond int64?)" if idx.dtype.kind == "O" else "")
        )
    if idx.dtype.kind == "u" and idx.size and int(idx.max()) > _INT64_MAX:
        raise CutepyError(f"index {int(idx.max())} is beyond int64")
    idx = idx.astype(np.int64, copy=False)
    fs, fd = _flat_int_modes(layout)
    if idx.size and fs:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < 0:
            raise CutepyError(f"index {lo} is negative")
        last_crd = hi // it.product(fs[:-1])
        reach = _reach(fs[:-1], fd[:-1]) + last_crd * abs(fd[-1])
        if reach > _INT64_MAX:
            raise CutepyError(f"offsets of {layout} at index {hi} reach {reach}, beyond int64")
    result = np.zeros(idx.shape, dtype=np.int64)
    rem = idx.copy()
    last = len(fs) - 1
    for k, (s, d) in enumerate(zip(fs, fd)):
        if k == last:
            c = rem
        else:
            c = rem % s
            rem //= s
        if d:
            result += c * d
    return result
