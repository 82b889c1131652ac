"""Proofs over symbols: equal for every admissible assignment, a counterexample, or the
exact condition.

For symbolic layouts the normal form is computed with every comparison decided from
the declared facts. When one is not decided (``M/8 == 1`` when ``M`` may be 8), the
prover splits the range of a symbol into cases (``M == 8`` and ``M >= 16``) and
continues in each; within a case every decision holds for every assignment, so the
normal form there *is* the normal form of each instance. Two instances are then the
same function exactly when the forms have as many modes and their leaves are equal:
identically (proved), never (a counterexample), or under equations (the condition).

Soundness rests on three things, each checked on its own: the symbolic algebra makes, in
each case, the decision the concrete algebra makes at every value of the case (a symbol is a
static integer not yet known: ``Layout(K)`` is ``1:0`` at ``K == 1``; property-tested over
:func:`cutepy.strategies.symbolic_cases` through :func:`build_at`); every case is replayed on
the concrete layouts of its boundary assignments (:func:`instantiate`: built again from the
values) before a verdict is returned, and every counterexample is computed and re-checked
there; and an "equivalent" carries a certificate an independent procedure re-checks
(:mod:`.certificate`: isl, z3). (Layer 4; the symbolic integers it reasons about are
:mod:`cutepy.core.symbolic`, their public front :mod:`cutepy.symbolic`, and the concrete
layouts of an assignment :mod:`cutepy.symbolic.values`.)

A first, cheaper pass keeps undecided modes apart instead of splitting; identical
results there already prove equality (keeping modes apart never changes a function).

>>> import cutepy
>>> M, N = cutepy.symbols("M N", multiple_of=(8, 128))
>>> r = cutepy.equivalent(cutepy.Layout((M, N), (1, M)), cutepy.Layout(M * N, 1))
>>> bool(r), r.check()
(True, True)
>>> r = cutepy.equivalent(cutepy.Layout((8, M), (1, 8)), cutepy.Layout(64, 1))
>>> bool(r), r.condition
(False, 'M == 8')
>>> print(r.counterexample.text())
with M=16, at index 64 (coordinate (0,8) in A): A gives 64, outside B's domain
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field
from typing import Any

import sympy

from ..algebra.composed import composed_parts, is_layout
from ..core import inttuple as it
from ..core.errors import CutepyError, SymbolicError
from ..core.layout import Layout, as_layout
from ..core.swizzle import Swizzle
from ..core.symbolic import decide as _d
from ..core.symbolic.facts import Facts, Undecided, assuming, declared_facts, facts_of
from ..core.symbolic.subst import free_symbols, substitution
from ..core.symbolic.sym import Sym
from ..symbolic.values import instantiate, pinned
from . import certificate as _certificate  # the independent procedures (isl, z3 load on use)
from .concrete import decide_concrete
from .normal_form import fmt_modes, normal_form
from .verdict import Counterexample, Equivalence, _parts, _show, first_difference

#: Most cases one proof may split into before it gives up and names the missing fact.
MAX_CASES = 64


@dataclass
class Case:
    """One case of a proof: the narrowed facts, the layouts there, and the verdict."""

    overrides: dict
    A: Any
    B: Any
    status: str  # "equal", "differ", "conditional"
    subst: tuple = ()
    nonzero: tuple = ()
    forms: list = field(default_factory=list)
    equations: list = field(default_factory=list)
    reason: str = ""
    lenient: bool = False
    witness: bool = False

    def facts_text(self) -> str:
        parts = [f.describe(str(s)) for s, f in sorted(self.overrides.items(), key=lambda kv: str(kv[0]))]
        parts += [f"{x} == {_d.to_str(e)}" for x, e in self.subst]
        parts += [_nonzero_text(p) for p in self.nonzero]
        return ", ".join(parts) if parts else "every assignment"

    def context(self) -> Any:
        return assuming(self.overrides, self.subst, self.nonzero)


def _nonzero_text(p: Any) -> str:
    solved = _solve_one(p)
    if solved is not None:
        return f"{solved[0]} != {_d.to_str(solved[1])}"
    return _equation_text(p, sympy.Integer(0)).replace(" == ", " != ", 1)


def _expr(x: Any) -> Any:
    return x.expr if type(x) is Sym else sympy.sympify(x)


def _eq(x: Any, y: Any) -> bool | None:
    if type(x) is int and type(y) is int:
        return x == y
    if type(x) is not type(y) and not (_numeric(x) and _numeric(y)):
        return bool(x == y)
    return _d.try_decide(sympy.expand(_expr(x) - _expr(y)), "==")


def _numeric(x: Any) -> bool:
    return type(x) in (int, Sym)


def compare_forms(forms: list) -> tuple[str, list, str]:
    """Verdict for the part-wise normal forms: equal, differ (with why) or conditional."""
    eqs: list = []
    for label, fa, fb in forms:
        where = f"{label}: " if label else ""
        if len(fa.modes) != len(fb.modes):
            return "differ", [], (f"{where}the normal forms {fmt_modes(fa.modes)} and "
                                  f"{fmt_modes(fb.modes)} have {len(fa.modes)} and {len(fb.modes)} modes")
        for k, ((sa, da), (sb, db)) in enumerate(zip(fa.modes, fb.modes)):
            for what, x, y in (("size", sa, sb), ("stride", da, db)):
                r = _eq(x, y)
                if r is False:
                    return "differ", [], f"{where}mode {k} has {what} {x} in A and {y} in B, never equal"
                if r is None:
                    eqs.append((x, y))
    return ("conditional" if eqs else "equal"), eqs, ""


def _forms(a: Any, b: Any, by: str, lenient: bool) -> list:
    pa, pb = _parts(a, by), _parts(b, by)
    if len(pa) != len(pb):
        raise _RankMismatch(f"A has {len(pa)} modes and B has {len(pb)}")
    out = []
    for k, (x, y) in enumerate(zip(pa, pb)):
        out.append((f"mode {k}" if by == "modes" else "", normal_form(x, lenient), normal_form(y, lenient)))
    return out


class _RankMismatch(CutepyError):
    pass


def _evaluate(X: Any) -> Any:
    r = X() if not is_layout(X) and callable(X) else X
    if composed_parts(r) is None and type(r) is not Layout:
        r = as_layout(r)
    return r


def _unswizzled(x: Any) -> tuple[Any, Any, Layout]:
    """``(swizzle or None, offset, inner layout)`` of a layout or ``Sw o offset o L``; a swizzle
    that never applies on the offsets ``L`` reaches (decided from the facts) is dropped."""
    parts = composed_parts(x)
    if parts is None:
        return None, 0, x
    outer, offset, inner = parts
    if not isinstance(outer, Swizzle) or type(inner) is not Layout:
        raise SymbolicError(f"{x}: a symbolic composed layout is compared when its outer function is a "
                            "swizzle and its inner one a layout: substitute values for the symbols first")
    strides = it.flatten_tuple(inner.stride) if type(inner.stride) is tuple else (inner.stride,)
    if outer.bits == 0:
        return None, offset, inner
    if all(bool(d >= 0) for d in strides) and bool(offset >= 0):
        low = outer.yyy_mask & -outer.yyy_mask
        if bool(offset + inner.cosize() - 1 < low):  # decided, or Undecided (a case to split)
            return None, offset, inner
    return outer, offset, inner


def _case_swizzled(where: tuple, a: Any, b: Any, by: str, lenient: bool) -> Case | tuple:
    """A case of composed layouts: the same swizzle and offset on both sides (a swizzle is a
    bijection, so the layouts are equal exactly when the inner layouts are), or swizzles that
    never apply (dropped). Returns the inner layouts to compare, or the Case when decided."""
    overrides, subst, nonzero = where
    pa, pb = composed_parts(a), composed_parts(b)
    if pa is not None and pb is not None and isinstance(pa[0], Swizzle) and pa[0] == pb[0] \
            and type(pa[2]) is Layout and type(pb[2]) is Layout:
        (sa, oa, la), (sb, ob, lb) = pa, pb  # one swizzle: compared through it (a bijection)
    else:
        (sa, oa, la), (sb, ob, lb) = _unswizzled(a), _unswizzled(b)
    if sa != sb:
        raise SymbolicError(f"{a} and {b}: different swizzles ({sa} and {sb}) that both apply; the prover "
                            "compares symbolic swizzled layouts with the same swizzle: substitute values")
    same = _eq(oa, ob)
    if same is None:
        same = bool(oa == ob)  # Undecided: split on it
    if not same:
        return Case(overrides, a, b, "differ", subst, nonzero,
                    reason=f"the offsets {oa} and {ob} differ, and {sa or 'the identity'} is a bijection")
    return la, lb


def _domain_case(where: tuple, a: Layout, b: Layout, by: str, domain: Any) -> Case:
    """Equal on the leading ``domain`` extents of each mode: the first index where the normal
    forms differ (the concrete rule, :func:`first_difference`) lies at or past the extent;
    every comparison on the way is decided from the facts or split on."""
    overrides, subst, nonzero = where
    if by == "index":
        parts, extents = [(a, b)], (domain if not isinstance(domain, tuple) else domain[0],)
    else:
        pa, pb = _parts(a, by), _parts(b, by)
        extents = domain if isinstance(domain, tuple) else (domain,)
        if len(pa) != len(pb) or len(pa) != len(extents):
            raise CutepyError(f"domain {domain} needs one extent per mode of {a} and {b}")
        parts = list(zip(pa, pb))
    forms = []
    for k, ((x, y), v) in enumerate(zip(parts, extents)):
        if not (bool(v >= 1) and bool(v <= x.size()) and bool(v <= y.size())):
            raise CutepyError(f"domain extent {v} of mode {k} lies outside the modes' sizes {x.size()} "
                              f"and {y.size()}")
        fa, fb = normal_form(x), normal_form(y)
        label = f"mode {k}" if by == "modes" else ""
        forms.append((label, fa, fb))
        at = first_difference(fa.modes, fb.modes, v)
        if at is not None:
            return Case(overrides, a, b, "differ", subst, nonzero, forms,
                        reason=f"{label + ': ' if label else ''}the normal forms differ first at index {at}, "
                        f"inside the extent {v}")
    return Case(overrides, a, b, "equal", subst, nonzero, forms,
                reason="the normal forms differ first at or past each extent")


def _coordinate_check(a: Any, b: Any, lenient: bool) -> str | None:
    """Why the natural coordinates differ, or None when the shape leaves are equal. A leaf
    equality the facts leave open raises :class:`Undecided` (the prover splits on it: two
    symbols may be equal, ``K`` may be 1); the lenient pass counts it as a difference."""
    fa, fb = it.flatten_tuple(a.shape), it.flatten_tuple(b.shape)
    if len(fa) != len(fb):
        return "the shape leaves differ, so the natural coordinates differ"
    for x, y in zip(fa, fb):
        same = _eq(x, y)
        if same is None and not lenient:
            same = bool(x == y)  # raises Undecided, naming the equation
        if same is not True:
            return f"the shape leaves {x} and {y} differ, so the natural coordinates differ"
    return None


def _case(where: tuple, A: Any, B: Any, by: str, lenient: bool, domain: Any = None) -> Case:
    overrides, subst, nonzero = where
    a, b = _evaluate(A), _evaluate(B)
    la, lb = a, b
    if composed_parts(a) is not None or composed_parts(b) is not None:
        inner = _case_swizzled(where, a, b, by, lenient)
        if isinstance(inner, Case):
            return inner
        la, lb = inner
    if by == "coordinate":
        why = _coordinate_check(la, lb, lenient)
        if why is not None:
            return Case(overrides, a, b, "differ", subst, nonzero, reason=why)
        by = "index"
    if domain is not None:
        c = _domain_case(where, la, lb, by, domain)
        c.A, c.B = a, b
        return c
    try:
        forms = _forms(la, lb, by, lenient)
    except _RankMismatch as e:
        return Case(overrides, a, b, "differ", subst, nonzero, reason=str(e))
    status, eqs, why = compare_forms(forms)
    return Case(overrides, a, b, status, subst, nonzero, forms, eqs, why, lenient)


def prove(A: Any, B: Any, by: str = "index", domain: Any = None) -> Equivalence:
    """:func:`cutepy.equivalent` for symbolic layouts (or layout-building functions)."""
    if by not in ("index", "modes", "coordinate"):
        raise CutepyError(f"by must be 'index', 'modes' or 'coordinate', not {by!r}")
    if domain is None:
        try:
            first = _case(({}, (), ()), A, B, by, lenient=True)
            if first.status == "equal":
                return _result(A, B, by, [first])
        except Undecided:
            pass
    queue: list = [({}, (), ())]
    cases: list = []
    while queue:
        where = queue.pop(0)
        with assuming(*where):
            try:
                cases.append(_case(where, A, B, by, lenient=False, domain=domain))
                continue
            except CutepyError as err:
                if not isinstance(err, SymbolicError):
                    raise _in_case(err, where) from err
                parts = split(err, where) if isinstance(err, Undecided) else None
                if parts is None or len(cases) + len(queue) + len(parts) > MAX_CASES:
                    failed = err
                else:
                    queue.extend(parts)
                    continue
        refuted = _refuted(where, A, B, by, domain, cases, failed)
        if refuted is not None:
            return refuted
        if not isinstance(failed, Undecided):
            raise _in_case(failed, where) from failed
        raise _restate(failed, len(cases) + len(queue) + 1)
    return _result(A, B, by, cases, domain)


def _refuted(where: tuple, A: Any, B: Any, by: str, domain: Any, cases: list, err: Exception) -> Any:
    """A question the prover cannot decide in a case still leaves "equivalent for every
    assignment" refutable: the concrete layouts at an assignment of that case that differ.
    Returns that verdict (not equivalent; the exact condition unknown), or None."""
    c = Case(where[0], None, None, "undecided", where[1], where[2], reason=f"not decided: {err}")
    c.A, c.B = None, None
    for sigma in case_assignments(c, A, B):
        try:
            a, b = instantiate(A, sigma)[0], instantiate(B, sigma)[0]
            r = decide_concrete(a, b, by, _values(domain, sigma))
        except CutepyError:
            continue
        if r:
            continue
        ce = r.counterexample or Counterexample(None, None, None, None, None, reason=r.note)
        c.witness = True
        c.A, c.B = a, b
        why = err.args[0] if err.args else err
        note = (f"in the case {c.facts_text()} the prover could not decide ({why}); the counterexample "
                "below, computed on the concrete layouts, refutes equality for every assignment; the "
                "exact condition is not known")
        ce = SymbolicCounterexample(ce.index, ce.coord_a, ce.coord_b, ce.offset_a, ce.offset_b,
                                    dict(sigma), ce.reason)
        return SymbolicEquivalence(False, A, B, by, domain, counterexample=ce, cases=[*cases, c], note=note,
                                   method="symbolic normal form and a concrete witness")
    return None


def _in_case(err: CutepyError, where: tuple) -> CutepyError:
    """A failure to build the layouts in a case, saying which case (an expression may be
    admissible at some assignments only)."""
    if where == ({}, (), ()):
        return err
    text = Case(where[0], None, None, "", where[1], where[2]).facts_text()
    new = type(err).__new__(type(err))
    new.args = (f"in the case {text}: {err.args[0] if err.args else err}",) + tuple(err.args[1:])
    new.__dict__.update(getattr(err, "__dict__", {}))
    return new


def _restate(err: Undecided, n: int) -> Undecided:
    """The error again under the declared facts (not a case's narrowed ones)."""
    if err.sides is None or n <= 1:
        return err
    new = _d.undecided(err.sides[0], err.rel, err.sides[1])
    new.args = (new.args[0] + f" (the proof split into {n} cases and could not decide this)",)
    return new


def split(err: Undecided, where: tuple) -> list | None:
    """Narrower cases that, together, cover ``where`` and may decide ``err``'s question.

    A question about one symbol splits its range (``M < 8``, ``M == 8``, ``M > 8``); an
    equality between symbols splits into the equation (one symbol solved for) and its
    negation; other questions split off the smallest value of a symbol, a few times.
    """
    ov, subst, nonzero = where
    P = err.expr
    if P is None:
        return None
    for x in sorted(P.free_symbols, key=str):  # finitely many values (a divisor of n): a case each
        vals = facts_of(x).values() if not isinstance(x, sympy.Dummy) else None
        if vals is not None and len(vals) > 1:
            return [({**ov, x: Facts(v, v, v)}, subst, nonzero) for v in vals]
    if P.atoms(sympy.Mod):  # residues cannot be narrowed to cases: name the fact
        return None
    P = _d.substituted(P)
    rounded = bool(P.atoms(sympy.floor, sympy.ceiling))
    syms = sorted((s for s in P.free_symbols if not isinstance(s, sympy.Dummy)), key=str)
    if not syms:
        return None
    if len(syms) > 1 and not rounded and err.rel in ("==", "!="):
        eq = _solve_one(P)
        if eq is not None and eq[2] not in nonzero:
            x, e, core = eq
            return [(ov, subst + ((x, e),), nonzero), (ov, subst, nonzero + (core,))]
    if len(syms) == 1 and not rounded and sympy.degree(P, syms[0]) == 1:
        x = syms[0]
        a = P.coeff(x)
        c = -(P - a * x) / a
        f = facts_of(x)
        parts = []
        bounds = [(f.lo, sympy.ceiling(c) - 1), (sympy.floor(c) + 1, f.hi)]
        if c.is_Integer:
            bounds.insert(1, (int(c), int(c)))
        for lo, hi in bounds:
            lo = None if lo is None else int(lo)
            hi = None if hi is None else int(hi)
            lo = lo if f.lo is None or lo is None else max(lo, f.lo)
            hi = hi if f.hi is None or hi is None else min(hi, f.hi)
            try:
                parts.append(({**ov, x: Facts(f.multiple, lo, hi, f.divides)}, subst, nonzero))
            except CutepyError:
                continue
        return parts if len(parts) > 1 else None
    for x in syms:
        f = facts_of(x)
        first, last = f.first(), f.last()
        if first is not None and first != last and _peeled(x, f) < MAX_PEEL:
            return [({**ov, x: Facts(f.multiple, first, first, f.divides)}, subst, nonzero),
                    ({**ov, x: Facts(f.multiple, first + 1, f.hi, f.divides)}, subst, nonzero)]
    return None


def _solve_one(P: Any) -> tuple | None:
    """``(x, e, core)``: ``P == 0`` exactly when ``x == e``, where ``core`` is ``P`` without
    factors the facts prove non-zero; None when no symbol can be solved for."""
    try:
        _, factors = sympy.factor_list(P)
    except sympy.PolynomialError:
        return None
    live = [f for f, _ in factors if _d.try_decide(f, "!=") is not True]
    if len(live) != 1:
        return None
    core = sympy.expand(live[0])
    best = None
    for x in sorted(core.free_symbols, key=str):
        if sympy.degree(core, x) != 1:
            continue
        c = core.coeff(x)
        if not c.is_number:
            continue
        e = sympy.expand(-(core - c * x) / c)
        key = (abs(c) != 1, str(x))
        if best is None or key < best[0]:
            best = (key, x, e)
    return None if best is None else (best[1], best[2], core)


#: Most small values one symbol is split off at (``M == 8``, ``M == 16``, ...) in a proof.
MAX_PEEL = 4


def _peeled(x: Any, f: Facts) -> int:
    """How many lowest values of ``x`` this case has already split off."""
    declared = declared_facts(x)
    base = None if declared is None else declared.first()
    first = f.first()
    if base is None or first is None:
        return 0
    return (first - base) // f.multiple


def _equation_text(p: Any, q: Any) -> str:
    e = sympy.expand(_expr(p) - _expr(q))
    syms = list(e.free_symbols)
    rounded = e.atoms(sympy.floor, sympy.ceiling, sympy.Mod)
    if len(syms) == 1 and not rounded and sympy.degree(e, syms[0]) == 1:
        x = syms[0]
        a = e.coeff(x)
        return f"{x} == {_d.to_str(-(e - a * x) / a)}"
    if _expr(p).is_number:
        p, q = q, p
    return f"{_d.to_str(_expr(p))} == {_d.to_str(_expr(q))}"


def _condition(cases: list) -> str | None:
    alts = []
    for c in cases:
        if c.status == "differ":
            continue
        parts = [c.facts_text()] if c.overrides or c.subst or c.nonzero else []
        parts += sorted({_equation_text(p, q) for p, q in c.equations})
        alts.append(" and ".join(parts) if parts else "always")
    if not alts:
        return None
    if len(alts) == 1:
        return alts[0]
    return " or ".join(f"({a})" for a in alts)


# -- the concrete layouts of an assignment: pinned and instantiate (cutepy.symbolic.values) --------


def build_at(build: Any, sigma: dict) -> tuple[Any, tuple]:
    """``build()`` in the case of the prover's split that holds ``sigma``: the symbolic
    result the prover compares there, and the case ``(facts, equations, non-zero)``.

    Runs ``build`` under the declared facts; where a decision is open it splits as
    :func:`prove` does (:func:`split`) and follows the part that admits ``sigma``; a question
    that splitting cannot narrow is decided with every symbol pinned to its value.

    Post: at ``sigma`` the result is the layout the prover reasons about; substituted, it
          must equal the concrete layout built from the values (the symbolic algebra's
          contract, tested by a property over :func:`cutepy.strategies.symbolic_cases`).
    """
    sigma = {getattr(k, "expr", k): int(v) for k, v in sigma.items()}
    where: tuple = ({}, (), ())
    for _ in range(MAX_CASES):
        with assuming(*where):
            try:
                return build(), where
            except SymbolicError as err:  # a question to split on, or one only values answer
                parts = split(err, where) if isinstance(err, Undecided) else None
        probe = Case({}, None, None, "")
        chosen = None
        for p in parts or ():
            probe.overrides, probe.subst, probe.nonzero = p
            if _admits(probe, sigma):
                chosen = p
                break
        if chosen is None:
            break
        where = chosen
    with pinned(sigma):
        return build(), ({x: Facts(abs(v) or 1, v, v) for x, v in sigma.items()}, (), ())


class SymbolicCounterexample(Counterexample):
    """A counterexample at an assignment of the symbols: checked on the concrete layouts
    of that assignment (:func:`instantiate`: built again from the values), not on the
    symbolic ones with values put in."""

    def check(self, A: Any, B: Any) -> bool:
        if self.index is None:
            return super().check(A, B)
        sigma = self.assignment or {}
        return super().check(instantiate(A, sigma)[0], instantiate(B, sigma)[0])


class SymbolicEquivalence(Equivalence):
    """A verdict for every admissible assignment: the cases the prover split into, each
    with its normal forms; ``condition`` says exactly when the layouts are equal."""

    _certificate: Any = None

    def text(self) -> str:
        lines = [f"A = {_show(self.A)}", f"B = {_show(self.B)}"]
        if self.domain is not None:
            lines.append(f"compared on the region {self.domain} of the modes")
        return "\n".join(lines + cases_text(self))

    def holds_at(self, values: dict) -> bool:
        return verdict_at(self, values)

    def certificate(self) -> Any:
        """The obligations of an "equivalent" and their checks by an independent procedure
        (isl, z3: :mod:`cutepy.equivalence.certificate`); None for other verdicts."""
        if not self.holds:
            return None
        if self._certificate is None:
            self._certificate = _certificate.certify(self)
        return self._certificate

    def check(self) -> bool:
        """Re-check each case (its steps, its verdict), the counterexample on the concrete
        layouts, and -- where isl or z3 is installed -- the certificate of an "equivalent"."""
        if not check_cases(self):
            return False
        cert = self.certificate()
        return cert is None or cert.holds is not False


def _result(A: Any, B: Any, by: str, cases: list, domain: Any = None) -> Equivalence:
    if all(c.status == "equal" for c in cases):
        r = SymbolicEquivalence(True, A, B, by, domain, method="symbolic normal form", cases=cases)
        return _replayed(r)
    ce = None
    for c in sorted(cases, key=lambda c: c.status != "differ"):
        if c.status == "equal":
            continue
        ce = _counterexample(c, by, A, B, domain)
        if ce is not None:
            c.witness = True
            break
    cond = _condition(cases)
    r = SymbolicEquivalence(False, A, B, by, domain, method="symbolic normal form", counterexample=ce,
                    condition=cond, cases=cases,
                    note="equal for no admissible assignment" if cond is None else "")
    return _replayed(r)


def _replayed(r: Equivalence) -> Equivalence:
    """``r`` once its cases agree with the concrete layouts at their boundary assignments;
    a disagreement is a fault of the prover, reported instead of a verdict."""
    bad = replay(r)
    if not bad and r.holds:
        if _certificate.certifying_now():
            cert = r.certificate()
            if cert.holds is False:
                raise CutepyError(f"the certificate of this proof is refuted:\n{cert.text()}\n(a fault "
                                  "of the prover: please report it with this message)")
    if bad:
        sigma, claim, got = bad[0]
        at = ", ".join(f"{k}={v}" for k, v in sorted(sigma.items(), key=lambda kv: str(kv[0])))
        raise CutepyError(f"the symbolic proof says {'equal' if claim else 'different'} at {at}, but the "
                          f"concrete layouts there are {'equal' if got else 'different'}: no verdict is "
                          "given (a fault of the prover: please report it with this message)")
    return r


def _complete(c: Case, sigma: dict) -> dict | None:
    """``sigma`` with the case's equations solved in, if the result is admissible there."""
    sigma = dict(sigma)
    for x, e in c.subst:
        v = _value(e, sigma)
        if not v.is_Integer:
            return None
        sigma[x] = int(v)
    return sigma if _admits(c, sigma) else None


def case_assignments(c: Case, A: Any, B: Any, n: int = 60) -> list:
    """Admissible assignments that lie in the case (boundary values first)."""
    out = []
    with c.context():
        syms = set(free_symbols(c.A) | free_symbols(c.B)) | set(c.overrides) | _symbols_of(A) | _symbols_of(B)
        for x, e in c.subst:
            syms |= e.free_symbols | {x}
        for sigma in _d.sample_assignments(sorted(syms, key=str), n, seed=1):
            sigma = _complete(c, sigma)
            if sigma is not None and sigma not in out:
                out.append(sigma)
    return out


def _counterexample(c: Case, by: str, A: Any, B: Any, domain: Any = None) -> Counterexample | None:
    for sigma in case_assignments(c, A, B):
        if c.status == "conditional" and all(_value(p, sigma) == _value(q, sigma) for p, q in c.equations):
            continue
        a, b = instantiate(A, sigma)[0], instantiate(B, sigma)[0]
        r = decide_concrete(a, b, by, _values(domain, sigma))
        if r:
            continue
        ce = r.counterexample or Counterexample(None, None, None, None, None, reason=r.note)
        return SymbolicCounterexample(ce.index, ce.coord_a, ce.coord_b, ce.offset_a, ce.offset_b,
                                      dict(sigma), ce.reason)
    return None


def replay(r: Equivalence, per_case: int = 4) -> list:
    """The verdict of each case replayed on concrete layouts (:func:`instantiate`) at a few of
    its assignments, boundary values first: ``[(assignment, claimed, concrete)]`` where they
    disagree (empty when every replay agrees). An independent check of the case analysis:
    the concrete algebra and the concrete decision, no symbolic decision involved."""
    bad = []
    for c in r.cases:
        for sigma in case_assignments(c, r.A, r.B, 16)[:per_case]:
            if c.status == "conditional":
                claim = all(_value(p, sigma) == _value(q, sigma) for p, q in c.equations)
            else:
                claim = c.status == "equal"
            got = bool(decide_concrete(instantiate(r.A, sigma)[0], instantiate(r.B, sigma)[0], r.by,
                                       _values(r.domain, sigma)))
            if got != claim:
                bad.append((sigma, claim, got))
    return bad


def _values(domain: Any, sigma: dict) -> Any:
    """The domain extents at an assignment (integers)."""
    if domain is None:
        return None
    if isinstance(domain, tuple):
        return tuple(_values(v, sigma) for v in domain)
    return int(_value(domain, sigma)) if type(domain) is Sym else domain


def _symbols_of(X: Any) -> set:
    """The symbols of a layout, or those a layout-building function reads (closure, globals)."""
    if is_layout(X) or not callable(X):
        return free_symbols(X)
    out: set = set()
    fn = X if isinstance(X, types.FunctionType) else None
    if fn is None:
        return out
    values = [c.cell_contents for c in (fn.__closure__ or ()) if _filled(c)]
    values += [fn.__globals__[n] for n in fn.__code__.co_names if n in fn.__globals__]
    for v in values:
        if type(v) is Sym or type(v) is tuple or is_layout(v):
            try:
                out |= free_symbols(v)
            except CutepyError:
                continue
    return out


def _filled(cell: Any) -> bool:
    try:
        return cell.cell_contents is not _filled
    except ValueError:
        return False


def _value(x: Any, sigma: dict) -> Any:
    if type(x) is int:
        return x
    return _expr(x).xreplace({k: sympy.Integer(v) for k, v in sigma.items()})


# -- rendering and re-checking -------------------------------------------------------------


def cases_text(r: Equivalence) -> list:
    """The lines of a symbolic proof: the facts, each case with its normal forms, the verdict."""
    found: set = _symbols_of(r.A) | _symbols_of(r.B)
    if r.counterexample is not None and r.counterexample.assignment:
        found |= set(r.counterexample.assignment)
    for c in r.cases:
        found |= free_symbols(c.A) | free_symbols(c.B) | set(c.overrides)
    syms = sorted(found, key=str)
    facts = "; ".join(facts_of(s).describe(str(s)) for s in syms) or "no symbols"
    out = [f"for every assignment with {facts}:"]
    if r.holds:
        out.append("equivalent" + (" (the forms are identical: undecided modes kept apart)"
                                   if r.cases[0].lenient else ""))
    elif any(c.status == "undecided" for c in r.cases):
        out.append("not equivalent for every assignment (refuted on concrete layouts); the exact condition "
                   "is not known")
    elif r.condition:
        out.append(f"not equivalent for every assignment; equal exactly when {r.condition}")
    else:
        out.append("not equivalent for any assignment")
    for c in r.cases:
        if len(r.cases) > 1:
            out.append(f"case {c.facts_text()}: {c.status}")
        if callable(r.A) and type(r.A) is not Layout or callable(r.B) and type(r.B) is not Layout:
            out.append(f"  A = {c.A}, B = {c.B}")
        for label, fa, fb in c.forms:
            pre = f"{label}: " if label else ""
            out.append(f"  {pre}normal form of A = {fmt_modes(fa.modes)}, of B = {fmt_modes(fb.modes)}")
            for name, f in (("A", fa), ("B", fb)):
                out.append(f"    {name}: " + "; ".join(s.text() for s in f.steps[1:]))
        if c.reason:
            out.append(f"  {c.reason}")
        if c.equations:
            out.append("  equal exactly when " + " and ".join(_equation_text(p, q) for p, q in c.equations))
    if r.counterexample is not None:
        out.append("counterexample " + r.counterexample.text())
    return out


def _admits(c: Case, sigma: dict) -> bool:
    """Whether an assignment (of every symbol involved) lies in the case."""
    for s, v in sigma.items():
        for f in (declared_facts(s), c.overrides.get(s)):
            if f is not None and not f.admits(v):
                return False
    for s in c.overrides:
        if s not in sigma:
            return False
    for x, e in c.subst:
        if x not in sigma or _value(e, sigma) != sigma[x]:
            return False
    return all(_value(p, sigma) != 0 for p in c.nonzero)


def verdict_at(r: Equivalence, values: dict) -> bool:
    """Whether the layouts of a symbolic result are equal at one assignment."""
    within = tuple(x for c in r.cases for x in (c.A, c.B))
    sigma = {k: int(v) for k, v in substitution(values, within).items()}
    for c in r.cases:
        if c.status == "undecided" and _admits(c, sigma):  # decided on the concrete layouts
            a, b = instantiate(r.A, sigma)[0], instantiate(r.B, sigma)[0]
            return bool(decide_concrete(a, b, r.by, _values(r.domain, sigma)))
        if _admits(c, sigma):
            if c.status == "conditional":
                return all(_value(p, sigma) == _value(q, sigma) for p, q in c.equations)
            return c.status == "equal"
    raise CutepyError(f"no case of this proof covers {values}: does it satisfy the declared facts?")


def check_cases(r: Equivalence) -> bool:
    """Re-derive each case under its facts: the steps hold and the verdicts are the same."""
    for c in r.cases:
        with c.context():
            for _, fa, fb in c.forms:
                if not (fa.check() and fb.check()):
                    return False
            if c.forms and r.domain is not None:
                extents = r.domain if isinstance(r.domain, tuple) else (r.domain,)
                differs = any(first_difference(fa.modes, fb.modes, v) is not None
                              for (_, fa, fb), v in zip(c.forms, extents))
                if differs != (c.status == "differ"):
                    return False
            elif c.forms:
                status, eqs, _ = compare_forms(c.forms)
                if status != c.status:
                    return False
    if not r.holds and r.counterexample is not None:
        c = next((c for c in r.cases if c.witness), None)
        return c is not None and r.counterexample.check(r.A, r.B)
    return bool(r.holds) or r.condition is not None or r.note != ""
