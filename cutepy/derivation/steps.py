"""A derivation: the steps of one operation call, as text, LaTeX, HTML and pictures.

>>> from cutepy.core.layout import Layout
>>> D = Derivation("size", (Layout(4, 2),))
>>> D.add("count the elements")
>>> D.result = 4
>>> print(D.text())
size(4:2)
  1. count the elements
  = 4
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CutepyError
from ..core.inttuple import format_tiler
from ..equivalence.normal_form import latex_leaf
from ..equivalence.render import layout_latex
from ..symbolic import is_symbolic
from .operations import operation

#: an argument as text (layouts in CuTe notation, tilers as ``<...>``)
fmt = format_tiler


def lx(x: Any) -> str:
    """An argument in LaTeX."""
    if isinstance(x, tuple):
        return r"\langle " + ", ".join(lx(y) for y in x) + r"\rangle"
    if hasattr(x, "shape") and hasattr(x, "stride"):
        return layout_latex(x)
    return latex_leaf(x)


@dataclass
class DStep:
    """One step: its text, its LaTeX, a layout to picture (optional), a nested derivation.

    >>> from cutepy import Layout, coalesce, explain
    >>> step = explain(coalesce, Layout((2, (1, 6)), (1, (6, 2)))).steps[0]
    >>> step.text, step.layout, step.sub
    ('flatten: (2,1,6):(1,6,2)', None, None)
    """

    text: str
    latex: str = ""
    layout: Any = None
    sub: Derivation | None = None


@dataclass
class Derivation:
    """How ``op(*args)`` is computed: ``steps``, then ``result`` (or ``error``).

    >>> from cutepy import Layout, coalesce, explain
    >>> d = explain(coalesce, Layout((2, (1, 6)), (1, (6, 2))))
    >>> d.result, d.steps[0].text
    (12:1, 'flatten: (2,1,6):(1,6,2)')
    """

    op: str
    args: tuple
    steps: list = field(default_factory=list)
    result: Any = None
    error: Exception | None = None

    def add(self, text: str, latex: str = "", layout: Any = None, sub: Derivation | None = None) -> None:
        """Record a step (``sub``: the nested derivation it consists of)."""
        self.steps.append(DStep(text, latex, layout, sub))

    def head(self) -> str:
        return f"{self.op}({', '.join(fmt(a) for a in self.args)})"

    def text(self) -> str:
        """The derivation as numbered plain-text lines, nested derivations indented."""
        lines = [self.head()]
        for i, s in enumerate(self.steps, 1):
            lines.append(f"  {i}. {s.text}")
            if s.sub is not None:
                lines += ["     " + ln for ln in s.sub._body()]
        lines.append(self._tail())
        return "\n".join(lines)

    def _body(self) -> list:
        out = []
        for i, s in enumerate(self.steps, 1):
            out.append(f"{i}. {s.text}")
            if s.sub is not None:
                out += ["   " + ln for ln in s.sub._body()]
        out.append(self._tail().strip())
        return out

    def _tail(self) -> str:
        if self.error is not None:
            return f"  fails: {self.error}"
        return f"  = {fmt(self.result)}"

    def latex(self) -> str:
        """The derivation as a LaTeX ``array`` (nested derivations indented)."""
        rows = [rf"\textbf{{{_tex_escape(self.op)}}}({', '.join(lx(a) for a in self.args)})"]
        rows += self._latex_rows(1)
        return "\\begin{array}{l}\n" + " \\\\\n".join(rows) + "\n\\end{array}"

    def _latex_rows(self, depth: int) -> list:
        pad = r"\quad " * depth
        rows = []
        for i, s in enumerate(self.steps, 1):
            body = s.latex or rf"\text{{{_tex_escape(s.text)}}}"
            rows.append(rf"{pad}{i}.\ {body}")
            if s.sub is not None:
                rows += s.sub._latex_rows(depth + 1)
        if self.error is not None:
            rows.append(rf"{pad}\text{{fails: {_tex_escape(str(self.error))}}}")
        else:
            rows.append(rf"{pad}= {lx(self.result)}")
        return rows

    def pictures(self) -> list[tuple[str, Any]]:
        """``(caption, layout)`` for every step that produced a layout worth drawing, in order."""
        out = []
        for s in self.steps:
            if s.layout is not None:
                out.append((s.text, s.layout))
            if s.sub is not None:
                out += s.sub.pictures()
        if self.result is not None and hasattr(self.result, "shape"):
            out.append((f"{self.head()} = {fmt(self.result)}", self.result))
        return out

    def _repr_html_(self) -> str:
        return self.html()

    def html(self, picture: Callable[[Any], str] | None = None) -> str:
        """The steps as HTML; ``picture(layout)`` gives the HTML of a layout's picture.

        The derivation draws nothing itself: Jupyter's display (registered by
        :mod:`cutepy`) passes :func:`cutepy.viz.display.picture_html`.

        >>> from cutepy import Layout, explain
        >>> h = explain("complement", Layout(4, 2), 24).html(picture=lambda L: f"[{L}]")
        >>> "<ol>" in h and "[(2,3):(1,8)]" in h
        True
        """
        return self._html(True, picture)

    def _html(self, top: bool, picture: Callable[[Any], str] | None = None) -> str:
        def _svg(L: Any) -> str:
            if picture is None or not hasattr(L, "shape") or is_symbolic(L) or L.size() > 1024:
                return ""
            return f"<div>{picture(L)}</div>"

        items = []
        for s in self.steps:
            pic = _svg(s.layout) if s.layout is not None else ""
            sub = ""
            if s.sub is not None:
                sub = (f"<details><summary>{html.escape(s.sub.head())}</summary>"
                       f"{s.sub._html(False, picture)}</details>")
            items.append(f"<li>{html.escape(s.text)}{pic}{sub}</li>")
        tail = html.escape(self._tail().strip())
        head = f"<b>{html.escape(self.head())}</b>" if top else ""
        res = _svg(self.result) if top and self.result is not None else ""
        return f"<div>{head}<ol>{''.join(items)}</ol><div>{tail}</div>{res}</div>"

    def check(self) -> bool:
        """Run the real operation again: same result, or the same kind of error."""
        fn = operation(self.op)
        try:
            real = fn(*self.args)
        except CutepyError as e:
            return self.error is not None and type(e) is type(self.error)
        return self.error is None and same(real, self.result)


def _tex_escape(s: str) -> str:
    for a, b in (("\\", r"\backslash "), ("_", r"\_"), ("%", r"\%"), ("#", r"\#"), ("&", r"\&"),
                 ("{", r"\{"), ("}", r"\}"), ("^", r"\^{}"), ("$", r"\$")):
        s = s.replace(a, b)
    return s



def same(a: Any, b: Any) -> bool:
    """Structural equality that also works for symbolic leaves (compares the printed form)."""
    if type(a) is not type(b):
        return False
    return str(a) == str(b)
