"""Laws of CUTLASS's GMMA selectors: the smem atom fits the tile and is the widest that does, the
GMMA instruction is the widest whose N divides the tile, the stage count is the most that fit."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cutepy.algebra.composed import composed_parts
from cutepy.builders import (
    collective_builder,
    compute_stage_count_or_override,
    rs_smem_selector,
    ss_op_selector,
    ss_smem_selector,
)
from cutepy.builders.selectors import SM90_SMEM_CAPACITY_BYTES, stage_bytes
from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms.smem import gmma_smem_layout

ELEMENTS = st.sampled_from(["half_t", "bfloat16_t", "tfloat32_t", "float_e4m3_t", "int8_t"])
EXTENTS = st.integers(1, 48).map(lambda x: 8 * x)


def _extent(atom, mode: int) -> int:
    s = composed_parts(atom)[2].shape[mode]
    return s if isinstance(s, int) else 0


@given(st.sampled_from(["K", "MN"]), ELEMENTS, EXTENTS, EXTENTS)
def test_ss_smem_selector_picks_the_widest_atom_that_fits(major, element, mn, k) -> None:
    try:
        atom = ss_smem_selector(major, element, mn, k)
    except CutepyError as e:
        assert "must be a multiple of" in str(e)
        return
    mode, extent = (0, mn) if major == "MN" else (1, k)
    assert extent % _extent(atom, mode) == 0
    width = {0: 0, 1: 32, 2: 64, 3: 128}[composed_parts(atom)[0].bits]
    for wider in (w for w in (32, 64, 128) if w > width):
        assert extent % _extent(gmma_smem_layout(major, wider, element), mode) != 0


@given(ELEMENTS, EXTENTS, st.sampled_from([32, 64, 128]))
def test_rs_smem_selector_keeps_32_bit_mn_operands_at_sw32_or_inter(element, mn, k) -> None:
    assume(element in ("tfloat32_t",))
    atom = rs_smem_selector("MN", element, mn, k)
    assert composed_parts(atom)[0].bits in (0, 1)


@given(
    st.sampled_from([64, 128, 192, 256]),
    st.integers(1, 32).map(lambda x: 8 * x),
    st.sampled_from([16, 32, 64]),
)
def test_ss_op_selector_takes_the_widest_n_dividing_the_tile(m, n, k) -> None:
    atom = ss_op_selector("half_t", "half_t", "float", (m, n, k))
    width = atom.shape_mnk[1]
    assert n % width == 0
    assert all(n % w != 0 for w in (256, 192, 128, 96, 64, 32, 16, 8) if w > width)


@given(
    ELEMENTS,
    st.sampled_from([64, 128, 256]),
    st.sampled_from([64, 128, 256]),
    st.sampled_from([32, 64, 128]),
    st.integers(0, 100_000),
)
def test_compute_stage_count_is_the_most_that_fit(element, m, n, k, carveout) -> None:
    stages = compute_stage_count_or_override(
        SM90_SMEM_CAPACITY_BYTES, element, element, (m, n, k), ("auto", carveout)
    )
    free = SM90_SMEM_CAPACITY_BYTES // 128 * 128 - -(-carveout // 128) * 128
    per = stage_bytes(element, element, (m, n, k))
    assert stages * per <= free < (stages + 1) * per


@given(
    st.sampled_from([64, 128, 256]),
    st.sampled_from([64, 128, 256]),
    st.sampled_from([64, 128]),
    st.sampled_from([(1, 1, 1), (2, 1, 1), (1, 2, 1)]),
    st.sampled_from(["RowMajor", "ColumnMajor"]),
)
def test_a_built_mainloop_fits_its_smem_and_stages_its_tiles(m, n, k, cluster, layout_a) -> None:
    assume(2 * stage_bytes("half_t", "half_t", (m, n, k)) <= SM90_SMEM_CAPACITY_BYTES)  # two stages fit
    c = collective_builder(
        "Sm90",
        "OpClassTensorOp",
        "half_t",
        layout_a,
        8,
        "half_t",
        "ColumnMajor",
        8,
        "float",
        (m, n, k),
        cluster,
        "auto",
        "KernelScheduleAuto",
    )
    assert c.shared_storage_bytes <= SM90_SMEM_CAPACITY_BYTES
    assert c.smem_layout_a.size() == m * k * c.stages and c.smem_layout_b.size() == n * k * c.stages
    assert c.tma_transaction_bytes == (m + n) * k * 2


def test_stage_count_forms_are_checked() -> None:
    with pytest.raises(CutepyError, match="stage_count is 'auto'"):
        compute_stage_count_or_override(SM90_SMEM_CAPACITY_BYTES, "half_t", "half_t", (128, 128, 64), "many")
