"""Pictures of one atom, a slice, a whole GEMM and a composition, and PNG or PDF besides SVG.

- :func:`mma_atom_svg`: an MMA atom alone: A (M x K), B (K x N) and C (M x N), each cell the
  thread and value that hold it; a block-scaled atom adds its scale-factor grids (one scale per
  ``sf_vec_size`` elements of K).
- :func:`copy_atom_svg`: a copy atom alone: its source and destination thread-value layouts
  over the bits (or elements) one instruction moves.
- :func:`draw_slice`: a layout with the cells of a slice (``L(2, None)``) highlighted.
- :func:`draw_gemm`: a GEMM's A, B and C over the whole problem, each element labelled with the
  thread of a TiledMMA that owns it and the tiles outlined.
- :func:`draw_composite`: ``B``, ``A`` and ``A o B`` side by side.
- :func:`cutepy.viz.save_picture` writes any of them (any picture) as ``.svg`` (the default,
  no dependency), ``.png`` or ``.pdf`` (through ``cairosvg``, the optional ``viz`` extra).

>>> from cutepy import mma_atom
>>> svg = mma_atom_svg(mma_atom("SM80_16x8x8_F16F16F16F16_TN"))
>>> svg.startswith("<svg") and "MMA atom SM80_16x8x8_F16F16F16F16_TN" in svg
True
"""

from __future__ import annotations

from typing import Any

from ..algebra.composed import composed_parts, is_layout, make_composed_layout
from ..algebra.composition import composition
from ..core.errors import CutepyError
from ..core.layout import Layout, slice_and_offset
from ..kernels.atoms.copy import CopyAtom
from ..kernels.atoms.mma import MMAAtom
from ..kernels.tiled.mma import TiledMMA, make_tiled_mma
from .canvas import HStack, Text, VStack, render
from .colors import thread_color
from .grid import GridPanel, check_cells, make_axis
from .layouts import layout_panel, owner_cells, tv_layout_panel
from .tiled import _panel, tiled_mma_svg

#: the highlight of a slice's cells, and of the cells outside it
SLICE_COLOR = "#f28e2b"
OUTSIDE_COLOR = "#ffffff"


def mma_atom_svg(atom: Any, **opts: Any) -> str:
    """One MMA atom drawn alone: A, B and C with the thread and value of every element (C++'s
    ``print_latex`` of ``MMA_Atom``), and the scale factors of a block-scaled atom.

    Pre:  ``atom`` an MMA atom (``cutepy.mma_atom(...)``); ``opts`` as :func:`cutepy.viz.tiled_mma_svg`.
    Post: one SVG whose title names the atom; every cell of C names its thread ``T`` and value ``V``.

    >>> from cutepy import mma_atom
    >>> ">T31<" in mma_atom_svg(mma_atom("SM80_16x8x16_F32F16F16F32_TN"))
    True
    """
    if not isinstance(atom, MMAAtom):
        raise CutepyError(f"mma_atom_svg: atom must be an MMA atom (cutepy.mma_atom), got {atom!r}")
    body = tiled_mma_svg(make_tiled_mma(atom), **opts)
    extra = _scale_factor_panels(atom)
    head = Text(f"MMA atom {atom.name}: M x N x K = {' x '.join(map(str, atom.shape_mnk))}, "
                f"{atom.thr_id.size()} threads", size=13, weight="bold")
    if not extra:
        return body.replace(f"<title>TiledMMA {atom.name}</title>", f"<title>MMA atom {atom.name}</title>",
                            1).replace(">TiledMMA ", f">MMA atom {atom.name}: as a TiledMMA of one atom; ", 1)
    inner = tiled_mma_panel_stack(atom, opts)
    return render(VStack([head, inner, HStack(extra)], gap=10), title=f"MMA atom {atom.name}")


def tiled_mma_panel_stack(atom: MMAAtom, opts: dict) -> Any:
    """The A, B, C panels of one atom as a row (for pictures that add panels below)."""
    M, N, K = atom.shape_mnk
    kw = dict(max_rows=opts.get("max_rows", 64), max_cols=opts.get("max_cols", 64))
    mma = make_tiled_mma(atom)
    return HStack([_panel(mma.tv_layout_A_tiled, (M, K), f"A  ({M}x{K})", None, kw),
                   _panel(mma.tv_layout_B_tiled, (N, K), f"B  ({N}x{K})", None, kw),
                   _panel(mma.tv_layout_C_tiled, (M, N), f"C  ({M}x{N})", None, kw)])


def _scale_factor_panels(atom: Any) -> list:
    """A block-scaled atom's SFA (M x K/vec) and SFB (N x K/vec) grids: cell (m, j) is the scale
    of elements ``j*vec .. j*vec+vec-1`` of row ``m`` (numbered m + M*j), coloured by ``j``."""
    vec = getattr(atom, "sf_vec_size", None)
    if not isinstance(vec, int) or vec < 1:
        return []
    M, N, K = atom.shape_mnk
    kb = max(1, K // vec)
    out = []
    for name, rows in (("SFA", M), ("SFB", N)):
        check_cells(rows * kb, f"the {rows}x{kb} scale-factor grid")
        r, c = make_axis(rows, 64), make_axis(kb, 64)
        labels = [[f"{m + rows * j}" for j in c.shown] for m in r.shown]
        fills = [[thread_color(j) for j in c.shown] for _ in r.shown]
        out.append(GridPanel(r, c, labels, fills, title=f"{name}  ({rows}x{kb}: one scale per {vec} of K)",
                             caption=[f"scale type {getattr(atom, 'sf_type', '?')}"]))
    return out


def copy_atom_svg(atom: Any, *, max_rows: int | None = 64, max_cols: int | None = 64,
                  hover: bool = False) -> str:
    """One copy atom drawn alone: its source and destination thread-value layouts (C++'s
    ``ValLayoutSrc`` / ``ValLayoutDst``) over the elements one instruction moves, each cell the
    thread and value that read (left) or write (right) it.

    ``hover``: each cell carries a ``<title>`` with its cell, thread and value.

    Pre:  ``atom`` a copy atom (``cutepy.copy_atom(...)``).
    Post: one SVG; ``T#``/``V#`` labels for every element the atom moves.

    >>> from cutepy import copy_atom
    >>> svg = copy_atom_svg(copy_atom("SM75_U32x4_LDSM_N", 16))
    >>> "source" in svg and "destination" in svg and ">T31<" in svg
    True
    """
    if not isinstance(atom, CopyAtom):
        raise CutepyError(f"copy_atom_svg: atom must be a copy atom (cutepy.copy_atom), got {atom!r}")
    S, D = atom.layout_src_tv, atom.layout_dst_tv
    n = int(S.size())
    T = int(S[0].size())
    shape = (T, n // T) if n % T == 0 else (n, 1)
    kw = dict(max_rows=max_rows, max_cols=max_cols, hover=hover)
    panels = []
    for tv, name in ((S, "source"), (D, "destination")):
        cells = int(tv.size())
        thread, value = [-1] * cells, [-1] * cells
        for t, v, i in owner_cells(tv, cells):
            if 0 <= i < cells:
                thread[i], value[i] = t, v
        panels.append(tv_layout_panel(tv, shape, title=f"{name}  {tv}", owners=(thread, value), **kw))
    head = Text(f"Copy atom {atom.name} ({atom.element_bits}b elements): {T} threads, "
                f"{n // T} values each", size=13, weight="bold")
    return render(VStack([head, HStack(panels)], gap=10), title=f"Copy atom {atom.name}")


def draw_slice(layout: Any, coord: Any, *, max_rows: int | None = 64, max_cols: int | None = 64) -> str:
    """The layout's grid with the cells of the slice ``layout(coord)`` highlighted (``None`` in
    ``coord`` marks a free mode, as ``_`` in C++'s ``L(2, _)``); the caption gives the slice's
    layout and its offset.

    Pre:  ``layout`` a Layout or swizzled layout of rank 1 or 2; ``coord`` an index or ``None``
          per mode (a rank-1 layout: an index or ``None``).
    Post: one SVG; the highlighted cells are exactly the coordinates the slice keeps.

    >>> from cutepy import Layout
    >>> svg = draw_slice(Layout((4, 8), (8, 1)), (2, None))
    >>> svg.count('fill="#f28e2b"'), "slice (2, None)" in svg
    (8, True)
    """
    if not is_layout(layout):
        raise CutepyError(f"draw_slice: layout must be a Layout or swizzled layout, got {layout!r}")
    parts = composed_parts(layout)
    inner = parts[2] if parts is not None else layout
    rank = inner.rank()
    picks = coord if isinstance(coord, tuple) else (coord,)
    if rank > 2 or len(picks) != rank or any(p is not None and type(p) is not int for p in picks):
        raise CutepyError(f"draw_slice: coord must give an index or None for each mode of {layout} "
                          f"(rank {rank}; rank 1 and 2 are drawn), got {coord!r}")
    try:
        sub, off = slice_and_offset(coord, inner)
    except CutepyError as e:
        raise CutepyError(f"draw_slice: coord {coord!r} does not slice {layout}: {e}") from None

    def color(m: int, n: int, value: Any) -> str:
        at = (n,) if rank == 1 else (m, n)  # a rank-1 layout is drawn as one row
        return SLICE_COLOR if all(p is None or p == x for p, x in zip(picks, at)) else OUTSIDE_COLOR

    sliced = sub if parts is None else make_composed_layout(parts[0], parts[1] + off, sub)
    panel = layout_panel(layout, color=color, max_rows=max_rows, max_cols=max_cols,
                         caption=(f"slice {coord!r}: {sliced} at offset {off}",))
    return render(panel, title=f"{layout} sliced at {coord!r}")


def draw_gemm(mma: Any, M: int, N: int, K: int, *, max_rows: int | None = 64,
              max_cols: int | None = 64, hover: bool = False) -> str:
    """A GEMM ``C (M x N) += A (M x K) B (K x N)`` drawn whole: every element of A, B and C
    labelled with the thread of the TiledMMA that owns it, tile by tile (the tile repeats over
    the problem, so element ``(m, n)`` belongs to the thread that owns ``(m % TM, n % TN)`` of
    the tile), coloured by thread; ``hover`` adds each cell's thread and value as its ``<title>``.

    Pre:  ``mma`` a TiledMMA or MMA atom; ``M, N, K`` positive multiples of its tile.
    Post: one SVG with the A, B and C grids over the whole problem.

    >>> from cutepy import mma_atom
    >>> svg = draw_gemm(mma_atom("SM80_16x8x8_F16F16F16F16_TN"), 32, 16, 8)
    >>> "C  (32x16: 2x2 tiles)" in svg and ">T31<" in svg
    True
    """
    if isinstance(mma, MMAAtom):
        mma = make_tiled_mma(mma)
    if not isinstance(mma, TiledMMA):
        raise CutepyError(f"draw_gemm: mma must be a TiledMMA or an MMA atom, got {mma!r}")
    TM, TN, TK = (int(x) for x in mma.tile_size_mnk)
    for name, v, t in (("M", M, TM), ("N", N, TN), ("K", K, TK)):
        if type(v) is not int or v < 1 or v % t:
            raise CutepyError(f"draw_gemm: {name} = {v!r} must be a positive multiple of the tile's {t}")
    kw = dict(max_rows=max_rows, max_cols=max_cols, hover=hover)

    def whole(tv: Layout, rows: int, cols: int, tr: int, tc: int, title: str) -> Any:
        check_cells(rows * cols, f"the {rows}x{cols} operand")
        cells = tr * tc
        t1, v1 = [-1] * cells, [-1] * cells
        for t, v, i in owner_cells(tv, cells):
            if 0 <= i < cells and t1[i] < 0:
                t1[i], v1[i] = t, v
        thread, value = [-1] * (rows * cols), [-1] * (rows * cols)
        per_tile = int(tv[1].size())
        for n in range(cols):
            for m in range(rows):
                i = (m % tr) + tr * (n % tc)
                tile = (m // tr) + (rows // tr) * (n // tc)
                thread[m + rows * n] = t1[i]
                value[m + rows * n] = v1[i] + per_tile * tile if v1[i] >= 0 else -1
        return tv_layout_panel(tv, (rows, cols), owners=(thread, value),
                               title=f"{title}  ({rows}x{cols}: {rows // tr}x{cols // tc} tiles)", **kw)

    A, B, C = mma.tv_layout_A_tiled, mma.tv_layout_B_tiled, mma.tv_layout_C_tiled
    pa = whole(A, M, K, TM, TK, "A")
    pb = whole(B, N, K, TN, TK, "B (N x K)")
    pc = whole(C, M, N, TM, TN, "C")
    head = Text(f"GEMM {M}x{N}x{K} with TiledMMA {mma.atom.name} ({mma.size} threads, tile {TM}x{TN}x{TK}); "
                "values numbered per thread across tiles", size=13, weight="bold")
    return render(VStack([head, HStack([pa, pb, pc])], gap=10), title=f"GEMM {M}x{N}x{K}")


def draw_composite(A: Any, B: Any, *, max_rows: int | None = 64, max_cols: int | None = 64) -> str:
    """``B``, ``A`` and their composition ``A o B`` side by side: the composition's cell
    ``(m, n)`` holds ``A(B(m, n))``.

    Pre:  ``A`` a Layout or swizzled layout, ``B`` a Layout, admissible for ``composition``
          (else its ``CutepyError``).
    Post: one SVG of three grids.

    >>> from cutepy import Layout
    >>> svg = draw_composite(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
    >>> "A o B = ((2,2),3):((24,2),8)" in svg
    True
    """
    for name, x in (("A", A), ("B", B)):
        if not is_layout(x):
            raise CutepyError(f"draw_composite: {name} must be a Layout or swizzled layout, got {x!r}")
    R = composition(A, B)
    kw = dict(max_rows=max_rows, max_cols=max_cols)
    panels = [layout_panel(B, title=f"B = {B}", **kw), layout_panel(A, title=f"A = {A}", **kw),
              layout_panel(R, title=f"A o B = {R}", **kw)]
    return render(HStack(panels), title=f"composition of {A} and {B}")


__all__ = ["copy_atom_svg", "draw_composite", "draw_gemm", "draw_slice", "mma_atom_svg"]
