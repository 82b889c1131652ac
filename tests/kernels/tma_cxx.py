"""Seeded random TMA configurations, the C++ host code that builds each one, and the stored
C++ answers (tests/data/tma_cxx.jsonl).

Each configuration is compiled with g++ against CUTLASS's headers with
``-D__CUDACC_VER_MAJOR__=12 -DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL``; the driver's
``cuTensorMapEncodeTiled`` is replaced by :data:`STUB`, written here, which prints the
arguments it is given and checks the driver's documented rules (``cuda.h``) on them. Gmem
shapes and strides are static (``Int<N>``), as cutepy's integers are values.

Regenerate (CUTLASS 4.7 headers at /work/cutlass47/include)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])")
    N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        python -m tests.kernels.tma_cxx
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from cutepy.algebra.products import tile_to_shape
from cutepy.core.dynamic import dynamic
from cutepy.core.layout import Layout
from cutepy.kernels.atoms.smem import gmma_smem_layout
from cutepy.kernels.pointer import element_bits, gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import make_tma_atom, make_tma_copy
from tests.paths import DATA

FILE = DATA / "tma_cxx.jsonl"
SEED = 2207
COUNT = 360
#: configurations moved as a wider (or another same-width) TMA type: C++'s make_tma_copy<TmaInternalType>
FILE_INTERNAL = DATA / "tma_internal_cxx.jsonl"
SEED_INTERNAL = 2208
COUNT_INTERNAL = 96
#: configurations whose gmem layout mixes static (Int<N>) and run-time (int) extents and strides,
#: with gmem modes of extent 1 (static or run-time): C++'s make_shape(M, N, L) over a batch of 1
FILE_MIXED = DATA / "tma_mixed_cxx.jsonl"
SEED_MIXED = 2209
COUNT_MIXED = 150
#: GMMA smem layouts made for another element width than the gmem tensor's (C++'s pointer-flag
#: form Sw o smem_ptr[b](unset) o L with b not the gmem element's bits)
FILE_WIDTH = DATA / "tma_width_cxx.jsonl"
SEED_WIDTH = 2210
COUNT_WIDTH = 32

INCLUDES = ("cute/tensor.hpp", "cute/atom/copy_traits_sm90_tma.hpp", "cute/atom/copy_traits_sm100_tma.hpp",
            "cute/atom/mma_traits_sm90_gmma.hpp")
DEFINES = ("__CUDACC_VER_MAJOR__ 12", "__CUDACC_VER_MINOR__ 8", "CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL 1")

#: the stand-in for the CUDA driver: records the arguments and checks cuda.h's documented rules
STUB = r'''
#include <cstdint>
#include <sys/wait.h>
#include <unistd.h>
extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap*, CUtensorMapDataType dt, cuuint32_t rank, void* addr,
    const cuuint64_t* gdim, const cuuint64_t* gstr, const cuuint32_t* box, const cuuint32_t* es,
    CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  static const int esize[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  printf("DESC %d %u %llu |", (int)dt, rank, (unsigned long long)(uintptr_t)addr);
  for (unsigned i = 0; i < rank; ++i) printf(" %llu", (unsigned long long)gdim[i]);
  printf(" |");
  for (unsigned i = 0; i + 1 < rank; ++i) printf(" %llu", (unsigned long long)gstr[i]);
  printf(" |");
  for (unsigned i = 0; i < rank; ++i) printf(" %u", box[i]);
  printf(" |");
  for (unsigned i = 0; i < rank; ++i) printf(" %u", es[i]);
  printf(" | %d %d %d %d\n", (int)il, (int)sw, (int)l2, (int)oob);
  const char* bad = nullptr;
  unsigned long long inner = (unsigned long long)box[0] * esize[(int)dt];
  unsigned span = sw == 0 ? 0 : sw == 1 ? 32 : sw == 2 ? 64 : 128;
  if (rank < 1 || rank > 5) bad = "rank";
  else if (((uintptr_t)addr) % 16) bad = "address";
  else if (inner % 16) bad = "inner box bytes not a multiple of 16";
  else if (span && inner > span) bad = "inner box bytes over the swizzle span";
  for (unsigned i = 0; !bad && i < rank; ++i) {
    if (gdim[i] < 1 || gdim[i] > (1ull << 32)) bad = "globalDim";
    if (box[i] < 1 || box[i] > 256) bad = "boxDim";
    if (es[i] < 1 || es[i] > 8) bad = "elementStrides";
    if (i + 1 < rank && (gstr[i] % 16 || gstr[i] >= (1ull << 40))) bad = "globalStrides";
  }
  if (bad) printf("DRIVER_REJECTS %s\n", bad);
  return CUDA_SUCCESS;
}
extern "C" cudaError_t cudaDriverGetVersion(int* v) { *v = 12090; return cudaSuccess; }
'''

DATA_TYPES = ["UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "FLOAT32", "FLOAT64",
              "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ"]
SWIZZLES = ["NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"]
L2 = ["NONE", "L2_64B", "L2_128B", "L2_256B"]
INTERLEAVE = ["NONE", "16B", "32B"]
OOB = ["NONE", "NAN_REQUEST_ZERO_FMA"]

TYPES = {8: ["int8_t", "uint8_t", "float_e4m3_t", "float_e5m2_t"], 16: ["half_t", "bfloat16_t", "uint16_t"],
         32: ["float", "tfloat32_t", "int32_t", "uint32_t"], 64: ["double", "int64_t", "uint64_t"]}
ODD_TYPES = ["int16_t", "complex<float>"]  # no TMA format: C++ refuses at compile time


def _cxx_int(n: int) -> str:
    return f"Int<{n}>{{}}"


def _cxx_tuple(t: Any) -> str:
    if isinstance(t, tuple):
        return "make_shape(" + ", ".join(_cxx_tuple(x) for x in t) + ")"
    return _cxx_int(t)


def _cxx_stride(t: Any) -> str:
    if isinstance(t, tuple):
        return "make_stride(" + ", ".join(_cxx_stride(x) for x in t) + ")"
    return _cxx_int(t)


def _cxx_leaf(n: int, dyn: bool) -> str:
    return f"int({n})" if dyn else _cxx_int(n)


def _cxx_mixed(kind: str, values: tuple, dyn: tuple) -> str:
    """``make_shape``/``make_stride`` of a flat tuple, each leaf static or run-time as ``dyn`` says."""
    return f"make_{kind}(" + ", ".join(_cxx_leaf(v, d) for v, d in zip(values, dyn)) + ")"


def _cxx_type(dtype: str) -> str:
    return {"complex<float>": "cute::complex<float>"}.get(dtype, "cute::" + dtype if "_t" in dtype and
                                                         not dtype.startswith(("int", "uint")) else dtype)


def random_case(rng: random.Random) -> dict:
    """One seeded configuration (a dict that both sides read)."""
    bits = rng.choice([8, 16, 32, 64])
    dtype = rng.choice(TYPES[bits]) if rng.random() > 0.03 else rng.choice(ODD_TYPES)
    bits = element_bits(dtype)
    rank = rng.choice([2, 2, 2, 3, 4, 5])
    kind = rng.choice(["gmma", "gmma", "plain"]) if rank <= 3 and bits >= 8 else "plain"
    major = rng.choice(["K", "MN"])
    # the contiguous gmem mode: mode 1 (K) for K-major, mode 0 for MN-major
    contiguous = 1 if major == "K" else 0
    if rng.random() < 0.06:  # smem and gmem majorness disagree
        contiguous = 1 - contiguous
    case: dict = {"dtype": dtype, "rank": rank, "kind": kind, "major": major}
    if kind == "gmma":
        sw = rng.choice([0, 32, 64, 128])
        w = (16 << {0: 0, 32: 1, 64: 2, 128: 3}[sw]) * 8 // bits  # atom width in elements
        w = max(w, 1)
        ka = rng.choice([1, 1, 2, 4])
        ma = rng.choice([1, 2, 4, 8, 16])
        tile = (8 * ma, w * ka) if major == "K" else (w * ka, 8 * ma)
        tile += tuple(rng.choice([1, 1, 2]) for _ in range(rank - 2))
        case |= {"sw": sw}
    else:
        tile = [rng.choice([1, 2, 4, 8, 16, 32, 64, 128]) for _ in range(rank)]
        if rng.random() < 0.85:  # an inner box of at least 16 bytes
            tile[contiguous] = max(tile[contiguous], 128 // bits)
        tile = tuple(tile)
        order = list(range(rank))
        rng.shuffle(order)
        if rng.random() < 0.85:  # the contiguous smem mode is the contiguous gmem mode
            order.remove(contiguous)
            order.insert(0, contiguous)
        case |= {"order": order}
    # gmem: extents multiples of the tile (sometimes smaller than it: TMA clips), compact strides
    shape = []
    for t in tile:
        if rng.random() < 0.05:
            shape.append(max(1, t // 2))
        else:
            shape.append(t * rng.choice([1, 2, 3, 4, 8]))
    unit = 128 // bits  # elements in 16 bytes: most rows are whole 16-byte units
    if rng.random() < 0.9 and shape[contiguous] % unit:
        shape[contiguous] += unit - shape[contiguous] % unit
    gorder = list(range(rank))
    rng.shuffle(gorder)
    gorder.remove(contiguous)
    gorder.insert(0, contiguous)
    stride = [0] * rank
    acc = 1
    for i in gorder:
        stride[i] = acc
        pad = rng.choice([0, 0, 0, 0, 0, unit, 1]) if i == contiguous else 0
        acc *= shape[i] + pad
    case |= {"shape": tuple(shape), "stride": tuple(stride), "tile": tuple(tile)}
    case["address"] = 0x10000 if rng.random() > 0.05 else 0x10008
    op = rng.choice(["SM90_TMA_LOAD", "SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE",
                     "SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_MULTICAST"])
    case["op"] = op
    case["cluster"] = 2 if "MULTICAST" in op else rng.choice([1, 1, 1, 2]) if op != "SM90_TMA_STORE" else 1
    case["api"] = "atom" if op.startswith("SM100") else rng.choice(["copy", "copy", "atom"])
    return case


def cases(count: int = COUNT, seed: int = SEED) -> list[dict]:
    rng = random.Random(seed)
    return [random_case(rng) for _ in range(count)]


def internal_cases(count: int = COUNT_INTERNAL, seed: int = SEED_INTERNAL) -> list[dict]:
    """Seeded configurations of 8- to 32-bit elements with an ``internal`` TMA type: mostly wider
    (``half_t`` moved as ``uint32_t``, ...), sometimes another type of the same width."""
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < count:
        c = random_case(rng)
        bits = element_bits(c["dtype"])
        if bits >= 64 or c["dtype"] in ODD_TYPES:
            continue
        wider = [w for w in (16, 32, 64) if w > bits]
        w = rng.choice(wider) if rng.random() < 0.8 else bits
        c["internal"] = rng.choice([t for t in TYPES[w] if t != c["dtype"]])
        out.append(c)
    return out


def mixed_cases(count: int = COUNT_MIXED, seed: int = SEED_MIXED) -> list[dict]:
    """Seeded configurations (``random_case``'s, TMA formats only) whose gmem extents and strides are
    each run-time (``int``) or static (``Int<N>``), as ``dyn_shape`` / ``dyn_stride`` say, some with
    a gmem mode of extent 1 (a tile of 1 along it): an extent-1 mode set on a mode the tile does
    not cross, or appended after the others (C++'s ``make_shape(M, N, L)`` with ``L = 1``)."""
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < count:
        c = random_case(rng)
        if c["dtype"] in ODD_TYPES:
            continue
        shape, stride, tile = list(c["shape"]), list(c["stride"]), list(c["tile"])
        if rng.random() < 0.35 and len(shape) < 5:  # a trailing batch mode of extent 1
            shape.append(1)
            stride.append(max(s * d for s, d in zip(shape, stride)) + rng.choice([0, 0, 64]))
            tile.append(1)
            if "order" in c:
                c["order"] = list(c["order"]) + [len(shape) - 1]
        for i, t in enumerate(tile):  # extent 1 where the tile is 1 (not the contiguous mode)
            if t == 1 and stride[i] != 1 and rng.random() < 0.4:
                shape[i] = 1
        c |= {"shape": tuple(shape), "stride": tuple(stride), "tile": tuple(tile), "rank": len(shape)}
        style = rng.choice(["all", "extents", "random", "random"])
        n = len(shape)
        if style == "all":  # every extent and every stride but the unit one run-time
            dshape = [True] * n
            dstride = [d != 1 for d in stride]
        elif style == "extents":  # run-time extents, static strides
            dshape, dstride = [True] * n, [False] * n
        else:
            dshape = [rng.random() < 0.5 for _ in range(n)]
            dstride = [rng.random() < 0.5 for _ in range(n)]
        c |= {"dyn_shape": dshape, "dyn_stride": dstride}
        if c["kind"] == "gmma" and n > 3:
            continue
        out.append(c)
    return out


def width_cases(count: int = COUNT_WIDTH, seed: int = SEED_WIDTH) -> list[dict]:
    """Seeded GMMA configurations whose smem atom is for another element width (``smem_dtype``)
    than the gmem tensor's: C++ reads the swizzle on bytes whatever the flag's width."""
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < count:
        c = random_case(rng)
        if c["kind"] != "gmma" or c["dtype"] in ODD_TYPES:
            continue
        bits = element_bits(c["dtype"])  # the tile was made for this width: the smem atom's
        c["smem_dtype"], c["dtype"] = c["dtype"], rng.choice([t for w, ts in TYPES.items() if w != bits
                                                              for t in ts])
        out.append(c)
    return out


def key(case: dict) -> str:
    return json.dumps(case, sort_keys=True)


def smem_layout(case: dict) -> Any:
    """cutepy's smem layout of a configuration."""
    tile = tuple(case["tile"])
    if case["kind"] == "gmma":
        smem_dtype = case.get("smem_dtype", case["dtype"])
        return tile_to_shape(gmma_smem_layout(case["major"], case["sw"], smem_dtype), tile)
    order = case["order"]
    stride = [0] * len(tile)
    acc = 1
    for i in order:
        stride[i] = acc
        acc *= tile[i]
    return Layout(tile, tuple(stride))


def _cxx_smem(case: dict) -> str:
    tile = tuple(case["tile"])
    T = _cxx_type(case.get("smem_dtype", case["dtype"]))
    if case["kind"] == "gmma":
        name = {0: "INTER", 32: "SW32", 64: "SW64", 128: "SW128"}[case["sw"]]
        return f"tile_to_shape(GMMA::Layout_{case['major']}_{name}_Atom<{T}>{{}}, {_cxx_tuple(tile)})"
    L = smem_layout(case)
    return f"make_layout({_cxx_tuple(L.shape)}, {_cxx_stride(L.stride)})"


def cxx_case(case: dict) -> str:
    """The C++ block building the configuration and printing what cutepy is compared on."""
    T = _cxx_type(case["dtype"])
    shape, stride, tile = tuple(case["shape"]), tuple(case["stride"]), tuple(case["tile"])
    if "dyn_shape" in case:  # a mixed configuration: each leaf static or run-time
        gl = (f"make_layout({_cxx_mixed('shape', shape, case['dyn_shape'])}, "
              f"{_cxx_mixed('stride', stride, case['dyn_stride'])})")
    else:
        gl = f"make_layout({_cxx_tuple(shape)}, {_cxx_stride(stride)})"
    S = _cxx_type(case.get("smem_dtype", case["dtype"]))  # the smem tile's element type
    lines = [
        f"using T = {T};",
        f"using S = {S};",
        f"Tensor g = make_tensor(make_gmem_ptr((T*){case['address']}ull), {gl});",
        f"auto sl = {_cxx_smem(case)};",
    ]
    c = case["cluster"]
    it_ = f"<{_cxx_type(case['internal'])}>" if case.get("internal") else ""
    if case["api"] == "copy":
        lines += [
            f"auto tma = make_tma_copy{it_}({case['op']}{{}}, g, sl, {_cxx_tuple(tile)}, Int<{c}>{{}});",
            'printf("@TILED\\n"); print(tma);',
            "auto tt = tma.get_tma_tensor(shape(g));",
            'printf("@GBASIS\\n"); print(typename decltype(tma)::AuxParams::TmaGmemBasis{});',
            'printf("\\n@TENSOR\\n"); print(tt);',
        ]
        for t in sorted({0, c - 1}):
            lines.append(f'printf("\\n@S{t}\\n"); print(tma.get_slice({t}).partition_S(tt));')
            lines.append(f'printf("\\n@D{t}\\n"); print(tma.get_slice({t}).partition_D('
                         f'make_tensor(make_smem_ptr((S*)0x400), sl)));')
    else:
        lines += [
            f"auto tma = make_tma_atom{it_}({case['op']}{{}}, g, sl, {_cxx_tuple(tile)}, Int<{c}>{{}});",
            'printf("@ATOM\\n"); print(tma);',
            'printf("\\n@GBASIS\\n"); print(typename decltype(tma)::AuxParams::TmaGmemBasis{});',
            'printf("\\n@TENSOR\\n"); print(tma.get_tma_tensor(shape(g)));',
        ]
    lines.append('printf("\\n");')
    # each configuration runs in a child process: a failed C++ assert ends only that child
    body = "\n".join("  " + x for x in lines)
    return (f"std::fflush(stdout);\npid_t pid = fork();\nif (pid == 0) {{\n{body}\n"
            "  std::fflush(stdout); _exit(0);\n}\nint st = 0; waitpid(pid, &st, 0);\n"
            'if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) printf("@ABORTED\\n");')


def parse_output(text: str) -> dict:
    """The stub's descriptor line and the ``@SECTION`` prints of one case's output."""
    out: dict = {"sections": {}}
    section = None
    for line in text.splitlines():
        if line.startswith("DESC "):
            head, gdim, gstr, box, es, enums = line[5:].split("|")
            dt, rank, addr = (int(x) for x in head.split())
            il, sw, l2, oob = (int(x) for x in enums.split())
            out["descriptor"] = {
                "data_type": DATA_TYPES[dt], "rank": rank, "global_address": addr,
                "global_dim": [int(x) for x in gdim.split()],
                "global_strides": [int(x) for x in gstr.split()],
                "box_dim": [int(x) for x in box.split()],
                "element_strides": [int(x) for x in es.split()],
                "interleave": INTERLEAVE[il], "swizzle": SWIZZLES[sw], "l2_promotion": L2[l2],
                "oob_fill": OOB[oob],
            }
        elif line.startswith("@ABORTED"):
            out["aborted"] = True
        elif line.startswith("DRIVER_REJECTS "):
            out["driver_rejects"] = line[len("DRIVER_REJECTS "):]
        elif line.startswith("@"):
            section = line[1:].strip()
            out["sections"][section] = []
        elif section is not None:
            out["sections"][section].append(line)
    out["sections"] = {k: "\n".join(v).strip() for k, v in out["sections"].items()}
    return out


def gmem_layout(case: dict) -> Layout:
    """The configuration's gmem layout, run-time leaves (``dyn_shape``/``dyn_stride``) as
    :func:`cutepy.dynamic` integers."""
    shape, stride = tuple(case["shape"]), tuple(case["stride"])
    if "dyn_shape" in case:
        shape = tuple(dynamic(v) if d else v for v, d in zip(shape, case["dyn_shape"]))
        stride = tuple(dynamic(v) if d else v for v, d in zip(stride, case["dyn_stride"]))
    return Layout(shape, stride)


def build(case: dict) -> Any:
    """cutepy's object for a configuration (raises CutepyError where cutepy refuses)."""
    g = make_tensor(gmem_ptr(case["dtype"], case["address"]), gmem_layout(case))
    fn = make_tma_copy if case["api"] == "copy" else make_tma_atom
    return fn(case["op"], g, smem_layout(case), tuple(case["tile"]), case["cluster"],
              internal_type=case.get("internal"))


def family(case: dict) -> str:
    """The family a configuration is counted in: op/api, element bits, rank, smem kind."""
    sw = f"sw{case['sw']}" if case["kind"] == "gmma" else "plain"
    return f"{case['op']}/{element_bits(case['dtype'])}b/{case['rank']}d/{sw}"


def run_cxx(cs: list[dict], raw: bool = False) -> list[dict]:
    """C++'s answer per configuration; ``raw`` keeps the static-integer markers (``_4``)."""
    from tests.cxx import cxx_harness

    keys = [0 if c["dtype"] not in ODD_TYPES else 1 for c in cs]
    res = cxx_harness.run_cases([cxx_case(c) for c in cs], INCLUDES, preamble=STUB, keys=keys,
                                defines=DEFINES)
    rows = []
    for c, r in zip(cs, res):
        row = {"case": c, "ok": r.ok}
        if r.ok:
            row |= parse_output(r.output.strip() if raw else cxx_harness.normalise(r.output))
        else:
            row["error"] = (r.error or "")[:300]
        rows.append(row)
    return rows


def normalise(text: str) -> str:
    """C++'s print without its static-integer markers (``_4`` -> ``4``), as the other files store it."""
    from tests.cxx import cxx_harness

    return cxx_harness.normalise(text)


def read_rows(file: Any = FILE) -> list[dict]:
    return [json.loads(line) for line in file.read_text().splitlines() if line and not line.startswith("#")]


def counts() -> None:
    """Print, per family, how many stored configurations C++ built or refused and whether cutepy
    agrees (the same descriptor and prints, or a refusal): ``python -m tests.kernels.tma_cxx --counts``."""
    from collections import Counter

    from cutepy.core.errors import CutepyError

    table: Counter = Counter()
    for row in read_rows():
        c = row["case"]
        cxx_refuses = not row["ok"] or row.get("aborted") or row.get("driver_rejects")
        try:
            obj = build(c)
            agrees = not cxx_refuses and {k: list(v) if isinstance(v, tuple) else v
                                          for k, v in vars(obj.descriptor).items()} == row["descriptor"]
        except CutepyError:
            agrees = bool(cxx_refuses)
        fam = f"{c['op']}/{c['api']}"
        table[(fam, "refused" if cxx_refuses else "built", agrees)] += 1
    for (fam, what, agrees), n in sorted(table.items()):
        print(f"{fam:40s} {what:8s} {'agree' if agrees else 'DIFFER'} {n}")


def main() -> None:
    if "--counts" in sys.argv:
        counts()
        return
    if "--mixed" in sys.argv:
        rows = run_cxx(mixed_cases(), raw=True)
        head = (
            "# C++ CuTe (CUTLASS 4.7) make_tma_copy / make_tma_atom on gmem layouts mixing static (Int<N>)\n"
            f"# and run-time (int) extents and strides, extent-1 modes among them (tests/kernels/tma_cxx.py\n"
            f"# mixed_cases, seed {SEED_MIXED}, {COUNT_MIXED}); printed as C++ gives them (static ints _N).\n"
            "# Regenerate (CUTLASS 4.7 headers, CUTEPY_CXX_BATCH=40):\n"
            "#   SP=$(python -c \"import site;print(site.getsitepackages()[0])\")\n"
            "#   CUTEPY_CXX_INCLUDE=/work/cutlass47/include:$SP/nvidia/cuda_cccl/include:"
            "$SP/nvidia/cuda_runtime/include:$SP/nvidia/cuda_nvcc/include \\\n"
            "#     python -m tests.kernels.tma_cxx --mixed\n"
        )
        FILE_MIXED.write_text(head + "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        print(f"{sum(r['ok'] for r in rows)} of {len(rows)} configurations built by C++", file=sys.stderr)
        return
    if "--width" in sys.argv:
        rows = run_cxx(width_cases())
        head = (
            "# C++ CuTe (CUTLASS 4.7) make_tma_copy / make_tma_atom with a GMMA smem layout of another\n"
            "# element width than the gmem tensor's (tests/kernels/tma_cxx.py width_cases,\n"
            f"# seed {SEED_WIDTH}, {COUNT_WIDTH}); as tma_cxx.jsonl. Regenerate (CUTLASS 4.7 headers):\n"
            "#   SP=$(python -c \"import site;print(site.getsitepackages()[0])\")\n"
            "#   CUTEPY_CXX_INCLUDE=/work/cutlass47/include:$SP/nvidia/cuda_cccl/include:"
            "$SP/nvidia/cuda_runtime/include:$SP/nvidia/cuda_nvcc/include \\\n"
            "#     python -m tests.kernels.tma_cxx --width\n"
        )
        FILE_WIDTH.write_text(head + "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        print(f"{sum(r['ok'] for r in rows)} of {len(rows)} configurations built by C++", file=sys.stderr)
        return
    if "--internal" in sys.argv:
        rows = run_cxx(internal_cases())
        head = (
            "# C++ CuTe (CUTLASS 4.7) make_tma_copy<TmaInternalType> / make_tma_atom<TmaInternalType>\n"
            f"# on seeded configurations (tests/kernels/tma_cxx.py internal_cases, seed {SEED_INTERNAL}, "
            f"{COUNT_INTERNAL}); as tma_cxx.jsonl.\n"
            "# Regenerate (CUTLASS 4.7 headers, CUTEPY_CXX_BATCH=45):\n"
            "#   SP=$(python -c \"import site;print(site.getsitepackages()[0])\")\n"
            "#   CUTEPY_CXX_INCLUDE=/work/cutlass47/include:$SP/nvidia/cuda_cccl/include:"
            "$SP/nvidia/cuda_runtime/include:$SP/nvidia/cuda_nvcc/include \\\n"
            "#     python -m tests.kernels.tma_cxx --internal\n"
        )
        FILE_INTERNAL.write_text(head + "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        print(f"{sum(r['ok'] for r in rows)} of {len(rows)} configurations built by C++", file=sys.stderr)
        return
    n = int(sys.argv[sys.argv.index("--count") + 1]) if "--count" in sys.argv else COUNT
    rows = run_cxx(cases(n))
    head = (
        "# C++ CuTe (CUTLASS 4.7) make_tma_copy / make_tma_atom on seeded random configurations\n"
        f"# (tests/kernels/tma_cxx.py, seed 2207, the first {n}); the descriptor is what the stub\n"
        "# cuTensorMapEncodeTiled received;"
        " static-integer underscores dropped. Regenerate (CUTLASS 4.7 headers, CUTEPY_CXX_BATCH=45):\n"
        "#   SP=$(python -c \"import site;print(site.getsitepackages()[0])\")\n"
        "#   CUTEPY_CXX_INCLUDE=/work/cutlass47/include:$SP/nvidia/cuda_cccl/include:"
        "$SP/nvidia/cuda_runtime/include:$SP/nvidia/cuda_nvcc/include \\\n"
        f"#     python -m tests.kernels.tma_cxx --count {n}\n"
    )
    FILE.write_text(head + "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    print(f"{sum(r['ok'] for r in rows)} of {len(rows)} configurations built by C++", file=sys.stderr)


if __name__ == "__main__":
    main()
