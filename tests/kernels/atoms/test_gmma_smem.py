"""GMMA shared-memory layout atoms against C++'s pointer-flag form and its position-independent
form (tests/data/atoms_smem.txt), and their bank-friendly structure."""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import gmma_smem_layout
from cutepy.kernels.pointer import as_position_independent_swizzle_layout
from tests.kernels.atoms.atoms_cxx import INCLUDES, SMEM_CASES, SMEM_FILE, read_table, smem_case

STORED = read_table(SMEM_FILE)


@pytest.mark.parametrize("case", SMEM_CASES, ids=lambda c: "/".join(map(str, c)))
def test_gmma_smem_layout_equals_cxx(case) -> None:
    L = gmma_smem_layout(*case)
    assert str(L) == STORED["/".join(map(str, case))][0]
    assert str(as_position_independent_swizzle_layout(L)) == STORED["/".join(map(str, case))][1]


@pytest.mark.parametrize("case", SMEM_CASES, ids=lambda c: "/".join(map(str, c)))
def test_gmma_smem_layout_is_a_bijection_on_its_rows(case) -> None:
    L = as_position_independent_swizzle_layout(gmma_smem_layout(*case))
    offs = sorted(int(x) for x in L.offsets())
    assert offs == list(range(L.size()))
    assert L.size() * case[2] == 8 * 16 * 8 * max(1, case[1] // 16)


def test_bad_arguments() -> None:
    for args in (("N", 128, 16), ("K", 96, 16), ("K", 128, 12)):
        with pytest.raises(CutepyError):
            gmma_smem_layout(*args)


def test_smem_matches_live_cxx(cxx) -> None:
    cases = SMEM_CASES[::5]
    res = cxx.run_cases([smem_case(*c) for c in cases], INCLUDES)
    for c, r in zip(cases, res):
        assert r.ok, r.error[:300]
        assert str(gmma_smem_layout(*c)) == cxx.normalise(r.output).split("|")[0]
