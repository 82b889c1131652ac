"""``print_layout``: the console table of C++ CuTe, byte for byte.

For a rank-2 layout the first line is the layout itself, then a header of column
indices, then for each row a ``+---+`` separator and the offsets ``| v |``; every
cell is ``num_digits(cosize) + 2`` characters wide, where ``num_digits`` is CuTe's
(1 for anything below 10). A rank-1 (or scalar) layout prints as a single row.

Big layouts are elided before anything is allocated: beyond ``limit`` rows (columns)
the table keeps the first and last ones, puts ``...`` in the gap, and ends with a line
saying what was left out. ``limit`` is :data:`TABLE_LIMIT` (64) per axis by default;
``limit=None`` prints every cell, up to :data:`MAX_TABLE_CELLS`, beyond which it raises
a :class:`~cutepy.CutepyError` naming the limit (pass ``limit`` to elide instead).
Up to the limit the table is C++'s, byte for byte.

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

from ..core.errors import CutepyError
from ..core.layout import Layout, group, size
from .grid import Axis, check_grid, int_size, make_axis
from .view import as_layout_like

#: Rows (and columns) a table shows before eliding the middle ones.
TABLE_LIMIT = 64

#: The most cells a table prints with ``limit=None``; larger ones must elide.
MAX_TABLE_CELLS = 1 << 20


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


def layout_table(layout: Any, limit: int | None = TABLE_LIMIT) -> str:
    """The text :func:`print_layout` prints, as a string.

    Pre:  ``layout`` has rank 1 or 2 and integer offsets; ``limit`` is None or at least 2.
    Post: at most ``limit`` rows and columns of offsets; an elided table marks each gap
          with ``...`` and ends with one line ``elided: ...`` naming what it left out.

    >>> layout_table(Layout(4, 2)).splitlines()
    ['4:2', '      0   1   2   3 ', '    +---+---+---+---+', ' 0  | 0 | 2 | 4 | 6 |', '    +---+---+---+---+']
    >>> print(layout_table(Layout((6, 6), (6, 1)), limit=4), end='')   # doctest: +NORMALIZE_WHITESPACE
    (6,6):(6,1)
          0    1   ...   4    5
        +----+----+-----+----+----+
     0  |  0 |  1 | ... |  4 |  5 |
        +----+----+-----+----+----+
     1  |  6 |  7 | ... | 10 | 11 |
        +----+----+-----+----+----+
    ...
        +----+----+-----+----+----+
     4  | 24 | 25 | ... | 28 | 29 |
        +----+----+-----+----+----+
     5  | 30 | 31 | ... | 34 | 35 |
        +----+----+-----+----+----+
    elided: rows 2..3 of 6, columns 2..3 of 6 (limit 4 per axis; limit=None shows all)
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
    row_shape, col_shape = (shape[0], shape[1]) if rank == 2 else (1, shape)
    rows, cols = int_size(row_shape), int_size(col_shape)
    if limit is None and rows * cols > MAX_TABLE_CELLS:
        raise CutepyError(
            f"print_layout of {obj} would print {rows * cols} cells, more than "
            f"cutepy.viz.text.MAX_TABLE_CELLS = {MAX_TABLE_CELLS}; pass limit=N to elide"
        )
    rax, cax = make_axis(rows, limit, coords=False), make_axis(cols, limit, coords=False)
    width = num_digits(_cosize(obj)) + 2
    check_grid(rax, cax)
    values = [[obj(m + rows * n) for n in cax.shown] for m in rax.shown]  # plain Python: no numpy
    values = [[int(v) if isinstance(v, int) else v for v in row] for row in values]  # run-time ints
    if not all(type(v) is int for row in values for v in row):
        raise CutepyError(f"print_layout needs integer offsets; {obj} has basis or symbolic strides")
    w = width - 2

    dots = max(width, 5)
    head = [f"  {int(n):>{w}} " for n in cax.shown]
    if cax.gap is not None:
        head = head[:cax.gap] + [f"{'...':^{dots + 1}}"] + head[cax.gap:]
    rule = "+" + "-" * width
    seps = [rule] * len(cax.shown)
    if cax.gap is not None:
        seps = seps[:cax.gap] + ["+" + "-" * dots] + seps[cax.gap:]
    sep = "    " + "".join(seps) + "+\n"
    out = [f"{obj}\n", "    " + "".join(head) + "\n"]
    for k, m in enumerate(rax.shown):
        if k == rax.gap:
            out.append(sep + "...\n")
        row = [f"| {int(v):>{w}} " for v in values[k]]
        if cax.gap is not None:
            row = row[:cax.gap] + [f"| {'...':^{dots - 2}} "] + row[cax.gap:]
        out.append(sep)
        out.append(f"{int(m):2d}  " + "".join(row) + "|\n")
    out.append(sep)
    gaps = [_gap_note(a, what) for a, what in ((rax, "rows"), (cax, "columns")) if a.gap is not None]
    if gaps:
        out.append(f"elided: {', '.join(gaps)} (limit {limit} per axis; limit=None shows all)\n")
    return "".join(out)


def _gap_note(axis: Axis, what: str) -> str:
    lo, hi = int(axis.shown[axis.gap - 1]) + 1, int(axis.shown[axis.gap]) - 1
    return f"{what} {lo}..{hi} of {axis.size}"


def print_layout(layout: Any, file: TextIO | None = None, limit: int | None = TABLE_LIMIT) -> None:
    """Print a rank-1 or rank-2 layout as C++ CuTe's ``print_layout`` does (eliding
    beyond ``limit`` rows or columns, see :func:`layout_table`).

    Pre:  ``layout`` has rank at most 2 (else ``CutepyError``, suggesting a 2-D view by
          grouping modes).
    Post: writes the layout, then a grid whose cell ``(m, n)`` is ``layout(m, n)``, to
          ``file`` (default stdout); returns ``None``.

    >>> print_layout(Layout((2, 3), (3, 1)))  # doctest: +NORMALIZE_WHITESPACE
    (2,3):(3,1)
          0   1   2
        +---+---+---+
     0  | 0 | 1 | 2 |
        +---+---+---+
     1  | 3 | 4 | 5 |
        +---+---+---+
    """
    (file or sys.stdout).write(layout_table(layout, limit))


def _pretty(v: Any) -> str:
    """C++ ``pretty_print`` of one element: ints ``%5d``, bools ``%3d``, half ``%8.2f``,
    float ``%10.2e``, double ``%11.3e``; anything else two spaces then its print."""
    kind = getattr(getattr(v, "dtype", None), "kind", None)
    name = getattr(getattr(v, "dtype", None), "name", "")
    if kind == "b" or isinstance(v, bool):
        return f"{int(v):3d}"
    if kind in ("i", "u") or type(v) is int:
        return f"{int(v):5d}"
    if name == "float16":
        return f"{float(v):8.2f}"
    if name == "float32":
        return f"{float(v):10.2e}"
    if kind == "f" or isinstance(v, float):
        return f"{float(v):11.3e}"
    if isinstance(v, tuple):
        return "  (" + ",".join(str(x) for x in v) + ")"
    return f"  {v}"


def tensor_table(tensor: Any) -> str:
    """C++ ``print_tensor``'s text: the tensor, then its values by rows (rank 1: one per line;
    rank 2: rows of ``m``; ranks 3 and 4: the rank-2 slices, separated by ``-`` / ``=`` lines).

    Pre:  ``tensor`` is a cutepy Tensor of rank 1 to 4 with at most ``MAX_TABLE_CELLS`` values
          (else ``CutepyError``).
    Post: the text C++ ``print_tensor`` writes, element formats as C++'s ``pretty_print``.

    >>> import numpy as np
    >>> from cutepy import make_tensor
    >>> print(tensor_table(make_tensor(np.arange(6), Layout((2, 3)))), end="")
    array[int64] o (2,3):(1,2):
        0    2    4
        1    3    5
    """
    L = tensor.layout
    r = len(L.shape) if isinstance(L.shape, tuple) else 1
    if not 1 <= r <= 4:
        raise CutepyError(f"print_tensor prints tensors of rank 1 to 4, not {r} ({tensor})")
    n = size(L)
    if not isinstance(n, int) or n > MAX_TABLE_CELLS:
        raise CutepyError(f"print_tensor: {n} values exceed the limit of {MAX_TABLE_CELLS}")
    return f"{tensor}:\n" + _tensor_body(tensor, r)


def _tensor_body(t: Any, r: int) -> str:
    L = t.layout
    if r == 1:
        return "".join(_pretty(t(m)) + "\n" for m in range(size(L)))
    if r == 2:
        return "".join("".join(_pretty(t(m, k)) for k in range(size(L[1]))) + "\n"
                       for m in range(size(L[0])))
    sep, cut = ("-", 2) if r == 3 else ("=", 3)
    parts = []
    for k in range(size(L[cut])):
        crd = (None,) * cut + (k,)
        parts.append(_tensor_body(t.slice(crd), r - 1))
    line = sep * (5 * size(L[1])) + "\n"
    return line.join(parts)


def print_tensor(tensor: Any, file: TextIO | None = None) -> None:
    """Print a tensor as C++ CuTe's ``print_tensor`` does (see :func:`tensor_table`).

    Pre:  as :func:`tensor_table`.
    Post: writes the text to ``file`` (default stdout); returns ``None``.

    >>> import numpy as np
    >>> from cutepy import make_tensor
    >>> print_tensor(make_tensor(np.array([True, False]), Layout(2)))
    array[bool] o 2:1:
      1
      0
    """
    (file or sys.stdout).write(tensor_table(tensor))
