"""Hypothesis strategies for warp instructions: 32 lane addresses that stress the bank rule.

Requires ``hypothesis``. Addresses are drawn from a few patterns that matter to the rule:
uniform random, few distinct addresses (broadcast), addresses shared by lanes ``t`` and
``t ^ 1`` or ``t ^ 2`` (the load pairing exception), and strided ones.

>>> from hypothesis import given
>>> @given(warp_instructions())
... def test_aligned(instr):
...     op, width, matrices, addrs = instr
...     assert all(a % width == 0 for a in addrs)
>>> test_aligned()
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = ["lane_addresses", "warp_instructions"]


@st.composite
def lane_addresses(draw: Any, width: int, span: int = 4096) -> list[int]:
    """32 byte addresses, each a multiple of ``width`` below ``span``."""
    slots = span // width
    kind = draw(st.sampled_from(["random", "few", "pair1", "pair2", "stride"]))
    if kind == "stride":
        start, step = draw(st.integers(0, slots - 1)), draw(st.integers(0, 64))
        return [((start + step * t) % slots) * width for t in range(32)]
    if kind == "few":
        pool = draw(st.lists(st.integers(0, slots - 1), min_size=1, max_size=4))
        picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=32, max_size=32))
        return [pool[i] * width for i in picks]
    base = draw(st.lists(st.integers(0, slots - 1), min_size=32, max_size=32))
    if kind == "pair1":
        return [base[t & ~1] * width for t in range(32)]
    if kind == "pair2":
        return [base[t & ~2] * width for t in range(32)]
    return [b * width for b in base]


@st.composite
def warp_instructions(draw: Any) -> tuple[str, int, int | None, list[int]]:
    """``(op, width, matrices, addresses)``: an ld/st of 1-16 bytes or an ldmatrix/stmatrix."""
    op = draw(st.sampled_from(["ld", "st", "ldmatrix", "stmatrix"]))
    if op in ("ld", "st"):
        width = draw(st.sampled_from([1, 2, 4, 8, 16]))
        return op, width, None, draw(lane_addresses(width))
    return op, 16, draw(st.sampled_from([1, 2, 4])), draw(lane_addresses(16))
