"""The TPU tile formats of XLA's tiled-layout docs, picked from dtype and shape.

The docs list: ``(8,128)`` for 32-bit types; ``(2,128)`` when the second most minor
dim is 1 or 2 and ``(4,128)`` when it is 3 or 4 (the "small second minor" format);
``(8,128)(2,1)`` for 16-bit types; ``(8,128)(4,1)`` for 8-bit; ``(32,128)(32,1)``
for 1-bit predicates. They all follow one rule, which :func:`tpu_tiles` applies:
a type of ``w < 32`` bits packs ``p = 32 // w`` rows into one 32-bit word with a
``(p,1)`` sub-tile, under a first tile of ``(max(r, p), 128)`` rows, ``r`` being
8, or 2/4 for a small second minor dim. Choices the docs leave open:

- ``pred`` is treated as the docs' 1-bit predicate (``(32,128)(32,1)``); pass
  ``bits=8`` for the one-byte format today's TPUs use (``(8,128)(4,1)``).
- 4-bit types get ``(8,128)(8,1)`` (as in XLA's own TPU shapes), 2-bit
  ``(16,128)(16,1)``; types wider than 32 bits get ``(8,128)``, like 32-bit ones.
- The small-second-minor rule applies to every width, as long as the rows stay a
  multiple of the packing: bf16 ``[2,2048]`` gets ``(2,128)(2,1)``.
- Rank 0 and 1 count as ``[1, n]``: the second most minor dim is 1, so a rank-1
  ``f32`` gets ``(2,128)``; XLA pads the shape with leading 1s for such a tile.

>>> [str(t) for t in tpu_tiles("f32", (1024, 1024))]
['(8,128)']
>>> [str(t) for t in tpu_tiles("bf16", (3, 4, 256))]
['(4,128)', '(2,1)']
>>> [str(t) for t in tpu_tiles("pred", (64, 64))]
['(32,128)', '(32,1)']
>>> [str(t) for t in tpu_tiles("pred", (64, 64), bits=8)]
['(8,128)', '(4,1)']
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ..core.errors import CutepyError
from .shape import Tile
from .types import ElementType, element_type

#: Lanes of a TPU vector register: the most minor tile dim.
LANES = 128

#: Sublanes of a TPU vector register: the rows of the full 32-bit tile.
SUBLANES = 8


def _ints(xs: Any, what: str) -> tuple[int, ...]:
    """``xs`` as a tuple of ints (no bools, no floats), or a CutepyError naming ``what``."""
    try:
        t = tuple(xs)
        if any(isinstance(x, bool) for x in t):
            raise TypeError
        return tuple(operator.index(x) for x in t)
    except TypeError:
        raise CutepyError(f"tpu_tiles: {what} {xs!r} is not a tuple of integers") from None


def _second_minor_rows(d: int) -> int:
    if d <= 2:
        return 2
    if d <= 4:
        return 4
    return SUBLANES


def tpu_tiles(
    dtype: str | ElementType,
    dims: Sequence[int],
    *,
    minor_to_major: Sequence[int] | None = None,
    bits: int | None = None,
) -> tuple[Tile, ...]:
    """TPU tile chain for an array of ``dtype`` and ``dims``.

    ``dims`` are physical, most major first, unless ``minor_to_major`` is given,
    in which case they are logical and permuted by it. ``bits`` overrides the
    element width (``pred`` counts as 1 bit unless told otherwise).

    Pre:  ``dims`` (and ``minor_to_major``) are tuples of integers; ``dtype`` has a TPU tile
          format (else ``CutepyError``).
    Post: the tile chain XLA's TPU backend picks, most significant first (the ``T(...)`` of the
          shape's layout).

    >>> [str(t) for t in tpu_tiles("f32", (4, 2), minor_to_major=(0, 1))]
    ['(2,128)']
    >>> [tuple(t) for t in tpu_tiles("bf16", (16, 256))]  # each tile iterates as its dims
    [(8, 128), (2, 1)]
    >>> [str(t) for t in tpu_tiles("s8", (16, 256))], [str(t) for t in tpu_tiles("f32", ())]
    (['(8,128)', '(4,1)'], ['(2,128)'])
    """
    et = element_type(dtype)
    if not et.is_array_type:
        raise CutepyError(f"{et.name} has no TPU tile format")
    phys = _ints(dims, "dims")
    if any(d < 0 for d in phys):
        raise CutepyError(f"tpu_tiles: dims {phys} must be non-negative")
    if bits is not None and (isinstance(bits, bool) or not isinstance(bits, int)):
        raise CutepyError(f"tpu_tiles: bits={bits!r} is not an integer")
    if minor_to_major is not None:
        m2m = _ints(minor_to_major, "minor_to_major")
        if sorted(m2m) != list(range(len(phys))):
            raise CutepyError(f"minor_to_major {m2m} is not a permutation of 0..{len(phys) - 1}")
        phys = tuple(phys[d] for d in reversed(m2m))
    width = bits if bits is not None else (1 if et.kind == "pred" else et.bits)
    if width not in (1, 2, 4, 8, 16, 32, 64, 128):
        raise CutepyError(f"no TPU tile format for {width}-bit elements")
    packing = max(1, 32 // width)
    second_minor = phys[-2] if len(phys) >= 2 else 1
    rows = max(_second_minor_rows(second_minor), packing)
    tiles = [Tile((rows, LANES))]
    if packing > 1:
        tiles.append(Tile((packing, 1)))
    return tuple(tiles)
