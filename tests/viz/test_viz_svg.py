"""SVG pictures: well-formed XML, and the cells say what the layout says."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import cutepy
from cutepy import Layout, Swizzle, composition
from cutepy.core.errors import CutepyError
from cutepy.viz import (
    conflict_ways,
    divide_svg,
    layout_svg,
    product_svg,
    show,
    swizzle_bank_svg,
    tv_layout_svg,
    write_svg,
    xla_svg,
)
from cutepy.viz.colors import BANK_COLORS, PAD_COLOR, THREAD_COLORS

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def texts(svg: str, size: str | None = None, color: str | None = None) -> list[str]:
    """Text of every <text> in document order; with ``size``, only centred cell labels
    of that font size (dark, or grey with ``color``)."""
    out = []
    for g in parse(svg).iter(f"{NS}g"):
        if size is not None:
            if g.get("font-size") != size or g.get("text-anchor") != "middle":
                continue
            if g.get("fill") not in ((color,) if color else ("#111111", "#8a8a8a")):
                continue
        out += [t.text or "" for t in g.iter(f"{NS}text")]
    return out


def by_position(svg: str, size: str = "11", color: str | None = None) -> list[str]:
    """Like ``texts(svg, size)`` but ordered by position: top to bottom, left to right."""
    found = []
    for g in parse(svg).iter(f"{NS}g"):
        if g.get("font-size") != size or g.get("text-anchor") != "middle":
            continue
        if g.get("fill") not in ((color,) if color else ("#111111", "#8a8a8a")):
            continue
        found += [(float(t.get("y")), float(t.get("x")), t.text or "") for t in g.iter(f"{NS}text")]
    return [s for _, _, s in sorted(found)]


def cell_fills(svg: str) -> list[str]:
    """Fill of every filled rect drawn with the thin cell stroke, in document order."""
    out = []
    for g in parse(svg).iter(f"{NS}g"):
        if g.get("stroke") == "#a0a0a0":
            out += [r.get("fill") for r in g.iter(f"{NS}rect") if r.get("fill")]
    return out


def lines_of_width(svg: str, width: str) -> int:
    return sum(
        len(list(g.iter(f"{NS}line"))) for g in parse(svg).iter(f"{NS}g") if g.get("stroke-width") == width
    )


# -- layouts -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["(4,2):(2,1)", "((2,2),3):((24,2),8)", "(3,(2,4)):(236,(26,1))"])
def test_cells_hold_the_offsets_row_by_row(text: str) -> None:
    L = cutepy.parse(text)
    M, N = cutepy.size(L[0]), cutepy.size(L[1])
    svg = layout_svg(L)
    assert texts(svg, size="11") == [str(L(m, n)) for m in range(M) for n in range(N)]
    assert text in texts(svg)  # the title


def test_rank1_is_one_row_and_rank3_groups_columns() -> None:
    svg = layout_svg(Layout(6, 3))
    assert texts(svg, size="11") == ["0", "3", "6", "9", "12", "15"]
    L = Layout((2, 3, 2))
    svg = layout_svg(L)
    assert texts(svg, size="11") == [str(L(m + 2 * n)) for m in range(2) for n in range(6)]
    assert any("grouped" in t for t in texts(svg))


def test_nested_modes_get_coordinates_and_thicker_borders() -> None:
    svg = layout_svg(cutepy.parse("((2,2),(2,3)):((1,4),(2,8))"))
    labels = texts(svg)
    for coord in ["(0,0)", "(1,0)", "(0,1)", "(1,1)", "(1,2)"]:
        assert coord in labels
    # rows (2,2): a level-1 border before row 2; columns (2,3): before columns 2 and 4
    assert lines_of_width(svg, "1.3") == 3
    flat = layout_svg(Layout((4, 6), (6, 1)))
    assert lines_of_width(flat, "1.3") == 0 and "(1,0)" not in texts(flat)


def test_colour_schemes() -> None:
    L = Layout((4, 4), (4, 1))
    ramp = cell_fills(layout_svg(L))
    assert len(ramp) == 16 and len(set(ramp)) == 16
    bw = cell_fills(layout_svg(L, color="bw"))
    assert bw[:8] == ["#ffffff", "#999999", "#cccccc", "#666666", "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d"]
    mine = cell_fills(layout_svg(L, color=lambda m, n, v: "#123456" if v % 2 else "#654321"))
    assert mine == ["#654321", "#123456"] * 8
    assert set(cell_fills(layout_svg(L, color="none"))) == {"#ffffff"}
    with pytest.raises(CutepyError, match="unknown color"):
        layout_svg(L, color="rainbow")


def test_tiles_colour_and_border() -> None:
    R = cutepy.logical_divide(Layout((4, 6)), (Layout(2), Layout(3)))  # ((2,2),(3,2))
    svg = layout_svg(R, color="tile")
    fills = cell_fills(svg)
    assert len(set(fills)) == 4  # 2 x 2 tiles
    assert fills[0] == fills[1 * 6 + 2] != fills[0 * 6 + 3]
    assert lines_of_width(svg, "2.4") == 2  # one vertical, one horizontal tile border
    explicit = layout_svg(Layout((4, 4)), tile=(2, 2))
    assert lines_of_width(explicit, "2.4") == 2
    with pytest.raises(CutepyError, match="tile"):
        layout_svg(Layout((4, 4)), tile=(0, 2))


def test_identity_layouts_show_coordinates() -> None:
    svg = layout_svg(cutepy.make_identity_layout((2, 3)))
    assert texts(svg, size="11") == [f"({m},{n})" for m in range(2) for n in range(3)]


def test_composed_layout_pictures_and_values_without_drawing_code() -> None:
    C = composition(Swizzle(1, 0, 1), Layout((2, 4), (4, 1)))
    svg = layout_svg(C)
    assert texts(svg, size="11") == ["0", "1", "3", "2", "4", "5", "7", "6"]
    L = Layout((2, 2))
    assert not hasattr(L, "_repr_svg_") and not hasattr(C, "_repr_svg_")  # display is registered centrally
    assert repr(L) == "(2,2):(1,2)"  # text stays CuTe notation


def test_symbolic_layouts_are_refused_clearly() -> None:
    pytest.importorskip("sympy")
    from cutepy.symbolic import symbols

    with pytest.raises(CutepyError, match="symbol"):
        layout_svg(Layout((symbols("M", min=2), 2)))


def test_text_is_escaped() -> None:
    svg = layout_svg(Layout(2), title="a < b & c")
    assert "a &lt; b &amp; c" in svg and "a < b & c" in texts(svg)


# -- large layouts ------------------------------------------------------------------


def test_256x256_is_fast_small_and_marks_the_elision() -> None:
    L = Layout((256, 256), (1, 256))
    start = time.perf_counter()
    svg = layout_svg(L)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0
    assert len(svg.encode()) < 5_000_000
    labels = texts(svg)
    assert "\u22ef" in labels and ":" in labels  # column and row elision marks
    assert "showing 64 of 256 rows and 64 of 256 columns" in labels
    cells = texts(svg, size="11")
    assert cells[0] == "0" and cells[-1] == str(L(255, 255)) and len(cells) == 64 * 64


def test_huge_layouts_evaluate_only_what_is_shown() -> None:
    L = Layout((1 << 20, 1 << 20))
    start = time.perf_counter()
    svg = layout_svg(L, max_rows=8, max_cols=8)
    assert time.perf_counter() - start < 1.0
    assert str((1 << 20) - 1 + ((1 << 20) - 1) * (1 << 20)) in texts(svg, size="11")


def test_no_elision_when_asked() -> None:
    svg = layout_svg(Layout((70, 2)), max_rows=None)
    assert len(texts(svg, size="11")) == 140


# -- thread-value layouts -----------------------------------------------------------


def test_tv_cells_name_thread_and_value() -> None:
    # TV(t, v) = 2t + v into a 2x2 tile: cell (m, n) = index m + 2n = 2t + v -> t = n, v = m
    svg = tv_layout_svg(Layout((2, 2), (2, 1)), (2, 2))
    assert texts(svg, size="10") == ["T0", "V0", "T1", "V0", "T0", "V1", "T1", "V1"]
    fills = cell_fills(svg)
    assert fills == [THREAD_COLORS[0], THREAD_COLORS[1]] * 2


def test_tv_first_writer_wins_and_empty_cells_stay_blank() -> None:
    # both threads write the same two cells; a 2x2 tile leaves two cells empty
    svg = tv_layout_svg(Layout((2, 2), (0, 1)), (2, 2))
    labels = texts(svg, size="10")
    assert labels == ["T0", "V0", "T0", "V1"]
    assert "T1" not in labels


def test_tv_by_coordinates_and_bad_input() -> None:
    ident = cutepy.make_identity_layout((2, 2))
    tv = composition(ident, Layout((2, 2), (2, 1)))
    assert texts(tv_layout_svg(tv, (2, 2)), size="10") == texts(
        tv_layout_svg(Layout((2, 2), (2, 1)), (2, 2)), size="10"
    )
    with pytest.raises(CutepyError, match="outside"):
        tv_layout_svg(Layout((2, 2), (2, 1)), (2, 1))
    with pytest.raises(CutepyError, match="two modes"):
        tv_layout_svg(Layout(4), (2, 2))


def test_tv_128_threads_stays_readable() -> None:
    tv = Layout(((4, 32), (4, 8)), ((128, 1), (32, 512)))  # 128 threads x 32 values, 128x32 tile
    svg = tv_layout_svg(tv, (128, 32))
    assert ":" in texts(svg)  # rows elided
    assert len(svg) < 1_000_000


# -- swizzles and banks -----------------------------------------------------------


def test_bank_conflicts_before_and_after_the_swizzle() -> None:
    plain = Layout((8, 64), (64, 1))
    assert conflict_ways(plain.offsets(), (8, 64), 2).tolist() == [8] * 64
    sw = composition(Swizzle(3, 3, 3), plain)
    assert conflict_ways(sw.offsets(), (8, 64), 2).tolist() == [1] * 64
    svg = swizzle_bank_svg(sw, 2)
    labels = texts(svg)
    assert "without swizzle: (8,64):(64,1)" in labels
    assert "with swizzle: Sw<3,3,3> o 0 o (8,64):(64,1)" in labels
    assert "column accesses: worst 8-way conflict" in labels
    assert "column accesses: conflict-free" in labels
    assert labels.count("8x") == 64 and labels.count("1x") == 64
    fills = cell_fills(svg)
    assert set(fills) <= set(BANK_COLORS)
    # element (0, 2) of the unswizzled half tile is byte 4: bank 1
    assert texts(svg, size="11")[2] == "1"


def test_bank_options() -> None:
    L = Layout((4, 8), (8, 1))
    svg = swizzle_bank_svg(L, 4, swizzle=Swizzle(2, 0, 3), access="row")
    assert any("row accesses" in t for t in texts(svg))
    # 16-byte elements span four banks: a column of 8 covers 32 words
    assert conflict_ways(np.arange(8), (8, 1), 16).tolist() == [1]
    with pytest.raises(CutepyError):
        swizzle_bank_svg(L, 0)
    with pytest.raises(CutepyError):
        conflict_ways(L.offsets(), (4, 8), 4, access="diagonal")


# -- divides and products ----------------------------------------------------------


def test_divide_picture_shows_both_layouts_with_tiles() -> None:
    A = cutepy.parse("(9,(4,8)):(59,(13,1))")
    T = (cutepy.parse("3:3"), cutepy.parse("(2,4):(1,8)"))
    R = cutepy.logical_divide(A, T)
    svg = divide_svg(A, T)
    labels = texts(svg)
    assert f"A = {A}" in labels
    assert f"logical_divide(A, <3:3, (2,4):(1,8)>) = {R}" in labels
    assert lines_of_width(svg, "2.4") > 0
    cells = texts(svg, size="11")
    assert cells[: 9 * 32] == [str(A(m, n)) for m in range(9) for n in range(32)]
    assert cells[9 * 32:] == [str(R(m, n)) for m in range(9) for n in range(32)]
    # the tile colours agree: A's cell (0, 0) and R's cell (0, 0) are both tile 0
    fills = cell_fills(svg)
    assert fills[0] == fills[9 * 32]


@pytest.mark.parametrize("kind", ["zipped", "tiled", "flat"])
def test_other_divides(kind: str) -> None:
    A = Layout((4, 6))
    svg = divide_svg(A, (Layout(2), Layout(3)), kind=kind)
    assert any(t.startswith(f"{kind}_divide(A, <2:1, 3:1>)") for t in texts(svg))
    assert len(set(cell_fills(svg))) == 4


def test_one_dimensional_divide() -> None:
    svg = divide_svg(cutepy.parse("(4,2,3):(2,1,8)"), cutepy.parse("4:2"))
    assert "logical_divide(A, 4:2) = ((2,2),(2,3)):((4,1),(2,8))" in texts(svg)


@pytest.mark.parametrize("kind", ["blocked", "raked", "logical"])
def test_products_colour_each_copy(kind: str) -> None:
    A, B = cutepy.parse("(2,5):(5,1)"), cutepy.parse("(3,4):(1,3)")
    R = getattr(cutepy, f"{kind}_product")(A, B)
    svg = product_svg(A, B, kind)
    assert f"{kind}_product(A, B) = {R}" in texts(svg)
    fills = cell_fills(svg)
    assert len(set(fills[-R.size():])) == 12  # one colour per copy of A


def test_unknown_kinds() -> None:
    with pytest.raises(CutepyError):
        divide_svg(Layout(4), Layout(2), kind="diagonal")
    with pytest.raises(CutepyError):
        product_svg(Layout(4), Layout(2), kind="diagonal")


# -- XLA ------------------------------------------------------------------------------


def test_xla_figure_1() -> None:
    svg = xla_svg("f32[3,5]{1,0:T(2,2)}")
    labels = texts(svg)
    assert "f32[3,5]{1,0:T(2,2)}" in labels
    # the logical grid, padded to 4x6, row by row (spec figure 1 plus padding slots)
    logical = [
        "0", "1", "4", "5", "8", "9",
        "2", "3", "6", "7", "10", "11",
        "12", "13", "16", "17", "20", "21",
        "14", "15", "18", "19", "22", "23",
    ]
    assert by_position(svg) == logical
    grey = texts(svg, size="11", color="#8a8a8a")
    assert sorted(grey, key=int) == ["9", "11", "14", "15", "18", "19", "21", "22", "23"]
    memory = by_position(svg, size="10")
    assert memory[17] == "(2,3)" and memory[0] == "(0,0)" and memory[9] == "pad"
    assert memory.count("pad") == 9
    assert sum(f == PAD_COLOR for f in cell_fills(svg)) == 18


def test_xla_bf16_packing_and_sizes() -> None:
    svg = xla_svg("bf16[4,8]{1,0:T(2,4)(2,1)}")
    cells = by_position(svg)
    assert cells[:8] == ["0", "2", "4", "6", "8", "10", "12", "14"]
    assert cells[8:16] == ["1", "3", "5", "7", "9", "11", "13", "15"]
    assert any(t.startswith("bytes: dense 64") for t in texts(svg))


def test_xla_other_shapes() -> None:
    from cutepy.xla import parse_shape

    tup = parse_shape("(f32[2], s32[3]{0:T(2)})")
    labels = texts(xla_svg(tup))
    assert "element 0: f32[2]{0}" in labels and "element 1: s32[3]{0:T(2)}" in labels
    assert "f32[2,3,4]" in texts(xla_svg("f32[2,3,4]"))[0]
    assert "(1,2)" in texts(xla_svg("f32[2,3,4]"))  # rank 3: rows named by their leading index
    assert "token: no elements to draw" in texts(xla_svg("token[]"))
    assert texts(xla_svg("f32[]"), size="11") == ["0"]
    assert "b(f32[3]{0})" in xla_svg(parse_shape("b(f32[3]{0})"))


def test_xla_large_arrays_elide() -> None:
    start = time.perf_counter()
    svg = xla_svg("f32[1024,1024]{1,0:T(8,128)}")
    assert time.perf_counter() - start < 2.0
    assert len(svg) < 2_000_000 and "\u22ef" in texts(svg)


# -- show / write_svg ------------------------------------------------------------------


def test_show_dispatches(tmp_path: Path) -> None:
    tiler = (Layout(3, 4), Layout(8, 2))
    pic = show(tiler)
    assert pic._repr_svg_() == pic.svg == str(pic)
    assert "mode 0: 3:4" in texts(pic.svg) and "mode 1: 8:2" in texts(pic.svg)
    assert "tiler <3:4, 8:2>" in texts(pic.svg)
    assert show("(2,2):(1,2)").svg == layout_svg(Layout((2, 2)))
    assert show("<3:4, 8:2>").svg == pic.svg
    assert "f32[3,5]{1,0:T(2,2)}" in texts(show("f32[3,5]{1,0:T(2,2)}").svg)
    assert texts(show(np.array([[1, 2], [3, 4]])).svg, size="11") == ["1", "2", "3", "4"]
    out = tmp_path / "l.svg"
    write_svg(Layout((2, 2)), out, color="bw")
    assert out.read_text() == layout_svg(Layout((2, 2)), color="bw")
    write_svg("f32[4]{0:T(2)}", tmp_path / "x.svg")
    parse((tmp_path / "x.svg").read_text())
    with pytest.raises(CutepyError, match="cannot draw"):
        show(3.5)
