"""``Sym``: a symbolic integer, a sympy integer expression that the layout algebra uses as a leaf.

A ``Sym`` is registered as a :class:`numbers.Integral` but has no ``__index__``: that is
the core's contract for a symbolic leaf (``operator.index`` fails, so it stays as it
is), and the algebra runs on it unchanged. Arithmetic (``+ - * // % abs``, and ``/``
when exact) returns a ``Sym``, or a plain ``int`` once the symbols cancel.

Comparisons -- ``==`` and ``!=`` included -- are answered as an integer would answer
them for *every* assignment the facts admit: identical expressions are equal at once;
otherwise the facts decide, and when the answer depends on the values they raise
:class:`~cutepy.Undecided` (a :class:`~cutepy.SymbolicError`)
naming the fact that is missing. So a branch of the algebra is taken only when it is
the same branch for every assignment, and no answer is ever right for some values
only. Hashing follows the canonical (expanded) expression, so symbols live in sets,
dicts and tuples: ``(M, 4) == (M, 4)``, ``{M: 1}[M]``; ``(M, 4) == (N, 4)`` asks
whether ``M == N``, which the facts may not decide.

>>> from cutepy import Layout, coalesce
>>> from cutepy.symbolic import symbols
>>> M, N = symbols("M N", multiple_of=(8, 128))
>>> (M * N) // 8, (M + 8) % 8, N / 128
(M*N/8, 0, N/128)
>>> M * N > 512, M == 4, M == M, {M: 1}[M], len({M, M + 0, N})
(True, False, True, 1, 2)
>>> coalesce(Layout((M, N), (1, M)))
M*N:1
>>> print(Layout((M, N))(3, 2))
2*M+3
>>> M / 16
Traceback (most recent call last):
...
cutepy.Undecided: M / 16 is not known to be an integer (M >= 8, M % 8 == 0): \
needs M % 16 == 0 (declare(M, multiple_of=16)); it holds for M=16 and fails for M=8
"""

from __future__ import annotations

import operator
from numbers import Integral
from typing import Any

import sympy

from ..errors import SymbolicError
from . import decide as _d
from .facts import Facts, lenient_equality, remember_names


class Var(sympy.Symbol):
    """An integer symbol that carries the facts it was declared with (part of its identity:
    symbols of one name and different facts are different symbols)."""

    __slots__ = ("facts",)

    def __new__(cls, name: str, facts: Facts) -> Var:
        first = facts.first()
        assumptions = {"integer": True, "positive": bool(first is not None and first >= 1)}
        cls._sanitize(assumptions, cls)
        obj = sympy.Symbol.__xnew__(cls, name, **assumptions)
        obj.facts = facts
        return obj

    def __getnewargs_ex__(self) -> tuple:
        return (self.name, self.facts), {}

    def _hashable_content(self) -> tuple:
        return super()._hashable_content() + (self.facts,)


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


def from_sympy(expr: Any) -> Any:
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
    """An integer expression in declared symbols (see the module docstring).

    ``Sym(x)`` takes an int, a ``Sym`` or a sympy integer expression (a quotient must be
    exact for every admissible assignment) and returns an ``int`` when it is constant.

    >>> import sympy
    >>> Sym(sympy.Symbol("k", integer=True) * 3), Sym(sympy.Integer(6) / 2)
    (3*k, 3)
    """

    __slots__ = ("expr", "_hash")

    def __new__(cls, expr: Any) -> Any:
        e = _expr(expr)
        if e is None or getattr(e, "is_integer", None) is False and not e.is_number:
            raise SymbolicError(f"{expr!r} is not an integer expression")
        num, den = sympy.fraction(sympy.together(e))
        return from_sympy(_d.exact_div(num, den) if den != 1 else num)

    @staticmethod
    def _from_symbol(sym: Any) -> Sym:
        s = object.__new__(Sym)
        s.expr = sym
        s._hash = None
        return s

    # -- arithmetic ---------------------------------------------------------------

    def __add__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(self.expr + e)

    __radd__ = __add__

    def __sub__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(self.expr - e)

    def __rsub__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(e - self.expr)

    def __mul__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(self.expr * e)

    __rmul__ = __mul__

    def __neg__(self) -> Any:
        return from_sympy(-self.expr)

    def __pos__(self) -> Sym:
        return self

    def __abs__(self) -> Any:
        if _d.try_decide(self.expr, ">=") is True:
            return self
        if _d.try_decide(self.expr, "<=") is True:
            return from_sympy(-self.expr)
        raise _d.undecided(self.expr, ">=", sympy.Integer(0))

    def __pow__(self, k: int) -> Any:
        if type(k) is not int or k < 0:
            return NotImplemented
        return from_sympy(self.expr**k)

    def __floordiv__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(_d.floordiv(self.expr, e))

    def __rfloordiv__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(_d.floordiv(e, self.expr))

    def __mod__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(_d.mod(self.expr, e))

    def __rmod__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(_d.mod(e, self.expr))

    def __divmod__(self, o: Any) -> Any:
        return self // o, self % o

    # -- bits: shifts are arithmetic; & | ^ need the value (a swizzle of a symbolic offset) ----

    def __lshift__(self, k: Any) -> Any:
        return NotImplemented if type(k) is not int or k < 0 else self * (1 << k)

    def __rshift__(self, k: Any) -> Any:
        return NotImplemented if type(k) is not int or k < 0 else self // (1 << k)

    def _bits(self, o: Any, op: Any, name: str) -> Any:
        e = _expr(o)
        if e is None:
            return NotImplemented
        if name == "&" and e.is_Integer and int(e) >= 0 and (int(e) + 1) & int(e) == 0:
            return self % (int(e) + 1)  # a low-bit mask is a residue
        a, b = _d.pinned_value(self.expr), _d.pinned_value(e)
        if a is None or b is None:
            raise SymbolicError(f"{self} {name} {o} is not an expression in the symbols (a bitwise "
                                "operation, e.g. a swizzle of a symbolic offset): substitute values for "
                                "the symbols first (cutepy.subs), or fix them with assuming()")
        return op(a, b)

    def __and__(self, o: Any) -> Any:
        return self._bits(o, operator.and_, "&")

    def __or__(self, o: Any) -> Any:
        return self._bits(o, operator.or_, "|")

    def __xor__(self, o: Any) -> Any:
        return self._bits(o, operator.xor, "^")

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __truediv__(self, o: Any) -> Any:
        """Exact division: ``M / 8`` needs ``M % 8 == 0`` to follow from the facts."""
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(_d.exact_div(self.expr, e))

    def __rtruediv__(self, o: Any) -> Any:
        e = _expr(o)
        return NotImplemented if e is None else from_sympy(_d.exact_div(e, self.expr))

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
        """Equal for every admissible assignment: True, False, or :class:`Undecided`."""
        if o is self or type(o) is Sym and o.expr == self.expr:
            return True
        try:
            return self._cmp(o, "==")
        except SymbolicError:
            if lenient_equality():  # undecided: kept apart (see facts.undecided_unequal)
                return False
            raise

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

    # an Integral without __index__: operator.index(sym) raises TypeError (the core's test)

    def __trunc__(self) -> Sym:
        return self

    __floor__ = __ceil__ = __trunc__

    def __round__(self, ndigits: int | None = None) -> Sym:
        return self

    def _sympy_(self) -> Any:
        return self.expr

    @property
    def free_symbols(self) -> set:
        """The sympy symbols in the expression."""
        return self.expr.free_symbols

    def latex(self) -> str:
        """The expression in LaTeX."""
        return sympy.latex(self.expr)

    def __str__(self) -> str:
        return _d.to_str(self.expr).replace(" ", "")

    __repr__ = __str__

    def __reduce__(self):
        return (Sym, (self.expr,))


Integral.register(Sym)  # a symbolic integer is an integer leaf for the core


def _per_name(value: Any, n: int, what: str) -> list:
    if isinstance(value, (tuple, list)):
        if len(value) != n:
            raise SymbolicError(f"{what} gives {len(value)} values for {n} symbols")
        return list(value)
    return [value] * n


def _bound(v: Any, what: str) -> int | None:
    if v is None:
        return None
    if type(v) is bool:
        raise SymbolicError(f"{what} must be an integer, got {v!r}")
    try:
        return operator.index(v)
    except TypeError:
        raise SymbolicError(f"{what} must be an integer, got {v!r}") from None


def make_symbols(names: str, *, positive: bool = True, multiple_of: Any = 1, min: Any = None,
            max: Any = None, divides: Any = None) -> Any:
    """Declare integer symbols and their facts; returns one :class:`Sym` or a tuple of them.

    ``names`` is split on spaces and commas. ``multiple_of``, ``min``, ``max`` and
    ``divides`` (``divides=4``: the symbol is a divisor of 4, ``4 % K == 0``) may be one
    value for all or a tuple with one value per name. ``positive`` means ``>= 1``;
    ``positive=False`` with no ``min`` leaves the symbol unbounded below. The facts are
    part of each symbol; the names are remembered in this context (for text such as
    ``f32[M,N]`` and ``subs({"M": 16})``).

    >>> from cutepy import Layout
    >>> M, N = make_symbols("M N", multiple_of=(8, 128))
    >>> print(Layout((M, N)))
    (M,N):(1,M)
    >>> K = make_symbols("K", positive=False, min=0, max=7)
    >>> print(K.expr.facts.describe("K"))
    K >= 0, K <= 7
    """
    if not isinstance(names, str):
        raise SymbolicError(f"symbols() takes a string of names, got {names!r}")
    parts = [p for p in names.replace(",", " ").split() if p]
    if not parts:
        raise SymbolicError("symbols() needs at least one name")
    for p in parts:
        if not p.isidentifier():
            raise SymbolicError(f"symbols(): {p!r} is not a name")
    mults = _per_name(multiple_of, len(parts), "multiple_of")
    los = _per_name(min, len(parts), "min")
    his = _per_name(max, len(parts), "max")
    divs = _per_name(divides, len(parts), "divides")
    made = []
    for name, m, lo, hi, dv in zip(parts, mults, los, his, divs):
        m, lo, hi, dv = _bound(m, "multiple_of"), _bound(lo, "min"), _bound(hi, "max"), _bound(dv, "divides")
        if lo is None and positive:
            lo = 1
        elif lo is not None and positive and lo < 1:
            raise SymbolicError(f"{name}: min={lo} contradicts positive=True")
        made.append(Var(name, Facts(m, lo, hi, dv)))
    remember_names(made)
    out = [Sym._from_symbol(v) for v in made]
    return out[0] if len(out) == 1 else tuple(out)
