"""TMEM copies (make_tmem_copy of SM100_TMEM_LOAD_32dp32b{N}x) over UMMA accumulators: C++ cases and
stored prints (tests/data/tmem_copy_cxx.txt): the TiledCopy and the partitions of threads 0, 1, 37
and 127 (source: the TMEM accumulator; destination: a gmem C tile).

Regenerate (CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        python -m tests.kernels.tmem_copy_cxx
"""

from __future__ import annotations

import sys

from tests.kernels import tma_cxx, umma_cxx
from tests.paths import DATA

FILE = DATA / "tmem_copy_cxx.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_traits_sm100.hpp", "cute/atom/copy_traits_sm100.hpp")
THREADS = (0, 1, 37, 127)
#: (UMMA case of umma_cxx, N of SM100_TMEM_LOAD_32dp32b{N}x)
CASES = [(umma_cxx.CASES[0], 8), (umma_cxx.CASES[0], 32), (umma_cxx.CASES[2], 1), (umma_cxx.CASES[3], 16)]


def key(c: tuple) -> str:
    return f"{umma_cxx.name(c[0])}/{c[1]}"


def cxx_case(c: tuple) -> str:
    (two, m, n), reps = c
    op = (f"SM100_MMA_F16BF16{'_2x1SM' if two else ''}_SS<half_t,half_t,float,{m},{n},"
          "UMMA::Major::K,UMMA::Major::K>")
    lines = [
        f"TiledMMA mma = make_tiled_mma({op}{{}});",
        "auto gC = make_tensor(make_gmem_ptr((float*)0x10000), "
        f"make_layout(make_shape(Int<{m}>{{}}, Int<{n}>{{}}), make_stride(Int<{n}>{{}}, Int<1>{{}})));",
        "auto thr = mma.get_slice(0);",
        "auto tCgC = thr.partition_C(gC);",
        "auto acc = thr.make_fragment_C(tCgC);",
        f"auto t2r = make_tmem_copy(SM100_TMEM_LOAD_32dp32b{reps}x{{}}, acc);",
        'printf("@TILED\\n"); print(t2r);',
    ]
    for t in THREADS:
        lines.append(f'printf("\\n@S{t}\\n"); print(t2r.get_slice({t}).partition_S(acc));')
        lines.append(f'printf("\\n@D{t}\\n"); print(t2r.get_slice({t}).partition_D(tCgC));')
    lines.append('printf("\\n");')
    return "\n".join(lines)


def read() -> dict[str, dict[str, str]]:
    out, current = {}, None
    for line in FILE.read_text().splitlines():
        if line.startswith("#"):
            continue
        if line.startswith("=== "):
            current = line[4:]
            out[current] = []
        elif current is not None:
            out[current].append(line)
    return {k: tma_cxx.parse_output("\n".join(v))["sections"] for k, v in out.items()}


def main() -> None:
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([cxx_case(c) for c in CASES], INCLUDES)
    bad = [(c, r.error[:400]) for c, r in zip(CASES, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad}")
    head = ("# C++ CuTe (CUTLASS 4.7): make_tmem_copy over UMMA accumulators, static-integer underscores\n"
            "# dropped. Regenerate: see tests/kernels/tmem_copy_cxx.py\n")
    body = "".join(f"=== {key(c)}\n{cxx_harness.normalise(r.output)}\n" for c, r in zip(CASES, res))
    FILE.write_text(head + body)
    print(f"{len(res)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
