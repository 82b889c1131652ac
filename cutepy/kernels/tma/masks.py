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
    mask = 0
    if sub.shape != ():
        for i in range(size(sub)):
            r = sub(i)
            if not 0 <= r < 16:
                raise CutepyError(f"create_tma_multicast_mask: block rank {r} is outside a 16-CTA cluster")
            mask |= 1 << r
    else:
        mask = 1
    if not 0 <= elected < 16:
        raise CutepyError(f"create_tma_multicast_mask: block rank {elected} is outside a 16-CTA cluster")
    return (mask << elected) & 0xFFFF
