"""``equivalent(A, B)``: are two layouts the same function on the same domain?

Decided by normal forms (see :mod:`cutepy.equivalence.normal_form`), in time that
depends on the rank and not on the size. The answer is truthy or falsy and carries a
proof (the normal forms and the steps that made them) or a counterexample (an
index, its coordinates, and both offsets).

>>> from cutepy import Layout
>>> r = equivalent(Layout(((2, 2), 3), ((1, 2), 4)), Layout(12, 1))
>>> bool(r), r.check()
(True, True)
>>> r = equivalent(Layout((4, 3), (3, 1)), Layout(12, 1))
>>> bool(r), r.counterexample.index, r.counterexample.offset_a, r.counterexample.offset_b
(False, 1, 3, 1)
>>> print(r.counterexample.text())
at index 1 (coordinate (1,0) in A, 1 in B): A gives 3, B gives 1

Options: ``by="modes"`` compares as functions of the top-level mode coordinates (the
modes must have the same sizes); ``domain=(3, 5)`` compares only on those leading
extents of each mode (the logical region of a padded XLA layout); ``by="coordinate"``
compares as functions of natural coordinates, which needs the same shape leaves in
any nesting. Swizzled layouts are compared exactly; symbolic layouts are proved for
every assignment that satisfies the declared facts (see :mod:`.symbolic`).

>>> A = Layout(((2, 2), (2, 3)), ((2, 12), (1, 4)))
>>> B = Layout(((2, 2), (2, 3)), ((2, 12), (1, 5)))
>>> bool(equivalent(A, B, domain=(3, 2))), bool(equivalent(A, B, domain=(3, 3)))
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import inttuple as it
from ..coalesce import coalesce_flat
from ..errors import CutepyError
from ..layout import Layout, as_layout
from ..swizzle import ComposedLayout
from .normal_form import NormalForm, fmt_modes, normal_form

__all__ = ["Counterexample", "Equivalence", "equivalent", "normal_form", "NormalForm"]

#: Largest domain compared point by point when no normal form applies.
EXHAUSTIVE_LIMIT = 1 << 22


def _fmt_crd(c: Any) -> str:
    if isinstance(c, tuple):
        return "(" + ",".join(_fmt_crd(x) for x in c) + ")"
    return str(c)


@dataclass
class Counterexample:
    """Where two layouts differ: ``index`` (1-D, in the compared domain), the coordinates it
    has in A and in B, both offsets, and the symbol values used (``assignment``), if any.
    An offset is ``None`` where the index lies outside that layout's domain."""

    index: Any
    coord_a: Any
    coord_b: Any
    offset_a: Any
    offset_b: Any
    assignment: dict | None = None
    reason: str = ""

    def text(self) -> str:
        where = ""
        if self.assignment:
            where = "with " + ", ".join(f"{k}={v}" for k, v in _sorted(self.assignment)) + ", "
        if self.index is None:
            return where + self.reason
        a = "outside A's domain" if self.offset_a is None else f"A gives {self.offset_a}"
        b = "outside B's domain" if self.offset_b is None else f"B gives {self.offset_b}"
        ca, cb = _fmt_crd(self.coord_a), _fmt_crd(self.coord_b)
        if self.coord_a is None or self.coord_b is None:
            crd = f"coordinate {ca if self.coord_b is None else cb} in {'A' if self.coord_b is None else 'B'}"
        else:
            crd = f"coordinate {ca}" if ca == cb else f"coordinate {ca} in A, {cb} in B"
        return f"{where}at index {self.index} ({crd}): {a}, {b}"

    def check(self, A: Any, B: Any) -> bool:
        """Evaluate again: the offsets are as stated and they differ."""
        if self.index is None:
            return True
        if self.assignment:
            from ..symbolic import subs

            A, B = subs(A, self.assignment), subs(B, self.assignment)
        got = []
        for L, c, off in ((A, self.coord_a, self.offset_a), (B, self.coord_b, self.offset_b)):
            if off is None:
                got.append(None)
                continue
            v = L(c)
            if v != off:
                return False
            got.append(v)
        return got[0] != got[1]


def _sorted(a: dict) -> list:
    return sorted(a.items(), key=lambda kv: str(kv[0]))


@dataclass
class Equivalence:
    """The answer of :func:`equivalent`: truthy when the layouts are equivalent.

    ``proof`` lists ``(label, NormalForm of A, NormalForm of B)`` per compared part
    (whole layout or mode), per case for symbols; ``counterexample`` says where they
    differ; ``condition`` (symbolic only) states exactly when they are equal.
    """

    holds: bool
    A: Any
    B: Any
    by: str = "index"
    domain: Any = None
    method: str = "normal form"
    counterexample: Counterexample | None = None
    condition: str | None = None
    cases: list = field(default_factory=list)
    note: str = ""
    _proof: list | None = None

    def __bool__(self) -> bool:
        return self.holds is True

    @property
    def proof(self) -> list:
        """``[(label, NormalForm(A part), NormalForm(B part))]``; built on first use."""
        if self._proof is None:
            self._proof = _proof_forms(self.A, self.B, self.by) if self.method == "normal form" else []
        return self._proof

    def __repr__(self) -> str:
        head = "equivalent" if self.holds else "not equivalent"
        if self.condition:
            head += f"; equal exactly when {self.condition}"
        elif self.counterexample is not None:
            head += f": {self.counterexample.text()}"
        return f"<{head}>"

    def text(self) -> str:
        """The verdict with its proof or counterexample, as plain text."""
        lines = [f"A = {_show(self.A)}", f"B = {_show(self.B)}"]
        if self.domain is not None:
            lines.append(f"compared on the region {self.domain} of the modes")
        if self.cases:
            from .symbolic import cases_text

            lines += cases_text(self)
        elif self.holds:
            lines.append(f"equivalent ({self.method}){': ' + self.note if self.note else ''}")
            lines += _forms_text(self.proof)
        else:
            lines.append("not equivalent" + (f": {self.note}" if self.note else ""))
            if self.counterexample is not None:
                lines.append("counterexample " + self.counterexample.text())
            if self.method == "normal form" and self.counterexample is not None \
                    and self.counterexample.index is not None:
                lines += _forms_text(self.proof, steps=False)
        return "\n".join(lines)

    def latex(self) -> str:
        """The proof or counterexample as a LaTeX ``aligned`` block."""
        from .render import equivalence_latex

        return equivalence_latex(self)

    def _repr_html_(self) -> str:
        import html

        color = "#1a7f37" if self.holds else "#cf222e"
        head = "equivalent" if self.holds else "not equivalent"
        body = html.escape(self.text())
        return (f"<div><b style='color:{color}'>{head}</b>"
                f"<pre style='margin:4px 0'>{body}</pre></div>")

    def holds_at(self, values: dict) -> bool:
        """The verdict for one assignment of the symbols (the condition, evaluated).

        For integer layouts it is simply the verdict.
        """
        if not self.cases:
            return bool(self.holds)
        from .symbolic import verdict_at

        return verdict_at(self, values)

    def check(self) -> bool:
        """Re-check the proof (every step's rule, and equal normal forms) or the counterexample."""
        if self.cases:
            from .symbolic import check_cases

            return check_cases(self)
        if self.holds:
            if self.method != "normal form":
                return _recheck_other(self)
            if self.domain is None:
                return all(a.check() and b.check() and _same(a.modes, b.modes) for _, a, b in self.proof)
            extents = self.domain if isinstance(self.domain, tuple) else (self.domain,)
            return all(a.check() and b.check() and first_difference(a.modes, b.modes, v) is None
                       for (_, a, b), v in zip(self.proof, extents))
        if self.counterexample is None:
            return self.note != ""
        return self.counterexample.check(self.A, self.B)


def _show(x: Any) -> str:
    if type(x) is not Layout and not isinstance(x, ComposedLayout) and callable(x):
        return f"{getattr(x, '__name__', 'function')}() (built again in each case)"
    return str(x)


def _same(ma: tuple, mb: tuple) -> bool:
    return len(ma) == len(mb) and all(bool(x == y) for p, q in zip(ma, mb) for x, y in zip(p, q))


def _forms_text(proof: list, steps: bool = True) -> list:
    lines = []
    for label, fa, fb in proof:
        pre = f"{label}: " if label else ""
        lines.append(f"{pre}normal form of A = {fmt_modes(fa.modes)}, of B = {fmt_modes(fb.modes)}")
        if steps:
            for name, f in (("A", fa), ("B", fb)):
                lines.append(f"  {name}: " + "; ".join(s.text() for s in f.steps))
    return lines


def _parts(L: Layout, by: str) -> list:
    if by == "modes":
        return list(L) if type(L.shape) is tuple else [L]
    return [L]


def _proof_forms(A: Any, B: Any, by: str) -> list:
    pa, pb = _parts(A, by), _parts(B, by)
    out = []
    for k, (a, b) in enumerate(zip(pa, pb)):
        label = f"mode {k}" if by == "modes" else ""
        out.append((label, normal_form(a), normal_form(b)))
    return out


def _recheck_other(r: Equivalence) -> bool:
    again = equivalent(r.A, r.B, by=r.by, domain=r.domain)
    return bool(again) and again.method == r.method


# -- the concrete decision ---------------------------------------------------------------


def _modes(L: Layout) -> tuple:
    """Normal-form modes of an integer layout, fast (coalesce on the flat leaves)."""
    s, d = coalesce_flat(it.flatten(L._shape), it.flatten(L._stride))
    if type(s) is tuple:
        return tuple(zip(s, d))
    return () if s == 1 else ((s, d),)


def first_difference(ma: tuple, mb: tuple, limit: Any) -> Any:
    """The smallest index below ``limit`` where two normal forms differ as functions, or None.

    Both forms must cover ``[0, limit)``. Walking the modes together: equal strides over
    equal sizes agree; the first unequal stride differs at the current place value; at
    unequal sizes the shorter mode's successor (whose stride is not the continuation, by
    normal form) differs at the place value times that size.
    """
    i = j = 0
    base = 1
    while base < limit and i < len(ma) and j < len(mb):
        (sa, da), (sb, db) = ma[i], mb[j]
        if da != db:
            return base
        if sa != sb:
            k = base * (sa if sa < sb else sb)
            return k if k < limit else None
        base *= sa
        i += 1
        j += 1
    return None


def _counter_at(A: Layout, B: Layout, k: int, by: str, mode: int | None = None) -> Counterexample:
    if by == "modes":
        r = A.rank() if type(A.shape) is tuple else 1
        crd = tuple(k if m == mode else 0 for m in range(r))
        before = it.product(tuple(it.product(A.shape[m]) for m in range(mode))) if r > 1 else 1
        ca = crd if r > 1 else k
        return Counterexample(k * before, ca, ca, A(ca), B(ca))
    return _counter_at_any(A, B, k)


def _check_domain(A: Layout, B: Layout, domain: Any) -> tuple:
    if isinstance(domain, int) and not isinstance(domain, bool):
        domain = (domain,)
    dom = tuple(domain)
    sa = it.product_each(A.shape) if type(A.shape) is tuple else (A.shape,)
    sb = it.product_each(B.shape) if type(B.shape) is tuple else (B.shape,)
    if len(dom) != len(sa) or len(dom) != len(sb):
        raise CutepyError(f"domain {dom} needs one extent per mode of {A} and {B}")
    out = []
    for k, (v, x, y) in enumerate(zip(dom, sa, sb)):
        v = x if v is None else v
        if not 1 <= v <= x or v > y:
            raise CutepyError(f"domain extent {v} of mode {k} lies outside the modes' sizes {x} and {y}")
        out.append(v)
    return tuple(out)


def _concrete(A: Layout, B: Layout, by: str, domain: Any) -> Equivalence:
    if by == "coordinate":
        fa, fb = it.flatten(A.shape), it.flatten(B.shape)
        if fa != fb:
            return Equivalence(False, A, B, by, note=f"the shape leaves differ ({_fmt_crd(fa)} vs "
                               f"{_fmt_crd(fb)}), so the natural coordinates differ")
        by = "index"
    if by == "index" and domain is None:
        na, nb = A.size(), B.size()
        ma, mb = _modes(A), _modes(B)
        if na != nb:
            ce = _counter_at(A, B, min(na, nb), by)
            ce.reason = f"A has {na} elements and B has {nb}"
            return Equivalence(False, A, B, by, counterexample=ce,
                               note=f"the domains differ: A has {na} elements and B has {nb}")
        if ma == mb:
            return Equivalence(True, A, B, by, note=f"both have the normal form {fmt_modes(ma)}")
        k = first_difference(ma, mb, na)
        return Equivalence(False, A, B, by, counterexample=_counter_at(A, B, k, by),
                           note=f"normal forms {fmt_modes(ma)} and {fmt_modes(mb)}")
    if by not in ("index", "modes"):
        raise CutepyError(f"by must be 'index', 'modes' or 'coordinate', not {by!r}")
    if by == "index":  # an int prefix of the 1-D index
        (v,) = domain if isinstance(domain, tuple) else (domain,)
        A1, B1 = Layout._new((A.shape,), (A.stride,)), Layout._new((B.shape,), (B.stride,))
        _check_domain(A1, B1, (v,))
        k = first_difference(_modes(A), _modes(B), v)
        if k is None:
            return Equivalence(True, A, B, by, v, note=f"they agree on the first {v} indices: the "
                               "normal forms differ first at or past that index")
        return Equivalence(False, A, B, by, domain, counterexample=_counter_at(A, B, k, by))
    pa, pb = _parts(A, by), _parts(B, by)
    if len(pa) != len(pb):
        return Equivalence(False, A, B, by, domain, note=f"A has {len(pa)} modes and B has {len(pb)}")
    if domain is None:
        for m, (a, b) in enumerate(zip(pa, pb)):
            if a.size() != b.size():
                return Equivalence(False, A, B, by, note=f"mode {m} has {a.size()} elements in A "
                                   f"and {b.size()} in B: the domains differ")
        dom = tuple(a.size() for a in pa)
    else:
        dom = _check_domain(A, B, domain)
    for m, (a, b, v) in enumerate(zip(pa, pb, dom)):
        k = first_difference(_modes(a), _modes(b), v)
        if k is not None:
            return Equivalence(False, A, B, by, domain, counterexample=_counter_at(A, B, k, by, m))
    if domain is None:
        return Equivalence(True, A, B, by, note="every mode has the same normal form")
    return Equivalence(True, A, B, by, dom, note="every mode agrees on its region: the normal forms "
                       "differ first at or past its extent")


# -- swizzles and other composed layouts ---------------------------------------------------


def _composed(A: Any, B: Any, by: str, domain: Any) -> Equivalence:
    from .gf2 import as_xor_map

    if by != "index" or domain is not None:
        raise CutepyError("composed (swizzled) layouts are compared on the 1-D index only")
    na, nb = A.size(), B.size()
    if na != nb:
        ce = _counter_at_any(A, B, min(na, nb))
        return Equivalence(False, A, B, by, method="domains", counterexample=ce,
                           note=f"the domains differ: A has {na} elements and B has {nb}")
    plain_a, plain_b = _as_affine(A), _as_affine(B)
    if plain_a is not None and plain_b is not None:
        (oa, la), (ob, lb) = plain_a, plain_b
        r = _concrete(la, lb, "index", None)
        if oa == ob and (r or na == 0):
            return Equivalence(True, A, B, by, method="affine normal form",
                               note=f"both are {oa} + {fmt_modes(_modes(la))} (the swizzle never applies)")
        k = 0 if oa != ob else r.counterexample.index
        return Equivalence(False, A, B, by, method="affine normal form",
                           counterexample=_counter_at_any(A, B, k))
    fa, fb = as_xor_map(A), as_xor_map(B)
    if fa is not None and fb is not None and len(fa.columns) == len(fb.columns):
        if fa == fb:
            cols = ", ".join(str(c) for c in fa.columns)
            return Equivalence(True, A, B, by, method="xor map",
                               note=f"both are {fa.constant} ^ XOR of the columns [{cols}] over the "
                               "set bits of the index")
        k = 0 if fa.constant != fb.constant else next(
            1 << j for j, (x, y) in enumerate(zip(fa.columns, fb.columns)) if x != y)
        return Equivalence(False, A, B, by, method="xor map", counterexample=_counter_at_any(A, B, k))
    return _exhaustive(A, B, na)


def _as_affine(F: Any) -> tuple[int, Layout] | None:
    """``(offset, layout)`` when ``F(i) == offset + layout(i)`` on F's domain."""
    from ..swizzle import Swizzle
    from .gf2 import swizzle_is_identity_on

    if type(F) is Layout:
        return 0, F
    if not isinstance(F, ComposedLayout) or type(F.offset) is not int:
        return None
    inner = _as_affine(F.inner)
    if inner is None:
        return None
    o, L = inner
    o += F.offset
    strides = it.flatten(L.stride)
    if any(type(d) is not int or d < 0 for d in strides):
        return None
    if isinstance(F.outer, Swizzle) and o >= 0 and swizzle_is_identity_on(F.outer, o + L.cosize() - 1):
        return o, L
    if type(F.outer) is Layout and o == 0:
        from ..composition import composition

        try:
            return 0, composition(F.outer, L)
        except CutepyError:
            return None
    return None


def _counter_at_any(A: Any, B: Any, k: int) -> Counterexample:
    na, nb = A.size(), B.size()
    oa = A(k) if k < na else None
    ob = B(k) if k < nb else None
    ca = it.idx2crd(k, A.shape) if k < na else None
    cb = it.idx2crd(k, B.shape) if k < nb else None
    return Counterexample(k, ca, cb, oa, ob)


def _exhaustive(A: Any, B: Any, n: int) -> Equivalence:
    import numpy as np

    if n > EXHAUSTIVE_LIMIT:
        raise CutepyError(f"cannot compare {A} and {B} exactly: they are neither plain nor "
                          f"XOR-linear layouts, and {n} points are too many to enumerate")
    oa, ob = A.offsets(), B.offsets()
    diff = np.nonzero(oa != ob)[0]
    if diff.size == 0:
        return Equivalence(True, A, B, method="exhaustive", note=f"all {n} offsets agree")
    return Equivalence(False, A, B, method="exhaustive",
                       counterexample=_counter_at_any(A, B, int(diff[0])))


# -- entry point --------------------------------------------------------------------------


def _prepare(x: Any) -> Any:
    if type(x) is Layout or isinstance(x, ComposedLayout) or callable(x) and not isinstance(x, str):
        return x
    return as_layout(x)


def equivalent(A: Any, B: Any, *, by: str = "index", domain: Any = None) -> Equivalence:
    """Whether ``A`` and ``B`` are the same function on the same domain (see the module doc).

    ``A`` and ``B`` are layouts, composed (swizzled) layouts, anything
    :func:`~cutepy.layout.as_layout` accepts, or zero-argument functions that build a
    layout (for symbolic identities: the prover calls them again in each case it
    splits into).
    """
    from ..symbolic import is_symbolic

    A, B = _prepare(A), _prepare(B)
    if isinstance(domain, (tuple, list)):
        domain = tuple(domain)
        by = "modes" if by == "index" else by
    thunk = _is_thunk(A) or _is_thunk(B)
    if thunk or is_symbolic(A) or is_symbolic(B):
        from .symbolic import prove

        return prove(A, B, by, domain)
    if type(A) is Layout and type(B) is Layout:
        return _concrete(A, B, by, domain)
    return _composed(A, B, by, domain)


def _is_thunk(x: Any) -> bool:
    return type(x) is not Layout and not isinstance(x, ComposedLayout) and callable(x)
