"""Hypothesis generators for linear layouts and for F2-linear CuTe layouts (tests only)."""

from __future__ import annotations

from hypothesis import strategies as st

from cutepy.algebra.composed import ComposedLayout
from cutepy.core.layout import Layout
from cutepy.core.swizzle import Swizzle
from cutepy.linear import LinearLayout


@st.composite
def linear_layouts(draw, in_dims=("register", "lane", "warp", "block"), rank=None, max_bits=8):
    """A random LinearLayout: a few input bits, outputs ``dim0..`` with power-of-two sizes."""
    r = rank or draw(st.integers(1, 3))
    outs = [(f"dim{i}", 2 ** draw(st.integers(0, 3))) for i in range(r)]
    bases = {}
    budget = max_bits
    for d in in_dims:
        k = draw(st.integers(0, min(3, budget)))
        budget -= k
        bases[d] = [[draw(st.integers(0, s - 1)) for _, s in outs] for _ in range(k)]
    return LinearLayout(bases, outs)


@st.composite
def invertible_layouts(draw, in_dims=("offset", "block")):
    """A random bijection: a random invertible F2 matrix, split over the input and output dims."""
    r = draw(st.integers(1, 3))
    outs = [(f"dim{i}", 2 ** draw(st.integers(0, 3))) for i in range(r)]
    n = sum(s.bit_length() - 1 for _, s in outs)
    # columns: a permutation of the unit vectors, then random elementary row operations
    cols = [1 << k for k in draw(st.permutations(range(n)))]
    for _ in range(draw(st.integers(0, 2 * n))):
        if n < 2:
            break
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if i != j:
            cols[i] ^= cols[j]
    split = draw(st.integers(0, n))
    counts = {in_dims[0]: split, in_dims[1]: n - split}
    L = LinearLayout({"x": [[0] * r]}, outs)  # only for its flattening helpers
    bases, k = {}, 0
    for d in in_dims:
        bases[d] = [list(L._unflat(c)) for c in cols[k : k + counts[d]]]
        k += counts[d]
    return LinearLayout(bases, outs)


@st.composite
def linear_cute_layouts(draw, rank=2, swizzled=None):
    """A CuTe layout with power-of-two modes whose strides' bits are disjoint (F2-linear), maybe
    under a swizzle: ``(layout, total index bits, total output bits)``."""
    nbits = draw(st.integers(1, 9))
    bits = draw(st.permutations(range(nbits + draw(st.integers(0, 2)))))[:nbits]
    zeros = draw(st.lists(st.booleans(), min_size=nbits, max_size=nbits))
    cols = [0 if z and draw(st.booleans()) else 1 << b for b, z in zip(bits, zeros)]
    cuts = sorted(draw(st.lists(st.integers(0, nbits), min_size=rank - 1, max_size=rank - 1)))
    edges = [0] + cuts + [nbits]
    shapes, strides = [], []
    for a, b in zip(edges, edges[1:]):
        part = cols[a:b]
        shapes.append(tuple(2 for _ in part) if part else 1)
        strides.append(tuple(part) if part else 0)
    layout = Layout(tuple(shapes), tuple(strides))
    out_bits = max(c.bit_length() for c in cols + [1])
    if swizzled is None:
        swizzled = draw(st.booleans())
    if swizzled and out_bits >= 2:
        b = draw(st.integers(1, max(1, out_bits // 2)))
        s = draw(st.integers(b, max(b, out_bits - b)))
        m = draw(st.integers(0, max(0, out_bits - b - s)))
        if b + s + m <= out_bits:
            layout = ComposedLayout(Swizzle(b, m, s), 0, layout)
    return layout, nbits, out_bits
