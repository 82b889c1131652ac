"""C++'s ``tma_partition``: the gmem and smem tensors split into ``((TMA, TMA_Iter), Rest...)`` for
one CTA of the multicast. Part of :mod:`cutepy.kernels.tma` (layer 4, kernel values).
"""

from __future__ import annotations

from typing import Any

from ...algebra.coalesce import coalesce
from ...algebra.composition import composition
from ...algebra.divides import logical_divide
from ...algebra.inverse import right_inverse
from ...algebra.products import tile_to_shape
from ...core.errors import CutepyError
from ...core.layout import Layout, size
from ..tensor import Tensor
from .atom import TmaAtom, TmaTiledCopy


def tma_partition(atom: Any, cta_coord: Any, cta_layout: Any, stensor: Tensor, gtensor: Tensor
                  ) -> tuple[Tensor, Tensor]:
    """C++ ``tma_partition(atom, cta_coord, cta_layout, stensor, gtensor)``: ``(gmem, smem)``
    partitions ``((TMA, TMA_Iter), Rest...)``, offset inside the TMA mode for this CTA of the
    multicast.

    Pre:  ``atom`` is a TMA atom (or a TMA TiledCopy); ``stensor`` and ``gtensor`` have the
          tile as mode 0 of the same size (C++'s static assert; else ``CutepyError``).
    Post: ``(g, s)`` with mode 0 ``(TMA, TMA_Iter)``: one instruction's values, then the
          instructions over the tile, each tensor's ``Rest`` modes unchanged.

    >>> from cutepy.kernels.pointer import gmem_ptr, smem_ptr
    >>> from cutepy.kernels.tensor import make_tensor, make_identity_tensor
    >>> from cutepy.kernels.tma import make_tma_atom
    >>> g = make_tensor(gmem_ptr("half_t"), Layout((128, 64), (64, 1)))
    >>> a = make_tma_atom("SM90_TMA_LOAD", g, Layout((64, 64), (64, 1)))
    >>> gT = a.get_tma_tensor((128, 64))
    >>> from cutepy import zipped_divide
    >>> sA = make_tensor(smem_ptr("half_t"), Layout(((64, 64),), ((64, 1),)))
    >>> tg, ts = tma_partition(a, 0, Layout(1, 0), sA, zipped_divide(gT, (64, 64)))
    >>> ts.layout, tg.layout
    (((4096,1)):((1,0)), (((64,64),1),(2,1)):(((1@0,1@1),0),(64@1,0)))
    """
    if isinstance(atom, TmaTiledCopy):
        atom = atom.copy_atom
    if not isinstance(atom, TmaAtom):
        raise CutepyError(f"tma_partition takes a TMA atom (make_tma_atom), not {atom!r}")
    cta_layout = cta_layout if isinstance(cta_layout, Layout) else Layout(cta_layout)
    s0 = stensor.layout[0] if isinstance(stensor.layout.shape, tuple) else stensor.layout
    if not isinstance(s0, Layout):
        raise CutepyError(f"tma_partition: the smem tensor's layout {stensor.layout} must be plain "
                          "(give make_tensor an smem_ptr and the pointer-flag layout)")
    inv = right_inverse(s0)
    n0 = size(s0)
    layout_v = tile_to_shape(Layout((inv.shape,), (inv.stride,)), n0)
    nval = atom.num_val_src
    layout_V = logical_divide(layout_v, Layout(nval))
    mc_offset = cta_layout(cta_coord) * (nval // cta_layout.cosize())
    out = []
    for t in (gtensor, stensor):
        L = t.layout
        R = len(L.shape) if isinstance(L.shape, tuple) else 1
        if size(L[0] if isinstance(L.shape, tuple) else L) != n0:
            raise CutepyError(f"tma_partition: mode 0 of {L} has not the smem tile's {n0} elements")
        tiler = (layout_V,) + (None,) * (R - 1)
        composed = composition(L, tiler if R > 1 else layout_V)
        if R == 1:
            composed = Layout((composed.shape,), (composed.stride,))
        v = coalesce(composed, ((1, 1),))
        coord = ((mc_offset, 0),) + (0,) * (R - 1)
        off = v(coord)
        out.append(Tensor(t.engine, v, t.offset + off))
    return out[0], out[1]
