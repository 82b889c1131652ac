"""Pictures of Hopper and Blackwell data movement: a TMA copy's box over the gmem tile and the
smem tile it fills, and the tensor-memory lanes and columns each warp owns.

- :func:`tma_box_svg`: the CTA tile of a :func:`cutepy.kernels.tma.make_tma_copy`, left as gmem
  (each element coloured by the CTA of the multicast that loads it, the first TMA box
  outlined), right as smem (each element coloured by the shared-memory bank its swizzled byte
  address falls in: the swizzle's bank pattern).
- :func:`tmem_svg`: tensor memory (128 lanes x columns), lanes coloured by the warp that may
  access them (warp ``w % 4`` of a warpgroup owns lanes ``32*(w%4) ..``), the accumulator's
  columns marked.

>>> from cutepy.core.layout import Layout
>>> from cutepy.kernels.pointer import gmem_ptr
>>> from cutepy.kernels.tensor import make_tensor
>>> from cutepy.kernels.tma import make_tma_copy
>>> g = make_tensor(gmem_ptr("half_t"), Layout((256, 64), (64, 1)))
>>> svg = tma_box_svg(make_tma_copy("SM90_TMA_LOAD_MULTICAST", g, Layout((16, 64), (64, 1)), cluster_size=2))
>>> svg.startswith("<svg") and "CTA 1" in svg and "bank" in svg
True
>>> tmem_svg(256).count("warp ")
4
"""

from __future__ import annotations

from typing import Any

from ..core.errors import CutepyError
from ..core.layout import size
from .colors import bank_color, thread_color

#: the most cells one panel draws
MAX_CELLS = 1 << 15

_FONT = 'font-family="monospace" font-size="11"'


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "none", sw: float = 0) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}"'
            + (f' stroke="{stroke}" stroke-width="{sw:g}"' if stroke != "none" else "") + "/>")


def _text(x: float, y: float, s: str, anchor: str = "start") -> str:
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<text x="{x:g}" y="{y:g}" {_FONT} text-anchor="{anchor}">{s}</text>'


def _tile_cells(tma: Any) -> tuple[int, int, list]:
    """(M, N, [(m, n, smem index)]) of a TMA TiledCopy's CTA tile (modes past 1 fold into N)."""
    tile = tma.tile_shape
    M = tile[0]
    N = size(tile[1:]) if len(tile) > 1 else 1
    if M * N > MAX_CELLS:
        raise CutepyError(f"tma_box_svg: the tile {tile} has {M * N} elements, over the limit {MAX_CELLS}")
    smem = tma.smem_layout
    return M, N, [(i % M, i // M, smem(i)) for i in range(M * N)]


def tma_box_svg(tma: Any, address: int = 0, cell: float = 6.0) -> str:
    """The CTA tile of a TMA copy as gmem (by CTA of the multicast, first box outlined) and as
    smem (by bank of the swizzled byte address).

    Pre:  ``tma`` is a :class:`~cutepy.kernels.tma.TmaTiledCopy`; its tile has at most
          :data:`MAX_CELLS` elements (else ``CutepyError``); ``address`` is the smem tile's
          byte address (a multiple of the swizzle's span for the usual pattern).
    Post: an SVG with one rectangle per element in each panel, a legend of CTAs and of banks.

    >>> from cutepy.core.layout import Layout
    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> from cutepy.kernels.tma import make_tma_copy
    >>> g = make_tensor(gmem_ptr("float"), Layout((64, 64), (64, 1)))
    >>> tma_box_svg(make_tma_copy("SM90_TMA_LOAD", g, Layout((8, 32), (32, 1)))).count("<rect") > 2 * 256
    True
    """
    if not hasattr(tma, "descriptor") or not hasattr(tma, "layout_tv_tiled"):
        raise CutepyError(f"tma_box_svg draws a TMA TiledCopy (make_tma_copy), not {tma!r}")
    M, N, cells = _tile_cells(tma)
    desc = tma.descriptor
    bits = tma.copy_atom.element_bits
    sw = tma.tma_swizzle
    gbasis = tma.gbasis
    nthr = size(tma.layout_tv_tiled[0])
    elems = size(gbasis)
    per_cta = max(1, elems // nthr)  # the multicast splits each box over the CTAs, in smem order
    cell = max(1.0, min(cell, 640.0 / max(M, N)))
    top, left = 34.0, 10.0
    gap = 40.0
    w, h = N * cell, M * cell
    out = []
    out.append(_text(left, 14, f"gmem tile {M}x{N} by CTA; box {desc.box_dim} ({desc.swizzle} swizzle)"))
    x2 = left + w + gap
    out.append(_text(x2, 14, f"smem tile by bank of the swizzled byte address ({sw} on bytes)"))
    for m, n, i in cells:
        out.append(_rect(left + n * cell, top + m * cell, cell, cell, thread_color((i % elems) // per_cta)))
    for m, n, i in cells:
        a = address + (i * bits) // 8
        a = sw(a) if sw is not None else a
        out.append(_rect(x2 + n * cell, top + m * cell, cell, cell, bank_color((a // 4) % 32)))
    # the first TMA box in the tile (the box's leading modes lie along the tile's modes)
    bm = min(M, desc.box_dim[0] if desc.rank else M)
    bn = min(N, desc.box_dim[1] if desc.rank > 1 else 1)
    first_mode = getattr(gbasis.stride[0], "mode", (0,))
    if first_mode and first_mode[0] == 1:  # TMA mode 0 runs along the tile's N
        bm, bn = min(M, desc.box_dim[1] if desc.rank > 1 else 1), min(N, desc.box_dim[0])
    out.append(_rect(left, top, bn * cell, bm * cell, "none", "#000000", 2))
    out.append(_rect(left, top, w, h, "none", "#555555", 1))
    out.append(_rect(x2, top, w, h, "none", "#555555", 1))
    y = top + h + 16
    for t in range(nthr):
        out.append(_rect(left + 60 * t, y - 9, 10, 10, thread_color(t)))
        out.append(_text(left + 60 * t + 14, y, f"CTA {t}"))
    out.append(_text(x2, y, "colour = bank (32 banks of 4 bytes)"))
    W, H = x2 + w + 10, y + 10
    body = "".join(out)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:g}" height="{H:g}" '
            f'viewBox="0 0 {W:g} {H:g}">{body}</svg>')


def tmem_svg(columns: int, lanes: int = 128, used: int | None = None, cell: float = 3.0) -> str:
    """Tensor memory: ``lanes`` x ``columns`` 32-bit cells, lanes coloured by the warp of a
    warpgroup that may access them, the first ``used`` columns (an accumulator's) outlined.

    Pre:  ``1 <= columns <= 512``, ``lanes`` is 32, 64 or 128, ``used <= columns`` (else
          ``CutepyError``).
    Post: an SVG with one band per warp and a label per warp.

    >>> tmem_svg(128, used=64).count("warp ")
    4
    """
    if type(columns) is not int or not 1 <= columns <= 512:
        raise CutepyError(f"tmem_svg: tensor memory has 1..512 columns, not {columns!r}")
    if lanes not in (32, 64, 128):
        raise CutepyError(f"tmem_svg: tensor memory has 32, 64 or 128 lanes, not {lanes!r}")
    used = columns if used is None else used
    if type(used) is not int or not 0 <= used <= columns:
        raise CutepyError(f"tmem_svg: {used!r} used columns of {columns}")
    cell = max(1.0, min(cell, 900.0 / columns))
    left, top = 60.0, 24.0
    out = [_text(left, 14, f"TMEM {lanes} lanes x {columns} columns (32-bit); accumulator: {used} columns")]
    for w in range(lanes // 32):
        y = top + w * 32 * cell
        out.append(_rect(left, y, columns * cell, 32 * cell, thread_color(w * 32)))
        out.append(_text(4, y + 16 * cell + 4, f"warp {w}"))
    out.append(_rect(left, top, used * cell, lanes * cell, "none", "#000000", 2))
    W, H = left + columns * cell + 10, top + lanes * cell + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:g}" height="{H:g}" '
            f'viewBox="0 0 {W:g} {H:g}">{"".join(out)}</svg>')


__all__ = ["MAX_CELLS", "tma_box_svg", "tmem_svg"]
