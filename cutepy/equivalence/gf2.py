"""Swizzled layouts as XOR-linear maps of the index bits, for exact comparison.

A layout whose normal-form modes have power-of-two sizes and strides, with images
in disjoint bit ranges, adds without carries: ``L(i)`` is the XOR of one column per
set bit of ``i``. An offset on other bits and a :class:`~cutepy.Swizzle` (XOR-linear
itself) keep that form, so ``Sw o off o L`` is ``c ^ XOR(columns[k] for bits k of i)``.
Two such maps on ``[0, 2**n)`` are equal exactly when ``c`` and every column agree.

>>> from cutepy import Layout, Swizzle, composition
>>> f = as_xor_map(composition(Swizzle(1, 0, 1), Layout((2, 2), (1, 2))))
>>> f.constant, f.columns
(0, (1, 3))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..algebra.coalesce import coalesce_flat
from ..algebra.swizzle import Swizzle, composed_parts
from ..core import inttuple as it
from ..core.layout import Layout


@dataclass(frozen=True)
class XorMap:
    """``f(i) = constant ^ XOR(columns[k] for each set bit k of i)`` for ``i < 2**len(columns)``."""

    constant: int
    columns: tuple

    def __call__(self, i: int) -> int:
        v = self.constant
        for k, c in enumerate(self.columns):
            if i >> k & 1:
                v ^= c
        return v

    def bits(self) -> int:
        """Every bit that some value of the map may set."""
        b = self.constant
        for c in self.columns:
            b |= c
        return b

    def apply(self, g: Any) -> XorMap:
        """``g o self`` for an XOR-linear ``g`` (a Swizzle, or another map on enough bits)."""
        return XorMap(g(self.constant), tuple(g(c) for c in self.columns))


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def _layout_map(L: Layout) -> XorMap | None:
    fs, fd = it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)
    if not all(type(x) is int for x in fs + fd):
        return None
    s, d = coalesce_flat(fs, fd)
    modes = tuple(zip(s, d)) if type(s) is tuple else (((s, d),) if s != 1 else ())
    cols: list = []
    used = 0
    for size, stride in modes:
        if not _pow2(size):
            return None
        n = size.bit_length() - 1
        if stride == 0:
            cols.extend([0] * n)
            continue
        if not _pow2(stride):
            return None
        for j in range(n):
            c = stride << j
            if c & used:
                return None
            used |= c
            cols.append(c)
    return XorMap(0, tuple(cols))


def as_xor_map(F: Any) -> XorMap | None:
    """The XOR-linear form of a Layout or ComposedLayout over its index bits, if it has one."""
    if type(F) is Layout:
        return _layout_map(F)
    parts = composed_parts(F)
    if parts is None or type(parts[1]) is not int or parts[1] < 0:
        return None
    outer, offset, inner_layout = parts
    inner = as_xor_map(inner_layout)
    if inner is None or offset & inner.bits():
        return None
    inner = XorMap(inner.constant | offset, inner.columns)
    if isinstance(outer, Swizzle):
        return inner.apply(outer)
    g = as_xor_map(outer)
    if g is None or g.constant != 0 or inner.bits() >> len(g.columns):
        return None
    return inner.apply(g)


def swizzle_is_identity_on(sw: Swizzle, reach: int) -> bool:
    """Whether ``sw`` leaves every value in ``[0, reach]`` unchanged (no source bit reachable)."""
    low = sw.yyy_mask & -sw.yyy_mask
    return sw.bits == 0 or reach < low
