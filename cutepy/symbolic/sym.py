"""``Sym``: a sympy integer expression that the layout algebra can use as a leaf.

Arithmetic (``+ - * // % abs``, and ``/`` when exact) returns a ``Sym``, or a plain
``int`` once the symbols cancel. Comparisons are decided from the declared facts for
*every* admissible assignment; when the answer depends on the values, they raise
:class:`~cutepy.symbolic.facts.Undecided` (a :class:`~cutepy.errors.SymbolicError`)
naming the fact that is missing. So the core algorithms run unchanged on symbolic
layouts and take a branch only when it is the same branch for every assignment.

>>> from cutepy import Layout, coalesce
>>> from cutepy.symbolic import symbols
>>> M, N = symbols("M N", multiple_of=(8, 128))
>>> (M * N) // 8, (M + 8) % 8, N / 128
(M*N/8, 0, N/128)
>>> M * N > 512, M == 4
(True, False)
>>> coalesce(Layout((M, N), (1, M)))
M*N:1
>>> print(Layout((M, N))(3, 2))
2*M+3
>>> M / 16
Traceback (most recent call last):
...
cutepy.symbolic.facts.Undecided: M / 16 is not known to be an integer (M >= 8, M % 8 == 0): \
needs M % 16 == 0 (declare(M, multiple_of=16)); it holds for M=16 and fails for M=8
"""

from __future__ import annotations

import numbers
from typing import Any

import sympy

from ..errors import SymbolicError
from . import decide as _d


def _expr(x: Any) -> Any:
    """The sympy expression of an operand, or None if it is not an integer operand."""
    t = type(x)
    if t is int:
        return sympy.Integer(x)
    if t is Sym:
        return x.expr
    if t is bool:
        return None
    if isinstance(x, sympy.Basic):
        return x
    if hasattr(x, "__index__"):
        return sympy.Integer(x.__index__())
    return None


def wrap(expr: Any) -> Any:
    """An expression as a leaf: ``int`` when constant, else a :class:`Sym`."""
    expr = sympy.expand(expr)
    if expr.is_Integer:
        return int(expr)
    if expr.is_number:
        raise SymbolicError(f"{expr} is not an integer")
    s = object.__new__(Sym)
    s.expr = expr
    s._hash = None
    return s


class Sym:
    """An integer expression in declared symbols (see the module docstring)."""

    __slots__ = ("expr", "_hash")

    def __init__(self, expr: Any):
        e = _expr(expr)
        if e is None:
            raise SymbolicError(f"{expr!r} is not an integer expression")
        self.expr = sympy.expand(e)
        self._hash = None

    @staticmethod
    def _from_symbol(sym: Any) -> Sym:
        s = object.__new__(Sym)
        s.expr = sym
        s._hash = None
        return s

    # -- arithmetic ---------------------------------------------------------------

    def __add__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(self.expr + e)

    __radd__ = __add__

    def __sub__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(self.expr - e)

    def __rsub__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(e - self.expr)

    def __mul__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(self.expr * e)

    __rmul__ = __mul__

    def __neg__(self) -> Any:
        return wrap(-self.expr)

    def __pos__(self) -> Sym:
        return self

    def __abs__(self) -> Any:
        if _d.try_decide(self.expr, ">=") is True:
            return self
        if _d.try_decide(self.expr, "<=") is True:
            return wrap(-self.expr)
        raise _d.undecided(self.expr, ">=", sympy.Integer(0))

    def __pow__(self, k: int) -> Any:
        if type(k) is not int or k < 0:
            return NotImplemented
        return wrap(self.expr**k)

    def __floordiv__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(_d.floordiv(self.expr, e))

    def __rfloordiv__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(_d.floordiv(e, self.expr))

    def __mod__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(_d.mod(self.expr, e))

    def __rmod__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(_d.mod(e, self.expr))

    def __divmod__(self, o: Any) -> Any:
        return self // o, self % o

    def __truediv__(self, o: Any) -> Any:
        """Exact division: ``M / 8`` needs ``M % 8 == 0`` to follow from the facts."""
        e = _expr(o)
        return NotImplemented if e is None else wrap(_d.exact_div(self.expr, e))

    def __rtruediv__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else wrap(_d.exact_div(e, self.expr))

    # -- comparisons ----------------------------------------------------------------

    def _cmp(self, o: Any, rel: str) -> Any:
        e = _expr(o)
        if e is None:
            return NotImplemented
        diff = sympy.expand(self.expr - e)
        if diff.is_Integer:
            return _d.holds(diff, rel)
        r = _d.try_decide(diff, rel)
        if r is None:
            raise _d.undecided(self.expr, rel, e)
        return r

    def __eq__(self, o: object) -> Any:
        if type(o) is Sym and (o is self or o.expr == self.expr):
            return True
        return self._cmp(o, "==")

    def __ne__(self, o: object) -> Any:
        r = self.__eq__(o)
        return r if r is NotImplemented else not r

    def __lt__(self, o: Any) -> Any:
        return self._cmp(o, "<")

    def __le__(self, o: Any) -> Any:
        return self._cmp(o, "<=")

    def __gt__(self, o: Any) -> Any:
        return self._cmp(o, ">")

    def __ge__(self, o: Any) -> Any:
        return self._cmp(o, ">=")

    def __bool__(self) -> bool:
        return self._cmp(0, "!=")

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(self.expr)
        return h

    # -- conversions ------------------------------------------------------------------

    def __int__(self) -> int:
        raise SymbolicError(f"{self} is symbolic: substitute values for {self.free_symbols} first")

    def _sympy_(self) -> Any:
        return self.expr

    @property
    def free_symbols(self) -> set:
        """The sympy symbols in the expression."""
        return self.expr.free_symbols

    def subs(self, values: Any) -> Any:
        """The value (an int when every symbol gets one) under ``{symbol: value}``."""
        from .subst import substitution

        return wrap(self.expr.xreplace(substitution(values)))

    def latex(self) -> str:
        """The expression in LaTeX."""
        return sympy.latex(self.expr)

    def __str__(self) -> str:
        return _d.to_str(self.expr).replace(" ", "")

    __repr__ = __str__

    def __reduce__(self):
        return (Sym, (self.expr,))


numbers.Integral.register(Sym)  # a symbolic integer is an integer leaf for the core
