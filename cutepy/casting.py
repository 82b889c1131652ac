"""``upcast`` and ``downcast``: a layout re-expressed in wider or narrower elements.

>>> from cutepy import Layout
>>> upcast(Layout((4, 8), (1, 4)), 2)
(2,8):(1,2)
>>> downcast(Layout((4, 8), (1, 4)), 2)
(8,8):(1,8)
"""

from __future__ import annotations

from typing import Any

from . import inttuple as it
from .errors import AdmissibilityError
from .layout import Layout


def _up(s: Any, d: Any, n: int, L: Layout) -> tuple[Any, Any]:
    if type(s) is tuple:
        pairs = [_up(a, b, n, L) for a, b in zip(s, d)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if d == 0:
        return s, d
    ad = abs(d)
    if ad % n != 0 and n % ad != 0:
        raise AdmissibilityError(f"upcast of {L} by {n}: stride {d} and {n} do not divide one another")
    k = it.shape_div(n, ad)
    if s % k != 0 and k % s != 0:
        raise AdmissibilityError(f"upcast of {L} by {n}: shape {s} and {k} do not divide one another")
    return it.shape_div(s, k), it.shape_div(d, n)


def upcast(layout: Layout, n: int) -> Layout:
    """Layout of ``n``-element vectors: strides divided by ``n``, stride-1 modes shrunk by ``n``."""
    s, d = _up(layout.shape, layout.stride, n, layout)
    return Layout._new(s, d)


def _down(s: Any, d: Any, n: int) -> tuple[Any, Any]:
    if type(s) is tuple:
        pairs = [_down(a, b, n) for a, b in zip(s, d)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if d == 1 or d == -1:
        return s * n, d
    return s, d * n


def downcast(layout: Layout, n: int) -> Layout:
    """Layout of the ``n`` sub-elements of each element: stride-1 modes grow by ``n``."""
    s, d = _down(layout.shape, layout.stride, n)
    return Layout._new(s, d)
