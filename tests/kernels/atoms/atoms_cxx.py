"""C++ side of the atom differential: the C++ blocks that print each atom, and the stored prints.

Regenerate the stored prints (tests/data/atoms_mma.txt, tests/data/atoms_copy.txt) with::

    python -m tests.kernels.atoms.atoms_cxx

(needs g++ and the CUTLASS/CUDA header wheels of the test extras; see tests/cxx/cxx_harness.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

from cutepy.kernels.atoms import copy_atom, copy_atoms, mma_atom, mma_atoms
from cutepy.kernels.atoms.mma import TYPE_BITS
from tests.cxx import cxx_harness
from tests.paths import DATA

HERE = Path(__file__).resolve().parent


INCLUDES = (
    "cute/tensor.hpp",
    "cute/atom/mma_atom.hpp",
    "cute/atom/copy_atom.hpp",
    "cute/atom/mma_traits_sm61.hpp",
    "cute/atom/mma_traits_sm70.hpp",
    "cute/atom/mma_traits_sm75.hpp",
    "cute/atom/mma_traits_sm80.hpp",
    "cute/atom/mma_traits_sm90_gmma.hpp",
    "cute/arch/mma_sm90_gmma_ext.hpp",
    "cute/atom/mma_traits_sm90_gmma_ext.hpp",
    "cute/atom/copy_traits_sm75.hpp",
    "cute/atom/copy_traits_sm80.hpp",
    "cute/atom/copy_traits_sm90.hpp",
    "cute/util/print_latex.hpp",
)
#: the C++ element type used for a copy of ``bits``-bit elements
ELEMENT_TYPE = {8: "uint8_t", 16: "half_t", 32: "float", 64: "double", 128: "uint128_t"}
#: element widths each copy family is checked with
COPY_BITS = {"LDSM_N": (8, 16, 32), "LDSM_T": (8, 16), "STSM_N": (8, 16, 32), "STSM_T": (8, 16)}

MMA_FILE = DATA / "atoms_mma.txt"
SMEM_FILE = DATA / "atoms_smem.txt"
SMEM_CASES = [(m, sw, b) for m in ("K", "MN") for sw in (0, 32, 64, 128) for b in (8, 16, 32, 64)]
_SW_NAME = {0: "INTER", 32: "SW32", 64: "SW64", 128: "SW128"}


def smem_case(major: str, sw: int, bits: int) -> str:
    """C++ block printing the GMMA smem atom and its position-independent form."""
    t = f"GMMA::Layout_{major}_{_SW_NAME[sw]}_Atom<{ELEMENT_TYPE[bits]}>"
    return f'print({t}{{}}); printf("|"); print(as_position_independent_swizzle_layout({t}{{}}));'


COPY_FILE = DATA / "atoms_copy.txt"
#: the copy atoms only CUTLASS 4.7 has (tests/data/atoms_copy_sm100_cxx47.txt)
CXX47_COPIES = ("SM100_", "SM50_", "SM90_BULK_")


def mma_case(name: str) -> str:
    """A C++ block printing ThrID|Shape_MNK|A|B|C|bits(D,A,B,C) of ``MMA_Atom<cpp_type>``."""
    t = mma_atom(name).cpp_type
    return (
        f'using A = MMA_Atom<{t}>; print(typename A::ThrID{{}}); printf("|");'
        ' print(typename A::Shape_MNK{}); printf("|"); print(typename A::LayoutA_TV{}); printf("|");'
        ' print(typename A::LayoutB_TV{}); printf("|"); print(typename A::LayoutC_TV{});'
        ' printf("|%d,%d,%d,%d", int(sizeof_bits_v<typename A::ValTypeD>),'
        " int(sizeof_bits_v<typename A::ValTypeA>), int(sizeof_bits_v<typename A::ValTypeB>),"
        " int(sizeof_bits_v<typename A::ValTypeC>));"
    )


def copy_cases() -> list[tuple[str, int]]:
    """(name, element_bits) of every copy atom checked."""
    out = []
    for name in copy_atoms():
        if name.startswith(CXX47_COPIES):  # CUTLASS 4.7's: checked by test_copy_sm100.py
            continue
        fam = next((k for k in COPY_BITS if name.endswith(k)), None)
        if fam is not None:
            out += [(name, b) for b in COPY_BITS[fam]]
        else:
            vbits = int(name.split("<uint")[1].split("_t>")[0])
            out += [(name, b) for b in (8, 16, 32, 64, 128) if b <= vbits]
    return out


def copy_case(name: str, bits: int) -> str:
    """A C++ block printing ThrID|SrcBits|DstBits|RefBits|ValSrc|ValDst|ValRef of a Copy_Atom."""
    t = copy_atom(name, bits).cpp_type
    return (
        f'using A = Copy_Atom<{t}, {ELEMENT_TYPE[bits]}>; print(typename A::ThrID{{}}); printf("|");'
        ' print(typename A::BitLayoutSrc{}); printf("|"); print(typename A::BitLayoutDst{});'
        ' printf("|"); print(typename A::BitLayoutRef{}); printf("|");'
        ' print(typename A::ValLayoutSrc{}); printf("|"); print(typename A::ValLayoutDst{});'
        ' printf("|"); print(typename A::ValLayoutRef{});'
    )


def mma_fields(name: str) -> list[str]:
    """cutepy's side of a stored MMA row: ThrID, Shape_MNK, A, B, C layouts and element bits."""
    a = mma_atom(name)
    bits = ",".join(str(TYPE_BITS[t]) for t in a.element_types)
    shape = "(" + ",".join(map(str, a.shape_mnk)) + ")"
    return [str(a.thr_id), shape, str(a.tv_layout_A), str(a.tv_layout_B), str(a.tv_layout_C), bits]


def read_table(path: Path) -> dict[str, list[str]]:
    """key -> fields of a stored print table (tab-separated; '#' lines are comments)."""
    out = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            key, rest = line.split("\t", 1)
            out[key] = rest.split("|")
    return out


def _write(path: Path, rows: list[tuple[str, str]]) -> None:
    head = (
        "# C++ CuTe (CUTLASS 4.2) prints, static-integer underscores dropped.\n"
        "# Regenerate: python -m tests.kernels.atoms.atoms_cxx\n"
    )
    path.write_text(head + "".join(f"{k}\t{v}\n" for k, v in rows))


def main() -> None:
    reason = cxx_harness.compiler_reason()
    if reason is not None:
        raise SystemExit(f"C++ unavailable: {reason}")
    res = cxx_harness.run_cases([smem_case(*c) for c in SMEM_CASES], INCLUDES)
    if not all(r.ok for r in res):
        raise SystemExit(f"C++ rejected {[r.error[:300] for r in res if not r.ok][:2]}")
    _write(
        SMEM_FILE,
        [("/".join(map(str, c)), cxx_harness.normalise(r.output)) for c, r in zip(SMEM_CASES, res)],
    )
    if "--smem-only" in sys.argv:
        return
    names = mma_atoms()
    res = cxx_harness.run_cases([mma_case(n) for n in names], INCLUDES)
    bad = [(n, r.error[:300]) for n, r in zip(names, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad[:3]}")
    _write(MMA_FILE, [(n, cxx_harness.normalise(r.output)) for n, r in zip(names, res)])
    cases = copy_cases()
    res = cxx_harness.run_cases([copy_case(n, b) for n, b in cases], INCLUDES)
    bad = [(n, b, r.error[:300]) for (n, b), r in zip(cases, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad[:3]}")
    _write(COPY_FILE, [(f"{n}@{b}", cxx_harness.normalise(r.output)) for (n, b), r in zip(cases, res)])


if __name__ == "__main__":
    main()
