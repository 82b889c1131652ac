"""SM90 sparse GMMA atoms against CUTLASS 4.7 (tests/data/atoms_gmma_sparse_cxx47.txt; regenerate with
``python -m tests.kernels.atoms.gmma_sparse_cxx``, see there)."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import gmma_sparse_atoms, mma_atom
from cutepy.kernels.atoms.gmma_sparse import FAMILIES
from tests.kernels.atoms.gmma_sparse_cxx import REJECTS, STORED, VARIANTS, fields, names


def test_the_table_holds_the_sample_and_the_variants() -> None:
    assert {k for k in STORED if not k.startswith("reject:")} == set(names()) | set(VARIANTS)
    assert set(names()) <= set(gmma_sparse_atoms())


@pytest.mark.parametrize("family", sorted({f[0] for f in FAMILIES}))
def test_sparse_gmma_equals_cxx47(family: str) -> None:
    picked = [n for n in names() if f"_{family}_" in n]
    assert picked
    for n in picked:
        assert fields(n) == STORED[n], n


def test_variants_equal_cxx47() -> None:
    for v in VARIANTS:
        assert fields(v) == STORED[v], v


@pytest.mark.parametrize("name", REJECTS)
def test_missing_n_is_refused_like_cxx(name: str) -> None:
    assert STORED[f"reject:{name}"] == ["rejected"]
    with pytest.raises(CutepyError, match="defines this sparse GMMA for N"):
        mma_atom(name)


def test_sparse_k_is_twice_the_dense_k() -> None:
    for ty, k, sufs, _, _ in FAMILIES:
        sparse = mma_atom(f"SM90::GMMA::SPARSE::GMMA_64x64x{k}_{ty}_SS{sufs[0]}")
        dense = mma_atom(f"SM90_64x64x{k // 2}_{ty}_SS{sufs[0]}")
        assert sparse.shape_mnk[2] == 2 * dense.shape_mnk[2] and sparse.tv_layout_C == dense.tv_layout_C


def test_refusals() -> None:
    with pytest.raises(CutepyError, match="K-major A"):
        mma_atom("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_RS<MN,K>")
    with pytest.raises(CutepyError, match="only the 16-bit"):
        mma_atom("SM90::GMMA::SPARSE::GMMA_64x64x64_S32S8S8_SS_TN<K,K>")
    with pytest.raises(CutepyError, match="unknown MMA atom"):
        mma_atom("SM90::GMMA::SPARSE::GMMA_64x64x16_F16F16F16_SS")
