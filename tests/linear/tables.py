"""Whole-domain tables of linear layouts with numpy (tests only)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cutepy.linear import LinearLayout


def ll_table(L: LinearLayout, order: Sequence[str]) -> np.ndarray:
    """Flattened output (first out dim lowest) for every flattened input, ``order[0]``'s bits lowest."""
    cols = [L._flat(b) for d in order for b in L._bases[d]]
    idx = np.arange(1 << len(cols), dtype=np.int64)
    out = np.zeros_like(idx)
    for k, c in enumerate(cols):
        out ^= ((idx >> k) & 1) * c
    return out
