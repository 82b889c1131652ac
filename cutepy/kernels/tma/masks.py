"""C++'s ``create_tma_multicast_mask``: the 16-bit mask of the CTAs of a cluster that share a
multicast. Part of :mod:`cutepy.kernels.tma` (layer 4, kernel values).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import CutepyError
from ...core.layout import Layout, size, slice_and_offset


def create_tma_multicast_mask(cta_layout_vmnk: Layout, cta_coord_vmnk: Any, modes: tuple = ()) -> int:
    """C++ ``create_tma_multicast_mask<Modes...>(cta_layout, cta_coord)``: the 16-bit mask of the
    CTAs (block ranks in the cluster) that share this CTA's multicast.

    The coordinate's ``modes`` are replaced by ``_`` (C++'s template modes); the CTAs along the
    remaining wildcards are set, shifted by the rank of the first of them.

    Pre:  ``cta_coord_vmnk`` is a coordinate of ``cta_layout_vmnk`` (``None`` for ``_``); the
          ranks are below 16 (else ``CutepyError``).
    Post: bit ``r`` is set for each block rank ``r`` reached.

    >>> create_tma_multicast_mask(Layout((4, 4), (5, 1)), (3, None))
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: create_tma_multicast_mask: block rank 16 (CTA (3, None) of (4,4):(5,1)) is outside \
a 16-CTA cluster

    >>> cl = Layout((2, 2), (1, 2))
    >>> create_tma_multicast_mask(cl, (0, None)), create_tma_multicast_mask(cl, (1, 0), modes=(0,))
    (5, 3)
    """
    if not isinstance(cta_layout_vmnk, Layout):
        cta_layout_vmnk = Layout(cta_layout_vmnk)
    crd = cta_coord_vmnk
    for m in modes:
        if not isinstance(crd, tuple) or not 0 <= m < len(crd):
            raise CutepyError(f"create_tma_multicast_mask: mode {m} is not a mode of {crd}")
        crd = crd[:m] + (None,) + crd[m + 1:]
    sub, elected = slice_and_offset(crd, cta_layout_vmnk)
    # the CTAs reached are elected + sub(i): each must be a block rank of a 16-CTA cluster
    ranks = [elected + sub(i) for i in range(size(sub))] if sub.shape != () else [elected]
    for r in ranks:
        if not 0 <= r < 16:
            raise CutepyError(f"create_tma_multicast_mask: block rank {r} (CTA {crd} of {cta_layout_vmnk}) "
                              "is outside a 16-CTA cluster")
    mask = 0
    for r in ranks:
        mask |= 1 << r
    return mask
