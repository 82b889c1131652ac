"""What is known about each symbol: a lower bound, an upper bound, a modulus.

Facts are per symbol and global (like sympy's assumptions, but with the integer
facts that layouts need). :func:`symbols` declares new symbols, :func:`declare`
adds facts to existing ones, and :func:`assuming` narrows them for a ``with`` block
(the prover uses it to split cases). sympy is imported only when a symbol is made.

>>> M, N = symbols("M N", multiple_of=(8, 128))
>>> print(facts_of(M.expr).describe("M"), "|", facts_of(N.expr).describe("N"))
M >= 8, M % 8 == 0 | N >= 128, N % 128 == 0
>>> with assuming({M.expr: Facts(8, 8, 8)}):
...     print(facts_of(M.expr).describe("M"))
M == 8
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..errors import SymbolicError


class Undecided(SymbolicError):
    """A comparison whose answer depends on the values of the symbols.

    ``fact`` names a fact that would decide it (``"N % 128 == 0"``); ``expr`` and
    ``rel`` are the sympy expression and the relation to 0 that was asked;
    ``holds_at``/``fails_at`` are assignments that make it true / false, when found.
    """

    def __init__(self, message: str, fact: str = "", expr: Any = None, rel: str = "",
                 holds_at: dict | None = None, fails_at: dict | None = None,
                 sides: tuple | None = None):
        super().__init__(message)
        self.fact = fact
        self.expr = expr
        self.rel = rel
        self.holds_at = holds_at
        self.fails_at = fails_at
        self.sides = sides  # (lhs, rhs) of the comparison, when it was one


@dataclass(frozen=True)
class Facts:
    """``multiple`` divides the symbol; ``lo <= symbol <= hi`` (``None``: unbounded).

    >>> Facts(8, 1).first()
    8
    >>> Facts(8, 1, 4)
    Traceback (most recent call last):
    ...
    cutepy.errors.SymbolicError: no multiple of 8 lies in [1, 4]
    """

    multiple: int = 1
    lo: int | None = 1
    hi: int | None = None

    def __post_init__(self) -> None:
        if type(self.multiple) is not int or self.multiple < 1:
            raise SymbolicError(f"multiple_of must be a positive integer, got {self.multiple!r}")
        for b in (self.lo, self.hi):
            if b is not None and type(b) is not int:
                raise SymbolicError(f"bounds must be integers, got {b!r}")
        if self.lo is not None and self.hi is not None:
            m = self.multiple
            if -(-self.lo // m) * m > self.hi:
                raise SymbolicError(f"no multiple of {m} lies in [{self.lo}, {self.hi}]")

    def first(self) -> int | None:
        """The smallest admissible value (``None`` when unbounded below)."""
        if self.lo is None:
            return None
        return -(-self.lo // self.multiple) * self.multiple

    def last(self) -> int | None:
        """The largest admissible value (``None`` when unbounded above)."""
        if self.hi is None:
            return None
        return (self.hi // self.multiple) * self.multiple

    def refine(self, multiple: int | None = None, lo: int | None = None,
               hi: int | None = None) -> Facts:
        """These facts and more: moduli combine by lcm, bounds by intersection."""
        import math

        m = self.multiple if multiple is None else math.lcm(self.multiple, multiple)
        new_lo = self.lo if lo is None else (lo if self.lo is None else max(lo, self.lo))
        new_hi = self.hi if hi is None else (hi if self.hi is None else min(hi, self.hi))
        return Facts(m, new_lo, new_hi)

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
        return ", ".join(parts) if parts else f"{name} is an integer"


_REGISTRY: dict[Any, Facts] = {}
_OVERRIDES: list[Mapping[Any, Facts]] = []
_RELATIONS: list[tuple[tuple, tuple]] = []  # per assuming(): (substitutions, nonzero expressions)
_COUNTER = itertools.count(1)
_STATE = {"version": 0}


def version() -> int:
    """A number that changes whenever any fact changes (keys the decision caches)."""
    return _STATE["version"]


def _bump() -> None:
    _STATE["version"] = next(_COUNTER)


def facts_of(symbol: Any) -> Facts:
    """The facts in force for a sympy symbol (innermost :func:`assuming` first)."""
    for ov in reversed(_OVERRIDES):
        f = ov.get(symbol)
        if f is not None:
            return f
    f = _REGISTRY.get(symbol)
    if f is not None:
        return f
    if getattr(symbol, "is_positive", None):
        return Facts(1, 1)
    if getattr(symbol, "is_nonnegative", None):
        return Facts(1, 0)
    return Facts(1, None)


def _per_name(value: Any, n: int, what: str) -> list:
    if isinstance(value, (tuple, list)):
        if len(value) != n:
            raise SymbolicError(f"{what} gives {len(value)} values for {n} symbols")
        return list(value)
    return [value] * n


def symbols(names: str, *, positive: bool = True, multiple_of: Any = 1, min: Any = None,
            max: Any = None) -> Any:
    """Declare integer symbols and their facts; returns one :class:`Sym` or a tuple of them.

    ``names`` is split on spaces and commas. ``multiple_of``, ``min`` and ``max`` may be
    one value for all or a tuple with one value per name. ``positive`` means ``>= 1``;
    ``positive=False`` with no ``min`` leaves the symbol unbounded below.

    >>> from cutepy import Layout
    >>> M, N = symbols("M N", multiple_of=(8, 128))
    >>> print(Layout((M, N)))
    (M,N):(1,M)
    >>> K = symbols("K", positive=False, min=0, max=7)
    >>> print(facts_of(K.expr).describe("K"))
    K >= 0, K <= 7
    """
    import sympy

    from .sym import Sym

    parts = [p for p in names.replace(",", " ").split() if p]
    if not parts:
        raise SymbolicError("symbols() needs at least one name")
    mults = _per_name(multiple_of, len(parts), "multiple_of")
    los = _per_name(min, len(parts), "min")
    his = _per_name(max, len(parts), "max")
    out = []
    for name, m, lo, hi in zip(parts, mults, los, his):
        if lo is None and positive:
            lo = 1
        elif lo is not None and positive and lo < 1:
            raise SymbolicError(f"{name}: min={lo} contradicts positive=True")
        facts = Facts(int(m), lo, hi)
        first = facts.first()
        sym = sympy.Symbol(name, integer=True, positive=bool(first is not None and first >= 1))
        _REGISTRY[sym] = facts
        out.append(Sym._from_symbol(sym))
    _bump()
    return out[0] if len(out) == 1 else tuple(out)


def declare(*syms: Any, multiple_of: int | None = None, min: int | None = None,
            max: int | None = None) -> None:
    """Add facts to symbols already declared (moduli combine by lcm, bounds intersect).

    >>> (P,) = (symbols("P"),)
    >>> declare(P, multiple_of=4, min=16)
    >>> print(facts_of(P.expr).describe("P"))
    P >= 16, P % 4 == 0
    """
    for s in syms:
        sym = getattr(s, "expr", s)
        if not getattr(sym, "is_Symbol", False):
            raise SymbolicError(f"declare() takes symbols, got {s!r}")
        _REGISTRY[sym] = facts_of(sym).refine(multiple_of, min, max)
    _bump()


@contextmanager
def assuming(overrides: Mapping[Any, Facts], subst: Any = (), nonzero: Any = ()) -> Iterator[None]:
    """Within the block, the given symbols have the given facts (keys: sympy symbols).

    ``subst`` is a sequence of ``(symbol, expression)`` equalities the decisions use
    (``M == 8*N``), ``nonzero`` a sequence of expressions known to be non-zero; the
    prover uses both for cases that a relation between symbols splits.
    """
    _OVERRIDES.append(dict(overrides))
    _RELATIONS.append((tuple(subst), tuple(nonzero)))
    _bump()
    try:
        yield
    finally:
        _OVERRIDES.pop()
        _RELATIONS.pop()
        _bump()


def relations() -> tuple[tuple, tuple]:
    """The substitutions and non-zero expressions in force, innermost last."""
    subst: tuple = ()
    nonzero: tuple = ()
    for s, n in _RELATIONS:
        subst += s
        nonzero += n
    return subst, nonzero

