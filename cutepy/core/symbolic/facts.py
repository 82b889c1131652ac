"""What is known about each symbol: a lower bound, an upper bound, a modulus.

The facts a symbol is declared with travel *with* the symbol (see :mod:`.sym`): two
symbols of the same name but different facts are different symbols, and a symbol
means the same thing in every thread. What a context adds lives in a
:class:`Scope`, an immutable value held by a :class:`contextvars.ContextVar`:
:func:`declare` refines the facts of symbols for the rest of the context,
:func:`assuming` narrows them for a ``with`` block (the prover uses it to split
cases), and the names declared by :func:`~.sym.symbols` are found there (the XLA
parser reads ``f32[M,N]`` through them). Nothing is global: another thread, or a
copied context, sees only its own declarations. This module never imports sympy.

>>> from cutepy.symbolic import symbols
>>> M, N = symbols("M N", multiple_of=(8, 128))
>>> print(facts_of(M.expr).describe("M"), "|", facts_of(N.expr).describe("N"))
M >= 8, M % 8 == 0 | N >= 128, N % 128 == 0
>>> with assuming({M.expr: Facts(8, 8, 8)}):
...     print(facts_of(M.expr).describe("M"))
M == 8
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import total_ordering
from types import MappingProxyType
from typing import Any

from ..errors import SymbolicError, Undecided

__all__ = ["Facts", "Scope", "SymbolicError", "Undecided", "assuming", "declare", "declared_facts",
           "facts_of", "memo", "named", "own_facts", "relations", "remember_names", "scope"]


@total_ordering
@dataclass(frozen=True)
class Facts:
    """``multiple`` divides the symbol; ``lo <= symbol <= hi`` (``None``: unbounded).

    >>> Facts(8, 1).first()
    8
    >>> Facts(8, 1).admits(12)
    False
    >>> Facts(8, 1, 4)
    Traceback (most recent call last):
    ...
    cutepy.SymbolicError: no multiple of 8 lies in [1, 4]
    """

    multiple: int = 1
    lo: int | None = 1
    hi: int | None = None
    #: the symbol divides this positive integer (``4 % K == 0``): finitely many values
    divides: int | None = None

    def __post_init__(self) -> None:
        if type(self.multiple) is not int or self.multiple < 1:
            raise SymbolicError(f"multiple_of must be a positive integer, got {self.multiple!r}")
        for b in (self.lo, self.hi):
            if b is not None and type(b) is not int:
                raise SymbolicError(f"bounds must be integers, got {b!r}")
        if self.divides is not None:
            if type(self.divides) is not int or self.divides < 1:
                raise SymbolicError(f"divides must be a positive integer, got {self.divides!r}")
            if not self.values():
                raise SymbolicError(f"no divisor of {self.divides} is a multiple of {self.multiple} in "
                                    f"[{self.lo}, {self.hi}]")
        elif self.lo is not None and self.hi is not None:
            m = self.multiple
            if -(-self.lo // m) * m > self.hi:
                raise SymbolicError(f"no multiple of {m} lies in [{self.lo}, {self.hi}]")

    def _key(self) -> tuple:
        return (self.multiple, self.lo is not None, self.lo or 0, self.hi is not None, self.hi or 0,
                self.divides or 0)

    def values(self) -> tuple | None:
        """Every admissible value when there are finitely many known by a ``divides`` fact, else None."""
        if self.divides is None:
            return None
        n = self.divides
        small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
        divisors = sorted(set(small) | {n // d for d in small})
        return tuple(d for d in divisors if d % self.multiple == 0
                     and (self.lo is None or d >= self.lo) and (self.hi is None or d <= self.hi))

    def __lt__(self, other: object) -> bool:
        # sympy orders symbols by their hashable content, which holds the facts: two symbols of
        # one name and different facts must compare, not raise TypeError
        if not isinstance(other, Facts):
            return NotImplemented
        return self._key() < other._key()

    def first(self) -> int | None:
        """The smallest admissible value (``None`` when unbounded below)."""
        vals = self.values()
        if vals is not None:
            return vals[0]
        if self.lo is None:
            return None
        return -(-self.lo // self.multiple) * self.multiple

    def last(self) -> int | None:
        """The largest admissible value (``None`` when unbounded above)."""
        vals = self.values()
        if vals is not None:
            return vals[-1]
        if self.hi is None:
            return None
        return (self.hi // self.multiple) * self.multiple

    def admits(self, value: int) -> bool:
        """Whether the integer ``value`` satisfies these facts."""
        return (value % self.multiple == 0 and (self.lo is None or value >= self.lo)
                and (self.hi is None or value <= self.hi)
                and (self.divides is None or (value >= 1 and self.divides % value == 0)))

    def refine(self, multiple: int | None = None, lo: int | None = None,
               hi: int | None = None, divides: int | None = None) -> Facts:
        """These facts and more: moduli combine by lcm, bounds by intersection, ``divides`` by gcd."""
        m = self.multiple if multiple is None else math.lcm(self.multiple, multiple)
        new_lo = self.lo if lo is None else (lo if self.lo is None else max(lo, self.lo))
        new_hi = self.hi if hi is None else (hi if self.hi is None else min(hi, self.hi))
        d = self.divides if divides is None else (divides if self.divides is None
                                                  else math.gcd(divides, self.divides))
        return Facts(m, new_lo, new_hi, d)

    def describe(self, name: str) -> str:
        """The facts as text: ``M >= 8, M % 8 == 0``."""
        first, last = self.first(), self.last()
        if first is not None and first == last:
            return f"{name} == {first}"
        parts = []
        if first is not None:
            parts.append(f"{name} >= {first}")
        if last is not None:
            parts.append(f"{name} <= {last}")
        if self.multiple > 1:
            parts.append(f"{name} % {self.multiple} == 0")
        if self.divides is not None:
            parts.append(f"{self.divides} % {name} == 0")
        return ", ".join(parts) if parts else f"{name} is an integer"


_EMPTY: Mapping = MappingProxyType({})

#: Most decisions one scope remembers, and most scopes one context remembers decisions for.
MEMO_LIMIT = 10_000
MEMO_SCOPES = 128


@dataclass(frozen=True, eq=False)
class Scope:
    """What a context knows beyond the symbols' own facts; immutable, replaced on change.

    ``declared``: facts added by :func:`declare`; ``assumed``: facts of the enclosing
    :func:`assuming` blocks (innermost wins); ``subst``: equalities ``(symbol, expression)``
    in force; ``nonzero``: expressions known to be non-zero; ``names``: the symbols
    declared in this context, by name. ``memos`` holds the decisions made so far, one
    table per distinct knowledge (the key is everything that decisions depend on), so a
    remembered decision can never be one made under other facts.
    """

    declared: Mapping = field(default_factory=lambda: _EMPTY)
    assumed: Mapping = field(default_factory=lambda: _EMPTY)
    subst: tuple = ()
    nonzero: tuple = ()
    names: Mapping = field(default_factory=lambda: _EMPTY)
    memos: dict = field(default_factory=dict, repr=False)

    def key(self) -> tuple:
        return (frozenset(self.declared.items()), frozenset(self.assumed.items()), self.subst, self.nonzero)

    def memo(self) -> dict:
        """The table of decisions made under exactly this knowledge."""
        m = self.__dict__.get("_table")
        if m is None:
            k = self.key()
            m = self.memos.get(k)
            if m is None:
                if len(self.memos) >= MEMO_SCOPES:
                    self.memos.clear()
                m = self.memos[k] = {}
            object.__setattr__(self, "_table", m)  # a cache of a value derived from the fields
        elif len(m) >= MEMO_LIMIT:
            m.clear()
        return m

    def derive(self, **changes: Any) -> Scope:
        new = {"declared": self.declared, "assumed": self.assumed, "subst": self.subst,
               "nonzero": self.nonzero, "names": self.names, "memos": self.memos}
        for k, v in changes.items():
            new[k] = MappingProxyType(dict(v)) if isinstance(v, dict) else v
        return Scope(**new)


_SCOPE: ContextVar[Scope | None] = ContextVar("cutepy_symbolic_scope", default=None)

_LENIENT: ContextVar[bool] = ContextVar("cutepy_symbolic_lenient", default=False)


@contextmanager
def undecided_unequal() -> Iterator[None]:
    """For the ``with`` block (this context only), an equality the facts leave open answers
    False instead of raising :class:`Undecided`: modes that may or may not be equal are
    kept apart. What a lenient normal form (:mod:`cutepy.equivalence.normal_form`) needs.

    >>> from cutepy import symbols
    >>> K = symbols("Kl")
    >>> with undecided_unequal():
    ...     K == 4, K != 4
    (False, True)
    """
    token = _LENIENT.set(True)
    try:
        yield
    finally:
        _LENIENT.reset(token)


def lenient_equality() -> bool:
    """Whether :func:`undecided_unequal` is in force in this context."""
    return _LENIENT.get()


def scope() -> Scope:
    """The knowledge of the current context (made, empty, on first use in a context)."""
    s = _SCOPE.get()
    if s is None:
        s = Scope()
        _SCOPE.set(s)
    return s


def memo() -> dict:
    """The decision table of the current knowledge (see :class:`Scope`)."""
    return scope().memo()


def own_facts(symbol: Any) -> Facts:
    """The facts a symbol was made with (sympy's assumptions for a plain sympy symbol)."""
    f = getattr(symbol, "facts", None)
    if f is not None:
        return f
    if getattr(symbol, "is_positive", None):
        return Facts(1, 1)
    if getattr(symbol, "is_nonnegative", None):
        return Facts(1, 0)
    return Facts(1, None)


def declared_facts(symbol: Any) -> Facts | None:
    """The facts declared for a symbol (its own and :func:`declare`'s, not :func:`assuming`'s);
    None for a plain sympy symbol with nothing declared."""
    f = scope().declared.get(symbol)
    if f is not None:
        return f
    return getattr(symbol, "facts", None)


def facts_of(symbol: Any) -> Facts:
    """The facts in force for a symbol (a :class:`~cutepy.core.symbolic.sym.Sym` of one symbol, or
    its sympy symbol), innermost :func:`assuming` first.

    Pre:  ``symbol`` is a ``Sym`` of exactly one symbol, or a sympy symbol.
    Post: the declared facts overridden by the innermost :func:`assuming` that names it.

    >>> from cutepy import symbols
    >>> facts_of(symbols("Nf", multiple_of=128))
    Facts(multiple=128, lo=1, hi=None, divides=None)
    """
    symbol = getattr(symbol, "expr", symbol)  # a Sym leaf stands for its expression
    s = scope()
    f = s.assumed.get(symbol)
    if f is None:
        f = s.declared.get(symbol)
    return own_facts(symbol) if f is None else f


def named(name: str) -> Any:
    """The symbol declared under ``name`` in this context (a sympy symbol), or None."""
    return scope().names.get(name)


def remember_names(syms: Any) -> None:
    """Make symbols findable by name in this context (the newest of a name wins)."""
    s = scope()
    names = dict(s.names)
    for x in syms:
        names[x.name] = x
    _SCOPE.set(s.derive(names=names))


def declare(*syms: Any, multiple_of: int | None = None, min: int | None = None,
            max: int | None = None, divides: int | None = None) -> None:
    """Add facts to symbols for the rest of this context (moduli combine by lcm, bounds intersect).

    Pre: every argument is a symbol (a :class:`~.sym.Sym` of one symbol, or a sympy
    symbol), and the facts leave it some value. Post: :func:`facts_of` gives the refined
    facts in this context (and contexts copied from it later); other threads are unaffected.
    A ``declare`` inside an :func:`assuming` block ends with the block.

    >>> from cutepy.symbolic import symbols
    >>> P = symbols("P")
    >>> declare(P, multiple_of=4, min=16)
    >>> print(facts_of(P.expr).describe("P"))
    P >= 16, P % 4 == 0
    """
    s = scope()
    declared = dict(s.declared)
    for x in syms:
        sym = getattr(x, "expr", x)
        if not getattr(sym, "is_Symbol", False):
            raise SymbolicError(f"declare() takes symbols, got {x!r}")
        base = declared.get(sym) or own_facts(sym)
        try:
            declared[sym] = base.refine(multiple_of, min, max, divides)
        except SymbolicError as e:
            raise SymbolicError(f"declare({sym}): {e}") from None
    _SCOPE.set(s.derive(declared=declared))


@contextmanager
def assuming(overrides: Mapping[Any, Facts], subst: Any = (), nonzero: Any = ()) -> Iterator[None]:
    """Within the block, the given symbols have the given facts (keys: sympy symbols).

    ``subst`` is a sequence of ``(symbol, expression)`` equalities the decisions use
    (``M == 8*N``), ``nonzero`` a sequence of expressions known to be non-zero; the
    prover uses both for cases that a relation between symbols splits. The block's
    knowledge is this context's only: other threads do not see it.

    Pre:  the keys of ``overrides`` are symbols (or ``Sym`` of one symbol), the values
          :class:`Facts`.
    Post: inside the block ``facts_of(s)`` is the override; after it the facts are restored,
          also when the block raises.

    >>> from cutepy import symbols
    >>> M = symbols("M", multiple_of=8)
    >>> with assuming({M: Facts(multiple=16)}):
    ...     print(facts_of(M))
    Facts(multiple=16, lo=1, hi=None, divides=None)
    >>> facts_of(M)
    Facts(multiple=8, lo=1, hi=None, divides=None)
    """
    if not isinstance(overrides, Mapping):
        raise SymbolicError(f"assuming takes a mapping {{symbol: Facts(...)}}, got {overrides!r}")
    checked = {}
    for k, v in overrides.items():
        if not isinstance(v, Facts):
            raise SymbolicError(f"assuming: the facts of {k} must be a Facts(...), got {v!r}")
        checked[getattr(k, "expr", k)] = v  # a Sym of one symbol stands for that symbol
    s = scope()
    token = _SCOPE.set(s.derive(assumed={**s.assumed, **checked}, subst=s.subst + tuple(subst),
                                nonzero=s.nonzero + tuple(nonzero)))
    try:
        yield
    finally:
        _SCOPE.reset(token)


def relations() -> tuple[tuple, tuple]:
    """The substitutions and non-zero expressions in force, innermost last."""
    s = scope()
    return s.subst, s.nonzero
