"""How a layout is seen in two dimensions, and its offsets at chosen indices.

Mode 0 runs down the rows and mode 1 across the columns, as in CuTe's pictures; a
rank-1 (or scalar) layout is one row; a layout of rank 3 or more keeps mode 0 as rows
and groups the other modes as columns (:func:`grid_shapes` says so).

>>> from cutepy import Layout
>>> grid_shapes(Layout((4, 2), (2, 1)))
(4, 2, False)
>>> grid_shapes(Layout(8, 1)), grid_shapes(Layout((2, 3, 4)))
((1, 8, False), (2, (3, 4), True))
>>> values_at(Layout((4, 2), (2, 1)), [[0, 4], [1, 5]])
[[0, 1], [2, 3]]
"""

from __future__ import annotations

from typing import Any

from ..algebra.composed import ComposedLayout, is_layout
from ..core.errors import CutepyError
from ..core.inttuple import format_tuple
from ..core.layout import Layout
from ..core.lazy import load
from ..notation import parse

np = load("numpy")  # numpy loads on first use (the module's import needs none)


def as_layout_like(obj: Any) -> Layout | ComposedLayout:
    """A :class:`Layout` or :class:`ComposedLayout` from one, or from CuTe text."""
    if is_layout(obj):
        return obj
    if isinstance(obj, str):

        parsed = parse(obj)
        if is_layout(parsed):
            return parsed
        raise CutepyError(f"{obj!r} is a tiler, not a layout; draw it with cutepy.viz.show")
    raise CutepyError(f"expected a Layout or a ComposedLayout, got {type(obj).__name__}: {obj!r}")


def grid_shapes(obj: Layout | ComposedLayout) -> tuple[Any, Any, bool]:
    """``(row_shape, col_shape, grouped)``: the shapes along the two picture axes."""
    shape = obj.shape
    if not isinstance(shape, tuple):
        return 1, shape, False
    if len(shape) == 0:
        return 1, 1, False
    if len(shape) == 1:
        return 1, shape[0], False
    if len(shape) == 2:
        return shape[0], shape[1], False
    return shape[0], tuple(shape[1:]), True


def values_at(obj: Layout | ComposedLayout, idx: list[list[int]]) -> list[list[Any]]:
    """``obj(i)`` for every 1-D index of the rows ``idx``, in plain Python (no numpy: a
    picture draws at most a few thousand cells): ints, or coordinates as nested tuples."""
    return [[plain_value(obj(i)) for i in row] for row in idx]


def evaluate(obj: Layout | ComposedLayout, idx: Any) -> Any:
    """``obj(i)`` for every 1-D index in the numpy array ``idx``: int64 when the offsets are
    integers, else an object array of the values (coordinates, for identity layouts)."""
    try:
        return obj.offsets(idx.ravel()).reshape(idx.shape)
    except CutepyError:
        flat = [plain_value(obj(int(i))) for i in idx.ravel()]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        return out.reshape(idx.shape)


def plain_value(value: Any) -> Any:
    """Coordinates as plain nested tuples (basis arithmetic tuples included)."""
    if isinstance(value, tuple):
        return tuple(plain_value(v) for v in value)
    return value


#: a value as CuTe prints it: ints plainly, tuples as ``(a,b)``
fmt = format_tuple
