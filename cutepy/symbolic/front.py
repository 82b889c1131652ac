"""The front door of symbolic integers, without sympy: the one "is symbolic" predicate,
and the entry points that load sympy on first use.

A symbolic leaf is what the core keeps as it is: an :class:`numbers.Integral` that is
not a ``bool`` and has no ``__index__`` (so ``operator.index`` refuses it), such as
:class:`~cutepy.core.symbolic.sym.Sym`. Plain ints and numpy integers are not symbolic.

>>> from cutepy import Layout
>>> is_symbolic(Layout((4, 8))), is_symbolic(symbols("Q") * 2)
(False, True)
"""

from __future__ import annotations

from typing import Any

from ..core import inttuple as it
from ..core.basis import ScaledBasis
from ..core.layout import Layout
from ..core.lazy import load

#: symbols and substitution load sympy: on first use, once a symbol is made
_sym = load("cutepy.core.symbolic.sym")
_subst = load("cutepy.core.symbolic.subst")

#: a symbolic integer leaf (:func:`cutepy.core.inttuple.is_symbolic_leaf`, the one test)
is_symbolic_leaf = it.is_symbolic_leaf


def is_symbolic(obj: Any) -> bool:
    """Whether any leaf of a layout (composed layouts, tuples, basis strides and values
    included) is symbolic; never imports sympy.

    Pre:  none (any object).
    Post: ``True`` iff some leaf satisfies ``is_symbolic_leaf``.

    >>> from cutepy import Layout
    >>> is_symbolic(Layout((4, 8))), is_symbolic(Layout((symbols("Ks", min=2), 8)))
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
        elif t is Layout:
            stack.extend((x.shape, x.stride))
        elif t is ScaledBasis:
            stack.append(x.value)
        elif is_symbolic_leaf(x):
            return True
        elif t.__module__.startswith("cutepy.") and t.__reduce__ is not object.__reduce__:
            stack.extend(x.__reduce__()[1])  # a swizzle or a swizzled layout: its parts
    return False


def symbols(names: str, **facts: Any) -> Any:
    """Declare integer symbols and their facts: see :func:`.sym.symbols`.

    Pre:  ``names`` holds valid identifiers; ``facts`` are :func:`declare`'s keywords
          (``multiple_of``, ``min``, ``max``, ...; else ``CutepyError``).
    Post: one ``Sym`` per name (a tuple for several), usable as a shape or stride leaf;
          ``facts_of`` of each is the declared facts.

    >>> M = symbols("M", multiple_of=8)
    >>> M * 2
    2*M
    """
    return _sym.make_symbols(names, **facts)


def subs(obj: Any, values: Any) -> Any:
    """``obj`` (a layout, tuple or value) with values put in for symbols: see :func:`.subst.subs`.

    Pre:  the keys of ``values`` are symbols of ``obj``, the values integers (or expressions)
          consistent with the symbols' facts (else ``SymbolicError``).
    Post: ``obj`` with every occurrence replaced; integer leaves where all symbols got integers.

    >>> M = symbols("M", multiple_of=8)
    >>> subs(Layout((M, 4), (4, 1)), {M: 16})
    (16,4):(4,1)
    """
    return _subst.substitute(obj, values)


def free_symbols(obj: Any) -> set:
    """The sympy symbols that occur in a layout (or tuple, or value).

    Pre:  none (any object; a non-symbolic one gives the empty set without loading sympy).
    Post: the set of symbols ``s`` such that ``subs(obj, {s: v})`` can change ``obj``.

    >>> from cutepy import Layout, symbols
    >>> M = symbols("M")
    >>> free_symbols(Layout((M, 4), (4, 1))), free_symbols(Layout((8, 4)))
    ({M}, set())
    """
    if not is_symbolic(obj):
        return set()
    return _subst.free_symbols(obj)
