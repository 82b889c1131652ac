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

import re
from collections.abc import Callable
from typing import Any

from ..algebra.composition import composition
from ..core.errors import CutepyError
from ..core.layout import Layout, append, make_identity_layout, slice_and_offset
from ..kernels.atoms.mma import MMAAtom
from ..kernels.tiled.copy import TiledCopy
from ..kernels.tiled.mma import TiledMMA, make_tiled_mma
from .grid import int_size
from .layouts import owner_cells, selected_threads, tv_owners
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


def to_latex(layout: Any, color: Callable[..., str] | None = None, *, operands: str = "ABC",
             threads: Any = None) -> str:
    """A standalone TikZ document of a rank-1 or rank-2 layout, as CuTe's ``print_latex``.

    A :class:`~cutepy.kernels.tiled.TiledMMA` or :class:`~cutepy.kernels.tiled.TiledCopy` gives C++'s
    ``print_latex`` of it (C, A and B panels; source and destination panels), byte for
    byte; ``color`` then maps ``(thread, value)`` to a TikZ colour. For these, ``threads``
    (a thread index or a list) keeps only the nodes of what those threads hold, on the whole
    grid, and ``operands`` (a TiledMMA's: ``"C"``, ``"AB"``, ...) the panels drawn, each where
    C++ puts it; a GMMA 64xNx16 TiledMMA (A and B held by all 128 threads) draws whole.

    A rank-1 layout is drawn as one column (CuTe appends a ``1:0`` mode). ``color``
    maps an offset to a TikZ colour (default: CuTe's eight greys). Row ``m`` runs down
    and column ``n`` across, as in :func:`cutepy.viz.print_layout`.

    Pre:  ``layout`` has rank at most 2, or is a TiledMMA / TiledCopy; ``operands`` and
          ``threads`` only with those, ``threads`` their thread indices; at most
          :data:`MAX_CELLS` nodes (else ``CutepyError``).
    Post: a complete LaTeX document (``\\documentclass`` ... ``\\end{document}``) with one node per
          element (per element a chosen thread holds, with ``threads``).

    >>> tex = to_latex(Layout(3, 2))
    >>> tex.count("\\\\node[fill="), "(0,0) grid (3,1)" in tex
    (3, True)
    >>> from cutepy.kernels.atoms import mma_atom
    >>> tex = to_latex(mma_atom("SM90_64x64x16_F16F16F16_SS<MN,MN>"), operands="C", threads=[0])
    >>> tex.count("\\\\shortstack"), "(0,0) grid (64,64)" in tex, "% Threads: 0" in tex
    (32, True, True)
    """
    if isinstance(layout, MMAAtom):  # C++: print_latex(make_tiled_mma(atom))
        layout = make_tiled_mma(layout)
    if not isinstance(operands, str) or not operands or set(operands) - set("ABC"):
        raise CutepyError(f"operands picks among 'A', 'B' and 'C' (e.g. 'C' or 'AB'), not {operands!r}")
    if isinstance(layout, TiledMMA):
        return _latex_mma(layout, color, operands, threads)
    if operands != "ABC":
        raise CutepyError(f"operands picks the panels of a TiledMMA, not of {type(layout).__name__}")
    if isinstance(layout, TiledCopy):
        return _latex_copy(layout, color, threads)
    if threads is not None:
        raise CutepyError(
            f"threads picks the threads of a TiledMMA or TiledCopy, not of {type(layout).__name__}")
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
    if M * N > MAX_CELLS:  # a node per cell: refuse before evaluating anything
        raise CutepyError(f"to_latex of {obj} would draw {M * N} cells, over the limit "
                          f"cutepy.viz.latex.MAX_CELLS = {MAX_CELLS}; slice or divide the layout first")
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

    Pre:  ``tv`` has two modes (thread, value) and maps into the ``M x N`` tile; at most
          ``MAX_CELLS`` pairs (else ``CutepyError``).
    Post: a complete LaTeX document with one labelled cell per ``(thread, value)`` pair.

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


# -- TiledMMA / TiledCopy (C++ print_latex(TiledMMA), print_latex(TiledCopy)) -----------------

#: the most cells a TiledMMA/TiledCopy picture draws
MAX_CELLS = 1 << 16


def static_str(x: Any) -> str:
    """``x`` printed as C++ prints a static value: every integer as ``_n`` (``(_4,_8):(_1@1,_0)``).

    >>> static_str(make_identity_layout((4, 8)))
    '(_4,_8):(_1@0,_1@1)'
    """
    return re.sub(r"(?:(?<=^)|(?<=[(,:]))(-?\d+)", r"_\1", str(x))


def _tv_cells(tv: Layout, M: int, N: int, threads: Any = None) -> list[tuple[int, int, int, int]]:
    """(tid, vid, m, n) of a (thread, value) -> m + M*n layout, first owner of each cell only, in
    CuTe's scan order (threads outermost); only the chosen ``threads`` when given."""
    cells = owner_cells(tv, M * N, threads)
    if len(cells) > MAX_CELLS:
        raise CutepyError(f"the picture would draw {len(cells)} cells, over the limit {MAX_CELLS}; "
                          "draw fewer operands or threads (operands='C', threads=[0])")
    return [(t, v, i % M, i // M) for t, v, i in cells]


def _node(col: Callable[[int, int], str], t: int, v: int, x: int, y: int) -> str:
    return f"\\node[fill={col(t, v)}] at ({x},{y}) {{\\shortstack{{T{t} \\\\ V{v}}}}};\n"


def _coord_tensor(tv: Layout, shape: tuple) -> str:
    L = composition_of_identity(shape, tv)
    return f"ArithTuple({','.join('_0' for _ in shape)}) o {static_str(L)}"


def composition_of_identity(shape: tuple, tv: Layout) -> Layout:
    """``composition(make_identity_layout(shape), tv)``: the TV layout with coordinate values."""
    return composition(make_identity_layout(shape), tv)


def _threads_line(threads: Any, T: int) -> list[str]:
    chosen = selected_threads(threads, T)
    return [] if chosen is None else [f"% Threads: {','.join(map(str, chosen))}\n"]


def _latex_mma(mma: TiledMMA, color: Callable[..., str] | None, operands: str = "ABC",
               threads: Any = None) -> str:
    col = color or (lambda t, v: TIKZ_TV[t % 8])
    M, N, K = mma.tile_size_mnk
    C, A, B = mma.tv_layout_C_tiled, mma.tv_layout_A_tiled, mma.tv_layout_B_tiled
    out = [f"% Layout{x}: {_coord_tensor(tv, shape)}\n" for x, tv, shape in
           (("C", C, (M, N)), ("A", A, (M, K)), ("B", B, (N, K))) if x in operands]
    out += _threads_line(threads, int(C[0].size()))
    out.append(_HEADER)
    if "C" in operands:
        out += [_node(col, t, v, m, n) for t, v, m, n in _tv_cells(C, M, N, threads)]
        out.append(f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({M},{N});\n\n")
        if "A" not in operands:  # C's row labels, where A's panel would be
            out += [f"\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};\n" for m in range(M)]
        if "B" not in operands:  # C's column labels, where B's panel would be
            out += [f"\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};\n" for n in range(N)]
    if "A" in operands:
        out += [_node(col, t, v, m, k - K - 1) for t, v, m, k in _tv_cells(A, M, K, threads)]
        out.append(f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,{-K - 1}) grid ({M},-1);\n\n")
        out += [f"\\node at ({m},{-K - 2}) {{\\Large{{\\texttt{{{m}}}}}}};\n" for m in range(M)]
        out += [f"\\node at (-1,{k - K - 1}) {{\\Large{{\\texttt{{{k}}}}}}};\n" for k in range(K)]
    if "B" in operands:
        out += [_node(col, t, v, k - K - 1, n) for t, v, n, k in _tv_cells(B, N, K, threads)]
        out.append(f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({-K - 1},0) grid (-1,{N});\n\n")
        out += [f"\\node at ({-K - 2},{n}) {{\\Large{{\\texttt{{{n}}}}}}};\n" for n in range(N)]
        out += [f"\\node at ({k - K - 1},-1) {{\\Large{{\\texttt{{{k}}}}}}};\n" for k in range(K)]
    out.append(_FOOTER)
    return "".join(out)


def _latex_copy(tc: TiledCopy, color: Callable[..., str] | None, threads: Any = None) -> str:
    col = color or (lambda t, v: TIKZ_TV[t % 8])
    M, N = tc.tile_shape
    ident = make_identity_layout((M, N))
    S = slice_and_offset((None, None, 0), tc.tidfrg_S(ident))[0]
    D = slice_and_offset((None, None, 0), tc.tidfrg_D(ident))[0]
    out = [f"% Layout S TV: ArithTuple(_0,_0) o {static_str(S)}\n",
           f"% Layout D TV: ArithTuple(_0,_0) o {static_str(D)}\n"]
    src, dst = tc.layout_src_tv_tiled, tc.layout_dst_tv_tiled
    out += _threads_line(threads, int(src[0].size()))
    out.append(_HEADER)
    out += [_node(col, t, v, m, n) for t, v, m, n in _tv_cells(src, M, N, threads)]
    out.append(f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({M},{N});\n\n")
    out += _labels(M, N)
    out += [_node(col, t, v, m, n + N + 3) for t, v, m, n in _tv_cells(dst, M, N, threads)]
    out.append(f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,{N + 3}) grid ({M},{N + N + 3});\n\n")
    out += [f"\\node at ({m},{N + N + 3}) {{\\Large{{\\texttt{{{m}}}}}}};\n" for m in range(M)]
    out += [f"\\node at (-1,{n + N + 3}) {{\\Large{{\\texttt{{{n}}}}}}};\n" for n in range(N)]
    out.append(_FOOTER)
    return "".join(out)
