"""MMA atoms against C++ CuTe: every atom's ThrID, Shape_MNK, A/B/C TV layouts and element
widths equal C++'s print (stored in tests/data/atoms_mma.txt; a seeded sample recompiled live)."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import mma_atom, mma_atoms
from tests.kernels.atoms.atoms_cxx import INCLUDES, MMA_FILE, mma_case, read_table
from tests.kernels.atoms.atoms_cxx import mma_fields as fields
from tests.paths import ROOT

STORED = read_table(MMA_FILE)
HEADERS = ROOT


def test_every_atom_has_a_stored_cxx_print() -> None:
    """This table or tests/data/atoms_mma_more.txt (tests/kernels/atoms/test_mma_more.py) holds each atom."""
    more = read_table(MMA_FILE.parent / "atoms_mma_more.txt")
    names = mma_atoms()
    assert len(set(names)) == len(names)
    assert not set(STORED) & set(more)
    assert set(STORED) | (set(more) & set(names)) == set(names)


@pytest.mark.parametrize("family", ["SM61", "SM70", "SM75", "SM80", "SM90", "UniversalFMA"])
def test_atoms_equal_cxx_print(family: str) -> None:
    names = [n for n in mma_atoms() if n.startswith(family) and n in STORED]
    assert names
    for n in names:
        assert fields(n) == STORED[n], n


def test_gmma_names_follow_the_headers() -> None:
    """The SM90 names cutepy generates are exactly the MMA_Traits the headers specialise."""
    cutlass_library = pytest.importorskip("cutlass_library")
    inc = Path(cutlass_library.__file__).parent / "source" / "include" / "cute" / "atom"
    if not inc.is_dir():
        pytest.skip("CUTLASS headers not installed")
    text = "".join(
        (inc / f).read_text() for f in ("mma_traits_sm90_gmma.hpp", "mma_traits_sm90_gmma_ext.hpp")
    )
    pat = r"struct MMA_Traits<(SM90_64x\d+x\d+_[A-Z0-9]+_[SR]S(?:_TN)?(?:_SATURATE)?)\b"
    in_headers = set(re.findall(pat, text))
    assert in_headers == {n for n in mma_atoms() if n.startswith("SM90_64x")}


def test_templated_names() -> None:
    a = mma_atom("SM90_64x128x16_F16F16F16_SS<MN,K>")
    assert a.cpp_type == "SM90_64x128x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K>"
    assert a.tv_layout_C == mma_atom("SM90_64x128x16_F16F16F16_SS").tv_layout_C
    assert mma_atom("UniversalFMA<half_t>").element_types == ("half_t",) * 4
    with pytest.raises(CutepyError, match="K-major A"):
        mma_atom("SM90_64x64x16_F16F16F16_RS<MN,K>")
    with pytest.raises(CutepyError, match="unknown MMA atom"):
        mma_atom("SM90_64x12x16_F16F16F16_SS")
    with pytest.raises(CutepyError):
        mma_atom(3)  # type: ignore[arg-type]


@pytest.mark.slow
def test_atoms_match_live_cxx(cxx) -> None:
    """A seeded sample of atoms recompiled now; CUTEPY_ATOMS_LIVE=N samples N, =all checks the
    whole table (about 2.5 minutes on 2 cores; tests/kernels/atoms/atoms_cxx.py regenerates it)."""
    names = [n for n in mma_atoms() if n in STORED]  # test_mma_more.py recompiles the others
    want = os.environ.get("CUTEPY_ATOMS_LIVE", "16")
    k = len(names) if want == "all" else min(len(names), int(want))
    sample = sorted(set(random.Random(7).sample(names, k)) | {"SM80_16x8x16_F32F16F16F32_TN", "UniversalFMA"})
    res = cxx.run_cases([mma_case(n) for n in sample], INCLUDES)
    for n, r in zip(sample, res):
        assert r.ok, r.error[:500]
        assert fields(n) == cxx.normalise(r.output).split("|"), n
