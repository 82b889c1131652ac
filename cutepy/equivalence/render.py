"""LaTeX for equivalence results: the normal forms, their steps, the counterexample."""

from __future__ import annotations

from typing import Any

from .normal_form import latex_leaf, latex_modes


def _esc(s: str) -> str:
    return s.replace("\\", r"\backslash ").replace("_", r"\_").replace("%", r"\%").replace("#", r"\#")


def layout_latex(L: Any) -> str:
    """``shape:stride`` in LaTeX, symbolic leaves typeset by sympy."""
    def tree(t: Any) -> str:
        if isinstance(t, tuple):
            return "(" + ",".join(tree(x) for x in t) + ")"
        return latex_leaf(t)

    if hasattr(L, "shape") and hasattr(L, "stride"):
        return f"{tree(L.shape)}:{tree(L.stride)}"
    return rf"\text{{{_esc(str(L))}}}"


def equivalence_latex(r: Any) -> str:
    """The result of :func:`cutepy.equivalent` as an ``aligned`` block."""
    rows = [rf"A &= {layout_latex(r.A)}", rf"B &= {layout_latex(r.B)}"]
    if r.cases and callable(r.A) and not hasattr(r.A, "shape"):
        rows = [rf"A &= {layout_latex(r.cases[0].A)}", rf"B &= {layout_latex(r.cases[0].B)}"]
    if r.cases:
        for line in r.text().splitlines()[2:]:
            rows.append(rf"&\text{{{_esc(line)}}}")
    elif r.holds:
        rows.append(rf"&\text{{equivalent ({_esc(r.method)})}}")
        for label, fa, fb in r.proof:
            if label:
                rows.append(rf"&\text{{{_esc(label)}}}")
            for name, f in (("A", fa), ("B", fb)):
                for st in f.steps:
                    rows.append(rf"{name} &\leadsto {st.latex()}")
            rows.append(rf"\mathrm{{nf}}(A) &= {latex_modes(fa.modes)} = \mathrm{{nf}}(B)")
    else:
        rows.append(r"&\text{not equivalent}")
        ce = r.counterexample
        if ce is not None and ce.index is not None:
            if ce.assignment:
                pairs = sorted(ce.assignment.items(), key=lambda kv: str(kv[0]))
                vals = ",\\ ".join(f"{k}={v}" for k, v in pairs)
                rows.append(rf"&\text{{with }} {vals}")
            bot = r"\bot"
            oa = latex_leaf(ce.offset_a) if ce.offset_a is not None else bot
            ob = latex_leaf(ce.offset_b) if ce.offset_b is not None else bot
            rows.append(rf"A({ce.index}) &= {oa}")
            rows.append(rf"B({ce.index}) &= {ob}")
        elif r.note:
            rows.append(rf"&\text{{{_esc(r.note)}}}")
    return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"
