"""``print_layout``: the console table of C++ CuTe, byte for byte.

For a rank-2 layout the first line is the layout itself, then a header of column
indices, then for each row a ``+---+`` separator and the offsets ``| v |``; every
cell is ``num_digits(cosize) + 2`` characters wide, where ``num_digits`` is CuTe's
(1 for anything below 10). A rank-1 (or scalar) layout prints as a single row.

>>> from cutepy import Layout
>>> print_layout(Layout((2, 3), (3, 1)))    # doctest: +NORMALIZE_WHITESPACE
(2,3):(3,1)
      0   1   2
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

import numpy as np

from ..errors import CutepyError
from ..layout import Layout, group
from .grid import int_size
from .view import as_layout_like


def num_digits(x: int) -> int:
    """CuTe's ``num_digits``: decimal digits of ``x``, 1 below 10, at most 10.

    >>> num_digits(0), num_digits(9), num_digits(10), num_digits(-5), num_digits(10**12)
    (1, 1, 2, 1, 10)
    """
    n = 1
    while n < 10 and x >= 10**n:
        n += 1
    return n


def _cosize(obj: Any) -> int:
    inner = obj.inner if not isinstance(obj, Layout) else obj
    while not isinstance(inner, Layout):  # C++: cosize of a composed layout is its inner one's
        inner = inner.inner
    try:
        return int(inner.cosize())
    except (CutepyError, TypeError):
        raise CutepyError(
            f"print_layout needs integer offsets; {obj} has basis or symbolic strides"
        ) from None


def layout_table(layout: Any) -> str:
    """The text :func:`print_layout` prints, as a string.

    >>> layout_table(Layout(4, 2)).splitlines()
    ['4:2', '      0   1   2   3 ', '    +---+---+---+---+', ' 0  | 0 | 2 | 4 | 6 |', '    +---+---+---+---+']
    """
    obj = as_layout_like(layout)
    shape = obj.shape
    rank = len(shape) if isinstance(shape, tuple) else 1
    if rank > 2:
        hint = group(obj, 1, rank) if isinstance(obj, Layout) else None
        view = f", e.g. cutepy.group(L, 1, {rank}) = {hint}" if hint is not None else ""
        raise CutepyError(
            f"print_layout prints rank-1 and rank-2 layouts; {obj} has rank {rank}. "
            f"Make a 2-D view first by grouping modes{view}, or slice it with None"
        )
    if rank == 2:
        rows, cols = int_size(shape[0]), int_size(shape[1])
    else:
        rows, cols = 1, int_size(shape)
    width = num_digits(_cosize(obj)) + 2
    idx = np.arange(rows, dtype=np.int64)[:, None] + rows * np.arange(cols, dtype=np.int64)[None, :]
    try:
        values = obj.offsets(idx.ravel()).reshape(rows, cols)
    except CutepyError:
        raise CutepyError(f"print_layout needs integer offsets; {obj} has basis strides") from None
    w = width - 2
    sep = "    " + ("+" + "-" * width) * cols + "+\n"
    out = [f"{obj}\n", "    " + "".join(f"  {n:>{w}} " for n in range(cols)) + "\n"]
    for m in range(rows):
        out.append(sep)
        out.append(f"{m:2d}  " + "".join(f"| {int(v):>{w}} " for v in values[m]) + "|\n")
    out.append(sep)
    return "".join(out)


def print_layout(layout: Any, file: TextIO | None = None) -> None:
    """Print a rank-1 or rank-2 layout as C++ CuTe's ``print_layout`` does.

    Layouts of higher rank raise a :class:`~cutepy.errors.CutepyError` that suggests a
    2-D view (grouping modes).
    """
    (file or sys.stdout).write(layout_table(layout))
