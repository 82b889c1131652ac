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

from ..algebra.composed import composed_parts
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..linear.convert import bit_columns


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


def _layout_map(L: Layout) -> XorMap | None:
    # a layout's F2 columns have one home, cutepy.linear's (None where it is not F2-linear)
    try:
        return XorMap(0, tuple(bit_columns(L, "the layout")))
    except CutepyError:
        return None


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
