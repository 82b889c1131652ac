"""cutepy.viz.banks: the exact conflict count per column and the bank view picture."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy.algebra.composed import ComposedLayout
from cutepy.banks import analyze, analyze_layout
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.core.swizzle import Swizzle
from cutepy.viz.banks import bank_view_svg, conflict_ways, swizzle_bank_svg


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


@given(st.sampled_from([1, 2, 4, 8, 16]), st.integers(1, 70), st.integers(1, 3), st.data())
def test_conflict_ways_is_the_worst_phase_of_the_exact_rule(E, M, N, data) -> None:
    offs = np.array(data.draw(st.lists(st.integers(0, 2047), min_size=M * N, max_size=M * N)))
    ways = conflict_ways(offs, (M, N), E)
    for n in range(N):
        col = (offs[n * M:(n + 1) * M] * E).tolist()
        worst = 0
        for w in range(0, M, 32):
            lanes = col[w:w + 32] + [None] * (32 - len(col[w:w + 32]))
            worst = max([worst] + [p.wavefronts for p in analyze(lanes, "ld", bytes=E).phase_costs])
        assert ways[n] == worst


def test_conflict_ways_counts_phases_of_wide_loads() -> None:
    # 16 lanes x 16 B of one 256-byte run: four phases of 8 lanes, each 128 contiguous bytes
    assert conflict_ways(np.arange(16), (16, 1), 16).tolist() == [1]
    # the old approximation counted all lanes together: 2 words per bank for 8-byte loads
    assert conflict_ways(np.arange(32), (32, 1), 8).tolist() == [1]
    with pytest.raises(CutepyError, match="element_bytes"):
        conflict_ways(np.arange(4), (4, 1), 3)
    with pytest.raises(CutepyError, match="32 banks"):
        conflict_ways(np.arange(4), (4, 1), 4, banks=16)


def test_swizzle_bank_picture_states_the_rule() -> None:
    svg = swizzle_bank_svg(Layout((8, 64), (64, 1)), 2, swizzle=Swizzle(3, 3, 3))
    labels = texts(svg)
    assert "column accesses: worst 8-way conflict" in labels and "column accesses: conflict-free" in labels
    assert any("H100 rule" in t for t in labels)


def test_bank_view_shows_every_phase_and_wavefront() -> None:
    addrs = [0, 128, 256, 384, 512] + [4 * t for t in range(5, 32)]     # measured: 5 wavefronts
    svg = bank_view_svg(analyze(addrs, "ld", bytes=4))
    labels = texts(svg)
    assert "phase 0: lanes 0-31, 5 wavefronts" in labels
    assert [f"wave {k}" for k in range(5)] == [t for t in labels if t.startswith("wave")]
    assert "worst: bank 0 serves 5 words to lanes 0-4 (one wavefront each)" in labels
    # 32 bank headers, then one cell per lane (each lane reads one word of its own)
    cells = [t for t in labels if re.fullmatch(r"\d+(\+\d+)?", t)]
    assert cells[:32] == [str(b) for b in range(32)]
    assert sorted(map(int, cells[32:])) == list(range(32))


def test_bank_view_of_a_tile_picks_the_worst_instructions() -> None:
    smem = Layout((64, 64), (64, 1))
    tv = Layout(((8, 2, 2, 4), (8, 4)), ((1, 8, 512, 16), (64, 1024)))    # ldmatrix.x4 of the A tile
    r = analyze_layout(smem, tv, element_bytes=2, op="ldmatrix")
    labels = texts(bank_view_svg(r, max_instructions=1))
    assert "showing 1 of 16 instructions (worst)" in labels
    assert sum(t.startswith("phase ") for t in labels) == 4
    assert "phase 0: lanes 0-7, 8 wavefronts" in labels
    swizzled = analyze_layout(ComposedLayout(Swizzle(3, 3, 3), 0, smem), tv, element_bytes=2, op="ldmatrix")
    labels = texts(bank_view_svg(swizzled, max_instructions=2, which="first"))
    assert "phase 0: lanes 0-7, 1 wavefront" in labels and not any(t.startswith("worst") for t in labels)


def test_bank_view_refuses_bad_arguments() -> None:
    r = analyze([0] * 32, "ld", bytes=4)
    with pytest.raises(CutepyError, match="which"):
        bank_view_svg(r, which="best")
    with pytest.raises(CutepyError, match="max_instructions"):
        bank_view_svg(r, max_instructions=0)
    with pytest.raises(CutepyError, match="BankReport or a TileReport"):
        bank_view_svg("ld")
