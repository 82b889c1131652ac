"""Issue 25 on the pictures: near-64-bit layouts, huge tiles, arrays with no element.

A picture's indices are 64-bit integers, as a layout's are in C++: a layout whose cells'
1-D indices pass that is refused with a ``CutepyError``; offsets past int64 are shown as
Python integers; every per-cell allocation is checked against the element limit first;
what can be drawn is drawn (elided).
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cutepy
from cutepy import CutepyError, Layout, viz

NEAR_EDGE = Layout((4294967296, 2147483648, 2, 2**63 - 1), (2, -1, -1, 2**63 - 1))


@pytest.mark.parametrize("draw", [viz.layout_svg, viz.layout_table, viz.to_latex,
                                  lambda L: viz.print_layout(L, file=io.StringIO())])
def test_a_layout_past_64_bit_sizes_is_refused(draw):
    with pytest.raises(CutepyError):
        draw(NEAR_EDGE)


def test_a_tv_layout_of_2_to_the_63_values_is_refused_before_allocating():
    with pytest.raises(CutepyError, match="element limit"):
        viz.tv_layout_svg(Layout((2, 2**63 - 1), (-1, 0)), (3, 5))


def test_xla_pictures_at_the_edge():
    with pytest.raises(CutepyError, match="64-bit"):
        viz.xla_svg("f32[4,4]{1,0:T(4611686018427387904)}")
    svg = viz.xla_svg("f8e4m3fn[1,1000,1000,5,<=1000,0]{5,4,1,2,0,3}")  # no element: no 37 GiB table
    assert svg.startswith("<svg") or "<svg" in svg[:200]


def test_print_layout_is_exported_from_cutepy():
    buf = io.StringIO()
    cutepy.print_layout(Layout((2, 3), (3, 1)), file=buf)
    assert buf.getvalue().splitlines()[0] == "(2,3):(3,1)" and " 5 |" in buf.getvalue()
    assert cutepy.print_layout is viz.print_layout


EDGE = st.sampled_from([1, 2, 3, 2**31, 2**32, 2**62, 2**63 - 1])


@given(st.lists(EDGE, min_size=1, max_size=2), st.lists(st.sampled_from([0, 1, -1, 2**62, -(2**62)]),
                                                        min_size=2, max_size=2))
def test_pictures_of_near_64_bit_layouts_draw_or_refuse(shape, stride):
    L = Layout(tuple(shape), tuple(stride[: len(shape)]))
    size = 1
    for s in shape:
        size *= s
    for draw in (viz.layout_svg, viz.layout_table):
        if size - 1 <= 2**63 - 1:  # every cell's 1-D index is a 64-bit integer
            text = draw(L)
            assert isinstance(text, str) and len(text) < 2_000_000  # elided, not one cell per element
            assert str(L(0)) in text
        else:
            with pytest.raises(CutepyError, match="64-bit"):
                draw(L)
