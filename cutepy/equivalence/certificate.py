"""Certificates: every symbolic "equivalent" re-checked by an independent decision procedure.

The prover (:mod:`.symbolic`) decides each question with its own engine (relaxation to
boxes, :mod:`cutepy.core.symbolic.decide`). A verdict "equivalent for every admissible
assignment" rests on a finite list of **obligations**, each "``e == 0`` for every
assignment of the case": a merge ``s0*d0 == d1`` or a drop ``s == 1`` of a normal form,
and the equality of the two normal forms' sizes and strides, mode by mode; and one more,
that the cases together **cover** every admissible assignment. A certificate states
them, with each case's region (bounds, residues ``M % 8 == 0``, equations ``M == P``,
disequations), and has a second procedure decide that no assignment breaks one:

* **isl** (``islpy``, integer sets with parameters: Presburger arithmetic, the library of
  NVIDIA's integer-set model of CuTe layouts) where the obligation and its region are
  linear in the symbols (``floor``/``mod`` by constants included): exact;
* **z3** (``z3-solver``, SMT over integers) for the rest (products of symbols): ``unsat``
  proves the obligation; ``sat`` refutes it with a model; ``unknown`` leaves it unproved.

Both are optional (``pip install cutepy[proofs]``); with neither, :func:`certify` says so
and the verdict keeps the prover's own proof and its concrete replay.

>>> import cutepy
>>> M = cutepy.symbols("M", multiple_of=8)
>>> r = cutepy.equivalent(cutepy.Layout((M, 4), (1, M)), cutepy.Layout(4 * M, 1))
>>> c = certify(r)
>>> c.holds in (True, None), len(c.obligations) >= 2
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import sympy

from ..core.lazy import installed, load
from ..core.symbolic.facts import Facts, declared_facts, own_facts

#: the independent procedures, imported on first use (the proofs extra; :func:`procedures` says
#: which are installed, and only those are run)
isl = load("islpy")
z3 = load("z3")

__all__ = ["Certificate", "Obligation", "check_obligation", "certify", "certifying", "procedures"]

_CERTIFYING: ContextVar[bool] = ContextVar("cutepy_certifying", default=False)


@contextmanager
def certifying() -> Iterator[None]:
    """For the ``with`` block (this context only), every symbolic "equivalent" that
    :func:`cutepy.equivalent` returns is certified at once, and one whose certificate is
    refuted raises instead of being returned. The test suite runs in such a block where
    isl or z3 is installed.

    >>> import cutepy
    >>> K = cutepy.symbols("K")
    >>> with certifying():
    ...     bool(cutepy.equivalent(cutepy.Layout((K, 4), (1, K)), cutepy.Layout(4 * K, 1)))
    True
    """
    token = _CERTIFYING.set(True)
    try:
        yield
    finally:
        _CERTIFYING.reset(token)


def certifying_now() -> bool:
    """Whether :func:`certifying` is in force in this context."""
    return _CERTIFYING.get()


@dataclass(frozen=True)
class Obligation:
    """``expr == 0`` for every assignment in the region ``case`` (``expr`` None: ``cover``,
    the cases cover the declared region). ``what`` says where it comes from."""

    what: str
    case: Any  # (facts {symbol: Facts}, subst ((x, e), ...), nonzero (p, ...))
    expr: Any


@dataclass
class Certificate:
    """The obligations of a verdict and each one's check: ``(obligation, procedure, result)``
    with result ``True`` (proved), ``False`` (refuted: ``witness`` holds the assignment) or
    ``None`` (not decided by an installed procedure)."""

    obligations: list
    checks: list = field(default_factory=list)
    witness: dict | None = None

    @property
    def holds(self) -> bool | None:
        """True when every obligation is proved, False when one is refuted, else None."""
        results = [r for _, _, r in self.checks]
        if any(r is False for r in results):
            return False
        if len(results) == len(self.obligations) and all(r is True for r in results):
            return True
        return None

    def text(self) -> str:
        lines = []
        for ob, proc, res in self.checks:
            verdict = {True: "proved", False: "REFUTED", None: "not decided"}[res]
            lines.append(f"{ob.what}: {verdict} by {proc}")
        if self.witness:
            at = sorted(self.witness.items(), key=str)
            lines.append("refuted at " + ", ".join(f"{k}={v}" for k, v in at))
        return "\n".join(lines)


def procedures() -> tuple[str, ...]:
    """The independent procedures installed here: ``"isl"`` (islpy), ``"z3"`` (z3-solver)."""
    out = []
    if installed("islpy"):
        out.append("isl")
    if installed("z3"):
        out.append("z3")
    return tuple(out)


# -- the obligations of a verdict ---------------------------------------------------------------


def _facts(symbol: Any, case: Any) -> Facts:
    f = case.overrides.get(symbol)
    if f is None:
        f = declared_facts(symbol) or own_facts(symbol)
    return f


def _e(x: Any) -> Any:
    return sympy.sympify(getattr(x, "expr", x))


def obligations(r: Any) -> list[Obligation]:
    """What a symbolic "equivalent" rests on (see the module docstring)."""
    out: list[Obligation] = []
    for c in r.cases:
        where = (c.overrides, c.subst, c.nonzero)
        for label, fa, fb in c.forms:
            pre = f"{label}: " if label else ""
            for name, f in (("A", fa), ("B", fb)):
                for st in f.steps:
                    if st.rule == "drop":
                        out.append(Obligation(f"{pre}{name}: drop {st.data[0]}:{st.data[1]}",
                                              where, _e(st.data[0]) - 1))
                    elif st.rule == "merge":
                        s0, d0, _, d1 = st.data
                        out.append(Obligation(f"{pre}{name}: merge needs {s0}*{d0} == {d1}",
                                              where, _e(s0) * _e(d0) - _e(d1)))
            if r.domain is not None:
                continue  # equal on a sub-domain only: the forms may differ past the extents
            if len(fa.modes) != len(fb.modes):
                out.append(Obligation(f"{pre}as many modes", where, sympy.Integer(1)))
            for k, ((sa, da), (sb, db)) in enumerate(zip(fa.modes, fb.modes)):
                out.append(Obligation(f"{pre}normal-form mode {k}: size {sa} == {sb}", where,
                                      _e(sa) - _e(sb)))
                out.append(Obligation(f"{pre}normal-form mode {k}: stride {da} == {db}", where,
                                      _e(da) - _e(db)))
    if r.domain is not None:
        out.append(Obligation("the forms agree up to the domain's extents (the prover's walk, replayed "
                              "concretely; no independent procedure)", "domain", None))
    if len(r.cases) > 1:
        out.append(Obligation(f"the {len(r.cases)} cases cover every admissible assignment", None, None))
    return out


def certify(r: Any) -> Certificate:
    """The certificate of a symbolic verdict "equivalent" (see the module docstring).

    Pre:  ``r`` is a result of :func:`cutepy.equivalent` on symbolic layouts that holds.
    Post: each obligation checked by isl where linear, else z3 (the installed ones);
          ``holds`` is True only when every one is proved.
    """
    obs = obligations(r)
    cert = Certificate(obs)
    procs = procedures()
    syms = _all_symbols(r)
    for ob in obs:
        if ob.case == "domain":
            proc, res, wit = "the prover and the concrete replay", None, None
        elif ob.expr is None:
            proc, res, wit = _check_cover(r, syms, procs)
        else:
            proc, res, wit = _check(ob, syms, procs)
        cert.checks.append((ob, proc, res))
        if res is False and cert.witness is None:
            cert.witness = wit
    return cert


def _all_symbols(r: Any) -> list:
    found: set = set()
    for c in r.cases:
        found |= set(c.overrides)
        for x, e in c.subst:
            found |= {x} | e.free_symbols
        for p in c.nonzero:
            found |= p.free_symbols
        for _, fa, fb in c.forms:
            for f in (fa, fb):
                for s, d in f.modes:
                    found |= _e(s).free_symbols | _e(d).free_symbols
                for st in f.steps:
                    for x in st.data:
                        if not isinstance(x, tuple):
                            found |= _e(x).free_symbols
    return sorted((s for s in found if not isinstance(s, sympy.Dummy)), key=str)


# -- isl: linear obligations ------------------------------------------------------------------


class _NotLinear(Exception):
    pass


def _isl_expr(e: Any, names: dict) -> str:
    """``e`` (an integer-valued expression, integer coefficients) as isl text, or _NotLinear."""
    e = sympy.sympify(e)
    if e.is_Integer:
        return f"({int(e)})"
    if e.is_Symbol:
        if e not in names:
            raise _NotLinear(str(e))
        return names[e]
    if e.is_Add:
        return "(" + " + ".join(_isl_expr(a, names) for a in e.args) + ")"
    if e.is_Mul:
        consts = [a for a in e.args if a.is_Number]
        rest = [a for a in e.args if not a.is_Number]
        if len(rest) != 1 or any(not c.is_Integer for c in consts):
            raise _NotLinear(str(e))
        k = int(sympy.Mul(*consts))
        return f"({k}*{_isl_expr(rest[0], names)})"
    if isinstance(e, (sympy.floor, sympy.ceiling)):
        num, den = sympy.fraction(sympy.together(e.args[0]))
        if not den.is_Integer:
            raise _NotLinear(str(e))
        inner = _isl_expr(sympy.expand(num), names)
        if isinstance(e, sympy.floor):
            return f"floor({inner}/{int(den)})"
        return f"(-floor((-{inner})/{int(den)}))"
    if isinstance(e, sympy.Mod):
        a, b = e.args
        if not b.is_Integer or int(b) <= 0:
            raise _NotLinear(str(e))
        num, den = sympy.fraction(sympy.together(a))
        if not den.is_Integer or den != 1:
            raise _NotLinear(str(e))
        return f"(({_isl_expr(sympy.expand(num), names)}) mod {int(b)})"
    raise _NotLinear(str(e))


def _integral(e: Any) -> Any:
    """``e`` times the lcm of its coefficients' denominators (zero exactly where ``e`` is)."""
    e = sympy.expand(e)
    den = 1
    for t in sympy.Add.make_args(e):
        c, _ = t.as_coeff_Mul()
        if c.is_Rational:
            den = sympy.ilcm(den, c.q)
    return sympy.expand(e * den)


def _region_isl(syms: list, case: Any, names: dict) -> list[str]:
    overrides, subst, nonzero = case
    probe = _Probe(overrides)
    out = []
    for s in syms:
        f = _facts(s, probe)
        n = names[s]
        first, last = f.first(), f.last()
        if first is not None:
            out.append(f"{n} >= {first}")
        if last is not None:
            out.append(f"{n} <= {last}")
        if f.multiple > 1:
            out.append(f"{n} mod {f.multiple} = 0")
        if f.values() is not None:
            out.append("(" + " or ".join(f"{n} = {v}" for v in f.values()) + ")")
    for x, e in subst:
        out.append(f"{_isl_expr(_integral(sympy.expand(x - e)), names)} = 0")
    for p in nonzero:
        out.append(f"{_isl_expr(_integral(p), names)} != 0")
    return out


class _Probe:
    def __init__(self, overrides: dict):
        self.overrides = overrides


def _isl_names(syms: list) -> dict:
    return {s: f"p{k}" for k, s in enumerate(syms)}


def _isl_check(ob: Obligation, syms: list) -> tuple[bool, dict | None]:

    names = _isl_names(syms)
    conds = _region_isl(syms, ob.case, names) + [f"{_isl_expr(_integral(ob.expr), names)} != 0"]
    params = ", ".join(names[s] for s in syms)
    bad = isl.Set(f"[{params}] -> {{ : " + " and ".join(conds) + " }")
    if bad.is_empty():
        return True, None
    return False, _isl_point(bad, syms, names)


def _isl_point(s: Any, syms: list, names: dict) -> dict | None:
    try:

        pt = s.move_dims(isl.dim_type.set, 0, isl.dim_type.param, 0, len(syms)).sample_point()
        return {sym: pt.get_coordinate_val(isl.dim_type.set, k).to_python() for k, sym in enumerate(syms)}
    except Exception:  # noqa: BLE001 -- a witness is a courtesy: the refutation stands without it
        return None


# -- z3: the rest ---------------------------------------------------------------------------


def _z3_expr(e: Any, var: dict, side: list) -> Any:

    e = sympy.sympify(e)
    if e.is_Integer:
        return z3.IntVal(int(e))
    if e.is_Symbol:
        return var[e]
    if e.is_Add:
        return z3.Sum([_z3_expr(a, var, side) for a in e.args])
    if e.is_Mul:
        out = z3.IntVal(1)
        for a in e.args:
            if a.is_Rational and not a.is_Integer:
                raise _NotLinear("a fraction")
            out = out * _z3_expr(a, var, side)
        return out
    if e.is_Pow and e.exp.is_Integer and int(e.exp) >= 0:
        b = _z3_expr(e.base, var, side)
        out = z3.IntVal(1)
        for _ in range(int(e.exp)):
            out = out * b
        return out
    if isinstance(e, (sympy.floor, sympy.ceiling, sympy.Mod)):
        if isinstance(e, sympy.Mod):
            num, den = e.args
            q = _z3_floor(num, den, var, side)
            return _z3_expr(num, var, side) - _z3_expr(den, var, side) * q
        num, den = sympy.fraction(sympy.together(e.args[0]))
        if isinstance(e, sympy.ceiling):
            return -_z3_floor(sympy.expand(-num), den, var, side)
        return _z3_floor(sympy.expand(num), den, var, side)
    raise _NotLinear(str(e))


def _z3_floor(num: Any, den: Any, var: dict, side: list) -> Any:
    """A fresh integer ``q == floor(num / den)`` (constraints appended to ``side``)."""

    n, d = _z3_expr(_integral_num(num), var, side), _z3_expr(den, var, side)
    q = z3.Int(f"q{len(side)}")
    side.append(z3.Or(d == 0, z3.And(d > 0, q * d <= n, n < q * d + d),
                      z3.And(d < 0, q * d >= n, n > q * d + d)))
    return q


def _integral_num(e: Any) -> Any:
    e = sympy.expand(e)
    if any(t.as_coeff_Mul()[0].is_Rational and not t.as_coeff_Mul()[0].is_Integer
           for t in sympy.Add.make_args(e)):
        raise _NotLinear("a fraction inside a floor")
    return e


def _z3_region(syms: list, case: Any, var: dict, side: list) -> list:

    overrides, subst, nonzero = case
    probe = _Probe(overrides)
    out = []
    for s in syms:
        f = _facts(s, probe)
        x = var[s]
        first, last = f.first(), f.last()
        if first is not None:
            out.append(x >= first)
        if last is not None:
            out.append(x <= last)
        if f.multiple > 1:
            out.append(x % f.multiple == 0)
        if f.values() is not None:
            out.append(z3.Or(*(x == v for v in f.values())))
    for x, e in subst:
        out.append(_z3_expr(_integral(sympy.expand(x - e)), var, side) == 0)
    for p in nonzero:
        out.append(_z3_expr(_integral(p), var, side) != 0)
    return [z3.And(*out)] if out else []


def _z3_check(ob: Obligation, syms: list) -> tuple[bool | None, dict | None]:

    var = {s: z3.Int(f"p{k}") for k, s in enumerate(syms)}
    side: list = []
    region = _z3_region(syms, ob.case, var, side)
    goal = _z3_expr(_integral(ob.expr), var, side) != 0
    solver = z3.Solver()
    solver.set("timeout", 5000)
    solver.add(*region, *side, goal)
    res = solver.check()
    if res == z3.unsat:
        return True, None
    if res == z3.sat:
        m = solver.model()
        return False, {s: m.eval(v, model_completion=True).as_long() for s, v in var.items()}
    return None, None


def check_obligation(ob: Obligation) -> tuple[str, bool | None, dict | None]:
    """One obligation checked by the installed procedures: ``(procedure, result, witness)``.

    Pre:  ``ob.expr`` is an integer-valued expression in declared symbols.
    Post: result True (no assignment of the region breaks it), False (``witness`` does),
          None (undecided or no procedure installed).
    """
    syms = sorted((s for s in sympy.sympify(ob.expr).free_symbols | _case_symbols(ob.case)
                   if not isinstance(s, sympy.Dummy)), key=str)
    return _check(ob, syms, procedures())


def _case_symbols(case: Any) -> set:
    overrides, subst, nonzero = case
    out = set(overrides)
    for x, e in subst:
        out |= {x} | e.free_symbols
    for p in nonzero:
        out |= p.free_symbols
    return out


def _check(ob: Obligation, syms: list, procs: tuple) -> tuple[str, bool | None, dict | None]:
    if "isl" in procs:
        try:
            res, wit = _isl_check(ob, syms)
            return "isl", res, wit
        except _NotLinear:
            pass
    if "z3" in procs:
        try:
            res, wit = _z3_check(ob, syms)
            return "z3", res, wit
        except _NotLinear:
            pass
    return "none installed" if not procs else "no procedure for it", None, None


def _check_cover(r: Any, syms: list, procs: tuple) -> tuple[str, bool | None, dict | None]:
    """No admissible assignment lies outside every case (z3: declared facts and no case)."""
    if "z3" not in procs:
        return ("none installed" if not procs else "no procedure for it"), None, None

    try:
        var = {s: z3.Int(f"p{k}") for k, s in enumerate(syms)}
        side: list = []
        declared = _z3_region(syms, ({}, (), ()), var, side)
        cases = [z3.And(*(_z3_region(syms, (c.overrides, c.subst, c.nonzero), var, side)
                          or [z3.BoolVal(True)])) for c in r.cases]
    except _NotLinear:
        return "no procedure for it", None, None
    solver = z3.Solver()
    solver.set("timeout", 5000)
    solver.add(*declared, *side, z3.Not(z3.Or(*cases)))
    res = solver.check()
    if res == z3.unsat:
        return "z3", True, None
    if res == z3.sat:
        m = solver.model()
        return "z3", False, {s: m.eval(v, model_completion=True).as_long() for s, v in var.items()}
    return "z3", None, None
