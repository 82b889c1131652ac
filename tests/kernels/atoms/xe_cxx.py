"""Intel Xe DPAS atoms against Intel's CuTe fork (sycl-tla), compiled on the host.

sycl-tla (github.com/intel/sycl-tla, formerly cutlass-sycl) defines its Xe MMA traits in plain
CuTe (``cute/atom/mma_traits_xe.hpp``: ``XE_DPAS_TT<M, D, A, B, C>``; ``mma_traits_xe_legacy.hpp``:
``XE_{M}x16x{K}_{types}_TT``). Their layouts compile with g++ on the host once two SYCL-only
names are stood in for (``sycl::marray``, ``sycl::half``: ``tests/kernels/atoms/sycl_stub``) and
glibc's ``ffs`` is kept apart from sycl-tla's (``sycl_stub/xe_host_prelude.hpp``). Regenerate the
stored prints with::

    git -C <sycl-tla clone> archive 6601377d2 include | tar -x -C /tmp/sycltla
    CUTEPY_CXX_INCLUDE=tests/kernels/atoms/sycl_stub:/tmp/sycltla/include:<nvidia cuda_cccl,
    cuda_runtime, cuda_nvcc include dirs> CUTEPY_CXX_JOBS=1 python -m tests.kernels.atoms.xe_cxx

(the nvidia include dirs are those ``tests/cxx/cxx_harness.py`` finds from the header wheels).
"""

from __future__ import annotations

from cutepy.kernels.atoms import mma_atom, mma_atoms
from tests.kernels.atoms.atoms_cxx import mma_fields, read_table
from tests.paths import DATA

XE_FILE = DATA / "atoms_xe_sycl_tla.txt"
#: sycl_stub/xe_host_prelude.hpp includes sycl-tla's traits, keeping glibc's ffs apart from sycl-tla's
INCLUDES = ("xe_host_prelude.hpp",)
#: the C++ type names cutepy's element types are printed under in sycl-tla (uint4_t is cute's)
CXX_TYPE = {"uint4b_t": "uint4_t", "int4b_t": "int4_t"}


def case(name: str) -> str:
    """C++ printing ThrID|Shape_MNK|A|B|C|bits(D,A,B,C) of ``MMA_Traits<cpp_type>``."""
    t = mma_atom(name).cpp_type
    for ours, theirs in CXX_TYPE.items():
        t = t.replace(ours, theirs)
    return (
        f"{{ using T = MMA_Traits<{t}>; print(typename T::ThrID{{}}); printf(\"|\");"
        ' print(typename T::Shape_MNK{}); printf("|"); print(typename T::ALayout{}); printf("|");'
        ' print(typename T::BLayout{}); printf("|"); print(typename T::CLayout{});'
        ' printf("|%d,%d,%d,%d", int(sizeof_bits_v<typename T::ValTypeD>),'
        " int(sizeof_bits_v<typename T::ValTypeA>), int(sizeof_bits_v<typename T::ValTypeB>),"
        " int(sizeof_bits_v<typename T::ValTypeC>)); }"
    )


def main() -> None:
    from tests.cxx import cxx_harness

    names = mma_atoms(vendor="intel")
    res = cxx_harness.run_cases([case(n) for n in names], INCLUDES)
    rows = []
    for n, r in zip(names, res):
        if not r.ok:
            raise SystemExit(f"C++ rejected {n}: {r.error[:600]}")
        rows.append(f"{n}\t{cxx_harness.normalise(r.output)}\n")
    head = (
        "# Intel sycl-tla (commit 6601377d2) MMA_Traits prints, compiled with g++ on the host,"
        " static-integer underscores dropped.\n"
        "# Regenerate: see tests/kernels/atoms/xe_cxx.py\n"
    )
    XE_FILE.write_text(head + "".join(rows))


STORED = read_table(XE_FILE) if XE_FILE.exists() else {}

__all__ = ["STORED", "XE_FILE", "case", "mma_fields"]

if __name__ == "__main__":
    main()
