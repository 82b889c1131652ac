"""A Triton linear layout drawn as its bit matrix, beside the CuTe picture of the same function.

The left panel is the F2 matrix: one column per input bit (grouped by input dimension:
``register``, ``lane``, ``warp``, ``block`` or ``offset``, ``block``), one row per output bit
(grouped by output dimension, ``dim0`` bit 0 at the top); a filled cell is a 1. The right
panel is :func:`cutepy.linear.to_cute` of the layout: the TV layout over the tile
(distributed; cells labelled ``T#`` / ``V#``) or the coordinate -> offset grid (shared); when
CuTe cannot express the function, the reason instead.

>>> from cutepy.linear import from_gluon
>>> L = from_gluon({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 4,
...                 "order": [1, 0]}, [4, 4])
>>> svg = linear_layout_svg(L)
>>> svg.startswith("<svg") and "offset" in svg and "Sw&lt;2,0,2&gt;" in svg
True
"""

from __future__ import annotations

from ..core.errors import CutepyError
from ..linear import LinearLayout, to_cute
from .canvas import Canvas, HStack, Panel, Text, VStack, render, text_width
from .layouts import layout_panel, tv_layout_panel

#: colours of the input dimensions' columns (set bits) in the bit matrix
DIM_COLORS = {
    "register": "#4e79a7",
    "lane": "#59a14f",
    "warp": "#f28e2b",
    "block": "#b07aa1",
    "offset": "#4e79a7",
}
CELL = 14.0


class BitMatrixPanel(Panel):
    """The F2 matrix of a linear layout: inputs across, outputs down."""

    def __init__(self, L: LinearLayout):
        self.cols = [(d, i) for d, bs in L.bases.items() for i in range(len(bs))]
        self.rows = [(o, j) for o, s in L.out_dims.items() for j in range(s.bit_length() - 1)]
        self.bits = [
            [(L.bases[d][i][list(L.out_dims).index(o)] >> j) & 1 for (d, i) in self.cols]
            for (o, j) in self.rows
        ]
        self.label_w = max([text_width(f"{o}[{j}]", 9) for o, j in self.rows] + [30]) + 6
        self.head_h = 30.0
        self.width = self.label_w + CELL * max(1, len(self.cols)) + 4
        self.height = self.head_h + CELL * max(1, len(self.rows)) + 4

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        x0, y0 = x + self.label_w, y + self.head_h
        # input-dimension headers and bit numbers
        start = 0
        while start < len(self.cols):
            d = self.cols[start][0]
            end = start
            while end < len(self.cols) and self.cols[end][0] == d:
                end += 1
            cx = x0 + CELL * (start + end) / 2
            canvas.text(cx, y + 7, d, size=9, color=DIM_COLORS.get(d, "#333333"), weight="bold")
            for k in range(start, end):
                canvas.text(x0 + CELL * (k + 0.5), y + 20, str(self.cols[k][1]), size=9, color="#555555")
            canvas.line(x0 + CELL * start, y0, x0 + CELL * start, y0 + CELL * len(self.rows), color="#333333")
            start = end
        for r, (o, j) in enumerate(self.rows):
            canvas.text(x0 - 4, y0 + CELL * (r + 0.5), f"{o}[{j}]", size=9, anchor="end")
            for k, (d, _) in enumerate(self.cols):
                fill = DIM_COLORS.get(d, "#333333") if self.bits[r][k] else "#ffffff"
                canvas.rect(x0 + CELL * k, y0 + CELL * r, CELL, CELL, fill=fill)
        if not self.rows or not self.cols:
            canvas.text(x0 + 2, y0 + CELL / 2, "(no bits)", size=9, anchor="start")


def _cute_panel(L: LinearLayout, max_rows: int | None, max_cols: int | None) -> Panel:
    try:
        T = to_cute(L)
    except CutepyError as e:
        return VStack(
            [Text("CuTe cannot express this layout:", size=11, weight="bold"), Text(str(e), size=9)]
        )
    shape = list(L.out_dims.values())
    if "offset" in L.in_dims:
        return layout_panel(T, max_rows=max_rows, max_cols=max_cols, title=f"CuTe: {T}")
    m = shape[0]
    n = 1
    for s in shape[1:]:
        n *= s
    return tv_layout_panel(T, (m, n), max_rows=max_rows, max_cols=max_cols, title=f"CuTe TV layout: {T}")


def linear_layout_svg(L: LinearLayout, *, max_rows: int | None = 32, max_cols: int | None = 32) -> str:
    """The bit matrix of ``L``'s bases beside the CuTe picture of the same layout, as SVG text.

    Pre: ``L`` a LinearLayout (distributed: ``register, lane, warp, block``; shared:
    ``offset, block``; outputs ``dim0, ...``). The CuTe panel elides beyond ``max_rows`` x
    ``max_cols`` cells.
    Post: an SVG document; its bit matrix has a filled cell for each set bit of each basis.

    >>> L = LinearLayout({"register": [[1]], "lane": [[2]], "warp": [], "block": []}, [("dim0", 4)])
    >>> svg = linear_layout_svg(L)
    >>> ">register<" in svg, ">dim0[1]<" in svg, "T1" in svg
    (True, True, True)
    """
    if not isinstance(L, LinearLayout):
        raise CutepyError(f"linear_layout_svg: expected a LinearLayout, got {type(L).__name__}")
    bits = BitMatrixPanel(L)
    left = VStack([Text("Triton linear layout (bases as bits)", size=11, weight="bold"), bits])
    right = _cute_panel(L, max_rows, max_cols)
    return render(HStack([left, right], gap=28), title=f"linear layout -> {list(L.out_dims)}")
