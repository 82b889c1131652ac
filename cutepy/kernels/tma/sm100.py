"""The SM100 makers: C++'s ``make_tma_atom_A_sm100`` and ``make_tma_atom_B_sm100``, whose CTA tile
is the TiledMMA's A or B partition of the MMA tiler. Part of :mod:`cutepy.kernels.tma` (layer 4).
"""

from __future__ import annotations

from typing import Any

from ...algebra.composition import composition
from ...core.errors import CutepyError
from ...core.layout import Layout, make_identity_layout, size, slice_and_offset
from .atom import TmaAtom, _gtensor_parts, _tma_atom


def _tma_atom_sm100(which: str, op: str, gmem_tensor: Any, smem_layout: Any, mma_tiler: tuple, mma: Any,
                    cluster_layout_vmnk: Any, internal_type: str | None) -> TmaAtom:
    if not isinstance(mma_tiler, tuple) or len(mma_tiler) < 3:
        raise CutepyError(f"make_tma_atom_{which}_sm100: the MMA tiler is (TILE_M, TILE_N, TILE_K, ...), "
                          f"not {mma_tiler!r}")
    if not hasattr(mma, "thrfrg_A"):
        raise CutepyError(f"make_tma_atom_{which}_sm100 takes a TiledMMA (make_tiled_mma), not {mma!r}")
    cl = cluster_layout_vmnk if isinstance(cluster_layout_vmnk, Layout) else Layout(cluster_layout_vmnk)
    if not isinstance(cl.shape, tuple) or len(cl.shape) != 4:
        raise CutepyError(f"make_tma_atom_{which}_sm100: the cluster layout is (V, M, N, K), not {cl}")
    _, glayout = _gtensor_parts(gmem_tensor)
    # keep the MK (A) or NK (B) modes of the MNK tiler
    tiler = (mma_tiler[0],) + tuple(mma_tiler[2:]) if which == "A" else tuple(mma_tiler[1:])
    g_tile = composition(make_identity_layout(glayout.shape), tiler)
    frg = (mma.thrfrg_A if which == "A" else mma.thrfrg_B)(g_tile)[1]
    r = len(g_tile.shape) if isinstance(g_tile.shape, tuple) else 1
    cta_v_tile = slice_and_offset((None, (None,) * r), frg)[0]  # (MMA, MMA_M, MMA_K, ...)
    multicast = op in ("SM90_TMA_LOAD_MULTICAST", "SM100_TMA_2SM_LOAD_MULTICAST")
    # A is shared by the CTAs along N of the cluster, B by those along M
    num_multicast = size(cl[2 if which == "A" else 1]) if multicast else 1
    atom, _ = _tma_atom(op, gmem_tensor, smem_layout, num_multicast, cta_v_tile, internal_type)
    return atom


def make_tma_atom_A_sm100(op: str, gmem_tensor: Any, smem_layout: Any, mma_tiler: tuple, mma: Any,
                          cluster_layout_vmnk: Any, internal_type: str | None = None) -> TmaAtom:
    """C++ ``make_tma_atom_A_sm100``: the TMA atom loading A ``(M, K, ...)`` into an smem layout
    ``(MMA, MMA_M, MMA_K, ...)`` partitioned as the TiledMMA's A; a multicast op multicasts to
    the CTAs along N of ``cluster_layout_vmnk``.

    Pre:  as :func:`make_tma_copy`; ``mma_tiler`` is ``(TILE_M, TILE_N, TILE_K, ...)``; ``mma`` a
          TiledMMA; ``cluster_layout_vmnk`` a rank-4 (V, M, N, K) layout (else ``CutepyError``).
    Post: the atom whose CTA values are ``layout<1>(mma.thrfrg_A(tile))`` over gmem modes, as C++.

    >>> from cutepy.algebra.divides import tiled_divide
    >>> from cutepy.kernels.atoms import gmma_smem_layout, mma_atom, tile_to_mma_shape
    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> from cutepy.kernels.tiled import make_tiled_mma, partition_shape_A
    >>> mma = make_tiled_mma(mma_atom("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>"))
    >>> sA = tile_to_mma_shape(gmma_smem_layout("K", 128, "half_t"), partition_shape_A(mma, (256, 64)))
    >>> A = make_tensor(gmem_ptr("half_t"), Layout((512, 256), (256, 1)))
    >>> cluster = tiled_divide(Layout((4, 4, 1)), (Layout(2),))
    >>> a = make_tma_atom_A_sm100("SM100_TMA_2SM_LOAD_MULTICAST", A, sA, (256, 256, 64), mma, cluster)
    >>> a.descriptor.box_dim, a.thr_id
    ((64, 32), 2:1)
    """
    return _tma_atom_sm100("A", op, gmem_tensor, smem_layout, mma_tiler, mma, cluster_layout_vmnk,
                           internal_type)


def make_tma_atom_B_sm100(op: str, gmem_tensor: Any, smem_layout: Any, mma_tiler: tuple, mma: Any,
                          cluster_layout_vmnk: Any, internal_type: str | None = None) -> TmaAtom:
    """C++ ``make_tma_atom_B_sm100``: as :func:`make_tma_atom_A_sm100` for B ``(N, K, ...)``; a
    multicast op multicasts to the CTAs along M of the cluster.

    Pre:  as :func:`make_tma_atom_A_sm100`.
    Post: the atom whose CTA values are ``layout<1>(mma.thrfrg_B(tile))`` over gmem modes, as C++.

    >>> from cutepy.algebra.divides import tiled_divide
    >>> from cutepy.kernels.atoms import gmma_smem_layout, mma_atom, tile_to_mma_shape
    >>> from cutepy.kernels.pointer import gmem_ptr
    >>> from cutepy.kernels.tensor import make_tensor
    >>> from cutepy.kernels.tiled import make_tiled_mma, partition_shape_B
    >>> mma = make_tiled_mma(mma_atom("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,K,K>"))
    >>> sB = tile_to_mma_shape(gmma_smem_layout("K", 128, "half_t"), partition_shape_B(mma, (256, 64)))
    >>> B = make_tensor(gmem_ptr("half_t"), Layout((1024, 256), (256, 1)))
    >>> cluster = tiled_divide(Layout((4, 4, 1)), (Layout(2),))
    >>> b = make_tma_atom_B_sm100("SM100_TMA_2SM_LOAD_MULTICAST", B, sB, (256, 256, 64), mma, cluster)
    >>> b.descriptor.box_dim
    (64, 64)
    """
    return _tma_atom_sm100("B", op, gmem_tensor, smem_layout, mma_tiler, mma, cluster_layout_vmnk,
                           internal_type)
