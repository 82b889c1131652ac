"""The tuple helpers C++'s ``TiledMMA``/``TiledCopy`` use, in CuTe's exact forms: ``zip`` of a
layout's modes, ``repeat<n>(_)`` and ``rank``.

>>> from cutepy.core.layout import Layout
>>> zip_layout(Layout(((2, 3), (4, 5))))
((2,4),(3,5)):((1,6),(2,24))
"""

from __future__ import annotations

from typing import Any

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
