"""Rich display: every picture in three forms, so that every notebook viewer shows one.

:func:`mimebundle` returns, for anything :mod:`cutepy.viz` draws (layouts, composed
layouts, swizzles, tilers, XLA shapes, pictures):

- ``text/plain``: the C++ ``print_layout`` table where there is one, else ``str(obj)``;
- ``image/svg+xml``: the SVG picture;
- ``text/html``: ``<img src="data:image/svg+xml;base64,...">`` of the same SVG, with
  a width that shrinks it to the cell only while its text stays 9 px or more (wider ones scroll).

Why three: JupyterLab shows ``image/svg+xml`` only in trusted notebooks, and strips
``<svg>`` from untrusted HTML, but keeps an ``<img>`` with a data URI; VS Code and
GitHub show either the SVG or the ``<img>``; a terminal shows the text.

The cell budget: a picture shows at most :data:`CELL_ROWS` rows and :data:`CELL_COLS`
columns of cells (32 x 32), the text table at most :data:`TEXT_LIMIT` per axis (16);
beyond that the middle rows and columns are elided (``...`` lanes) and the picture
says how many it shows. Raise them per call with ``mimebundle(obj, rows=..., cols=...)``,
or draw the full picture with :func:`cutepy.viz.show` (``max_rows=None``).

>>> from cutepy import Layout
>>> b = mimebundle(Layout((2, 2), (1, 2)))
>>> sorted(b)
['image/svg+xml', 'text/html', 'text/plain']
>>> print(b["text/plain"])                  # doctest: +NORMALIZE_WHITESPACE
(2,2):(1,2)
      0   1
    +---+---+
 0  | 0 | 2 |
    +---+---+
 1  | 1 | 3 |
    +---+---+
>>> b["text/html"].startswith('<img src="data:image/svg+xml;base64,')
True
>>> mimebundle(3.5)                          # not something cutepy draws: no bundle
{}
"""

from __future__ import annotations

from typing import Any

from ..algebra.composed import is_layout
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..kernels.atoms.copy import CopyAtom
from ..kernels.atoms.mma import MMAAtom
from ..kernels.tiled.mma import make_tiled_mma
from .atoms import copy_atom_svg, mma_atom_svg
from .canvas import img_html, render
from .layouts import layout_panel, layout_svg, swizzle_layout
from .linear import linear_layout_svg
from .picture import Picture, svg_of
from .text import layout_table
from .tiled import tiled_copy_svg, tiled_mma_svg
from .xla import xla_svg

#: Rows and columns of cells a notebook picture shows before eliding the middle ones.
CELL_ROWS = 32
CELL_COLS = 32
#: Rows and columns the ``text/plain`` table shows before eliding.
TEXT_LIMIT = 16


def _is_xla(obj: Any) -> bool:
    return type(obj).__module__.startswith("cutepy.xla") and type(obj).__name__ in (
        "ArrayShape", "TupleShape", "BufferShape")


def _is_tiler(obj: Any) -> bool:
    return isinstance(obj, tuple) and len(obj) > 0 and all(
        isinstance(t, (Layout, int)) or (isinstance(t, tuple) and _is_shape(t)) for t in obj)


def _is_shape(t: Any) -> bool:
    return isinstance(t, int) or (isinstance(t, tuple) and all(_is_shape(x) for x in t))


def _text(obj: Any, limit: int | None) -> str:
    if is_layout(obj):
        try:
            return layout_table(obj, limit).rstrip("\n")
        except CutepyError:  # rank > 2, symbolic or basis strides: the notation
            return str(obj)
    if isinstance(obj, Swizzle):
        lay = swizzle_layout(obj)
        return f"{obj}: chunks of 2^{obj.base} offsets go to\n" + layout_table(lay, limit).rstrip("\n")
    return repr(obj) if isinstance(obj, Picture) else str(obj)


#: Appended to a picture's ``<img>``: where the notebook is trusted (its scripts run), the
#: ``<img>`` becomes the same SVG inline, so that hovering a cell shows its coordinate,
#: offset and bank (or thread and value), hovering a thread's cell highlights that thread's
#: cells in every panel (A, B and C of a TiledMMA), and a click zooms to twice the size and
#: back. An untrusted notebook drops the script and keeps the ``<img>``.
LIVE_SCRIPT = r"""<script>(function (s) {
  var img = s && s.previousElementSibling;
  if (!img || img.tagName !== "IMG" || img.src.indexOf("data:image/svg+xml;base64,") !== 0) return;
  var box = document.createElement("div");
  box.className = "cutepy-live";
  box.style.overflowX = "auto";
  box.innerHTML = decodeURIComponent(escape(atob(img.src.split(",")[1])));
  var svg = box.querySelector("svg");
  if (!svg) return;
  svg.setAttribute("style", img.getAttribute("style") || "");
  img.replaceWith(box);
  var cells = svg.querySelectorAll(".cutepy-hover rect"), zoomed = false;
  function mark(hit) {
    for (var k = 0; k < cells.length; k++) {
      var on = hit(cells[k]);
      cells[k].setAttribute("fill", on ? "#000000" : "#ffffff");
      cells[k].setAttribute("fill-opacity", on ? "0.28" : "0");
    }
  }
  box.addEventListener("mouseover", function (e) {
    var r = e.target.closest ? e.target.closest(".cutepy-hover rect") : null;
    if (!r) return;
    var m = /thread (\d+)/.exec(r.textContent);
    var same = m ? new RegExp("thread " + m[1] + "(?!\\d)") : null;
    mark(function (c) { return same ? same.test(c.textContent) : c === r; });
  });
  box.addEventListener("mouseleave", function () { mark(function () { return false; }); });
  box.addEventListener("click", function () {
    zoomed = !zoomed;
    svg.setAttribute("style", zoomed ? "width:" + 2 * parseFloat(svg.getAttribute("width")) +
                     "px;max-width:none;height:auto" : img.getAttribute("style") || "");
  });
})(document.currentScript);</script>"""


def live_html(svg: str, alt: str = "") -> str:
    """The ``text/html`` of a picture: its ``<img>`` (untrusted notebooks, GitHub) and
    :data:`LIVE_SCRIPT`, which trusted notebooks run to make it interactive.

    >>> html = live_html(layout_svg(Layout((2, 2)), hover=True), "2x2")
    >>> html.startswith('<img src="data:image/svg+xml;base64,') and html.endswith("</script>")
    True
    """
    return img_html(svg, alt=alt) + LIVE_SCRIPT


def _svg(obj: Any, rows: int | None, cols: int | None) -> str:
    if isinstance(obj, Picture):
        return obj.svg
    if is_layout(obj):
        return layout_svg(obj, max_rows=rows, max_cols=cols, hover=True)
    if isinstance(obj, Swizzle):
        return svg_of(obj, max_rows=rows, max_cols=cols)
    if _is_xla(obj):
        return xla_svg(obj, max_rows=rows, max_cols=cols)
    return svg_of(obj, max_rows=rows, max_cols=cols)


def drawable(obj: Any) -> bool:
    """True for the objects :func:`mimebundle` draws.

    >>> drawable(Layout(4, 1)), drawable((Layout(2, 1), 4)), drawable((1.5, "x"))
    (True, True, False)
    """
    return (is_layout(obj) or isinstance(obj, (Swizzle, Picture)) or _is_xla(obj)
            or _is_tiler(obj))


def picture_html(layout: Any) -> str:
    """A layout's picture as an ``<img>`` (shown by untrusted notebooks); ``""`` if it has none.

    The picture callback of :meth:`cutepy.derivation.Derivation.html`.

    >>> picture_html(Layout((2, 2))).startswith('<img src="data:image/svg+xml;base64,')
    True
    """
    try:
        return img_html(layout_svg(layout, max_rows=CELL_ROWS, max_cols=CELL_COLS), alt=str(layout))
    except CutepyError:
        return ""


def _kernel_picture(obj: Any) -> str | None:
    """The SVG of a TiledMMA/MMA atom, a TiledCopy, or a tensor over an integer layout."""
    name = type(obj).__name__
    if isinstance(obj, MMAAtom):  # an atom alone (block-scaled ones with their scale factors)
        return mma_atom_svg(obj, hover=True)
    if isinstance(obj, CopyAtom):
        return copy_atom_svg(obj)
    if name in ("TiledMMA", "MMAAtom"):
        return tiled_mma_svg(obj if name == "TiledMMA" else make_tiled_mma(obj), hover=True)
    if name == "TiledCopy":
        return tiled_copy_svg(obj, hover=True)
    if name == "Tensor":  # as C++'s print_tensor: each cell shows the tensor's element there
        plain = obj.engine is None and type(obj.offset) is int
        caption = () if plain and obj.offset == 0 else (f"the elements of {obj}",)
        panel = layout_panel(obj.layout, max_rows=CELL_ROWS, max_cols=CELL_COLS, caption=caption,
                             offset=obj.offset if plain else 0,
                             element=None if plain else (lambda v: obj._value(obj.offset + v)))
        return render(panel, title=str(obj.layout))
    return None


def _explained(obj: Any) -> dict[str, str] | None:
    """The bundle of a derivation (steps with pictures) or a proof (verdict and steps)."""
    html_of = getattr(obj, "html", None)
    if type(obj).__name__ == "Derivation" and callable(html_of):
        return {"text/plain": obj.text(), "text/html": obj.html(picture=picture_html)}
    if type(obj).__name__ == "Equivalence" or type(obj).__name__ == "SymbolicEquivalence":
        return {"text/plain": obj.text(), "text/html": obj._repr_html_()}
    return None


def mimebundle(obj: Any, rows: int | None = CELL_ROWS, cols: int | None = CELL_COLS,
               text_limit: int | None = TEXT_LIMIT) -> dict[str, str]:
    """``{mime type: data}`` for Jupyter: ``text/plain``, ``image/svg+xml``, ``text/html``.

    Pre:  none (any object; this is a display hook and never raises).
    Post: ``{}`` for objects cutepy does not draw; only ``text/plain`` when the picture
          cannot be drawn (symbolic sizes, basis strides); else all three, the picture
          eliding beyond ``rows`` x ``cols`` cells and the table beyond ``text_limit``.
    """
    explained = _explained(obj)
    if explained is not None:
        return explained
    if type(obj).__name__ == "LinearLayout":  # bit matrix beside the CuTe picture
        svg = linear_layout_svg(obj, max_rows=rows, max_cols=cols)
        return {"text/plain": str(obj), "image/svg+xml": svg, "text/html": img_html(svg, alt=repr(obj))}
    kernel = type(obj).__name__ in ("TiledMMA", "MMAAtom", "TiledCopy", "Tensor")
    if kernel or isinstance(obj, (MMAAtom, CopyAtom)):
        try:
            svg = _kernel_picture(obj)
        except CutepyError:  # e.g. a tensor over basis strides: the text alone
            return {"text/plain": str(obj)}
        return {"text/plain": str(obj), "image/svg+xml": svg, "text/html": live_html(svg, alt=str(obj))}
    if not drawable(obj):
        return {}
    try:
        text = _text(obj, text_limit)
    except CutepyError:
        text = str(obj)
    bundle = {"text/plain": text}
    try:
        svg = _svg(obj, rows, cols)
    except CutepyError:
        return bundle
    bundle["image/svg+xml"] = svg
    bundle["text/html"] = live_html(svg, alt="picture" if isinstance(obj, Picture) else str(obj))
    return bundle
