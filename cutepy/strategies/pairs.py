"""Hypothesis strategies for the arguments an operation accepts together: pairs that compose
admissibly, that divide, and a layout with a cotarget its complement takes.

Part of :mod:`cutepy.strategies` (layer 4, analyses); import the strategies from there.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ..algebra.complement import complement
from ..algebra.composition import is_admissible
from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.layout import Layout
from .layout import layouts, nest_profile, tiling_layouts

__all__ = ["composable_pairs", "divisible_pairs", "complementable_pairs"]

def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def _aligned_layout(draw: Any, A: Layout, max_leaves: int = 3) -> Layout:
    """A layout whose strides and shapes come from A's mode extents, so that it is
    likely (not certain) to compose admissibly with A."""
    fs = it.flatten_tuple(A.shape) if type(A.shape) is tuple else (A.shape,)
    prefix = [1]
    for s in fs:
        prefix.append(prefix[-1] * s)
    n = draw(st.integers(1, max_leaves))
    shape, stride = [], []
    for _ in range(n):
        k = draw(st.integers(0, len(fs)))
        base = prefix[k]
        d = base * draw(st.sampled_from(_divisors(fs[k]) if k < len(fs) else (1, 2)))
        s = draw(st.sampled_from(_divisors(fs[k]) if k < len(fs) else (1, 2, 3)))
        shape.append(s)
        stride.append(draw(st.sampled_from((d, d, d, 0))))
    profile = nest_profile(draw, n, 1)
    if type(profile) is not tuple:
        return Layout(shape[0], stride[0])
    return Layout(it.unflatten_tuple(shape, profile), it.unflatten_tuple(stride, profile))


@st.composite
def composable_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, Layout]:
    """``(A, B)`` such that ``composition(A, B)`` is admissible."""
    A = draw(layouts(max_leaves))
    B = draw(st.one_of(_aligned_layout(A), layouts(3)).filter(lambda B: is_admissible(A, B)))
    return A, B


@st.composite
def divisible_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, Layout]:
    """``(A, T)`` such that ``logical_divide(A, T)`` (and the other divides) are defined:
    T is a tiling layout and the composition with ``(T, complement(T, size(A)))`` is admissible."""
    A = draw(layouts(max_leaves))
    T = draw(tiling_layouts(2, 1).filter(lambda T: _divides_ok(A, T)))
    return A, T


def _divides_ok(A: Layout, T: Layout) -> bool:
    try:
        C = complement(T, A.size())
    except CutepyError:
        return False
    return is_admissible(A, Layout._new((T.shape, C.shape), (T.stride, C.stride)))


@st.composite
def complementable_pairs(draw: Any, max_leaves: int = 4) -> tuple[Layout, int]:
    """``(A, M)``: a tiling layout and a cotarget at least its cosize."""
    A = draw(tiling_layouts(max_leaves))
    M = A.cosize() * draw(st.integers(1, 4)) + draw(st.sampled_from((0, 0, 1, 3)))
    return A, M
