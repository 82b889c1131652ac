"""``coalesce`` and ``filter``: the fewest modes that keep a layout's function.

>>> from cutepy import Layout
>>> coalesce(Layout((2, (1, 6)), (1, (6, 2))))
12:1
>>> coalesce(Layout((2, (1, 6)), (1, (6, 2))), (1, 1))
(2,6):(1,2)
>>> filter(Layout((2, 3, 4), (1, 0, 2)))
8:1
"""

from __future__ import annotations

from typing import Any

from ..core import inttuple as it
from ..core.basis import ScaledBasis
from ..core.dynamic import DynamicInt, has_dynamic, is_static_int, static_eq
from ..core.errors import CutepyError
from ..core.events import Drop, Event, Flatten, Keep, KeptModes, Merge, Start
from ..core.kinds import COALESCE, FILTER
from ..core.layout import Layout, derived, layout_arg
from ..core.tracing import recorder


def modes_layout(modes: list) -> Layout:
    """``[(s, d), ...]`` as a layout: one mode is a scalar layout, none is ``1:0``.

    >>> modes_layout([(4, 2)]), modes_layout([(2, 1), (3, 2)]), modes_layout([])
    (4:2, (2,3):(1,2), 1:0)
    """
    if not modes:
        return Layout._new(1, 0)
    if len(modes) == 1:
        return Layout._new(*modes[0])
    return Layout._new(tuple(s for s, _ in modes), tuple(d for _, d in modes))


# -- the steps explain() shows: the decisions this algorithm reports, and their words --------
# (an event without words is worded by its explainer in cutepy.derivation, which knows the
# derivation around it)


class ProfileMode(Event):
    """Mode ``i`` (``layout``) coalesced by its ``profile`` gives ``result``."""

    i: int
    layout: Any
    profile: Any
    result: Any


class Filter(Event):
    """``filter`` keeps the modes with non-zero stride (``dropped`` of them had stride 0)."""

    shape: tuple
    stride: tuple
    dropped: int

    def words(self, tex: Any) -> str:
        kept = Layout._new(self.shape, self.stride)
        return f"drop the {self.dropped} stride-0 mode(s): {kept}" if self.dropped else "no stride-0 modes"


class Zeros(Event):
    """``filter`` by a profile: stride-0 modes got size 1, giving ``layout``."""

    layout: Any

    def words(self, tex: Any) -> str:
        return f"stride-0 modes get size 1: {self.layout}"


def coalesce_flat(fs: Any, fd: Any) -> tuple[Any, Any]:
    """Coalesce flat shape/stride sequences; returns ``(shape, stride)``, scalars for one mode.

    Rules, applied left to right: size-1 modes vanish; ``s0:d0 ++ s1:s0*d0`` becomes
    ``s0*s1:d0``; an all-size-1 layout becomes ``1:0``. A recorder hears ``Flatten``, then
    ``Drop``, ``Start``, ``Merge`` or ``Keep`` for each mode.
    """
    if has_dynamic(fs, fd):
        return coalesce_dynamic(fs, fd)
    return coalesce_static(fs, fd)


def coalesce_static(fs: Any, fd: Any) -> tuple[Any, Any]:
    """:func:`coalesce_flat` for leaves known to hold no run-time integer (no test for them)."""
    rec = recorder()
    if rec:
        rec.emit(Flatten(tuple(fs), tuple(fd)))
    rs: list = []
    rd: list = []
    ps = pd = None  # the mode being grown
    for s, d in zip(fs, fd):
        if s == 1:
            if rec:
                rec.emit(Drop((s, d)))
            continue
        if ps is not None:
            if ps * pd == d:
                if rec:
                    rec.emit(Merge((ps, pd), (s, d)))
                ps = ps * s
                continue
            rs.append(ps)
            rd.append(pd)
        if rec:
            rec.emit(Start((s, d)) if ps is None else Keep((ps, pd), (s, d)))
        ps, pd = s, d
    if ps is None:
        return 1, 0
    if not rs:
        return ps, pd
    rs.append(ps)
    rd.append(pd)
    return tuple(rs), tuple(rd)


def coalesce_dynamic(fs: Any, fd: Any) -> tuple[Any, Any]:
    """C++'s ``bw_coalesce`` with run-time integers, from the last mode to the first: a static
    ``1`` is dropped (a dynamic one is kept), and a mode merges into the one after it only when
    that one's shape is static and ``s * d`` statically equals its stride."""
    fs, fd = list(fs), list(fd)
    rec = recorder()
    if rec:
        rec.emit(Flatten(tuple(fs), tuple(fd)))
    if not fs:
        return 1, 0
    ns, nd = [fs[-1]], [fd[-1]]  # the result's modes, front first
    if rec:  # explain(): C++'s steps, from the last mode to the first
        rec.emit(Drop((ns[0], nd[0])) if static_eq(ns[0], 1) else Start((ns[0], nd[0])))
    single = True  # the result is still one integer (C++'s NewShape not yet a tuple)
    for s, d in zip(reversed(fs[:-1]), reversed(fd[:-1])):
        if static_eq(s, 1):
            if rec:
                rec.emit(Drop((s, d)))
            continue
        if single and static_eq(ns[0], 1):
            if rec:
                rec.emit(Start((s, d)))
            ns[0], nd[0] = s, d
        elif is_static_int(ns[0]) and static_eq(s * d, nd[0]):
            if rec:
                rec.emit(Merge((s, d), (ns[0], nd[0])))
            ns[0], nd[0] = s * ns[0], d
        else:
            if rec:
                rec.emit(Keep((s, d), (ns[0], nd[0])))
            ns.insert(0, s)
            nd.insert(0, d)
            single = False
    if single:
        return (1, 0) if static_eq(ns[0], 1) else (ns[0], nd[0])
    return tuple(ns), tuple(nd)


def coalesce_shape(shape: Any) -> Any:
    """C++'s ``coalesce`` of a shape: the flat leaves, each run of equally static (or equally
    dynamic) leaves multiplied into one; a single leaf unwrapped. All static: the size.

    >>> from cutepy import dynamic
    >>> coalesce_shape((2, (dynamic(4), dynamic(3)), 8)), coalesce_shape((2, 4))
    ((2, 12, 8), 8)
    """
    if type(shape) is int:
        return shape
    fs = it.flatten_tuple(shape)
    if not has_dynamic(fs):
        return it.product(shape)
    out = [fs[0]]
    for x in fs[1:]:
        if is_static_int(out[-1]) == is_static_int(x):
            out[-1] = out[-1] * x
        else:
            out.append(x)
    return out[0] if len(out) == 1 else tuple(out)


def filter_flat(layout: Layout) -> tuple[Any, Any]:
    """``filter(layout)`` as ``(shape, stride)``: coalesce of the modes with non-zero stride."""
    return derived(layout, filter_flat_dyn)[:2]


def filter_flat_dyn(layout: Layout) -> tuple[Any, Any, bool]:
    """:func:`filter_flat` and whether the layout holds a run-time integer."""
    fs, dyn_s = it.flatten_dyn(layout._shape)
    fd, dyn_d = it.flatten_dyn(layout._stride)
    if dyn_s or dyn_d:  # C++: coalesce(filter_zeros(L)), a static _0 stride makes the mode _1
        return (*coalesce_dynamic([1 if static_eq(d, 0) else s for s, d in zip(fs, fd)], fd), True)
    keep_s = []
    keep_d = []
    for s, d in zip(fs, fd):
        if isinstance(d, ScaledBasis) or d != 0:
            keep_s.append(s)
            keep_d.append(d)
    rec = recorder()
    if rec:
        rec.emit(Filter(tuple(keep_s), tuple(keep_d), len(fs) - len(keep_s)))
    return (*coalesce_static(keep_s, keep_d), False)


def coalesce(layout: Layout, profile: Any = None) -> Layout:
    """The layout with the fewest modes and the same function (``profile`` coalesces by mode).

    With a tuple ``profile``, mode ``i`` is coalesced with ``profile[i]`` and modes past
    the profile are kept as they are; an integer profile coalesces the whole layout.
    A composed layout coalesces the layout under its swizzle.

    Pre:  a tuple ``profile`` has at most ``rank(layout)`` modes (else ``CutepyError``).
    Post: ``size(result) == size(layout)``, ``depth(result) <= 1`` (without a profile) and
          ``result(i) == layout(i)`` for all ``0 <= i < size(layout)``.

    >>> coalesce(Layout((2, (1, 6)), (1, (6, 2))))
    12:1
    >>> coalesce(Layout((2, (1, 6)), (1, (6, 2))), (1, 1))
    (2,6):(1,2)
    """
    rec = recorder()
    if rec and rec.opens(coalesce):
        return rec.framed(coalesce, layout, profile)
    if type(layout) is not Layout and (impl := COALESCE.of(layout)) is not None:
        return impl(layout, profile)
    if type(layout) is not Layout:
        layout = layout_arg(layout, "coalesce")
    if type(profile) is tuple:
        shape, stride = layout.shape, layout.stride
        if type(shape) is not tuple:
            shape, stride = (shape,), (stride,)
        if len(profile) > len(shape):
            raise CutepyError(
                f"coalesce: profile {profile} has more modes than the layout {layout}"
            )
        ss, dd = [], []
        for i, p in enumerate(profile):
            if type(p) is tuple:
                m = coalesce(Layout._new(shape[i], stride[i]), p)
                ss.append(m._shape)
                dd.append(m._stride)
            else:
                a, b = coalesce_flat(it.flatten_tuple(shape[i]), it.flatten_tuple(stride[i]))
                ss.append(a)
                dd.append(b)
            if rec:
                rec.emit(ProfileMode(i, Layout._new(shape[i], stride[i]), p, Layout._new(ss[-1], dd[-1])))
        if rec and len(profile) < len(shape):
            rec.emit(KeptModes(len(profile)))
        return Layout._grown(tuple(ss) + shape[len(profile):], tuple(dd) + stride[len(profile):])
    return derived(layout, _coalesced)


def _coalesced(layout: Layout) -> Layout:
    """:func:`coalesce` of a Layout without a profile (kept on the value: :func:`derived`)."""
    rec = recorder()
    shape = layout._shape
    if type(shape) is not tuple:  # a single mode: the loop of coalesce_flat, once
        if rec:
            rec.emit(Flatten((shape,), (layout._stride,)))
        if shape == 1 and type(shape) is not DynamicInt:  # as C++: a run-time 1 stays
            if rec:
                rec.emit(Drop((shape, layout._stride)))
            return Layout._new(1, 0)
        if rec:
            rec.emit(Start((shape, layout._stride)))
        return layout
    fs, dyn_s = it.flatten_dyn(shape)
    fd, dyn_d = it.flatten_dyn(layout._stride)
    s, d = coalesce_dynamic(fs, fd) if dyn_s or dyn_d else coalesce_static(fs, fd)
    return Layout._grown(s, d)


def filter_zeros(layout: Layout) -> Layout:
    """The layout with every stride-0 leaf's extent replaced by 1 (C++ ``filter_zeros``).

    Pre:  ``layout`` is a plain ``Layout``.
    Post: same shape nesting and strides; each leaf with stride 0 becomes ``1:0``, so
          ``size(result) == size(layout) / (product of the stride-0 extents)``.

    >>> filter_zeros(Layout((4, 2, 3), (1, 0, 4)))
    (4,1,3):(1,0,4)
    """
    if type(layout) is not Layout:
        layout = layout_arg(layout, "filter_zeros")
    return Layout._grown(
        it.transform_leaf(lambda s, d: 1 if _is_zero(d) and type(d) is not DynamicInt else s,
                          layout.shape, layout.stride),
        layout.stride,
    )


def _is_zero(d: Any) -> bool:
    return not isinstance(d, ScaledBasis) and d == 0


def filter(layout: Layout, profile: Any = None) -> Layout:  # noqa: A001 - CuTe's name
    """Coalesce after dropping stride-0 and size-1 modes (C++ ``filter``).

    Pre:  as :func:`coalesce` (a tuple ``profile`` filters by mode).
    Post: ``result`` reaches exactly the offsets ``layout`` reaches; for a plain layout
          ``size(result) == size(layout) / size(nullspace(layout))``.

    >>> filter(Layout((2, 4, 3), (1, 0, 2)))
    6:1
    """
    rec = recorder()
    if rec and rec.opens(filter):
        return rec.framed(filter, layout, profile)
    if type(layout) is not Layout and (impl := FILTER.of(layout)) is not None:
        return impl(layout, profile)
    if type(layout) is not Layout:
        layout = layout_arg(layout, "filter")
    if profile is None or type(profile) is not tuple:
        s, d = filter_flat(layout)
        return Layout._grown(s, d)
    zeros = filter_zeros(layout)
    if rec:
        rec.emit(Zeros(zeros))
    return coalesce(zeros, profile)

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "coalesce", "filter", "filter_zeros",
]
