"""The normal form of a layout as a function, with the steps that produce it.

Two layouts of the same size are the same function of the 1-D index exactly when
their normal forms are identical: flatten, drop the size-1 modes, merge
``s0:d0 ++ s1:s0*d0`` into ``s0*s1:d0``. (The first index where ``f(i) != i*d0`` is
``s0``, so ``s0`` and, inductively, every mode is determined by the function.) That is
``coalesce``; here each step is recorded so that a proof can show and re-check it.

>>> from cutepy import Layout
>>> nf = normal_form(Layout((2, (1, 6)), (1, (6, 2))))
>>> print(nf.layout())
12:1
>>> for s in nf.steps: print(s.text())
flatten: (2,1,6):(1,6,2)
start with 2:1
drop 1:6 (size 1)
merge 2:1 ++ 6:2 -> 12:1 (2*1 == 2)
>>> nf.check()
True
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from ..algebra.coalesce import coalesce_static
from ..core import events as ev
from ..core import inttuple as it
from ..core.dynamic import has_dynamic, is_static_int
from ..core.errors import SymbolicError
from ..core.layout import Layout
from ..core.symbolic.facts import undecided_unequal
from ..core.tracing import recording


def fmt_leaf(x: Any) -> str:
    return str(x)


def fmt_modes(modes: tuple) -> str:
    """Flat modes ``((s, d), ...)`` in CuTe notation; the empty list is ``1:0``."""
    if not modes:
        return "1:0"
    if len(modes) == 1:
        return f"{modes[0][0]}:{modes[0][1]}"
    return "(" + ",".join(str(s) for s, _ in modes) + "):(" + ",".join(str(d) for _, d in modes) + ")"


def latex_leaf(x: Any) -> str:
    if type(x) is int:
        return str(x)
    lx = getattr(x, "latex", None)
    return lx() if lx is not None else str(x)


def latex_modes(modes: tuple) -> str:
    """Flat modes in LaTeX."""
    if not modes:
        return "1:0"
    ss = ",".join(latex_leaf(s) for s, _ in modes)
    ds = ",".join(latex_leaf(d) for _, d in modes)
    if len(modes) == 1:
        return f"{ss}:{ds}"
    return f"({ss}):({ds})"


@dataclass(frozen=True)
class Step:
    """One coalescing step: ``rule`` is ``flatten``, ``start``, ``drop``, ``merge`` or ``keep``.

    ``data`` holds the leaves the rule looked at, so that :meth:`check` can decide
    the rule's condition again; ``modes`` is the mode list after the step.
    """

    rule: str
    data: tuple
    modes: tuple
    decided: bool = True

    def text(self) -> str:
        d = self.data
        if self.rule == "flatten":
            return f"flatten: {fmt_modes(self.modes)}"
        if self.rule == "drop":
            return f"drop {d[0]}:{d[1]} (size 1)"
        if self.rule == "start":
            return f"start with {d[0]}:{d[1]}" + ("" if self.decided else " (its size may be 1)")
        s0, d0, s1, d1 = d
        if self.rule == "merge":
            return f"merge {s0}:{d0} ++ {s1}:{d1} -> {s0 * s1}:{d0} ({s0}*{d0} == {d1})"
        if not self.decided:
            return f"keep {s0}:{d0} | {s1}:{d1} apart (undecided whether {s0}*{d0} == {d1}: kept)"
        if not has_dynamic((s0, d0, s1, d1)) or s0 * d0 != d1:
            return f"keep {s0}:{d0} | {s1}:{d1} apart ({s0}*{d0} != {d1})"
        # C++'s coalesce with run-time integers (from the last mode to the first)
        if not is_static_int(s1):
            return f"keep {s0}:{d0} | {s1}:{d1} apart ({s1} is a run-time shape: C++ merges into static ones)"
        return (f"keep {s0}:{d0} | {s1}:{d1} apart ({s0}*{d0} == {d1} only at run time: "
                "C++ merges statically equal strides)")

    def latex(self) -> str:
        d = self.data
        L = latex_leaf
        if self.rule == "flatten":
            return rf"\text{{flatten: }} {latex_modes(self.modes)}"
        if self.rule == "drop":
            return rf"\text{{drop }} {L(d[0])}:{L(d[1])} \quad (\text{{size }} 1)"
        if self.rule == "start":
            return rf"\text{{start with }} {L(d[0])}:{L(d[1])}"
        s0, d0, s1, d1 = d
        if self.rule == "merge":
            return (rf"{L(s0)}:{L(d0)} \mathbin{{+\!\!+}} {L(s1)}:{L(d1)} \to {L(s0 * s1)}:{L(d0)}"
                    rf" \quad ({L(s0)} \cdot {L(d0)} = {L(d1)})")
        return rf"{L(s0)}:{L(d0)} \mid {L(s1)}:{L(d1)} \quad ({L(s0)} \cdot {L(d0)} \ne {L(d1)})"

    def holds(self) -> bool:
        """Whether the rule's condition holds (decided again from the facts for symbols)."""
        d = self.data
        if self.rule == "flatten":
            return True
        if self.rule == "drop":
            return bool(d[0] == 1)
        if not self.decided:  # keeping modes apart never changes the function
            return self.rule in ("start", "keep")
        if self.rule == "start":
            return bool(d[0] != 1)
        s0, d0, s1, d1 = d
        merged = bool(s0 * d0 == d1)
        return merged if self.rule == "merge" else (not merged and s1 != 1)


@dataclass
class NormalForm:
    """The normal form of ``source`` (flat modes) and the steps from ``flatten`` to it.

    >>> from cutepy import Layout
    >>> nf = normal_form(Layout((2, (1, 6)), (1, (6, 2))))
    >>> nf.modes, [s.rule for s in nf.steps]
    (((12, 1),), ['flatten', 'start', 'drop', 'merge'])
    """

    source: Any
    modes: tuple
    steps: list = field(default_factory=list)

    def layout(self) -> Layout:
        """The normal form as a Layout (``1:0`` when empty, a scalar layout for one mode)."""
        return modes_layout(self.modes)

    def text(self) -> str:
        return "\n".join(s.text() for s in self.steps)

    def check(self) -> bool:
        """Replay the steps from ``flatten(source)``: each rule applies and the result is reached."""
        fs, fd = it.flatten_tuple(self.source.shape), it.flatten_tuple(self.source.stride)
        pending = list(zip(fs, fd))
        if not self.steps or self.steps[0].rule != "flatten" or self.steps[0].modes != tuple(pending):
            return False
        if len(self.steps) != len(pending) + 1:
            return False
        out: list = []
        for st, mode in zip(self.steps[1:], pending):
            if not st.holds():
                return False
            if st.rule in ("drop", "start"):
                if st.data != mode or (st.rule == "start" and out):
                    return False
                if st.rule == "start":
                    out.append(mode)
            elif st.rule in ("merge", "keep"):
                if not out or tuple(out[-1]) != st.data[:2] or st.data[2:] != mode:
                    return False
                if st.rule == "merge":
                    out[-1] = (st.data[0] * st.data[2], st.data[1])
                else:
                    out.append(mode)
            else:
                return False
            if tuple(out) != st.modes:
                return False
        return tuple(out) == self.modes


def modes_layout(modes: tuple) -> Layout:
    if not modes:
        return Layout._new(1, 0)
    if len(modes) == 1:
        return Layout._new(modes[0][0], modes[0][1])
    return Layout._new(tuple(s for s, _ in modes), tuple(d for _, d in modes))


class _Steps:
    """A recorder (:mod:`cutepy.core.tracing`) that keeps coalesce's per-mode events."""

    def __init__(self) -> None:
        self.events: list = []

    def opens(self, fn: Any) -> bool:
        return False

    def emit(self, event: Any) -> None:
        if type(event) in (ev.Drop, ev.Start, ev.Keep, ev.Merge):
            self.events.append(event)


def normal_form(L: Layout, lenient: bool = False) -> NormalForm:
    """The normal form with its steps; ``lenient`` keeps what it cannot decide (symbols).

    The steps are those of :func:`cutepy.algebra.coalesce.coalesce_static` (the one coalesce), read
    from its events. With ``lenient``, a mode whose size may or may not be 1 stays, and
    two modes that may or may not merge stay apart: the result is the same function, not
    always the shortest one.

    Pre:  ``L`` is a layout with integer (or symbolic) leaves.
    Post: ``layout()`` is the same function as ``L``; ``check()`` replays the steps.

    >>> print(normal_form(Layout((2, (2, 3)), (1, (2, 8)))).text())
    flatten: (2,2,3):(1,2,8)
    start with 2:1
    merge 2:1 ++ 2:2 -> 4:1 (2*1 == 2)
    keep 4:1 | 3:8 apart (4*1 != 8)
    """
    fs, fd = it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)
    rec = _Steps()
    with recording(rec), (undecided_unequal() if lenient else nullcontext()):
        coalesce_static(fs, fd)  # the function's normal form: run-time integers count by value
    steps = [Step("flatten", (), tuple(zip(fs, fd)))]
    out: list = []
    for e in rec.events:
        if type(e) is ev.Drop:
            steps.append(Step("drop", e.mode, tuple(out)))
        elif type(e) is ev.Start:
            out.append(e.mode)
            steps.append(Step("start", e.mode, tuple(out), _unequal(e.mode[0], 1, lenient)))
        elif type(e) is ev.Merge:
            (ps, pd), (s, d) = e.prev, e.mode
            out[-1] = (ps * s, pd)
            steps.append(Step("merge", (ps, pd, s, d), tuple(out)))
        else:
            (ps, pd), (s, d) = e.prev, e.mode
            out.append((s, d))
            decided = _unequal(ps * pd, d, lenient) and _unequal(s, 1, lenient)
            steps.append(Step("keep", (ps, pd, s, d), tuple(out), decided))
    return NormalForm(L, tuple(out), steps)


def _unequal(a: Any, b: Any, lenient: bool) -> bool:
    """Whether ``a != b`` is decided (for every admissible assignment); False where the facts
    leave it open (lenient only: strict forms raise there, in coalesce itself)."""
    try:
        return bool(a != b)
    except SymbolicError:
        if not lenient:
            raise
        return False
