"""SM120 sparse and block-scaled atoms against CUTLASS 4.7's traits, compiled on the host.

Regenerate tests/data/atoms_sm120_ext_cxx47.txt with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 python -m tests.kernels.atoms.sm120_ext_cxx

Rows: ``ThrID|Shape_MNK|ALayout|BLayout|CLayout`` of ``MMA_Traits<cpp_type>``, then
``|SFVecSize|SFALayout|SFBLayout`` for a block-scaled atom and ``|ELayout`` for a sparse one
that has it.
"""

from __future__ import annotations

from cutepy.kernels.atoms import mma_atom
from cutepy.kernels.atoms.sm120_ext import WarpBlockScaledMMAAtom, sm120_ext_atoms
from tests.kernels.atoms.atoms_cxx import read_table
from tests.paths import DATA

FILE = DATA / "atoms_sm120_ext_cxx47.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_atom.hpp", "cute/atom/mma_traits_sm120.hpp",
            "cute/atom/mma_traits_sm120_sparse.hpp")


def case(name: str) -> str:
    a = mma_atom(name)
    t = a.cpp_type
    out = (f"{{ using T = MMA_Traits<{t}>; print(typename T::ThrID{{}}); printf(\"|\");"
           ' print(typename T::Shape_MNK{}); printf("|"); print(typename T::ALayout{}); printf("|");'
           ' print(typename T::BLayout{}); printf("|"); print(typename T::CLayout{});')
    if isinstance(a, WarpBlockScaledMMAAtom):
        out += (' printf("|%d|", int(T::SFVecSize)); print(typename T::SFALayout{}); printf("|");'
                " print(typename T::SFBLayout{});")
    if getattr(a, "tv_layout_E", None) is not None:
        out += ' printf("|"); print(typename T::ELayout{});'
    return out + " }"


def fields(name: str) -> list[str]:
    a = mma_atom(name)
    out = [str(a.thr_id), "(" + ",".join(map(str, a.shape_mnk)) + ")", str(a.tv_layout_A), str(a.tv_layout_B),
           str(a.tv_layout_C)]
    if isinstance(a, WarpBlockScaledMMAAtom):
        out += [str(a.sf_vec_size), str(a.tv_layout_SFA), str(a.tv_layout_SFB)]
    if getattr(a, "tv_layout_E", None) is not None:
        out += [str(a.tv_layout_E)]
    return out


def main() -> None:
    from tests.cxx import cxx_harness

    if cxx_harness.cutlass_version() != "4.7.0":
        raise SystemExit("set CUTEPY_CXX_CUTLASS to CUTLASS 4.7's include directory")
    names = sm120_ext_atoms()
    res = cxx_harness.run_cases([case(n) for n in names], INCLUDES)
    rows = []
    for n, r in zip(names, res):
        if not r.ok:
            raise SystemExit(f"C++ rejected {n}: {r.error[:600]}")
        rows.append(f"{n}\t{cxx_harness.normalise(r.output)}\n")
    head = ("# C++ CuTe (CUTLASS 4.7.0) prints, static-integer underscores dropped.\n"
            "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 "
            "python -m tests.kernels.atoms.sm120_ext_cxx\n")
    FILE.write_text(head + "".join(rows))


STORED = read_table(FILE) if FILE.exists() else {}

if __name__ == "__main__":
    main()
