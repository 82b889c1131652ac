"""The tuple helpers C++'s ``TiledMMA``/``TiledCopy`` use, in CuTe's exact forms: ``zip`` of a
layout's modes, ``repeat<n>(_)`` and ``rank``.

>>> from cutepy.core.layout import Layout
>>> zip_layout(Layout(((2, 3), (4, 5))))
((2,4),(3,5)):((1,6),(2,24))
"""

from __future__ import annotations

from typing import Any

from ...core.errors import CutepyError
from ...core.inttuple import short_repr
from ...core.layout import Layout


def _modes(t: Any) -> tuple:
    return t if isinstance(t, tuple) else (t,)


def zip_layout(L: Layout) -> Layout:
    """C++ ``zip``: ``((a0,a1),(b0,b1))`` -> ``((a0,b0),(a1,b1))``."""
    s, d = L.shape, L.stride
    return Layout(tuple(zip(*s)), tuple(zip(*d)))


def repeat_wild(n: int) -> Any:
    """C++ ``repeat<n>(_)``: ``_`` for one mode, else a tuple of ``_``."""
    return None if n == 1 else (None,) * n


def rank_of(t: Any) -> int:
    return len(t) if isinstance(t, tuple) else 1


def check_tiler(p: Any, what: str) -> None:
    """``p`` as a tiler of one mode of a TiledMMA/TiledCopy: ``None`` (C++'s ``_``), a positive
    integer, a plain layout, or a non-empty tuple of them (else ``CutepyError`` naming ``what``)."""
    if p is None:
        return
    if isinstance(p, tuple):
        if not p:
            raise CutepyError(f"{what}: an empty tuple is not a tiler")
        for q in p:
            if q is None:
                raise CutepyError(f"{what}: {short_repr(p)} has a _ inside a tuple; "
                                  "_ stands for a whole mode")
            check_tiler(q, what)
        return
    if isinstance(p, Layout):
        return
    if type(p) is bool or not hasattr(type(p), "__index__") or isinstance(p, (float, complex)):
        raise CutepyError(f"{what} must be None (_), a positive integer, a layout or a tuple of them, "
                          f"not {short_repr(p)}")
    try:
        n = p.__index__()
    except TypeError:  # a numpy array of several values
        raise CutepyError(f"{what} must be None (_), a positive integer, a layout or a tuple of them, "
                          f"not {short_repr(p)}") from None
    if not 1 <= n < 1 << 63:
        raise CutepyError(f"{what} is {short_repr(n)}; a tiler's size is a positive 64-bit integer")
