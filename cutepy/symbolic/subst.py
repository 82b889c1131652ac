"""Putting values in for symbols, finding the symbols of a layout, sampling assignments.

>>> from cutepy import Layout
>>> from cutepy.symbolic import symbols
>>> M, N = symbols("M N", multiple_of=(8, 128))
>>> L = Layout((M, (8, N // 128)), (N, (1, 8 * M)))
>>> sorted(map(str, free_symbols(L)))
['M', 'N']
>>> subs(L, {M: 16, "N": 256})
(16,(8,2)):(256,(1,128))
"""

from __future__ import annotations

from typing import Any

import sympy

from ..errors import SymbolicError
from .sym import Sym, wrap


def substitution(values: Any) -> dict:
    """``{symbol: value}`` with keys as Sym, sympy symbols or names; values become sympy ints."""
    out: dict = {}
    for k, v in dict(values).items():
        if isinstance(k, Sym):
            k = k.expr
        elif isinstance(k, str):
            k = _by_name(k)
        if not getattr(k, "is_Symbol", False):
            raise SymbolicError(f"cannot substitute for {k!r}: not a symbol")
        out[k] = sympy.Integer(int(v)) if not isinstance(v, (Sym, sympy.Basic)) else sympy.sympify(v)
    return out


def _by_name(name: str) -> Any:
    from .facts import _REGISTRY

    found = [s for s in _REGISTRY if s.name == name]
    if len(found) != 1:
        raise SymbolicError(f"no single declared symbol is named {name!r}")
    return found[0]


def _tree(t: Any, fn: Any) -> Any:
    if isinstance(t, tuple):
        return tuple(_tree(x, fn) for x in t)
    return fn(t)


def subs(obj: Any, values: Any) -> Any:
    """``obj`` (a Layout, ComposedLayout, tuple, Sym or int) with the symbols replaced.

    Leaves that become constants become ints, so a fully substituted layout is a plain
    integer layout that every cutepy operation (and ``offsets()``) accepts.
    """
    from ..layout import Layout
    from ..swizzle import ComposedLayout

    sub = substitution(values)

    def leaf(x: Any) -> Any:
        if type(x) is Sym:
            return wrap(x.expr.xreplace(sub))
        if isinstance(x, sympy.Basic):
            return wrap(x.xreplace(sub))
        if hasattr(x, "mode") and hasattr(x, "value"):  # ScaledBasis
            return type(x)(leaf(x.value), x.mode)
        return x

    if type(obj) is Layout:
        return Layout(_tree(obj.shape, leaf), _tree(obj.stride, leaf))
    if isinstance(obj, ComposedLayout):
        outer = obj.outer if not isinstance(obj.outer, (Layout, ComposedLayout)) else subs(obj.outer, sub)
        return ComposedLayout(outer, leaf(obj.offset), subs(obj.inner, sub))
    return _tree(obj, leaf)


def leaves(obj: Any) -> list:
    """Every shape and stride leaf of a layout (or leaf of a tuple)."""
    from ..inttuple import flatten
    from ..layout import Layout
    from ..swizzle import ComposedLayout

    if type(obj) is Layout:
        return list(flatten(obj.shape)) + list(flatten(obj.stride))
    if isinstance(obj, ComposedLayout):
        out = leaves(obj.inner) + [obj.offset]
        if not hasattr(obj.outer, "bits"):
            out += leaves(obj.outer)
        return out
    if isinstance(obj, tuple):
        return [y for x in obj for y in leaves(x)]
    return [obj]


def free_symbols(obj: Any) -> set:
    """The sympy symbols that occur in ``obj``."""
    out: set = set()
    for x in leaves(obj):
        x = getattr(x, "value", x) if hasattr(x, "mode") else x
        if type(x) is Sym:
            out |= x.expr.free_symbols
        elif isinstance(x, sympy.Basic):
            out |= x.free_symbols
    return out


def is_symbolic(obj: Any) -> bool:
    """Whether any leaf of ``obj`` is symbolic (without importing sympy for int layouts)."""
    for x in leaves(obj):
        if type(x) is not int and type(x).__module__.startswith(("cutepy.symbolic", "sympy")):
            return True
    return False
