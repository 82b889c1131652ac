"""``complement(A, cotarget)``: the layout that fills the gaps of A's image up to ``cotarget``.

The result has sorted strides and an image disjoint from A's (except offset 0). When
A's sorted strides tile (each a multiple of the extent of the modes below it),
``(A, complement(A, M))`` is a bijection onto ``[0, M')`` with ``M' >= M``. Otherwise,
as in C++, each gap is rounded down and the result is disjoint but does not cover.

>>> from cutepy import Layout
>>> complement(Layout(4, 2), 24)
(2,3):(1,8)
>>> complement(Layout((2, 2), (1, 6)), 24)
(3,2):(2,12)
>>> complement(Layout(4, 0), 8)
8:1
"""

from __future__ import annotations

from typing import Any

from ..core import inttuple as it
from ..core.basis import ScaledBasis
from ..core.dynamic import DynamicInt, has_dynamic
from ..core.errors import AdmissibilityError, CutepyError
from ..core.events import Event, Mode, paren
from ..core.kinds import COMPLEMENT
from ..core.layout import Layout, derived, layout_arg, seeded
from ..core.tracing import recorder
from ..core.tuples import as_int
from .coalesce import coalesce_flat, coalesce_shape, coalesce_static, filter_flat_dyn, modes_layout
from .composition import coalesce_x

# -- the steps explain() shows: the decisions this algorithm reports, and their words --------
# (an event without words is worded by its explainer in cutepy.derivation, which knows the
# derivation around it)


class Filtered(Event):
    """``filter(A)``'s flat modes, the modes whose gaps the complement fills."""

    shape: tuple
    stride: tuple

    def words(self, tex: Any) -> tuple:
        F = modes_layout(list(zip(self.shape, self.stride)))
        return f"filter(A) = {F} (drop stride-0 and size-1 modes, coalesce)", "", F


class Cotarget(Event):
    """No cotarget was given: it is ``cosize(filter(A))``."""

    cotarget: Any

    def words(self, tex: Any) -> str:
        return f"cotarget = cosize(filter(A)) = {self.cotarget}"


class OnlyZero(Event):
    """A reaches only offset 0: the complement is all of ``[0, size)``."""

    size: Any

    def words(self, tex: Any) -> str:
        return f"A reaches only offset 0: the complement is all of [0, {self.size})"


class Sorted(Event):
    """The filtered modes in the order of their strides."""

    modes: tuple

    def words(self, tex: Any) -> str:
        return "sorted by stride: " + ", ".join(f"{s}:{d}" for s, d in self.modes)


class Gap(Event):
    """Below ``mode``'s stride, the modes so far reach ``below``: ``gap`` copies at stride ``below``.

    ``covers`` is where the modes reach once ``mode`` is added.
    """

    mode: Mode
    below: Any
    gap: Any
    covers: Any

    def words(self, tex: Any) -> tuple:
        (s, d), cur = self.mode, self.below
        return (f"gap below stride {d}: {paren(d)}/{paren(cur)} = {self.gap} at stride {cur}; {s}:{d} then "
                f"covers up to {self.covers}",
                rf"\text{{gap: }} {tex(d)}/{tex(cur)} = {tex(self.gap)} \text{{ at stride }} {tex(cur)}")


class CotargetRest(Event):
    """The last mode: ``rest = ceil(cotarget / below)`` copies at stride ``below``."""

    cotarget: Any
    below: Any
    rest: Any

    def words(self, tex: Any) -> tuple:
        cotarget = paren(it.format_tiler(self.cotarget))
        return (f"rest up to the cotarget: ceil({cotarget}/{paren(self.below)}) = {self.rest} at stride "
                f"{self.below}",
                rf"\lceil {tex(self.cotarget)} / {tex(self.below)} \rceil = {tex(self.rest)}")


def complement(A: Layout, cotarget: Any = None) -> Layout:
    """The layout that fills the offsets ``A`` leaves out, up to ``cotarget`` (C++ ``complement``).

    ``cotarget`` is an int or a shape, default ``cosize(filter(A))``.

    Pre:  strides of ``filter(A)`` are integers (else ``CutepyError``), non-negative and, sorted,
          each at least the extent of the modes below it (else ``AdmissibilityError``);
          ``cotarget`` is positive.
    Post: the result is strictly increasing; ``result(i)`` for ``i >= 1`` is no value of ``A``;
          ``cosize(make_layout(A, result)) >= size(cotarget)``.

    >>> complement(Layout(4, 2), 24)
    (2,3):(1,8)
    """
    rec = recorder()
    if rec and rec.opens(complement):
        return rec.framed(complement, A, cotarget)
    if cotarget is not None and (type(cotarget) is not int or cotarget < 1):
        cotarget = _check_cotarget(A, cotarget)  # a positive int is returned as it is
    if type(A) is not Layout and (impl := COMPLEMENT.of(A)) is not None:
        return impl(A, cotarget)
    if type(A) is not Layout:
        A = layout_arg(A, "complement")
    if A._shape == ():
        raise CutepyError("complement of the empty layout ():() is undefined (C++ builds no layout for it)")
    if rec is None and type(cotarget) is int and (sd := static_complement(A, cotarget)) is not None:
        s, d = sd  # the common case: the steps below, in short
        # the result is coalesced, so coalesce_x keeps it (but 1:0, whose 1 counts as 2)
        if type(s) is tuple:
            return seeded(Layout._grown(s, d), coalesce_x, (s, d))
        return seeded(Layout._grown(s, d), coalesce_x, ((s,), (d,))) if s != 1 else Layout._grown(s, d)
    fs, fd, dyn = derived(A, filter_flat_dyn)
    if type(fs) is not tuple:
        fs, fd = (fs,), (fd,)
    if not dyn and cotarget is not None and type(cotarget) is not int:
        dyn = has_dynamic(it.flatten_tuple(cotarget))
    if rec:
        rec.emit(Filtered(fs, fd))
    if cotarget is None:
        cotarget = 1
        for s, d in zip(fs, fd):
            cotarget = cotarget + (s - 1) * abs(d)
        if rec:
            rec.emit(Cotarget(cotarget))
    gaps = derived(A, _kept_gaps) if rec is None else _gaps(A, fs, fd, rec)
    if gaps is None:
        n = coalesce_shape(cotarget)  # C++: make_layout(coalesce(cotarget))
        if rec:
            rec.emit(OnlyZero(n))
        return Layout._grown(n, it.compact_major(n)) if n != 1 or type(n) is not int else Layout._grown(1, 0)
    shapes, strides, cur = list(gaps[0]), list(gaps[1]), gaps[2]
    rest = it.ceil_div_tuple(cotarget, cur)
    rest = coalesce_shape(rest) if dyn else it.product(rest)  # one integer unless a leaf is dynamic
    if rec:
        rec.emit(CotargetRest(cotarget, cur, rest))
    if type(rest) is tuple:  # C++'s compact_major(rest_shape, new_stride)
        shapes.extend(rest)
        strides.extend(it.compact_major(rest, "left", cur))
    else:
        shapes.append(rest)
        strides.append(cur)
    s, d = (coalesce_flat if dyn else coalesce_static)(shapes, strides)
    return Layout._grown(s, d)


def _gaps(A: Layout, fs: tuple, fd: tuple, rec: Any) -> tuple[tuple, tuple, Any] | None:
    """The gaps below A's filtered modes (``fs``, ``fd``), sorted by stride: ``(shapes, strides,
    cur)`` with ``cur`` the extent the modes reach; None where A reaches only offset 0. Checks
    the strides (``CutepyError``/``AdmissibilityError``); ``rec`` hears the steps."""
    for d in fd:
        if isinstance(d, ScaledBasis):
            raise CutepyError(f"complement of {A}: stride {d} is not an integer")
        if d < 0:
            raise AdmissibilityError(
                f"complement of {A} is undefined: stride {d} is negative"
            )
    if fd == (0,):
        return None
    order = sorted(range(len(fs)), key=fd.__getitem__) if len(fs) > 1 else (0,)
    if rec:
        rec.emit(Sorted(tuple((fs[k], fd[k]) for k in order)))
    shapes: list = []
    strides: list = []
    cur = 1
    for k in order:
        s, d = fs[k], fd[k]
        if d < cur:
            raise AdmissibilityError(
                f"complement of {A} is undefined: mode {s}:{d} starts inside the extent {cur} "
                "of the modes of smaller stride (modes interleave or overlap; C++ rejects this "
                "as non-injective)"
            )
        shapes.append(d // cur)
        strides.append(cur)
        cur = d * s
        if rec:
            rec.emit(Gap((s, d), strides[-1], shapes[-1], cur))
    return tuple(shapes), tuple(strides), cur


def _kept_gaps(A: Layout) -> tuple[tuple, tuple, Any] | None:
    """:func:`_gaps` of A with no one listening: a form of A alone, kept on the value."""
    fs, fd, _ = derived(A, filter_flat_dyn)
    if type(fs) is not tuple:
        fs, fd = (fs,), (fd,)
    return _gaps(A, fs, fd, None)


def static_complement(A: Layout, cotarget: int) -> tuple[Any, Any] | None:
    """``complement(A, cotarget)``'s coalesced ``(shape, stride)`` read from A's kept gaps, in
    the common case (no run-time leaf, no recorder); ``None`` otherwise (the steps then run).

    Pre:  ``A`` a non-empty Layout; ``cotarget`` a positive int; no recorder listens.
    Post: ``Layout(*result) == complement(A, cotarget)`` where not ``None`` (the 64-bit rule is
          the caller's to check).

    >>> static_complement(Layout(4, 2), 24)
    ((2, 3), (1, 8))
    """
    gaps = derived(A, _static_gaps)
    if not gaps or type(gaps[2]) is not int:
        return None
    cur = gaps[2]
    rest = -(-cotarget // cur)
    if not gaps[0]:  # a compact A: no gap below it, the one mode rest:cur (coalesced: 1:0 for a 1)
        return (rest, cur) if rest != 1 else (1, 0)
    return coalesce_static(gaps[0] + (rest,), gaps[1] + (cur,))


def _static_gaps(A: Layout) -> tuple[tuple, tuple, Any] | None | bool:
    """:func:`_kept_gaps` of A when no leaf is a run-time integer, else ``False``: the one form
    the common case of :func:`complement` reads (kept on the value)."""
    fs, fd, dyn = filter_flat_dyn(A)
    if dyn:
        return False
    if type(fs) is not tuple:
        fs, fd = (fs,), (fd,)
    return _gaps(A, fs, fd, None)


def _check_cotarget(A: Any, cotarget: Any) -> Any:
    """A cotarget is a positive integer or a tuple of them (C++ builds a size-0 layout from 0);
    returned with numpy's integers as ``int``."""
    cotarget = as_int(cotarget)
    leaves = it.flatten_tuple(cotarget) if type(cotarget) is tuple else (cotarget,)
    for x in leaves:
        if type(x) is not int and type(x) is not DynamicInt and not it.is_symbolic_leaf(x):
            raise CutepyError(f"complement of {A}: the cotarget {cotarget!r} is not an integer or a shape")
        if isinstance(x, int) and x < 1:
            raise CutepyError(f"complement of {A}: the cotarget {cotarget!r} must be positive")
    return cotarget


def coshape(layout: Layout) -> Any:
    """The codomain's shape (C++'s ``coshape``): ``1 + sum((s-1)*|d|)`` over the leaves.

    For integer strides it is a single integer, ``cosize(L)``; with basis strides
    (``make_identity_layout``) one extent per basis mode.

    Pre:  ``layout`` is a Layout with integer or ``ScaledBasis`` strides.
    Post: ``size(result) == cosize(layout)``; every value ``layout(i)`` lies inside ``result``.

    >>> coshape(Layout((2, (3, 4)), (12, (1, 3))))
    24
    >>> from cutepy import make_identity_layout
    >>> coshape(make_identity_layout((4, 8)))
    (4, 8)
    """
    total: Any = 0
    for s, d in zip(it.flatten_tuple(layout.shape), it.flatten_tuple(layout.stride)):
        if isinstance(d, ScaledBasis):
            extent = d.value * (s - 1) if d.value >= 0 else -d.value * (s - 1)
            vec = [0] * (max(d.mode) + 1 if d.mode else 1)
            vec[d.mode[0] if d.mode else 0] = extent
            total = _add(total, tuple(vec))
        else:
            total = _add(total, (s - 1) * abs(d))
    return it.transform_leaf(lambda x: x + 1, total) if type(total) is tuple else total + 1


def _add(a: Any, b: Any) -> Any:
    if type(a) is not tuple and type(b) is not tuple:
        return a + b
    a = a if type(a) is tuple else (a,)
    b = b if type(b) is tuple else (b,)
    n = max(len(a), len(b))
    a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
    return tuple(x + y for x, y in zip(a, b))

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "complement", "coshape",
]
