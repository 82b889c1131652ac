"""SM120 sparse and block-scaled atoms against CUTLASS 4.7 (tests/data/atoms_sm120_ext_cxx47.txt;
regenerate with ``python -m tests.kernels.atoms.sm120_ext_cxx``, see there)."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import WarpBlockScaledMMAAtom, mma_atom, sm120_ext_atoms
from tests.kernels.atoms.sm120_ext_cxx import STORED, fields


def test_the_table_holds_every_atom() -> None:
    assert set(STORED) == set(sm120_ext_atoms()) and len(STORED) == 79


@pytest.mark.parametrize("kind", ["SM120_16x8x32_TN_VS", "SM120_16x8x64_TN_VS",
                                  "SPARSE::SM120_SPARSE_16x8x64_TN<", "SM120_SPARSE_16x8x64_TN_VS",
                                  "SM120_SPARSE_16x8x128_TN_VS"])
def test_sm120_ext_equals_cxx47(kind: str) -> None:
    picked = [n for n in sm120_ext_atoms() if kind in n]
    assert picked
    for n in picked:
        assert fields(n) == STORED[n], n


def test_scale_factor_layouts_cover_one_factor_per_vector() -> None:
    """SFA maps every (thread, value) to an element of the 16 x K tile; the elements one factor
    scales (VS of them along K) are exactly those C++'s fragment shares."""
    a = mma_atom("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,32>")
    assert isinstance(a, WarpBlockScaledMMAAtom)
    m, _, k = a.shape_mnk
    hit = {a.tv_layout_SFA(t, v) for t in range(32) for v in range(k)}
    assert hit == set(range(m * k))


def test_refusals() -> None:
    base = "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,"
    with pytest.raises(CutepyError, match="VS among"):
        mma_atom(base + "float_ue8m0_t,64>")
    with pytest.raises(CutepyError, match="A and B among"):
        mma_atom("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e4m3_t,float_e2m1_t,float,float_ue8m0_t,32>")
    with pytest.raises(CutepyError, match="SF is one of"):
        mma_atom("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue4m3_t,32>")
    with pytest.raises(CutepyError, match="accumulator"):
        mma_atom("SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,half_t>")
    with pytest.raises(CutepyError, match="VS=64 needs"):
        mma_atom("SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float,"
                 "float_ue4m3_t,64>")
