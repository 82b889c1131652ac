"""``show``: a picture of anything cutepy can draw, for notebooks and files.

>>> from cutepy import Layout
>>> pic = show((Layout(3, 4), Layout(8, 2)))       # a tiler: no repr hook of its own
>>> pic._repr_svg_().startswith("<svg") and "mode 1: 8:2" in pic.svg
True
>>> show("f32[3,5]{1,0:T(2,2)}").svg.count(">pad<")
9
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from ..algebra.composed import is_layout
from ..core.errors import CutepyError
from ..core.lazy import load
from ..core.swizzle import Swizzle
from ..kernels.atoms.copy import CopyAtom
from ..kernels.atoms.mma import MMAAtom
from ..notation import parse
from .atoms import copy_atom_svg, mma_atom_svg
from .canvas import img_html, render
from .grid import GridPanel, make_axis
from .layouts import layout_svg, swizzle_layout, tiler_panel
from .xla import xla_svg

if TYPE_CHECKING:  # numpy is imported where it is used, so that pictures of layouts need none
    import numpy as np
else:  # numpy loads on first use (the module's import needs none)
    np = load("numpy")

#: PNG and PDF go through cairosvg (the optional viz extra; SVG itself needs nothing): falsy where
#: it is not installed
cairosvg = load("cairosvg", optional=True)


class Picture:
    """An SVG picture: shows itself in Jupyter, saves to a file, ``str()`` is the SVG.

    >>> pic = show(Swizzle(3, 0, 3))
    >>> pic.svg.startswith("<svg"), str(pic) == pic.svg
    (True, True)
    """

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """SVG, an ``<img>`` data URI (kept in untrusted notebooks) and a text line."""
        return {"text/plain": repr(self), "image/svg+xml": self.svg,
                "text/html": img_html(self.svg, "picture")}

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<cutepy.viz.Picture: {len(self.svg)} characters of SVG>"

    def save(self, path: str | os.PathLike[str], *, scale: float = 1.0) -> None:
        """Write the picture to ``path``: SVG, or PNG / PDF by the extension (:func:`save_picture`)."""
        save_picture(self.svg, path, scale=scale)


def _is_xla(obj: Any) -> bool:
    return type(obj).__module__.startswith("cutepy.xla")


def _looks_like_xla(text: str) -> bool:
    """XLA shapes have ``[dims]``; CuTe notation never uses square brackets."""
    return "[" in text


def _array_svg(arr: np.ndarray) -> str:
    a = np.asarray(arr)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2:
        raise CutepyError(f"show draws 1-D and 2-D arrays, got {a.ndim}-D")
    rows, cols = make_axis(a.shape[0]), make_axis(a.shape[1])
    sub = a[np.ix_(rows.shown, cols.shown)]
    labels = [[str(v) for v in row] for row in sub.tolist()]
    fills = [["#ffffff"] * len(row) for row in labels]
    return render(GridPanel(rows, cols, labels, fills, title=f"array {a.shape}"))


def svg_of(obj: Any, **opts: Any) -> str:
    """The SVG text :func:`show` wraps."""
    if is_layout(obj):
        return layout_svg(obj, **opts)
    if isinstance(obj, Swizzle):
        title = f"{obj}: where each chunk of 2^{obj.base} offsets goes"
        return layout_svg(swizzle_layout(obj), **{"title": title, **opts})
    if _is_xla(obj):
        return xla_svg(obj, **opts)
    if isinstance(obj, tuple):
        return render(tiler_panel(obj, **opts), title="tiler")
    if isinstance(obj, str):
        if _looks_like_xla(obj):
            return xla_svg(obj, **opts)

        return svg_of(parse(obj), **opts)
    numpy = sys.modules.get("numpy")  # an array exists only where numpy was imported
    if numpy is not None and isinstance(obj, numpy.ndarray):
        return _array_svg(obj)
    if isinstance(obj, Picture):
        return obj.svg
    if isinstance(obj, MMAAtom):
        return mma_atom_svg(obj, **opts)
    if isinstance(obj, CopyAtom):
        return copy_atom_svg(obj, **opts)
    raise CutepyError(f"cannot draw a {type(obj).__name__}: {obj!r}")


def show(obj: Any, **opts: Any) -> Picture:
    """A :class:`Picture` of a layout, composed layout, swizzle (how it moves chunks of
    ``2^M`` offsets), tiler (tuple of layouts), XLA shape, CuTe or XLA text, MMA or copy atom,
    or 2-D integer array; ``opts`` go to the drawing function (:func:`~cutepy.viz.layout_svg`
    or :func:`~cutepy.viz.xla_svg`).

    Pre:  ``obj`` is one of those (else ``CutepyError``; text that parses as neither raises
          ``ParseError``).
    Post: ``result.svg`` is the drawing function's SVG; the Picture renders in Jupyter.

    >>> from cutepy import Layout
    >>> pic = show(Layout((4, 8), (8, 1)))
    >>> pic.svg.startswith("<svg"), sorted(pic._repr_mimebundle_())
    (True, ['image/svg+xml', 'text/html', 'text/plain'])
    """
    return Picture(svg_of(obj, **opts))


def write_svg(obj: Any, path: str | os.PathLike[str], **opts: Any) -> None:
    """Draw ``obj`` as :func:`show` does and write the SVG to ``path``.

    Pre:  as :func:`show`; ``path`` is writable.
    Post: the file at ``path`` holds ``show(obj, **opts).svg``; returns ``None``.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "l.svg")
    >>> from cutepy import Layout
    >>> write_svg(Layout((4, 8), (8, 1)), path)
    >>> open(path).read().startswith("<svg")
    True
    """
    show(obj, **opts).save(path)


#: the file formats :func:`save_picture` writes, by extension
FORMATS = ("svg", "png", "pdf")


def svg_to(svg: str, fmt: str, scale: float = 1.0) -> bytes:
    """The SVG text converted to PNG or PDF bytes with ``cairosvg`` (the ``viz`` extra).

    Pre:  ``fmt`` ``"png"`` or ``"pdf"``; ``0 < scale <= 16``; cairosvg installed (else
          ``CutepyError`` saying how).
    Post: the bytes of the file (PNG starts ``\\x89PNG``, PDF ``%PDF``).

    >>> svg_to('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>', "png")[:4]
    b'\\x89PNG'
    """
    if fmt not in ("png", "pdf"):
        raise CutepyError(f"svg_to: fmt must be 'png' or 'pdf', got {fmt!r}")
    if not isinstance(scale, (int, float)) or isinstance(scale, bool) or not 0 < scale <= 16:
        raise CutepyError(f"svg_to: scale must be a number in (0, 16], got {scale!r}")
    if not cairosvg:
        raise CutepyError(f"writing {fmt.upper()} needs cairosvg: pip install 'cutepy[viz]' "
                          "(SVG needs nothing)")
    if not isinstance(svg, str):
        raise CutepyError(f"svg_to: svg must be SVG text, got {type(svg).__name__}")
    convert = cairosvg.svg2png if fmt == "png" else cairosvg.svg2pdf
    try:
        return convert(bytestring=svg.encode("utf-8"), scale=scale)
    except Exception as e:  # cairosvg's own errors (bad XML, no size): say which input
        raise CutepyError(f"svg_to: cairosvg cannot convert this svg to {fmt.upper()}: {e}") from None


def save_picture(picture: Any, path: str | os.PathLike[str], *, scale: float = 1.0) -> None:
    """Write a picture (SVG text, or anything :func:`cutepy.viz.show` draws) to ``path``: SVG
    for ``.svg``, PNG for ``.png`` and PDF for ``.pdf`` (these two through ``cairosvg``).

    Pre:  ``path`` ends in ``.svg``, ``.png`` or ``.pdf``; ``scale`` > 0 (PNG and PDF).
    Post: the file holds the picture in that format.

    >>> import os, tempfile
    >>> from cutepy import Layout
    >>> p = os.path.join(tempfile.mkdtemp(), "l.png")
    >>> save_picture(Layout((2, 2)), p)
    >>> open(p, "rb").read()[:4]
    b'\\x89PNG'
    """
    fmt = os.fspath(path).rsplit(".", 1)[-1].lower() if "." in os.path.basename(os.fspath(path)) else ""
    if fmt not in FORMATS:
        raise CutepyError(f"save_picture: path {os.fspath(path)!r} must end in .svg, .png or .pdf")
    svg = picture if isinstance(picture, str) and picture.lstrip().startswith("<svg") else svg_of(picture)
    if fmt == "svg":
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg)
        return
    data = svg_to(svg, fmt, scale)
    with open(path, "wb") as f:
        f.write(data)
