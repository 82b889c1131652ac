"""The integer-tuple functions as ``cutepy`` exports them: arguments checked first.

:mod:`cutepy.core.inttuple` holds the algorithms, which trust their arguments (the algebra
calls them on values it built). The versions here are the API edge: each checks that
every argument is an integer or a (nested) tuple of integers (strides may also hold
basis elements), then calls the algorithm. Bad input raises a
:class:`~cutepy.CutepyError` naming the function and the argument.

>>> crd2idx((1, 2), (2, 3))
5
>>> crd2idx("4", 3, 19)
Traceback (most recent call last):
  ...
cutepy.CutepyError: crd2idx: argument 1 is '4', not an integer or a tuple of integers
"""

from __future__ import annotations

import builtins
import functools
import operator
from collections.abc import Callable
from typing import Any

from . import inttuple as it
from .basis import ScaledBasis
from .dynamic import DynamicInt
from .errors import CutepyError


def check_int_tuple(x: Any, fn: str, k: int, basis: bool = False) -> None:
    """Raise unless ``x`` is an integer or a nested tuple of integers (of basis elements too
    where ``basis``), no deeper than ``MAX_DEPTH``.

    >>> check_int_tuple((1, (2, 3)), "f", 1)
    >>> check_int_tuple((1, 2.5), "f", 1)
    Traceback (most recent call last):
      ...
    cutepy.CutepyError: f: argument 1 is (1, 2.5), not an integer or a tuple of integers
    """
    todo = [(x, 0)]
    while todo:
        t, depth = todo.pop()
        if type(t) is tuple:
            if depth >= it.MAX_DEPTH:
                raise CutepyError(f"{fn}: argument {k} nests deeper than {it.MAX_DEPTH} levels")
            todo.extend((y, depth + 1) for y in t)
        elif not (it.is_integer(t) or (basis and isinstance(t, ScaledBasis))):
            raise CutepyError(f"{fn}: argument {k} is {it.short_repr(x)}, "
                              "not an integer or a tuple of integers")


def as_int(x: Any) -> Any:
    """``x`` with every numpy integer (an integer-like that ``operator.index`` turns into an
    ``int``, not a ``bool``) as an ``int``, nested tuples kept; anything else unchanged, for the
    caller's check to judge. numpy's fixed-width arithmetic would wrap around; Python's does not.

    >>> import numpy as np
    >>> as_int((np.int8(100), (np.uint64(3), 2.5)))
    (100, (3, 2.5))
    """
    t = type(x)
    if t is int or t is DynamicInt:  # a run-time integer keeps its kind
        return x
    if t is tuple:
        return tuple([as_int(v) for v in x])
    if t is not bool and hasattr(x, "__index__") and not isinstance(x, ScaledBasis):
        try:
            return operator.index(x)
        except TypeError:  # a symbolic integer or an array of several values: left to the check
            return x
    return x


def _checked(fn: Callable, basis_args: tuple[int, ...] = ()) -> Callable:
    """``fn`` (an algorithm of :mod:`.inttuple`) as cutepy exports it: its arguments checked
    first, named as CuTe names it (``ceil_div`` for ``inttuple.ceil_div_tuple``)."""
    name = fn.__name__.removesuffix("_tuple")

    @functools.wraps(fn)
    def checked(*args: Any) -> Any:
        args = tuple([as_int(a) for a in args])
        for k, a in enumerate(args, start=1):
            if a is not None or k not in basis_args:
                check_int_tuple(a, name, k, basis=k in basis_args)
        return fn(*args)

    checked.__name__ = checked.__qualname__ = name
    checked.__module__ = __name__
    checked.__doc__ = (fn.__doc__ or "").replace(f"{fn.__name__}(", f"{name}(")
    return checked


def _congruent_stride(fn: Callable) -> Callable:
    """``fn(x, shape, stride=None)`` with ``stride``, when given, congruent to ``shape``."""
    @functools.wraps(fn)
    def checked(x: Any, shape: Any, stride: Any = None) -> Any:
        if stride is not None and type(shape) is tuple and not it.congruent(shape, stride):
            raise CutepyError(f"{fn.__name__}: the stride {it.short_repr(stride)} does not nest like the "
                              f"shape {it.short_repr(shape)}")
        return fn(x, shape, stride)

    return checked


ceil_div = _checked(it.ceil_div_tuple)
compatible = _checked(it.compatible)
congruent = _checked(it.congruent)
crd2crd = _checked(it.crd2crd)
crd2idx = _checked(_congruent_stride(it.crd2idx), basis_args=(3,))
idx2crd = _checked(_congruent_stride(it.idx2crd), basis_args=(3,))
inner_product = _checked(it.inner_product, basis_args=(2,))
prefix_product = _checked(it.prefix_product)
product = _checked(it.product)
round_up = _checked(it.round_up_tuple)
safe_div = _checked(it.safe_div)
elem_scale = _checked(it.elem_scale)
shape_div = _checked(it.shape_div)
suffix_product = _checked(it.suffix_product)
weakly_congruent = _checked(it.weakly_congruent)


unwrap = it.unwrap
wrap = it.wrap


def repeat_like(t: Any, x: Any) -> Any:
    """C++'s ``repeat_like``: ``x`` at every leaf of the IntTuple ``t``'s profile.

    Pre:  ``t`` is an IntTuple (else ``CutepyError``); ``x`` is any value.
    Post: congruent with ``t``; every leaf is ``x``.

    >>> repeat_like((2, (3, 4)), None)
    (None, (None, None))
    """
    check_int_tuple(t, "repeat_like", 1)
    return it.repeat_like_tuple(t, x)


def max(t: Any) -> Any:  # noqa: A001  (C++'s name; kept out of __all__ so `import *` keeps the builtin)
    """C++'s ``max`` of an IntTuple: its greatest leaf (``cutepy.max``).

    Pre:  ``t`` is an IntTuple with a leaf (else ``CutepyError``).
    Post: a leaf of ``t`` no smaller than any other.

    >>> max((2, (7, 4)))
    7
    """
    check_int_tuple(t, "max", 1)
    return it.tuple_max(t)


def min(t: Any) -> Any:  # noqa: A001  (C++'s name; kept out of __all__, as max)
    """C++'s ``min`` of an IntTuple: its least leaf (``cutepy.min``).

    Pre:  ``t`` is an IntTuple with a leaf (else ``CutepyError``).
    Post: a leaf of ``t`` no greater than any other.

    >>> min((2, (7, 4)))
    2
    """
    check_int_tuple(t, "min", 1)
    return it.tuple_min(t)


def format(x: Any, spec: str = "") -> str:  # noqa: A001  (kept out of __all__, as max)
    """``cutepy.format(x, spec)``: Python's ``format`` that also prints an IntTuple (a shape, a
    stride, a tile size, a tiler of integers) C++'s way with ``"cxx"``: ``_N`` for a static integer,
    ``N`` for a run-time one (:func:`cutepy.dynamic`). Python's own ``format((64, 32), "cxx")``
    raises ``TypeError`` (a tuple takes no format spec), hence this name.

    Pre:  ``spec == "cxx"`` with an IntTuple (basis elements allowed at the leaves) or a cutepy
          value; or any ``spec`` Python's ``format`` takes for ``x``.
    Post: ``"cxx"`` on an IntTuple gives C++'s ``print``; anything else is ``builtins.format(x, spec)``.

    >>> from cutepy.core.dynamic import dynamic
    >>> format((64, (dynamic(32), 2)), "cxx"), format(8, "cxx"), format(8, ">3")
    ('(_64,(32,_2))', '_8', '  8')
    """
    if spec == "cxx" and (type(x) is tuple or (isinstance(x, int) and type(x) is not bool)):
        check_int_tuple(x, "format", 1, basis=True)
        return it.format_tuple(x, cxx=True)
    return builtins.format(x, spec)


def product_each(t: Any) -> tuple:
    """The product of each top-level mode, as a tuple (C++'s ``product_each``, which wraps an
    integer: ``product_each(4) == (4,)``).

    Pre:  ``t`` is an IntTuple (else ``CutepyError``).
    Post: ``len(result) == rank(t)`` and ``result[i] == product(t[i])``.

    >>> product_each(((2, 3), 4)), product_each(4)
    ((6, 4), (4,))
    """
    check_int_tuple(t, "product_each", 1)
    return it.product_each_tuple(t) if type(t) is tuple else (t,)


def _comparison(name: str, base: Callable, swap: bool, negate: bool, says: str, example: str) -> Callable:
    """A checked comparison built from ``base`` as C++ builds the four of a family:
    ``less(a, b)``, ``leq(a, b) = !less(b, a)``, ``gtr(a, b) = less(b, a)``, ``geq(a, b) = !less(a, b)``."""
    def compare(a: Any, b: Any) -> bool:
        check_int_tuple(a, name, 1)
        check_int_tuple(b, name, 2)
        x, y = (b, a) if swap else (a, b)
        return base(x, y) != negate

    compare.__name__ = compare.__qualname__ = name
    compare.__doc__ = f"""C++'s ``{name}``: {says}

    Pre:  ``a`` and ``b`` are integers or tuples of the same nesting where compared (a tuple is
          compared only with a tuple; else ``CutepyError``).
    Post: a bool, as C++'s ``{name}(a, b)``.

    >>> {example}
    """
    return compare


def _family(prefix: str, base: Callable, order: str, examples: dict) -> tuple:
    says = {
        "less": f"``a`` before ``b`` in {order}.",
        "leq": f"``not {prefix}_less(b, a)`` ({order}; C++'s definition, which for the elementwise "
               "order is not 'every mode at most').",
        "gtr": f"``{prefix}_less(b, a)`` ({order}).",
        "geq": f"``not {prefix}_less(a, b)`` ({order}; C++'s definition, which for the elementwise "
               "order is not 'every mode at least').",
    }
    spec = {"less": (False, False), "leq": (True, True), "gtr": (True, False), "geq": (False, True)}
    return tuple(_comparison(f"{prefix}_{k}", base, *spec[k], says[k], examples[k]) for k in spec)


elem_less, elem_leq, elem_gtr, elem_geq = _family(
    "elem", it.elem_less, "the elementwise order (every mode less)",
    {"less": "elem_less((1, 2), (2, 3)), elem_less((1, 3), (2, 3))\n    (True, False)",
     "leq": "elem_leq((1, 3), (2, 3)), elem_leq((3, 1), (2, 3))\n    (True, True)",
     "gtr": "elem_gtr((3, 4), (2, 3)), elem_gtr((3, 3), (2, 3))\n    (True, False)",
     "geq": "elem_geq((1, 3), (2, 3)), elem_geq((1, 2), (2, 3))\n    (True, False)"})
lex_less, lex_leq, lex_gtr, lex_geq = _family(
    "lex", it.lex_less, "lexicographic order (mode 0 first)",
    {"less": "lex_less((1, 5), (2, 0))\n    True", "leq": "lex_leq((1, 5), (1, 5))\n    True",
     "gtr": "lex_gtr((2, 0), (1, 5))\n    True", "geq": "lex_geq((1, 5), (2, 0))\n    False"})
colex_less, colex_leq, colex_gtr, colex_geq = _family(
    "colex", it.colex_less, "colexicographic order (the last mode first)",
    {"less": "colex_less((5, 1), (0, 2))\n    True", "leq": "colex_leq((5, 1), (5, 1))\n    True",
     "gtr": "colex_gtr((0, 2), (5, 1))\n    True", "geq": "colex_geq((5, 1), (0, 2))\n    False"})


def _positive_shape(shape: Any, fn: str) -> None:
    check_int_tuple(shape, fn, 1)
    leaves = it.flatten_tuple(shape) if type(shape) is tuple else (shape,)
    bad = [x for x in leaves if type(x) is int and x <= 0]
    if bad:
        raise CutepyError(f"{fn}: the shape {it.short_repr(shape)} has a leaf {bad[0]} that is not positive")


def compact_col_major(shape: Any, current: Any = 1) -> Any:
    """Column-major compact strides of ``shape`` (C++'s ``compact_col_major``, LayoutLeft).

    Pre:  ``shape`` is a shape (positive integer leaves; else ``CutepyError``).
    Post: congruent with ``shape``; the first leaf has stride ``current``, each next leaf the
          previous stride times its size; a size-1 leaf gets stride 0, as C++ gives it.

    >>> compact_col_major((4, (1, 3)))
    (1, (0, 4))
    """
    _positive_shape(shape, "compact_col_major")
    check_int_tuple(current, "compact_col_major", 2)
    return it.compact_major(shape, "left", current)


def compact_row_major(shape: Any, current: Any = 1) -> Any:
    """Row-major compact strides of ``shape`` (C++'s ``compact_row_major``, LayoutRight).

    Pre:  ``shape`` is a shape (positive integer leaves; else ``CutepyError``).
    Post: congruent with ``shape``; the last leaf has stride ``current``, each leaf before it
          the next one's stride times that one's size; a size-1 leaf gets stride 0.

    >>> compact_row_major((4, (2, 3)))
    (6, (3, 1))
    """
    _positive_shape(shape, "compact_row_major")
    check_int_tuple(current, "compact_row_major", 2)
    return it.compact_major(shape, "right", current)


def compact_order(shape: Any, order: Any) -> Any:
    """Compact strides of ``shape`` that grow in the order ``order`` (C++'s ``compact_order``).

    Pre:  ``shape`` is a shape and ``order`` an integer tuple weakly congruent with it (else
          ``CutepyError``).
    Post: congruent with ``shape``; a mode's strides start at the product of the sizes of
          every mode of smaller order, compact column-major within the mode.

    >>> compact_order((2, 3, 4), (1, 2, 0))
    (4, 8, 1)
    """
    _positive_shape(shape, "compact_order")
    check_int_tuple(order, "compact_order", 2)
    if not it.weakly_congruent(order, shape):
        raise CutepyError(f"compact_order: order {it.short_repr(order)} does not match the shape "
                          f"{it.short_repr(shape)}")
    return it.compact_order_tuple(shape, order)

__all__ = [
    "colex_geq", "colex_gtr", "colex_leq", "colex_less", "compact_col_major",
    "compact_order", "compact_row_major", "compatible", "congruent", "crd2crd", "crd2idx", "elem_geq",
    "elem_gtr", "elem_leq", "elem_less", "elem_scale", "idx2crd", "inner_product", "lex_geq", "lex_gtr",
    "lex_leq", "lex_less", "prefix_product", "product", "product_each", "repeat_like", "round_up",
    "safe_div", "shape_div", "suffix_product", "unwrap", "weakly_congruent", "wrap",
]
