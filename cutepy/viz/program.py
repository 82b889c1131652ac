"""A picture of a compiled program's buffer cut into lanes (NPU partitions), as SVG text.

Each row is a lane, each cell one element of the buffer, labelled with the value
that lands there; colours tell the pieces apart (or the values of one logical
coordinate, e.g. the channel); grey cells are padding. Thin rules mark EU groups,
thick ones a larger group (a channel's block).

>>> from cutepy.program import lmem_program, to_layout
>>> svg = lanes_svg(to_layout(lmem_program(2, 5, 2, 3, npus=4, eus=4)), lanes=4, eus=4, group=8,
...                 color=1)
>>> svg.startswith("<svg") and svg.count("<rect") > 128
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from ..core.errors import CutepyError
from ..core.lazy import load

if TYPE_CHECKING:  # numpy is imported where it is used, so that pictures of layouts need none
    import numpy as np

    from ..program.compiler import CompiledProgram
    from ..program.run import Data
else:  # numpy loads on first use (the module's import needs none)
    np = load("numpy")

#: programs compute with numpy: loaded on first use
_compiler = load("cutepy.program.compiler")
_run = load("cutepy.program.run")

PALETTE = ("#cfe3ff", "#c8f0c8", "#fff5b8", "#ffdbb0", "#ffd1dc", "#e0d4ff", "#c9f2ee", "#f3e0c8",
           "#d9ead3", "#fce5cd")
PAD = "#ececec"


def owners(compiled: CompiledProgram) -> tuple[np.ndarray, np.ndarray]:
    """For each buffer slot, the piece that fills it and the C-order index of the element
    in that piece's logical array (``-1`` for padding).

    >>> from cutepy.program import resize, to_layout, trace
    >>> [o.tolist() for o in owners(to_layout(resize(trace((3,)), (4,))))]
    [[0, 0, 0, -1], [0, 1, 2, -1]]
    """
    piece = np.full(compiled.buffer_size, -1, dtype=np.int64)
    elem = np.full(compiled.buffer_size, -1, dtype=np.int64)
    for k, p in enumerate(compiled.pieces):
        offs = p.offsets().reshape(-1)
        piece[offs] = k
        elem[offs] = np.arange(offs.size)
    return piece, elem


def lanes_svg(compiled: CompiledProgram, lanes: int, *, data: Data | None = None, eus: int | None = None,
              group: int | None = None, color: Any = "piece", color_label: str | None = None,
              title: str | None = None, max_lanes: int = 16, max_cols: int = 64, cell: int = 24) -> str:
    """The buffer as ``lanes`` rows (see the module docstring).

    ``color`` is ``"piece"`` or an axis ``k`` (cells coloured by the element's coordinate
    along logical dim ``k`` of its piece, named ``color_label`` in the legend). Only the
    first ``max_lanes`` lanes and ``max_cols`` columns are drawn; a note says what is
    left out.

    Pre:  ``compiled`` is a ``to_layout`` result; ``lanes`` is a positive integer that divides
          the buffer (else ``CutepyError``); ``color`` is ``"piece"`` or an axis of every piece.
    Post: an SVG document (a ``str`` starting ``<svg``), cell ``(l, j)`` showing buffer slot
          ``l * (size / lanes) + j``.

    >>> from cutepy.program import to_layout, trace
    >>> lanes_svg(to_layout(trace((4, 6)).reshape(4, 2, 3)), 2).startswith("<svg")
    True
    """
    if not isinstance(compiled, _compiler.CompiledProgram):
        raise CutepyError(f"lanes_svg: {type(compiled).__name__} is not a compiled program (use to_layout)")
    for name, v in (("lanes", lanes), ("max_lanes", max_lanes), ("max_cols", max_cols), ("cell", cell)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise CutepyError(f"lanes_svg: {name}={v!r} is not a positive integer")
    size = compiled.buffer_size
    if size % lanes:
        raise CutepyError(f"lanes_svg: {size} buffer elements do not split into {lanes} lanes")
    width = size // lanes
    values = _run.materialize(compiled, data)
    piece, elem = owners(compiled)
    if color == "piece":
        key = piece
        legend = [(PALETTE[k % len(PALETTE)], p.name) for k, p in enumerate(compiled.pieces)]
    else:
        key = np.full(size, -1, dtype=np.int64)
        legend = []
        for k, p in enumerate(compiled.pieces):
            m = piece == k
            if m.any():
                key[m] = np.unravel_index(elem[m], p.logical_shape)[int(color)]
        for v in range(int(key.max()) + 1 if (key >= 0).any() else 0):
            legend.append((PALETTE[v % len(PALETTE)], f"{color_label or f'dim {color}'} = {v}"))
    rows, cols = min(lanes, max_lanes), min(width, max_cols)
    left, top, fs = 64, 30 + (18 if title else 0), cell * 0.42
    out: list[str] = []
    if title:
        out.append(f'<text x="4" y="16" font-size="14" font-weight="bold">{escape(title)}</text>')
    for j in range(0, cols, eus or max(1, cols)):
        out.append(f'<text x="{left + j * cell + 2}" y="{top - 6}" font-size="{fs:.1f}" '
                   f'fill="#666">{j}</text>')
    for r in range(rows):
        y = top + r * cell
        out.append(f'<text x="4" y="{y + cell * 0.68:.1f}" font-size="{fs + 1:.1f}">NPU {r}</text>')
        for j in range(cols):
            s = r * width + j
            x = left + j * cell
            fill = PAD if key[s] < 0 else PALETTE[int(key[s]) % len(PALETTE)]
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                       f'stroke="#bbb" stroke-width="0.5"/>')
            if piece[s] >= 0:
                out.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.66:.1f}" font-size="{fs:.1f}" '
                           f'text-anchor="middle">{escape(str(values[s].item()))}</text>')
    h = rows * cell
    for step, wdt in ((eus, 1.2), (group, 2.6)):
        if step:
            for j in range(step, cols, step):
                x = left + j * cell
                out.append(f'<line x1="{x}" y1="{top}" x2="{x}" y2="{top + h}" stroke="#333" '
                           f'stroke-width="{wdt}"/>')
    out.append(f'<rect x="{left}" y="{top}" width="{cols * cell}" height="{h}" fill="none" '
               f'stroke="#333" stroke-width="1.5"/>')
    y = top + h + 18
    notes = []
    if rows < lanes or cols < width:
        notes.append(f"showing {rows} of {lanes} lanes, {cols} of {width} elements per lane")
    x = left
    for fill, name in legend[:12]:
        out.append(f'<rect x="{x}" y="{y - 11}" width="12" height="12" fill="{fill}" stroke="#999"/>')
        out.append(f'<text x="{x + 16}" y="{y}" font-size="11">{escape(name)}</text>')
        x += 24 + 7 * len(name)
    out.append(f'<rect x="{x}" y="{y - 11}" width="12" height="12" fill="{PAD}" stroke="#999"/>')
    out.append(f'<text x="{x + 16}" y="{y}" font-size="11">padding</text>')
    x += 80
    for i, n in enumerate(notes):
        out.append(f'<text x="{left}" y="{y + 18 * (i + 1)}" font-size="11" fill="#666">{escape(n)}</text>')
    W = max(left + cols * cell, x) + 10
    H = y + 18 * len(notes) + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
            f'viewBox="0 0 {W} {H}" font-family="DejaVu Sans Mono, monospace">'
            + "".join(out) + "</svg>")
