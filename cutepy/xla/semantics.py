"""Where each element of an XLA array lives: the tiled-layout index formula.

For physical dims ``d`` (major to minor, after ``minor_to_major``) and a tile ``t``,
XLA's docs define ::

    linear_index_with_tile(e, d, t) = linear_index((e//t, e%t), (ceil(d/t), t))

A tile shorter than the shape tiles only the most minor dims, a longer one first
pads the shape with leading 1s, ``*`` merges a dim into the next more minor one
(bound ``d_i*d_{i-1}``, index ``e_i*d_{i-1} + e_{i-1}``) before tiling, and each
further tile applies to the minor suffix of the coordinates the previous tile
produced. The offset is the row-major index in the final (tiled) shape; ``L(n)``
only pads the end of the buffer. Offsets count element slots, not bytes.

The same code runs on Python ints (:func:`linear_index`) and on broadcast numpy
index grids (:func:`linear_indices`), so there is no per-element Python loop. Where an
offset may pass ``2**63 - 1`` (a buffer of more slots than int64 counts), the tables
hold Python ints (``dtype=object``) instead of wrapping around. Tables over the whole
array need a numpy array of the logical rank (at most 64 dims).

Figure 1 of the docs, ``f32[3,5]{1,0:T(2,2)}``:

>>> linear_index("f32[3,5]{1,0:T(2,2)}", (2, 3))
17
>>> linear_indices("f32[3,5]{1,0:T(2,2)}")
array([[ 0,  1,  4,  5,  8],
       [ 2,  3,  6,  7, 10],
       [12, 13, 16, 17, 20]])
>>> element_at("f32[3,5]{1,0:T(2,2)}", 17), element_at("f32[3,5]{1,0:T(2,2)}", 9)
((2, 3), None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..core.errors import CutepyError
from ..core.lazy import load
from ..program.engine import INT64_MAX, MAX_ARRAY_DIMS, MAX_TABLE_ELEMENTS
from .padding import check_tiling, level_extents, tail_padded, tile_groups
from .parser import as_array_shape
from .shape import ArrayShape, Shape, Tile

np = load("numpy", optional=True)  # falsy where numpy is missing, its uses then raise CutepyError


def _is_index(x: Any) -> bool:
    """An integer (numpy's too, where numpy is installed) that is not a bool."""
    if isinstance(x, bool) or (np and isinstance(x, np.bool_)):
        return False
    return isinstance(x, int) or bool(np and isinstance(x, np.integer))


def _tile_level(coords: list[Any], bounds: list[Any], tile: Tile) -> tuple[list[Any], list[Any]]:
    """Apply one tile to coordinates (ints or numpy arrays) and their bounds; the bounds
    come from :func:`~.padding.level_extents`, the one padding model."""
    lv = level_extents(bounds, tile.dims)
    full_c = [0] * lv.extra + coords
    full_b = [1] * lv.extra + bounds
    outer_c, inner_c = [], []
    for members, t in lv.groups:
        c: Any = 0
        for m in members:
            c = c * full_b[m] + full_c[m]
        outer_c.append(c // t)
        inner_c.append(c % t)
    return full_c[:lv.prefix] + outer_c + inner_c, list(lv.tiled)


def _physical(shape: ArrayShape) -> tuple[list[int], tuple[Tile, ...]]:
    check_tiling(shape)
    return list(shape.physical_dims), shape.effective_layout.tiles


def _index_dtype(shape: ArrayShape) -> Any:
    """int64, or ``object`` (Python ints) when an offset of ``shape`` may pass int64."""
    return object if buffer_elements(shape) > INT64_MAX else np.int64


def _check_numpy_rank(shape: ArrayShape, rank: int, what: str) -> None:
    if rank > MAX_ARRAY_DIMS:
        raise CutepyError(f"{what} of {shape} needs a {rank}-dimensional array; numpy allows at "
                          f"most {MAX_ARRAY_DIMS} dims (evaluate rows of indices with "
                          "linear_indices_at instead)")


def tiled_dims(shape: Shape | str) -> tuple[int, ...]:
    """The physical buffer's shape after every tile level (before ``L`` padding).

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
    Post: the physical dims after tiling, most major first; their product times the ``L``
          padding is ``buffer_elements(shape)``.

    >>> tiled_dims("f32[4,8]{1,0:T(2,4)(2,1)}")
    (2, 2, 1, 4, 2, 1)
    >>> tiled_dims("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}")
    (56, 37, 2, 3)
    """
    bounds, tiles = _physical(as_array_shape(shape))
    coords: list[Any] = [0] * len(bounds)
    for tile in tiles:
        coords, bounds = _tile_level(coords, bounds, tile)
    return tuple(bounds)


def buffer_elements(shape: Shape | str) -> int:
    """Element slots in the buffer: every tile level, then rounded up to ``L(n)``.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
    Post: ``product(tiled_dims(shape))`` rounded up to the ``L(n)`` multiple; every
          ``linear_index`` is below it.

    >>> buffer_elements("f32[3,5]{1,0:T(2,2)}"), buffer_elements("f32[3]{0:L(4)}")
    (24, 4)
    """
    arr = as_array_shape(shape)
    n: Any = 1
    for d in tiled_dims(arr):
        n = n * d
    return tail_padded(n, arr.effective_layout.tail_padding_alignment_in_elements)


def _row_major(coords: Sequence[Any], bounds: Sequence[int]) -> Any:
    off: Any = 0
    for c, d in zip(coords, bounds, strict=True):
        off = off * d + c
    return off


def linear_index(shape: Shape | str, index: Sequence[int]) -> int:
    """Offset (in elements) of the element at logical ``index`` in the buffer.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
          ``index`` is inside ``shape``'s dims.
    Post: ``0 <= result < buffer_elements(shape)``; ``element_at(shape, result) == index``.

    >>> linear_index("f32[2,3]{0,1}", (0, 1)), linear_index("f32[2,3]{1,0}", (0, 1))
    (2, 1)
    >>> linear_index("f32[4,8]{1,0:T(2,4)(2,1)}", (2, 5))
    26
    """
    arr = as_array_shape(shape)
    try:
        idx = tuple(index)
    except TypeError:
        raise CutepyError(f"index {index!r} is not a tuple of integers") from None
    logical = arr.concrete_bounds("linear_index()")
    if len(idx) != len(logical):
        raise CutepyError(f"index {idx} has {len(idx)} coordinates, {arr} has rank {arr.rank}")
    for e, d in zip(idx, logical, strict=True):
        if not _is_index(e) or not 0 <= e < d:
            raise CutepyError(f"index {idx} is outside {arr}")
    bounds, tiles = _physical(arr)
    coords: list[Any] = [int(idx[d]) for d in reversed(arr.effective_layout.minor_to_major)]
    for tile in tiles:
        coords, bounds = _tile_level(coords, bounds, tile)
    return int(_row_major(coords, bounds))


def linear_indices(shape: Shape | str, limit: int = MAX_TABLE_ELEMENTS) -> np.ndarray:
    """Offsets of every logical element, as an int64 array shaped like the logical dims
    (more than ``limit`` elements raise a :class:`~cutepy.CutepyError` first).

    ``linear_indices(s)[i] == linear_index(s, i)`` for every logical index ``i``.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
          At most ``limit`` elements (else ``CutepyError``).
    Post: an int64 array of the logical dims' shape, one-to-one into ``[0, buffer_elements)``.

    >>> linear_indices("f32[2,3]{0,1}")
    array([[0, 2, 4],
           [1, 3, 5]])
    """
    arr = as_array_shape(shape)
    logical = arr.concrete_bounds("linear_indices()")
    rank = len(logical)
    bounds, tiles = _physical(arr)
    _check_numpy_rank(arr, rank, "linear_indices()")
    n = 1
    for d in logical:
        n *= d
    if n > limit:
        raise CutepyError(f"linear_indices() of {arr}: {n} elements pass the limit of {limit} "
                          "(cutepy.program.engine.MAX_TABLE_ELEMENTS; pass limit= to raise it)")
    dtype = _index_dtype(arr)
    if n == 0:  # no element; the coordinate grids of the other dims would still broadcast to their product
        return np.zeros(logical, dtype=dtype)
    grids = [
        np.arange(d, dtype=np.int64).astype(dtype).reshape([-1 if j == i else 1 for j in range(rank)])
        for i, d in enumerate(logical)
    ]
    coords: list[Any] = [grids[d] for d in reversed(arr.effective_layout.minor_to_major)]
    for tile in tiles:
        coords, bounds = _tile_level(coords, bounds, tile)
    off = np.asarray(_row_major(coords, bounds), dtype=dtype)
    return np.broadcast_to(off, logical).copy()


def index_rows(index: Any, rank: int) -> np.ndarray:
    """A ``(k, rank)`` int64 array from rows of logical indices (``k`` rows of ``()`` at rank 0).

    >>> index_rows([[1, 2]], 2).shape, index_rows([(), ()], 0).shape
    ((1, 2), (2, 0))
    """
    try:
        raw = np.asarray(index)
        if raw.size and raw.dtype.kind not in "iuO" or (raw.dtype.kind == "O" and not all(
                isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in raw.reshape(-1))):
            raise TypeError
        idx = raw.astype(np.int64)
        if rank == 0:
            return idx.reshape(idx.shape[0] if idx.ndim else 1, 0)
        if idx.ndim == 0 or idx.size % rank or (idx.ndim > 1 and idx.shape[-1] != rank):
            raise ValueError
        return idx.reshape(-1, rank)
    except OverflowError:
        raise CutepyError(f"some index in {index!r} is outside every XLA array (beyond int64)") from None
    except (TypeError, ValueError):
        raise CutepyError(f"indices {index!r} are not a (k, {rank}) array of integers") from None


def linear_indices_at(shape: Shape | str, index: Any) -> np.ndarray:
    """Offsets of the elements at a ``(k, rank)`` integer array of logical indices.

    The formula of :func:`linear_index`, vectorized over rows; for checking a few
    elements of a large array without building the whole table.

    Pre:  ``shape`` is an XLA array shape or its text (else ``ParseError`` / ``CutepyError``).
          ``index`` is a ``(k, rank)`` integer array inside the dims.
    Post: ``result[j] == linear_index(shape, index[j])`` for each row ``j``.

    >>> linear_indices_at("f32[3,5]{1,0:T(2,2)}", [[2, 3], [0, 1], [2, 4]]).tolist()
    [17, 1, 20]
    """
    arr = as_array_shape(shape)
    logical = arr.concrete_bounds("linear_indices_at()")
    rank = len(logical)
    idx = index_rows(index, rank)
    if idx.size and ((idx < 0).any() or (idx >= np.asarray(logical, dtype=np.int64)).any()):
        raise CutepyError(f"some index is outside {arr}")
    bounds, tiles = _physical(arr)
    dtype = _index_dtype(arr)
    coords: list[Any] = [idx[:, d].astype(dtype) for d in reversed(arr.effective_layout.minor_to_major)]
    for tile in tiles:
        coords, bounds = _tile_level(coords, bounds, tile)
    off = np.asarray(_row_major(coords, bounds), dtype=dtype)
    return np.broadcast_to(off, (idx.shape[0],)).copy()


def element_at(shape: Shape | str, offset: int) -> tuple[int, ...] | None:
    """Logical index stored at buffer ``offset``, or ``None`` for a padding slot.

    Inverts :func:`linear_index`; raises for an offset outside the buffer
    (:func:`buffer_elements` slots, ``L`` padding included).

    Pre:  ``0 <= offset < buffer_elements(shape)`` (else ``CutepyError``).
    Post: ``linear_index(shape, result) == offset``, or ``None`` when no element is stored there.

    >>> element_at("f32[4,8]{1,0:T(2,4)(2,1)}", 26)
    (2, 5)
    >>> element_at("f32[2,3]{1,0:L(8)}", 7) is None
    True
    """
    arr = as_array_shape(shape)
    arr.concrete_bounds("element_at()")
    if not _is_index(offset) or \
            not 0 <= offset < buffer_elements(arr):
        raise CutepyError(f"offset {offset!r} is outside the buffer of {arr}")
    bounds, tiles = _physical(arr)
    chain: list[list[int]] = []
    coords: list[Any] = [0] * len(bounds)
    for tile in tiles:
        chain.append(bounds)
        coords, bounds = _tile_level(coords, bounds, tile)
    total = math.prod(bounds)
    if offset >= total:
        return None
    rest = int(offset)
    out: list[int] = []
    for d in reversed(bounds):
        rest, c = divmod(rest, d)
        out.append(c)
    crd = out[::-1]
    for tile, before in zip(reversed(tiles), reversed(chain), strict=True):
        untiled = _untile_level(crd, before, tile)
        if untiled is None:
            return None
        crd = untiled
    index = [0] * arr.rank
    for c, d in zip(crd, reversed(arr.effective_layout.minor_to_major), strict=True):
        index[d] = c
    return tuple(index)


def _untile_level(crd: list[int], before: list[int], tile: Tile) -> list[int] | None:
    """Inverse of :func:`_tile_level` for one coordinate; ``None`` if it is padding."""
    extra, prefix, groups = tile_groups(len(before), tile.dims)
    bounds = [1] * extra + before
    g = len(groups)
    result = list(crd[:prefix])
    for j, (members, t) in enumerate(groups):
        c = crd[prefix + j] * t + crd[prefix + g + j]
        sizes = [bounds[m] for m in members]
        if c >= math.prod(sizes):
            return None
        parts = []
        for d in reversed(sizes):
            c, r = divmod(c, d)
            parts.append(r)
        result.extend(reversed(parts))
    return result[extra:]
