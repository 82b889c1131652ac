"""Relaxation of integer expressions into polynomials over boxes, and what their signs can be.

A symbol ``x`` with facts ``multiple m, x >= lo`` becomes ``first + m*u`` with ``u >= 0``
(``first`` its smallest admissible value); ``N // 128``, ``ceil(N/128)`` and ``N % 128``
that do not simplify become fresh integer variables bounded by what is known of their
arguments; the equalities of the enclosing :func:`~cutepy.core.symbolic.facts.assuming` are
put in first. :func:`signs` then says which of ``< 0``, ``== 0``, ``> 0`` are possible.

>>> from cutepy.symbolic import symbols
>>> M = symbols("M", multiple_of=8)
>>> s = signs((M - 8).expr)
>>> s.neg, s.zero, s.pos
(False, True, True)
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import sympy

from .facts import facts_of, memo, relations

_INF = float("inf")
_MISS = object()


class Relaxed:
    """``expr`` as a polynomial ``sum(coef * prod(v**e))`` over integer variables in boxes.

    ``exact`` is True when every variable is a symbol (no ``//``/``%`` atoms), so each
    point of the box is a real assignment; ``to_symbols`` maps a point back.
    """

    __slots__ = ("terms", "bounds", "exact", "back")

    def __init__(self, terms: list, bounds: list, exact: bool, back: list):
        self.terms = terms  # [(exponents tuple, Fraction)]
        self.bounds = bounds  # [(lo|None, hi|None)]
        self.exact = exact
        self.back = back  # [(symbol, base, step)] for symbol variables, None for atoms

    def constant(self) -> Fraction:
        for e, c in self.terms:
            if not any(e):
                return c
        return Fraction(0)

    def interval(self) -> tuple[Any, Any]:
        """Sound bounds ``[L, U]`` of the polynomial over the box (``±inf`` when unbounded)."""
        lo_sum: Any = 0
        hi_sum: Any = 0
        for exps, c in self.terms:
            lo, hi = Fraction(1), Fraction(1)
            for k, e in enumerate(exps):
                if e:
                    a, b = _pow_range(self.bounds[k], e)
                    lo, hi = _mul_range(lo, hi, a, b)
            lo, hi = _mul_range(lo, hi, c, c)
            lo_sum, hi_sum = lo_sum + lo, hi_sum + hi
        return lo_sum, hi_sum

    def int_terms(self) -> list[tuple[tuple, int]]:
        """The terms scaled by a positive integer so that every coefficient is an integer."""
        den = 1
        for _, c in self.terms:
            den = den * c.denominator // math.gcd(den, c.denominator)
        return [(e, int(c * den)) for e, c in self.terms]

    def value(self, point: tuple) -> Fraction:
        total = Fraction(0)
        for exps, c in self.terms:
            t = c
            for v, e in zip(point, exps):
                if e:
                    t *= v**e
            total += t
        return total

    def to_symbols(self, point: tuple) -> dict:
        return {sym: base + step * v for (sym, base, step), v in zip(self.back, point)}


def _xmul(x: Any, y: Any) -> Any:
    return 0 if x == 0 or y == 0 else x * y


def _mul_range(a: Any, b: Any, c: Any, d: Any) -> tuple[Any, Any]:
    ps = (_xmul(a, c), _xmul(a, d), _xmul(b, c), _xmul(b, d))
    return min(ps), max(ps)


def _pow_range(bounds: tuple, e: int) -> tuple[Any, Any]:
    a = -_INF if bounds[0] is None else bounds[0]
    b = _INF if bounds[1] is None else bounds[1]
    pa, pb = _xpow(a, e), _xpow(b, e)
    if e % 2 == 1 or a >= 0:
        return pa, pb
    if b <= 0:
        return pb, pa
    return 0, max(pa, pb)


def _xpow(x: Any, e: int) -> Any:
    if x in (_INF, -_INF):
        return _INF if (x > 0 or e % 2 == 0) else -_INF
    return x**e


_ATOMS = (sympy.floor, sympy.ceiling, sympy.Mod)


def _atoms(expr: Any) -> list:
    return list(expr.atoms(*_ATOMS))


def substituted(expr: Any) -> Any:
    """``expr`` with the equalities of the enclosing :func:`~.facts.assuming` put in."""
    subst = relations()[0]
    for _ in range(len(subst)):
        new = expr
        for x, e in subst:
            new = new.xreplace({x: e})
        if new == expr:
            break
        expr = sympy.expand(new)
    return expr


def relax(expr: Any) -> Relaxed | None:
    """The relaxation of ``expr`` under the facts in force (``None`` if not a polynomial)."""
    table = memo()
    key = ("relax", expr)
    hit = table.get(key, _MISS)
    if hit is _MISS:
        hit = table[key] = _relax(substituted(expr))
    return hit


def _relax(expr: Any) -> Relaxed | None:
    atoms = _atoms(expr)
    gens: list = []
    bounds: list = []
    back: list = []
    amap: dict = {}
    for i, a in enumerate(atoms):
        v = sympy.Dummy(f"a{i}", integer=True)
        amap[a] = v
        gens.append(v)
        bounds.append(_atom_bounds(a))
        back.append(None)
    smap: dict = {}
    for s in sorted(expr.xreplace(amap).free_symbols, key=str):
        if s in amap.values():
            continue
        f = facts_of(s)
        u = sympy.Dummy(f"u_{s}", integer=True)
        first, last = f.first(), f.last()
        if first is not None:
            smap[s] = first + f.multiple * u
            bounds.append((0, None if last is None else (last - first) // f.multiple))
            back.append((s, first, f.multiple))
        elif last is not None:
            smap[s] = last - f.multiple * u
            bounds.append((0, None))
            back.append((s, last, -f.multiple))
        else:
            smap[s] = f.multiple * u
            bounds.append((None, None))
            back.append((s, 0, f.multiple))
        gens.append(u)
    body = expr.xreplace(amap).xreplace(smap)
    try:
        poly = sympy.Poly(sympy.expand(body), *gens) if gens else None
    except sympy.PolynomialError:
        return None
    if poly is None:
        if not body.is_Rational:
            return None
        terms = [((), Fraction(int(body.p), int(body.q)))]
    else:
        if not poly.domain.is_Exact or not (poly.domain.is_ZZ or poly.domain.is_QQ):
            return None
        terms = [(e, Fraction(int(c.p), int(c.q))) for e, c in poly.terms() if c != 0]
    return Relaxed(terms, bounds, not atoms, back)


def _atom_bounds(a: Any) -> tuple[Any, Any]:
    if isinstance(a, sympy.Mod):
        q = a.args[1]
        if q.is_Integer:
            q = int(q)
            return (0, q - 1) if q > 0 else (q + 1, 0)
        r = relax(q)
        if r is not None and r.interval()[0] >= 1:
            return (0, None)
        return (None, None)
    num, den = sympy.fraction(sympy.together(a.args[0]))
    if not den.is_Integer or int(den) <= 0:
        return (None, None)
    r = relax(num)
    if r is None:
        return (None, None)
    lo, hi = r.interval()
    c = int(den)
    rnd = math.floor if isinstance(a, sympy.floor) else math.ceil
    return (None if lo == -_INF else rnd(lo / c), None if hi == _INF else rnd(hi / c))


# -- signs ------------------------------------------------------------------------------


class Signs:
    """Which signs the expression can take: False = impossible, True = attained, None = unknown."""

    __slots__ = ("neg", "zero", "pos", "witness")

    def __init__(self, neg: Any, zero: Any, pos: Any, witness: dict | None = None):
        self.neg, self.zero, self.pos = neg, zero, pos
        self.witness = witness or {}  # sign (-1, 0, 1) -> assignment


_EXHAUST = 4096
#: a symbol with at most _FEW values, in an expression with at most _FEW_POINTS assignments,
#: is decided by trying each (exact; the relaxation is not needed)
_FEW = 16
_FEW_POINTS = 256


def signs(expr: Any) -> Signs:
    """What is provable about the sign of ``expr`` (remembered under the knowledge in force)."""
    table = memo()
    key = ("signs", expr)
    hit = table.get(key)
    if hit is None:
        hit = table[key] = _signs(expr)
    return hit


def _signs(expr: Any) -> Signs:
    if expr.is_Integer:
        v = int(expr)
        return Signs(v < 0, v == 0, v > 0)
    finite = _finite_signs(expr)
    if finite is not None:
        return finite
    r = relax(expr)
    if r is None:
        return Signs(None, None, None)
    if all(not any(e) for e, _ in r.terms) or not r.terms:
        c = r.constant()
        return Signs(c < 0, c == 0, c > 0)
    lo, hi = r.interval()
    neg = None if lo < 0 else False
    pos = None if hi > 0 else False
    zero = None if lo <= 0 <= hi else False
    if zero is None:
        its = r.int_terms()
        g = 0
        c0 = 0
        for e, c in its:
            if any(e):
                g = math.gcd(g, c)
            else:
                c0 = c
        if g and c0 % g:
            zero = False
    if zero is None and _known_nonzero(expr):
        zero = False
    s = Signs(neg, zero, pos)
    points = _exhaustive_points(r)
    if points is not None:
        seen: dict = {}
        for p in points:
            v = r.value(p)
            k = (v > 0) - (v < 0)
            if k not in seen:
                seen[k] = p
        if r.exact:  # every point an assignment of the box (the non-zero facts are not in the box:
            wit = {k: r.to_symbols(p) for k, p in seen.items()}  # a zero they rule out stays ruled out)
            return Signs(-1 in seen, 0 in seen and zero is not False, 1 in seen, wit)
        # a relaxed box: what is not seen is impossible, what is seen may not be
        s.neg = s.neg if -1 in seen else False
        s.zero = s.zero if 0 in seen else False
        s.pos = s.pos if 1 in seen else False
    return s


def _finite_signs(expr: Any) -> Signs | None:
    """Exact signs when every symbol has finitely many admissible values (a ``divides`` fact),
    few enough to try each assignment (the equations and non-zero facts in force respected)."""
    subst, nonzero = relations()
    e = substituted(expr)
    syms = sorted(e.free_symbols | {x for p in nonzero for x in substituted(p).free_symbols}, key=str)
    choices = []
    for x in syms:
        f = facts_of(x)
        vals = f.values()
        if vals is None:
            first, last = f.first(), f.last()
            if first is None or last is None or (last - first) // f.multiple >= _FEW:
                return None
            vals = tuple(range(first, last + 1, f.multiple))
        choices.append(vals)
    if not syms or math.prod(len(c) for c in choices) > _FEW_POINTS:
        return None
    seen: dict = {}
    for point in itertools.product(*choices):
        a = {x: sympy.Integer(v) for x, v in zip(syms, point)}
        if any(substituted(p).xreplace(a) == 0 for p in nonzero):
            continue
        if any(x in a and not sympy.sympify(y).xreplace(a) == a[x] for x, y in subst):
            continue
        v = e.xreplace(a)
        if not v.is_Integer:
            return None
        iv = int(v)
        seen.setdefault((iv > 0) - (iv < 0), {x: int(val) for x, val in a.items()})
    return Signs(-1 in seen, 0 in seen, 1 in seen, seen)


def _known_nonzero(expr: Any) -> bool:
    """Whether ``expr`` is a constant multiple of an expression assumed non-zero."""
    nonzero = relations()[1]
    if not nonzero:
        return False
    e = substituted(expr)
    try:
        factors = [f for f, _ in sympy.factor_list(e)[1]]
    except sympy.PolynomialError:
        factors = [e]
    for f in factors:
        if any(sympy.cancel(f / substituted(p)).is_number for p in nonzero):
            continue
        if len(factors) > 1 and signs(sympy.expand(f)).zero is False:
            continue
        return False
    return True


def _exhaustive_points(r: Relaxed) -> Any:
    """Every point that matters, if few: a small box, or one variable up to its root bound."""
    used = [k for k in range(len(r.bounds)) if any(e[k] for e, _ in r.terms)]
    if len(used) == 1:
        k = used[0]
        a, b = r.bounds[k]
        its = r.int_terms()
        deg = max(e[k] for e, _ in its)
        lead = sum(c for e, c in its if e[k] == deg)
        R = 1 + max(abs(c) for e, c in its) // abs(lead) + 1
        lo = -R if a is None else max(a, -R - 1)
        hi = R if b is None else min(b, R + 1)
        if lo > hi or hi - lo > _EXHAUST:
            return None
        zero = [0] * len(r.bounds)
        pts = []
        for v in range(lo, hi + 1):
            p = list(zero)
            p[k] = v
            pts.append(tuple(p))
        return pts
    size = 1
    for k in used:
        a, b = r.bounds[k]
        if a is None or b is None:
            return None
        size *= b - a + 1
        if size > _EXHAUST:
            return None
    ranges = [range(r.bounds[k][0], r.bounds[k][1] + 1) if k in used else (0,) for k in range(len(r.bounds))]
    return itertools.product(*ranges)
