"""LaTeX/TikZ pictures, the same documents C++ CuTe's ``print_latex`` and
``print_latex_tv`` write (standalone class, one ``\\node`` per cell, a grid, index labels).

>>> from cutepy import Layout
>>> tex = to_latex(Layout((2, 2), (1, 2)))
>>> print(tex.splitlines()[0])
% Layout: (2,2):(1,2)
>>> print(tex.splitlines()[7])
\\node[fill=black!00] at (0,0) {0};
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import CutepyError
from ..layout import Layout, append
from .grid import int_size
from .layouts import tv_owners
from .view import as_layout_like

_HEADER = (
    "\\documentclass[convert]{standalone}\n"
    "\\usepackage{tikz}\n\n"
    "\\begin{document}\n"
    "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
    "every node/.style={minimum size=1cm, outer sep=0pt}]\n\n"
)
_FOOTER = "\\end{tikzpicture}\n\\end{document}\n"

#: CuTe's ``TikzColor_BWx8``: grey level by offset modulo 8.
TIKZ_BW = ("black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70")
#: CuTe's ``TikzColor_TV``: colour by thread modulo 8.
TIKZ_TV = tuple(
    f"{{rgb,255:red,{r};green,{g};blue,{b}}}"
    for r, g, b in ((175, 175, 255), (175, 255, 175), (255, 255, 175), (255, 175, 175),
                    (210, 210, 255), (210, 255, 210), (255, 255, 210), (255, 210, 210))
)


def _labels(M: int, N: int) -> list[str]:
    out = [f"\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};\n" for m in range(M)]
    out += [f"\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};\n" for n in range(N)]
    return out


def _grid(M: int, N: int) -> str:
    return f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({M},{N});\n\n"


def to_latex(layout: Any, color: Callable[[int], str] | None = None) -> str:
    """A standalone TikZ document of a rank-1 or rank-2 layout, as CuTe's ``print_latex``.

    A rank-1 layout is drawn as one column (CuTe appends a ``1:0`` mode). ``color``
    maps an offset to a TikZ colour (default: CuTe's eight greys). Row ``m`` runs down
    and column ``n`` across, as in :func:`cutepy.viz.print_layout`.

    >>> tex = to_latex(Layout(3, 2))
    >>> tex.count("\\\\node[fill="), "(0,0) grid (3,1)" in tex
    (3, True)
    """
    obj = as_layout_like(layout)
    shape = obj.shape
    rank = len(shape) if isinstance(shape, tuple) else 1
    if rank > 2:
        raise CutepyError(f"print_latex draws rank <= 2 layouts; {obj} has rank {rank} (group modes first)")
    shown = append(obj, n=2) if isinstance(obj, Layout) else obj
    if isinstance(shape, tuple) and rank == 2:
        M, N = int_size(shape[0]), int_size(shape[1])
    else:
        M, N = int_size(shape), 1
    offs = obj.offsets()  # colexicographic: index m + M*n
    col = color or (lambda i: TIKZ_BW[i % 8])
    out = [f"% Layout: {shown}\n", _HEADER]
    for m in range(M):
        for n in range(N):
            idx = int(offs[m + M * n])
            out.append(f"\\node[fill={col(idx)}] at ({m},{n}) {{{idx}}};\n")
    out.append(_grid(M, N))
    out += _labels(M, N)
    out.append(_FOOTER)
    return "".join(out)


def to_latex_tv(tv: Any, tile_mn: Any, color: Callable[[int, int], str] | None = None) -> str:
    """A standalone TikZ document of a thread-value layout over its ``M x N`` tile,
    as CuTe's ``print_latex_tv``: each cell ``T# \\\\ V#``, coloured by thread.

    >>> tex = to_latex_tv(Layout((2, 2), (2, 1)), (2, 2))
    >>> "\\\\shortstack{T1 \\\\\\\\ V0}" in tex
    True
    """
    tv = as_layout_like(tv)
    thread, value, m_shape, n_shape = tv_owners(tv, tile_mn)
    M, N = thread.shape
    col = color or (lambda t, v: TIKZ_TV[t % 8])
    out = [f"% Layout TV: {tv}\n", _HEADER]
    cells = [(int(thread[m, n]), int(value[m, n]), m, n) for m in range(M) for n in range(N)
             if thread[m, n] >= 0]
    for t, v, m, n in sorted(cells, key=lambda c: (c[0], c[1])):  # CuTe's scan order
        out.append(f"\\node[fill={col(t, v)}] at ({m},{n}) {{\\shortstack{{T{t} \\\\ V{v}}}}};\n")
    out.append(_grid(M, N))
    out += _labels(M, N)
    out.append(_FOOTER)
    return "".join(out)
