"""Global-memory coalescing, costed by cutepy, measured on a GPU with Nsight Compute.

Each probe is one kernel launch that replays, lane by lane, the byte addresses cutepy gives
for a warp access: ``gmem_access`` probes (one warp, one instruction, an address pattern of
their own) and ``coalescing`` / ``analyze_gmem_copy`` probes (every warp instruction of a TV
layout or a TiledCopy over a gmem tensor, several warps). The kernel reads each thread's
addresses from ``__constant__`` memory and issues exactly one ``ld.global`` / ``st.global`` of
1, 2, 4, 8 or 16 bytes per address (inline PTX), so the only global traffic is the probe's.
ncu's counters (``l1tex__t_{sectors,requests}_pipe_lsu_mem_global_op_{ld,st}.sum``) are then
compared with cutepy's ``sectors`` and ``requests`` (tests/kernels/test_coalescing_hardware.py).

On a machine with an NVIDIA GPU, nvcc and ncu (run from the repository root)::

    python -m tests.kernels.coalescing_hardware prepare --out DIR    # here: DIR/probe.cu, launches.txt
    nvcc -O2 -arch=sm_90 DIR/probe.cu -o DIR/probe                  # there
    ncu --csv --log-file DIR/ncu.csv --metrics <METRICS> DIR/probe DIR/launches.txt
    python -m tests.kernels.coalescing_hardware collect --out DIR    # here: DIR/gmem_coalescing.json
"""

from __future__ import annotations

import argparse
import csv
import json
import pathlib
import random

from cutepy import Layout, Swizzle, coalescing, copy_atom, gmem_access, make_composed_layout, make_tiled_copy
from cutepy.kernels.analysis import analyze_gmem_copy

METRICS = tuple(f"l1tex__t_{what}_pipe_lsu_mem_global_op_{op}.sum" for op in ("ld", "st")
                for what in ("sectors", "requests"))
#: the probe's buffer; every address stays below it
BUFFER = 1 << 26
#: int32 entries of the constant table (64 KiB)
TABLE = 1 << 14


def _patterns(width: int, rng: random.Random) -> list[tuple[str, list]]:
    """Address patterns of one warp instruction of ``width`` bytes per lane."""
    w = width
    out = [
        ("contiguous", [w * t for t in range(32)]),
        ("contiguous at +32 B", [32 + w * t for t in range(32)] if w <= 32 else None),
        ("contiguous at +16 B", [16 + w * t for t in range(32)] if 16 % w == 0 else None),
        ("stride 2 elements", [2 * w * t for t in range(32)]),
        ("stride 32 B", [max(32, w) * t for t in range(32)]),
        ("stride 128 B", [128 * t for t in range(32)]),
        ("stride 4 KiB", [4096 * t for t in range(32)]),
        ("broadcast", [256] * 32),
        ("pairs swapped", [w * (t ^ 1) for t in range(32)]),
        ("reversed", [w * (31 - t) for t in range(32)]),
        ("permuted", [w * t for t in rng.sample(range(32), 32)]),
        ("permuted in 4x the span", [w * t for t in rng.sample(range(128), 32)]),
        ("scattered", [w * rng.randrange(BUFFER // w // 4) for _ in range(32)]),
        ("even lanes only", [w * t if t % 2 == 0 else -1 for t in range(32)]),
        ("first lane only", [w * 7] + [-1] * 31),
        ("two lanes per address", [w * (t // 2) for t in range(32)]),
        ("8 rows of 4 lanes 1 KiB apart", [1024 * (t // 4) + w * (t % 4) for t in range(32)]),
    ]
    return [(n, a) for n, a in out if a is not None]


def _layout_cases() -> list[dict]:
    """TV layouts and TiledCopys over gmem tensors (several warps, several instructions)."""
    cases = []

    def tv(name: str, layout, E: int, base: int = 0, vector=None) -> None:
        for op in ("ld", "st"):
            r = coalescing(layout, element_bytes=E, vector_elems=vector, op=op, base=base)
            cases.append({"name": name, "kind": "coalescing", "layout": repr(layout), "element_bytes": E,
                          "vector_elems": vector, "base": base, "op": op, "report": r})

    tv("row of fp32, one per lane", Layout(32, 1), 4)
    tv("column of fp32 (stride 64)", Layout(32, 64), 4)
    tv("fp16 x8 per thread (16 B)", Layout((32, 8), (8, 1)), 2)
    tv("fp16 x8 per thread, 4 warps", Layout((128, 8), (8, 1)), 2)
    tv("fp16 x2 per thread, row-major 8x64 tile", Layout(((32, 4), 2), ((2, 64 * 8), 1)), 2)
    tv("fp32 x4 in two vectors of 2", Layout((32, 4), (4, 1)), 4, vector=2)
    tv("bytes, 4 per thread", Layout((64, 4), (4, 1)), 1)
    tv("fp64, 2 per thread strided by warp", Layout((32, 2), (1, 32)), 8)
    tv("bf16 x8, 16 B at base 16", Layout((32, 8), (8, 1)), 2, base=16)
    tv("fp32 transposed 32x32 tile", Layout((32, 32), (32, 1)), 4)
    tv("swizzled gmem offsets", make_composed_layout(Swizzle(3, 2, 3), 0, Layout((64, 4), (4, 1))), 4)
    tv("fp16 column-major 128x32 read by rows", Layout((32, (4, 8)), (128, (1, 4))), 2)

    def cp(name: str, op: str, bits: int, thr, val, gmem, side: str) -> None:
        c = make_tiled_copy(copy_atom(op, bits), thr, val)
        r = analyze_gmem_copy(c, **{side: gmem})
        cases.append({"name": name, "kind": "analyze_gmem_copy", "copy": [op, bits, repr(thr), repr(val)],
                      "gmem": repr(gmem), "side": side, "op": r.op, "report": r})

    cp128 = "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"
    cp("cp.async 128-bit, K-major 128x64 fp16", cp128, 16, Layout((16, 8), (8, 1)), Layout((1, 8)),
       Layout((128, 64), (64, 1)), "src")
    cp("cp.async 128-bit, M-major 128x64 fp16", cp128, 16, Layout((16, 8), (1, 16)), Layout((8, 1)),
       Layout((128, 64), (1, 128)), "src")
    cp("cp.async 128-bit, padded rows (72)", cp128, 16, Layout((16, 8), (8, 1)), Layout((1, 8)),
       Layout((128, 64), (72, 1)), "src")
    cp("UniversalCopy 32-bit fp32 store, 32x32", "UniversalCopy<uint32_t>", 32, Layout((32, 4), (1, 32)),
       Layout((1, 1)), Layout((32, 32), (32, 1)), "dst")
    cp("UniversalCopy 64-bit fp16 load, 64x64", "UniversalCopy<uint64_t>", 16, Layout((16, 8), (8, 1)),
       Layout((1, 4)), Layout((64, 64), (64, 1)), "src")
    return cases


def probes(seed: int = 3411) -> list[dict]:
    """Every probe: its name, op, bytes per lane and per-instruction lane addresses (cutepy's)."""
    rng = random.Random(seed)
    out = []
    for width in (1, 2, 4, 8, 16):
        for name, addrs in _patterns(width, rng):
            for op in ("ld", "st"):
                r = gmem_access(addrs, access_bytes=width, op=op)
                out.append({"name": name, "kind": "gmem_access", "addresses": addrs, "bytes": width, "op": op,
                            "report": r})
    out += _layout_cases()
    for p in out:
        r = p.pop("report")
        ins = r.instructions
        p["width"] = ins[0].width
        p["threads"] = max(len(i.addresses) for i in ins) * (1 + max(i.warp for i in ins))
        p["instructions"] = [[i.warp, list(i.addresses)] for i in ins]
        p["cutepy"] = {"sectors": r.sectors, "requests": r.requests}
    return out


def _table(p: dict) -> list[int]:
    """The constant table of one launch: ``[k][thread]`` byte addresses, -1 inactive."""
    T = p["threads"]
    per_warp: dict[int, list] = {}
    for w, a in p["instructions"]:
        per_warp.setdefault(w, []).append(a)
    nk = max(len(v) for v in per_warp.values())
    table = [-1] * (nk * T)
    for w, rows in per_warp.items():
        for k, a in enumerate(rows):
            for lane, x in enumerate(a):
                table[k * T + w * len(a) + lane] = x
    assert len(table) <= TABLE and max(table) + p["width"] <= BUFFER, p["name"]
    return table


PROGRAM = r"""
// one launch per probe: thread t issues one global access per table row k at g + offs[k*T + t]
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <vector>
__constant__ int offs[%(TABLE)d];
template <int W, bool ST> __global__ void probe(char* g, int nk, int* sink) {
  int T = blockDim.x; unsigned acc = 0;
  #pragma unroll 1
  for (int k = 0; k < nk; ++k) {
    int a = offs[k * T + threadIdx.x];
    if (a < 0) continue;
    char* p = g + a;
    if (ST) {
      if (W == 1) asm volatile("st.global.u8 [%%0], %%1;" :: "l"(p), "h"((unsigned short)k) : "memory");
      if (W == 2) asm volatile("st.global.u16 [%%0], %%1;" :: "l"(p), "h"((unsigned short)k) : "memory");
      if (W == 4) asm volatile("st.global.u32 [%%0], %%1;" :: "l"(p), "r"(k) : "memory");
      if (W == 8) asm volatile("st.global.v2.u32 [%%0], {%%1, %%1};" :: "l"(p), "r"(k) : "memory");
      if (W == 16) asm volatile("st.global.v4.u32 [%%0], {%%1, %%1, %%1, %%1};" :: "l"(p), "r"(k) : "memory");
    } else {
      unsigned x = 0, y = 0, z = 0, u = 0; unsigned short h = 0;
      if (W == 1) { asm volatile("ld.global.u8 %%0, [%%1];" : "=h"(h) : "l"(p) : "memory"); x = h; }
      if (W == 2) { asm volatile("ld.global.u16 %%0, [%%1];" : "=h"(h) : "l"(p) : "memory"); x = h; }
      if (W == 4) asm volatile("ld.global.u32 %%0, [%%1];" : "=r"(x) : "l"(p) : "memory");
      if (W == 8) asm volatile("ld.global.v2.u32 {%%0, %%1}, [%%2];" : "=r"(x), "=r"(y) : "l"(p) : "memory");
      if (W == 16) asm volatile("ld.global.v4.u32 {%%0, %%1, %%2, %%3}, [%%4];"
                                : "=r"(x), "=r"(y), "=r"(z), "=r"(u) : "l"(p) : "memory");
      acc ^= x ^ y ^ z ^ u;
    }
  }
  if (acc == 0x9e3779b9u) *sink = acc;   // never true (the buffer is zero): keeps the loads alive
}
template <bool ST> void launch(int w, char* g, int T, int nk, int* sink) {
  if (w == 1) probe<1, ST><<<1, T>>>(g, nk, sink);
  if (w == 2) probe<2, ST><<<1, T>>>(g, nk, sink);
  if (w == 4) probe<4, ST><<<1, T>>>(g, nk, sink);
  if (w == 8) probe<8, ST><<<1, T>>>(g, nk, sink);
  if (w == 16) probe<16, ST><<<1, T>>>(g, nk, sink);
}
int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "r");
  char* g; int* sink;
  if (cudaMalloc(&g, %(BUFFER)d) || cudaMalloc(&sink, 4)) { printf("cudaMalloc failed\n"); return 1; }
  cudaMemset(g, 0, %(BUFFER)d);
  int id, st, w, T, nk, n = 0;
  while (fscanf(f, "%%d %%d %%d %%d %%d", &id, &st, &w, &T, &nk) == 5) {
    std::vector<int> t(T * nk);
    for (auto& x : t) fscanf(f, "%%d", &x);
    cudaMemcpyToSymbol(offs, t.data(), t.size() * sizeof(int));
    if (st) launch<true>(w, g, T, nk, sink); else launch<false>(w, g, T, nk, sink);
    cudaError_t e = cudaDeviceSynchronize();
    printf("launch %%d probe %%d: %%s\n", n++, id, cudaGetErrorString(e));
  }
  return 0;
}
"""


def prepare(out: pathlib.Path, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    ps = probes(seed)
    lines = []
    for i, p in enumerate(ps):
        t = _table(p)
        nk = len(t) // p["threads"]
        lines.append(f"{i} {int(p['op'] == 'st')} {p['width']} {p['threads']} {nk}\n" + " ".join(map(str, t)))
    (out / "launches.txt").write_text("\n".join(lines) + "\n")
    (out / "probe.cu").write_text(PROGRAM % {"TABLE": TABLE, "BUFFER": BUFFER})
    (out / "probes.json").write_text(json.dumps(ps))
    print(f"{len(ps)} probes in {out}")


def collect(out: pathlib.Path, dest: pathlib.Path, provenance: str) -> None:
    """ncu's CSV (one kernel per probe, in launch order) joined with the probes."""
    ps = json.loads((out / "probes.json").read_text())
    text = (out / "ncu.csv").read_text()
    rows = list(csv.DictReader(line for line in text.splitlines() if line.startswith('"')))
    by: dict[int, dict] = {}
    for r in rows:
        by.setdefault(int(r["ID"]), {})[r["Metric Name"]] = int(float(r["Metric Value"].replace(",", "")))
    if len(by) != len(ps):
        raise SystemExit(f"{len(by)} kernels profiled for {len(ps)} probes")
    for i, p in enumerate(ps):
        m = by[sorted(by)[i]]
        p["ncu"] = {"sectors": m[f"l1tex__t_sectors_pipe_lsu_mem_global_op_{p['op']}.sum"],
                    "requests": m[f"l1tex__t_requests_pipe_lsu_mem_global_op_{p['op']}.sum"],
                    "other_op_sectors": m[f"l1tex__t_sectors_pipe_lsu_mem_global_op_"
                                          f"{'st' if p['op'] == 'ld' else 'ld'}.sum"]}
    dest.write_text(json.dumps({"provenance": provenance, "metrics": METRICS, "probes": ps}, indent=0) + "\n")
    agree = sum(p["ncu"]["sectors"] == p["cutepy"]["sectors"]
                and p["ncu"]["requests"] == p["cutepy"]["requests"] for p in ps)
    print(f"{agree}/{len(ps)} probes agree with cutepy; wrote {dest}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("prepare", "collect"))
    ap.add_argument("--out", type=pathlib.Path, required=True)
    ap.add_argument("--seed", type=int, default=3411)
    ap.add_argument("--dest", type=pathlib.Path)
    ap.add_argument("--provenance", default="")
    a = ap.parse_args()
    if a.step == "prepare":
        prepare(a.out, a.seed)
    else:
        collect(a.out, a.dest or a.out / "gmem_coalescing.json", a.provenance)


if __name__ == "__main__":
    main()
