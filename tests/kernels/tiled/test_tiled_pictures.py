"""SVG pictures of TiledMMA and TiledCopy: every (thread, value) cell drawn once, panels titled."""

from __future__ import annotations

import re

import pytest

import cutepy
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.atoms import copy_atom, mma_atom
from cutepy.kernels.tiled import make_tiled_copy, make_tiled_copy_A, make_tiled_mma
from cutepy.viz.tiled import tiled_copy_svg, tiled_mma_svg


def test_tiled_mma_svg_draws_a_b_and_c() -> None:
    mma = make_tiled_mma(mma_atom("SM80_16x8x8_F16F16F16F16_TN"), (2, 1, 1))
    svg = tiled_mma_svg(mma)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    for title in ("A  (32x8)", "B  (8x8, k down)", "C  (32x8)"):
        assert title in svg
    cells = re.findall(r">T(\d+)<", svg)
    # C: 32x8 cells, A: 32x8, B: 8x8 (first owner of each shared element)
    assert len(cells) == 32 * 8 + 32 * 8 + 8 * 8
    assert {int(t) for t in cells} == set(range(64))


def test_tiled_copy_svg_draws_source_and_destination() -> None:
    mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1))
    tc = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
    svg = tiled_copy_svg(tc)
    assert "source (32x16)" in svg and "destination (32x16)" in svg
    assert len(re.findall(r">T(\d+)<", svg)) == 2 * 32 * 16


def test_pictures_refuse_other_objects_and_huge_tiles() -> None:
    with pytest.raises(CutepyError):
        tiled_mma_svg(Layout(4))  # type: ignore[arg-type]
    with pytest.raises(CutepyError):
        tiled_copy_svg(make_tiled_mma(mma_atom("UniversalFMA")))  # type: ignore[arg-type]
    big = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((64, 64)), Layout((8, 8)))
    assert ">T4095<" in tiled_copy_svg(big)  # 262144 (thread, value) pairs: scanned as arrays, elided grid
    with cutepy.limits(max_elements=1 << 16), pytest.raises(CutepyError, match="element limit"):
        tiled_copy_svg(big)  # over the element limit: refused before scanning


def test_gmma_pictures_fit_the_limits() -> None:
    """Issue 21 item 11: a GMMA TiledMMA's A and B are held by all 128 threads (thread 0 shows as
    their first owner); the whole picture draws, its C alone too (operands='C'), and C++'s
    print_latex_tv of the C layout (whole print_latex: tests/viz/test_thread_pictures.py)."""
    import pytest

    from cutepy import CutepyError, make_tiled_mma, mma_atom
    from cutepy.viz import to_latex_tv
    from cutepy.viz.tiled import tiled_mma_svg

    mma = make_tiled_mma(mma_atom("SM90_64x256x16_F32BF16BF16_SS"))
    whole = tiled_mma_svg(mma)
    assert "A  (64x16)" in whole and "B  (16x256, k down)" in whole and ">T127<" in whole
    svg = tiled_mma_svg(mma, operands="C")
    assert "C  (64x256)" in svg and ">T127<" in svg
    tex = to_latex_tv(mma.tv_layout_C_tiled, (64, 256))
    assert tex.count("\\node") >= 64 * 256
    with pytest.raises(CutepyError, match="operands picks"):
        tiled_mma_svg(mma, operands="D")
