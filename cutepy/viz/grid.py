"""The grid panel: labelled, coloured cells with hierarchical borders and elision.

An :class:`Axis` is one direction of a grid: its extent, the hierarchical shape that
turns an index into a natural coordinate (so nested modes get thicker borders and
coordinate labels), and which indices are shown. Beyond ``limit`` indices an axis
keeps its first and last ones and marks the gap (``...`` lanes in the picture).

>>> ax = make_axis(((2, 2), 3), limit=8)
>>> ax.size, ax.shown, ax.gap
(12, [0, 1, 2, 3, 8, 9, 10, 11], 4)
>>> boundary_levels(ax)     # before shown[1:]: 1 = every 2, 2 = every 4
[0, 1, 0, 0, 0, 1, 0]
>>> coordinate_label(ax, 9)
'((1,0),2)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import CutepyError
from ..core.inttuple import flatten_tuple as flatten
from ..core.inttuple import format_tuple, idx2crd, product
from ..core.layout import MAX_LEAF
from ..core.limits import max_elements
from .canvas import Canvas, Panel, text_width

#: Default number of indices shown per axis before eliding.
DEFAULT_LIMIT = 64


_fmt = format_tuple


def int_size(shape: Any, what: str = "shape") -> int:
    """``product(shape)`` as a Python int; symbolic shapes raise a :class:`CutepyError`."""
    n = product(shape)
    if type(n) is not int:
        try:
            n = int(n)
        except TypeError:
            raise CutepyError(
                f"cannot draw a {what} of symbolic size {n}; substitute numbers for the symbols first"
            ) from None
    if n > MAX_LEAF:  # C++ indexes a layout with 64-bit integers; so does every picture
        raise CutepyError(f"cannot draw a {what} of {n} cells ({n.bit_length()} bits): a picture's indices "
                          "are 64-bit integers, as a layout's are in C++ CuTe")
    return n


def check_grid(rows: Axis, cols: Axis) -> None:
    """Refuse a grid whose cells' 1-D (colexicographic) indices ``m + M*n`` pass 64 bits: a
    layout is indexed with 64-bit integers in C++ CuTe, and so is every picture."""
    if rows.size * cols.size - 1 > MAX_LEAF:
        raise CutepyError(f"cannot draw a {rows.size}x{cols.size} grid: its 1-D indices pass the 64-bit "
                          "integers a layout is indexed with in C++ CuTe")


def check_cells(n: int, what: str) -> None:
    """Refuse, before allocating, a per-cell array of ``n`` entries above the element limit
    (:func:`cutepy.limits`, the limit ``offsets()`` uses)."""
    limit = max_elements()
    if n > limit:
        raise CutepyError(f"{what} needs {n} cells, above the element limit of {limit}; raise it with "
                          "cutepy.limits(max_elements=...) or draw a slice of the layout")


@dataclass(frozen=True)
class Axis:
    """One direction of a grid; ``gap`` is the position in ``shown`` after the elision.

    ``label`` names index ``i`` in the header (default ``str(i)``); ``coords`` adds the
    natural coordinate under it when the shape is nested.
    """

    shape: Any
    size: int
    shown: list[int]
    gap: int | None
    label: Callable[[int], str] | None = None
    coords: bool = True

    def name(self, i: int) -> str:
        """Header text of index ``i``."""
        return self.label(int(i)) if self.label is not None else str(int(i))


def make_axis(shape: Any, limit: int | None = DEFAULT_LIMIT, label: Callable[[int], str] | None = None,
              coords: bool = True) -> Axis:
    """An axis over ``shape``, keeping at most ``limit`` indices (``None``: all)."""
    size = int_size(shape)
    if limit is None or size <= limit:
        check_cells(size, "an axis shown whole")
        return Axis(shape, size, list(range(size)), None, label, coords)
    if limit < 2:
        raise CutepyError(f"an elided axis shows at least 2 indices, got limit {limit}")
    head = (limit + 1) // 2
    tail = limit - head
    shown = [*range(head), *range(size - tail, size)]
    return Axis(shape, size, shown, head, label, coords)


def _prefixes(shape: Any) -> list[int]:
    leaves = [int(x) for x in flatten(shape)] if isinstance(shape, tuple) else [int(shape)]
    out, acc = [], 1
    for s in leaves[:-1]:
        acc *= s
        if 1 < acc:
            out.append(acc)
    return sorted(set(out))


def boundary_levels(axis: Axis) -> list[int]:
    """For each shown index after the first: how many leaf modes roll over there.

    0 where the previous shown index is not its neighbour (a gap) or nothing rolls over.
    """
    s = axis.shown
    prefixes = _prefixes(axis.shape)
    return [sum(cur % p == 0 for p in prefixes) if cur - prev == 1 else 0 for prev, cur in zip(s, s[1:])]


def is_nested(shape: Any) -> bool:
    """True when the shape has more than one leaf (its coordinates are worth printing)."""
    return isinstance(shape, tuple) and len(flatten(shape)) > 1


def coordinate_label(axis: Axis, i: int) -> str:
    """The natural coordinate of index ``i`` along the axis, in CuTe notation."""
    return _fmt(idx2crd(int(i), axis.shape))


_LEVEL_WIDTH = (0.0, 1.3, 2.0, 2.6, 3.0)

#: The smallest text a grid draws (px at its natural size): headers and coordinate labels
#: stay readable, and a picture may only shrink as far as its smallest text stays 9 px.
MIN_FONT = 9.0


class GridPanel(Panel):
    """A grid of cells: ``labels[r][c]`` (``\\n`` for two lines) over ``fills[r][c]``.

    ``group`` (same shape, integers) draws a thick border wherever neighbours differ,
    which is how tiles show; ``notes`` puts one short text under each shown column;
    ``hover`` (same shape, text) is what a browser shows over each cell of an inline SVG.
    """

    def __init__(
        self,
        rows: Axis,
        cols: Axis,
        labels: Sequence[Sequence[str]],
        fills: Sequence[Sequence[str]],
        *,
        title: str | None = None,
        caption: Sequence[str] = (),
        group: Any = None,
        label_colors: Sequence[Sequence[str]] | None = None,
        notes: Sequence[str] | None = None,
        row_headers: bool = True,
        font: float = 11,
        min_cell: float = 24,
        hover: Sequence[Sequence[str]] | None = None,
    ):
        self.hover = hover
        self.rows, self.cols = rows, cols
        self.labels, self.fills, self.group = labels, fills, group
        self.label_colors, self.notes = label_colors, notes
        self.title, self.caption, self.font = title, list(caption), font
        self.row_headers = row_headers
        lines = max((len(lab.split("\n")) for row in labels for lab in row), default=1)
        longest = max((len(part) for row in labels for lab in row for part in lab.split("\n")), default=1)
        self.hs = max(font * 0.85, MIN_FONT)  # header font size
        self.ss = max(self.hs * 0.85, MIN_FONT)  # natural-coordinate labels under the headers
        heads = [text_width(cols.name(i), self.hs) for i in cols.shown]
        if cols.coords and is_nested(cols.shape):
            heads += [text_width(coordinate_label(cols, i), self.ss) for i in cols.shown]
        self.cw = max(min_cell, text_width("x" * longest, font) + 8, max(heads, default=0.0) + 4)
        self.ch = font * (1.9 if lines == 1 else 1.2 * lines + 0.8)
        self.col_gap = self.cw * 0.8 if cols.gap is not None else 0.0
        self.row_gap = self.ch * 0.8 if rows.gap is not None else 0.0
        self.col_sub = cols.coords and is_nested(cols.shape)
        self.row_sub = rows.coords and is_nested(rows.shape)
        # geometry
        self.top = (self.font * 1.7 if title else 0.0) + self.hs * 1.5 * (2 if self.col_sub else 1)
        if row_headers:
            idx_w = max((text_width(rows.name(i), self.hs) for i in rows.shown), default=0.0)
            sub_w = 0.0
            if self.row_sub:
                sub_w = max(text_width(coordinate_label(rows, i), self.hs) for i in rows.shown) + 6
            self.left = idx_w + sub_w + 8
        else:
            self.left = 4.0
        self.grid_w = len(cols.shown) * self.cw + self.col_gap
        self.grid_h = len(rows.shown) * self.ch + self.row_gap
        below = (self.hs * 1.6 if notes is not None else 0.0) + len(self.caption) * self.font * 1.4
        self.width = max(
            self.left + self.grid_w + 4,
            max((text_width(c, self.font) for c in self.caption), default=0.0) + 4,
            text_width(title or "", self.font * 1.1) + 4,
        )
        self.height = self.top + self.grid_h + below + 4

    def _xs(self, x0: float) -> list[float]:
        gap = self.cols.gap
        return [x0 + float(k) * self.cw + (self.col_gap if gap is not None and k >= gap else 0.0)
                for k in range(len(self.cols.shown) + 1)]

    def _ys(self, y0: float) -> list[float]:
        gap = self.rows.gap
        return [y0 + float(k) * self.ch + (self.row_gap if gap is not None and k >= gap else 0.0)
                for k in range(len(self.rows.shown) + 1)]

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        fs, hs = self.font, self.hs
        if self.title:
            canvas.text(x + 2, y + fs * 0.8, self.title, fs * 1.1, "start", weight="bold")
        gx, gy = x + self.left, y + self.top
        xs, ys = self._xs(gx), self._ys(gy)
        nr, nc = len(self.rows.shown), len(self.cols.shown)
        # cells and their labels
        for r in range(nr):
            for c in range(nc):
                canvas.rect(xs[c], ys[r], self.cw, self.ch, self.fills[r][c])
                lab = self.labels[r][c]
                if lab:
                    color = self.label_colors[r][c] if self.label_colors is not None else "#111111"
                    parts = lab.split("\n")
                    step = fs * 1.2
                    first = ys[r] + self.ch / 2 - step * (len(parts) - 1) / 2
                    for k, part in enumerate(parts):
                        canvas.text(xs[c] + self.cw / 2, first + k * step, part, fs, color=color)
        self._draw_elision(canvas, xs, ys)
        self._draw_levels(canvas, xs, ys)
        self._draw_groups(canvas, xs, ys)
        # frame
        canvas.rect(gx, gy, self.grid_w, self.grid_h, None, stroke="#000000", width=1.5)
        self._draw_headers(canvas, x, y, xs, ys)
        below = gy + self.grid_h
        if self.notes is not None:
            for c in range(nc):
                canvas.text(xs[c] + self.cw / 2, below + hs * 0.9, self.notes[c], hs, color="#333333")
            below += hs * 1.6
        for k, line in enumerate(self.caption):
            canvas.text(x + 2, below + fs * (0.8 + 1.4 * k), line, fs, "start", color="#333333")
        if self.hover is not None:  # last, so that the hover areas lie on top
            for r in range(nr):
                for c in range(nc):
                    canvas.hover(xs[c], ys[r], self.cw, self.ch, self.hover[r][c])

    def _draw_elision(self, canvas: Canvas, xs: list[float], ys: list[float]) -> None:
        nr, nc = len(self.rows.shown), len(self.cols.shown)
        if self.cols.gap is not None:
            g = self.cols.gap
            x0 = xs[g] - self.col_gap
            canvas.rect(x0, ys[0], self.col_gap, self.grid_h, "#f3f3f3", stroke="#f3f3f3")
            for r in range(nr):
                canvas.text(x0 + self.col_gap / 2, ys[r] + self.ch / 2, "\u22ef", self.font, color="#555555")
        if self.rows.gap is not None:
            g = self.rows.gap
            y0 = ys[g] - self.row_gap
            canvas.rect(xs[0], y0, self.grid_w, self.row_gap, "#f3f3f3", stroke="#f3f3f3")
            for c in range(nc):
                canvas.text(xs[c] + self.cw / 2, y0 + self.row_gap / 2, ":", self.font * 1.2, color="#555555",
                            weight="bold")

    def _draw_levels(self, canvas: Canvas, xs: list[float], ys: list[float]) -> None:
        top, bottom, left, right = ys[0], ys[-1], xs[0], xs[-1]
        for k, lv in enumerate(boundary_levels(self.cols), start=1):
            if lv:
                canvas.line(xs[k], top, xs[k], bottom, "#333333", _LEVEL_WIDTH[min(lv, 4)])
        for k, lv in enumerate(boundary_levels(self.rows), start=1):
            if lv:
                canvas.line(left, ys[k], right, ys[k], "#333333", _LEVEL_WIDTH[min(lv, 4)])

    def _draw_groups(self, canvas: Canvas, xs: list[float], ys: list[float]) -> None:
        g = self.group
        if g is None:
            return
        g = g.tolist() if hasattr(g, "tolist") else [list(row) for row in g]  # numpy arrays or lists
        nr, nc = len(g), len(g[0]) if g else 0
        for c in range(1, nc):  # vertical segments between columns c-1 and c
            if self.cols.gap == c:
                continue
            mask = [g[r][c - 1] != g[r][c] for r in range(nr)]
            _runs(canvas, mask, ys, self.ch, lambda a, b, c=c: (xs[c], a, xs[c], b))
        for r in range(1, nr):
            if self.rows.gap == r:
                continue
            mask = [g[r - 1][c] != g[r][c] for c in range(nc)]
            _runs(canvas, mask, xs, self.cw, lambda a, b, r=r: (a, ys[r], b, ys[r]))

    def _draw_headers(self, canvas: Canvas, x: float, y: float, xs: list[float], ys: list[float]) -> None:
        hs = self.hs
        base = y + self.top - hs * 0.8
        for c, i in enumerate(self.cols.shown):
            cx = xs[c] + self.cw / 2
            if self.col_sub:
                canvas.text(cx, base - hs * 1.3, self.cols.name(i), hs, color="#555555")
                canvas.text(cx, base, coordinate_label(self.cols, i), self.ss, color="#7a7a7a")
            else:
                canvas.text(cx, base, self.cols.name(i), hs, color="#555555")
        if not self.row_headers:
            return
        right = x + self.left - 4
        subs = [coordinate_label(self.rows, i) for i in self.rows.shown] if self.row_sub else []
        sub_w = max((text_width(s, hs) for s in subs), default=0.0) + 6
        for r, i in enumerate(self.rows.shown):
            cy = ys[r] + self.ch / 2
            if self.row_sub:
                canvas.text(right, cy, subs[r], self.ss, "end", color="#7a7a7a")
                canvas.text(right - sub_w, cy, self.rows.name(i), hs, "end", color="#555555")
            else:
                canvas.text(right, cy, self.rows.name(i), hs, "end", color="#555555")


def _runs(canvas: Canvas, mask: Sequence[bool], pos: Sequence[float], cell: float,
          seg: Callable[[float, float], tuple[float, float, float, float]]) -> None:
    """One thick line per run of True in ``mask``; cell ``k`` spans ``pos[k]..pos[k]+cell``.

    A run stops at an elision gap (where ``pos`` jumps by more than a cell).
    """
    k, n = 0, len(mask)
    while k < n:
        if not mask[k]:
            k += 1
            continue
        j = k
        while j + 1 < n and mask[j + 1] and abs(pos[j + 1] - pos[j] - cell) < 1e-6:
            j += 1
        x1, y1, x2, y2 = seg(pos[k], pos[j] + cell)
        canvas.line(x1, y1, x2, y2, "#000000", 2.4)
        k = j + 1
