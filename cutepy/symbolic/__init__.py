"""Symbolic shapes and strides: sympy integer expressions as layout leaves.

Declare symbols with the facts that hold for them, then build layouts as usual::

    >>> import cutepy
    >>> M, N = cutepy.symbols("M N", multiple_of=(8, 128), min=(16, 256))
    >>> A = cutepy.Layout((M, N), (N, 1))
    >>> cutepy.composition(A, (8, 128))
    (8,128):(N,1)
    >>> cutepy.zipped_divide(A, (8, 128))
    ((8,128),(M/8,N/128)):((N,1),(8*N,128))

An operation that needs a fact that does not follow from the declared ones raises
:class:`~cutepy.errors.SymbolicError` naming it::

    >>> K = cutepy.symbols("K")
    >>> cutepy.logical_divide(cutepy.Layout(K), 4)
    Traceback (most recent call last):
    ...
    cutepy.symbolic.facts.Undecided: cannot decide whether ceil(K/4) == 1 ... (K >= 1): ...

sympy is imported only when a symbolic leaf is met (or a symbol is declared).
"""

from __future__ import annotations

from typing import Any

from ..errors import LayoutError, SymbolicError
from .facts import Facts, Undecided, assuming, declare, facts_of, symbols

__all__ = [
    "Facts", "SymbolicError", "Sym", "Undecided", "assuming", "declare", "facts_of", "free_symbols",
    "is_symbolic", "subs", "symbolic_leaf", "symbols",
]


def is_symbolic(obj: Any) -> bool:
    """Whether any leaf of a layout (or tuple, or value) is symbolic; never imports sympy.

    >>> from cutepy import Layout
    >>> is_symbolic(Layout((4, 8))), is_symbolic(symbols("Q") * 2)
    (False, True)
    """
    stack = [obj]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is int:
            continue
        if t is tuple:
            stack.extend(x)
        elif hasattr(x, "_shape"):
            stack.extend((x._shape, x._stride))
        elif hasattr(x, "inner") and hasattr(x, "outer"):
            stack.extend((x.inner, x.offset, x.outer))
        elif hasattr(x, "mode") and hasattr(x, "value"):
            stack.append(x.value)
        elif t.__module__.startswith(("cutepy.symbolic", "sympy")):
            return True
    return False


def symbolic_leaf(x: Any, what: str, positive: bool) -> Any:
    """Check a symbolic leaf: an integer expression (a provably positive one for shapes).

    Called by :class:`~cutepy.Layout` for sympy and :class:`Sym` leaves; returns an
    ``int`` for a constant, else a :class:`Sym`.
    """
    import sympy

    from . import decide
    from .sym import Sym, wrap

    if type(x) is not Sym:
        if getattr(x, "is_integer", None) is False:
            raise LayoutError(f"{what} has a leaf {x} that is not an integer expression")
        num, den = sympy.fraction(sympy.together(x))
        x = wrap(decide.exact_div(num, den) if den != 1 else num)
        if type(x) is int:
            if positive and x < 1:
                raise LayoutError(f"{what} has a leaf {x}; shape leaves must be positive integers")
            return x
    if positive:
        ok = decide.try_decide(x.expr - 1, ">=")
        if ok is False:
            raise LayoutError(f"{what} has a leaf {x} that is never positive")
        if ok is None:
            raise decide.undecided(x.expr, ">=", sympy.Integer(1))
    return x


def subs(obj: Any, values: Any) -> Any:
    """``obj`` (a layout, tuple or value) with values put in for symbols: see :func:`.subst.subs`.

    >>> from cutepy import Layout
    >>> M = symbols("M", multiple_of=8)
    >>> subs(Layout((M, 4), (4, 1)), {M: 16})
    (16,4):(4,1)
    """
    from . import subst

    return subst.subs(obj, values)


def free_symbols(obj: Any) -> set:
    """The sympy symbols that occur in a layout (or tuple, or value)."""
    from . import subst

    return subst.free_symbols(obj)


def __getattr__(name: str) -> Any:
    if name in ("Sym", "wrap"):
        from . import sym

        return getattr(sym, name)
    raise AttributeError(name)

