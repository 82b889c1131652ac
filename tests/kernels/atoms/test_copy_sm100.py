"""CUTLASS 4.7's SM100 copy atoms (8-bit ldmatrix/stmatrix, 4/6-bit-to-8-bit ldmatrix, 256-bit
global load/store) and SM50's warp shuffles against C++ 4.7 compiled on the host.

The prints (``ThrID|SrcBits|DstBits|RefBits|ValSrc|ValDst|ValRef`` of ``Copy_Atom<Op, T>``) are
stored in tests/data/atoms_copy_sm100_cxx47.txt; regenerate them with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 python -m tests.kernels.atoms.test_copy_sm100
"""

from __future__ import annotations

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms import copy_atom, copy_atoms
from tests.kernels.atoms.atoms_cxx import CXX47_COPIES, ELEMENT_TYPE, copy_case, read_table
from tests.paths import DATA

FILE = DATA / "atoms_copy_sm100_cxx47.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/copy_atom.hpp", "cute/atom/copy_traits_sm100.hpp",
            "cute/atom/copy_traits_sm50.hpp", "cute/atom/copy_traits_sm90_tma.hpp")
#: bulk copies C++ rejects (its static_assert) and cutepy refuses
BULK_REJECTS = ("SM90_BULK_COPY_G2S<64>", "SM90_BULK_COPY_S2G<192>")


def cases() -> list[tuple[str, int]]:
    """(name, element bits) of every CUTLASS 4.7 copy atom checked."""
    out = []
    for name in copy_atoms():
        if not name.startswith(CXX47_COPIES):
            continue
        wide = "256bit" in name or "BULK" in name or "UTCCP" in name
        bits = (32,) if "U32" in name else (8, 16, 32, 64, 128) if wide else (8,)
        out += [(name, b) for b in bits]
    return out


def fields(name: str, bits: int) -> list[str]:
    a = copy_atom(name, bits)
    return [str(x) for x in (a.thr_id, a.layout_src_tv_bits, a.layout_dst_tv_bits, a.layout_ref_tv_bits,
                             a.layout_src_tv, a.layout_dst_tv, a.layout_ref_tv)]


def main() -> None:
    from tests.cxx import cxx_harness

    if cxx_harness.cutlass_version() != "4.7.0":
        raise SystemExit("set CUTEPY_CXX_CUTLASS to CUTLASS 4.7's include directory")
    cs = cases()
    rejects = [f"Copy_Traits<SM90_BULK_COPY_{n[14:17]},Int<{n[18:-1]}>>" for n in BULK_REJECTS]
    res = cxx_harness.run_cases([copy_case(n, b) for n, b in cs] + [f"(void)sizeof({t});" for t in rejects],
                                INCLUDES, keys=[0] * len(cs) + list(range(1, len(rejects) + 1)))
    rows = []
    for (n, b), r in zip(cs, res):
        if not r.ok:
            raise SystemExit(f"C++ rejected {n}@{b}: {r.error[:500]}")
        rows.append(f"{n}@{b}\t{cxx_harness.normalise(r.output)}\n")
    for n, r in zip(BULK_REJECTS, res[len(cs):]):
        rows.append(f"reject:{n}\t{'accepted' if r.ok else 'rejected'}\n")
    head = ("# C++ CuTe (CUTLASS 4.7.0) prints, static-integer underscores dropped.\n"
            "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 "
            "python -m tests.kernels.atoms.test_copy_sm100\n")
    FILE.write_text(head + "".join(rows))


STORED = read_table(FILE) if FILE.exists() else {}


def test_the_table_covers_every_case() -> None:
    assert sorted(k for k in STORED if not k.startswith("reject:")) == sorted(f"{n}@{b}" for n, b in cases())
    assert len({n for n, _ in cases()}) == 25


@pytest.mark.parametrize("name", BULK_REJECTS)
def test_bulk_copies_of_other_than_16_byte_multiples_are_refused_like_cxx(name: str) -> None:
    assert STORED[f"reject:{name}"] == ["rejected"]
    with pytest.raises(CutepyError, match="multiple of 16 bytes"):
        copy_atom(name, 8)


@pytest.mark.parametrize("family", ["LDSM_T", "STSM_T", "DU8x16", "256bit_CACHE", "SM50_Shuffle", "BULK",
                                    "UTCCP"])
def test_copy_atoms_equal_cxx47(family: str) -> None:
    picked = [(n, b) for n, b in cases() if family in n]
    assert picked
    for n, b in picked:
        assert fields(n, b) == STORED[f"{n}@{b}"], (n, b)


def test_ops_and_refusals() -> None:
    assert copy_atom("SM100_U8x16_LDSM_T", 8).op == "ldmatrix"
    assert copy_atom("SM100_U8x8_STSM_T", 8).op == "stmatrix"
    assert copy_atom("SM50_Shuffle_U32_2x2Trans_XOR1", 32).op == "shfl"
    assert ELEMENT_TYPE[8] == "uint8_t"
    with pytest.raises(CutepyError, match="do not tile"):
        copy_atom("SM100_U8x16_LDSM_T", 16)
    with pytest.raises(CutepyError, match="do not tile"):
        copy_atom("SM50_Shuffle_U32_2x2Trans_XOR4", 64)


if __name__ == "__main__":
    main()
