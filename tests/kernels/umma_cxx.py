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


if __name__ == "__main__":
    main()
