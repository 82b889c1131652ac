"""SVG pictures of layouts: offsets on a grid, thread-value tiles, divides and products.

Each ``*_svg`` function returns the SVG text; the matching ``*_panel`` function
returns the :class:`~cutepy.viz.grid.GridPanel` (or stack) so pictures compose.
Grids beyond ``max_rows`` x ``max_cols`` cells keep their first and last rows and
columns and mark the elided band.

>>> from cutepy import Layout
>>> svg = layout_svg(Layout(((2, 2), 3), ((24, 2), 8)))
>>> ">42<" in svg and "((2,2),3):((24,2),8)" in svg
True
>>> svg = tv_layout_svg(Layout((4, 2), (2, 1)), (2, 4))
>>> ">T3<" in svg and ">V1<" in svg
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..algebra.complement import complement
from ..algebra.composed import ComposedLayout, is_layout
from ..algebra.divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from ..algebra.products import blocked_product, logical_product, raked_product
from ..core.errors import CutepyError
from ..core.inttuple import crd2idx
from ..core.layout import Layout, append, make_layout
from ..core.lazy import load
from ..core.swizzle import Swizzle
from .canvas import HStack, Panel, Text, VStack, render
from .colors import BW_COLORS, EMPTY_COLOR, OTHER_COLOR, bank_color, offset_color, thread_color, tile_color
from .grid import (
    DEFAULT_LIMIT,
    Axis,
    GridPanel,
    check_cells,
    check_grid,
    coordinate_label,
    int_size,
    make_axis,
)
from .view import as_layout_like, fmt, grid_shapes, plain_value, values_at

np = load("numpy")  # numpy loads on first use (the module's import needs none)

#: ``color`` may be one of these names or a function ``(m, n, value) -> CSS colour``.
COLOR_SCHEMES = ("offset", "bank", "tile", "bw", "none")

ColorSpec = str | Callable[[int, int, Any], str]


def _cells(rows: Axis, cols: Axis) -> list[list[int]]:
    """1-D (colexicographic) indices of the shown cells, row by row (64-bit integers, as C++'s)."""
    check_grid(rows, cols)
    return [[m + rows.size * n for n in cols.shown] for m in rows.shown]


def _cell_array(rows: Axis, cols: Axis) -> Any:
    """:func:`_cells` as an int64 array (for the pictures that compute with numpy)."""
    return np.asarray(_cells(rows, cols), dtype=np.int64).reshape(len(rows.shown), len(cols.shown))


def _auto_tile(shape: Any) -> int:
    """Tile extent along an axis: the size of its first top-level sub-mode, if nested."""
    if isinstance(shape, tuple) and len(shape) >= 2:
        return int_size(shape[0])
    return int_size(shape)


def _tile_ids(rows: Axis, cols: Axis, tile: Any) -> list[list[int]]:
    tm, tn = (_auto_tile(rows.shape), _auto_tile(cols.shape)) if tile in (None, "auto") else tile
    if not (isinstance(tm, int) and isinstance(tn, int) and tm > 0 and tn > 0):
        raise CutepyError(f"tile must be (rows, columns) positive ints or 'auto', got {tile!r}")
    per_col = -(-rows.size // tm)
    return [[m // tm + per_col * (n // tn) for n in cols.shown] for m in rows.shown]


def _fills(values: list[list[Any]], rows: Axis, cols: Axis, color: ColorSpec,
           groups: list[list[int]] | None, element_bytes: int = 2) -> list[list[str]]:
    nr, nc = len(rows.shown), len(cols.shown)
    if callable(color):
        return [[color(rows.shown[r], cols.shown[c], values[r][c]) for c in range(nc)] for r in range(nr)]
    if color == "none":
        return [[EMPTY_COLOR] * nc for _ in range(nr)]
    if color == "tile":
        assert groups is not None
        return [[tile_color(g) for g in row] for row in groups]
    if not all(type(v) is int for row in values for v in row):  # coordinates: no numeric colour
        return [[EMPTY_COLOR] * nc for _ in range(nr)]
    if color == "bw":
        return [[BW_COLORS[v % 8] for v in row] for row in values]
    if color == "bank":  # the shared-memory bank of the element's first byte (32 banks of 4 B)
        return [[bank_color(v * element_bytes // 4 % 32) for v in row] for row in values]
    if color == "offset":
        flat = [v for row in values for v in row]
        lo, hi = (min(flat), max(flat)) if flat else (0, 0)
        span = max(hi - lo, 1)
        return [[offset_color((v - lo) / span) for v in row] for row in values]
    raise CutepyError(f"unknown color {color!r}; use one of {COLOR_SCHEMES} or a function (m, n, value)")


def _elision_note(rows: Axis, cols: Axis) -> list[str]:
    parts = []
    if rows.gap is not None:
        parts.append(f"{len(rows.shown)} of {rows.size} rows")
    if cols.gap is not None:
        parts.append(f"{len(cols.shown)} of {cols.size} columns")
    return [f"showing {' and '.join(parts)}"] if parts else []


def layout_panel(
    layout: Any,
    *,
    color: ColorSpec = "offset",
    tile: Any = None,
    max_rows: int | None = DEFAULT_LIMIT,
    max_cols: int | None = DEFAULT_LIMIT,
    title: str | None = None,
    caption: tuple[str, ...] = (),
    offset: int = 0,
    element: Any = None,
    element_bytes: int = 2,
    hover: bool = False,
) -> GridPanel:
    """The grid panel of :func:`layout_svg` (same arguments; ``offset`` and ``element`` label
    cell ``(m, n)`` with ``element(offset + L(m, n))``, as a tensor's picture does)."""
    obj = as_layout_like(layout)
    row_shape, col_shape, grouped = grid_shapes(obj)
    rows, cols = make_axis(row_shape, max_rows), make_axis(col_shape, max_cols)
    values = values_at(obj, _cells(rows, cols))
    groups = _tile_ids(rows, cols, tile) if (tile is not None or color == "tile") else None
    def label(v: Any) -> str:
        v = v if offset == 0 else v + offset
        return fmt(v if element is None else element(v))

    labels = [[label(v) for v in row] for row in values]
    notes = list(caption)
    if grouped:
        notes.append(f"rows: mode 0; columns: modes 1..{len(obj.shape) - 1} grouped")
    notes += _elision_note(rows, cols)
    tips = _layout_tips(rows, cols, values, element_bytes) if hover else None
    return GridPanel(
        rows, cols, labels, _fills(values, rows, cols, color, groups, element_bytes),
        title=str(obj) if title is None else title, caption=notes, group=groups, hover=tips,
    )


def _layout_tips(rows: Axis, cols: Axis, values: list[list[Any]], element_bytes: int) -> list[list[str]]:
    """What hovering cell ``(m, n)`` says: its coordinate, index, offset and bank."""
    out = []
    for r, m in enumerate(rows.shown):
        row = []
        for c, n in enumerate(cols.shown):
            v = values[r][c]
            coord = f"({coordinate_label(rows, m)},{coordinate_label(cols, n)})"
            tip = f"cell ({m},{n})  coord {coord}  index {m + rows.size * n}  offset {fmt(v)}"
            if type(v) is int and v >= 0:
                tip += f"  bank {v * element_bytes // 4 % 32} ({element_bytes} B elements)"
            row.append(tip)
        out.append(row)
    return out


def layout_svg(layout: Any, **opts: Any) -> str:
    """A layout drawn as a 2-D grid: cell ``(m, n)`` holds ``L(m, n)``.

    Mode 0 runs down, mode 1 across (a rank-1 layout is one row; from rank 3 on,
    modes 1.. are grouped as columns). Nested modes get thicker borders where their
    sub-modes roll over and their natural coordinates in the headers.

    Options: ``color`` (``"offset"`` ramp, ``"bank"`` the shared-memory bank of each
    element of ``element_bytes`` bytes (default 2), ``"tile"``, ``"bw"`` CuTe's eight greys,
    ``"none"``, or a function ``(m, n, value) -> CSS colour``); ``tile`` (``(rows,
    cols)`` or ``"auto"``: thick borders around tiles; auto takes the first sub-mode of
    each nested mode, the tile of a ``logical_divide`` result); ``max_rows`` /
    ``max_cols`` (elide beyond, ``None`` for no limit); ``title``; ``caption``; ``hover``
    (``True``: each cell carries a ``<title>`` with its coordinate, index, offset and bank
    of ``element_bytes``-byte elements, which a browser shows over an inline SVG).

    Pre:  ``layout`` is a Layout or composed layout (text is parsed; bad text raises
          ``ParseError``); the options as above (else ``CutepyError``).
    Post: an SVG document (``str`` starting ``<svg``) whose cell ``(m, n)`` shows ``layout(m, n)``.

    >>> svg = layout_svg(Layout((2, 3), (3, 1)), color="bw", title="row-major")
    >>> "row-major" in svg and 'fill="#999999"' in svg
    True
    """
    return render(layout_panel(layout, **opts), title=str(as_layout_like(layout)))


# -- thread-value layouts ---------------------------------------------------------


def _tile_shape(tile_mn: Any) -> tuple[Any, Any]:
    if isinstance(tile_mn, Layout):
        tile_mn = tile_mn.shape
    if isinstance(tile_mn, tuple) and len(tile_mn) == 2:
        return tile_mn[0], tile_mn[1]
    if isinstance(tile_mn, (int, tuple)):
        return 1, tile_mn
    raise CutepyError(f"tile_mn must be an (M, N) shape, got {tile_mn!r}")


def selected_threads(threads: Any, T: int) -> list[int] | None:
    """The threads a picture draws: ``None`` (every thread), or ``threads`` (an int or ints,
    each a thread index ``0 <= t < T``) sorted without repeats.

    >>> selected_threads([37, 0, 37], 128), selected_threads(5, 8), selected_threads(None, 8)
    ([0, 37], [5], None)
    """
    if threads is None:
        return None
    items = [threads] if type(threads) is int else threads
    try:
        items = list(items)
    except TypeError:
        raise CutepyError(f"threads is a thread index or a list of them, not {threads!r}") from None
    if not items:
        raise CutepyError("threads names at least one thread (None draws them all)")
    for t in items:
        if type(t) is not int or not 0 <= t < T:
            raise CutepyError(f"thread {t!r} is not a thread index 0..{T - 1} of the TV layout")
    return sorted(set(items))


def first_owners(tv: Any, tile_mn: Any, threads: Any = None) -> tuple[list[int], list[int], Any, Any]:
    """For each cell ``m + M*n`` of the ``M x N`` tile, the first ``(thread, value)`` mapping
    to it, in plain Python: ``(thread, value, m_shape, n_shape)`` with two flat lists of
    ``M*N`` entries (``-1`` where no thread writes).

    Threads are scanned outermost and values inside, as CuTe's ``print_latex_tv`` does,
    so a cell reached twice shows its first writer. ``threads`` (a thread index or a list)
    scans only those threads: the cells they hold, ``-1`` elsewhere.

    >>> first_owners(Layout((2, 2), (2, 1)), (2, 2))[:2]
    ([0, 0, 1, 1], [0, 1, 0, 1])
    >>> first_owners(Layout((2, 2), (2, 1)), (2, 2), threads=[1])[:2]
    ([-1, -1, 1, 1], [-1, -1, 0, 1])
    """
    tv = as_layout_like(tv)
    if not isinstance(tv, Layout) or tv.rank() != 2:
        raise CutepyError(f"a TV layout has two modes (thread, value); got {tv}")
    m_shape, n_shape = _tile_shape(tile_mn)
    M, N = int_size(m_shape), int_size(n_shape)
    T, V = int_size(tv.shape[0]), int_size(tv.shape[1])
    chosen = selected_threads(threads, T)
    scan = range(T) if chosen is None else chosen
    check_cells(len(scan) * V, f"the TV layout {tv}")  # one value per (thread, value) and per cell, below
    check_cells(M * N, f"the {M}x{N} tile")
    thread, value = [-1] * (M * N), [-1] * (M * N)
    for t in scan:
        for v in range(V):
            val = plain_value(tv(t + T * v))
            i = val if type(val) is int else crd2idx(val, (m_shape, n_shape))  # (m, n) coordinates
            if not 0 <= i < M * N:
                raise CutepyError(
                    f"TV layout {tv} sends thread {t}, value {v} to {fmt(val)}, outside the {M}x{N} tile"
                )
            if thread[i] < 0:
                thread[i], value[i] = t, v
    return thread, value, m_shape, n_shape


def owner_cells(tv: Layout, cells: int, threads: Any = None) -> list[tuple[int, int, int]]:
    """:func:`first_owners` of an integer TV layout over ``cells`` cells, scanned as arrays (numpy)
    for tiles whose pairs are too many to scan one by one (a GMMA's A, held by 128 threads):
    ``(thread, value, cell)`` of each cell's first owner, in CuTe's scan order.

    Pre:  ``tv`` maps (thread, value) into ``0 .. cells-1``; at most the element limit of pairs;
          ``threads`` as in :func:`first_owners` (else ``CutepyError``).
    Post: each cell reached appears once, with the first (thread, value) reaching it.

    >>> owner_cells(Layout((2, 2), (0, 1)), 2)
    [(0, 0, 0), (0, 1, 1)]
    """
    T, V = int_size(tv.shape[0]), int_size(tv.shape[1])
    chosen = selected_threads(threads, T)
    ts = np.arange(T, dtype=np.int64) if chosen is None else np.asarray(chosen, dtype=np.int64)
    check_cells(len(ts) * V, f"the (thread, value) pairs of {tv}")
    vs = np.arange(V, dtype=np.int64)
    offs = tv.offsets((ts[:, None] + T * vs[None, :]).ravel())  # thread-major: CuTe's scan order
    if offs.size and (int(offs.min()) < 0 or int(offs.max()) >= cells):
        raise CutepyError(f"the TV layout {tv} reaches outside its tile of {cells} cells")
    _, first = np.unique(offs, return_index=True)
    return [(int(ts[j // V]), int(j % V), int(offs[j])) for j in np.sort(first)]


def tv_owners(tv: Layout, tile_mn: Any) -> tuple[Any, Any, Any, Any]:
    """:func:`first_owners` as two ``M x N`` int64 arrays: ``(thread, value, M, N)``.

    >>> t, v, M, N = tv_owners(Layout((2, 2), (2, 1)), (2, 2))
    >>> t.tolist(), v.tolist()
    ([[0, 1], [0, 1]], [[0, 0], [1, 1]])
    """
    thread, value, m_shape, n_shape = first_owners(tv, tile_mn)
    M, N = int_size(m_shape), int_size(n_shape)
    t = np.asarray(thread, dtype=np.int64).reshape(N, M).T
    v = np.asarray(value, dtype=np.int64).reshape(N, M).T
    return t, v, m_shape, n_shape


def tv_layout_panel(
    tv: Any,
    tile_mn: Any,
    *,
    color: str | Callable[[int, int], str] = "thread",
    max_rows: int | None = 32,
    max_cols: int | None = 32,
    title: str | None = None,
    hover: bool = False,
    threads: Any = None,
    owners: tuple[list[int], list[int]] | None = None,
) -> GridPanel:
    """The grid panel of :func:`tv_layout_svg` (same arguments; ``owners``: the ``(thread, value)``
    lists of :func:`first_owners`, when the caller has them)."""
    if owners is None:
        thread, value, m_shape, n_shape = first_owners(tv, tile_mn, threads)
    else:
        (thread, value), (m_shape, n_shape) = owners, _tile_shape(tile_mn)
    rows, cols = make_axis(m_shape, max_rows), make_axis(n_shape, max_cols)
    t = [[thread[m + rows.size * n] for n in cols.shown] for m in rows.shown]
    v = [[value[m + rows.size * n] for n in cols.shown] for m in rows.shown]
    labels = [[f"T{a}\nV{b}" if a >= 0 else "" for a, b in zip(tr, vr)] for tr, vr in zip(t, v)]

    def fill(a: int, b: int) -> str:
        if a < 0:
            return EMPTY_COLOR if threads is None else OTHER_COLOR
        if callable(color):
            return color(a, b)
        if color == "thread":
            return thread_color(a)
        if color == "value":
            return thread_color(b)
        raise CutepyError(f"unknown TV color {color!r}; use 'thread', 'value' or a function (t, v)")

    fills = [[fill(a, b) for a, b in zip(tr, vr)] for tr, vr in zip(t, v)]
    M, N = rows.size, cols.size
    caption = [f"TV layout {as_layout_like(tv)} over a {M}x{N} tile"] + _elision_note(rows, cols)
    if threads is not None:
        chosen = selected_threads(threads, int_size(as_layout_like(tv).shape[0]))
        held = sum(x >= 0 for x in thread)
        who = ", ".join(map(str, chosen[:8])) + (", ..." if len(chosen) > 8 else "")
        caption.insert(1, f"thread{'s' if len(chosen) > 1 else ''} {who}: {held} of {M * N} cells "
                          "(grey: held by other threads, or by none)")
    nobody = "no thread" if threads is None else "not these threads"
    tips = [[f"cell ({m},{n})  index {m + M * n}  " + (f"thread {t[r][c]}  value {v[r][c]}" if t[r][c] >= 0
                                                       else nobody)
             for c, n in enumerate(cols.shown)] for r, m in enumerate(rows.shown)] if hover else None
    return GridPanel(rows, cols, labels, fills, title=title, caption=caption, font=10, hover=tips)


def tv_layout_svg(tv: Any, tile_mn: Any, **opts: Any) -> str:
    """A thread-value layout drawn over its ``M x N`` tile, as CuTe's ``print_latex_tv``.

    ``tv`` maps ``(thread, value)`` to an index into the tile (``m + M*n``), or to an
    ``(m, n)`` coordinate. Each cell is labelled ``T#`` / ``V#`` and coloured by thread
    (``color="value"``, or a function ``(t, v) -> colour``, to change that).
    ``threads`` (a thread index or a list of them) draws what those threads hold over the
    whole tile, the other cells grey.

    Pre:  ``tv`` has two modes (thread, value) and maps into the ``M x N`` tile ``tile_mn``;
          ``threads`` are thread indices of ``tv`` (else ``CutepyError``).
    Post: an SVG document where the cell of ``tv(t, v)`` reads ``T{t}`` / ``V{v}`` (for the
          chosen threads only, when ``threads`` is given).

    >>> tv = Layout(((4, 8), 2), ((16, 1), 8))  # 32 threads, 2 values, a 16x4 tile
    >>> svg = tv_layout_svg(tv, (16, 4))
    >>> import re
    >>> len(re.findall(r">T[0-9]+<", svg)), ">T31<" in svg
    (64, True)
    >>> sorted(set(re.findall(r">(T[0-9]+)<", tv_layout_svg(tv, (16, 4), threads=[5]))))
    ['T5']
    """
    return render(tv_layout_panel(tv, tile_mn, **opts), title=f"TV layout {as_layout_like(tv)}")


# -- divides and products -----------------------------------------------------------

_DIVIDES = {"logical": logical_divide, "zipped": zipped_divide, "tiled": tiled_divide, "flat": flat_divide}
_PRODUCTS = {"blocked": blocked_product, "raked": raked_product, "logical": logical_product}


def _as_tile_layout(t: Any) -> Layout:
    if isinstance(t, Layout):
        return t
    if isinstance(t, int):
        return Layout(t)
    raise CutepyError(f"divide pictures take tilers made of layouts or ints, got {t!r}")


def _mode_tiles(mode_size: int, tiler: Layout) -> tuple[Any, int]:
    """Tile number of each index of a mode of ``mode_size`` under ``tiler`` (-1: none),
    and the number of tiles."""
    full = make_layout(tiler, complement(tiler, mode_size))
    where = full.offsets()
    out = np.full(mode_size, -1, dtype=np.int64)
    ok = (where >= 0) & (where < mode_size)
    out[where[ok]] = (np.arange(full.size(), dtype=np.int64) // tiler.size())[ok]
    return out, full.size() // tiler.size()


def divide_svg(layout: Any, tiler: Any, kind: str = "logical", *, max_rows: int | None = DEFAULT_LIMIT,
               max_cols: int | None = DEFAULT_LIMIT) -> str:
    """``layout`` coloured by tile next to its divide by ``tiler``, with tile borders.

    ``kind`` is ``logical``, ``zipped``, ``tiled`` or ``flat``; ``tiler`` a layout
    (the layout is then divided as 1-D) or a tuple of layouts/ints (by mode). Tiles are
    numbered the same way on both sides, so a tile has one colour in both pictures.
    ``max_rows``/``max_cols`` elide as in :func:`layout_svg`.

    Pre:  ``layout`` is a plain Layout, ``kind`` one of the four and ``tiler`` has at most
          ``rank(layout)`` modes (else ``CutepyError``).
    Post: an SVG document showing ``layout`` and ``<kind>_divide(layout, tiler)`` with the same
          colour for each tile.

    >>> svg = divide_svg(Layout((4, 6)), (Layout(2), Layout(3)))
    >>> "logical_divide" in svg and "((2,2),(3,2)):((1,2),(4,12))" in svg
    True
    """
    A = as_layout_like(layout)
    if not isinstance(A, Layout):
        raise CutepyError("divide_svg takes a plain Layout")
    if kind not in _DIVIDES:
        raise CutepyError(f"unknown divide {kind!r}; use one of {sorted(_DIVIDES)}")
    R = _DIVIDES[kind](A, tiler)
    a_rows_shape, a_cols_shape, _ = grid_shapes(A)
    a_rows, a_cols = make_axis(a_rows_shape, max_rows), make_axis(a_cols_shape, max_cols)
    a_idx = _cell_array(a_rows, a_cols)
    if isinstance(tiler, tuple):
        T = [_as_tile_layout(t) for t in tiler]
        modes = list(A) if isinstance(A.shape, tuple) else [A]
        if len(T) > len(modes):
            raise CutepyError(f"tiler {tiler} has more modes than {A}")
        tiled = [_mode_tiles(int_size(m.shape), t) for m, t in zip(modes, T)]
        counts = [c for _, c in tiled]
        tile_a = np.zeros(a_idx.shape, dtype=np.int64)
        rest, scale = a_idx.copy(), 1
        for k, m in enumerate(modes):  # untiled modes: every index its own tile
            size = int_size(m.shape)
            coord, rest = rest % size, rest // size
            if k < len(tiled):
                tile_a += tiled[k][0][coord] * scale
                scale *= counts[k]
            else:
                tile_a += coord * scale
                scale *= size
        r_rows_shape, r_cols_shape, _ = grid_shapes(R)
        r_rows, r_cols = make_axis(r_rows_shape, max_rows), make_axis(r_cols_shape, max_cols)
        r_idx = _cell_array(r_rows, r_cols)
        tile_r = _divided_tiles(R, r_idx, T, counts, kind)
    else:
        t = _as_tile_layout(tiler)
        tile_a = _mode_tiles(A.size(), t)[0][a_idx]
        r_rows_shape, r_cols_shape, _ = grid_shapes(R)
        r_rows, r_cols = make_axis(r_rows_shape, max_rows), make_axis(r_cols_shape, max_cols)
        tile_r = _cell_array(r_rows, r_cols) // t.size()
    left = _tiled_panel(A, a_rows, a_cols, tile_a, f"A = {A}")
    right = _tiled_panel(R, r_rows, r_cols, tile_r, f"{kind}_divide(A, {fmt_tiler(tiler)}) = {R}")
    return render(HStack([left, right]), title=f"{kind}_divide of {A}")


def fmt_tiler(tiler: Any) -> str:
    """A tiler in CuTe's ``<a, b>`` notation (a layout prints as itself).

    >>> fmt_tiler((Layout(2), 3))
    '<2:1, 3>'
    """
    if isinstance(tiler, tuple):
        return "<" + ", ".join(fmt_tiler(t) if isinstance(t, tuple) else str(t) for t in tiler) + ">"
    return str(tiler)


def _divided_tiles(R: Layout, r_idx: Any, T: list[Layout], counts: list[int], kind: str) -> Any:
    """Tile number of each 1-D index of a by-mode divide result ``R``, numbered as
    :func:`divide_svg` numbers the tiles of the divided layout."""
    if kind != "logical":  # ((T0,T1),(R0,R1,L..)), ((T0,T1),R0,R1,L..), (T0,T1,R0,R1,L..)
        return r_idx // int(np.prod([t.size() for t in T]))
    modes = list(R) if isinstance(R.shape, tuple) else [R]  # ((T0,R0),(T1,R1),L..)
    tile, rest, scale = np.zeros(r_idx.shape, dtype=np.int64), r_idx.copy(), 1
    for k, m in enumerate(modes):
        size = int_size(m.shape)
        coord, rest = rest % size, rest // size
        if k < len(T):
            tile += (coord // T[k].size()) * scale
            scale *= counts[k]
        else:
            tile += coord * scale
            scale *= size
    return tile


def _tiled_panel(L: Layout, rows: Axis, cols: Axis, tiles: Any, title: str) -> GridPanel:
    values = values_at(L, _cells(rows, cols))
    labels = [[fmt(v) for v in row] for row in values]
    fills = [[tile_color(t) if t >= 0 else EMPTY_COLOR for t in row] for row in tiles.tolist()]
    return GridPanel(rows, cols, labels, fills, title=title, group=tiles,
                     caption=_elision_note(rows, cols))


def product_svg(A: Any, B: Any, kind: str = "blocked", *, max_rows: int | None = DEFAULT_LIMIT,
                max_cols: int | None = DEFAULT_LIMIT) -> str:
    """``A``, ``B`` and their ``blocked``/``raked``/``logical`` product, each copy of
    ``A`` in the result coloured like the cell of ``B`` that placed it (blocked and
    logical products also get thick borders around each copy). ``max_rows`` and
    ``max_cols`` elide as in :func:`layout_svg`.

    Pre:  ``A`` and ``B`` are plain Layouts, ``kind`` one of the three, and the product is 2-D
          (else ``CutepyError``).
    Post: an SVG document showing ``A``, ``B`` and ``<kind>_product(A, B)``.

    >>> svg = product_svg(Layout((2, 2), (2, 1)), Layout((2, 3)), "blocked")
    >>> "blocked_product" in svg and "(4,6):(2,4)" not in svg
    True
    """
    A, B = as_layout_like(A), as_layout_like(B)
    if not (isinstance(A, Layout) and isinstance(B, Layout)):
        raise CutepyError("product_svg takes plain Layouts")
    if kind not in _PRODUCTS:
        raise CutepyError(f"unknown product {kind!r}; use one of {sorted(_PRODUCTS)}")
    R = _PRODUCTS[kind](A, B)
    rr, rc, grouped = grid_shapes(R)
    rows, cols = make_axis(rr, max_rows), make_axis(rc, max_cols)
    m, n = np.asarray(rows.shown, dtype=np.int64)[:, None], np.asarray(cols.shown, dtype=np.int64)[None, :]
    if kind == "logical":  # (A, complement o B): columns walk B
        copy = np.broadcast_to(n, (len(rows.shown), len(cols.shown)))
    else:
        if grouped or A.rank() > 2 or B.rank() > 2:
            raise CutepyError(f"product pictures are 2-D; {R} has rank {R.rank()}")
        if R.rank() == 2:
            A2, B2 = append(A, n=2), append(B, n=2)
            ra, ca = int_size(A2[0].shape), int_size(A2[1].shape)
            rb, cb = int_size(B2[0].shape), int_size(B2[1].shape)
        else:  # one row: the single mode runs across
            ra, ca, rb, cb = 1, A.size(), 1, B.size()
        if kind == "blocked":  # ((A0,B0),(A1,B1))
            copy = m // ra + rb * (n // ca)
        else:  # raked: ((B0,A0),(B1,A1))
            copy = m % rb + rb * (n % cb)
    values = values_at(R, _cells(rows, cols))
    labels = [[fmt(v) for v in row] for row in values]
    fills = [[tile_color(c) for c in row] for row in np.asarray(copy).tolist()]
    group = None if kind == "raked" else np.asarray(copy)  # raked copies interleave: no blocks
    right = GridPanel(rows, cols, labels, fills, title=f"{kind}_product(A, B) = {R}",
                      group=group, caption=_elision_note(rows, cols))
    left = layout_panel(A, title=f"A = {A}", max_rows=max_rows, max_cols=max_cols)
    mid = layout_panel(B, title=f"B = {B}", max_rows=max_rows, max_cols=max_cols,
                       color=lambda i, j, v: tile_color(i + _rows_of(B) * j))
    return render(HStack([VStack([left, mid], gap=16), right]), title=f"{kind}_product of {A} and {B}")


def _rows_of(L: Layout) -> int:
    return int_size(grid_shapes(L)[0])


def tiler_panel(tiler: tuple, **opts: Any) -> Panel:
    """Each mode of a tiler drawn as its own layout, one under another."""
    items: list[Panel] = [Text(f"tiler {fmt_tiler(tiler)}", 13, weight="bold")]
    for k, t in enumerate(tiler):
        lay = t if is_layout(t) else Layout(t)
        items.append(layout_panel(lay, title=f"mode {k}: {lay}", **opts))
    return VStack(items, gap=10)


def swizzle_layout(sw: Swizzle) -> ComposedLayout:
    """The picture of a swizzle: how ``Sw<B,M,S>`` permutes chunks of ``2^M`` offsets.

    Bits below ``M`` never move, so the picture is ``Sw<B,0,S>`` on the ``2^B x 2^|S|``
    grid of chunk numbers (row-major): cell ``(r, c)`` holds the chunk that chunk
    ``r * 2^|S| + c`` goes to.

    >>> swizzle_layout(Swizzle(3, 4, 3))
    Sw<3,0,3> o 0 o (8,8):(8,1)
    """
    cols = 1 << abs(sw.shift)
    return ComposedLayout(Swizzle(sw.bits, 0, sw.shift), 0, Layout((1 << sw.bits, cols), (cols, 1)))
