"""Values derived from an immutable kernel-design value, made once and kept on it.

A TiledMMA or TiledCopy is a frozen value; what it derives from a layout (its thread-value
fragments of a tensor's layout, its thread layout, its thread indices) never changes, and a
design sweep asks for it once per thread. :func:`derived` keeps such values in a small table
on the value itself (no global state; the table goes with the value), bounded by
:data:`LIMIT` entries. A key is used only when it is *exact*: plain ``int`` leaves (a
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

from ..algebra.swizzle import ComposedLayout, SmemPtrFlag, Swizzle
from ..core.layout import Layout

#: entries kept per value (the table is emptied when full: a sweep's working set is small)
LIMIT = 64


def exact_key(x: Any) -> bool:
    """Whether equality of ``x`` means identity of every result made from it: ``x`` is built of
    plain ``int`` leaves (``None`` wildcards allowed), layouts of them, swizzles and composed
    layouts of them (offset an ``int`` or a pointer flag)."""
    t = type(x)
    if t is int or x is None:
        return True
    if t is tuple:
        return all(exact_key(y) for y in x)
    if t is Layout:
        return exact_key(x.shape) and exact_key(x.stride)
    if t is Swizzle:
        return True
    if t is ComposedLayout:
        exact_offset = type(x.offset) is int or type(x.offset) is SmemPtrFlag
        return exact_offset and exact_key(x.outer) and exact_key(x.inner)
    return False


def derived(owner: Any, key: tuple, make: Callable[[], Any]) -> Any:
    """``make()``, kept on ``owner`` under ``key`` while the table has room.

    Pre:  ``owner`` is an immutable value with a ``__dict__`` (a frozen dataclass) whose fields
          determine ``make()`` together with ``key``; ``key`` is hashable; callers pass only
          keys that :func:`exact_key` accepts (else they call ``make()`` themselves).
    Post: the result equals ``make()``; an exception from ``make()`` propagates, nothing kept.
    """
    table = owner.__dict__.get("_derived")
    if table is None:
        table = {}
        object.__setattr__(owner, "_derived", table)  # a cache of values derived from the fields
    else:
        hit = table.get(key, table)
        if hit is not table:
            return hit
    value = make()
    if len(table) >= LIMIT:
        table.clear()
    table[key] = value
    return value
