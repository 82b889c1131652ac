"""C++ CuTe 4.7's TiledMMA / TiledCopy partitions for the designs of issue 33 (items 6 and 9).

Each case prints, for a design that cutepy builds with :func:`cutepy.emit.cpp`, C++'s tiled
TV layouts and the partitions of a gmem tensor (``gmem_ptr[b](0x1000) o layout``) or an
identity tensor by a few threads. The prints are stored in
tests/data/tiled_partitions_cxx47.txt; regenerate them with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 \\
        python -m tests.kernels.tiled.partition_cxx47

(CUTLASS 4.7.0 headers: the pip wheel stops at 4.2, whose SM80 int4 16x8x32 BLayout differs).
"""

from __future__ import annotations

import sys
from typing import Any

from cutepy import Layout, copy_atom, make_identity_tensor, make_tensor, mma_atom
from cutepy.emit import cpp
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tiled.copy import make_tiled_copy_B, make_tiled_copy_C
from cutepy.kernels.tiled.mma import make_tiled_mma
from tests.cxx import cxx_harness
from tests.kernels.atoms.atoms_cxx import mma_case, mma_fields
from tests.paths import DATA

FILE = DATA / "tiled_partitions_cxx47.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_atom.hpp", "cute/atom/copy_atom.hpp",
            "cute/atom/mma_traits_sm80.hpp", "cute/atom/copy_traits_sm75.hpp")
ADDRESS = 0x1000

INT4 = "SM80_16x8x32_S32S4U4S32_TN"
#: the atoms whose traits CUTLASS 4.7 changed from 4.2 (BLayout stride 32 -> 64): printed whole
INT4_ATOMS = tuple(f"SM80_16x8x32_S32{a}{b}S32_TN{sat}" for a in ("S4", "U4") for b in ("S4", "U4")
                   for sat in ("", "_SATURATE"))
K_PERM = Layout((8, 8), (8, 1))


def designs() -> dict[str, tuple[Any, str, str, Any, tuple[int, ...]]]:
    """key -> (tiled MMA or copy, its C++ expression, the partition, the tensor, threads)."""
    fma = make_tiled_mma(mma_atom("UniversalFMA<float,float,float,float>"), (1, 2, 2))
    int4 = make_tiled_mma(mma_atom(INT4), (4, 2, 2), (None, None, K_PERM))
    ldsm = make_tiled_copy_B(copy_atom("SM75_U16x8_LDSM_T", 16), int4)
    fma_c = make_tiled_copy_C(copy_atom("UniversalCopy<float>", 32), fma)
    out = {}
    out["fma122/mma/C"] = (fma, cpp(fma), "partition_C", make_identity_tensor((1, 2)), (0, 1, 2, 3))
    out["fma122/copy_C/S"] = (fma_c, cpp(fma_c), "partition_S", make_identity_tensor((1, 2)), (0, 1, 2, 3))
    for name, L in (("col", Layout((16, 64))), ("row", Layout((16, 64), (64, 1)))):
        T = make_tensor(gmem_ptr("int32_t", ADDRESS), L)
        out[f"int4/mma/B/{name}"] = (int4, cpp(int4), "partition_B", T, (0, 5, 300, 511))
        out[f"int4/ldsm_B/S/{name}"] = (ldsm, cpp(ldsm), "partition_S", T, (0, 5, 300, 511))
    return out


def _tensor_cxx(T: Any) -> str:
    L = T.layout
    if T.engine is None:
        return f"make_identity_tensor(make_shape({', '.join(f'Int<{s}>{{}}' for s in L.shape)}))"
    return f"make_tensor(make_gmem_ptr((int32_t*){ADDRESS:#x}ull), {cpp(L)})"


def keys() -> list[str]:
    return sorted(designs()) + [f"atom/{n}" for n in INT4_ATOMS]


def case(key: str) -> str:
    if key.startswith("atom/"):
        return mma_case(key[len("atom/"):])
    obj, expr, part, T, threads = designs()[key]
    body = [f"auto obj = {expr};", f"auto t = {_tensor_cxx(T)};"]
    if key.startswith("fma122/mma"):
        body += ['print(obj.get_layoutC_TV()); printf("|");']
    elif key.startswith("fma122/copy"):
        body += ['print(obj.get_layoutS_TV()); printf("|");']
    for thr in threads:
        body.append(f'print(obj.get_slice({thr}).{part}(t)); printf("|");')
    return " ".join(body)


def cutepy_print(key: str) -> str:
    """The same print from cutepy."""
    if key.startswith("atom/"):
        return "|".join(mma_fields(key[len("atom/"):]))
    obj, _, part, T, threads = designs()[key]
    out = []
    if key.startswith("fma122/mma"):
        out.append(str(obj.tv_layout_C_tiled))
    elif key.startswith("fma122/copy"):
        out.append(str(obj.layout_src_tv_tiled))
    out += [str(getattr(obj.get_slice(t), part)(T)) for t in threads]
    return "|".join(out) + "|"


def read() -> dict[str, str]:
    rows = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            k, v = line.split("\t")
            rows[k] = v
    return rows


def main() -> int:
    names = keys()
    results = cxx_harness.run_cases([case(k) for k in names], includes=INCLUDES)
    lines = ["# C++ CuTe (CUTLASS 4.7.0) prints of TiledMMA/TiledCopy partitions (issue 33, items 6 and 9)",
             "# and of the int4 atoms 4.7 changed; static-integer underscores dropped. Regenerate:",
             "#   CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 \\",
             "#   python -m tests.kernels.tiled.partition_cxx47"]
    for k, r in zip(names, results):
        if not r.ok:
            print(k, r.error[:3000], file=sys.stderr)
            return 1
        lines.append(f"{k}\t{cxx_harness.normalise(r.output)}")
    FILE.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(names)} cases to {FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
