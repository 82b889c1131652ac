# ruff: noqa: E501 - the C++ statements are the tutorial's, one per line as CUTLASS writes them
"""CUTLASS's CuTe tutorial hopper/wgmma_sm90 (cp.async into GMMA smem, WGMMA from smem) on the host:
``gemm_device``'s partitioning code copied statement for statement into a host function of the
thread index (``threadIdx.x`` -> ``tid``, ``blockIdx`` -> ``(1, 2)``), for the tutorial's default
run (``gemm_nt``, m = n = 5120, k = 4096) and its ``gemm_tn`` half, threads 0, 1, 37 and 127.

Every smem layout, TiledCopy, TiledMMA, tile, partition and fragment is printed in a ``@name``
section in C++'s exact form (``_N`` static, ``N`` run-time); tensors over memory add an ``@name
addr`` section: the byte address of every element (``&t(i)``, so a swizzled smem tensor's through
its swizzle), as ``n=<count> <first 8> .. sha1=<16 hex digits of all>``. As in the tutorial, the
problem sizes ``m, n, k``, the leading dimensions, the block index and ``threadIdx.x`` are
run-time ``int``s; tile sizes are static. Stored in tests/data/tutorial_wgmma_sm90.txt.

Regenerate (CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        PYTHONPATH=$PWD python -m tests.kernels.tutorial_wgmma_cxx
"""

from __future__ import annotations

import hashlib
import sys

from tests.paths import DATA

FILE = DATA / "tutorial_wgmma_sm90.txt"
THREADS = (0, 1, 37, 127)
INCLUDES = ("cute/tensor.hpp", "cute/atom/copy_traits_sm80.hpp", "cute/atom/mma_traits_sm90_gmma.hpp")

PREAMBLE = r"""
template <class T> static void P(const char* name, T const& x) { std::printf("@%s\n", name); print(x); std::printf("\n"); }
template <class TT> static void ADDR(const char* name, TT const& t) {
  std::printf("@%s addr\n", name);
  for (int i = 0; i < int(size(t)); ++i) std::printf(" %llu", (unsigned long long)(uintptr_t)&t(i));
  std::printf("\n");
}
"""

#: gemm_nt and gemm_tn's settings (strides, smem atom, copy thread/value layouts, GMMA majors)
VARIANTS = {
    "nt": dict(ldA="m", ldB="n", dA="Int<1>{}, ldA", dB="Int<1>{}, ldB", major="MN",
               thr="Layout<Shape<_16,_8>>{}", val="Layout<Shape< _8,_1>>{}"),
    "tn": dict(ldA="k", ldB="k", dA="ldA, Int<1>{}", dB="ldB, Int<1>{}", major="K",
               thr="Layout<Shape<_16,_8>,Stride<_8,_1>>{}", val="Layout<Shape< _1,_8>>{}"),
}

_SOURCE = r"""
using TA = cute::half_t; using TB = cute::half_t; using TC = cute::half_t;
int m = 5120; int n = 5120; int k = 4096; int ldA = {ldA}; int ldB = {ldB}; int ldC = m;
int bx = 1; int by = 2;  // blockIdx.x, blockIdx.y
auto M = int(m); auto N = int(n); auto K = int(k);
auto prob_shape = make_shape(M, N, K);
auto dA = make_stride({dA}); auto dB = make_stride({dB}); auto dC = make_stride(Int<1>{}, ldC);
auto bM = Int<128>{}; auto bN = Int<128>{}; auto bK = Int< 64>{};
auto cta_tiler = make_shape(bM, bN, bK);
auto bP = Int<3>{};
auto sA_layout = tile_to_shape(GMMA::Layout_{major}_SW128_Atom<TA>{}, make_shape(bM,bK,bP));
auto sB_layout = tile_to_shape(GMMA::Layout_{major}_SW128_Atom<TB>{}, make_shape(bN,bK,bP));
TiledCopy copy_a = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TA>{}, {thr}, {val});
TiledCopy copy_b = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TB>{}, {thr}, {val});
TiledMMA mma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::{major},GMMA::Major::{major}>{});
P("sA_layout", sA_layout); P("sB_layout", sB_layout);
P("copy_a", copy_a); P("copy_b", copy_b); P("mma", mma);
P("size_copy_a", size(copy_a)); P("size_mma", size(mma));
TA const* A = reinterpret_cast<TA const*>(0x10000000ull); TB const* B = reinterpret_cast<TB const*>(0x20000000ull);
TC* C = reinterpret_cast<TC*>(0x30000000ull);
Tensor mA = make_tensor(make_gmem_ptr(A), select<0,2>(prob_shape), dA);
Tensor mB = make_tensor(make_gmem_ptr(B), select<1,2>(prob_shape), dB);
Tensor mC = make_tensor(make_gmem_ptr(C), select<0,1>(prob_shape), dC);
auto cta_coord = make_coord(bx, by, _);
Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});
Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});
Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});
Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<TA*>(0x400)), sA_layout);
Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<TB*>(0xc400)), sB_layout);
Tensor sA_ = as_position_independent_swizzle_tensor(sA);
Tensor sB_ = as_position_independent_swizzle_tensor(sB);
P("gA", gA); P("gB", gB); P("gC", gC); P("sA", sA); P("sB", sB); P("sA_", sA_); P("sB_", sB_);
ADDR("sA", sA); ADDR("sA_", sA_);
int threads[] = {THREADS};
for (int tid : threads) {
  char n[32];
  ThrCopy thr_copy_a = copy_a.get_slice(tid);
  Tensor tAgA = thr_copy_a.partition_S(gA);
  Tensor tAsA = thr_copy_a.partition_D(sA_);
  ThrCopy thr_copy_b = copy_b.get_slice(tid);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB_);
  ThrMMA thr_mma = mma.get_slice(tid);
  Tensor tCsA = thr_mma.partition_A(sA);
  Tensor tCsB = thr_mma.partition_B(sB);
  Tensor tCgC = thr_mma.partition_C(gC);
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  std::snprintf(n, sizeof n, "thr_copy_a %d", tid); P(n, thr_copy_a);
  std::snprintf(n, sizeof n, "thr_mma %d", tid); P(n, thr_mma);
#define T(x) std::snprintf(n, sizeof n, #x " %d", tid); P(n, x); ADDR(n, x);
  T(tAgA) T(tAsA) T(tBgB) T(tBsB) T(tCsA) T(tCsB) T(tCgC)
#undef T
  std::snprintf(n, sizeof n, "tCrA %d", tid); P(n, tCrA.layout());
  std::snprintf(n, sizeof n, "tCrB %d", tid); P(n, tCrB.layout());
  std::snprintf(n, sizeof n, "tCrC %d", tid); P(n, tCrC.layout());
}
"""


def source(variant: str) -> str:
    """The host C++ of ``gemm_<variant>`` (``nt`` or ``tn``)."""
    text = _SOURCE.replace("THREADS", ", ".join(map(str, THREADS)))
    for k, v in VARIANTS[variant].items():
        text = text.replace("{" + k + "}", v)
    return text


def condense(nums: str) -> str:
    """A list of addresses as its count, the first 8 and a sha1 of all (the stored file stays small;
    the comparison still covers every address)."""
    vals = nums.split()
    digest = hashlib.sha1(" ".join(vals).encode()).hexdigest()[:16]
    return f"n={len(vals)} {' '.join(vals[:8])} .. sha1={digest}"


def parse(text: str, raw: bool = True) -> dict[str, str]:
    """``@section`` -> its text (address sections of ``raw`` program output condensed)."""
    out: dict[str, list[str]] = {}
    section = None
    for line in text.splitlines():
        if line.startswith("@"):
            section = line[1:].strip()
            out[section] = []
        elif section is not None and line.strip():
            out[section].append(line.rstrip())
    return {k: condense(" ".join(v)) if raw and k.endswith(" addr") else "\n".join(v) for k, v in out.items()}


def read() -> dict[str, dict[str, str]]:
    """The stored prints: variant -> section -> text."""
    out: dict[str, dict[str, str]] = {}
    chunks = FILE.read_text().split("\n== ")[1:]
    for chunk in chunks:
        name, body = chunk.split("\n", 1)
        out[name.strip()] = parse(body, raw=False)
    return out


def run_cxx() -> dict[str, dict[str, str]]:
    """Compile and run both variants; variant -> section -> text (CutepyError-free: raises
    SystemExit with the compiler's words where C++ fails)."""
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([source(v) for v in VARIANTS], INCLUDES, PREAMBLE)
    out = {}
    for v, r in zip(VARIANTS, res):
        if not r.ok:
            raise SystemExit(f"C++ failed on gemm_{v}:\n{r.error[:3000]}")
        text = r.output.replace("ERROR: cast_smem_ptr_to_uint not supported but used.", "")
        out[v] = parse(text.strip())
    return out


def generate() -> str:
    head = [f"# {line}" for line in (__doc__ or "").strip().splitlines()]
    body = []
    for v, sections in run_cxx().items():
        body.append(f"== {v}")
        for k, text in sections.items():
            body += [f"@{k}", text]
    return "\n".join(head + body) + "\n"


if __name__ == "__main__":
    FILE.write_text(generate())
    print(f"wrote {FILE}", file=sys.stderr)
