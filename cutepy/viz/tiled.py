"""SVG pictures of a TiledMMA (A, B and C panels) and a TiledCopy (source and destination),
cells labelled ``T#`` / ``V#`` and coloured by thread, laid out as C++'s ``print_latex``:
B above C (K down, N across), A left of C (M down, K across).

>>> from cutepy.kernels.atoms import mma_atom
>>> from cutepy.kernels.tiled import make_tiled_mma
>>> svg = tiled_mma_svg(make_tiled_mma(mma_atom("SM80_16x8x8_F16F16F16F16_TN")))
>>> svg.startswith("<svg"), ">T31<" in svg
(True, True)
"""

from __future__ import annotations

from typing import Any

from ..algebra.composition import composition
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..kernels.atoms.mma import MMAAtom
from ..kernels.tiled.copy import TiledCopy
from ..kernels.tiled.mma import TiledMMA, make_tiled_mma
from .canvas import HStack, Panel, Text, VStack, render
from .grid import check_cells
from .layouts import owner_cells, selected_threads, tv_layout_panel


class _Spacer(Panel):
    def __init__(self, width: float, height: float):
        self.width, self.height = width, height

    def draw(self, canvas: Any, x: float, y: float) -> None:
        return None


def _panel(tv: Layout, shape: tuple[int, int], title: str, threads: Any, kw: dict) -> Any:
    """The TV panel of ``tv`` over its ``M x N`` tile, its first owners scanned as arrays (a GMMA's
    A and B: every one of 128 threads holds every cell), only ``threads``' when given."""
    M, N = shape
    check_cells(M * N, f"the {M}x{N} tile")
    thread, value = [-1] * (M * N), [-1] * (M * N)
    for t, v, i in owner_cells(tv, M * N, threads):
        thread[i], value[i] = t, v
    return tv_layout_panel(tv, shape, title=title, threads=threads, owners=(thread, value), **kw)


def _who(threads: Any, T: int) -> str:
    chosen = selected_threads(threads, T)
    if chosen is None:
        return ""
    names = ", ".join(map(str, chosen[:8])) + (", ..." if len(chosen) > 8 else "")
    return f"; thread{'s' if len(chosen) > 1 else ''} {names} only"


def _transposed(tv: Layout, rows: int, cols: int) -> Layout:
    """``tv`` over a ``rows x cols`` tile redrawn as ``cols x rows`` (index r + R*c -> c + C*r)."""
    return composition(Layout((rows, cols), (cols, 1)), tv)


def tiled_mma_svg(
    mma: TiledMMA, *, max_rows: int | None = 64, max_cols: int | None = 64, operands: str = "ABC",
    threads: Any = None, **opts: Any
) -> str:
    """The A (M x K), B (K x N, transposed as in C++'s picture) and C (M x N) tiles of a
    TiledMMA, each cell showing the thread and value that hold it (first owner for A and B,
    which threads share; a GMMA's A and B, which all 128 threads hold, show thread 0).
    ``operands`` picks the tiles drawn (``"C"``, ``"AB"``, ...).
    ``threads`` (a thread index or a list) draws only what those threads hold, on the whole
    tile grid (the other cells grey): ``tiled_mma_svg(mma, threads=[0])``.
    ``opts`` go to :func:`cutepy.viz.layouts.tv_layout_panel` (``color``).

    Pre:  ``mma`` is a TiledMMA or an MMA atom; ``threads`` are thread indices of it (else
          ``CutepyError``).
    Post: one SVG; every cell names the thread ``T`` and value ``V`` that hold it (the chosen
          threads' cells only, when ``threads`` is given).

    >>> from cutepy.kernels.atoms import mma_atom
    >>> svg = tiled_mma_svg(mma_atom("SM80_16x8x16_F32F16F16F32_TN"))
    >>> svg.startswith("<svg") and ">T31<" in svg and "C  (16x8)" in svg
    True
    >>> svg = tiled_mma_svg(mma_atom("SM90_64x128x16_F32BF16BF16_SS"), operands="C")
    >>> "C  (64x128)" in svg and "A  (" not in svg
    True
    >>> import re
    >>> svg = tiled_mma_svg(mma_atom("SM90_64x128x16_F32BF16BF16_SS"), threads=[37])
    >>> sorted(set(re.findall(r">(T[0-9]+)<", svg))), "thread 37 only" in svg
    (['T37'], True)
    """
    if isinstance(mma, MMAAtom):
        mma = make_tiled_mma(mma)
    if not isinstance(mma, TiledMMA):
        raise CutepyError(f"tiled_mma_svg draws a TiledMMA (or an MMA atom), not {type(mma).__name__}")
    if not isinstance(operands, str) or not operands or set(operands) - set("ABC"):
        raise CutepyError(f"operands picks among 'A', 'B' and 'C' (e.g. 'C' or 'AB'), not {operands!r}")
    M, N, K = mma.tile_size_mnk
    A, B, C = mma.tv_layout_A_tiled, mma.tv_layout_B_tiled, mma.tv_layout_C_tiled
    kw = dict(max_rows=max_rows, max_cols=max_cols, **opts)
    who = _who(threads, int(C[0].size()))
    if operands != "ABC":
        panels = []
        for name, tv, shape in (("A", A, (M, K)), ("B", B, (N, K)), ("C", C, (M, N))):
            if name in operands:
                panels.append(_panel(tv, shape, f"{name}  ({shape[0]}x{shape[1]})", threads, kw))
        head = Text(f"TiledMMA {mma.atom.name}: {mma.size} threads, tile {M}x{N}x{K}, "
                    f"operands {operands}{who}", size=13, weight="bold")
        return render(VStack([head, HStack(panels)], gap=10), title=f"TiledMMA {mma.atom.name}")
    pa = _panel(A, (M, K), f"A  ({M}x{K})", threads, kw)
    pc = _panel(C, (M, N), f"C  ({M}x{N})", threads, kw)
    try:
        Bt = _transposed(B, N, K)
    except CutepyError:  # a B layout the transpose cannot compose with: draw it N x K
        pb = _panel(B, (N, K), f"B  ({N}x{K})", threads, kw)
    else:
        pb = _panel(Bt, (K, N), f"B  ({K}x{N}, k down)", threads, kw)
    top = HStack([_Spacer(pa.width, pb.height), pb])
    bottom = HStack([pa, pc])
    head = Text(
        f"TiledMMA {mma.atom.name}: {mma.size} threads, tile {M}x{N}x{K}, "
        f"ThrLayoutVMNK {mma.thr_layout_vmnk}{who}",
        size=13,
        weight="bold",
    )
    return render(VStack([head, top, bottom], gap=10), title=f"TiledMMA {mma.atom.name}")


def tiled_copy_svg(
    tc: TiledCopy, *, max_rows: int | None = 64, max_cols: int | None = 64, threads: Any = None,
    **opts: Any
) -> str:
    """The source and destination TV layouts of a TiledCopy over its tile, side by side;
    ``threads`` (a thread index or a list) draws only what those threads read and write.

    Pre:  ``tc`` is a TiledCopy; ``threads`` are thread indices of it (else ``CutepyError``).
    Post: one SVG; every cell names the thread and value that read (left) or write (right) it.

    >>> from cutepy.kernels.atoms import copy_atom
    >>> from cutepy.kernels.tiled import make_tiled_copy
    >>> tc = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 16), Layout((4, 8)), Layout((1, 2)))
    >>> ">T31<" in tiled_copy_svg(tc), ">T31<" in tiled_copy_svg(tc, threads=0)
    (True, False)
    """
    if not isinstance(tc, TiledCopy):
        raise CutepyError(f"tiled_copy_svg draws a TiledCopy, not {type(tc).__name__}")
    M, N = tc.tile_shape
    S, D = tc.layout_src_tv_tiled, tc.layout_dst_tv_tiled
    kw = dict(max_rows=max_rows, max_cols=max_cols, **opts)
    ps = _panel(S, (M, N), f"source ({M}x{N})", threads, kw)
    pd = _panel(D, (M, N), f"destination ({M}x{N})", threads, kw)
    head = Text(
        f"TiledCopy {tc.copy_atom.name} ({tc.copy_atom.element_bits}b): {tc.size} threads, tile {M}x{N}"
        f"{_who(threads, int(S[0].size()))}",
        size=13,
        weight="bold",
    )
    return render(VStack([head, HStack([ps, pd])], gap=10), title=f"TiledCopy {tc.copy_atom.name}")
