"""Tensors: an engine (a 1-D array, or nothing for a coordinate tensor) seen through a layout.

``Tensor(i)`` is ``engine[offset + layout(i)]``; a coordinate (identity) tensor has no
engine and its values are the coordinates ``offset + layout(i)`` themselves, as C++'s
``ArithmeticTupleIterator`` tensors. A call with a ``None`` anywhere slices, as C++'s ``_``.

>>> T = make_identity_tensor((4, 8))
>>> T
ArithTuple(0,0) o (4,8):(1@0,1@1)
>>> T(5), T(3, 7)
((1,1), (3,7))
>>> T(None, 2)
ArithTuple(0,2) o (4):(1@0)
>>> import numpy as np
>>> A = make_tensor(np.arange(32), Layout((4, 8), (8, 1)))
>>> int(A(1, 2)), size(A)
(10, 32)
>>> local_tile(A, (2, 4), (1, 1)).layout, int(local_tile(A, (2, 4), (1, 1))(0))
((2,4):(8,1), 20)
>>> local_partition(make_identity_tensor((4, 8)), Layout((2, 4)), 3)
ArithTuple(1,1) o (2,2):(2@0,4@1)
"""

from __future__ import annotations

from typing import Any

from ..algebra.casting import make_fragment_like
from ..algebra.coalesce import coalesce
from ..algebra.composition import composition
from ..algebra.divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from ..core import inttuple as it
from ..core.basis import ArithTuple
from ..core.errors import CutepyError
from ..core.layout import (
    Layout,
    _has_none,
    flatten,
    get,
    group,
    make_identity_layout,
    size,
    slice_and_offset,
    take,
)

#: The largest tensor whose values :meth:`Tensor.values` lists at once.
MAX_VALUES = 1 << 22


def _on_layout(op: Any) -> Any:
    """The method applying ``op`` to the tensor's layout, engine and offset kept (C++'s overloads
    for a tensor: ``make_tensor(t.data(), op(t.layout(), args...))``)."""

    def method(self: Tensor, *args: Any) -> Tensor:
        return Tensor(self.engine, op(self.layout, *args), self.offset)

    method.__name__ = method.__qualname__ = f"_{op.__name__}"
    method.__doc__ = f"``{op.__name__}`` of the tensor's layout (as C++)."
    return method


class Tensor:
    """``engine o offset o layout``: CuTe's ``Tensor`` as a plain value.

    ``engine`` is a 1-D numpy array (or anything indexable by int) or ``None`` for a
    coordinate tensor, whose values are coordinates (``ArithTuple``).
    ``offset`` is an int for an array engine and a coordinate for a coordinate tensor.

    >>> import numpy as np
    >>> T = Tensor(np.arange(6), Layout((2, 3), (3, 1)))
    >>> T, int(T(1, 2)), T.shape
    (array[int64] o (2,3):(3,1), 5, (2, 3))
    """

    __slots__ = ("engine", "offset", "layout")

    def __init__(self, engine: Any, layout: Any, offset: Any = 0):
        if not hasattr(layout, "shape") or not callable(layout):
            raise CutepyError(f"a tensor's layout must be a layout, not {layout!r}")
        if engine is not None and getattr(engine, "ndim", 1) != 1:
            raise CutepyError(f"a tensor's engine must be 1-D, got an array of shape {engine.shape}")
        self.engine, self.layout, self.offset = engine, layout, offset

    # -- CuTe's queries ------------------------------------------------------------------
    @property
    def shape(self) -> Any:
        return self.layout.shape

    @property
    def stride(self) -> Any:
        return self.layout.stride

    @property
    def element_type(self) -> Any:
        """The engine's dtype (numpy), or ``"coord"`` for a coordinate tensor."""
        if self.engine is None:
            return "coord"
        return getattr(self.engine, "dtype", type(self.engine[0]) if len(self.engine) else None)

    def size(self) -> Any:
        return self.layout.size()

    def rank(self) -> int:
        return self.layout.rank()

    def __len__(self) -> int:
        return len(self.layout)

    def __getitem__(self, i: int) -> Tensor:
        """Mode ``i`` as a tensor (C++ ``tensor<i>``)."""
        return Tensor(self.engine, self.layout[i], self.offset)

    # -- evaluation ------------------------------------------------------------------
    def __call__(self, *args: Any) -> Any:
        """``T(i)``, ``T(i, j)``, ``T((i, (j, k)))``: the value; a ``None`` slices a sub-tensor."""
        if not args:
            raise CutepyError("a tensor is called with an index or a coordinate")
        crd = args[0] if len(args) == 1 else tuple(args)
        if _has_none(crd):
            return self.slice(crd)
        return self._value(self.offset + self.layout(crd))

    def slice(self, crd: Any) -> Tensor:
        """The sub-tensor left free by the ``None`` leaves of ``crd`` (C++ ``tensor(_, j)``)."""
        sub, off = slice_and_offset(crd, self.layout)
        return Tensor(self.engine, sub, self.offset + off)

    def _value(self, off: Any) -> Any:
        if self.engine is None:
            if isinstance(off, int):
                return off
            return off.as_tuple() if hasattr(off, "as_tuple") else off
        return self.engine[off]

    def values(self) -> list:
        """Every value in colexicographic index order (checked against :data:`MAX_VALUES`)."""
        n = size(self.layout)
        if not isinstance(n, int) or n > MAX_VALUES:
            raise CutepyError(f"tensor of size {n} is too large to list (limit {MAX_VALUES})")
        return [self._value(self.offset + self.layout(i)) for i in range(n)]

    def compose(self, *tilers: Any) -> Tensor:
        """``make_tensor(data, composition(layout, tiler))``; several tilers apply by mode."""
        return composition(self, tilers[0] if len(tilers) == 1 else tuple(tilers))

    # -- the algebra (reached through cutepy.core.layout.own from each public operation) ----
    def _map_layout(self, fn: Any) -> Tensor:
        """``fn`` applied to the tensor's layout, engine and offset kept."""
        return Tensor(self.engine, fn(self.layout), self.offset)

    _composition = _on_layout(composition)
    _coalesce = _on_layout(coalesce)
    _logical_divide = _on_layout(logical_divide)
    _zipped_divide = _on_layout(zipped_divide)
    _tiled_divide = _on_layout(tiled_divide)
    _flat_divide = _on_layout(flat_divide)
    _get = _on_layout(get)
    _take = _on_layout(take)
    _group = _on_layout(group)
    _flatten = _on_layout(flatten)

    def _make_fragment_like(self) -> Tensor:
        """C++'s ``make_fragment_like(tensor)``: a fresh zeroed register tensor of the engine's dtype
        over ``make_fragment_like(layout)``."""
        import numpy as np  # lazy: a register engine is a numpy array

        L = make_fragment_like(self.layout)
        dtype = self.engine.dtype if self.engine is not None and hasattr(self.engine, "dtype") else np.int64
        return Tensor(np.zeros(int(L.cosize()), dtype=dtype), L)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tensor):
            return NotImplemented
        same_engine = self.engine is other.engine or (
            self.engine is not None
            and other.engine is not None
            and len(self.engine) == len(other.engine)
            and all(self.engine == other.engine)
        )
        return same_engine and self.offset == other.offset and self.layout == other.layout

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        if self.engine is None:
            return f"{_fmt_offset(self.offset)} o {self.layout}"
        dtype = getattr(self.engine, "dtype", type(self.engine).__name__)
        at = f"+{self.offset}" if self.offset else ""
        return f"array[{dtype}]{at} o {self.layout}"

    __repr__ = __str__


def _fmt_offset(off: Any) -> str:
    if hasattr(off, "as_tuple"):
        off = off.as_tuple()
    if isinstance(off, tuple):
        return "ArithTuple(" + ",".join(str(x) for x in off) + ")"
    return f"ArithTuple({off})"


def _zero_coord(shape: Any) -> ArithTuple:
    if isinstance(shape, tuple):
        return ArithTuple(_zero_coord(s) if isinstance(s, tuple) else 0 for s in shape)
    return ArithTuple((0,))


# -- construction --------------------------------------------------------------------------


def make_tensor(engine: Any, layout: Any) -> Tensor:
    """A tensor over ``engine`` (a 1-D array) with ``layout`` (a Layout, shape or composed layout).

    Pre:  ``engine`` is 1-D (or ``None`` for a coordinate tensor); every offset of ``layout``
          indexes ``engine`` (checked for array engines, else ``CutepyError``).
    Post: ``result(c) == engine[layout(c)]`` for every coordinate ``c`` of ``layout``.

    >>> import numpy as np
    >>> A = make_tensor(np.arange(8), Layout((2, 4), (4, 1)))
    >>> A, int(A(1, 1))
    (array[int64] o (2,4):(4,1), 5)
    """
    if not hasattr(layout, "offsets"):
        layout = Layout(layout)
    if engine is not None and hasattr(engine, "__len__"):
        n = size(layout)
        if isinstance(n, int) and n and n <= MAX_VALUES:
            offs = layout.offsets()
            if int(offs.min()) < 0 or int(offs.max()) >= len(engine):
                raise CutepyError(
                    f"layout {layout} reaches offsets {int(offs.min())}..{int(offs.max())}, "
                    f"outside the engine of length {len(engine)}"
                )
    return Tensor(engine, layout)


def make_identity_tensor(shape: Any) -> Tensor:
    """The coordinate tensor of ``shape``: its value at a coordinate is the coordinate.

    Pre:  ``shape`` is an IntTuple of positive extents.
    Post: ``result(c) == c`` (as a natural coordinate) for every coordinate ``c`` of ``shape``;
          its layout is ``make_identity_layout(shape)``.

    >>> make_identity_tensor((2, 3)), make_identity_tensor((2, 3))(1, 2)
    (ArithTuple(0,0) o (2,3):(1@0,1@1), (1,2))
    """
    L = make_identity_layout(shape)
    return Tensor(None, L, _zero_coord(shape) if isinstance(shape, tuple) else 0)


def compact_layout(shape: Any) -> Layout:
    """C++ ``make_layout(shape)`` of a static shape: column-major, size-1 leaves get stride 0.

    >>> compact_layout((2, 1, 4))
    (2,1,4):(1,0,2)
    """
    return Layout(shape)  # compact_major: size-1 leaves get stride 0


def flat_coord(layout: Layout, index: int) -> tuple:
    """C++ ``Layout::get_flat_coord``: one coordinate per top-level mode.

    Each leaf's coordinate is ``(index / d) % s`` (C++'s ``idx2crd(index, shape, stride)``,
    which reads the strides; a stride-0 leaf gives 0), and each mode's leaves are folded
    into that mode's colexicographic index (``crd2crd`` to a flat shape).

    >>> flat_coord(Layout((4, 4), (4, 1)), 7)
    (1, 3)
    >>> flat_coord(Layout(((4, 2), 2), ((1, 16), 4)), 21)
    (5, 1)
    """
    modes = layout.shape if isinstance(layout.shape, tuple) else (layout.shape,)
    strides = layout.stride if isinstance(layout.shape, tuple) else (layout.stride,)
    out = []
    for s, d in zip(modes, strides):
        fs, fd = it.flatten_tuple(s), it.flatten_tuple(d)
        crd = [0 if di == 0 else (index // di) % si for si, di in zip(fs, fd)]
        out.append(it.crd2idx(tuple(crd), fs) if len(fs) > 1 else crd[0])
    return tuple(out)


# -- partitions ---------------------------------------------------------------------------


def _rank(t: Any) -> int:
    return len(t) if isinstance(t, tuple) else 1


def _wild(n: int) -> Any:
    return None if n == 1 else (None,) * n


def _append(coord: Any, n: int) -> Any:
    """C++ ``append<n>(coord, _)``."""
    coord = tuple(coord)
    return coord + (None,) * (n - len(coord))


def inner_partition(tensor: Any, tiler: Any, coord: Any) -> Any:
    """``zipped_divide(tensor, tiler)`` sliced at ``(_, coord)``: the tile at ``coord``.

    Pre:  the tiler divides ``tensor``'s shape; ``coord`` is a coordinate of the rest mode.
    Post: the result has the tile's shape and ``result(c) == zipped_divide(tensor, tiler)(c, coord)``.

    >>> inner_partition(make_identity_tensor((4, 8)), (2, 4), (1, 1))
    ArithTuple(2,4) o (2,4):(1@0,1@1)
    """
    z = zipped_divide(tensor, tiler)
    L = z.layout if isinstance(z, Tensor) else z
    r0, r1 = _rank(L.shape[0]), _rank(L.shape[1])
    c = _append(coord, r1) if isinstance(coord, tuple) else coord
    return _slice(z, (_wild(r0), c))


def outer_partition(tensor: Any, tiler: Any, coord: Any) -> Any:
    """``zipped_divide(tensor, tiler)`` sliced at ``(coord, _)``: element ``coord`` of every tile.

    Pre:  the tiler divides ``tensor``'s shape; ``coord`` is a coordinate of the tile mode.
    Post: the result has the rest mode's shape and
          ``result(r) == zipped_divide(tensor, tiler)(coord, r)``.

    >>> outer_partition(make_identity_tensor((4, 8)), (2, 4), (1, 3))
    ArithTuple(1,3) o (2,2):(2@0,4@1)
    """
    z = zipped_divide(tensor, tiler)
    L = z.layout if isinstance(z, Tensor) else z
    r0, r1 = _rank(L.shape[0]), _rank(L.shape[1])
    c = _append(coord, r0) if isinstance(coord, tuple) else coord
    return _slice(z, (c, _wild(r1)))


def _slice(x: Any, crd: Any) -> Any:
    if isinstance(x, Tensor):
        return x.slice(crd)
    return slice_and_offset(crd, x)[0]


def local_tile(tensor: Any, tiler: Any, coord: Any) -> Any:
    """C++ ``local_tile``: the tile of ``tensor`` at ``coord`` (``inner_partition``).

    Pre:  the tiler divides ``tensor``'s shape; ``coord`` indexes the grid of tiles.
    Post: ``result == inner_partition(tensor, tiler, coord)``: the tile's shape, starting at
          ``coord * tiler``.

    >>> local_tile(make_identity_tensor((4, 8)), (2, 4), (1, 0))
    ArithTuple(2,0) o (2,4):(1@0,1@1)
    """
    return inner_partition(tensor, tiler, coord)


def local_partition(tensor: Any, thr_layout: Layout, thr_idx: int) -> Any:
    """C++ ``local_partition``: the elements thread ``thr_idx`` of ``thr_layout`` owns in every tile.

    Pre:  ``0 <= thr_idx < size(thr_layout)`` (else ``CutepyError``); ``shape(thr_layout)``
          divides ``tensor``'s shape.
    Post: ``result == outer_partition(tensor, product_each(shape(thr_layout)),
          thr_layout.get_flat_coord(thr_idx))``.

    >>> local_partition(make_identity_tensor((4, 8)), Layout((2, 4)), 3)
    ArithTuple(1,1) o (2,2):(2@0,4@1)
    """
    if not isinstance(thr_layout, Layout):
        thr_layout = Layout(thr_layout)
    n = size(thr_layout)
    if not 0 <= thr_idx < n:
        raise CutepyError(f"thread index {thr_idx} is outside the thread layout {thr_layout} of size {n}")
    if isinstance(thr_layout.shape, tuple):
        return outer_partition(
            tensor, it.product_each_tuple(thr_layout.shape), flat_coord(thr_layout, thr_idx)
        )
    return outer_partition(tensor, thr_layout.shape, flat_coord(thr_layout, thr_idx)[0])


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "Tensor",
    "inner_partition",
    "local_partition",
    "local_tile",
    "make_identity_tensor",
    "make_tensor",
    "outer_partition",
]
