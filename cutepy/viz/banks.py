"""Shared-memory banks in pictures: which bank each element lands in, and how a warp's
instruction is served, phase by phase and wavefront by wavefront.

Shared memory has 32 banks of 4 bytes: the byte address ``a`` lives in bank
``(a // 4) % 32``. The cost of an instruction is counted by :mod:`cutepy.banks` with the
rule measured on H100 (phases per access width, distinct 4-byte words per bank, the load
pairing exception, ldmatrix/stmatrix per matrix); everything here draws that exact count.

- :func:`bank_view_svg`: one or more warp instructions (a :class:`~cutepy.banks.BankReport`
  or the worst instructions of a :class:`~cutepy.banks.TileReport`): per phase a grid of
  banks x wavefronts, each cell the lanes served by that bank in that wavefront.
- :func:`swizzle_bank_svg`: a tile coloured by bank, without and with its swizzle, with the
  exact cost of reading each column (or row) with one element per lane.
- :func:`conflict_ways`: that per-column (per-row) cost as numbers.

>>> from cutepy import Layout, Swizzle, composition
>>> plain = Layout((8, 64), (64, 1))                   # 8 rows of 64 halfs, row-major
>>> int(conflict_ways(plain.offsets(), (8, 64), 2).max())   # a column: 8 rows, one bank
8
>>> sw = composition(Swizzle(3, 3, 3), plain)
>>> int(conflict_ways(sw.offsets(), (8, 64), 2).max())      # the swizzle spreads them
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..algebra.composed import ComposedLayout, composed_parts
from ..core.errors import CutepyError
from ..core.lazy import load
from ..core.swizzle import Swizzle
from .canvas import Canvas, HStack, Panel, Text, VStack, render, text_width
from .colors import EMPTY_COLOR, bank_color, thread_color
from .grid import DEFAULT_LIMIT, MIN_FONT, GridPanel, int_size, make_axis
from .view import as_layout_like, grid_shapes

if TYPE_CHECKING:  # numpy is imported where it is used, so that pictures of layouts need none
    import numpy as np

    from ..banks.tile import TileReport
    from ..banks.warp import BankReport  # lazy, as above
else:  # numpy loads on first use (the module's import needs none)
    np = load("numpy")

#: the bank rule (it computes with numpy): loaded on first use
_tile = load("cutepy.banks.tile")
_warp = load("cutepy.banks.warp")


def banks_of(offsets: np.ndarray, element_bytes: int, banks: int = 32, bank_bytes: int = 4) -> np.ndarray:
    """Bank of the first byte of each element.

    Pre:  ``offsets`` are non-negative element offsets; ``element_bytes``, ``banks`` and
          ``bank_bytes`` positive.
    Post: ``result == (offsets * element_bytes // bank_bytes) % banks``, elementwise.

    >>> import numpy as np
    >>> banks_of(np.array([0, 1, 2, 64]), 2).tolist()
    [0, 0, 1, 0]
    """
    return (np.asarray(offsets, dtype=np.int64) * element_bytes // bank_bytes) % banks


def conflict_ways(offsets: np.ndarray, grid: tuple[int, int], element_bytes: int, access: str = "column",
                  banks: int = 32, bank_bytes: int = 4) -> np.ndarray:
    """For each access (column or row of the ``grid``), its exact cost in the worst phase:
    the number of wavefronts one phase needs (1 means conflict-free).

    An access is one column (``access="column"``: its ``M`` elements) or one row, read by
    consecutive lanes, one ``element_bytes``-wide load per lane (1, 2, 4, 8 or 16 bytes),
    in warps of 32 lanes; its cost is the largest phase cost over those warps, counted by
    :func:`cutepy.banks.analyze` (H100 rule). ``offsets`` are element offsets in
    colexicographic order (``layout.offsets()``); the whole tile may be moved by a multiple
    of 128 bytes so that offsets are non-negative (banks do not change). Only 32 banks of 4
    bytes are measured: other ``banks``/``bank_bytes`` are refused.

    Pre:  ``offsets`` has ``M * N`` entries for ``grid = (M, N)``; ``access`` is ``"column"`` or
          ``"row"``; ``element_bytes`` in 1, 2, 4, 8, 16; 32 banks of 4 bytes (else ``CutepyError``).
    Post: one integer ``>= 1`` per column (or row): the worst phase's wavefronts.

    >>> import numpy as np
    >>> conflict_ways(np.arange(8) * 32, (8, 1), 4).tolist()    # stride 32 words: one bank
    [8]
    >>> conflict_ways(np.arange(8) * 32, (8, 1), 4, access="row").tolist()
    [1, 1, 1, 1, 1, 1, 1, 1]
    >>> conflict_ways(np.arange(32), (32, 1), 8).tolist()      # 8-byte loads: two phases of 16
    [1]
    >>> conflict_ways(np.arange(32) * 2, (32, 1), 8).tolist()  # every other 8 bytes: 2 per bank
    [2]
    """
    BANKS, BANK_BYTES, WARP, WIDTHS = _warp.BANKS, _warp.BANK_BYTES, _warp.WARP, _warp.WIDTHS

    if (banks, bank_bytes) != (BANKS, BANK_BYTES):
        raise CutepyError(f"the measured rule is for {BANKS} banks of {BANK_BYTES} bytes, "
                          f"got {banks} x {bank_bytes}")
    if access not in ("column", "row"):
        raise CutepyError(f"access must be 'column' or 'row', got {access!r}")
    if type(element_bytes) is not int or element_bytes not in WIDTHS:
        raise CutepyError(f"element_bytes must be one of {WIDTHS} (one load per lane), got {element_bytes!r}")
    M, N = grid
    if M * N > _tile.MAX_ELEMENTS:
        raise CutepyError(f"a {M} x {N} grid has more than {_tile.MAX_ELEMENTS} elements")
    table = np.asarray(offsets, dtype=np.int64).reshape(N, M).T  # [m, n]
    groups = table.T if access == "column" else table
    byte = groups * element_bytes
    if byte.size:
        byte = byte - (int(byte.min()) // 128) * 128
    count, length = byte.shape
    warps = -(-length // WARP)
    lanes = np.full((count, warps * WARP), -1, dtype=np.int64)
    lanes[:, :length] = byte
    cost = _warp.phase_costs_batch(lanes.reshape(count * warps, WARP), "ld", element_bytes, None)
    return cost.reshape(count, warps * 4).max(axis=1, initial=0)


def _split(obj: Any, swizzle: Swizzle | None) -> tuple[Any, Any]:
    """(unswizzled, swizzled) pair of layouts to compare; the second may be None."""
    if composed_parts(obj) is not None:
        if swizzle is not None:
            raise CutepyError("pass either a swizzled layout or a swizzle, not both")
        plain = ComposedLayout(Swizzle(0, 0, 0), obj.offset, obj.inner) if obj.offset else obj.inner
        return plain, obj
    if swizzle is not None:
        return obj, ComposedLayout(swizzle, 0, obj)
    return obj, None


def _panel(obj: Any, title: str, element_bytes: int, access: str, banks: int, bank_bytes: int,
           max_rows: int | None, max_cols: int | None) -> GridPanel:
    row_shape, col_shape, grouped = grid_shapes(obj)
    M, N = int_size(row_shape), int_size(col_shape)
    offs = obj.offsets()
    ways = conflict_ways(offs, (M, N), element_bytes, access, banks, bank_bytes)
    rows, cols = make_axis(row_shape, max_rows), make_axis(col_shape, max_cols)
    table = offs.reshape(N, M).T[np.ix_(rows.shown, cols.shown)]
    bank = banks_of(table, element_bytes, banks, bank_bytes)
    labels = [[str(b) for b in row] for row in bank.tolist()]
    fills = [[bank_color(b) for b in row] for row in bank.tolist()]
    worst = int(ways.max()) if ways.size else 0
    verdict = "conflict-free" if worst <= 1 else f"worst {worst}-way conflict"
    caption = [f"cell = bank of the element ({element_bytes} B elements, {banks} banks x {bank_bytes} B)",
               f"{access} accesses: {verdict}",
               f"(one {element_bytes}-byte load per lane; worst phase, H100 rule)"]
    if grouped:
        caption.append("columns: modes 1.. grouped")
    notes = [f"{w}x" for w in ways[cols.shown].tolist()] if access == "column" else None
    return GridPanel(rows, cols, labels, fills, title=title, caption=caption, notes=notes)


def swizzle_bank_svg(
    layout: Any,
    element_bytes: int = 2,
    *,
    swizzle: Swizzle | None = None,
    access: str = "column",
    banks: int = 32,
    bank_bytes: int = 4,
    max_rows: int | None = DEFAULT_LIMIT,
    max_cols: int | None = DEFAULT_LIMIT,
) -> str:
    """A shared-memory tile coloured by bank, without and with its swizzle.

    ``layout`` is a swizzled :class:`~cutepy.ComposedLayout` (its inner layout is the
    "before" picture) or a plain layout, optionally with a ``swizzle`` to apply.
    ``element_bytes`` is the element size; under each column of the tile the wavefronts of
    the worst phase when its elements are read one per lane (:func:`conflict_ways`), in the
    caption the worst one. For real copies (vectors, ldmatrix) draw
    :func:`bank_view_svg` of :func:`cutepy.banks.analyze_layout`.

    Pre:  ``layout`` is a Layout or a swizzled layout, not both that and ``swizzle``; the
          bank parameters as in :func:`conflict_ways` (else ``CutepyError``).
    Post: an SVG document with the tile coloured by bank before and after the swizzle.

    >>> from cutepy import Layout
    >>> svg = swizzle_bank_svg(Layout((8, 64), (64, 1)), 2, swizzle=Swizzle(3, 3, 3))
    >>> "worst 8-way conflict" in svg and "conflict-free" in svg
    True
    """
    obj = as_layout_like(layout)
    if not isinstance(element_bytes, int) or element_bytes < 1:
        raise CutepyError(f"element_bytes must be a positive int, got {element_bytes!r}")
    before, after = _split(obj, swizzle)
    args = (element_bytes, access, banks, bank_bytes, max_rows, max_cols)
    panels = [_panel(before, f"without swizzle: {before}", *args)]
    if after is not None:
        panels.append(_panel(after, f"with swizzle: {after}", *args))
    return render(HStack(panels), title=f"shared-memory banks of {obj}")


# -- one instruction, phase by phase ----------------------------------------------------------

#: Most instructions one bank view draws.
MAX_VIEW_INSTRUCTIONS = 16


class PhasePanel(Panel):
    """One phase: columns = the 32 banks, rows = wavefronts; a cell holds the lanes whose
    word that bank serves in that wavefront (lanes sharing a word are served together)."""

    def __init__(self, report: BankReport, phase: int, font: float = 10):
        BANK_BYTES, BANKS = _warp.BANK_BYTES, _warp.BANKS

        self.cost = report.phase_costs[phase]
        self.title = (f"phase {phase}: lanes {_warp.lane_ranges(self.cost.lanes)}, "
                      f"{self.cost.wavefronts} wavefront{'s' if self.cost.wavefronts != 1 else ''}")
        width = 16 if report.matrices else report.width
        served: dict[int, dict[int, list[int]]] = {}          # bank -> word -> lanes
        for t in self.cost.lanes:
            a = report.addresses[t]
            first = a // BANK_BYTES
            for w in range(first, first + max(1, width // BANK_BYTES)):
                served.setdefault(w % BANKS, {}).setdefault(w, []).append(t)
        self.cells = {b: [lanes for _, lanes in sorted(words.items())] for b, words in served.items()}
        self.font = font
        self.cw, self.ch = max(24.0, text_width("00+0", font) + 6), font * 1.9
        self.head = font * 1.6
        self.width = 58 + BANKS * self.cw
        self.height = self.head * 2 + self.cost.wavefronts * self.ch

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        # rectangles first, then lines and text: the canvas groups by style, and a later
        # group of filled rectangles would hide earlier text
        BANKS = _warp.BANKS

        f = self.font
        x0, y0 = x + 58, y + self.head * 2
        labels, edges = [], []
        for k in range(self.cost.wavefronts):
            cy = y0 + k * self.ch
            for b in range(BANKS):
                words = self.cells.get(b, [])
                cx = x0 + b * self.cw
                if k >= len(words):
                    canvas.rect(cx, cy, self.cw, self.ch, EMPTY_COLOR)
                    continue
                lanes = words[k]
                canvas.rect(cx, cy, self.cw, self.ch, bank_color(b) if len(words) == 1 else
                            thread_color(lanes[0] // 8 * 3))
                labels.append((cx + self.cw / 2, cy + self.ch / 2,
                               str(lanes[0]) if len(lanes) == 1 else f"{lanes[0]}+{len(lanes) - 1}"))
                if b == self.cost.bank and len(words) > 1:
                    edges.append((cx, cy))
        for cx, cy in edges:
            w, h = self.cw, self.ch
            for x1, y1, x2, y2 in ((cx, cy, cx + w, cy), (cx, cy + h, cx + w, cy + h),
                                   (cx, cy, cx, cy + h), (cx + w, cy, cx + w, cy + h)):
                canvas.line(x1, y1, x2, y2, "#c00000", 1.6)
        canvas.text(x, y + self.head / 2, self.title, f, "start", weight="bold")
        small = max(f * 0.85, MIN_FONT)
        for b in range(BANKS):
            canvas.text(x0 + (b + 0.5) * self.cw, y0 - self.head / 2, str(b), small, color="#555555")
        for k in range(self.cost.wavefronts):
            canvas.text(x, y0 + (k + 0.5) * self.ch, f"wave {k}", small, "start", color="#555555")
        for cx, cy, s in labels:
            canvas.text(cx, cy, s, f)


def _instruction_panels(report: BankReport, title: str) -> list[Panel]:

    out: list[Panel] = [Text(title, 12, weight="bold")]
    out += [PhasePanel(report, p) for p in range(report.phases)]
    worst = max(report.phase_costs, key=lambda p: p.wavefronts, default=None)
    if worst is not None and worst.wavefronts > 1:
        out.append(Text(f"worst: bank {worst.bank} serves {worst.wavefronts} words to lanes "
                        f"{_warp.lane_ranges(worst.bank_lanes)} (one wavefront each)", 11, "#c00000"))
    return out


def bank_view_svg(report: BankReport | TileReport, *, max_instructions: int = 2, which: str = "worst") -> str:
    """The banks serving one warp instruction, phase by phase and wavefront by wavefront.

    For a :class:`~cutepy.banks.BankReport` the instruction itself; for a
    :class:`~cutepy.banks.TileReport` the ``max_instructions`` (at most
    ``MAX_VIEW_INSTRUCTIONS``) instructions with the most bank conflicts
    (``which="worst"``) or the first ones (``"first"``). In each phase, columns are banks
    and row ``k`` is wavefront ``k``: a cell names the lane whose word the bank serves then
    (``5+3``: lane 5 and 3 more lanes reading the same word); a bank with several words
    (red border on the worst) needs one wavefront per word. Cells are coloured by bank when
    the bank has one word, by lane group when it has several.

    Pre:  ``report`` comes from :func:`cutepy.banks.analyze` or :func:`cutepy.banks.analyze_layout`;
          ``which`` is ``"worst"`` or ``"first"`` (else ``CutepyError``).
    Post: one SVG naming each phase's wavefronts and the worst bank.

    >>> from cutepy.banks import analyze
    >>> svg = bank_view_svg(analyze([128 * (t % 4) + 4 * (t // 4) for t in range(32)], "ld", bytes=4))
    >>> "4 wavefronts" in svg and "worst: bank 0 serves 4 words to lanes 0-3" in svg
    True
    """
    # lazy: the bank rule computes with numpy
    if which not in ("worst", "first"):
        raise CutepyError(f"which must be 'worst' or 'first', got {which!r}")
    if type(max_instructions) is not int or not 1 <= max_instructions <= MAX_VIEW_INSTRUCTIONS:
        raise CutepyError(f"max_instructions must be an int in 1..{MAX_VIEW_INSTRUCTIONS}, "
                          f"got {max_instructions!r}")
    if isinstance(report, _warp.BankReport):
        panels = _instruction_panels(report, report.summary())
        return render(VStack(panels, gap=8), title=report.summary())
    if not isinstance(report, _tile.TileReport):
        raise CutepyError(f"bank_view_svg draws a BankReport or a TileReport, got {report!r}")
    chosen = list(report.instructions)
    if which == "worst":
        chosen.sort(key=lambda i: -i.report.bank_conflicts)
    chosen = chosen[:max_instructions]
    panels: list[Panel] = [Text(report.what, 12), Text(report.summary(), 12, weight="bold")]
    if len(chosen) < len(report.instructions):
        panels.append(Text(f"showing {len(chosen)} of {len(report.instructions)} instructions ({which})", 11,
                           "#555555"))
    for i in chosen:
        panels += _instruction_panels(i.report, f"tile {i.tile}, warp {i.warp}, vector {i.vector}: "
                                                f"{i.report.summary()}")
    return render(VStack(panels, gap=8), title=report.summary())
