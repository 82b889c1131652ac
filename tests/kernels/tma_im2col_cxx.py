"""TMA im2col (``SM90_TMA_LOAD_IM2COL``, ``SM90_TMA_LOAD_IM2COL_MULTICAST``) against CUTLASS 4.7:
seeded convolution configurations (1-, 2- and 3-D convs, several element types, traversal
strides, dilations, paddings and corners, some the driver's rules reject) built with C++'s
``make_im2col_tma_copy``; the driver's ``cuTensorMapEncodeIm2col`` is replaced by
:data:`STUB_IM2COL`, written here, which prints its arguments and checks cuda.h's documented
rules on them (as :data:`tests.kernels.tma_cxx.STUB` does for ``cuTensorMapEncodeTiled``).
Stored in tests/data/tma_im2col_cxx47.jsonl. Regenerate (CUTLASS 4.7 headers, host g++)::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=2 python -m tests.kernels.tma_im2col_cxx
"""

from __future__ import annotations

import json
import random

from tests.kernels import tma_cxx
from tests.paths import DATA

FILE = DATA / "tma_im2col_cxx47.jsonl"
SEED = 3434
COUNT = 64
INCLUDES = tma_cxx.INCLUDES + ("cute/atom/copy_traits_sm90_im2col.hpp",)

#: the stand-in for the driver's im2col encoder: records the arguments, checks cuda.h's rules
STUB_IM2COL = r'''
extern "C" CUresult cuTensorMapEncodeIm2col(CUtensorMap*, CUtensorMapDataType dt, cuuint32_t rank, void* addr,
    const cuuint64_t* gdim, const cuuint64_t* gstr, const int* lo, const int* hi, cuuint32_t cpp,
    cuuint32_t ppc, const cuuint32_t* es, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
    CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  static const int esize[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  printf("IM2COL %d %u %llu |", (int)dt, rank, (unsigned long long)(uintptr_t)addr);
  for (unsigned i = 0; i < rank; ++i) printf(" %llu", (unsigned long long)gdim[i]);
  printf(" |");
  for (unsigned i = 0; i + 1 < rank; ++i) printf(" %llu", (unsigned long long)gstr[i]);
  printf(" |");
  for (unsigned i = 0; i + 2 < rank; ++i) printf(" %d", lo[i]);
  printf(" |");
  for (unsigned i = 0; i + 2 < rank; ++i) printf(" %d", hi[i]);
  printf(" | %u %u |", cpp, ppc);
  for (unsigned i = 0; i < rank; ++i) printf(" %u", es[i]);
  printf(" | %d %d %d %d\n", (int)il, (int)sw, (int)l2, (int)oob);
  const char* bad = nullptr;
  int lim = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
  unsigned long long inner = (unsigned long long)cpp * esize[(int)dt];
  unsigned span = sw == 0 ? 0 : sw == 1 ? 32 : sw == 2 ? 64 : 128;
  if (rank < 3 || rank > 5) bad = "rank";
  else if (((uintptr_t)addr) % 16) bad = "address";
  else if (cpp < 1 || cpp > 256) bad = "channelsPerPixel";
  else if (ppc < 1 || ppc > 1024) bad = "pixelsPerColumn";
  else if (span && inner > span) bad = "channels over the swizzle span";
  for (unsigned i = 0; !bad && i < rank; ++i) {
    if (gdim[i] < 1 || gdim[i] > (1ull << 32)) bad = "globalDim";
    if (es[i] < 1 || es[i] > 8) bad = "elementStrides";
    if (i + 1 < rank && (gstr[i] % 16 || gstr[i] >= (1ull << 40))) bad = "globalStrides";
    if (i + 2 < rank && (lo[i] < -lim || lo[i] >= lim || hi[i] < -lim || hi[i] >= lim)) bad = "corner";
    if (i + 2 < rank && (long long)gdim[i + 1] + hi[i] - lo[i] < 1) bad = "bounding box of zero area";
  }
  if (bad) printf("DRIVER_REJECTS %s\n", bad);
  return CUDA_SUCCESS;
}
'''

#: C++ cannot print a ``cutlass::FastDivmod`` (the run-time GEMM extents of the im2col tensor): print
#: its divisor, which is the extent
PRINT_FASTDIVMOD = ('namespace cutlass { inline void print(FastDivmod const& d) '
                    '{ printf("%d", d.divisor); } }\n')

#: C++ printing ``tensor``'s coordinates at :data:`SAMPLES` seeded 1-D indices and at the last one,
#: one ``index coordinate`` line each
SAMPLES = 7
SAMPLE = ("{{ int n_ = int(size({t})); for (int k_ = 0; k_ <= " + str(SAMPLES) + "; ++k_) {{ "
          "int i_ = k_ == " + str(SAMPLES) + " ? n_ - 1 : int((k_ * 104729ll) % n_); printf(\"%d \", i_); "
          "print({t}(i_)); printf(\"\\n\"); }} }}")

TYPES = ["half_t", "bfloat16_t", "float", "tfloat32_t", "int8_t", "float_e4m3_t"]


def random_case(rng: random.Random) -> dict:
    """One seeded convolution: activation ((w, h[, d], n), c) NHWC-packed, a K-major smem tile
    (pixels, channels), plain or GMMA-swizzled, and the conv's spatial arguments."""
    dtype = rng.choice(TYPES)
    bits = tma_cxx.element_bits(dtype)
    nsp = rng.choice([1, 2, 2, 2, 3, 3])
    spatial = [rng.choice([4, 8, 9, 16, 28]) for _ in range(nsp)]
    n = rng.choice([1, 2, 4])
    c = rng.choice([16, 32, 64, 128]) * 8 // min(bits, 16)
    kind = rng.choice(["plain", "gmma", "gmma"])
    sw = rng.choice([32, 64, 128]) if kind == "gmma" else 0
    width = sw * 8 // bits if sw else rng.choice([16, 32, 64]) * 8 // bits  # channels per tile
    tk = width * rng.choice([1, 1, 2])
    c = max(c, tk)
    tm = rng.choice([32, 64, 128, 256])
    if rng.random() < 0.06:
        tm = 2048  # pixelsPerColumn over 1024: the driver rejects it
    elif kind == "plain" and rng.random() < 0.15:
        tm = 1  # one pixel: a single smem mode continues gmem (C++'s static_assert)
    cluster = rng.choice([1, 1, 2])
    op = "SM90_TMA_LOAD_IM2COL_MULTICAST" if cluster == 2 else "SM90_TMA_LOAD_IM2COL"
    pad = [rng.choice([0, 0, 1, 2]) for _ in range(nsp)]
    dil = [rng.choice([1, 1, 2]) for _ in range(nsp)]
    flt = [rng.choice([1, 3, 3, 5]) for _ in range(nsp)]
    trav = [rng.choice([1, 1, 2]) for _ in range(nsp)]
    if rng.random() < 0.08:
        trav[0] = 9  # a traversal stride over 8: the driver rejects it
    lower = [-p for p in pad]
    upper = [p - (f - 1) * d for p, f, d in zip(pad, flt, dil)]
    if rng.random() < 0.1:
        lower[0] = -40  # a corner out of the rank-5 (and rank-4) range
    return {"dtype": dtype, "spatial": spatial, "n": n, "c": c, "kind": kind, "sw": sw, "tile": [tm, tk],
            "cluster": cluster, "op": op, "lower_corner": lower, "upper_corner": upper,
            "lower_padding": [-p for p in pad], "upper_padding": pad, "stride_whd": trav,
            "lower_srt": [0] * nsp, "stride_srt": dil,
            "address": 0x10000 if rng.random() > 0.05 else 0x10008}


def cases(count: int = COUNT, seed: int = SEED) -> list[dict]:
    rng = random.Random(seed)
    return [random_case(rng) for _ in range(count)]


def gmem_shape_stride(case: dict) -> tuple:
    """((w, h[, d], n), c) and its NHWC-packed strides."""
    c = case["c"]
    dims = list(case["spatial"]) + [case["n"]]
    strides, acc = [], c
    for d in dims:
        strides.append(acc)
        acc *= d
    return (tuple(dims), c), (tuple(strides), 1)


def _ints(v: list) -> str:
    return "make_tuple(" + ", ".join(f"int({x})" for x in v) + ")"


def cxx_case(case: dict) -> str:
    T = tma_cxx._cxx_type(case["dtype"])
    shape, stride = gmem_shape_stride(case)
    tm, tk = case["tile"]
    if case["kind"] == "gmma":
        name = {32: "SW32", 64: "SW64", 128: "SW128"}[case["sw"]]
        sl = f"tile_to_shape(GMMA::Layout_K_{name}_Atom<T>{{}}, make_shape(Int<{tm}>{{}}, Int<{tk}>{{}}))"
    else:
        sl = f"make_layout(make_shape(Int<{tm}>{{}}, Int<{tk}>{{}}), make_stride(Int<{tk}>{{}}, Int<1>{{}}))"
    args = ", ".join(_ints(case[k]) for k in ("lower_corner", "upper_corner", "lower_padding",
                                               "upper_padding", "stride_whd", "lower_srt", "stride_srt"))
    lines = [
        f"using T = {T};",
        f"Tensor g = make_tensor(make_gmem_ptr((T*){case['address']}ull), make_layout("
        f"{tma_cxx._cxx_tuple(shape)}, {tma_cxx._cxx_stride(stride)}));",
        f"auto sl = {sl};",
        f"auto tma = make_im2col_tma_copy({case['op']}{{}}, g, sl, make_shape(Int<{tm}>{{}}, Int<{tk}>{{}}), "
        f"Int<{case['cluster']}>{{}}, {args});",
        'printf("@TILED\\n"); print(tma); printf("\\n");',
        # the coordinate tensor a conv kernel tiles and partitions (CUTLASS's sm90 implicit GEMM)
        "auto tt = tma.get_tma_tensor(shape(g));",
        'printf("@TENSOR\\n"); print(tt); printf("\\n");',
        f"auto gA = local_tile(tt, make_shape(Int<{tm}>{{}}, Int<{tk}>{{}}), make_coord(_,_));",
        'printf("@GA\\n"); print(gA); printf("\\n");',
        f'printf("@COORDS_T\\n"); {SAMPLE.format(t="tt")}',
    ]
    for t in sorted({0, case["cluster"] - 1}):
        lines += [f"auto tS{t} = tma.get_slice({t}).partition_S(gA);",
                  f'printf("@S{t}\\n"); print(tS{t}); printf("\\n");',
                  f'printf("@COORDS_S{t}\\n"); {SAMPLE.format(t=f"tS{t}")}']
    body = "\n".join("  " + x for x in lines)
    return (f"std::fflush(stdout);\npid_t pid = fork();\nif (pid == 0) {{\n{body}\n"
            "  std::fflush(stdout); _exit(0);\n}\nint st = 0; waitpid(pid, &st, 0);\n"
            'if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) printf("@ABORTED\\n");')


def parse_output(text: str) -> dict:
    out: dict = {}
    sections: dict = {}
    section = None
    for line in text.splitlines():
        if line.startswith("IM2COL "):
            head, gdim, gstr, lo, hi, rng_, es, enums = line[7:].split("|")
            dt, rank, addr = (int(x) for x in head.split())
            il, sw, l2, oob = (int(x) for x in enums.split())
            cpp, ppc = (int(x) for x in rng_.split())
            out["descriptor"] = {
                "data_type": tma_cxx.DATA_TYPES[dt], "rank": rank, "global_address": addr,
                "global_dim": [int(x) for x in gdim.split()],
                "global_strides": [int(x) for x in gstr.split()],
                "pixel_box_lower_corner": [int(x) for x in lo.split()],
                "pixel_box_upper_corner": [int(x) for x in hi.split()],
                "channels_per_pixel": cpp, "pixels_per_column": ppc,
                "element_strides": [int(x) for x in es.split()], "interleave": tma_cxx.INTERLEAVE[il],
                "swizzle": tma_cxx.SWIZZLES[sw], "l2_promotion": tma_cxx.L2[l2], "oob_fill": tma_cxx.OOB[oob],
            }
        elif line.startswith("DRIVER_REJECTS "):
            out["driver_rejects"] = line[len("DRIVER_REJECTS "):]
        elif line.startswith("@ABORTED"):
            out["aborted"] = True
        elif line.startswith("@"):
            section = line[1:].strip()
            sections[section] = []
        elif section is not None:
            sections[section].append(line)
    if "TILED" in sections:
        out["tiled"] = "\n".join(sections.pop("TILED")).strip()
    for name, lines in sections.items():
        if name.startswith("COORDS_"):
            out.setdefault("coords", {})[name[7:]] = [[int(x.split(" ", 1)[0]), x.split(" ", 1)[1]]
                                                      for x in lines if x.strip()]
        else:
            out.setdefault("sections", {})[name] = "\n".join(lines).strip()
    return out


def main() -> None:
    from tests.cxx import cxx_harness

    if cxx_harness.cutlass_version() != "4.7.0":
        raise SystemExit("set CUTEPY_CXX_CUTLASS=/work/cutlass47/include (CUTLASS 4.7)")
    cs = cases()
    res = cxx_harness.run_cases([cxx_case(c) for c in cs], INCLUDES,
                                preamble=tma_cxx.STUB + STUB_IM2COL + PRINT_FASTDIVMOD,
                                defines=tma_cxx.DEFINES)
    head = ("# C++ CuTe (CUTLASS 4.7) make_im2col_tma_copy on seeded conv configurations "
            f"(tests/kernels/tma_im2col_cxx.py, seed {SEED}, {COUNT});\n# the descriptor is what the stub "
            "cuTensorMapEncodeIm2col received; static-integer underscores dropped. Regenerate:\n"
            "#   CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=2 "
            "python -m tests.kernels.tma_im2col_cxx\n# with the coordinate tensor (get_tma_tensor), "
            "its CTA tile (local_tile), each CTA's partition_S and the coordinates at "
            f"{SAMPLES} seeded indices and the last; C++ prints a FastDivmod extent as its "
            "divisor (PRINT_FASTDIVMOD).\n")
    with open(FILE, "w") as f:
        f.write(head)
        for c, r in zip(cs, res):
            row = {"case": c, "ok": r.ok}
            if r.ok:
                row |= parse_output(cxx_harness.normalise(r.output))
            else:
                row["error"] = (r.error or "")[:300]
            f.write(json.dumps(row, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
