"""Tensors: an engine (a 1-D array, or nothing for a coordinate tensor) seen through a layout.

``Tensor(i)`` is ``engine[offset + layout(i)]``; a coordinate (identity) tensor has no
engine and its values are the coordinates ``offset + layout(i)`` themselves, as C++'s
``ArithmeticTupleIterator`` tensors. A call with a ``None`` anywhere slices, as C++'s ``_``.

>>> T = make_identity_tensor((4, 8))
>>> T
ArithTuple(0,0) o (4,8):(1@0,1@1)
>>> T(5), T(3, 7)
((1, 1), (3, 7))
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

import numbers
from dataclasses import replace
from typing import Any

from ..algebra.casting import basis_as_int, make_fragment_like, make_layout_like
from ..algebra.coalesce import coalesce
from ..algebra.composed import ComposedLayout, pointer_flag
from ..algebra.composition import composition
from ..algebra.divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from ..core import inttuple as it
from ..core import kinds
from ..core.basis import ArithTuple
from ..core.dynamic import DynamicInt, dynamic
from ..core.errors import CutepyError
from ..core.kinds import TensorKind
from ..core.layout import (
    Layout,
    _has_none,
    dice,
    flatten,
    get,
    group,
    is_static,
    make_identity_layout,
    size,
    slice_and_offset,
    take,
)
from ..core.lazy import load
from .pointer import Iterator, Pointer, as_position_independent_swizzle_layout, element_swizzle

np = load("numpy")  # numpy loads on first use (the module's import needs none)

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


class TransformIter(Iterator):
    """C++'s ``transform_iter``: the values of another engine seen through a function, computed
    when one is read (the engine of :func:`lazy_transform`'s views). ``base`` is the engine it
    reads: ``None`` (a coordinate tensor's), an array, a pointer or another ``TransformIter``."""

    __slots__ = ("fn", "base")

    def __init__(self, fn: Any, base: Any):
        self.fn, self.base = fn, base

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TransformIter) and self.fn is other.fn
                and _same_engine(self.base, other.base))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TransformIter({getattr(self.fn, '__name__', self.fn)!r}, {self.base!r})"


def _same_engine(a: Any, b: Any) -> bool:
    """Whether two engines hold the same values (arrays element by element, iterators as values)."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    if isinstance(a, Iterator) or isinstance(b, Iterator):
        return a == b
    return len(a) == len(b) and bool(all(a == b))


class Tensor(TensorKind):
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
        if isinstance(engine, (numbers.Number, str, bytes, dict)):
            raise CutepyError(f"a tensor's engine must be a 1-D array, a pointer or None, "
                              f"not {_short(engine)}")
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
        if isinstance(self.engine, TransformIter):
            return "transform"
        if isinstance(self.engine, Pointer):
            return self.engine.dtype
        return getattr(self.engine, "dtype", type(self.engine[0]) if len(self.engine) else None)

    def size(self) -> Any:
        return self.layout.size()

    def rank(self) -> int:
        return self.layout.rank()

    def __len__(self) -> int:
        return len(self.layout)

    def __getitem__(self, key: Any) -> Any:
        """``T[i]``: the element at 1-D index ``i``; ``T[i, j]`` / ``T[(i, (j, k))]``: the element at
        that coordinate; a ``None`` anywhere slices (C++ ``operator[]``, the DSL's ``tensor[...]``).

        Mode ``i`` as a tensor is :func:`tensor` (C++ ``tensor<i>(t)``)."""
        return self(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        """``T[i] = v`` / ``T[i, j] = v``: write the element at a 1-D index or a coordinate.

        Only array engines are writable; the index is checked against the tensor's shape and
        the offset against the engine (else ``CutepyError``, nothing written)."""
        if self.engine is None:
            raise CutepyError(f"the coordinate tensor {self} holds no data and cannot be written")
        if isinstance(self.engine, TransformIter):
            raise CutepyError(f"the transform view {self} computes its values and cannot be written")
        if _has_none(key):
            raise CutepyError(f"T[{key!r}] = v writes one element; a None slice cannot be assigned")
        if isinstance(self.engine, Iterator):
            raise CutepyError(f"the tensor {self} holds addresses, not data, and cannot be written")
        off = self._checked_offset(key)
        self.engine[off] = _element_value(self.engine, value, key)

    # -- evaluation ------------------------------------------------------------------
    def __call__(self, *args: Any) -> Any:
        """``T(i)``, ``T(i, j)``, ``T((i, (j, k)))``: the value; a ``None`` slices a sub-tensor."""
        if not args:
            raise CutepyError("a tensor is called with an index or a coordinate")
        crd = args[0] if len(args) == 1 else tuple(args)
        if _has_none(crd):
            return self.slice(crd)
        if self.engine is None:
            return self._value(self.offset + self.layout(crd))
        if isinstance(self.engine, TransformIter):  # fn of the value the viewed tensor holds there
            return self.engine.fn(self._viewed()(crd))
        return self.engine[self._checked_offset(crd)]

    def _viewed(self) -> Tensor:
        """The tensor a transform view reads (its engine's ``base``, the same layout and offset)."""
        return Tensor(self.engine.base, self.layout, self.offset)

    def _checked_offset(self, crd: Any) -> int:
        """The engine index of 1-D index or coordinate ``crd``: the coordinate must lie in the
        shape and the offset in the engine (no wrap-around of negative numpy indices)."""
        n = size(self.layout)
        if type(crd) is int or (not isinstance(crd, tuple) and hasattr(crd, "__index__")):
            try:
                i = crd.__index__()
            except TypeError:  # a numpy array of several values (or of floats)
                raise CutepyError(f"T[{it.short_repr(crd)}]: an index is an integer or a "
                                  "coordinate") from None
            if isinstance(n, int) and not 0 <= i < n:
                raise CutepyError(f"index {it.short_repr(i)} is outside the tensor {self} of size {n}")
        elif isinstance(crd, tuple) and not _in_shape(crd, self.layout.shape):
            raise CutepyError(f"coordinate {it.short_repr(crd)} is outside the shape {self.layout.shape} of "
                              f"tensor {self}")
        off = int(self.offset + self.layout(crd))
        if hasattr(self.engine, "__len__") and not 0 <= off < len(self.engine):
            raise CutepyError(f"coordinate {crd} of tensor {self} reaches offset {off}, outside the "
                              f"engine of length {len(self.engine)}")
        return off

    def slice(self, crd: Any) -> Tensor:
        """The sub-tensor left free by the ``None`` leaves of ``crd`` (C++ ``tensor(_, j)``)."""
        sub, off = slice_and_offset(crd, self.layout)
        return Tensor(self.engine, sub, self.offset + off)

    def _value(self, off: Any) -> Any:
        if self.engine is None:
            if isinstance(off, int):
                return off
            off = off.as_tuple() if hasattr(off, "as_tuple") else off
            return _plain_tuple(off)
        return self.engine[off]

    def values(self) -> list:
        """Every value in colexicographic index order (checked against :data:`MAX_VALUES`).

        Over an array, the elements; over a coordinate tensor, the coordinates. Over a pointer
        (:func:`~cutepy.gmem_ptr`, :func:`~cutepy.smem_ptr`) the values are **byte addresses**,
        ``address + layout(i) * bits / 8`` with a swizzled smem pointer's swizzle applied to the
        bytes (what C++'s ``&tensor(i)`` is), not element offsets; over :func:`~cutepy.tmem_ptr`,
        TMEM addresses (lane in the upper 16 bits, column in the lower).

        >>> from cutepy.kernels.pointer import gmem_ptr
        >>> make_tensor(gmem_ptr("half_t", 0x1000), Layout((2, 2), (2, 1))).values()
        [4096, 4100, 4098, 4102]
        """
        n = size(self.layout)
        if not isinstance(n, int) or n > MAX_VALUES:
            raise CutepyError(f"tensor of size {n} is too large to list (limit {MAX_VALUES})")
        if isinstance(self.engine, TransformIter):
            return [self.engine.fn(v) for v in self._viewed().values()]
        return [self._value(self.offset + self.layout(i)) for i in range(n)]

    def compose(self, *tilers: Any) -> Tensor:
        """``make_tensor(data, composition(layout, tiler))``; several tilers apply by mode."""
        return composition(self, tilers[0] if len(tilers) == 1 else tuple(tilers))

    # -- the algebra (registered below in each operation's table, cutepy.core.kinds) --------
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

    def _make_fragment_like(self, dtype: Any = None) -> Tensor:
        """C++'s ``make_fragment_like(tensor)``: a fresh zeroed register tensor over
        ``make_fragment_like(layout)``, of ``dtype`` (default the engine's, int64 for coordinates)."""
        L = make_fragment_like(self.layout)
        if dtype is None:
            engine = self.engine
            dtype = engine.dtype if engine is not None and hasattr(engine, "dtype") else np.int64
        return Tensor(np.zeros(int(L.cosize()), dtype=dtype), L)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tensor):
            return NotImplemented
        return _same_engine(self.engine, other.engine) and self.offset == other.offset \
            and self.layout == other.layout

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        if self.engine is None:
            return f"{_fmt_offset(self.offset)} o {self.layout}"
        if isinstance(self.engine, TransformIter):  # C++ prints trans_ before the viewed iterator
            return "trans_" + str(self._viewed())
        if isinstance(self.engine, Iterator):  # as C++: the iterator advanced to the tensor's start
            return f"{self.engine + self.offset} o {self.layout}"
        dtype = getattr(self.engine, "dtype", type(self.engine).__name__)
        at = f"+{self.offset}" if self.offset else ""
        return f"array[{dtype}]{at} o {self.layout}"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        """``format(T, "cxx")``: the tensor with its layout as C++ prints it (``_N`` static ints)."""
        return it.format_value(self, spec, self._cxx_text)

    def _cxx_text(self) -> str:
        if isinstance(self.engine, TransformIter):
            return "trans_" + self._viewed()._cxx_text()
        if self.engine is None:
            return f"{_fmt_offset(self.offset, True)} o {format(self.layout, 'cxx')}"
        text = str(self)
        return text[: len(text) - len(str(self.layout))] + format(self.layout, "cxx")

    def _is_static(self) -> bool:
        return is_static(self.layout)


# a tensor's variants of the operations (C++'s overloads): each applies to the layout
for _table, _variant in (
    (kinds.MAP_LAYOUT, Tensor._map_layout), (kinds.COMPOSITION, Tensor._composition),
    (kinds.COALESCE, Tensor._coalesce), (kinds.LOGICAL_DIVIDE, Tensor._logical_divide),
    (kinds.ZIPPED_DIVIDE, Tensor._zipped_divide), (kinds.TILED_DIVIDE, Tensor._tiled_divide),
    (kinds.FLAT_DIVIDE, Tensor._flat_divide), (kinds.GET, Tensor._get), (kinds.TAKE, Tensor._take),
    (kinds.GROUP, Tensor._group), (kinds.FLATTEN, Tensor._flatten),
    (kinds.MAKE_FRAGMENT_LIKE, Tensor._make_fragment_like), (kinds.IS_STATIC, Tensor._is_static),
):
    _table.register(Tensor, _variant)


def _short(x: Any) -> str:
    return it.short_repr(x)


def _element_value(engine: Any, value: Any, key: Any) -> Any:
    """``value`` as an element of ``engine`` (a numpy array): a real number that the engine's
    dtype holds exactly in range (an integer engine takes integers, or floats of integral value),
    else ``CutepyError`` naming the value, so numpy never converts text, ``None`` or a complex
    number, nor wraps, truncates or overflows."""
    dtype = getattr(engine, "dtype", None)
    if dtype is None:
        return value
    kind = np.dtype(dtype).kind
    if kind not in "biufc":  # an object (or text) engine holds what the caller puts there
        return value
    is_real = isinstance(value, (numbers.Real, np.bool_)) and not isinstance(value, np.ndarray)
    is_number = is_real or (kind == "c" and isinstance(value, numbers.Complex))
    if not is_number:
        raise CutepyError(f"T[{key!r}] = {_short(value)}: the value must be a number, the element of an "
                          f"array of {dtype}")
    if kind in "iub":
        if not isinstance(value, (numbers.Integral, np.bool_)):
            f = float(value)
            if not (f == f and abs(f) != float("inf") and f.is_integer()):
                raise CutepyError(f"T[{key!r}] = {_short(value)}: an array of {dtype} holds integers, "
                                  "and this value is not one")
        n = int(value)
        if kind == "b" and n not in (0, 1):
            raise CutepyError(f"T[{key!r}] = {_short(value)}: an array of bool holds 0 and 1 (True, False)")
        if kind in "iu":
            info = np.iinfo(dtype)
            if not info.min <= n <= info.max:
                raise CutepyError(f"T[{key!r}] = {_short(value)}: outside the range {info.min}..{info.max} "
                                  f"of {dtype}")
        value = n
    elif kind in "fc":
        try:
            with np.errstate(over="raise"):
                converted = np.asarray(value).astype(dtype)
        except (OverflowError, FloatingPointError):
            converted = None
        overflowed = converted is not None and np.isinf(converted).any()
        if converted is None or (overflowed and not np.isinf(np.asarray(value, dtype=complex)).any()):
            raise CutepyError(f"T[{key!r}] = {_short(value)}: beyond the range of {dtype}")
    return value


def _plain_tuple(x: Any) -> Any:
    """A coordinate as plain nested tuples (what ``elem_less`` and the tuple functions take)."""
    return tuple(_plain_tuple(y) for y in x) if isinstance(x, tuple) else x


def _in_shape(crd: Any, shape: Any) -> bool:
    """Whether ``crd`` (congruent to a prefix of ``shape``'s nesting, ints at the leaves or a
    1-D index for a whole sub-shape) lies in ``shape``."""
    if isinstance(crd, tuple):
        if not isinstance(shape, tuple) or len(crd) != len(shape):
            return False
        return all(_in_shape(c, s) for c, s in zip(crd, shape))
    n = it.product(shape) if isinstance(shape, tuple) else shape
    if not it.is_integer(crd) or isinstance(crd, bool):
        raise CutepyError(f"coordinate leaf {it.short_repr(crd)} is not an integer")
    return not isinstance(n, int) or 0 <= int(crd) < n


def _fmt_offset(off: Any, cxx: bool = False) -> str:
    """A coordinate tensor's origin as C++ prints it (``cxx``: ``_0`` for a static coordinate)."""
    if hasattr(off, "as_tuple"):
        off = off.as_tuple()
    if isinstance(off, tuple):
        return "ArithTuple(" + ",".join(it.format_tuple(x, cxx) for x in off) + ")"
    return f"ArithTuple({it.format_tuple(off, cxx)})"


def _zero_coord(shape: Any) -> ArithTuple:
    if isinstance(shape, tuple):
        return ArithTuple(_zero_coord(s) if isinstance(s, tuple) else 0 for s in shape)
    return ArithTuple((0,))


# -- construction --------------------------------------------------------------------------


def make_tensor(engine: Any, layout: Any) -> Tensor:
    """A tensor over ``engine`` (a 1-D array or a pointer) with ``layout`` (a Layout, shape or
    composed layout); over a pointer (:func:`cutepy.gmem_ptr`, ``smem_ptr``, ``tmem_ptr``) its
    values are addresses, and a pointer-flag layout ``Sw o smem_ptr[b](unset) o L`` puts its
    swizzle on the pointer, as C++. An array engine stands for shared memory of ``b``-bit
    elements there (a simulation): the swizzle acts on its element offsets, recast from bytes
    (``as_position_independent_swizzle_layout``), so the data sit where C++'s bytes do.

    Pre:  ``engine`` is 1-D (or ``None`` for a coordinate tensor); every offset of ``layout``
          indexes ``engine`` (checked for array engines, else ``CutepyError``).
    Post: ``result(c) == engine[layout(c)]`` for every coordinate ``c`` of ``layout`` (of its
          element form, for a pointer-flag layout over an array).

    >>> import numpy as np
    >>> A = make_tensor(np.arange(8), Layout((2, 4), (4, 1)))
    >>> A, int(A(1, 1))
    (array[int64] o (2,4):(4,1), 5)
    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> G = make_tensor(gmem_ptr("half_t", 0x1000), Layout((2, 4), (4, 1)))
    >>> G, G(1, 1)
    (gmem_ptr[16b](0x1000) o (2,4):(4,1), 4106)
    """
    if not hasattr(layout, "offsets"):
        layout = Layout(layout)
    if isinstance(engine, (numbers.Number, str, bytes, dict)) or (
        engine is not None and not isinstance(engine, Iterator) and not hasattr(engine, "__getitem__")
    ):
        raise CutepyError(f"make_tensor: the engine must be a 1-D array, a pointer or None, "
                          f"not {_short(engine)}")
    if isinstance(engine, Pointer):  # addresses: a pointer-flag swizzle moves onto the pointer
        engine, layout = engine.bind(layout)
        return Tensor(engine, layout)
    if getattr(engine, "ndim", 1) != 1:
        raise CutepyError(f"make_tensor: the engine must be 1-D, got an array of shape {engine.shape}")
    if engine is not None and pointer_flag(layout) is not None:  # data: the swizzle on elements
        layout = as_position_independent_swizzle_layout(layout)
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


def as_position_independent_swizzle_tensor(t: Tensor) -> Tensor:
    """C++ ``as_position_independent_swizzle_tensor``: an smem tensor whose swizzle acts on
    byte addresses through its pointer (``Sw<B,M,S>_smem_ptr o L``) as a plain smem pointer
    under the swizzle recast to element offsets (``smem_ptr o Sw<B,M-log2(b/8),S> o 0 o L``),
    which a TiledCopy partitions and slices like any layout (the wgmma_sm90 tutorial's cp.async
    destination). A tensor without a swizzle comes back as it is.

    An array engine stands for shared memory (a simulation): its pointer-flag layout
    ``Sw o smem_ptr[b](unset) o L`` becomes ``as_position_independent_swizzle_layout`` of it.

    Pre:  ``t`` is a tensor over an ``smem_ptr`` (C++'s "Expected smem tensor.") or an array;
          a swizzled pointer's address at the tensor's start is aligned to the swizzle's base,
          Y and Z bits (C++'s assert), else ``CutepyError``.
    Post: ``result(c)`` is the element whose byte address ``t`` gives at ``c``: for a swizzled
          pointer ``p``, ``result.engine[result.layout(c)] == t.engine[t.offset + t.layout(c)]``.

    >>> from cutepy.kernels.pointer import smem_ptr
    >>> from cutepy.algebra.swizzle import ComposedLayout, SmemPtrFlag, Swizzle
    >>> sA = make_tensor(smem_ptr("half_t", 0x400),
    ...                  ComposedLayout(Swizzle(3, 4, 3), SmemPtrFlag(16), Layout((64, 8), (1, 64))))
    >>> sA, as_position_independent_swizzle_tensor(sA)
    (Sw<3,4,3>_smem_ptr[16b](0x400) o (64,8):(1,64), smem_ptr[16b](0x400) o Sw<3,3,3> o 0 o (64,8):(1,64))
    """
    if not isinstance(t, Tensor):
        raise CutepyError(f"as_position_independent_swizzle_tensor takes a tensor, not {t!r}")
    p = t.engine
    if not isinstance(p, Pointer):
        if p is None:
            raise CutepyError(f"{t} is a coordinate tensor, not a shared-memory tensor "
                              "(C++: Expected smem tensor.)")
        if pointer_flag(t.layout) is None:
            return t
        return Tensor(p, as_position_independent_swizzle_layout(t.layout), t.offset)
    if p.space != "smem":
        raise CutepyError(f"{t} is over a {p.space} pointer (C++: Expected smem tensor.)")
    if p.swizzle is None or p.swizzle.bits == 0:
        return t
    sw = p.swizzle
    start = replace(p, swizzle=None) + t.offset
    mask = ((1 << sw.base) - 1) | sw.yyy_mask | sw.zzz_mask
    if start.address & mask:
        raise CutepyError(
            f"{t} starts at smem address {start.address:#x}, not aligned to its swizzle {sw} "
            f"(address & {mask:#x} must be 0: C++'s assert in as_position_independent_swizzle_tensor)"
        )
    return Tensor(start, ComposedLayout(element_swizzle(sw, p.bits), 0, t.layout))


def make_identity_tensor(shape: Any) -> Tensor:
    """The coordinate tensor of ``shape``: its value at a coordinate is the coordinate.

    Pre:  ``shape`` is an IntTuple of positive extents.
    Post: ``result(c) == c`` (as a natural coordinate) for every coordinate ``c`` of ``shape``;
          its layout is ``make_identity_layout(shape)``.

    >>> make_identity_tensor((2, 3)), make_identity_tensor((2, 3))(1, 2)
    (ArithTuple(0,0) o (2,3):(1@0,1@1), (1, 2))
    """
    L = make_identity_layout(shape)
    return Tensor(None, L, _zero_coord(shape) if isinstance(shape, tuple) else 0)


def lazy_transform(t: Tensor, fn: Any) -> Tensor:
    """C++'s ``cute::lazy::transform(t, fn)`` (also ``cutepy.lazy.transform``): the view of ``t``
    whose value at each coordinate is ``fn`` of ``t``'s value there, computed when it is read.

    The view keeps ``t``'s layout and offset, so every partition of it (``local_tile``,
    ``local_partition``, ``partition_S``, slices, divides) is the same partition of ``t`` seen
    through ``fn``: CUTLASS's tiled_copy_if builds its predicate tensor this way from an
    identity tensor. It prints as C++ does, ``trans_`` before the viewed iterator; it cannot be
    written.

    Pre:  ``t`` is a tensor and ``fn`` a function of one value (else ``CutepyError``).
    Post: ``result(c) == fn(t(c))`` for every coordinate ``c``; ``result.layout == t.layout``;
          ``partition(result)(c) == fn(partition(t)(c))`` for every partition.

    >>> from cutepy import elem_less
    >>> P = lazy_transform(make_identity_tensor((3, 5)), lambda c: elem_less(c, (2, 4)))
    >>> P, P(1, 3), P(2, 0)
    (trans_ArithTuple(0,0) o (3,5):(1@0,1@1), True, False)
    >>> local_tile(P, (2, 2), (1, 1))
    trans_ArithTuple(2,2) o (2,2):(1@0,1@1)
    """
    if not isinstance(t, Tensor):
        raise CutepyError(f"lazy_transform views a tensor, not {t!r}")
    if not callable(fn):
        raise CutepyError(f"lazy_transform needs a function of one value, not {fn!r}")
    return Tensor(TransformIter(fn, t.engine), t.layout, t.offset)


def tensor(t: Tensor, *modes: int) -> Tensor:
    """C++ ``tensor<I...>(t)``: mode ``I`` (of mode ``J`` ...) of a tensor, as a tensor.

    (``t[i]`` is the element at 1-D index ``i``, as C++'s ``operator[]`` and the DSL.)

    Pre:  ``t`` is a Tensor; each index is a mode of what it selects from (else ``CutepyError``).
    Post: same engine and offset; ``result.layout == layout<I...>(t.layout)``.

    >>> import numpy as np
    >>> tensor(make_tensor(np.arange(8), Layout((2, (2, 2)), (4, (2, 1)))), 1, 0)
    array[int64] o 2:2
    """
    if not isinstance(t, Tensor):
        raise CutepyError(f"tensor<I>(t) takes a tensor, not {t!r}")
    L = t.layout
    for i in modes:
        n = len(L.shape) if isinstance(L.shape, tuple) else 1
        if type(i) is not int or not 0 <= i < n:
            raise CutepyError(f"mode {i!r} is not one of the {n} modes of {L}")
        L = L[i] if isinstance(L.shape, tuple) else L
    return Tensor(t.engine, L, t.offset)


def make_tensor_like(x: Any, dtype: Any = None) -> Tensor:
    """C++ ``make_tensor_like``: a zeroed register tensor with ``x``'s shape and a compact layout
    ordered like ``x``'s strides (``make_layout_like``; a coordinate tensor's basis strides are
    ordered by coordinate mode).

    Pre:  ``x`` is a Tensor or a Layout; ``dtype`` a numpy dtype (default: ``x``'s engine
          dtype, int64 for a coordinate tensor or a layout).
    Post: ``shape(result) == shape(x)``; the layout is compact (every value its own element);
          stride-0 modes of ``x`` stay stride 0.

    >>> make_tensor_like(Layout((4, 2), (2, 1)))
    array[int64] o (4,2):(2,1)
    >>> make_tensor_like(make_identity_tensor((4, 8)), bool)
    array[bool] o (4,8):(1,4)
    """
    L = x.layout if isinstance(x, Tensor) else x
    like = make_layout_like(basis_as_int(L) if type(L) is Layout else L)
    if dtype is None:
        dtype = x.engine.dtype if isinstance(x, Tensor) and hasattr(x.engine, "dtype") else np.int64
    return Tensor(np.zeros(max(int(like.cosize()), 1), dtype=dtype), like)


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


def thread_index(thr_idx: Any, static: bool = False, what: str = "thread index") -> int:
    """The thread index a partition reads: run-time by default, as in every kernel.

    A kernel's ``threadIdx.x`` (and C++'s literal ``get_slice(5)``, an ``int``) is known only at
    run time; C++'s partitions of a run-time index can differ in form from those of a static
    ``Int<5>`` (a swizzle that folds into strides only when the offset is known, modes that merge
    only when strides are static), so a plain ``int`` is read as the kernel reads it: a
    :func:`~cutepy.dynamic` integer. ``static=True`` gives C++'s ``Int<N>`` (the CuTe DSL's
    Python-int constant) instead.

    Pre:  ``thr_idx`` is a non-negative ``int`` (a :func:`~cutepy.dynamic` one too; else
          ``CutepyError`` naming ``what``).
    Post: ``result == thr_idx``; a :class:`~cutepy.DynamicInt` unless ``static``, then a plain int.

    >>> type(thread_index(5)).__name__, type(thread_index(5, static=True)).__name__
    ('DynamicInt', 'int')
    """
    if not isinstance(thr_idx, int) or type(thr_idx) is bool or thr_idx < 0:
        raise CutepyError(f"{what} {thr_idx!r} must be a non-negative int")
    if static:
        return int(thr_idx)
    return thr_idx if type(thr_idx) is DynamicInt else dynamic(thr_idx)


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


def _project(proj: Any, x: Any, what: str) -> Any:
    """C++ ``dice(proj, x)`` for ``local_tile``/``local_partition``'s projection ``Step<...>``:
    the modes of ``x`` where ``proj`` is not ``None`` (C++'s ``X``)."""
    if not isinstance(proj, tuple) or not isinstance(x, tuple) or len(proj) != len(x):
        raise CutepyError(f"the projection {proj!r} must have one entry (1 or None) per mode of the "
                          f"{what} {x!r}")
    return tuple(xi for p, xi in zip(proj, x) if p is not None)


def local_tile(tensor: Any, tiler: Any, coord: Any, proj: Any = None) -> Any:
    """C++ ``local_tile``: the tile of ``tensor`` at ``coord`` (``inner_partition``).

    ``proj`` is C++'s ``Step<_1,X,_1>``, spelled ``(1, None, 1)`` as the CuTe DSL: the tiler and
    the coordinate keep only the modes where it is not ``None`` (the GEMM's
    ``local_tile(mA, cta_tiler, cta_coord, Step<_1,X,_1>{})``). A ``None`` in ``coord`` keeps
    that mode of tiles (C++'s ``_``).

    Pre:  the tiler divides ``tensor``'s shape; ``coord`` indexes the grid of tiles; ``proj``
          has one entry per mode of the tiler and of the coordinate (else ``CutepyError``).
    Post: ``result == inner_partition(tensor, dice(proj, tiler), dice(proj, coord))``: the tile's
          shape, starting at ``coord * tiler``, then the modes ``coord`` leaves free.

    >>> local_tile(make_identity_tensor((4, 8)), (2, 4), (1, 0))
    ArithTuple(2,0) o (2,4):(1@0,1@1)
    >>> local_tile(make_identity_tensor((8, 4)), (2, 3, 2), (1, 0, None), proj=(1, None, 1))
    ArithTuple(2,0) o (2,2,2):(1@0,1@1,2@1)
    """
    if proj is not None:
        tiler, coord = _project(proj, tiler, "tiler"), _project(proj, coord, "coordinate")
    return inner_partition(tensor, tiler, coord)


def local_partition(tensor: Any, thr_layout: Layout, thr_idx: int, proj: Any = None, *,
                    static: bool = False) -> Any:
    """C++ ``local_partition``: the elements thread ``thr_idx`` of ``thr_layout`` owns in every tile.

    As in C++, the thread index is read through the thread layout's strides, so an index past
    its size wraps (``local_partition(t, Layout(16), 37)`` is thread 5's part). ``proj``
    (C++'s ``Step<...>``, e.g. ``(1, None)``) keeps the thread layout's modes where it is not
    ``None``: ``local_partition(tensor, dice(proj, thr_layout), thr_idx)``. The thread index is
    run-time, as a kernel's ``threadIdx.x`` (:func:`thread_index`); ``static=True`` reads it as
    C++'s ``Int<N>``.

    Pre:  ``thr_idx >= 0`` (else ``CutepyError``); ``shape(thr_layout)`` divides ``tensor``'s shape.
    Post: ``result == outer_partition(tensor, product_each(shape(thr_layout)),
          thr_layout.get_flat_coord(thr_idx))``.

    >>> local_partition(make_identity_tensor((4, 8)), Layout((2, 4)), 3)
    ArithTuple(1,1) o (2,2):(2@0,4@1)
    >>> local_partition(make_identity_tensor(32), Layout(16), 37)
    ArithTuple(5) o (2):(16)
    """
    if not isinstance(thr_layout, Layout):
        thr_layout = Layout(thr_layout)
    if proj is not None:
        if not isinstance(thr_layout.shape, tuple) or len(proj) != len(thr_layout.shape):
            raise CutepyError(f"the projection {proj!r} must have one entry per mode of {thr_layout}")
        thr_layout = dice(proj, thr_layout)  # stays a tuple: its modes tile the tensor's by mode
    thr_idx = thread_index(thr_idx, static)
    if isinstance(thr_layout.shape, tuple):
        return outer_partition(
            tensor, it.product_each_tuple(thr_layout.shape), flat_coord(thr_layout, thr_idx)
        )
    return outer_partition(tensor, thr_layout.shape, flat_coord(thr_layout, thr_idx)[0])


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "as_position_independent_swizzle_tensor",
    "make_tensor_like",
    "tensor",
    "Tensor",
    "thread_index",
    "inner_partition",
    "lazy_transform",
    "local_partition",
    "local_tile",
    "make_identity_tensor",
    "make_tensor",
    "outer_partition",
]
