"""Shared-memory banks: which bank each element of a tile lands in, before and after a swizzle.

Shared memory has ``banks`` banks (32) of ``bank_bytes`` bytes (4): the byte address
``a`` lives in bank ``(a // 4) % 32``. When the threads of one access touch different
4-byte words of the same bank, the access is replayed: an ``n``-way conflict. Here an
access is one column of the 2-D tile (``access="column"``: the ``M`` elements of a
column read together) or one row (``"row"``).

>>> from cutepy import Layout, Swizzle, composition
>>> plain = Layout((8, 64), (64, 1))                   # 8 rows of 64 halfs, row-major
>>> int(conflict_ways(plain.offsets(), (8, 64), 2).max())   # a column: 8 rows, one bank
8
>>> sw = composition(Swizzle(3, 3, 3), plain)
>>> int(conflict_ways(sw.offsets(), (8, 64), 2).max())      # the swizzle spreads them
1
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import CutepyError
from ..swizzle import ComposedLayout, Swizzle
from .canvas import HStack, render
from .colors import bank_color
from .grid import DEFAULT_LIMIT, GridPanel, int_size, make_axis
from .view import as_layout_like, grid_shapes


def banks_of(offsets: np.ndarray, element_bytes: int, banks: int = 32, bank_bytes: int = 4) -> np.ndarray:
    """Bank of the first byte of each element.

    >>> banks_of(np.array([0, 1, 2, 64]), 2).tolist()
    [0, 0, 1, 0]
    """
    return (np.asarray(offsets, dtype=np.int64) * element_bytes // bank_bytes) % banks


def conflict_ways(offsets: np.ndarray, grid: tuple[int, int], element_bytes: int, access: str = "column",
                  banks: int = 32, bank_bytes: int = 4) -> np.ndarray:
    """For each access (column or row of the ``grid``), the largest number of distinct
    words that one bank must serve: 1 means conflict-free.

    ``offsets`` are element offsets in colexicographic order (``layout.offsets()``).

    >>> conflict_ways(np.arange(8) * 32, (8, 1), 4).tolist()    # stride 32 words: one bank
    [8]
    >>> conflict_ways(np.arange(8) * 32, (8, 1), 4, access="row").tolist()
    [1, 1, 1, 1, 1, 1, 1, 1]
    """
    M, N = grid
    table = np.asarray(offsets, dtype=np.int64).reshape(N, M).T  # [m, n]
    groups = table.T if access == "column" else table if access == "row" else None
    if groups is None:
        raise CutepyError(f"access must be 'column' or 'row', got {access!r}")
    first = groups * element_bytes // bank_bytes
    last = (groups * element_bytes + element_bytes - 1) // bank_bytes
    span = int((last - first).max()) + 1 if first.size else 1
    out = np.empty(len(groups), dtype=np.int64)
    for g in range(len(groups)):
        words = np.concatenate([(first[g] + k)[first[g] + k <= last[g]] for k in range(span)])
        words = np.unique(words)
        out[g] = int(np.bincount(words % banks, minlength=banks).max()) if words.size else 0
    return out


def _split(obj: Any, swizzle: Swizzle | None) -> tuple[Any, Any]:
    """(unswizzled, swizzled) pair of layouts to compare; the second may be None."""
    if isinstance(obj, ComposedLayout):
        if swizzle is not None:
            raise CutepyError("pass either a swizzled layout or a swizzle, not both")
        plain = ComposedLayout(Swizzle(0, 0, 0), obj.offset, obj.inner) if obj.offset else obj.inner
        return plain, obj
    if swizzle is not None:
        return obj, ComposedLayout(swizzle, 0, obj)
    return obj, None


def _panel(obj: Any, title: str, element_bytes: int, access: str, banks: int, bank_bytes: int,
           max_rows: int | None, max_cols: int | None) -> GridPanel:
    row_shape, col_shape, grouped = grid_shapes(obj)
    M, N = int_size(row_shape), int_size(col_shape)
    offs = obj.offsets()
    ways = conflict_ways(offs, (M, N), element_bytes, access, banks, bank_bytes)
    rows, cols = make_axis(row_shape, max_rows), make_axis(col_shape, max_cols)
    table = offs.reshape(N, M).T[np.ix_(rows.shown, cols.shown)]
    bank = banks_of(table, element_bytes, banks, bank_bytes)
    labels = [[str(b) for b in row] for row in bank.tolist()]
    fills = [[bank_color(b) for b in row] for row in bank.tolist()]
    worst = int(ways.max()) if ways.size else 0
    verdict = "conflict-free" if worst <= 1 else f"worst {worst}-way conflict"
    caption = [f"cell = bank of the element ({element_bytes} B elements, {banks} banks x {bank_bytes} B)",
               f"{access} accesses: {verdict}"]
    if grouped:
        caption.append("columns: modes 1.. grouped")
    notes = [f"{w}x" for w in ways[cols.shown].tolist()] if access == "column" else None
    return GridPanel(rows, cols, labels, fills, title=title, caption=caption, notes=notes)


def swizzle_bank_svg(
    layout: Any,
    element_bytes: int = 2,
    *,
    swizzle: Swizzle | None = None,
    access: str = "column",
    banks: int = 32,
    bank_bytes: int = 4,
    max_rows: int | None = DEFAULT_LIMIT,
    max_cols: int | None = DEFAULT_LIMIT,
) -> str:
    """A shared-memory tile coloured by bank, without and with its swizzle.

    ``layout`` is a swizzled :class:`~cutepy.ComposedLayout` (its inner layout is the
    "before" picture) or a plain layout, optionally with a ``swizzle`` to apply.
    ``element_bytes`` is the element size; under each column of the tile its conflict
    degree (``access="column"``), in the caption the worst one.

    >>> from cutepy import Layout
    >>> svg = swizzle_bank_svg(Layout((8, 64), (64, 1)), 2, swizzle=Swizzle(3, 3, 3))
    >>> "worst 8-way conflict" in svg and "conflict-free" in svg
    True
    """
    obj = as_layout_like(layout)
    if not isinstance(element_bytes, int) or element_bytes < 1:
        raise CutepyError(f"element_bytes must be a positive int, got {element_bytes!r}")
    before, after = _split(obj, swizzle)
    args = (element_bytes, access, banks, bank_bytes, max_rows, max_cols)
    panels = [_panel(before, f"without swizzle: {before}", *args)]
    if after is not None:
        panels.append(_panel(after, f"with swizzle: {after}", *args))
    return render(HStack(panels), title=f"shared-memory banks of {obj}")
