"""TMA and tensor-memory pictures: they render, and what they colour is what the copy does."""

from __future__ import annotations

import re

import pytest

from cutepy.algebra.products import tile_to_shape
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.kernels.atoms import gmma_smem_layout
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import make_tma_copy
from cutepy.viz.colors import bank_color, thread_color
from cutepy.viz.tma import tma_box_svg, tmem_svg


def _fills(svg: str) -> list[str]:
    return re.findall(r'<rect [^>]*fill="(#[0-9a-f]{6})"', svg)


def test_tma_box_colours_each_cta_half_of_a_multicast() -> None:
    g = make_tensor(gmem_ptr("bfloat16_t"), Layout((1024, 256), (256, 1)))
    s = tile_to_shape(gmma_smem_layout("K", 128, "bfloat16_t"), (128, 64))
    tma = make_tma_copy("SM90_TMA_LOAD_MULTICAST", g, s, cluster_size=2)
    fills = _fills(tma_box_svg(tma))
    n = 128 * 64
    gmem = fills[:n]
    assert gmem.count(thread_color(0)) == gmem.count(thread_color(1)) == n // 2


def test_tma_box_smem_panel_shows_the_swizzled_banks() -> None:
    g = make_tensor(gmem_ptr("half_t"), Layout((64, 64), (64, 1)))
    s = tile_to_shape(gmma_smem_layout("K", 128, "half_t"), (8, 64))
    fills = _fills(tma_box_svg(make_tma_copy("SM90_TMA_LOAD", g, s)))
    smem = fills[8 * 64: 2 * 8 * 64]
    # column 0 of the 8 rows: Sw<3,4,3> puts row r's first 16 bytes at chunk r, bank 4r
    col0 = [smem[m] for m in range(8)]
    assert col0 == [bank_color(4 * r) for r in range(8)]


def test_pictures_refuse_what_they_cannot_draw() -> None:
    with pytest.raises(CutepyError):
        tma_box_svg(Layout(4))
    with pytest.raises(CutepyError):
        tmem_svg(1024)
    assert tmem_svg(512, used=256).startswith("<svg")
