"""Values derived from an immutable kernel-design value, made once and kept on it.

A TiledMMA or TiledCopy is a frozen value; what it derives from a layout (its thread-value
fragments of a tensor's layout, its thread layout, its thread indices) never changes, and a
design sweep asks for it once per thread. :func:`derived` and :func:`derived_of` keep such
values in a small table on the value itself (no global state; the table goes with the
value), bounded by :data:`LIMIT` entries; :func:`sliced` keeps each thread's slice of a kept
fragment, bounded by :data:`SLICE_LIMIT`. A key is used only when it is *exact*: plain ``int`` leaves (a
:func:`cutepy.dynamic` integer equals the ``int`` of its value but prints otherwise, and a
symbolic one may be equal only under some facts), so a kept value is always the one the
computation would make; anything else is computed each time. An error is never kept: a
failing computation raises again on the next call.

>>> from cutepy.core.layout import Layout
>>> from cutepy.core.dynamic import dynamic
>>> exact_key(Layout((4, 8), (8, 1))), exact_key(Layout((4, dynamic(8)))), exact_key((2, (3, None)))
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..algebra.composed import composed_parts
from ..core.basis import ScaledBasis
from ..core.dynamic import DynamicInt
from ..core.layout import Layout, slice_and_offset
from ..core.swizzle import SmemPtrFlag, Swizzle

#: entries kept per value (the table is emptied when full: a sweep's working set is a few hundred layouts)
LIMIT = 4096
#: per-thread slices kept per value (a few layouts' worth of threads: MAX_THREADS is 4096)
SLICE_LIMIT = 1 << 14


def exact_key(x: Any) -> bool:
    """Whether equality of ``x`` means identity of every result made from it: ``x`` is built of
    plain ``int`` leaves (``None`` wildcards allowed) and basis elements of them, layouts of
    them, swizzles and composed layouts of them (offset an ``int`` or a pointer flag)."""
    t = type(x)
    if t is int or x is None:
        return True
    if t is tuple:
        return all(exact_key(y) for y in x)
    if t is Layout:
        return exact_key(x.shape) and exact_key(x.stride)
    if t is Swizzle:
        return True
    if t is ScaledBasis:  # a coordinate tensor's stride: value @ mode, the mode a path of ints
        return type(x.value) is int
    if (parts := composed_parts(x)) is None:
        return False
    outer, offset, inner = parts
    return (type(offset) is int or type(offset) is SmemPtrFlag) and exact_key(outer) and exact_key(inner)


def _table(owner: Any, room: int) -> dict:
    """The table on ``owner``, emptied first when it has no ``room`` entries left."""
    table = owner.__dict__.get("_derived")
    if table is None or len(table) + room > LIMIT:
        table = {}
        object.__setattr__(owner, "_derived", table)  # a cache of values derived from the fields
    return table


def derived(owner: Any, key: tuple, make: Callable[[], Any]) -> Any:
    """``make()``, kept on ``owner`` under ``key`` while the table has room.

    Pre:  ``owner`` is an immutable value with a ``__dict__`` (a frozen dataclass) whose fields
          determine ``make()`` together with ``key``; ``key`` is hashable and exact (plain ints,
          strings: see :func:`derived_of` for a layout argument).
    Post: the result equals ``make()``; an exception from ``make()`` propagates, nothing kept.
    """
    table = _table(owner, 1)
    hit = table.get(key, table)
    if hit is not table:
        return hit
    value = table[key] = make()
    return value


def derived_of(owner: Any, tag: str, x: Any, make: Callable[[], Any]) -> Any:
    """``make()``, a value derived from ``owner`` and the argument ``x`` (a layout), kept on
    ``owner`` when ``x`` is exact (:func:`exact_key`), else made each time.

    The same object ``x`` again (a sweep passes one tensor's layout for every thread) is found
    by identity, without walking it; an equal exact ``x`` by value.

    Pre:  as :func:`derived`; ``make()`` depends only on ``owner``'s fields, ``tag`` and ``x``.
    Post: the result equals ``make()``; an exception from ``make()`` propagates, nothing kept.

    >>> from dataclasses import dataclass
    >>> from cutepy.core.layout import Layout
    >>> @dataclass(frozen=True)
    ... class Owner:
    ...     n: int
    >>> o, L, made = Owner(1), Layout((4, 8)), []
    >>> [derived_of(o, "size", L, lambda: made.append(1) or L.size()) for _ in range(3)], len(made)
    ([32, 32, 32], 1)
    """
    table = _table(owner, 2)
    by_id = table.get((tag, id(x)))
    if by_id is not None and by_id[0] is x:  # x itself is kept in the entry: its id is not reused
        return by_id[1]
    if not exact_key(x):
        return make()
    value = table.get((tag, x), table)
    if value is table:
        value = table[(tag, x)] = make()
    table[(tag, id(x))] = (x, value)
    return value


def typed_key(crd: Any) -> Any:
    """A key for a coordinate that tells a run-time integer from the plain ``int`` it equals:
    ``dynamic(5)`` becomes ``("dynamic", 5)`` (a coordinate never holds a string, so no leaf or
    nesting reads the same); ``None`` for a coordinate with any other leaf (a symbol).

    >>> from cutepy.core.dynamic import dynamic
    >>> typed_key((5, (None, dynamic(5)))), typed_key((5, object()))
    ((5, (None, ('dynamic', 5))), None)
    """
    t = type(crd)
    if t is int or crd is None:
        return crd
    if t is DynamicInt:
        return ("dynamic", int(crd))
    if t is tuple:
        out = []
        for x in crd:
            k = typed_key(x)
            if k is None and x is not None:
                return None
            out.append(k)
        return tuple(out)
    return None


def sliced(owner: Any, frg: Any, crd: tuple) -> tuple[Any, Any]:
    """``slice_and_offset(crd, frg)`` for one thread's coordinate ``crd`` into a fragment layout
    ``owner`` derived (:func:`derived_of`), kept on ``owner`` when ``frg`` is exact and ``crd``
    has a :func:`typed_key` (plain and run-time integers, wildcards): a sweep that partitions the
    same tensor again (another design sharing the TiledMMA and the smem layout) finds every
    thread's slice made; a run-time thread index (a kernel's ``threadIdx.x``) and a static one
    are kept apart, their partitions differ in form.

    Pre:  ``frg`` a layout ``owner`` keeps (the same object for the same argument), ``crd`` a
          coordinate of integers and ``None`` wildcards.
    Post: ``slice_and_offset(crd, frg)``; its errors propagate, nothing kept.
    """
    table = owner.__dict__.get("_slices")
    if table is None or len(table) + 2 > SLICE_LIMIT:
        table = {}
        object.__setattr__(owner, "_slices", table)  # a cache of values derived from the fields
    known = table.get(("frg", id(frg)))
    if known is None or known[0] is not frg:  # whether frg is exact: walked once per fragment
        known = table[("frg", id(frg))] = (frg, exact_key(frg))
    ck = typed_key(crd) if known[1] else None
    if ck is None:
        return slice_and_offset(crd, frg)
    key = (id(frg), ck)  # frg itself is kept under ("frg", id(frg)): its id is not reused
    hit = table.get(key)
    if hit is None:
        hit = table[key] = slice_and_offset(crd, frg)
    return hit
