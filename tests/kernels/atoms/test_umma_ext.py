"""Block-scaled and sparse SM100/SM103 UMMA atoms and the block-scaled scale-factor layouts against
CUTLASS 4.7's headers (prints stored in tests/data/atoms_umma_ext_cxx47.txt; regenerate with
``python -m tests.kernels.atoms.umma_ext_cxx``, see there)."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import mma_atom
from cutepy.kernels.atoms.umma_ext import (
    BlockScaledMMAAtom,
    SparseMMAAtom,
    blockscaled_sf_atom,
    blockscaled_sf_layout,
    umma_ext_atoms,
)
from tests.kernels.atoms.umma_ext_cxx import (
    REJECTS,
    SF_ATOMS,
    SF_PROBLEMS,
    STORED,
    VARIANTS,
    fields,
    sf_key,
)


def test_the_table_holds_every_listed_atom_and_variant() -> None:
    atoms = {k for k in STORED if not k.startswith(("reject:", "sf_"))}
    assert atoms == set(umma_ext_atoms()) | set(VARIANTS)
    assert len(atoms) == 125


@pytest.mark.parametrize("family", ["TF32", "F16BF16", "S8_", "F8F6F4_", "MXF8F6F4", "MXF4_", "MXF4NVF4",
                                    "SM103"])
def test_atoms_equal_cxx47(family: str) -> None:
    names = [n for n in umma_ext_atoms() + VARIANTS if family in n]
    assert names
    for n in names:
        assert fields(n) == STORED[n], n


def test_kinds_and_scale_factors() -> None:
    mx = mma_atom("SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,64,K,K>")
    assert isinstance(mx, BlockScaledMMAAtom) and (mx.sf_type, mx.sf_vec_size, mx.sparse) == (
        "float_ue8m0_t", 32, False)
    sp = mma_atom("SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,"
                  "256,64,32,K,K>")
    assert isinstance(sp, BlockScaledMMAAtom) and sp.sparse and sp.thr_id.size() == 2
    dense_k = mma_atom("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,K,K>").shape_mnk[2]
    sparse = mma_atom("SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,64,K,K>")
    assert isinstance(sparse, SparseMMAAtom) and sparse.shape_mnk[2] == 2 * dense_k


@pytest.mark.parametrize("name", REJECTS)
def test_shapes_outside_the_rules_are_refused_like_cxx(name: str) -> None:
    assert STORED[f"reject:{name}"] == ["rejected"], name
    with pytest.raises(CutepyError, match="does not accept|VS"):
        mma_atom(name)


def test_bad_arguments_are_refused_naming_them() -> None:
    with pytest.raises(CutepyError, match="A and B must be"):
        mma_atom("SM100_MMA_MXF4_SS<float_e4m3_t,float_e2m1_t,float,float_ue8m0_t,128,64,32,K,K>")
    with pytest.raises(CutepyError, match="scale-factor type SF"):
        mma_atom("SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue4m3_t,128,64,K,K>")
    with pytest.raises(CutepyError, match="accumulator type C"):
        mma_atom("SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,int32_t,float_ue8m0_t,128,64,K,K>")
    with pytest.raises(CutepyError, match="takes \\(A, B, C\\)"):
        mma_atom("SM100_MMA_S8_SS_SPARSE<half_t,half_t,float,128,64,K,K>")
    with pytest.raises(CutepyError, match="sf_vec_size"):
        blockscaled_sf_atom(0)
    with pytest.raises(CutepyError, match="major"):
        blockscaled_sf_atom(32, "M")
    with pytest.raises(CutepyError, match="mn must be"):
        blockscaled_sf_layout(32, 100, 128)
    with pytest.raises(CutepyError, match="k must be"):
        blockscaled_sf_layout(32, 128, 100)
    with pytest.raises(CutepyError, match="batches"):
        blockscaled_sf_layout(32, 128, 128, 0)
    with pytest.raises(CutepyError, match="every_n"):
        umma_ext_atoms(every_n=1)


@pytest.mark.parametrize("vs,major", SF_ATOMS)
def test_sf_atom_equals_cxx47(vs: int, major: str) -> None:
    assert [str(blockscaled_sf_atom(vs, major))] == STORED[f"sf_atom:{vs}/{major}"]


@pytest.mark.parametrize("problem", SF_PROBLEMS)
def test_sf_layout_equals_cxx47(problem: tuple) -> None:
    assert [str(blockscaled_sf_layout(*problem))] == STORED[sf_key(*problem)]


def test_sf_layout_gives_one_factor_per_vector() -> None:
    """Every element of a K-run of ``VS`` shares its factor; factors of distinct runs differ."""
    L = blockscaled_sf_layout(16, 256, 128)
    for m in (0, 37, 255):
        offs = [L(m, k) for k in range(128)]
        assert all(offs[k] == offs[16 * (k // 16)] for k in range(128))
        assert len(set(offs)) == 128 // 16
    assert len({L(m, k) for m in range(256) for k in range(0, 128, 16)}) == 256 * 128 // 16
