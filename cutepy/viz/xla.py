"""XLA arrays: the logical array with its tiles and padding, next to memory in address order.

The left grid is the logical array (dim 0 down, the last dim across; leading dims of
a rank-3+ array stack as row blocks), padded out to whole tiles of the first tile
level, each cell labelled with the element's offset in the buffer and coloured by
tile; padding is grey. The right grid is the buffer itself, slot after slot, each
labelled with the logical index stored there (``pad`` where none is).

>>> svg = xla_svg("f32[3,5]{1,0:T(2,2)}")
>>> ">17<" in svg and ">(2,3)<" in svg and ">pad<" in svg
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core.errors import CutepyError
from ..core.layout import MAX_LEAF
from ..core.lazy import load
from .canvas import HStack, Panel, Text, VStack, render
from .colors import PAD_COLOR, tile_color
from .grid import GridPanel, make_axis

if TYPE_CHECKING:  # numpy is imported where it is used, so that pictures of layouts need none
    import numpy as np
else:  # numpy loads on first use (the module's import needs none); falsy where it is missing
    np = load("numpy", optional=True)

#: ``cutepy.xla``, imported on first use: it computes with numpy, which ``import cutepy.viz``
#: and the pictures of layouts do without
_xla_package = load("cutepy.xla")


_BIG = 1 << 20  # beyond this many slots, evaluate only the cells shown


def _array(shape: Any) -> Any:

    return _xla_package.parser.as_array_shape(shape)


def padded_dims(shape: Any) -> tuple[int, ...]:
    """Logical dims rounded up to whole tiles of the first tile level.

    Dims that a ``*`` merges, and arrays with no tiles, are not padded.

    >>> padded_dims("f32[3,5]{1,0:T(2,2)}"), padded_dims("f32[3,5]{0,1:T(2,2)}")
    ((4, 6), (4, 6))
    >>> padded_dims("f32[3,5]{1,0:T(8)}"), padded_dims("f32[3,5]{1,0:T(*,2)}")
    ((3, 8), (3, 5))
    """

    arr = _array(shape)
    dims = list(arr.bounds)
    lay = arr.effective_layout
    if not lay.tiles or lay.tiles[0].has_combine:
        return tuple(dims)
    tile = lay.tiles[0].dims
    phys = list(reversed(lay.minor_to_major))  # physical position -> logical dim
    rank = len(phys)
    for q, t in enumerate(tile):
        p = rank - len(tile) + q
        if p < 0 or t == _xla_package.COMBINE_DIM:
            continue
        d = phys[p]
        dims[d] = -(-dims[d] // t) * t
    return tuple(dims)


def _tile_block(arr: Any) -> int | None:

    tiles = arr.effective_layout.tiles
    if not tiles:
        return None
    n = 1
    for t in tiles[0].dims:
        if t != _xla_package.COMBINE_DIM:
            n *= t
    return n


def _offsets(arr: Any, padded: tuple[int, ...], coords: list[np.ndarray]) -> np.ndarray:
    """Buffer offsets of the logical coordinates ``coords`` (padding included)."""


    big = replace(arr, dims=padded, dynamic=None)
    if int(np.prod(padded, dtype=object)) <= _BIG:
        table = _xla_package.linear_indices(big)
        return table[tuple(coords)]
    shape = np.broadcast(*coords).shape
    cols = [np.broadcast_to(c, shape).ravel().tolist() for c in coords]
    flat = [_xla_package.linear_index(big, idx) for idx in zip(*cols)]
    return np.array(flat, dtype=np.int64).reshape(shape)


def _idx_text(index: tuple[int, ...] | None) -> str:
    if index is None:
        return "pad"
    if len(index) == 1:
        return str(index[0])
    return "(" + ",".join(map(str, index)) + ")"


def _numpy() -> Any:
    """numpy, or None where it is not installed (Pyodide): the pictures then evaluate the cells
    shown one by one (the numpy-free path; at most ``max_rows x max_cols`` of them)."""
    return np if np else None


def _unravel(i: int, dims: tuple[int, ...]) -> tuple[int, ...]:
    """numpy's ``unravel_index`` (C order) of one index."""
    out = []
    for d in reversed(dims):
        i, c = divmod(i, d)
        out.append(c)
    return tuple(reversed(out))


def _logical_panel(arr: Any, max_rows: int | None, max_cols: int | None) -> GridPanel:
    np = _numpy()
    dims = arr.bounds
    padded = padded_dims(arr)
    rank = len(padded)
    if rank == 0:
        row_shape, col_shape = 1, 1
    elif rank == 1:
        row_shape, col_shape = 1, padded[0]
    else:
        lead = padded[:-1]
        row_shape = tuple(reversed(lead)) if len(lead) > 1 else lead[0]
        col_shape = padded[-1]
    names: Callable[[int], str] | None = None
    if rank > 2:
        lead = padded[:-1]

        def names(i: int) -> str:
            return _idx_text(_unravel(i, lead))

    rows = make_axis(row_shape, max_rows, label=names, coords=False)
    cols = make_axis(col_shape, max_cols)
    if rank == 0:
        offs = [[0 for _ in cols.shown] for _ in rows.shown]
        pad = [[False for _ in cols.shown] for _ in rows.shown]
    elif np is None:  # the numpy-free path: each shown cell's offset by XLA's formula
        big = replace(arr, dims=padded, dynamic=None)
        offs, pad = [], []
        for r in rows.shown:
            lead_crd = _unravel(r, padded[:-1]) if rank > 1 else ()
            crds = [(*lead_crd, c) for c in cols.shown]
            offs.append([_xla_package.linear_index(big, crd) for crd in crds])
            pad.append([any(x >= d for x, d in zip(crd, dims)) for crd in crds])
    else:
        # int64 even where an axis shows nothing (a dim of 0: an empty list would mesh as float64)
        r, c = np.meshgrid(np.asarray(rows.shown, dtype=np.int64), np.asarray(cols.shown, dtype=np.int64),
                           indexing="ij")
        lead_coords = np.unravel_index(r, padded[:-1]) if rank > 1 else ()
        coords = [*lead_coords, c]
        offs_a = _offsets(arr, padded, coords)
        pad_a = np.zeros(r.shape, dtype=bool)
        for k, d in enumerate(dims):
            pad_a |= coords[k] >= d
        offs, pad = offs_a.tolist(), pad_a.tolist()
    block = _tile_block(arr)
    tiles = [[v // block if block else 0 for v in row] for row in offs]
    labels = [[str(v) for v in row] for row in offs]
    fills = [[PAD_COLOR if p else tile_color(t) for p, t in zip(pr, tr)]
             for pr, tr in zip(pad, tiles)]
    gray = [["#8a8a8a" if p else "#111111" for p in pr] for pr in pad]
    caption = ["cell = offset in the buffer; grey = padding"]
    if rank > 2:
        caption.append(f"rows: dims 0..{rank - 2} (row-major), columns: dim {rank - 1}")
    if rows.gap is not None or cols.gap is not None:
        caption.append(f"showing {len(rows.shown)}x{len(cols.shown)} of {rows.size}x{cols.size} cells")
    return GridPanel(rows, cols, labels, fills, title=f"logical {arr.element_type}{list(dims)}",
                     caption=caption, group=tiles if block else None, label_colors=gray)


def _memory_panel(arr: Any, width: int | None, max_slots: int) -> GridPanel:
    np = _numpy()
    total = _xla_package.buffer_elements(arr)
    block = _tile_block(arr)
    if width is None:
        width = block if block and 2 <= block <= 32 else min(max(total, 1), 16)
    nrows = max(1, -(-total // width))
    rows = make_axis(nrows, max(2, max_slots // width), label=lambda i: str(i * width), coords=False)
    cols = make_axis(width, None)
    slots = [[r * width + c for c in cols.shown] for r in rows.shown]
    if np is not None and total <= _BIG and arr.rank > 0:
        owner = np.full(total, -1, dtype=np.int64)
        lin = _xla_package.linear_indices(arr).ravel()
        owner[lin] = np.arange(lin.size, dtype=np.int64)
        dims = arr.bounds

        def at(s: int) -> tuple[int, ...] | None:
            o = owner[s]
            return None if o < 0 else tuple(int(x) for x in np.unravel_index(o, dims))
    else:
        def at(s: int) -> tuple[int, ...] | None:
            return _xla_package.element_at(arr, s)

    labels, fills, colors = [], [], []
    for row in slots:
        lab, fil, col = [], [], []
        for s in row:
            if s >= total:
                lab.append("")
                fil.append("#ffffff")
                col.append("#111111")
                continue
            idx = at(s)
            lab.append(_idx_text(idx))
            fil.append(PAD_COLOR if idx is None else tile_color(s // block if block else 0))
            col.append("#8a8a8a" if idx is None else "#111111")
        labels.append(lab)
        fills.append(fil)
        colors.append(col)
    caption = [f"buffer: {total} slots, {width} per row; cell = logical index stored there"]
    if rows.gap is not None:
        caption.append(f"showing {len(rows.shown)} of {nrows} rows")
    return GridPanel(rows, cols, labels, fills, title="memory, in address order", caption=caption,
                     label_colors=colors, font=10)


def xla_panel(shape: Any, *, max_rows: int | None = 32, max_cols: int | None = 32,
              strip_width: int | None = None, max_slots: int = 512) -> Panel:
    """The panel of :func:`xla_svg` (same arguments)."""

    if isinstance(shape, str):
        shape = _xla_package.parse_shape(shape)
    if isinstance(shape, _xla_package.TupleShape):
        items: list[Panel] = [Text(str(shape), 13, weight="bold")]
        for k, el in enumerate(shape.elements):
            items.append(Text(f"element {k}: {el}", 12))
            items.append(xla_panel(el, max_rows=max_rows, max_cols=max_cols,
                                   strip_width=strip_width, max_slots=max_slots))
        return VStack(items, gap=8)
    if isinstance(shape, _xla_package.BufferShape):
        shape = shape.array
    if not isinstance(shape, _xla_package.ArrayShape):
        raise CutepyError(f"expected an XLA shape, got {shape!r}")
    head = Text(str(shape), 13, weight="bold")
    if not shape.type.is_array_type:
        return VStack([head, Text(f"{shape.element_type}: no elements to draw")])
    total = _xla_package.buffer_elements(shape)
    if total > MAX_LEAF:  # a picture indexes cells with 64-bit integers, as C++ indexes a layout
        raise CutepyError(f"cannot draw {shape}: its buffer has {total} slots ({total.bit_length()} bits), "
                          "beyond 64-bit offsets")
    sz = _xla_package.sizes(shape)
    info = Text(f"bytes: dense {sz.dense}, XLA ArraySize {sz.array_size}, tiled {sz.nested} "
                f"({sz.padding_overhead:.0f}% padding)", 11, color="#333333")
    body = HStack([_logical_panel(shape, max_rows, max_cols), _memory_panel(shape, strip_width, max_slots)])
    return VStack([head, info, body], gap=6)


def xla_svg(shape: Any, **opts: Any) -> str:
    """An XLA array shape (or tuple or buffer shape, or its text) as a picture.

    Options: ``max_rows``/``max_cols`` of the logical grid (32), ``strip_width``
    (slots per row of the memory picture; default one first-level tile when it has
    at most 32 elements, else 16) and ``max_slots`` of memory shown (512).

    Pre:  ``shape`` is an XLA shape or its text (else ``ParseError`` / ``CutepyError``).
    Post: an SVG document: the logical grid labelled with each element's buffer offset
          (``cutepy.xla.linear_index``), and the buffer's slots.

    >>> svg = xla_svg("bf16[4,8]{1,0:T(2,4)(2,1)}")
    >>> "bf16[4,8]{1,0:T(2,4)(2,1)}" in svg and ">31<" in svg
    True
    """
    panel = xla_panel(shape, **opts)
    return render(panel, title=f"XLA shape {shape}")
