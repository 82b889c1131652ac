"""The integer-tuple functions as ``cutepy`` exports them: arguments checked first.

:mod:`cutepy.inttuple` holds the algorithms, which trust their arguments (the algebra
calls them on values it built). The versions here are the API edge: each checks that
every argument is an integer or a (nested) tuple of integers (strides may also hold
basis elements), then calls the algorithm. Bad input raises a
:class:`~cutepy.errors.CutepyError` naming the function and the argument.

>>> crd2idx((1, 2), (2, 3))
5
>>> crd2idx("4", 3, 19)
Traceback (most recent call last):
  ...
cutepy.errors.CutepyError: crd2idx: argument 1 is '4', not an integer or a tuple of integers
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from . import inttuple as it
from .basis import ScaledBasis
from .errors import CutepyError


def check_int_tuple(x: Any, fn: str, k: int, basis: bool = False) -> None:
    """Raise unless ``x`` is an integer or a nested tuple of integers (of basis elements too
    where ``basis``), no deeper than ``MAX_DEPTH``.

    >>> check_int_tuple((1, (2, 3)), "f", 1)
    >>> check_int_tuple((1, 2.5), "f", 1)
    Traceback (most recent call last):
      ...
    cutepy.errors.CutepyError: f: argument 1 is (1, 2.5), not an integer or a tuple of integers
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


def _checked(fn: Callable, basis_args: tuple[int, ...] = ()) -> Callable:
    @functools.wraps(fn)
    def checked(*args: Any) -> Any:
        for k, a in enumerate(args, start=1):
            if a is not None or k not in basis_args:
                check_int_tuple(a, fn.__name__, k, basis=k in basis_args)
        return fn(*args)

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


ceil_div = _checked(it.ceil_div)
compatible = _checked(it.compatible)
congruent = _checked(it.congruent)
crd2idx = _checked(_congruent_stride(it.crd2idx), basis_args=(3,))
idx2crd = _checked(_congruent_stride(it.idx2crd), basis_args=(3,))
inner_product = _checked(it.inner_product, basis_args=(2,))
prefix_product = _checked(it.prefix_product)
product = _checked(it.product)
shape_div = _checked(it.shape_div)
suffix_product = _checked(it.suffix_product)
weakly_congruent = _checked(it.weakly_congruent)

__all__ = [
    "ceil_div", "check_int_tuple", "compatible", "congruent", "crd2idx", "idx2crd", "inner_product",
    "prefix_product", "product", "shape_div", "suffix_product", "weakly_congruent",
]
