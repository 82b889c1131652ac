"""Immutable XLA shapes and layouts that print in XLA's canonical text form.

The objects mirror XLA's ``Shape``/``Layout`` protos: :class:`ArrayShape`,
:class:`TupleShape`, :class:`BufferShape` (``b(...)``), :class:`XlaLayout` (named so
to stay apart from the CuTe ``Layout``), :class:`Tile` and :class:`SplitConfig`.
``str(x)`` is exactly what XLA prints; :func:`cutepy.xla.parse_shape` reads it back.

>>> t = Tile((2, COMBINE_DIM, 128))
>>> str(t), t.dims[1] == COMBINE_DIM
('(2,*,128)', True)
>>> lay = XlaLayout((1, 0), tiles=((8, 128), (2, 1)), memory_space=1)
>>> str(ArrayShape("BF16", (16, 128), layout=lay))
'bf16[16,128]{1,0:T(8,128)(2,1)S(1)}'
>>> str(ArrayShape("f32", (4, 4), dynamic=(False, True)))
'f32[4,<=4]'
>>> str(TupleShape((ArrayShape("f32", ()), BufferShape(ArrayShape("s8", (2,))))))
'(f32[], b(s8[2]))'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ..core.errors import CutepyError, LayoutError
from ..core.inttuple import is_symbolic_leaf
from ..core.lazy import load
from .types import ElementType, element_type

#: substitution (it loads sympy), on first use
_subst = load("cutepy.core.symbolic.subst")

#: Tile dimension that merges a dim into the next more minor one; XLA stores
#: ``INT64_MIN`` and prints ``*`` (the docs call it -1, which :class:`Tile` accepts).
COMBINE_DIM: Final[int] = -(2**63)

#: Size XLA stores for an unbounded dynamic dimension (printed ``?``).
UNBOUNDED_DIM: Final[int] = -(2**63)

INT64_MAX: Final[int] = 2**63 - 1


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _dim_tuple(values: Iterable[Any], what: str) -> tuple[Any, ...]:
    """Dimension sizes: ints, or symbolic sizes (``Sym``) that the declared facts prove positive."""
    try:
        out = tuple(values)
    except TypeError:
        raise LayoutError(f"{what} must be a sequence of integers, got {values!r}") from None
    if all(type(v) is int for v in out):
        return out
    dims = []
    for v in out:
        if is_symbolic_leaf(v):
            if not v >= 1:  # decided from the facts, or Undecided naming the fact
                raise LayoutError(f"{what} {out} has a size {v} that is never positive")
        elif not _is_int(v):
            raise LayoutError(f"{what} must hold integers or symbolic sizes, got {v!r}")
        dims.append(v)
    return tuple(dims)


def _int_tuple(values: Iterable[int], what: str) -> tuple[int, ...]:
    try:
        out = tuple(values)
    except TypeError:
        raise LayoutError(f"{what} must be a sequence of integers, got {values!r}") from None
    for v in out:
        if not _is_int(v):
            raise LayoutError(f"{what} must hold integers, got {v!r}")
    return out


@dataclass(frozen=True)
class Tile:
    """One tiling level: its dims, major to minor; :data:`COMBINE_DIM` marks ``*``.

    >>> Tile((8, 128))
    Tile(dims=(8, 128))
    >>> str(Tile((-1, 3)))
    '(*,3)'
    >>> Tile((8, 0))
    Traceback (most recent call last):
      ...
    cutepy.LayoutError: tile dimension must be positive or '*', got 0

    A tile is its dims, as a tuple is (XLA's ``Tile::dimensions()``): it iterates, indexes
    and compares like the tuple of its dims. Like XLA (``layout has invalid tiles``), a
    tile has at least one dim.

    >>> rows, lanes = Tile((8, 128))
    >>> rows, lanes, Tile((8, 128)) == (8, 128), len(Tile((2, 1)))
    (8, 128, True, 2)
    """

    dims: tuple[int, ...]

    def __post_init__(self) -> None:
        dims = tuple(COMBINE_DIM if d == -1 else d for d in _int_tuple(self.dims, "tile"))
        if not dims:
            raise LayoutError("a tile needs at least one dimension (XLA: layout has invalid tiles)")
        for d in dims:
            if d != COMBINE_DIM and not 0 < d <= INT64_MAX:
                raise LayoutError(f"tile dimension must be positive or '*', got {d}")
        if dims and dims[-1] == COMBINE_DIM:
            raise LayoutError("'*' cannot be the most minor tile dimension")
        object.__setattr__(self, "dims", dims)

    @property
    def has_combine(self) -> bool:
        """True if some dim is ``*``."""
        return COMBINE_DIM in self.dims

    def __iter__(self) -> Iterator[int]:
        return iter(self.dims)

    def __len__(self) -> int:
        return len(self.dims)

    def __getitem__(self, i: Any) -> Any:
        return self.dims[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tile):
            return self.dims == other.dims
        if isinstance(other, tuple):
            return self.dims == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.dims)

    def __str__(self) -> str:
        return "(" + ",".join("*" if d == COMBINE_DIM else str(d) for d in self.dims) + ")"


@dataclass(frozen=True)
class SplitConfig:
    """``SC(dimension:i,j,...)``: a logical dim split at the given indices.

    >>> str(SplitConfig(1, (4, 5)))
    '(1:4,5)'
    """

    dimension: int
    split_indices: tuple[int, ...]

    def __post_init__(self) -> None:
        if not _is_int(self.dimension) or self.dimension < 0:
            raise LayoutError(f"split dimension must be a non-negative int: {self.dimension!r}")
        idx = _int_tuple(self.split_indices, "split indices")
        if not idx or any(i < 0 for i in idx):
            raise LayoutError("split indices must be one or more non-negative ints")
        object.__setattr__(self, "split_indices", idx)

    def __str__(self) -> str:
        return f"({self.dimension}:" + ",".join(map(str, self.split_indices)) + ")"


def _tile(t: Tile | Iterable[int]) -> Tile:
    return t if isinstance(t, Tile) else Tile(tuple(t))


def _int_type(name: str | None, what: str) -> str | None:
    if name is None:
        return None
    et = element_type(name)
    if not et.is_integral:
        raise LayoutError(f"{what} must be an integer type, got {et.name}")
    return et.name


@dataclass(frozen=True)
class XlaLayout:
    """An XLA ``Layout``; every field but ``minor_to_major`` defaults to XLA's default.

    ``tiles`` accepts :class:`Tile` objects or plain tuples. Printing omits defaults
    (no tiles, ``L(1)``, ``E(0)``, ``S(0)``, ``M(0)``) and the ``:`` when nothing follows.

    >>> str(XlaLayout((0,), tiles=((1024,),), tail_padding_alignment_in_elements=1024))
    '{0:T(1024)L(1024)}'
    >>> str(XlaLayout(()))
    '{}'
    >>> XlaLayout((0, 0))
    Traceback (most recent call last):
      ...
    cutepy.LayoutError: minor_to_major (0, 0) repeats a dimension
    """

    minor_to_major: tuple[int, ...]
    tiles: tuple[Tile, ...] = ()
    tail_padding_alignment_in_elements: int = 1
    index_primitive_type: str | None = None
    pointer_primitive_type: str | None = None
    element_size_in_bits: int = 0
    memory_space: int = 0
    split_configs: tuple[SplitConfig, ...] = ()
    physical_shape: ArrayShape | None = None
    dynamic_shape_metadata_prefix_bytes: int = 0

    def __post_init__(self) -> None:
        m2m = _int_tuple(self.minor_to_major, "minor_to_major")
        if any(d < 0 for d in m2m):
            raise LayoutError(f"minor_to_major {m2m} has a negative dimension")
        if len(set(m2m)) != len(m2m):
            raise LayoutError(f"minor_to_major {m2m} repeats a dimension")
        object.__setattr__(self, "minor_to_major", m2m)
        object.__setattr__(self, "tiles", tuple(_tile(t) for t in self.tiles))
        checks = (
            ("tail_padding_alignment_in_elements", 1),
            ("element_size_in_bits", 0),
            ("memory_space", 0),
            ("dynamic_shape_metadata_prefix_bytes", 0),
        )
        for name, low in checks:
            v = getattr(self, name)
            if not _is_int(v) or not low <= v <= INT64_MAX:
                raise LayoutError(f"{name} must be an integer >= {low}, got {v!r}")
        for name in ("index_primitive_type", "pointer_primitive_type"):
            object.__setattr__(self, name, _int_type(getattr(self, name), name))
        scs = tuple(self.split_configs)
        if not all(isinstance(s, SplitConfig) for s in scs):
            raise LayoutError("split_configs must hold SplitConfig objects")
        object.__setattr__(self, "split_configs", scs)
        ps = self.physical_shape
        if ps is not None and not isinstance(ps, ArrayShape):
            raise LayoutError("physical_shape must be an ArrayShape")

    @staticmethod
    def default(rank: int) -> XlaLayout:
        """XLA's default layout: dim 0 most major, ``{rank-1,...,1,0}``.

        >>> str(XlaLayout.default(3))
        '{2,1,0}'
        """
        return XlaLayout(tuple(range(rank - 1, -1, -1)))

    def attributes_text(self) -> str:
        """The text after the ``:`` (empty when every attribute is the default)."""
        out = []
        if self.tiles:
            out.append("T" + "".join(str(t) for t in self.tiles))
        if self.tail_padding_alignment_in_elements != 1:
            out.append(f"L({self.tail_padding_alignment_in_elements})")
        if self.index_primitive_type is not None:
            out.append(f"#({self.index_primitive_type})")
        if self.pointer_primitive_type is not None:
            out.append(f"*({self.pointer_primitive_type})")
        if self.element_size_in_bits:
            out.append(f"E({self.element_size_in_bits})")
        if self.memory_space:
            out.append(f"S({self.memory_space})")
        if self.split_configs:
            out.append("SC" + "".join(str(s) for s in self.split_configs))
        if self.physical_shape is not None:
            out.append(f"P({self.physical_shape})")
        if self.dynamic_shape_metadata_prefix_bytes:
            out.append(f"M({self.dynamic_shape_metadata_prefix_bytes})")
        return "".join(out)

    def __str__(self) -> str:
        attrs = self.attributes_text()
        m2m = ",".join(map(str, self.minor_to_major))
        return "{" + m2m + (":" + attrs if attrs else "") + "}"


def _dim_text(d: Any, dynamic: bool) -> str:
    if not dynamic:
        return str(d)
    return "?" if type(d) is int and d == UNBOUNDED_DIM else f"<={d}"


@dataclass(frozen=True)
class ArrayShape:
    """An array (or ``token``/``opaque``) shape: element type, dims, dynamic flags, layout.

    ``dims`` are logical sizes in logical order. ``dynamic[i]`` marks ``<=dims[i]``
    (a bounded dynamic dim) or, with ``dims[i] == UNBOUNDED_DIM``, ``?``. ``layout``
    ``None`` means no layout (semantics then use XLA's default layout).

    A dim may be *symbolic*: a :class:`cutepy.symbolic.Sym` (from :func:`cutepy.symbols`;
    ``Sym(expr)`` wraps a sympy expression) that the declared facts prove positive. Such a shape
    prints the expressions (``f32[M,N]{1,0:T(8,128)}``), compiles to a symbolic CuTe
    layout (:func:`cutepy.xla.to_cute`) and has symbolic sizes; what needs every
    element (offset tables, reports, packing) raises until :meth:`subs` puts values in.

    >>> s = ArrayShape("f32", (3, 5), layout=XlaLayout((1, 0), tiles=((2, 2),)))
    >>> str(s), s.rank, s.physical_dims
    ('f32[3,5]{1,0:T(2,2)}', 2, (3, 5))
    >>> ArrayShape("f32", (3,), layout=XlaLayout(()))
    Traceback (most recent call last):
      ...
    cutepy.LayoutError: shape has 1 dimensions but minor_to_major lists 0
    """

    element_type: str
    dims: tuple[int, ...] = ()
    dynamic: tuple[bool, ...] | None = field(default=None)
    layout: XlaLayout | None = None

    def __post_init__(self) -> None:
        et = element_type(self.element_type)
        object.__setattr__(self, "element_type", et.name)
        dims = _dim_tuple(self.dims, "dims")
        object.__setattr__(self, "dims", dims)
        dyn = (False,) * len(dims) if self.dynamic is None else tuple(self.dynamic)
        if len(dyn) != len(dims) or not all(isinstance(b, bool) for b in dyn):
            raise LayoutError(f"dynamic must hold one bool per dim ({len(dims)}), got {dyn!r}")
        object.__setattr__(self, "dynamic", dyn)
        for d, dy in zip(dims, dyn, strict=True):
            if type(d) is not int:
                continue  # symbolic: proved positive by _dim_tuple
            if not (0 <= d <= INT64_MAX or (dy and d == UNBOUNDED_DIM)):
                raise LayoutError(f"dimension size must be a non-negative int, got {d}")
        if not et.is_array_type and (dims or self.layout is not None):
            raise LayoutError(f"{et.name} takes no dimensions and no layout")
        if self.layout is not None:
            self._check_layout(self.layout)

    def _check_layout(self, lay: XlaLayout) -> None:
        if not isinstance(lay, XlaLayout):
            raise LayoutError(f"layout must be an XlaLayout, got {lay!r}")
        rank, m2m = len(self.dims), lay.minor_to_major
        if len(m2m) != rank:
            raise LayoutError(f"shape has {rank} dimensions but minor_to_major lists {len(m2m)}")
        bad = [d for d in m2m if d >= rank]
        if bad:
            raise LayoutError(f"minor_to_major {m2m} names dimension {bad[0]} >= rank {rank}")
        for sc in lay.split_configs:
            if sc.dimension >= rank:
                raise LayoutError(f"split config names dimension {sc.dimension} >= rank {rank}")

    @property
    def rank(self) -> int:
        """Number of dimensions."""
        return len(self.dims)

    @property
    def type(self) -> ElementType:
        """The :class:`~cutepy.xla.types.ElementType` of the elements."""
        return element_type(self.element_type)

    @property
    def element_bits(self) -> int:
        """Bits per stored element: ``E(n)`` if set, else the type's own width."""
        e = self.layout.element_size_in_bits if self.layout is not None else 0
        return e or self.type.bits

    @property
    def effective_layout(self) -> XlaLayout:
        """The layout, or XLA's default one when there is none."""
        return self.layout if self.layout is not None else XlaLayout.default(self.rank)

    @property
    def is_symbolic(self) -> bool:
        """True if some dim is symbolic (see :func:`cutepy.symbols`).

        >>> ArrayShape("f32", (3, 5)).is_symbolic
        False
        """
        return any(type(d) is not int for d in self.dims)

    def concrete_bounds(self, what: str) -> tuple[int, ...]:
        """:attr:`bounds`, or a :class:`~cutepy.CutepyError` saying that ``what``
        needs values for the symbols of a symbolic shape."""
        if self.is_symbolic:
            names = ", ".join(sorted(str(s) for s in _subst.free_symbols(self.dims)))
            raise CutepyError(
                f"{what} needs concrete sizes, and {self} has symbolic dims ({names}): "
                f"substitute values first, e.g. shape.subs({{{names.split(', ')[0]}: ...}})"
            )
        return self.bounds

    def subs(self, values: Any) -> ArrayShape:
        """The shape with values put in for symbols (``{M: 16}`` or ``{"M": 16}``).

        >>> ArrayShape("f32", (3, 5)).subs({})
        ArrayShape(element_type='f32', dims=(3, 5), dynamic=(False, False), layout=None)
        """
        if not self.is_symbolic:
            return self
        return replace(self, dims=_subst.substitute(self.dims, values))

    @property
    def bounds(self) -> tuple[int, ...]:
        """Dim sizes, a bounded dynamic dim counting as its bound; ``?`` raises.

        >>> ArrayShape("f32", (4, 4), dynamic=(False, True)).bounds
        (4, 4)
        """
        if UNBOUNDED_DIM in self.dims:
            raise LayoutError(f"{self} has an unbounded dynamic dimension ('?'): no size")
        return self.dims

    @property
    def physical_dims(self) -> tuple[int, ...]:
        """Bounds in physical order, most major first (reversed ``minor_to_major``)."""
        b = self.bounds
        return tuple(b[d] for d in reversed(self.effective_layout.minor_to_major))

    def __str__(self) -> str:
        dims = ",".join(_dim_text(d, dy) for d, dy in zip(self.dims, self.dynamic or (), strict=True))
        text = f"{self.element_type}[{dims}]"
        if self.layout is not None:
            lay = str(self.layout)
            if self.dims or lay != "{}":
                text += lay
        return text


@dataclass(frozen=True)
class TupleShape:
    """A tuple of shapes, printed ``(a, b, ...)``.

    >>> str(TupleShape(()))
    '()'
    """

    elements: tuple[Shape, ...]

    def __post_init__(self) -> None:
        els = tuple(self.elements)
        if not all(isinstance(e, (ArrayShape, TupleShape, BufferShape)) for e in els):
            raise LayoutError("tuple elements must be shapes")
        object.__setattr__(self, "elements", els)

    def __str__(self) -> str:
        return "(" + ", ".join(str(e) for e in self.elements) + ")"


@dataclass(frozen=True)
class BufferShape:
    """A buffer holding one array, printed ``b(array)``.

    >>> str(BufferShape(ArrayShape("f32", (2,), layout=XlaLayout((0,)))))
    'b(f32[2]{0})'
    """

    array: ArrayShape

    def __post_init__(self) -> None:
        if not isinstance(self.array, ArrayShape) or not self.array.type.is_array_type:
            raise LayoutError("a buffer shape holds an array shape")

    def __str__(self) -> str:
        return f"b({self.array})"


#: Any XLA shape.
Shape = ArrayShape | TupleShape | BufferShape
