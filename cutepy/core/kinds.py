"""The kinds of value cutepy's operations take, and the table of variants of each operation.

Layer 0 (values): it imports nothing of cutepy. The kinds are declared here, apart from their
implementations, as the CuTe DSL declares ``Layout``, ``ComposedLayout`` and ``Tensor`` in
its ``typing.py``; each implementation derives from its kind:

======================  ==================================  ==========================================
kind                    implementation                      what it is
======================  ==================================  ==========================================
:class:`LayoutKind`     ``core/layout.py``: ``Layout``       ``shape:stride``, the algorithms' own input
:class:`SwizzleKind`    ``core/swizzle.py``: ``Swizzle``     ``Sw<B,M,S>``, a function of an offset
:class:`ComposedKind`   ``algebra/composed.py``              ``outer o offset o inner``
:class:`TensorKind`     ``kernels/tensor.py``: ``Tensor``    an engine seen through a layout
:class:`ThreadsKind`    ``kernels/tiled/``: ``TiledMMA``,    a tiled object whose size is its thread
                        ``TiledCopy``                        count
======================  ==================================  ==========================================

A public operation holds the algorithm for a :class:`~cutepy.core.layout.Layout` (or a shape)
in its own body. For any other kind it looks up the variant in its :class:`Variants` table,
one table per operation, declared below with the kinds it must accept (C++'s overloads)::

    if type(A) is not Layout and (variant := COALESCE.of(A)) is not None:
        return variant(A, profile)

A variant takes the dispatched value first, then the operation's other arguments. The module
of each kind registers its variants (``COALESCE.register(ComposedLayout, fn)``) when it is
imported, and nothing else writes a table. :data:`TABLES` lists every table;
``tests/core/test_dispatch.py`` checks that each has a variant for every kind it must accept.

>>> COALESCE
Variants('coalesce', accepts=(ComposedKind, TensorKind))
>>> COALESCE.of((2, 3)) is None                  # a shape has no variant: the algorithm takes it
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Kind:
    """The base of the kinds; a value's kind is the :class:`Kind` its type derives from."""

    __slots__ = ()


class LayoutKind(Kind):
    """A plain layout ``shape:stride`` (``cutepy.core.layout.Layout``): every algorithm's input."""

    __slots__ = ()


class SwizzleKind(Kind):
    """A swizzle ``Sw<B,M,S>`` (``cutepy.core.swizzle.Swizzle``): an offset function, no domain."""

    __slots__ = ()


class ComposedKind(Kind):
    """A composed layout ``outer o offset o inner`` (``cutepy.algebra.composed.ComposedLayout``):
    C++'s overloads apply most operations to ``inner`` and keep ``outer`` and ``offset``."""

    __slots__ = ()


class TensorKind(Kind):
    """A tensor ``engine o layout`` (``cutepy.kernels.tensor.Tensor``): operations apply to the
    layout and keep the engine."""

    __slots__ = ()


class ThreadsKind(Kind):
    """A tiled MMA or copy (``cutepy.kernels.tiled``): ``size`` is its number of threads."""

    __slots__ = ()


class Variants:
    """The variants of one operation, by the type of the value it dispatches on.

    ``accepts`` are the kinds the operation must take (C++ has an overload for them): a test
    fails when one of them has no variant registered.

    >>> T = Variants("demo", SwizzleKind, register=False)
    >>> class Sw(SwizzleKind):
    ...     pass
    >>> @T.register(Sw)
    ... def _demo(sw, n):
    ...     return n + 1
    >>> T.of(Sw())(Sw(), 1), T.of(3)
    (2, None)
    >>> T.missing()
    ()
    """

    __slots__ = ("name", "accepts", "_variants")

    def __init__(self, name: str, *accepts: type[Kind], register: bool = True):
        self.name = name
        self.accepts = accepts
        self._variants: dict[type, Callable[..., Any]] = {}
        if register:
            if name in TABLES:
                raise ValueError(f"the operation {name!r} has a table already")
            TABLES[name] = self

    def register(self, cls: type, fn: Callable[..., Any] | None = None) -> Any:
        """Record ``fn(value, *args)`` as the variant for values of type ``cls`` (and subclasses).

        Used as ``T.register(cls, fn)`` or as a decorator ``@T.register(cls)``; call at import
        time, once per type (a second registration raises ``ValueError``).
        """
        def deco(f: Callable[..., Any]) -> Callable[..., Any]:
            if cls in self._variants:
                raise ValueError(f"{self.name}: {cls.__name__} has a variant already")
            self._variants[cls] = f
            return f

        return deco if fn is None else deco(fn)

    def of(self, x: Any) -> Callable[..., Any] | None:
        """The variant for ``x``'s type (or the nearest registered base), None for any other
        value (a Layout or a shape: the operation's own algorithm takes it)."""
        variants = self._variants
        fn = variants.get(type(x))
        if fn is None and variants:
            for cls in type(x).__mro__[1:-1]:  # a subclass of a registered type (object excluded)
                fn = variants.get(cls)
                if fn is not None:
                    break
        return fn

    def variants(self) -> dict[type, Callable[..., Any]]:
        """The registered variants, by type (a copy)."""
        return dict(self._variants)

    def missing(self) -> tuple[type[Kind], ...]:
        """The kinds the operation must accept that no registered type implements."""
        return tuple(k for k in self.accepts if not any(issubclass(c, k) for c in self._variants))

    def __repr__(self) -> str:
        kinds = ", ".join(k.__name__ for k in self.accepts)
        return f"Variants({self.name!r}, accepts=({kinds}))"


#: every operation's table, by the operation's name (written once, as this module is imported)
TABLES: dict[str, Variants] = {}

_C, _S, _T = ComposedKind, SwizzleKind, TensorKind

# -- the layout (core/layout.py) ---------------------------------------------------------
#: ``make_layout(sw)``: C++'s ``make_layout(Sw<B,M,S>)``
MAKE_LAYOUT = Variants("make_layout", _S)
SIZE = Variants("size", ThreadsKind)
IS_STATIC = Variants("is_static", _C, _T)
GET = Variants("get", _C, _T)
TAKE = Variants("take", _C, _T)
GROUP = Variants("group", _C, _T)
APPEND = Variants("append", _C)
FLATTEN = Variants("flatten", _C, _T)
SLICE_AND_OFFSET = Variants("slice_and_offset", _C)
#: ``fn`` applied to the layout a value holds, the rest kept (the divides' and products'
#: unpacking of a swizzled or tensor result)
MAP_LAYOUT = Variants("map_layout", _C, _T)

# -- the algebra (algebra/) ----------------------------------------------------------------
COALESCE = Variants("coalesce", _C, _T)
FILTER = Variants("filter", _C)
COMPLEMENT = Variants("complement", _C)
COMPOSITION = Variants("composition", _S, _C, _T)
#: ``composition(A, B)`` with a ``B`` that is not a layout, a shape or a tiler: C++'s
#: ``A o Sw`` and ``A o (Sw o offset o L)``
COMPOSITION_BY_B = Variants("composition (by B)", _S, _C)
LOGICAL_DIVIDE = Variants("logical_divide", _C, _T)
ZIPPED_DIVIDE = Variants("zipped_divide", _C, _T)
TILED_DIVIDE = Variants("tiled_divide", _C, _T)
FLAT_DIVIDE = Variants("flat_divide", _C, _T)
LOGICAL_PRODUCT = Variants("logical_product", _C)
#: ``logical_product(A, tiler)`` with a composed tiler (C++ moves its swizzle)
LOGICAL_PRODUCT_BY_TILER = Variants("logical_product (by tiler)", _C)
ZIPPED_PRODUCT = Variants("zipped_product", _C)
TILED_PRODUCT = Variants("tiled_product", _C)
FLAT_PRODUCT = Variants("flat_product", _C)
BLOCKED_PRODUCT = Variants("blocked_product", _C)
RAKED_PRODUCT = Variants("raked_product", _C)
TILE_TO_SHAPE = Variants("tile_to_shape", _C)
UPCAST = Variants("upcast", _S, _C)
DOWNCAST = Variants("downcast", _S, _C)
MAX_ALIGNMENT = Variants("max_alignment", _S, _C)
MAKE_LAYOUT_LIKE = Variants("make_layout_like", _C)
MAKE_FRAGMENT_LIKE = Variants("make_fragment_like", _C, _T)
RIGHT_INVERSE = Variants("right_inverse", _C)
LEFT_INVERSE = Variants("left_inverse", _C)
NULLSPACE = Variants("nullspace", _C)
MAX_COMMON_LAYOUT = Variants("max_common_layout", _C)
#: ``max_common_layout(A, B)`` with a composed ``B`` (the variant is called as ``fn(B, A)``)
MAX_COMMON_LAYOUT_BY_B = Variants("max_common_layout (by B)", _C)
MAX_COMMON_VECTOR = Variants("max_common_vector", _C)
#: ``max_common_vector(A, B)`` with a composed ``B`` (the variant is called as ``fn(B, A)``)
MAX_COMMON_VECTOR_BY_B = Variants("max_common_vector (by B)", _C)
