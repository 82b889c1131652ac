"""SM90 GMMA descriptor fragments: the C++ cases and their stored prints (tests/data/gmma_desc_cxx.txt).

Each case builds a TiledMMA of an ``_SS`` GMMA atom, an smem tensor of GMMA-canonical atoms
tiled with ``tile_to_shape`` (a pipeline mode last) and prints thread 0's
``partition_fragment_A/B`` layout and the 64-bit descriptor words along K.

Regenerate (CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        python -m tests.kernels.gmma_desc_cxx
"""

from __future__ import annotations

import sys

from tests.paths import DATA

FILE = DATA / "gmma_desc_cxx.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_traits_sm90_gmma.hpp")
ELEMENT = {"half_t": "F32F16F16", "bfloat16_t": "F32BF16BF16"}
SW_NAME = {0: "INTER", 32: "SW32", 64: "SW64", 128: "SW128"}

#: (element, N of the atom, A major, B major, A swizzle bytes, B swizzle bytes, bM, bN, bK, stages)
CASES = [
    ("bfloat16_t", 128, "K", "K", 128, 128, 64, 128, 64, 4),
    ("half_t", 64, "K", "K", 64, 64, 128, 64, 32, 2),
    ("half_t", 128, "K", "K", 32, 0, 64, 128, 16, 3),
    ("bfloat16_t", 64, "MN", "MN", 128, 128, 64, 64, 64, 2),
    ("half_t", 256, "MN", "K", 64, 128, 128, 256, 64, 2),
    ("half_t", 128, "K", "MN", 0, 32, 64, 128, 32, 2),
]


def atom_name(c: tuple) -> str:
    t, n, ma, mb = c[:4]
    return f"SM90_64x{n}x16_{ELEMENT[t]}_SS<GMMA::Major::{ma},GMMA::Major::{mb}>"


def cutepy_name(c: tuple) -> str:
    t, n, ma, mb = c[:4]
    return f"SM90_64x{n}x16_{ELEMENT[t]}_SS<{ma},{mb}>"


def cxx_case(c: tuple) -> str:
    t, n, ma, mb, swa, swb, bm, bn, bk, p = c
    lines = [
        f"using T = cute::{t};",
        f"TiledMMA mma = make_tiled_mma({atom_name(c).replace('GMMA::', 'SM90::GMMA::')}{{}});",
        "auto sA = make_tensor(make_smem_ptr((T*)0x400), "
        f"tile_to_shape(GMMA::Layout_{ma}_{SW_NAME[swa]}_Atom<T>{{}}, "
        f"make_shape(Int<{bm}>{{}}, Int<{bk}>{{}}, Int<{p}>{{}})));",
        "auto sB = make_tensor(make_smem_ptr((T*)0x10000), "
        f"tile_to_shape(GMMA::Layout_{mb}_{SW_NAME[swb]}_Atom<T>{{}}, "
        f"make_shape(Int<{bn}>{{}}, Int<{bk}>{{}}, Int<{p}>{{}})));",
        "auto thr = mma.get_slice(0);",
        "auto fA = thr.partition_fragment_A(sA); auto fB = thr.partition_fragment_B(sB);",
        'print(fA.layout()); printf("|"); print(fB.layout()); printf("|");',
        'for (int i = 0; i < size(fA); ++i) printf("%llx ", (unsigned long long)uint64_t(fA(i))); '
        'printf("|");',
        'for (int i = 0; i < size(fB); ++i) printf("%llx ", (unsigned long long)uint64_t(fB(i)));',
    ]
    return "\n".join(lines)


def read() -> dict[str, list[str]]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            key, rest = line.split("\t", 1)
            out[key] = rest.split("|")
    return out


def key(c: tuple) -> str:
    return "/".join(map(str, c))


def main() -> None:
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([cxx_case(c) for c in CASES], INCLUDES)
    bad = [(c, r.error[:400]) for c, r in zip(CASES, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad}")
    head = ("# C++ CuTe (CUTLASS 4.7): thread 0's partition_fragment_A|B layouts and descriptor words\n"
            "# (hex), static-integer underscores dropped. Host C++ cannot read a shared-memory address\n"
            "# (cast_smem_ptr_to_uint prints an ERROR line, dropped here, and gives 0): the start-address\n"
            "# field is 0 in these words. Regenerate: see tests/kernels/gmma_desc_cxx.py\n")
    # host C++ has no smem addresses: cast_smem_ptr_to_uint prints an ERROR line and gives 0
    clean = ["".join(x for x in r.output.splitlines() if not x.startswith("ERROR:")) for r in res]
    rows = [f"{key(c)}\t{cxx_harness.normalise(o)}\n" for c, o in zip(CASES, clean)]
    FILE.write_text(head + "".join(rows))
    print(f"{len(res)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
