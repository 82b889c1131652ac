"""Putting values in for symbols, and finding the symbols of a layout.

>>> from cutepy import Layout
>>> from cutepy.symbolic import symbols
>>> M, N = symbols("M N", multiple_of=(8, 128))
>>> L = Layout((M, (8, N // 128)), (N, (1, 8 * M)))
>>> sorted(map(str, free_symbols(L)))
['M', 'N']
>>> substitute(L, {M: 16, "N": 256})
(16,(8,2)):(256,(1,128))
>>> substitute(L, {M: 12})
Traceback (most recent call last):
...
cutepy.SymbolicError: cannot put M = 12: it breaks the facts of M (M >= 8, M % 8 == 0)
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from numbers import Integral
from typing import Any

import sympy

from ..basis import ScaledBasis
from ..errors import SymbolicError
from .facts import facts_of, named
from .sym import Sym, from_sympy


def substitution(values: Any, within: Any = None) -> dict:
    """``{symbol: value}`` checked: keys are Sym symbols, sympy symbols or names (looked up
    among the symbols of ``within``, then among those declared in this context); values
    are integers that satisfy the facts in force for their symbol, or integer expressions.

    Post: a dict from sympy symbols to sympy integers or expressions; else a
    :class:`SymbolicError` naming the symbol and what is wrong (``16.5``, ``"16"``, ``True``,
    or ``12`` for a multiple of 8).
    """
    if not isinstance(values, Mapping):
        raise SymbolicError(f"values must be a mapping {{symbol: value}}, got {values!r}")
    out: dict = {}
    for k, v in values.items():
        sym = _symbol(k, within)
        if isinstance(v, Sym):
            out[sym] = v.expr
            continue
        if isinstance(v, sympy.Basic) and not v.is_Integer:
            if v.is_integer is not True:
                raise SymbolicError(f"cannot put {sym} = {v}: not an integer expression")
            out[sym] = v
            continue
        if type(v) is bool or isinstance(v, (str, bytes)):
            raise SymbolicError(f"cannot put {sym} = {v!r}: not an integer")
        try:
            n = operator.index(v)
        except TypeError:
            raise SymbolicError(f"cannot put {sym} = {v!r}: not an integer") from None
        f = facts_of(sym)
        if not f.admits(n):
            raise SymbolicError(f"cannot put {sym} = {n}: it breaks the facts of {sym} "
                                f"({f.describe(str(sym))})")
        out[sym] = sympy.Integer(n)
    return out


def _symbol(k: Any, within: Any) -> Any:
    if isinstance(k, Sym):
        k = k.expr
    elif isinstance(k, str):
        found = [s for s in free_symbols(within) if s.name == k] if within is not None else []
        if len(found) > 1:
            raise SymbolicError(f"{len(found)} different symbols are named {k!r} here: use the symbol")
        sym = found[0] if found else named(k)
        if sym is None:
            raise SymbolicError(f"no symbol named {k!r} is declared")
        k = sym
    if not getattr(k, "is_Symbol", False):
        raise SymbolicError(f"cannot substitute for {k!r}: not a symbol")
    return k


def _tree(t: Any, fn: Any) -> Any:
    if isinstance(t, tuple):
        return tuple(_tree(x, fn) for x in t)
    return fn(t)


def substitute(obj: Any, values: Any) -> Any:
    """``obj`` (a Layout, ComposedLayout, tuple, Sym or int) with the symbols replaced.

    Leaves that become constants become ints, so a fully substituted layout is a plain
    integer layout that every cutepy operation (and ``offsets()``) accepts. The values
    are checked first (see :func:`substitution`).
    """
    return _put(obj, substitution(values, obj))


def _put(obj: Any, sub: dict) -> Any:
    if type(obj) is tuple:
        return tuple(_put(x, sub) for x in obj)
    if type(obj) is Sym:
        return from_sympy(obj.expr.xreplace(sub))
    if type(obj) is ScaledBasis:
        return ScaledBasis(_put(obj.value, sub), obj.mode)
    if obj is None or isinstance(obj, (Integral, str)):
        return obj
    return _rebuild(obj, lambda x: _put(x, sub))


# This module holds values (layer 0) and sits below the layout classes it substitutes into:
# a layout, a swizzle or a swizzled layout is taken apart and rebuilt through its pickling
# protocol, ``__reduce__`` -> (constructor, parts), whatever kind of value it is.
def _parts(obj: Any) -> tuple:
    reduce = getattr(type(obj), "__reduce__", None)
    if reduce is None or reduce is object.__reduce__:
        raise SymbolicError(f"cannot look for symbols in {obj!r}: it is not a layout, a tuple or an integer")
    return obj.__reduce__()[1]


def _rebuild(obj: Any, put: Any) -> Any:
    make = obj.__reduce__()[0]
    return make(*(put(x) for x in _parts(obj)))


def leaves(obj: Any) -> list:
    """Every integer leaf of a value: of a tuple, or of a layout's (swizzled layout's) parts."""
    if type(obj) is tuple:
        return [y for x in obj for y in leaves(x)]
    if obj is None or isinstance(obj, (Integral, str, ScaledBasis)) or isinstance(obj, sympy.Basic):
        return [obj]
    return [y for x in _parts(obj) for y in leaves(x)]


def free_symbols(obj: Any) -> set:
    """The sympy symbols that occur in ``obj``."""
    out: set = set()
    for x in leaves(obj):
        x = x.value if type(x) is ScaledBasis else x
        if type(x) is Sym:
            out |= x.expr.free_symbols
        elif isinstance(x, sympy.Basic):
            out |= x.free_symbols
    return out
