"""The answer of :func:`~cutepy.equivalence.equivalent`: a verdict with its proof or counterexample.

>>> from cutepy import Layout, equivalent
>>> r = equivalent(Layout((4, 3), (3, 1)), Layout(12, 1))
>>> r.counterexample.text()
'at index 1 (coordinate (1,0) in A, 1 in B): A gives 3, B gives 1'
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..algebra.composed import is_layout
from ..core import inttuple as it
from ..core.layout import Layout
from ..core.lazy import load
from .normal_form import fmt_modes, normal_form
from .render import equivalence_latex

#: the independent procedures (loads sympy): only symbolic verdicts read it
_certificate = load("cutepy.equivalence.certificate")


@dataclass
class Counterexample:
    """Where two layouts differ: ``index`` (1-D, in the compared domain), the coordinates it
    has in A and in B, both offsets, and the symbol values used (``assignment``), if any.
    An offset is ``None`` where the index lies outside that layout's domain.

    >>> from cutepy import Layout, equivalent
    >>> equivalent(Layout((4, 3), (3, 1)), Layout(12, 1)).counterexample
    Counterexample(index=1, coord_a=(1, 0), coord_b=1, offset_a=3, offset_b=1, assignment=None, reason='')
    """

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
        ca, cb = it.format_tuple(self.coord_a), it.format_tuple(self.coord_b)
        if self.coord_a is None or self.coord_b is None:
            crd = f"coordinate {ca if self.coord_b is None else cb} in {'A' if self.coord_b is None else 'B'}"
        else:
            crd = f"coordinate {ca}" if ca == cb else f"coordinate {ca} in A, {cb} in B"
        return f"{where}at index {self.index} ({crd}): {a}, {b}"

    def check(self, A: Any, B: Any) -> bool:
        """Evaluate again: the offsets are as stated and they differ.

        With an ``assignment``, ``A`` and ``B`` are the layouts with those values put in
        (:class:`~cutepy.equivalence.symbolic.SymbolicCounterexample` does that first).
        """
        if self.index is None:
            return True
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

    >>> from cutepy import Layout, equivalent
    >>> r = equivalent(Layout((4, 3), (3, 1)), Layout(12, 1))
    >>> bool(r), r.check()
    (False, True)
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
    #: the decision procedure that gave this verdict, run again by :meth:`check`
    decide: Callable[..., Equivalence] | None = field(default=None, repr=False, compare=False)
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
        if self.holds:
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

    def proof_lines(self) -> list[str]:
        """The proof step by step, for :func:`cutepy.explain`: the verdict's text (normal forms
        and their steps, each case of a split, the counterexample), then the re-checks: the
        steps replayed (``check()``) and, for a symbolic "equivalent", each obligation of its
        certificate with the independent procedure that proved it."""
        lines = [ln for ln in self.text().splitlines()[2:] if ln.strip()]
        lines.append(f"re-checked (check()): {'passes' if self.check() else 'FAILS'}")
        cert = getattr(self, "certificate", None)
        cert = cert() if callable(cert) else None
        if cert is not None:
            done = {True: "proved", False: "REFUTED", None: "not decided"}
            verdict = (done[cert.holds] if _certificate.procedures()
                       else "not checked (pip install cutepy[proofs])")
            lines.append(f"certificate: {len(cert.obligations)} obligations, {verdict}")
            lines += [f"  {ob.what}: {done[res]} by {proc}" for ob, proc, res in cert.checks]
        return lines

    def latex(self) -> str:
        """The proof or counterexample as a LaTeX ``aligned`` block."""
        return equivalence_latex(self)

    def _repr_html_(self) -> str:
        color = "#1a7f37" if self.holds else "#cf222e"
        head = "equivalent" if self.holds else "not equivalent"
        body = html.escape(self.text())
        return (f"<div><b style='color:{color}'>{head}</b>"
                f"<pre style='margin:4px 0'>{body}</pre></div>")

    def holds_at(self, values: dict) -> bool:
        """The verdict for one assignment of the symbols (the condition, evaluated).

        For integer layouts it is simply the verdict.
        """
        return bool(self.holds)

    def check(self) -> bool:
        """Re-check the proof (every step's rule, and equal normal forms) or the counterexample."""
        if self.holds:
            if self.method != "normal form":
                again = self.decide(self.A, self.B, self.by, self.domain) if self.decide else None
                return again is not None and bool(again) and again.method == self.method
            if self.domain is None:
                return all(a.check() and b.check() and _same(a.modes, b.modes) for _, a, b in self.proof)
            extents = self.domain if isinstance(self.domain, tuple) else (self.domain,)
            return all(a.check() and b.check() and first_difference(a.modes, b.modes, v) is None
                       for (_, a, b), v in zip(self.proof, extents))
        if self.counterexample is None:
            return self.note != ""
        return self.counterexample.check(self.A, self.B)


def _show(x: Any) -> str:
    if not is_layout(x) and callable(x):
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
