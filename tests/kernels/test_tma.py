"""make_tma_copy / make_tma_atom against C++ CuTe (CUTLASS 4.7) on seeded random configurations
(tests/data/tma_cxx.jsonl, made by tests/kernels/tma_cxx.py with a stub cuTensorMapEncodeTiled),
and the TMA helpers (tma_partition, create_tma_multicast_mask, pointers, the pointer-flag form).
"""

from __future__ import annotations

from collections import Counter

import pytest

from cutepy.algebra.composed import ComposedLayout
from cutepy.algebra.products import tile_to_shape
from cutepy.core.dynamic import dynamic
from cutepy.core.errors import CutepyError
from cutepy.core.layout import Layout
from cutepy.core.swizzle import SmemPtrFlag, Swizzle
from cutepy.kernels.atoms import gmma_smem_layout
from cutepy.kernels.pointer import as_position_independent_swizzle_layout, gmem_ptr, smem_ptr, tmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import (
    TmaTiledCopy,
    create_tma_multicast_mask,
    make_tma_copy,
)
from cutepy.notation import parse
from tests.kernels import tma_cxx

ROWS = tma_cxx.read_rows() if tma_cxx.FILE.is_file() else []
SAMPLE = ROWS[::6]
#: configurations with a TmaInternalType (tests/data/tma_internal_cxx.jsonl)
ROWS_INTERNAL = tma_cxx.read_rows(tma_cxx.FILE_INTERNAL) if tma_cxx.FILE_INTERNAL.is_file() else []
#: gmem layouts mixing static and run-time leaves, extent-1 modes among them (tma_mixed_cxx.jsonl)
ROWS_MIXED = tma_cxx.read_rows(tma_cxx.FILE_MIXED) if tma_cxx.FILE_MIXED.is_file() else []
#: GMMA smem layouts for another element width than the gmem tensor's (tma_width_cxx.jsonl)
ROWS_WIDTH = tma_cxx.read_rows(tma_cxx.FILE_WIDTH) if tma_cxx.FILE_WIDTH.is_file() else []


def _refused_by_cxx(row: dict) -> str | None:
    if not row["ok"]:
        return row.get("error", "C++ did not compile")
    if row.get("aborted"):
        return "a C++ assert failed while building the descriptor"
    if row.get("driver_rejects"):
        return "the driver's documented rules reject C++'s descriptor: " + row["driver_rejects"]
    return None


def _same_tensor(got, text: str) -> bool:
    """``str(got) == text``: C++'s nesting too (the folded TMA modes' scale is a run-time
    ``int32_t`` in C++ and a :func:`cutepy.dynamic` integer here, so neither merges those modes)."""
    return str(got) == text


def _overhangs_an_extent_1_mode(case: dict) -> bool:
    """The tile is longer than 1 along a gmem mode of extent 1: C++ folds the mode away and its
    TMA reloads (or overwrites) index 0 there, where it should clip (measured on an H200,
    tests/kernels/test_tma_hardware.py); cutepy refuses."""
    return any(s == 1 and t > 1 for s, t in zip(case["shape"], case["tile"]))


def check_row(row: dict) -> str:
    """Compare cutepy with one stored C++ answer; returns the outcome ('built', 'refused', or
    'C++ wrong' where C++ builds a TMA that moves the wrong elements and cutepy refuses)."""
    case = row["case"]
    if _refused_by_cxx(row) is None and _overhangs_an_extent_1_mode(case):
        with pytest.raises(CutepyError, match="overhangs a gmem mode of extent 1"):
            tma_cxx.build(case)
        return "C++ wrong"
    why = _refused_by_cxx(row)
    if why is not None:
        with pytest.raises(CutepyError):
            tma_cxx.build(case)
        return "refused"
    obj = tma_cxx.build(case)
    d = obj.descriptor
    got = {k: list(v) if isinstance(v, tuple) else v for k, v in vars(d).items()}
    assert got == row["descriptor"], case
    sec = row["sections"]
    if case["api"] == "copy":
        assert isinstance(obj, TmaTiledCopy)
        assert str(obj) == sec["TILED"], case
        tt = obj.get_tma_tensor(tuple(case["shape"]))
        assert str(tt) == sec["TENSOR"], case
        sl = tma_cxx.smem_layout(case)
        for t in sorted({0, case["cluster"] - 1}):
            thr = obj.get_slice(t)
            assert _same_tensor(thr.partition_S(tt), sec[f"S{t}"]), (case, t)
            s = make_tensor(smem_ptr(case.get("smem_dtype", case["dtype"]), 0x400), sl)
            assert str(thr.partition_D(s)) == sec[f"D{t}"], (case, t)
    else:
        assert str(obj) == sec["ATOM"], case
        assert str(obj.get_tma_tensor(tuple(case["shape"]))) == sec["TENSOR"], case
    assert str(obj.gbasis) == sec["GBASIS"], case
    return "built"


@pytest.mark.skipif(not ROWS, reason="tests/data/tma_cxx.jsonl is missing")
@pytest.mark.parametrize("i", range(len(SAMPLE)))
def test_tma_sample_equals_cxx(i: int) -> None:
    check_row(SAMPLE[i])


@pytest.mark.slow
@pytest.mark.skipif(not ROWS, reason="tests/data/tma_cxx.jsonl is missing")
def test_tma_all_stored_configurations_equal_cxx() -> None:
    counts: Counter = Counter()
    for row in ROWS:
        counts[(tma_cxx.family(row["case"]), check_row(row))] += 1
    assert sum(counts.values()) == len(ROWS)


@pytest.mark.skipif(not ROWS_INTERNAL, reason="tests/data/tma_internal_cxx.jsonl is missing")
@pytest.mark.parametrize("i", range(0, len(ROWS_INTERNAL), 4))
def test_tma_internal_type_sample_equals_cxx(i: int) -> None:
    """make_tma_copy<TmaInternalType>: C++ recasts the gmem tensor to the internal type; a wider one
    gives the TMA tensor a fractional stride (C++'s ``1/2@0``), and C++'s refusals are refused."""
    check_row(ROWS_INTERNAL[i])


@pytest.mark.slow
@pytest.mark.skipif(not ROWS_INTERNAL, reason="tests/data/tma_internal_cxx.jsonl is missing")
def test_tma_internal_type_all_stored_configurations_equal_cxx() -> None:
    counts: Counter = Counter(check_row(row) for row in ROWS_INTERNAL)
    assert sum(counts.values()) == len(ROWS_INTERNAL)


def _static_extent_1_overhang(case: dict) -> bool:
    """The tile crosses a gmem mode of static extent 1 (C++ drops the mode; cutepy refuses)."""
    dyn = case.get("dyn_shape", [False] * len(case["shape"]))
    return any(s == 1 and not d and t > 1 for s, d, t in zip(case["shape"], dyn, case["tile"]))


def check_mixed_row(row: dict) -> str:
    """Compare cutepy with C++'s exact prints (``_N`` static, ``N`` run-time) of a configuration
    whose gmem layout mixes static and run-time extents and strides."""
    case = row["case"]
    why = _refused_by_cxx(row)
    if why is None and _static_extent_1_overhang(case):
        with pytest.raises(CutepyError, match="overhangs a gmem mode of extent 1"):
            tma_cxx.build(case)
        return "C++ wrong"
    if why is not None:
        with pytest.raises(CutepyError):
            tma_cxx.build(case)
        return "refused"
    obj = tma_cxx.build(case)
    got = {k: list(v) if isinstance(v, tuple) else v for k, v in vars(obj.descriptor).items()}
    assert got == row["descriptor"], case
    sec = row["sections"]
    assert format(obj.gbasis, "cxx") == sec["GBASIS"], case
    tt = obj.get_tma_tensor(tma_cxx.gmem_layout(case).shape)
    assert format(tt, "cxx") == sec["TENSOR"], case
    if case["api"] == "copy":
        assert tma_cxx.normalise(str(obj)) == tma_cxx.normalise(sec["TILED"]), case
        for t in sorted({0, case["cluster"] - 1}):
            thr = obj.get_slice(t)  # the CTA's rank: a run-time int, as in C++'s get_slice(t)
            assert format(thr.partition_S(tt), "cxx") == sec[f"S{t}"], (case, t)
            s = make_tensor(smem_ptr(case["dtype"], 0x400), tma_cxx.smem_layout(case))
            assert format(thr.partition_D(s), "cxx") == sec[f"D{t}"], (case, t)
    else:
        assert tma_cxx.normalise(str(obj)) == tma_cxx.normalise(sec["ATOM"]), case
    return "built"


@pytest.mark.skipif(not ROWS_MIXED, reason="tests/data/tma_mixed_cxx.jsonl is missing")
@pytest.mark.parametrize("i", range(0, len(ROWS_MIXED), 5))
def test_tma_mixed_static_run_time_sample_equals_cxx(i: int) -> None:
    """A run-time extent of 1 stays in the descriptor and the gbasis, run-time strides keep modes
    apart, as C++ 4.7: descriptors, gbasis, TMA tensors and partitions print as C++'s."""
    check_mixed_row(ROWS_MIXED[i])


@pytest.mark.slow
@pytest.mark.skipif(not ROWS_MIXED, reason="tests/data/tma_mixed_cxx.jsonl is missing")
def test_tma_mixed_all_stored_configurations_equal_cxx() -> None:
    counts: Counter = Counter(check_mixed_row(row) for row in ROWS_MIXED)
    assert counts["built"] >= len(ROWS_MIXED) // 2, counts


def test_tma_mixed_configurations_cover_run_time_extent_1_and_strides() -> None:
    if not ROWS_MIXED:
        pytest.skip("tests/data/tma_mixed_cxx.jsonl is missing")
    built = [r for r in ROWS_MIXED if _refused_by_cxx(r) is None]
    run_time_1 = [r for r in built if any(s == 1 and d for s, d in zip(r["case"]["shape"],
                                                                       r["case"]["dyn_shape"]))]
    assert len(run_time_1) >= 10
    # C++ keeps such a mode: its gbasis names more modes than the static-1 reading would
    assert any(r["descriptor"]["rank"] > sum(s > 1 for s in r["case"]["shape"]) for r in run_time_1)
    assert sum(any(r["case"]["dyn_stride"]) for r in built) >= len(built) // 2


@pytest.mark.skipif(not ROWS_WIDTH, reason="tests/data/tma_width_cxx.jsonl is missing")
@pytest.mark.parametrize("i", range(len(ROWS_WIDTH)))
def test_tma_smem_of_another_width_equals_cxx(i: int) -> None:
    """A pointer-flag smem layout made for another element width: C++ reads its swizzle on bytes
    and builds the copy (which the driver's swizzle-span rule may then refuse); so does cutepy."""
    check_row(ROWS_WIDTH[i])


def test_tma_width_configurations_are_built_and_refused() -> None:
    if not ROWS_WIDTH:
        pytest.skip("tests/data/tma_width_cxx.jsonl is missing")
    why = [_refused_by_cxx(r) or "" for r in ROWS_WIDTH]
    assert sum(w == "" for w in why) >= 3  # built by C++ (and cutepy)
    assert sum("swizzle span" in w for w in why) >= 3  # the driver's rule, as the issue saw


def test_run_time_extent_1_stays_in_the_descriptor() -> None:
    """The issue's example: gmem (3072,32,1):(_1,3072,98432) with make_shape(M, N, L) run-time;
    C++ 4.7 encodes rank 3, boxDim [64,8,1], TmaGmemBasis (_64,_8,_1):(_1@0,_1@1,_1@2) (the
    numbers are those of tma_mixed_cxx.jsonl's rule: a static 1 is dropped, a run-time 1 kept)."""
    d = dynamic
    g = make_tensor(gmem_ptr("half_t", 0x10000), Layout((d(3072), d(32), d(1)), (1, d(3072), d(98432))))
    tma = make_tma_copy("SM90_TMA_LOAD", g, Layout((64, 8, 1), (1, 64, 512)))
    assert (tma.descriptor.rank, tma.descriptor.box_dim) == (3, (64, 8, 1))
    assert format(tma.gbasis, "cxx") == "(_64,_8,_1):(_1@0,_1@1,_1@2)"
    static = make_tensor(gmem_ptr("half_t", 0x10000), Layout((3072, 32, 1), (1, 3072, 98432)))
    assert make_tma_copy("SM90_TMA_LOAD", static, Layout((64, 8, 1), (1, 64, 512))).descriptor.rank == 2


def test_tma_internal_type_configurations_cover_wider_types() -> None:
    if not ROWS_INTERNAL:
        pytest.skip("tests/data/tma_internal_cxx.jsonl is missing")
    built = [r for r in ROWS_INTERNAL if _refused_by_cxx(r) is None]
    bits = tma_cxx.element_bits
    wider = [r for r in built if bits(r["case"]["internal"]) > bits(r["case"]["dtype"])]
    assert len(wider) >= len(ROWS_INTERNAL) // 4
    assert any("/" in r["sections"].get("TENSOR", "") for r in wider)  # a fractional TMA stride
    assert any(_refused_by_cxx(r) for r in ROWS_INTERNAL)


def test_wider_internal_type_moves_whole_internal_elements() -> None:
    """half_t moved as uint32_t: the descriptor counts 32-bit elements, the TMA tensor steps 1/2 of one
    (the numbers are C++ 4.7's, from tma_cxx.run_cxx of this configuration with internal uint32_t)."""
    g = make_tensor(gmem_ptr("half_t", 0x10000), Layout((256, 64), (64, 1)))
    tma = make_tma_copy("SM90_TMA_LOAD", g, K128, internal_type="uint32_t")
    d = tma.descriptor
    got = (d.data_type, d.global_dim, d.global_strides, d.box_dim, d.swizzle)
    assert got == ("UINT32", (32, 256), (128,), (32, 128), "128B")
    assert str(tma.get_tma_tensor((256, 64))) == "ArithTuple(0,0) o (256,64):(1@1,1/2@0)"
    with pytest.raises(CutepyError, match="recast"):  # 65 half_t per row is not a whole number of uint32_t
        make_tma_copy("SM90_TMA_LOAD", make_tensor(gmem_ptr("half_t", 0x10000), Layout((256, 64), (65, 1))),
                      K128, internal_type="uint32_t")


def test_box_of_one_internal_element_is_refused() -> None:
    """4 bfloat16_t moved as one double: C++'s box mode 0 has no gmem mode and does not compile
    (stored in tma_internal_cxx.jsonl); cutepy says why instead of crashing."""
    g = make_tensor(gmem_ptr("bfloat16_t", 0x10000), Layout((4, 8), (8, 1)))
    with pytest.raises(CutepyError, match="reaches no gmem mode"):
        make_tma_copy("SM90_TMA_STORE", g, Layout((1, 4), (4, 1)), (1, 4), internal_type="double")


def test_stored_configurations_cover_the_families() -> None:
    if not ROWS:
        pytest.skip("tests/data/tma_cxx.jsonl is missing")
    ops = {r["case"]["op"] for r in ROWS}
    assert ops >= {"SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE", "SM100_TMA_2SM_LOAD"}
    built = [r for r in ROWS if _refused_by_cxx(r) is None]
    assert {r["descriptor"]["swizzle"] for r in built} >= {"NONE", "32B", "64B", "128B"}
    assert {r["descriptor"]["rank"] for r in built} >= {2, 3, 4, 5}
    assert {tma_cxx.element_bits(r["case"]["dtype"]) for r in built} == {8, 16, 32, 64}
    assert any(_refused_by_cxx(r) for r in ROWS)


# -- refusals with reasons -------------------------------------------------------------------


def _g(dtype: str = "half_t", shape=(1024, 256), stride=(256, 1), address: int = 0x10000):
    return make_tensor(gmem_ptr(dtype, address), Layout(shape, stride))


K128 = tile_to_shape(gmma_smem_layout("K", 128, "half_t"), (128, 64))


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"gmem_tensor": _g(address=0x10008)}, "16-byte aligned"),
        ({"gmem_tensor": _g(stride=(260, 1), shape=(1024, 260))}, "multiple of 16 bytes"),
        ({"gmem_tensor": _g(stride=(1, 1024))}, "majorness"),
        ({"smem_layout": Layout((128, 32), (32, 1)), "cta_tile": (128, 64)}, "size equivalence"),
        ({"gmem_tensor": _g("int16_t")}, "TMA format"),
        ({"smem_layout": ComposedLayout(Swizzle(1, 4, 3), SmemPtrFlag(16), Layout((128, 64), (64, 1)))},
         "swizzle span"),
        ({"smem_layout": ComposedLayout(Swizzle(3, 4, 3), 0, Layout((128, 64), (64, 1)))},
         "unsupported smem"),
    ],
)
def test_refusals_name_the_rule(kwargs: dict, words: str) -> None:
    args = {"gmem_tensor": _g(), "smem_layout": K128, "cta_tile": None} | kwargs
    with pytest.raises(CutepyError, match=words):
        make_tma_copy("SM90_TMA_LOAD", args["gmem_tensor"], args["smem_layout"], args["cta_tile"])


def test_box_over_256_is_refused() -> None:
    g = _g("float", (1024, 1024), (1, 1024))
    with pytest.raises(CutepyError, match="1..256"):
        make_tma_copy("SM90_TMA_LOAD", g, Layout((512, 4), (1, 512)), (512, 4))


def test_multicast_that_does_not_divide_the_box_is_refused() -> None:
    g = _g("half_t", (1024, 1024), (1024, 1))
    with pytest.raises(CutepyError, match="multicast"):
        make_tma_copy("SM90_TMA_LOAD_MULTICAST", g, Layout((3, 64), (64, 1)), (3, 64), 2)


def test_element_offset_form_is_read_on_bytes() -> None:
    g = _g("bfloat16_t")
    flagged = tile_to_shape(gmma_smem_layout("K", 128, "bfloat16_t"), (128, 64))
    element = as_position_independent_swizzle_layout(flagged)
    a = make_tma_copy("SM90_TMA_LOAD", g, flagged)
    b = make_tma_copy("SM90_TMA_LOAD", g, element)
    assert a.descriptor == b.descriptor and a.descriptor.swizzle == "128B"
    assert str(a) == str(b)


# -- multicast masks, pointers, the pointer-flag form ----------------------------------------


def test_multicast_mask_matches_the_block_ranks() -> None:
    # every CTA of a (2,4) cluster, multicast along mode 1: the ranks of its row
    cl = Layout((2, 4), (1, 2))
    for m in range(2):
        for n in range(4):
            mask = create_tma_multicast_mask(cl, (m, n), modes=(1,))
            assert mask == sum(1 << cl(m, j) for j in range(4))


def test_multicast_mask_refuses_a_rank_past_the_cluster() -> None:
    # issue 33: (4,4):(5,1) at row 3 reaches ranks 15..18; the mask was 0x8000 (the bits past 15 cut)
    cl = Layout((4, 4), (5, 1))
    with pytest.raises(CutepyError, match="block rank 16 .* outside a 16-CTA cluster"):
        create_tma_multicast_mask(cl, (3, None))
    # every in-cluster row still gives its ranks, checked against the layout itself
    for m in range(3):
        assert create_tma_multicast_mask(cl, (m, None)) == sum(1 << cl(m, j) for j in range(4))


def test_smem_tensor_addresses_are_swizzled_bytes() -> None:
    # Sw<3,4,3> on byte addresses: 16-byte chunk XOR the row (mod 8) within each 128-byte row
    t = make_tensor(smem_ptr("half_t", 0x400), K128)
    for r in range(16):
        for c in range(0, 64, 8):
            plain = 0x400 + (r % 8) * 128 + (r // 8) * 1024 + c * 2
            chunk = ((plain >> 4) & 7) ^ ((plain >> 7) & 7)
            assert t(r, c) == (plain & ~0x70) | (chunk << 4)


def test_pointer_flag_form_round_trips_through_parse() -> None:
    for L in (K128, gmma_smem_layout("MN", 64, 8), tile_to_shape(gmma_smem_layout("K", 32, 32), (64, 32))):
        assert parse(str(L)) == L
    assert parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)").offset == SmemPtrFlag(16)


def test_pointer_flag_needs_a_matching_smem_pointer() -> None:
    with pytest.raises(CutepyError, match="B-bit"):
        make_tensor(smem_ptr("float"), K128)
    with pytest.raises(CutepyError, match="smem"):
        make_tensor(gmem_ptr("half_t"), K128)


def test_tmem_addresses_as_cxx() -> None:
    assert str(tmem_ptr("float", (32 << 16) | 8)) == "tmem_[32b](0x0020.0008)"
    assert tmem_ptr("half_t", 0)[3] == (1 | (1 << 31))
