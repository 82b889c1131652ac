"""SM100 UMMA accumulators in tensor memory: C++ cases and stored prints (tests/data/umma_tmem_cxx.txt).

Each case prints ``get_slice(0).make_fragment_C(get_slice(0).partition_C(gC))`` of a TiledMMA of
one UMMA ``_SS`` atom (CUTLASS's blackwell tutorial 01 does this for its accumulator).

Regenerate (CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        python -m tests.kernels.umma_cxx
"""

from __future__ import annotations

import sys

from tests.paths import DATA

FILE = DATA / "umma_tmem_cxx.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_traits_sm100.hpp")

#: (2-SM, M, N) of SM100_MMA_F16BF16[_2x1SM]_SS<half_t,half_t,float,M,N,K,K>
CASES = [(False, 128, 256), (False, 64, 128), (False, 128, 64), (True, 256, 256), (True, 128, 128),
         (True, 256, 64)]


def name(c: tuple) -> str:
    two, m, n = c
    return f"SM100_MMA_F16BF16{'_2x1SM' if two else ''}_SS<half_t,half_t,float,{m},{n},K,K>"


def cxx_case(c: tuple) -> str:
    two, m, n = c
    op = (f"SM100_MMA_F16BF16{'_2x1SM' if two else ''}_SS<half_t,half_t,float,{m},{n},"
          "UMMA::Major::K,UMMA::Major::K>")
    return "\n".join([
        f"TiledMMA mma = make_tiled_mma({op}{{}});",
        "auto gC = make_tensor(make_gmem_ptr((float*)0), "
        f"make_layout(make_shape(Int<{m}>{{}}, Int<{n}>{{}})));",
        "auto thr = mma.get_slice(0);",
        "print(thr.make_fragment_C(thr.partition_C(gC)).layout());",
    ])


def read() -> dict[str, str]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            k, v = line.split("\t", 1)
            out[k] = v
    return out


def main() -> None:
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([cxx_case(c) for c in CASES], INCLUDES)
    bad = [(c, r.error[:400]) for c, r in zip(CASES, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad}")
    head = ("# C++ CuTe (CUTLASS 4.7): the TMEM accumulator layout of thread 0 (make_fragment_C),\n"
            "# static-integer underscores dropped. Regenerate: see tests/kernels/umma_cxx.py\n")
    rows = [f"{name(c)}\t{cxx_harness.normalise(r.output)}\n" for c, r in zip(CASES, res)]
    FILE.write_text(head + "".join(rows))
    print(f"{len(res)} cases", file=sys.stderr)




DESC_FILE = DATA / "umma_desc_cxx.txt"
#: (2-SM, M, N, A major, B major, A swizzle bytes, B swizzle bytes) of F16BF16 SS atoms, K tile 64
DESC_CASES = [(False, 128, 256, "K", "K", 128, 128), (False, 64, 128, "MN", "K", 64, 32),
              (True, 256, 256, "K", "K", 128, 128), (False, 128, 64, "K", "MN", 0, 128)]
_SW = {0: "INTER", 32: "SW32", 64: "SW64", 128: "SW128"}


def desc_name(c: tuple) -> str:
    two, m, n, ma, mb = c[:5]
    return f"SM100_MMA_F16BF16{'_2x1SM' if two else ''}_SS<half_t,half_t,float,{m},{n},{ma},{mb}>"


def desc_key(c: tuple) -> str:
    return "/".join(map(str, c))


def cxx_desc_case(c: tuple) -> str:
    """C++'s make_fragment_A/B of MMA-shaped smem tensors (as blackwell/02 builds them): the
    descriptor layouts and words (hex; host C++ reads every smem address as 0)."""
    two, m, n, ma, mb, swa, swb = c
    op = (f"SM100_MMA_F16BF16{'_2x1SM' if two else ''}_SS<half_t,half_t,float,{m},{n},"
          f"UMMA::Major::{ma},UMMA::Major::{mb}>")
    return "\n".join([
        f"TiledMMA mma = make_tiled_mma({op}{{}});",
        "auto tiler = make_shape(tile_size<0>(mma), tile_size<1>(mma), tile_size<2>(mma) * Int<4>{});",
        "auto shA = partition_shape_A(mma, make_shape(size<0>(tiler), size<2>(tiler)));",
        "auto shB = partition_shape_B(mma, make_shape(size<1>(tiler), size<2>(tiler)));",
        f"auto sA = make_tensor(make_smem_ptr((half_t*)0x400), "
        f"UMMA::tile_to_mma_shape(UMMA::Layout_{ma}_{_SW[swa]}_Atom<half_t>{{}}, shA));",
        f"auto sB = make_tensor(make_smem_ptr((half_t*)0x8400), "
        f"UMMA::tile_to_mma_shape(UMMA::Layout_{mb}_{_SW[swb]}_Atom<half_t>{{}}, shB));",
        "auto thr = mma.get_slice(0);",
        "auto fA = thr.make_fragment_A(sA); auto fB = thr.make_fragment_B(sB);",
        'print(fA.layout()); printf("|"); print(fB.layout()); printf("|");',
        'for (int i = 0; i < size(fA); ++i) printf("%llx ", (unsigned long long)uint64_t(fA(i)));',
        'printf("|");',
        'for (int i = 0; i < size(fB); ++i) printf("%llx ", (unsigned long long)uint64_t(fB(i)));',
    ])


def read_desc() -> dict[str, list[str]]:
    out = {}
    for line in DESC_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            k, v = line.split("\t", 1)
            out[k] = v.split("|")
    return out


def main_desc() -> None:
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([cxx_desc_case(c) for c in DESC_CASES], INCLUDES)
    bad = [(c, r.error[:400]) for c, r in zip(DESC_CASES, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad}")
    # host C++ has no smem addresses: cast_smem_ptr_to_uint prints an ERROR line and gives 0
    clean = ["".join(x for x in r.output.splitlines() if not x.startswith("ERROR:")) for r in res]
    clean = [o.replace("ERROR: cast_smem_ptr_to_uint not supported but used.", "") for o in clean]
    head = ("# C++ CuTe (CUTLASS 4.7): make_fragment_A|B of MMA-shaped smem (UMMA descriptors): layouts\n"
            "# and"
            " words (hex, start address 0: host C++ has no smem addresses). Regenerate:\n"
            "#   python -m tests.kernels.umma_cxx --desc (CUTEPY_CXX_INCLUDE as in the module docstring)\n")
    rows = [f"{desc_key(c)}\t{cxx_harness.normalise(o)}\n" for c, o in zip(DESC_CASES, clean)]
    DESC_FILE.write_text(head + "".join(rows))


if __name__ == "__main__":
    main_desc() if "--desc" in sys.argv else main()
