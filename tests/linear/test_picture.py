"""The picture of a linear layout: its bit matrix beside the CuTe picture, and its Jupyter display."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from cutepy.linear import LinearLayout, from_gluon, to_cute
from cutepy.viz import linear_layout_svg
from cutepy.viz.display import mimebundle
from cutepy.viz.linear import DIM_COLORS

BLOCKED = (
    "BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[2, 1], order=[1, 0], "
    "cga_layout=[])"
)


def _filled_cells(svg: str, color: str) -> int:
    return len(re.findall(rf'<rect [^>]*width="14" height="14" fill="{color}"', svg))


def test_the_bit_matrix_has_one_filled_cell_per_set_bit_of_each_input_dimension():
    L = from_gluon(BLOCKED, [16, 8])
    svg = linear_layout_svg(L)
    ET.fromstring(svg)  # well-formed
    for dim in ("lane", "warp"):
        want = sum(bin(x).count("1") for b in L.bases[dim] for x in b)
        assert _filled_cells(svg, DIM_COLORS[dim]) == want
    assert f"CuTe TV layout: {to_cute(L)}" in svg and "T0" in svg and "V1" in svg


def test_a_layout_cute_cannot_express_says_why_in_the_picture():
    L = LinearLayout({"register": [[1], [1]], "lane": [], "warp": [], "block": []}, [("dim0", 2)])
    svg = linear_layout_svg(L)
    assert "CuTe cannot express" in svg and "basis 1 of input dim" in svg


def test_jupyter_shows_a_linear_layout_as_a_picture():
    L = from_gluon({"kind": "NVMMASharedLayout", "swizzle_byte_width": 128, "element_bitwidth": 16}, [8, 64])
    b = mimebundle(L)
    assert sorted(b) == ["image/svg+xml", "text/html", "text/plain"]
    assert b["text/html"].startswith('<img src="data:image/svg+xml;base64,')
    assert "Sw&lt;3,3,3&gt;" in b["image/svg+xml"]
