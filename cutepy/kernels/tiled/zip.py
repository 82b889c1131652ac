"""The tuple helpers C++'s ``TiledMMA``/``TiledCopy`` use, in CuTe's exact forms.

C++'s ``zipped_divide`` regroups ``logical_divide(A, tiler)`` with ``zip2_by``, which
takes a mode whose tiler is ``_`` as an already split ``(tile, rest)`` pair; the
TiledMMA partitioners rely on that (``zipped_divide(tv, (_, (ThrM, ThrN)))``).

>>> from cutepy.core.layout import Layout
>>> zipped_divide_cxx(Layout(((32, 4), (4, 8))), (None, (Layout(2), Layout(2))))
((32,(2,2)),(4,(2,4))):((1,(128,512)),(32,(256,1024)))
"""

from __future__ import annotations

from typing import Any

from ...algebra.divides import logical_divide
from ...core.errors import CutepyError
from ...core.layout import Layout
from ..tensor import compact_layout


def _modes(t: Any) -> tuple:
    return t if isinstance(t, tuple) else (t,)


def zip2_by(t: Any, guide: Any) -> tuple:
    """C++ ``zip2_by``: ``((A,a),(B,b),x)`` by guide ``(G0,G1)`` -> ``((A,B),(a,b,x))``."""
    if isinstance(guide, tuple):
        modes = _modes(t)
        if len(modes) < len(guide):
            raise CutepyError(f"zip2_by: {t} has fewer modes than the tiler {guide}")
        split = [zip2_by(m, g) for m, g in zip(modes, guide)]
        return (tuple(s[0] for s in split), tuple(s[1] for s in split) + tuple(modes[len(guide) :]))
    if not isinstance(t, tuple) or len(t) != 2:
        raise CutepyError(f"zip2_by: {t} is not a (tile, rest) pair")
    return t


def tile_unzip(L: Layout, tiler: Any) -> Layout:
    """C++ ``tile_unzip``: zip2_by on the shape and the stride."""
    return Layout(zip2_by(L.shape, tiler), zip2_by(L.stride, tiler))


def as_tiler(t: Any) -> Any:
    """A tiler as C++ sees it: an int ``n`` is ``make_layout(n)`` (``1:0`` for ``n == 1``)."""
    if isinstance(t, tuple):
        return tuple(as_tiler(x) for x in t)
    if type(t) is int:
        return compact_layout(t)
    return t


def logical_divide_cxx(L: Layout, tiler: Any) -> Layout:
    """C++ ``logical_divide`` with C++'s reading of integer tilers."""
    return logical_divide(L, as_tiler(tiler))


def zipped_divide_cxx(L: Layout, tiler: Any) -> Layout:
    """C++ ``zipped_divide`` (a ``None`` tiler mode keeps the mode's own (tile, rest) split)."""
    tiler = as_tiler(tiler)
    if not isinstance(tiler, tuple):
        return logical_divide(L, tiler)
    return tile_unzip(logical_divide(L, tiler), tiler)


def zip_layout(L: Layout) -> Layout:
    """C++ ``zip``: ``((a0,a1),(b0,b1))`` -> ``((a0,b0),(a1,b1))``."""
    s, d = L.shape, L.stride
    return Layout(tuple(zip(*s)), tuple(zip(*d)))


def repeat_wild(n: int) -> Any:
    """C++ ``repeat<n>(_)``: ``_`` for one mode, else a tuple of ``_``."""
    return None if n == 1 else (None,) * n


def rank_of(t: Any) -> int:
    return len(t) if isinstance(t, tuple) else 1
