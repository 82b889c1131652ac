"""Byte sizes of an XLA array: dense, XLA's ``ArraySize``, and the true tiled size.

- ``dense``: elements times the element width, tiles ignored (``ShapeUtil::ByteSizeOf``).
- ``array_size``: XLA ``ShapeUtil::ArraySize``: pads with the *first* tile only, then
  rounds the element count up to ``L(n)``, then applies the width. Like XLA, an
  untiled layout gets no ``L`` padding here.
- ``nested``: the slots every tile level really needs (what the index formula
  addresses), rounded up to ``L(n)``. It exceeds ``array_size`` when a sub-tile
  pads on its own, e.g. ``T(3,5)(2,1)``.

The width is ``E(bits)`` when set (sub-byte sizes round up to whole bytes), else the
type's byte width (``pred`` and unpacked ``s4`` take one byte each). Dynamic dims
count at their bound; split configs and ``M(n)`` metadata do not change the size.
A shape with symbolic dims (see :func:`cutepy.symbols`) gets symbolic sizes:
``ceil(M/8)`` where the facts do not say that a tile divides a dim.

>>> sizes("f32[3,5]{1,0:T(3,5)(2,1)}")
ShapeSizes(dense=60, array_size=60, nested=80)
>>> sizes("s4[3,3]{1,0:E(4)}").dense
5
>>> round(sizes("f32[3,5]{1,0:T(2,2)}").padding_overhead, 1)
60.0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core.lazy import load
from .padding import tail_padded
from .parser import as_array_shape
from .semantics import tiled_dims
from .shape import ArrayShape, Shape

sympy = load("sympy")  # only symbolic sizes need it: loaded on first use


@dataclass(frozen=True)
class ShapeSizes:
    """The three sizes of one array, in bytes.

    >>> sizes("f32[3,5]{1,0:T(2,2)}")
    ShapeSizes(dense=60, array_size=96, nested=96)
    """

    dense: Any  # int, or a symbolic size
    array_size: Any
    nested: Any

    @property
    def padding_overhead(self) -> Any:
        """Padding as a percentage of the dense size (``nested`` over ``dense``).

        For a symbolic shape, a float when the facts make it a constant, else a sympy
        expression in the symbols.

        >>> ShapeSizes(100, 150, 200).padding_overhead
        100.0
        """
        if type(self.dense) is int and type(self.nested) is int:
            if self.dense == 0:
                return 0.0
            return 100.0 * (self.nested - self.dense) / self.dense
        dense, nested = sympy.sympify(self.dense), sympy.sympify(self.nested)
        ratio = sympy.simplify(100 * (nested - dense) / dense)
        return float(ratio) if ratio.is_number else ratio


def _prod(xs: tuple[int, ...]) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


def _bytes(shape: ArrayShape, elements: int) -> int:
    bits = shape.effective_layout.element_size_in_bits
    if bits:
        return -(-elements * bits // 8)
    return elements * shape.type.byte_width


def _aligned(shape: ArrayShape, elements: int) -> int:
    return tail_padded(elements, shape.effective_layout.tail_padding_alignment_in_elements)


def sizes(shape: Shape | str) -> ShapeSizes:
    """Dense, ``ArraySize`` and nested sizes of an array shape (or ``b(...)``), in bytes.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
    Post: ``dense <= array_size``; ``array_size`` is ``buffer_elements(shape)`` times the
          element's storage bytes.

    >>> sizes("bf16[10,256]{1,0:T(8,128)(2,1)}")
    ShapeSizes(dense=5120, array_size=8192, nested=8192)
    >>> sizes("f32[200001,128]{1,0:T(8)L(1024)}").array_size
    102404096
    """
    arr = as_array_shape(shape)
    lay = arr.effective_layout
    dense = _bytes(arr, _prod(arr.bounds))
    if lay.tiles:
        first = replace(arr, layout=replace(lay, tiles=lay.tiles[:1]))
        array_size = _bytes(arr, _aligned(arr, _prod(tiled_dims(first))))
    else:
        array_size = dense
    nested = _bytes(arr, _aligned(arr, _prod(tiled_dims(arr))))
    return ShapeSizes(dense, array_size, nested)
