"""Design sweeps: 10^4 designs in seconds, CUTLASS's pick marked and equal to the builder's output,
every row the design collective_builder makes, and the table's sort, filter and HTML."""

from __future__ import annotations

import random

import pytest

from cutepy.builders import DesignTable, collective_builder, recluster, restage, sweep
from cutepy.core.errors import CutepyError

PROBLEM = (4096, 4096, 4096)
TILES = [(m, n, k) for m in (64, 128, 192, 256) for n in range(16, 257, 16) for k in (32, 64, 128, 256)]
CLUSTERS = [(1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1), (1, 4, 1), (4, 1, 1)]
STAGES = ["auto", 2, 3, 4, 5, 6, 7, 8]


@pytest.fixture(scope="module")
def big() -> DesignTable:
    return sweep(
        PROBLEM,
        "half_t",
        "RowMajor",
        "half_t",
        "ColumnMajor",
        "float",
        tile_shapes=TILES,
        cluster_shapes=CLUSTERS,
        stage_counts=STAGES,
        pick=((128, 128, 64), (1, 2, 1)),
    )


def test_a_sweep_of_ten_thousand_designs_marks_cutlass_pick_once(big: DesignTable) -> None:
    assert len(big) >= 10_000
    picks = [r for r in big if r["cutlass_pick"]]
    assert len(picks) == 1


def test_cutlass_pick_row_equals_the_builder(big: DesignTable) -> None:
    c = collective_builder(
        "Sm90",
        "OpClassTensorOp",
        "half_t",
        "RowMajor",
        8,
        "half_t",
        "ColumnMajor",
        8,
        "float",
        (128, 128, 64),
        (1, 2, 1),
        "auto",
        "KernelScheduleAuto",
    )
    row = big.cutlass_pick()
    assert (row["tile_m"], row["tile_n"], row["tile_k"]) == c.tile_shape
    assert (row["cluster_m"], row["cluster_n"]) == c.cluster_shape[:2]
    assert row["schedule"] == c.schedule and row["stage_count"] == "auto"
    assert (row["stages"], row["smem_bytes"], row["mma"]) == (
        c.stages,
        c.shared_storage_bytes,
        c.tiled_mma.atom.name,
    )


def test_every_sampled_row_is_the_design_collective_builder_makes(big: DesignTable) -> None:
    rng = random.Random(32)
    for row in rng.sample(list(big), 60):
        c = collective_builder(
            "Sm90",
            "OpClassTensorOp",
            "half_t",
            "RowMajor",
            8,
            "half_t",
            "ColumnMajor",
            8,
            "float",
            (row["tile_m"], row["tile_n"], row["tile_k"]),
            (row["cluster_m"], row["cluster_n"], 1),
            row["stage_count"],
            row["schedule"],
        )
        assert (row["stages"], row["smem_bytes"], row["mma"]) == (
            c.stages,
            c.shared_storage_bytes,
            c.tiled_mma.atom.name,
        )
        assert row["smem_bytes"] <= 232448


def test_restage_equals_building_with_that_stage_count() -> None:
    args = ("Sm90", "OpClassTensorOp", "float", "ColumnMajor", 4, "float", "ColumnMajor", 4, "float")
    base = collective_builder(*args, (128, 64, 32), (1, 1, 1), "auto", "KernelTmaWarpSpecializedCooperative")
    for s in (2, 3, 5):
        fixed = collective_builder(*args, (128, 64, 32), (1, 1, 1), s, "KernelTmaWarpSpecializedCooperative")
        assert restage(base, s).members() == fixed.members()
    with pytest.raises(CutepyError, match="Stages set to value 2 or more"):
        restage(base, 1)


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_recluster_equals_building_with_that_cluster(cluster: tuple) -> None:
    args = ("Sm90", "OpClassTensorOp", "bfloat16_t", "ColumnMajor", 8, "bfloat16_t", "RowMajor", 8, "float")
    base = collective_builder(
        *args, (128, 192, 64), (1, 1, 1), ("auto", 4096), "KernelTmaWarpSpecializedPingpong"
    )
    made = collective_builder(
        *args, (128, 192, 64), cluster, ("auto", 4096), "KernelTmaWarpSpecializedPingpong"
    )
    again = recluster(base, cluster)
    assert again.members() == made.members() and again.arguments == made.arguments


def test_waste_counts_the_padded_edges() -> None:
    t = sweep(
        (1000, 1000, 64),
        "half_t",
        "RowMajor",
        "half_t",
        "ColumnMajor",
        "float",
        tile_shapes=[(128, 128, 64)],
        cluster_shapes=[(1, 1, 1)],
        stage_counts=["auto"],
    )
    row = t.cutlass_pick()
    assert row["tiles"] == 8 * 8
    assert row["waste"] == pytest.approx(1 - 1000 * 1000 / (1024 * 1024), abs=1e-6)


def test_sort_filter_and_html(big: DesignTable) -> None:
    small = big.filter(lambda r: r["tile_k"] == 64, schedule="KernelTmaWarpSpecializedPingpong")
    assert len(small) > 0 and all(r["tile_k"] == 64 and "Pingpong" in r["schedule"] for r in small)
    ranked = small.sort("waste", "smem_bytes")
    keys = [(r["waste"], r["smem_bytes"]) for r in ranked]
    assert keys == sorted(keys)
    html = big.sort("smem_bytes").head(5)._repr_html_()
    assert html.count("<tr") == 6
    with pytest.raises(CutepyError, match="no column"):
        big.sort("speed")


def test_to_pandas_has_every_row(big: DesignTable) -> None:
    import pandas  # the test extra installs it

    frame = big.head(100).to_pandas()
    assert (
        isinstance(frame, pandas.DataFrame) and len(frame) == 100 and list(frame.columns) == list(big.columns)
    )


def test_cp_async_designs_count_the_sectors_a_warp_touches() -> None:
    """A warp of cp.async 16-byte copies reads 512 bytes: 16 sectors when each gmem row it covers is
    at least a 32-byte sector long; TMA box rows of 128 bytes are 4 sectors."""
    t = sweep(
        (4096, 4096, 4096),
        "half_t",
        "RowMajor",
        "half_t",
        "ColumnMajor",
        "float",
        schedules=["KernelCpAsyncWarpSpecialized", "KernelTmaWarpSpecialized"],
        tile_shapes=[(128, 128, 64), (128, 128, 16)],
        cluster_shapes=[(1, 1, 1)],
        stage_counts=["auto"],
    )
    rows = {(r["schedule"], r["tile_k"]): r for r in t}
    assert rows[("KernelCpAsyncWarpSpecialized", 64)]["gmem_sectors_per_row"] == (16, 16)
    # K = 16 halves: two threads per 32-byte row, one sector each: 16 rows of a warp, 16 sectors
    assert rows[("KernelCpAsyncWarpSpecialized", 16)]["gmem_sectors_per_row"] == (16, 16)
    assert rows[("KernelTmaWarpSpecialized", 64)]["gmem_sectors_per_row"] == (4, 4)


def test_tma_boxes_per_stage_are_the_boxes_make_tma_copy_finds(big: DesignTable) -> None:
    """Each sampled TMA design's box count equals the CTA tiles of A and B over the boxes cutepy's
    make_tma_copy (checked against C++ elsewhere) builds for the design's staged smem layouts."""
    import math

    from cutepy.core.layout import Layout
    from cutepy.kernels.pointer import gmem_ptr
    from cutepy.kernels.tensor import make_tensor
    from cutepy.kernels.tma import make_tma_copy

    m, n, k = PROBLEM
    mA = make_tensor(gmem_ptr("half_t", 0x10000000), Layout((m, k), (k, 1)))  # RowMajor A
    mB = make_tensor(gmem_ptr("half_t", 0x20000000), Layout((n, k), (k, 1)))  # ColumnMajor B (N x K)
    rng = random.Random(7)
    for row in rng.sample([r for r in big if r["stage_count"] == "auto"], 40):
        tile = (row["tile_m"], row["tile_n"], row["tile_k"])
        c = collective_builder(
            "Sm90",
            "OpClassTensorOp",
            "half_t",
            "RowMajor",
            8,
            "half_t",
            "ColumnMajor",
            8,
            "float",
            tile,
            (1, 1, 1),
            "auto",
            row["schedule"],
        )
        boxes = 0
        for g, smem, mn in ((mA, c.smem_layout_a, tile[0]), (mB, c.smem_layout_b, tile[1])):
            tma = make_tma_copy("SM90_TMA_LOAD", g, smem(None, None, 0), (mn, tile[2]))
            boxes += mn * tile[2] // math.prod(tma.descriptor.box_dim)
        assert row["tma_boxes_per_stage"] == boxes, (tile, row["schedule"])
