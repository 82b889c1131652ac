"""Whole GEMM kernels designed in cutepy, run on a GPU: CUTLASS's tutorial kernel
``gemm_device`` (examples/cute/tutorial/sgemm_sm80.cu, included at build time, not copied) is
instantiated with the smem layouts, TiledCopys, TiledMMA and smem->register atoms that cutepy
builds and ``cutepy.emit.cpp`` writes, launched on the whole problem, and its C compared with
a CPU product. Designs: the tutorial's own TN (fp16 MMA, Sw<3,3,3> smem, cp.async, LDSM) and
NT (float FMA) designs, and variants of the TN design (other swizzles, no swizzle, another
MMA tiling, narrower copies), and one broken design (aliasing smem) that must fail on the GPU
and in cutepy's own simulation. Inputs are small integers, so every result is exact.

On a machine with an SM80+ GPU, nvcc and CUTLASS (run from the repository root)::

    python -m tests.kernels.kernel_hardware prepare --out DIR          # here: cutepy writes DIR/kernels.cu
    nvcc -std=c++17 -O2 -arch=sm_90 -I<cutlass>/include -I<cutlass>/examples/cute/tutorial \\
        DIR/kernels.cu -o DIR/kernels && DIR/kernels > DIR/status.txt   # on the GPU machine
    nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a ... DIR/kernels_sm90.cu \\
        -o DIR/kernels_sm90 && DIR/kernels_sm90 > DIR/status_sm90.txt      # the SM90 designs
    python -m tests.kernels.kernel_hardware collect --out DIR          # here: DIR/kernel_hardware.json

tests/data/kernel_hardware.json is that file from an H200 (tests/kernels/test_kernel_hardware.py).
"""

from __future__ import annotations

import argparse
import json
import pathlib

from cutepy import Layout, Swizzle, composition, make_tiled_copy, make_tiled_mma, size, tile_to_shape
from cutepy.emit.cpp import cpp
from cutepy.kernels.atoms import copy_atom, mma_atom

M, N, K = 512, 384, 256


def designs() -> list[dict]:
    """The designs, built in cutepy (each a dict of cutepy values and the C++ types)."""
    out = []

    def tn(name: str, atom, copy_thr, copy_val, copy_op, mma_layout, mma_tile, s2r: str) -> None:
        sA = tile_to_shape(atom, (128, 64, 3))
        cp = make_tiled_copy(copy_atom(copy_op, 16), copy_thr, copy_val)
        mma = make_tiled_mma(mma_atom("SM80_16x8x16_F16F16F16F16_TN"), mma_layout, mma_tile)
        out.append({"name": name, "kind": "tn", "TA": "cute::half_t", "TC": "cute::half_t",
                    "tile": (128, 128, 64), "sA": sA, "sB": sA, "copyA": cp, "copyB": cp, "mma": mma,
                    "s2rA": copy_atom(s2r, 16), "s2rB": copy_atom(s2r, 16)})

    k_major = Layout((8, (8, 8)), (8, (1, 64)))
    cp_async = "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"
    tn("sgemm_sm80 TN (the tutorial's design)", composition(Swizzle(3, 3, 3), k_major),
       Layout((16, 8), (8, 1)), Layout((1, 8)), cp_async, (2, 2), (32, 32, 16), "SM75_U32x4_LDSM_N")
    tn("TN, Sw<2,3,3> smem", composition(Swizzle(2, 3, 3), k_major),
       Layout((16, 8), (8, 1)), Layout((1, 8)), cp_async, (2, 2), (32, 32, 16), "SM75_U32x4_LDSM_N")
    tn("TN, unswizzled smem", k_major,
       Layout((16, 8), (8, 1)), Layout((1, 8)), cp_async, (2, 2), (32, 32, 16), "SM75_U32x4_LDSM_N")
    tn("TN, 4x1 warps, 64x16x16 MMA tile", composition(Swizzle(3, 3, 3), k_major),
       Layout((16, 8), (8, 1)), Layout((1, 8)), cp_async, (4, 1), (64, 16, 16), "SM75_U32x4_LDSM_N")
    tn("TN, 64-bit cp.async, LDSM x2", composition(Swizzle(3, 3, 3), k_major),
       Layout((32, 4), (4, 1)), Layout((1, 4)), "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", (2, 2), (32, 32, 16),
       "SM75_U32x2_LDSM_N")
    tn("TN, universal copies", composition(Swizzle(3, 3, 3), k_major),
       Layout((16, 8), (8, 1)), Layout((1, 8)), "UniversalCopy<uint128_t>", (2, 2), (32, 32, 16),
       "AutoVectorizingCopy")
    # the control: smem rows 32 elements apart hold 64 each, so rows overwrite each other
    tn("TN, aliasing smem (a broken design: must fail)", k_major,
       Layout((16, 8), (8, 1)), Layout((1, 8)), cp_async, (2, 2), (32, 32, 16), "SM75_U32x4_LDSM_N")
    alias = Layout((128, 64, 3), (32, 1, 8192))
    out[-1] |= {"sA": alias, "sB": alias}
    s = Layout((128, 8, 3))
    cp = make_tiled_copy(copy_atom(cp_async, 32), Layout((32, 8)), Layout((4, 1)))
    mma = make_tiled_mma(mma_atom("UniversalFMA<float,float,float>"), (16, 16, 1))
    out.append({"name": "sgemm_sm80 NT (the tutorial's design)", "kind": "nt", "TA": "float", "TC": "float",
                "tile": (128, 128, 8), "sA": s, "sB": s, "copyA": cp, "copyB": cp, "mma": mma,
                "s2rA": copy_atom("AutoVectorizingCopy", 32), "s2rB": copy_atom("AutoVectorizingCopy", 32)})
    for d in out:
        assert size(d["copyA"]) == size(d["mma"])
    return out


def designs_sm90() -> list[dict]:
    """SM90 designs for CUTLASS's hopper/wgmma_sm90 ``gemm_device``: GMMA smem atoms, cp.async
    copies and a 64x64x16 GMMA TiledMMA, as cutepy builds them."""
    from cutepy.kernels.atoms import gmma_smem_layout

    out = []
    cp_async = copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16)
    for major, sw in (("MN", 128), ("K", 128), ("MN", 32), ("K", 64), ("MN", 0)):
        s = tile_to_shape(gmma_smem_layout(major, sw, "half_t"), (128, 64, 3))
        if major == "MN":  # m-major: 8 contiguous elements per thread, 16 x 8 threads
            cp = make_tiled_copy(cp_async, Layout((16, 8)), Layout((8, 1)))
        else:  # k-major
            cp = make_tiled_copy(cp_async, Layout((16, 8), (8, 1)), Layout((1, 8)))
        mma = make_tiled_mma(mma_atom(f"SM90_64x64x16_F16F16F16_SS<{major},{major}>"))
        name = f"wgmma_sm90 {'NT' if major == 'MN' else 'TN'}, {major}-major SW{sw or 'INTER'} smem"
        if (major, sw) in (("MN", 128), ("K", 128)):
            name += " (the tutorial's design)"
        out.append({"name": name, "kind": "nt" if major == "MN" else "tn", "TA": "cute::half_t",
                    "TC": "cute::half_t", "tile": (128, 128, 64), "sA": s, "sB": s, "copyA": cp,
                    "copyB": cp, "mma": mma})
    return out


def block_sm90(i: int, d: dict) -> str:
    """The C++ that runs one SM90 design (hopper/wgmma_sm90's gemm_device) and prints its verdict."""
    bM, bN, bK = d["tile"]
    strides = ("make_stride(K, Int<1>{})", "make_stride(K, Int<1>{})") if d["kind"] == "tn" else \
        ("make_stride(Int<1>{}, M)", "make_stride(Int<1>{}, N)")
    objs = "\n".join(f"    auto {k} = {cpp(d[k])};" for k in ("sA", "sB", "copyA", "copyB", "mma"))
    return f'''
  {{ // design {i}: {d["name"]}
    using TA = {d["TA"]}; using TC = {d["TC"]};
    auto prob_shape = make_shape(M, N, K);
    auto dA = {strides[0]}; auto dB = {strides[1]}; auto dC = make_stride(Int<1>{{}}, M);
    auto cta_tiler = make_shape(Int<{bM}>{{}}, Int<{bN}>{{}}, Int<{bK}>{{}});
{objs}
    auto kernel = gemm_device<decltype(prob_shape), decltype(cta_tiler),
        TA, decltype(dA), decltype(sA), decltype(copyA), TA, decltype(dB), decltype(sB), decltype(copyB),
        TC, decltype(dC), decltype(mma), float, float>;
    int smem = int(sizeof(SharedStorage<TA, TA, decltype(sA), decltype(sB)>));
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    Buffers<TA, TC> buf({int(d["kind"] == "tn")});
    kernel<<<dim3(M / {bM}, N / {bN}), dim3(size(mma)), smem>>>(prob_shape, cta_tiler,
        buf.dA, dA, sA, copyA, buf.dB, dB, sB, copyB, buf.dC, dC, mma, 1.0f, 0.0f);
    buf.check({i}, int(size(mma)), smem);
  }}'''


def simulate_wrong(d: dict, k_tiles: int = 2) -> int:
    """cutepy's simulation of one CTA tile of the design (``copy`` gmem -> smem -> registers,
    ``gemm``) on the same integers as the GPU: the number of wrong elements of C."""
    import numpy as np  # test helper: numpy is available wherever the suite runs

    from cutepy import (
        copy,
        gemm,
        local_tile,
        make_tensor,
        make_tiled_copy_A,
        make_tiled_copy_B,
    )

    bM, bN, bK = d["tile"]
    Kt = bK * k_tiles
    a = np.array([[(m * 7 + k * 3) % 5 - 2 for k in range(Kt)] for m in range(bM)], np.float64)
    b = np.array([[(n * 5 + k * 11) % 3 - 1 for k in range(Kt)] for n in range(bN)], np.float64)
    dt = np.float16 if d["TA"] == "cute::half_t" else np.float32
    mA = make_tensor(a.astype(dt).ravel(order="F"), Layout((bM, Kt)))
    mB = make_tensor(b.astype(dt).ravel(order="F"), Layout((bN, Kt)))
    gA = local_tile(mA, (bM, bN, bK), (0, 0, None), proj=(1, None, 1))
    gB = local_tile(mB, (bM, bN, bK), (0, 0, None), proj=(None, 1, 1))
    sAL, sBL = d["sA"](None, None, 0), d["sB"](None, None, 0)
    sA = make_tensor(np.zeros(size(sAL) * 2, dt), sAL)
    sB = make_tensor(np.zeros(size(sBL) * 2, dt), sBL)
    mma = d["mma"]
    thr = [mma.get_slice(t) for t in range(size(mma))]
    ct = np.float16 if d["TC"] == "cute::half_t" else np.float32
    gC = make_tensor(np.zeros(bM * bN, ct), Layout((bM, bN)))
    rC = [t.partition_fragment_C(gC) for t in thr]
    cpa, cpb = make_tiled_copy_A(d["s2rA"], mma), make_tiled_copy_B(d["s2rB"], mma)
    for k in range(k_tiles):
        copy(d["copyA"], gA(None, None, k), sA)
        copy(d["copyB"], gB(None, None, k), sB)
        rA = [t.partition_fragment_A(sA) for t in thr]
        rB = [t.partition_fragment_B(sB) for t in thr]
        copy(cpa, sA, [cpa.get_slice(i).retile_D(rA[i]) for i in range(len(thr))])
        copy(cpb, sB, [cpb.get_slice(i).retile_D(rB[i]) for i in range(len(thr))])
        gemm(mma, rA, rB, rC)
    for i, t in enumerate(thr):
        copy(copy_atom("DefaultCopy", 32), rC[i], t.partition_C(gC))
    got = np.array(gC.values(), np.float64).reshape(bN, bM).T
    return int(np.count_nonzero(got != a @ b.T))


def block(i: int, d: dict) -> str:
    """The C++ that runs one design and prints its verdict."""
    bM, bN, bK = d["tile"]
    strides = ("make_stride(K, Int<1>{})", "make_stride(K, Int<1>{})") if d["kind"] == "tn" else \
        ("make_stride(Int<1>{}, M)", "make_stride(Int<1>{}, N)")
    names = ("sA", "sB", "copyA", "copyB", "mma", "s2rA", "s2rB")
    objs = "\n".join(f"    auto {k} = {cpp(d[k])};" for k in names)
    return f'''
  {{ // design {i}: {d["name"]}
    using TA = {d["TA"]}; using TC = {d["TC"]};
    auto prob_shape = make_shape(M, N, K);
    auto dA = {strides[0]}; auto dB = {strides[1]}; auto dC = make_stride(Int<1>{{}}, M);
    auto cta_tiler = make_shape(Int<{bM}>{{}}, Int<{bN}>{{}}, Int<{bK}>{{}});
    auto sC = make_layout(make_shape(Int<{bM}>{{}}, Int<{bN}>{{}}));
{objs}
    auto kernel = gemm_device<decltype(prob_shape), decltype(cta_tiler),
        TA, decltype(dA), decltype(sA), decltype(copyA), decltype(s2rA),
        TA, decltype(dB), decltype(sB), decltype(copyB), decltype(s2rB),
        TC, decltype(dC), decltype(sC), decltype(mma), float, float>;
    int smem = int(sizeof(SharedStorage<TA, TA, decltype(sA), decltype(sB)>));
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    Buffers<TA, TC> buf({int(d["kind"] == "tn")});
    kernel<<<dim3(M / {bM}, N / {bN}), dim3(size(mma)), smem>>>(prob_shape, cta_tiler,
        buf.dA, dA, sA, copyA, s2rA, buf.dB, dB, sB, copyB, s2rB, buf.dC, dC, sC, mma, 1.0f, 0.0f);
    buf.check({i}, int(size(mma)), smem);
  }}'''


PRELUDE = r'''// generated by tests/kernels/kernel_hardware.py from cutepy's designs
#include <cute/tensor.hpp>
#define main cutlass_tutorial_main
#include "sgemm_sm80.cu"
#undef main
#include <cstdio>
#include <vector>
using namespace cute;
static const int M = MDIM, N = NDIM, K = KDIM;

// A (M x K), B (N x K) of small integers; C = A B^T, compared exactly with the CPU's
template <class TA, class TC> struct Buffers {
  std::vector<TA> A, B; std::vector<TC> C; std::vector<double> want;
  TA *dA, *dB; TC* dC; bool tn;
  explicit Buffers(int tn_) : A(M * K), B(N * K), C(M * N), want(M * N), tn(tn_) {
    auto a = [&](int m, int k) { return (m * 7 + k * 3) % 5 - 2; };
    auto b = [&](int n, int k) { return (n * 5 + k * 11) % 3 - 1; };
    for (int m = 0; m < M; ++m) for (int k = 0; k < K; ++k) A[tn ? m * K + k : m + k * M] = TA(a(m, k));
    for (int n = 0; n < N; ++n) for (int k = 0; k < K; ++k) B[tn ? n * K + k : n + k * N] = TA(b(n, k));
    for (int m = 0; m < M; ++m) for (int n = 0; n < N; ++n) {
      double s = 0; for (int k = 0; k < K; ++k) s += double(a(m, k)) * b(n, k); want[m + n * M] = s; }
    cudaMalloc(&dA, A.size() * sizeof(TA)); cudaMalloc(&dB, B.size() * sizeof(TA));
    cudaMalloc(&dC, C.size() * sizeof(TC)); cudaMemset(dC, 0xFF, C.size() * sizeof(TC));
    cudaMemcpy(dA, A.data(), A.size() * sizeof(TA), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), B.size() * sizeof(TA), cudaMemcpyHostToDevice);
  }
  void check(int id, int threads, int smem) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { std::printf("design %d error %s\n", id, cudaGetErrorString(e)); return; }
    cudaMemcpy(C.data(), dC, C.size() * sizeof(TC), cudaMemcpyDeviceToHost);
    long bad = 0, first = -1;
    for (int i = 0; i < M * N; ++i) if (double(C[i]) != want[i]) { if (first < 0) first = i; ++bad; }
    std::printf("design %d threads %d smem %d wrong %ld of %d", id, threads, smem, bad, M * N);
    if (bad)
      std::printf(" first m=%ld n=%ld got %g want %g", first % M, first / M, double(C[first]), want[first]);
    std::printf("\n");
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
  }
};

int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  std::printf("device %s sm_%d%d\n", p.name, p.major, p.minor);
'''


def prepare(out: pathlib.Path) -> None:
    ds, ds90 = designs(), designs_sm90()
    dims = {"MDIM": str(M), "NDIM": str(N), "KDIM": str(K)}
    src, src90 = PRELUDE, PRELUDE.replace('"sgemm_sm80.cu"', '"hopper/wgmma_sm90.cu"')
    for k, v in dims.items():
        src, src90 = src.replace(k, v), src90.replace(k, v)
    src += "".join(block(i, d) for i, d in enumerate(ds)) + "\n  return 0;\n}\n"
    src90 += "".join(block_sm90(i, d) for i, d in enumerate(ds90)) + "\n  return 0;\n}\n"
    (out / "kernels.cu").write_text(src)
    (out / "kernels_sm90.cu").write_text(src90)
    rows = [{"id": i, "name": d["name"], "emitted": {k: cpp(d[k]) for k in ("sA", "copyA", "mma", "s2rA")}}
            for i, d in enumerate(ds)]
    rows90 = [{"id": i, "name": d["name"], "emitted": {k: cpp(d[k]) for k in ("sA", "copyA", "mma")}}
              for i, d in enumerate(ds90)]
    plan = {"problem": [M, N, K], "designs": rows, "sm90_designs": rows90}
    (out / "plan.json").write_text(json.dumps(plan, indent=1))
    print(f"{len(ds)} + {len(ds90)} designs written to {out}/kernels.cu, kernels_sm90.cu")


def collect(out: pathlib.Path) -> dict:
    plan = json.loads((out / "plan.json").read_text())
    for key, fname in (("designs", "status.txt"), ("sm90_designs", "status_sm90.txt")):
        status = (out / fname).read_text().splitlines()
        lines = {int(s.split()[1]): s for s in status if s.startswith("design ")}
        for r in plan[key]:
            r["verdict"] = lines.get(r["id"], "did not run")
    plan["device"] = status[0]
    plan["command"] = "python -m tests.kernels.kernel_hardware prepare/collect --out DIR (see the module)"
    (out / "kernel_hardware.json").write_text(json.dumps(plan, indent=1))
    verdicts = [r["verdict"] for k in ("designs", "sm90_designs") for r in plan[k]]
    return {"device": status[0], "verdicts": verdicts}


def main() -> None:
    ap = argparse.ArgumentParser(description="GEMM kernels designed in cutepy, on a GPU")
    ap.add_argument("step", choices=["prepare", "collect"])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    print(json.dumps(prepare(out) if a.step == "prepare" else collect(out)))


if __name__ == "__main__":
    main()
