"""Copy atoms against C++ CuTe: ThrID, the traits' bit layouts and Copy_Atom's element layouts
(tests/data/atoms_copy.txt; a seeded sample recompiled live)."""

from __future__ import annotations

import os

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import copy_atom, copy_atoms
from tests.kernels.atoms.atoms_cxx import (
    COPY_FILE,
    CXX47_COPIES,
    INCLUDES,
    copy_case,
    copy_cases,
    read_table,
)

STORED = read_table(COPY_FILE)


def fields(name: str, bits: int) -> list[str]:
    a = copy_atom(name, bits)
    return [
        str(x)
        for x in (
            a.thr_id,
            a.layout_src_tv_bits,
            a.layout_dst_tv_bits,
            a.layout_ref_tv_bits,
            a.layout_src_tv,
            a.layout_dst_tv,
            a.layout_ref_tv,
        )
    ]


def test_every_case_is_stored() -> None:
    assert sorted(STORED) == sorted(f"{n}@{b}" for n, b in copy_cases())
    assert {n for n, _ in copy_cases()} == {n for n in copy_atoms() if not n.startswith(CXX47_COPIES)}


@pytest.mark.parametrize("family", ["LDSM", "STSM", "CP_ASYNC", "UniversalCopy"])
def test_copy_atoms_equal_cxx_print(family: str) -> None:
    cases = [(n, b) for n, b in copy_cases() if family in n]
    assert cases
    for n, b in cases:
        assert fields(n, b) == STORED[f"{n}@{b}"], (n, b)


def test_ops() -> None:
    assert copy_atom("SM75_U16x8_LDSM_T", 16).op == "ldmatrix"
    assert copy_atom("SM90_U16x8_STSM_T", 16).op == "stmatrix"
    assert copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", 16).op == "cp.async"
    assert copy_atom("UniversalCopy<uint32_t>", 16).op == "ld"
    assert copy_atom("UniversalCopy<uint32_t>", 16, op="st").op == "st"


def test_bad_copy_atoms_are_refused() -> None:
    with pytest.raises(CutepyError, match="16 only"):
        copy_atom("SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>", 16)
    with pytest.raises(CutepyError, match="do not tile"):
        copy_atom("SM75_U16x2_LDSM_T", 32)
    with pytest.raises(CutepyError, match="unknown copy atom"):
        copy_atom("SM75_U32x3_LDSM_N", 16)
    with pytest.raises(CutepyError, match="positive int"):
        copy_atom("SM75_U32x1_LDSM_N", 0)
    with pytest.raises(CutepyError, match="op"):
        copy_atom("SM75_U32x1_LDSM_N", 16, op="load")


@pytest.mark.slow
def test_copy_atoms_match_live_cxx(cxx) -> None:
    """Every 7th case recompiled now; CUTEPY_ATOMS_LIVE=all recompiles every case."""
    cases = copy_cases() if os.environ.get("CUTEPY_ATOMS_LIVE") == "all" else copy_cases()[::7]
    res = cxx.run_cases([copy_case(n, b) for n, b in cases], INCLUDES)
    for (n, b), r in zip(cases, res):
        assert r.ok, r.error[:500]
        assert fields(n, b) == cxx.normalise(r.output).split("|"), (n, b)
