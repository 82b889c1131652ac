"""Deciding ``expr REL 0`` for every assignment that satisfies the declared facts.

An expression is *relaxed* into a polynomial over integer variables that live in
boxes (see :mod:`.relax`). Then, in order of cost:

* interval arithmetic over the box (exact when all coefficients share a sign: the
  corner ``u = 0`` attains the bound);
* a gcd argument that rules out 0 (``2*u + 1 != 0``);
* for one variable, or a small box, every relevant integer point (exact);
* otherwise a search for assignments on both sides, reported in the error.

A relation is *proved* (true for every assignment), *refuted* (false for every
one), or :class:`~cutepy.Undecided`, which names the fact that would
decide it.

>>> from cutepy.symbolic import symbols
>>> M, N = symbols("M N", multiple_of=(8, 128))
>>> decide((M * N - 1024).expr, ">=")
True
>>> decide((M - 8).expr, ">")
Traceback (most recent call last):
...
cutepy.Undecided: cannot decide whether M - 8 > 0 from the declared facts \
(M >= 8, M % 8 == 0): needs M > 8 (or its negation) (e.g. declare(M, min=9)); it holds for M=16 \
and fails for M=8
>>> print(to_str(floordiv((N + 127).expr, 128)), to_str(mod((M + 4).expr, 16)))
N/128 (M + 4) % 16
"""

from __future__ import annotations

import math
import random
from typing import Any

import sympy

from ..errors import SymbolicError
from .facts import Undecided, facts_of, memo
from .printing import to_str
from .relax import _INF, _MISS, _atoms, relax, signs, substituted

__all__ = [
    "decide", "exact_div", "floordiv", "holds", "mod", "pinned_value", "quotient", "relax",
    "sample_assignments", "search", "signs", "substituted", "to_str", "try_decide", "undecided",
]

# -- decisions --------------------------------------------------------------------------

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def try_decide(expr: Any, rel: str) -> bool | None:
    """``expr REL 0`` for every assignment: True, False, or None when not decided."""
    if rel in ("<", "<="):
        return try_decide(-expr, _FLIP[rel])
    if rel == "!=":
        r = try_decide(expr, "==")
        return None if r is None else not r
    s = signs(expr)
    if rel == "==":
        if s.neg is False and s.pos is False:
            return True
        if s.zero is False:
            return False
    elif rel == ">":
        if s.neg is False and s.zero is False:
            return True
        if s.pos is False:
            return False
    elif rel == ">=":
        if s.neg is False:
            return True
        if s.zero is False and s.pos is False:
            return False
    else:
        raise ValueError(f"unknown relation {rel!r}")
    return None


def decide(expr: Any, rel: str, lhs: Any = None, rhs: Any = None) -> bool:
    """``expr REL 0`` for every admissible assignment, or :class:`Undecided`.

    ``lhs``/``rhs`` (expressions with ``lhs - rhs == expr``) only word the error.
    """
    r = try_decide(expr, rel)
    if r is not None:
        return r
    if lhs is None:
        lhs, rhs = expr, sympy.Integer(0)
    raise undecided(lhs, rel, rhs)


def pinned_value(expr: Any) -> int | None:
    """The value of ``expr`` when the facts in force leave each of its symbols one value
    (as under the prover's case ``M == 8``), else None."""
    expr = substituted(sympy.sympify(expr))
    if expr.is_Integer:
        return int(expr)
    sub = {}
    for s in expr.free_symbols:
        f = facts_of(s)
        first = f.first()
        if first is None or first != f.last():
            return None
        sub[s] = sympy.Integer(first)
    v = expr.xreplace(sub)
    return int(v) if v.is_Integer else None


def holds(expr: Any, rel: str) -> bool:
    """``expr REL 0`` for an expression without symbols."""
    v = int(expr)
    return {"==": v == 0, "!=": v != 0, "<": v < 0, "<=": v <= 0, ">": v > 0, ">=": v >= 0}[rel]


def undecided(lhs: Any, rel: str, rhs: Any) -> Undecided:
    """The error for ``lhs REL rhs``: the fact it needs, the facts known, and witnesses."""
    expr = sympy.expand(lhs - rhs)
    yes, no = search(expr, rel)
    fact, hint = needed_fact(lhs, rel, rhs)
    syms = sorted(expr.free_symbols, key=str)
    known = "; ".join(facts_of(s).describe(str(s)) for s in syms) or "none"
    msg = (f"cannot decide whether {to_str(lhs)} {rel} {to_str(rhs)} from the declared facts "
           f"({known}): needs {fact}")
    msg += hint
    if yes is not None and no is not None:
        msg += f"; it holds for {_assign_text(yes)} and fails for {_assign_text(no)}"
    return Undecided(msg, fact, expr, rel, yes, no, (lhs, rhs))


def _assign_text(a: dict) -> str:
    return ", ".join(f"{s}={v}" for s, v in sorted(a.items(), key=lambda kv: str(kv[0])))


def needed_fact(lhs: Any, rel: str, rhs: Any) -> tuple[str, str]:
    """A fact that decides ``lhs REL rhs``, and a hint on how to declare it."""
    if rel in ("==", "!=") and rhs == 0 and isinstance(lhs, sympy.Mod):
        return _divisibility_fact(*lhs.args)
    expr = sympy.expand(lhs - rhs)
    syms = list(expr.free_symbols)
    if len(syms) == 1 and not _atoms(expr) and sympy.degree(expr, syms[0]) == 1:
        x = syms[0]
        a = expr.coeff(x)
        c = -(expr - a * x) / a
        r = rel if a > 0 else _FLIP[rel]
        cs = to_str(c)
        if r in ("==", "!="):
            return f"{x} != {cs} (or {x} == {cs})", f" (e.g. declare({x}, min={math.floor(c) + 1}))"
        bound = {">": ("min", math.floor(c) + 1), ">=": ("min", math.ceil(c)),
                 "<": ("max", math.ceil(c) - 1), "<=": ("max", math.floor(c))}[r]
        return f"{x} {r} {cs} (or its negation)", f" (e.g. declare({x}, {bound[0]}={bound[1]}))"
    if rel in ("==", "!="):
        return f"{to_str(lhs)} != {to_str(rhs)} (or {to_str(lhs)} == {to_str(rhs)})", ""
    return f"{to_str(lhs)} {rel} {to_str(rhs)} (or its negation)", ""


def _divisibility_fact(p: Any, q: Any) -> tuple[str, str]:
    fact = f"{to_str(p)} % {to_str(q)} == 0"
    if q.is_Integer:
        c, x = p.as_coeff_Mul()
        if x.is_Symbol and c.is_Integer:
            k = int(q) // math.gcd(int(q), int(c))
            return fact, f" (declare({x}, multiple_of={k}))"
    return fact, ""


def search(expr: Any, rel: str, tries: int = 48, seed: int = 0) -> tuple[dict | None, dict | None]:
    """Admissible assignments where ``expr REL 0`` holds and where it fails (None if none found)."""
    s = signs(expr)
    yes = no = None
    for k, a in s.witness.items():
        if holds(sympy.Integer(k), rel):
            yes = yes or a
        else:
            no = no or a
    syms = sorted(expr.free_symbols, key=str)
    for a in sample_assignments(syms, tries, seed):
        if yes is not None and no is not None:
            break
        v = expr.xreplace({k: sympy.Integer(x) for k, x in a.items()})
        if not v.is_Integer:
            continue
        if holds(v, rel):
            yes = yes or a
        else:
            no = no or a
    return yes, no


def sample_assignments(syms: list, n: int, seed: int = 0) -> list[dict]:
    """Admissible assignments: the smallest values, then one symbol stepped, then random."""
    rng = random.Random(seed)
    choices = {s: _candidates(facts_of(s)) for s in syms}
    base = {s: c[0] for s, c in choices.items()}
    out = [dict(base)]
    for s in syms:
        for v in choices[s][1:4]:
            a = dict(base)
            a[s] = v
            out.append(a)
    while len(out) < n:
        out.append({s: rng.choice(c) for s, c in choices.items()})
    return out[:n] if syms else out[:1]


def _candidates(f: Any) -> list[int]:
    vals = f.values()
    if vals is not None:
        return list(vals)
    m = f.multiple
    first, last = f.first(), f.last()
    if first is None and last is None:
        ks = [0, 1, -1, 2, -2, 3, 5, -7, 16, -16]
        return [m * k for k in ks]
    if first is None:
        return [last - m * k for k in (0, 1, 2, 3, 5, 9, 17)]
    vals = []
    for k in (0, 1, 2, 3, 5, 7, 9, 17, 31, 64):
        v = first + m * k
        if last is not None and v > last:
            break
        vals.append(v)
    if last is not None and last not in vals:
        vals.append(last)
    return vals


# -- division -----------------------------------------------------------------------------


def quotient(p: Any, q: Any) -> tuple[Any, Any] | None:
    """``(p // q, p % q)`` as exact expressions when the facts determine them, else None."""
    table = memo()
    key = ("quot", p, q)
    hit = table.get(key, _MISS)
    if hit is _MISS:
        hit = table[key] = _quotient(p, q)
    return hit


def _quotient(p: Any, q: Any) -> tuple[Any, Any] | None:
    if p.is_Integer and q.is_Integer:
        a, b = int(p), int(q)
        return sympy.Integer(a // b), sympy.Integer(a % b)
    if q.is_Integer:
        c = int(q)
        r = relax(p)
        if r is None:
            return None
        k0 = r.constant()
        if k0.denominator == 1 and all((co / c).denominator == 1 for e, co in r.terms if any(e)):
            rem = int(k0) % c
            return sympy.expand((p - rem) / c), sympy.Integer(rem)
        lo, hi = r.interval()
        if lo != -_INF and hi != _INF and c > 0 and math.floor(lo / c) == math.floor(hi / c):
            k = math.floor(lo / c)
            return sympy.Integer(k), sympy.expand(p - k * c)
        return None
    quo = sympy.cancel(p / q)
    num, den = sympy.fraction(quo)
    if den.is_Integer:
        r = quotient(sympy.expand(num), den)
        if r is not None and r[1] == 0:
            return r[0], sympy.Integer(0)
    q_pos = try_decide(q, ">")
    if q_pos is None:
        return None
    a = sample_assignments(sorted((p - q).free_symbols, key=str), 1)[0]
    sub = {k: sympy.Integer(v) for k, v in a.items()}
    pv, qv = p.xreplace(sub), q.xreplace(sub)
    if not (pv.is_Integer and qv.is_Integer) or qv == 0:
        return None
    k = int(pv) // int(qv)
    lo_ok = try_decide(sympy.expand(p - k * q), ">=" if q_pos else "<=")
    hi_ok = try_decide(sympy.expand(p - (k + 1) * q), "<" if q_pos else ">")
    if lo_ok and hi_ok:
        return sympy.Integer(k), sympy.expand(p - k * q)
    return None


def floordiv(p: Any, q: Any) -> Any:
    """``p // q`` (Python's floor), simplified when the facts allow, else a floor atom.

    A negated numerator gives a ceiling atom, so that ``-(-K // 4)`` reads ``ceil(K/4)``.
    """
    p, q = sympy.sympify(p), sympy.sympify(q)
    r = quotient(p, q)
    if r is not None:
        return r[0]
    if p.could_extract_minus_sign():
        return -sympy.ceiling(-p / q)
    return sympy.floor(p / q)


def mod(p: Any, q: Any) -> Any:
    """``p % q`` (Python's sign rule), simplified when the facts allow, else a Mod atom."""
    p, q = sympy.sympify(p), sympy.sympify(q)
    r = quotient(p, q)
    return r[1] if r is not None else sympy.Mod(p, q)


def exact_div(p: Any, q: Any) -> Any:
    """``p / q`` when ``q`` divides ``p`` for every admissible assignment, else an error."""
    p, q = sympy.sympify(p), sympy.sympify(q)
    r = quotient(p, q)
    if r is not None:
        zero = r[1] == 0 or try_decide(r[1], "==")
        if zero is True:
            return r[0]
        if zero is False:
            raise SymbolicError(f"{to_str(p)} / {to_str(q)} is never an integer: "
                                f"{to_str(p)} % {to_str(q)} == {to_str(r[1])}")
    fact, hint = _divisibility_fact(p, q)
    rem = sympy.Mod(p, q)
    yes, no = search(rem, "==") if isinstance(rem, sympy.Mod) else (None, None)
    syms = sorted((p - q).free_symbols, key=str)
    known = "; ".join(facts_of(s).describe(str(s)) for s in syms) or "none"
    msg = f"{to_str(p)} / {to_str(q)} is not known to be an integer ({known}): needs {fact}{hint}"
    if yes is not None and no is not None:
        msg += f"; it holds for {_assign_text(yes)} and fails for {_assign_text(no)}"
    return _raise(Undecided(msg, fact, rem, "==", yes, no))


def _raise(err: Exception) -> Any:
    raise err
