"""cutepy.banks.tile: TV layouts and TiledCopies against measured H100 instructions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cutepy.algebra.composed import ComposedLayout
from cutepy.banks import analyze, analyze_copy, analyze_layout
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.core.swizzle import Swizzle
from cutepy.notation import parse
from tests.banks.banks_copies import tiled_copy

SAMPLES = json.loads((Path(__file__).parents[1] / "data" / "smem_bank_samples.json").read_text())["records"]
CP_ASYNC_16B = tiled_copy("cp_half_k64")
LDSM_X4_A = tiled_copy("ldsm_half_a")
LDSM_T_A = tiled_copy("ldsmt_half_a")
LAYOUT_SAMPLES = [r for r in SAMPLES if r.get("tv_layout")]


@pytest.mark.parametrize("k", range(len(LAYOUT_SAMPLES)))
def test_layout_driven_measurements_are_reproduced_from_the_layouts(k: int) -> None:
    rec = LAYOUT_SAMPLES[k]
    r = analyze_layout(parse(rec["smem_layout"]), parse(rec["tv_layout"]), element_bytes=rec["element_bytes"],
                       vector_elems=rec["vector_elems"], op=rec["op"])
    assert len(r.instructions) == 1
    assert list(r.instructions[0].report.addresses) == rec["addresses"]
    assert r.wavefronts == rec["measured"]["wavefronts"]
    assert r.bank_conflicts == rec["measured"]["bank_conflicts"]


# ldmatrix/stmatrix samples: lane t points at row t % 8 of matrix j = t // 8, matrix j the 8x8
# block (j % 2, j // 2) of a 16x16 block; the TV layouts below say that in CuTe (fp16).
MATRIX_TVS = {
    # rows along n (K-major (m, n) tile, index m + M n): m = t%8 + 8 (j%2), n = 8 (j//2) + v
    ("Sw<3,3,3> o 0 o (16,64):(64,1)", 4): "((8,2,2),8):((1,8,128),16)",
    ("(128,64):(64,1)", 4): "((8,2,2),8):((1,8,1024),128)",
    ("Sw<2,3,3> o 0 o (16,64):(64,1)", 2): "((8,2,2),8):((1,8,128),16)",
    # rows along m (the .trans use): n = t%8 + 8 (j%2), m = 8 (j//2) + v
    ("Sw<3,3,3> o 0 o (128,64):(1,128)", 4): "((8,2,2),8):((128,1024,8),1)",
}


@pytest.mark.parametrize("key", list(MATRIX_TVS))
@pytest.mark.parametrize("op", ["ldmatrix", "stmatrix"])
def test_matrix_measurements_are_reproduced_from_a_tv_layout(key, op) -> None:
    smem_text, n = key
    recs = [r for r in SAMPLES if r["op"] == op and r["width"] == n and r.get("smem_layout") == smem_text]
    tv = parse(MATRIX_TVS[key])
    r = analyze_layout(parse(smem_text), tv, element_bytes=2, op=op, matrices=n)
    got = list(r.instructions[0].report.addresses)
    for rec in recs:
        assert got[: 8 * n] == rec["addresses"][: 8 * n]
        measured = rec["measured"]
        assert (r.wavefronts, r.bank_conflicts) == (measured["wavefronts"], measured["bank_conflicts"])


def test_matrices_are_inferred_from_repeating_rows() -> None:
    x1 = parse("((8,4),8):((1,0),8)")        # like C++ SM75_U32x1_LDSM_N: lanes 8.. repeat lanes 0..7
    r = analyze_layout(Layout((8, 64), (64, 1)), x1, element_bytes=2, op="ldmatrix")
    # rows 128 B apart: the measured "ldmatrix.x1: lane t points at 128*(t%8)" costs 8 wavefronts
    measured = next(r for r in SAMPLES if r["what"].startswith("ldmatrix.x1: lane t points at 128*(t%8)"))
    assert r.instruction == "ldmatrix.x1" and r.wavefronts == measured["measured"]["wavefronts"]


@given(st.integers(1, 4), st.sampled_from([1, 2, 4]), st.integers(1, 9), st.integers(1, 2))
def test_each_instruction_is_the_warp_formula(warps, V, s, vectors) -> None:
    smem = ComposedLayout(Swizzle(2, 2, 3), 0, Layout((64, 128), (1, 64)))   # index i -> Sw(i)
    stride = V * s
    tv = Layout((32 * warps, V * vectors), (stride, 1))
    r = analyze_layout(smem, tv, element_bytes=4, vector_elems=V, partial=True)
    assert r.warps == warps and len(r.instructions) == warps * vectors
    for ins in r.instructions:
        lanes = [smem(stride * (32 * ins.warp + t) + V * ins.vector) * 4 for t in range(32)]
        assert ins.report == analyze(lanes, "ld", bytes=4 * V)
    per_warp = r.per_warp()
    assert [w[0] for w in per_warp] == list(range(warps))
    assert r.wavefronts == sum(w[2] for w in per_warp) and r.ideal == sum(w[3] for w in per_warp)


def test_values_split_into_one_instruction_per_vector() -> None:
    smem = Layout((32, 32), (32, 1))                     # fp32 rows of 128 B
    tv = Layout((32, 8), (1, 32))                        # lane t: row t, 8 consecutive values
    r = analyze_layout(smem, tv, element_bytes=4, vector_elems=4)
    assert [i.vector for i in r.instructions] == [0, 1]
    # every instruction: 8 lanes per phase, rows 128 B apart, all in banks 0-3 (k) : 8 words per bank
    direct = analyze([128 * t + 16 for t in range(32)], "ld", bytes=16)
    assert r.instructions[1].report == direct
    assert r.wavefronts == 2 * 32


def test_partial_warps_have_inactive_lanes() -> None:
    r = analyze_layout(Layout((32, 32), (32, 1)), Layout(40, 1), element_bytes=4, partial=True)
    assert r.warps == 2
    assert r.instructions[1].report.addresses[8:] == (None,) * 24
    assert r.instructions[1].report.phase_costs[0].lanes == tuple(range(8))


def test_copy_of_an_sm80_tile_costs_every_instruction() -> None:
    smem = Layout((64, 64), (64, 1))
    cp = analyze_copy(CP_ASYNC_16B, smem)
    ld = analyze_copy(LDSM_X4_A, smem)
    # cp.async: a (16,64) tile, 4 times over; 128 threads = 4 warps; one 16 B store each
    assert (len(cp.instructions), cp.warps, cp.ideal, cp.wavefronts) == (16, 4, 64, 64)
    # ldmatrix.x4 on 128-byte rows: each 8-row matrix in one bank group, as the H100 sample
    # "(128,64):(64,1) ldmatrix.x4" measured: 32 wavefronts per instruction, 8 tiles x 4 warps
    assert (len(ld.instructions), ld.ideal, ld.wavefronts) == (32, 128, 32 * 32)
    sw = ComposedLayout(Swizzle(3, 3, 3), 0, smem)
    assert analyze_copy(LDSM_X4_A, sw).bank_conflicts == 0
    assert analyze_copy(CP_ASYNC_16B, sw).bank_conflicts == 0
    text = str(ld)
    assert "SM75_U32x4_LDSM_N (src = shared memory)" in text and "ldmatrix.x4: 1024 wavefronts" in text


def test_a_copy_repeats_over_extra_modes_of_the_buffer() -> None:
    smem = Layout((64, 64, 3), (64, 1, 4096))           # three pipeline stages of the tile
    one = analyze_copy(LDSM_X4_A, Layout((64, 64), (64, 1)))
    three = analyze_copy(LDSM_X4_A, smem)
    assert len(three.instructions) == 3 * len(one.instructions)
    assert three.wavefronts == 3 * one.wavefronts
    with pytest.raises(CutepyError, match="does not tile"):
        analyze_copy(LDSM_X4_A, Layout((64, 72), (72, 1)))
    with pytest.raises(CutepyError, match="more modes"):
        analyze_copy(LDSM_X4_A, Layout(8192, 1))


def test_transposed_ldmatrix_of_an_mn_major_tile() -> None:
    smem = Layout((64, 64), (1, 64))                   # A tile (m, k), m contiguous
    plain = analyze_copy(LDSM_T_A, smem)
    swizzled = analyze_copy(LDSM_T_A, ComposedLayout(Swizzle(3, 3, 3), 0, smem))
    assert plain.bank_conflicts > 0 and swizzled.bank_conflicts == 0
    assert plain.ideal == swizzled.ideal == 4 * len(plain.instructions)


def test_vectors_must_stay_consecutive_and_aligned() -> None:
    smem = ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 64), (64, 1)))
    with pytest.raises(CutepyError, match="not consecutive"):
        analyze_layout(smem, Layout((8, 8), (64, 1)), element_bytes=2, vector_elems=8)
    with pytest.raises(CutepyError, match="aligned"):
        analyze_layout(Layout(128, 1), Layout((32, 2), (3, 1)), element_bytes=2, vector_elems=2, op="ld")
    with pytest.raises(CutepyError, match="do not split"):
        analyze_layout(Layout(64, 1), Layout((32, 2), (2, 1)), element_bytes=2, vector_elems=4)


def test_bad_tile_arguments_are_refused() -> None:
    with pytest.raises(CutepyError, match="element_bytes"):
        analyze_layout(Layout(64, 1), Layout(32, 1), element_bytes=3)
    with pytest.raises(CutepyError, match="beyond"):
        analyze_layout(Layout(16, 1), Layout(32, 1), element_bytes=4)
    with pytest.raises(CutepyError, match="row is 16 bytes"):
        analyze_layout(Layout(512, 1), Layout((32, 4), (4, 1)), element_bytes=2, vector_elems=4,
                       op="ldmatrix")
    with pytest.raises(CutepyError, match="not a TiledCopy"):
        analyze_copy(Layout(32, 1), Layout(64, 1))
    with pytest.raises(CutepyError, match="does not tile"):
        analyze_copy(CP_ASYNC_16B, Layout((24, 64), (64, 1)))


def test_the_cli_lines_are_stable() -> None:
    # cutepy's CLI prints report.summary() (one line) or str(report) (a table)
    smem, tv = parse("Sw<3,4,3> o 0 o (32,32):(32,1)"), parse("((4,8),1):((32,1),0)")
    r = analyze_layout(smem, tv, element_bytes=2, vector_elems=1, op="ld")
    assert r.summary() == "ld 2 B: 2 wavefronts, ideal 1, 1 bank conflict (1 instruction, 1 warp)"
    lines = str(r).splitlines()
    assert lines[0] == "ld 2 B of Sw<3,4,3> o 0 o (32,32):(32,1) by ((4,8),1):((32,1),0)"
    assert lines[1] == r.summary()
    assert lines[2].split() == ["tile", "warp", "vector", "wavefronts", "ideal", "conflicts",
                                "worst", "phase:", "lanes", "->", "bank"]
    assert lines[3].split()[:6] == ["0", "0", "0", "2", "1", "1"] and len(lines) == 4


def test_analyze_copy_takes_its_direction_from_the_side_shared_memory_is_on() -> None:
    """A UniversalCopy into shared memory is a store, out of it a load; ldmatrix cannot write it."""
    from cutepy.kernels.atoms import copy_atom
    from cutepy.kernels.tiled.copy import make_tiled_copy

    cp = make_tiled_copy(copy_atom("UniversalCopy<uint128_t>", 16), Layout((8, 16), (16, 1)), Layout((1, 8)))
    smem = Layout((8, 128), (128, 1))
    st, ld = analyze_copy(cp, dst=smem), analyze_copy(cp, src=smem)
    assert {i.report.op for i in st.instructions} == {"st"}
    assert {i.report.op for i in ld.instructions} == {"ld"}
    assert analyze_copy(cp, smem).instructions[0].report.op == "ld"   # the atom's own default
    with pytest.raises(CutepyError, match="once"):
        analyze_copy(cp, smem, dst=smem)


def test_a_cta_layout_covering_part_of_the_tile_is_refused() -> None:
    """Issue 21: 64 threads reading half of a 32 x 32 tile would report half the tile's cost."""
    with pytest.raises(CutepyError, match="reaches 64 of the 1024 elements"):
        analyze_layout(Layout((32, 32), (32, 1)), Layout(64, 1), element_bytes=4)
    whole = analyze_layout(Layout((32, 32), (32, 1)), Layout((64, 16), (1, 64)), element_bytes=4)
    assert len(whole.instructions) == 2 * 16


@given(st.sampled_from(["SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>",
                        "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "UniversalCopy<uint32_t>",
                        "SM75_U32x4_LDSM_N"]),
       st.integers(0, 3), st.sampled_from([32, 64]), st.sampled_from(["src", "dst"]))
def test_a_reports_totals_are_its_instructions_sums(name, bits, bK, side) -> None:
    """The totals a report computes at once (numpy) are the sums of its instructions' reports."""
    from cutepy import composition, copy_atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma, mma_atom
    from cutepy.algebra.products import tile_to_shape

    smem = tile_to_shape(composition(Swizzle(bits, 3, 3), Layout((8, bK), (bK, 1))), (64, bK))
    if "LDSM" in name:
        mma = make_tiled_mma(mma_atom("SM80_16x8x16_F16F16F16F16_TN"), (2, 2, 1), (32, 32, 16))
        tc, side = make_tiled_copy_A(copy_atom(name, 16), mma), "src"
    else:
        side = "dst" if "CP_ASYNC" in name else side  # cp.async writes shared memory
        vec = int(name.split("uint")[1].split("_")[0]) // 16
        tc = make_tiled_copy(copy_atom(name, 16), Layout((128 // (bK // vec), bK // vec), (bK // vec, 1)),
                             Layout((1, vec)))
    r = analyze_copy(tc, **{side: smem})
    detail = [i.report for i in r.instructions]
    sums = (sum(x.wavefronts for x in detail), sum(x.ideal for x in detail), sum(x.phases for x in detail))
    assert (r.wavefronts, r.ideal, r.phases) == sums
    assert r == analyze_copy(tc, **{side: smem}) and r.wavefronts >= r.ideal
