"""SM90 sparse GMMA atoms against CUTLASS 4.7's traits, compiled on the host.

Regenerate tests/data/atoms_gmma_sparse_cxx47.txt with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 python -m tests.kernels.atoms.gmma_sparse_cxx

Rows: ``ThrID|Shape_MNK|ALayout|BLayout|CLayout|ELayout`` of ``MMA_Traits<cpp_type>`` for every
family, SS and RS, at four N each (the smallest two, a middle one, the largest), and for the
spellings in ``VARIANTS``; ``reject:`` rows say whether C++ rejects an N the family lacks.
"""

from __future__ import annotations

from cutepy.kernels.atoms import mma_atom
from cutepy.kernels.atoms.gmma_sparse import FAMILIES
from tests.kernels.atoms.atoms_cxx import read_table
from tests.paths import DATA

FILE = DATA / "atoms_gmma_sparse_cxx47.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_atom.hpp", "cute/atom/mma_traits_sm90_gmma_sparse.hpp",
            "cute/arch/mma_sm90_gmma_ext.hpp", "cute/atom/mma_traits_sm90_gmma_ext.hpp",
            "cute/arch/mma_sm90_gmma_sparse_ext.hpp", "cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp")
VARIANTS = ["SM90::GMMA::SPARSE::GMMA_64x40x32_F16F16F16_SS<MN,MN>",
            "SM90::GMMA::SPARSE::GMMA_64x200x32_F32BF16BF16_RS<K,MN>",
            "SM90::GMMA::SPARSE::GMMA_64x136x32_F32F16F16_SS<GMMA::Major::MN,GMMA::Major::K>"]
#: N the integer families lack (C++ must reject them, and cutepy refuses them)
REJECTS = ["SM90::GMMA::SPARSE::GMMA_64x40x64_S32S8S8_SS_TN",
           "SM90::GMMA::SPARSE::GMMA_64x264x32_F16F16F16_SS"]


def names() -> list[str]:
    out = []
    for ty, k, sufs, ns, _ in FAMILIES:
        for n in sorted({ns[0], ns[1], ns[len(ns) // 2], ns[-1]}):
            for src in ("SS", "RS"):
                out += [f"SM90::GMMA::SPARSE::GMMA_64x{n}x{k}_{ty}_{src}{suf}" for suf in sufs]
    return out


def case(name: str) -> str:
    t = mma_atom(name).cpp_type
    return (f"{{ using T = MMA_Traits<{t}>; print(typename T::ThrID{{}}); printf(\"|\");"
            ' print(typename T::Shape_MNK{}); printf("|"); print(typename T::ALayout{}); printf("|");'
            ' print(typename T::BLayout{}); printf("|"); print(typename T::CLayout{}); printf("|");'
            " print(typename T::ELayout{}); }")


def fields(name: str) -> list[str]:
    a = mma_atom(name)
    shape = "(" + ",".join(map(str, a.shape_mnk)) + ")"
    layouts = (a.tv_layout_A, a.tv_layout_B, a.tv_layout_C, a.tv_layout_E)
    return [str(a.thr_id), shape, *map(str, layouts)]


def reject_case(name: str) -> str:
    return f"(void)sizeof(MMA_Traits<{name}<>>);" if "_TN" in name else (
        f"(void)sizeof(MMA_Traits<{name}<GMMA::Major::K,GMMA::Major::K>>);")


def main() -> None:
    from tests.cxx import cxx_harness

    if cxx_harness.cutlass_version() != "4.7.0":
        raise SystemExit("set CUTEPY_CXX_CUTLASS to CUTLASS 4.7's include directory")
    keyed = names() + VARIANTS
    cases = [case(n) for n in keyed] + [reject_case(r) for r in REJECTS]
    keys = [0] * len(keyed) + list(range(1, len(REJECTS) + 1))
    res = cxx_harness.run_cases(cases, INCLUDES, keys=keys)
    rows = []
    for n, r in zip(keyed, res):
        if not r.ok:
            raise SystemExit(f"C++ rejected {n}: {r.error[:600]}")
        rows.append(f"{n}\t{cxx_harness.normalise(r.output)}\n")
    for n, r in zip(REJECTS, res[len(keyed):]):
        rows.append(f"reject:{n}\t{'accepted' if r.ok else 'rejected'}\n")
    head = ("# C++ CuTe (CUTLASS 4.7.0) prints, static-integer underscores dropped.\n"
            "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 "
            "python -m tests.kernels.atoms.gmma_sparse_cxx\n")
    FILE.write_text(head + "".join(rows))


STORED = read_table(FILE) if FILE.exists() else {}

if __name__ == "__main__":
    main()
