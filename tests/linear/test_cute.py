"""to_cute / from_cute: the same function at every input, round trips, swizzles as F2 maps.

Every Gluon layout Triton built (the stored oracle) whose function CuTe can express goes to
a CuTe value whose offsets at every (thread, value) or offset equal Triton's; the only
refusals are shared layouts that put one element at several offsets (broadcast blocks,
fp4 padding, swizzle-0 column padding, the TMA block sizes a transposed unswizzled NVMMA layout
of rank > 2 puts on the wrong dims), which no coordinate -> offset layout can be; each refusal
names the basis and its input dim.
"""

from __future__ import annotations

import collections
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy import CutepyError, Layout, Swizzle
from cutepy.algebra.composed import ComposedLayout
from cutepy.core.evaluate import offsets
from cutepy.equivalence.gf2 import as_xor_map
from cutepy.linear import LinearLayout, from_cute, to_cute
from cutepy.linear.convert import bit_columns, find_swizzle_of, swizzles
from tests.linear.oracle import accepted_cases, stored_layout
from tests.linear.strategies import invertible_layouts, linear_cute_layouts, linear_layouts
from tests.linear.tables import ll_table

DIST = ["lane", "warp", "block", "register"]


def check_same_function(L: LinearLayout, T) -> None:
    """``T`` (to_cute's answer) and ``L`` agree at every input."""
    if "offset" in L.in_dims:
        coords = ll_table(L, ["offset", "block"])  # offset (block bits on top) -> flat coordinate
        assert np.array_equal(offsets(T)[coords], np.arange(coords.size))
    else:
        assert np.array_equal(offsets(T), ll_table(L, DIST))  # thread fastest, then value


def round_trip(L: LinearLayout, T):
    if "offset" in L.in_dims:
        return from_cute(T, kind="shared", shape=list(L.out_dims.values()), blocks=L.in_dims["block"])
    return from_cute(
        T, shape=list(L.out_dims.values()), warp_size=L.in_dims["lane"], blocks=L.in_dims["block"]
    )


def test_every_triton_layout_cute_can_express_has_the_same_function_and_round_trips():
    seen = collections.Counter()
    for case in accepted_cases():
        L = stored_layout(case)
        try:
            T = to_cute(L)
        except CutepyError as e:
            assert "offset" in L.in_dims and not L.is_injective(), case["text"]
            named = r"basis \d+ of input dim '(offset|block)'.*repeats what earlier bases reach"
            assert re.search(named, str(e))
            seen["refused: several offsets per element"] += 1
            continue
        check_same_function(L, T)
        assert round_trip(L, T) == L
        seen[(case["family"], type(T).__name__)] += 1
        seen[(case.get("focus"), type(T).__name__)] += 1
    assert (
        seen[("SwizzledSharedLayout", "ComposedLayout")] > 5
        and seen[("NVMMASharedLayout", "ComposedLayout")] > 5
    )
    # the focused families: transposed unswizzled rank > 2 NVMMA layouts whose TMA sizes land on
    # their own dims are plain layouts; swizzled rank-3 ones swizzled layouts
    assert seen[("nvmma_unswizzled_transposed", "Layout")] >= 5
    assert seen[("nvmma_swizzled_rank3", "ComposedLayout")] >= 20
    assert seen[("slice_of_rank3", "Layout")] == seen[("mfma_transposed", "Layout")] == 40
    assert all(
        seen[(f, "Layout")] > 30
        for f in (
            "BlockedLayout",
            "NVMMADistributedLayout",
            "DotOperandLayout",
            "SliceLayout",
            "AMDMFMALayout",
        )
    )


def check_or_refused(L: LinearLayout, refusal: str) -> None:
    """``to_cute(L)`` is the same function and round trips, or it refuses with ``refusal``."""
    try:
        T = to_cute(L)
    except CutepyError as e:
        assert refusal in str(e)
        return
    check_same_function(L, T)
    assert round_trip(L, T) == L


@given(linear_layouts())
def test_to_cute_of_a_random_distributed_layout_is_the_same_function(L):
    check_or_refused(L, "shares output bits")


@given(invertible_layouts())
def test_to_cute_of_a_random_shared_bijection(L):
    check_or_refused(L, "no CuTe swizzle separates them")


@given(linear_cute_layouts())
def test_from_cute_of_a_linear_tv_layout_then_to_cute_gives_the_same_function(arg):
    T, nbits, out_bits = arg
    shape = [1 << max(out_bits, 1)]
    L = from_cute(T, shape=shape)
    assert np.array_equal(ll_table(L, DIST), offsets(T))
    assert from_cute(to_cute(L), shape=shape) == L


def test_swizzles_are_f2_maps_and_to_cute_recognises_every_one():
    for sw in swizzles(7):
        M = from_cute(sw)
        n = M.in_dims["offset"]
        assert [M(offset=x)[0] for x in range(n)] == [sw(x) for x in range(n)]
        assert M.is_invertible() and M.invert() == M  # a swizzle is an involution
        # the swizzled layout Sw o 0 o (n):(1) read back is the same map, and to_cute finds Sw
        L = from_cute(ComposedLayout(sw, 0, Layout(n, 1)), kind="shared", shape=[n])
        T = to_cute(L)
        check_same_function(L, T)
        assert offsets(T).tolist() == [sw(x) for x in range(n)]


def test_find_swizzle_prefers_none_then_fewest_bits():
    assert find_swizzle_of([1, 2, 4], 3) == Swizzle(0, 0, 0)
    assert find_swizzle_of([1, 2, 1 | 8, 2 | 16], 5) == Swizzle(2, 0, 3)  # Sw<2,0,3> o (4,4):(1,8)
    assert find_swizzle_of([1, 1], 2) is None


@pytest.mark.parametrize(
    "layout, kwargs, match",
    [
        (Layout((3, 2), (1, 4)), {"shape": [16]}, r"mode \[0\].*power of two"),
        (Layout((2, 2), (1, 1)), {"shape": [4]}, r"mode \[1\].*not linear"),
        (Layout((2, 2), (-1, 2)), {"shape": [4]}, "negative stride"),
        (Layout((4, 2), (1, 4)), {"shape": [4]}, "outside the tensor"),
        (Layout((2, 2, 2), (1, 2, 4)), {"shape": [8]}, "rank 2"),
        (ComposedLayout(Swizzle(1, 0, 1), 1, Layout((2, 2), (1, 2))), {"shape": [4]}, "not linear"),
        (Layout((4, 4), (1, 4)), {"kind": "shared", "shape": [4, 2]}, "coordinates"),
        (Layout((2, 2), (2, 2)), {"kind": "shared"}, "not linear"),
        (Layout((2, 2), (1, 4)), {"kind": "shared"}, "not a bijection"),
        (Layout((2, 2), (1, 2)), {"kind": "nope"}, "kind"),
    ],
)
def test_from_cute_names_what_is_not_linear(layout, kwargs, match):
    with pytest.raises(CutepyError, match=match):
        from_cute(layout, **kwargs)


def test_to_cute_names_the_basis_cute_cannot_express():
    L = LinearLayout({"register": [[1], [1]], "lane": [], "warp": [], "block": []}, [("dim0", 2)])
    with pytest.raises(CutepyError, match="basis 1 of input dim 'register'"):
        to_cute(L)
    S = LinearLayout({"offset": [[1], [0]], "block": []}, [("dim0", 2)])
    with pytest.raises(CutepyError, match="basis 1 of input dim 'offset'"):
        to_cute(S)
    with pytest.raises(CutepyError, match="input dims"):
        to_cute(LinearLayout({"x": [[1]]}, [("dim0", 2)]))


@given(
    st.lists(st.tuples(st.sampled_from([1, 2, 4]), st.integers(0, 40)), min_size=1, max_size=4),
    st.sampled_from([None, Swizzle(1, 0, 2), Swizzle(2, 1, 3)]),
)
def test_one_home_for_a_layouts_f2_columns(modes, sw):
    """``bit_columns`` (from_cute's) and ``as_xor_map`` (the equivalence checker's) are one
    computation: where either reads a layout, the XOR of its columns is the layout's offset at
    every index; a layout whose steps' bits are pairwise disjoint is always read."""
    L = Layout(tuple(s for s, _ in modes), tuple(d for _, d in modes))
    F = L if sw is None else ComposedLayout(sw, 0, L)
    steps = [d << j for s, d in modes for j in range(s.bit_length() - 1)]
    disjoint = all(a & b == 0 for i, a in enumerate(steps) for b in steps[i + 1 :])
    m = as_xor_map(F)
    assert (m is not None) == disjoint
    if m is not None:
        assert list(m.columns) == bit_columns(F, "F")
        assert [m(i) for i in range(len(offsets(F)))] == offsets(F).tolist()
