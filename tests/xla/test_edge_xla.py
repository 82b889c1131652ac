"""Issue 25 on the XLA surface: tiles past 64 bits, huge buffers, the scalar shape.

A compiled layout obeys the 64-bit rule of every layout (else a ``CutepyError``); work that
would allocate the padded buffer checks its size first; a scalar compiles to C++'s rank-0
layout ``():()``, called with the empty coordinate as ``linear_index`` is.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy import CutepyError, Layout, xla
from cutepy.core.layout import MAX_LEAF
from cutepy.xla.reference import reference_buffer
from tests.fuzz.harness import fits64


def test_a_141_bit_stride_is_refused_when_compiling():
    text = "s32[1,1]{0,1:T(8)(2,*,1,2,8)(8,2,4611686018427387904,8,4611686018427387904)}"
    with pytest.raises(CutepyError, match="64-bit"):
        xla.compile_details(text)


def test_a_64_pib_buffer_is_a_refusal_not_a_memory_error():
    text = "s64[]{:T(4)(128,1099511627776,8,8)(128,4611686018427387904,4611686018427387904,256,8)}"
    for call in (lambda: xla.report(text), lambda: xla.compile_details(text)):
        with pytest.raises(CutepyError):
            call()
    from cutepy.cli import main

    assert main(["xla", text]) == 2


def test_a_scalar_padded_to_2_to_the_40_slots_is_reported_without_its_buffer():
    out = xla.report("u32[]{:T(1099511627776)}")
    assert "layout ():()" in out and "1,099,511,627,776 slots" in out
    with pytest.raises(CutepyError, match="element limit"):
        reference_buffer("u32[]{:T(1099511627776)}")


def test_packing_a_buffer_past_the_element_limit_is_refused():
    import numpy as np

    with pytest.raises(CutepyError, match="element limit"):
        xla.pack(np.zeros((), np.uint32), "u32[]{:T(1099511627776)}")
    small = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert xla.pack(small, "s32[2,3]{0,1}").tolist() == [0, 3, 1, 4, 2, 5]


def test_an_array_with_no_element_builds_no_table():
    arr = "f8e4m3fn[1,1000,1000,5,<=1000,0]{5,4,1,2,0,3}"
    assert xla.linear_indices(arr.replace("<=", "")).shape == (1, 1000, 1000, 5, 1000, 0)


@pytest.mark.parametrize("text", ["u32[]{:T(128)}", "u32[]", "f32[]{:T(256)}", "pred[]"])
def test_a_scalar_compiles_to_the_rank_0_layout(text):
    L = xla.to_cute(text)
    assert L == Layout((), ()) and L.size() == 1
    assert L(()) == xla.linear_index(text, ()) == 0
    c = xla.compile_details(text)
    assert c(()) == 0 and c.offsets().tolist() == 0 and str(xla.from_cute(c)) == "{}"


BIG = st.sampled_from([1, 2, 8, 128, 2**20, 2**31, 2**40, 2**61, 2**62])


@given(st.lists(st.integers(1, 4), min_size=1, max_size=2), st.lists(BIG, min_size=1, max_size=2))
def test_compiled_xla_layouts_obey_the_64_bit_rule(dims, tile):
    tile = tile[: len(dims)]
    text = f"f32[{','.join(map(str, dims))}]{{{','.join(map(str, reversed(range(len(dims)))))}:" \
           f"T({','.join(map(str, tile))})}}"
    try:
        c = xla.compile_details(text)
    except CutepyError:
        c = None
    if c is not None:
        layouts = [c.layout] if isinstance(c.layout, Layout) else list(c.layout.stages)
        assert fits64(tuple(layouts)), f"{text} compiled to {c.layout}"
        zero = (0,) * len(dims)
        assert c(*zero) == xla.linear_index(text, zero)
        last = tuple(d - 1 for d in dims)
        assert c(*last) == xla.linear_index(text, last)
    else:  # refused only where the buffer's offsets pass 64 bits
        assert xla.buffer_elements(text) > MAX_LEAF, f"{text} was refused"
