"""XLA's padding model, in one place: what each tile level and ``L(n)`` add to a shape.

Every XLA module reads its padding from here: the index formula
(:mod:`.semantics`), the sizes (:mod:`.sizes`, :func:`~.semantics.buffer_elements`) and
the compile to CuTe (:mod:`.compile`). Only :mod:`.reference` keeps its own copy, on
purpose: it is the independent model the others are checked against.

One tile level ``t`` (``k`` dims) on physical bounds ``b`` (most major first):

1. a tile longer than the shape pads ``b`` with ``extra = k - len(b)`` leading 1s;
2. the first ``prefix = len(b) - k`` dims are untiled; each ``*`` run of the tile merges
   its dims into the next tiled one, whose extent is the run's product ``d``;
3. a tiled extent ``d`` is padded to ``ceil(d/t)*t`` and split into ``(ceil(d/t), t)``;
   the level's bounds are ``b[:prefix] + outer + inner`` (all tile-index dims, then all
   in-tile dims).

After the last level the buffer holds the product of the bounds, rounded up to a
multiple of ``L(n)`` (:func:`tail_padded`).

>>> lv = level_extents((3, 5), (2, 2))
>>> lv.merged, lv.padded, lv.tiled
((3, 5), (4, 6), (2, 3, 2, 2))
>>> from cutepy.xla import Tile
>>> level_extents((2, 7, 8, 11, 10), Tile((-1, -1, 2, -1, 3))).tiled
(56, 37, 2, 3)
>>> tail_padded(15, 4)
16
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import inttuple as it
from ..core.errors import CutepyError
from .shape import COMBINE_DIM


def round_up(d: Any, t: int) -> Any:
    """``d`` padded up to a multiple of ``t``; a symbolic ``d`` that the facts prove a
    multiple stays ``d`` (an undecided one raises :class:`~cutepy.symbolic.Undecided`,
    naming the fact ``d % t == 0`` to declare: padding by a symbolic amount is not
    compiled).

    >>> round_up(5, 4), round_up(8, 4)
    (8, 8)
    """
    if type(d) is int:
        return -(-d // t) * t
    if d % t == 0:
        return d
    return -(-d // t) * t


def tail_padded(n: Any, align: int) -> Any:
    """Element slots of a buffer of ``n`` elements under ``L(align)``."""
    return it.ceil_div_tuple(n, align) * align


@dataclass(frozen=True)
class Level:
    """One tile level on some bounds (see the module docstring).

    ``extra``: leading 1s added; ``prefix``: untiled major dims (after the 1s);
    ``groups``: for each tiled dim, the positions (in the bounds with the 1s) it merges
    and its tile size; ``merged``/``padded``: the bounds after the ``*`` merges and after
    padding to whole tiles; ``tiled``: the level's output bounds.
    """

    extra: int
    prefix: int
    groups: tuple[tuple[tuple[int, ...], int], ...]
    merged: tuple[Any, ...]
    padded: tuple[Any, ...]
    tiled: tuple[Any, ...]

    @property
    def sizes(self) -> tuple[int, ...]:
        """The tile sizes of the tiled dims, major first."""
        return tuple(t for _, t in self.groups)


def tile_groups(rank: int, tile: Iterable[int]) -> tuple[int, int, tuple[tuple[tuple[int, ...], int], ...]]:
    """``(extra, prefix, groups)`` of a tile over a rank-``rank`` shape (see :class:`Level`).

    >>> from cutepy.xla import Tile
    >>> tile_groups(2, Tile((-1, 4, 3)))  # '*' merges position 0 (a leading 1) into 1
    (1, 0, (((0, 1), 4), ((2,), 3)))
    """
    tile = tuple(tile)
    k = len(tile)
    padded = max(rank, k)
    groups: list[tuple[tuple[int, ...], int]] = []
    pending: list[int] = []
    for pos, t in enumerate(tile, start=padded - k):
        pending.append(pos)
        if t != COMBINE_DIM:
            groups.append((tuple(pending), t))
            pending = []
    return max(k - rank, 0), padded - k, tuple(groups)


def level_extents(bounds: Sequence[Any], tile: Iterable[int],
                  pad_to: Callable[[Any, int], Any] | None = None,
                  split: tuple[int, int, tuple[tuple[tuple[int, ...], int], ...]] | None = None) -> Level:
    """The extents one tile level gives ``bounds``.

    ``pad_to(d, t)`` pads a tiled extent (default ``ceil(d/t)*t`` with ``ceil(d/t)``
    tiles, right for sizes, symbolic ones included); the compile passes
    :func:`round_up`, which decides divisibility from the facts, and then counts
    ``padded // t`` tiles.
    """
    extra, prefix, groups = tile_groups(len(bounds), tile)
    full = [1] * extra + list(bounds)
    merged = list(full[:prefix])
    for members, _ in groups:
        d: Any = 1
        for m in members:
            d = d * full[m]
        merged.append(d)
    padded = list(merged[:prefix])
    outer = []
    for d, (_, t) in zip(merged[prefix:], groups):
        if pad_to is None:
            n = it.ceil_div_tuple(d, t)
            padded.append(n * t)
        else:
            p = pad_to(d, t)
            padded.append(p)
            n = p // t
        outer.append(n)
    tiled = tuple(full[:prefix]) + tuple(outer) + tuple(t for _, t in groups)
    return Level(extra, prefix, groups, tuple(merged), tuple(padded), tiled)


#: Most tile levels a layout may have for the index formula and the compile (XLA's own
#: layouts have one to three). Each level costs time linear in the rank it builds.
MAX_TILE_LEVELS = 64

#: Most dims the physical shape may reach after any tile level.
MAX_TILED_RANK = 256


def _short(shape: Any) -> str:
    """The shape's text, its tile chain cut after a few levels."""
    text = str(shape)
    return text if len(text) <= 40 or "T(" not in text else text[: text.index("T(") + 11] + "...}"


def check_tiling(shape: Any) -> None:
    """Raise a :class:`~cutepy.CutepyError` when an array shape's tile chain passes
    :data:`MAX_TILE_LEVELS` levels or builds more than :data:`MAX_TILED_RANK` dims.

    >>> from cutepy.xla import parse_shape
    >>> check_tiling(parse_shape("f32[8]{0:T" + "(2)" * 65 + "}"))
    Traceback (most recent call last):
      ...
    cutepy.CutepyError: f32[8]{0:T(2)(2)(2)...} has 65 tile levels; at most 64 are supported \
(cutepy.xla.padding.MAX_TILE_LEVELS)
    """
    tiles = shape.effective_layout.tiles
    if len(tiles) > MAX_TILE_LEVELS:
        raise CutepyError(f"{_short(shape)} has {len(tiles)} tile levels; at most {MAX_TILE_LEVELS} "
                          "are supported (cutepy.xla.padding.MAX_TILE_LEVELS)")
    rank = shape.rank
    for k, tile in enumerate(tiles):
        dims = tile.dims
        rank = max(rank, len(dims)) - len(dims) + 2 * (len(dims) - dims.count(COMBINE_DIM))
        if rank > MAX_TILED_RANK:
            raise CutepyError(f"tile level {k} of {_short(shape)} builds {rank} dims; at most "
                              f"{MAX_TILED_RANK} are supported (cutepy.xla.padding.MAX_TILED_RANK)")


def max_rank(shape: Any) -> int:
    """The most dims an array shape's buffer has at any point of its tile chain (the
    logical rank, a tile's leading 1s, each level's tiled dims): the rank a numpy model
    of the tiling needs.

    >>> from cutepy.xla import parse_shape
    >>> max_rank(parse_shape("f32[3,5]{1,0:T(2,2)}")), max_rank(parse_shape("f32[4]{0:T(2,2,2)}"))
    (4, 6)
    """
    rank = top = shape.rank
    for tile in shape.effective_layout.tiles:
        extra, prefix, groups = tile_groups(rank, tile.dims)
        rank = prefix + 2 * len(groups)
        top = max(top, rank, len(tile.dims))
    return top
