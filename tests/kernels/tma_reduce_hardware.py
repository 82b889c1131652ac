"""TMA reductions on a real Hopper GPU against cutepy: each seeded configuration is run as
``cp.reduce.async.bulk.tensor.<op>.tile`` (op: add, min, max, inc, dec, and, or, xor) with
cutepy's descriptor (``SM90_TMA_REDUCE_ADD``'s, which every reduction shares: the store's) and
cutepy's per-instruction coordinates and smem offsets (``tma_partition``). Global memory starts
as a pattern, shared memory holds a value per tile element, and the gmem that results is
compared byte for byte with cutepy's prediction: each in-bounds tile element combined with the
gmem element cutepy says it lands on, by the PTX ISA's rule for the op; every other byte as it
was. Which element types each reduction takes is what the GPU answered (an element type it
refuses ends the kernel with an error).

On a machine with an H100/H200 and nvcc (run from the repository root)::

    python -m tests.kernels.tma_reduce_hardware prepare --out DIR       # here
    nvcc -O2 -std=c++17 -arch=sm_90a tests/kernels/tma_reduce_hardware.cu -o DIR/prog
    for k in $(seq 0 $(( $(wc -l < DIR/cases.txt) - 1 ))); do DIR/prog DIR $k; done > DIR/status.txt
    python -m tests.kernels.tma_reduce_hardware collect --out DIR       # here: DIR/tma_reduce_hardware.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib

import numpy as np

from tests.kernels import tma_cxx
from tests.kernels import tma_hardware as hw

OPS = ("add", "min", "max", "inc", "dec", "and", "or", "xor")
DTYPES = ("uint8_t", "int8_t", "float_e4m3_t", "uint16_t", "int16_t", "int32_t", "uint32_t", "int64_t",
          "uint64_t", "half_t", "bfloat16_t", "float", "tfloat32_t", "double")
#: a case's gmem bytes at most (they travel to the GPU twice: before, and as expected after)
GMEM_LIMIT = 1 << 17
SIGNED = {"int8_t", "int16_t", "int32_t", "int64_t"}
FLOATS = {"half_t": np.float16, "float": np.float32, "tfloat32_t": np.float32, "double": np.float64,
          "bfloat16_t": None}


def configurations(per_pair: int = 2, seed: int = 2611) -> list[dict]:
    """``per_pair`` seeded configurations for every (op, element type): tma_cxx's generator,
    as single-CTA reductions, each with the op it runs."""
    want = {(op, d): per_pair for op in OPS for d in DTYPES}
    out = []
    for c in tma_cxx.cases(4000, seed):
        if c["dtype"] not in DTYPES:
            continue
        c = dict(c, op="SM90_TMA_REDUCE_ADD", cluster=1, api="atom")
        k = sum(1 for o in out if o["dtype"] == c["dtype"])
        op = OPS[k % len(OPS)]
        if want[(op, c["dtype"])] == 0:
            continue
        try:
            p = hw.plan(dict(c, op="SM90_TMA_STORE"))
        except ValueError:
            continue
        if p is None or p["gbytes"] > GMEM_LIMIT:
            continue
        want[(op, c["dtype"])] -= 1
        out.append(dict(c, reduction=op))
    return out


def _bits(dtype: str) -> int:
    return 8 * (hw.element_bits(dtype) // 8)


def _encode(dtype: str, v: np.ndarray) -> np.ndarray:
    """Element values -> their raw bits (uint64)."""
    if dtype in FLOATS:
        if dtype == "bfloat16_t":
            return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint64)
        ft = FLOATS[dtype]
        ut = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}[ft]
        return v.astype(ft).view(ut).astype(np.uint64)
    b = _bits(dtype)
    return v.astype(np.uint64) & np.uint64((1 << b) - 1) if b < 64 else v.astype(np.uint64)


def values(dtype: str, index: np.ndarray, salt: int) -> np.ndarray:
    """A pattern per element: integers spread over the type's range (wrapping), floats small
    integers (every sum, min and max exact)."""
    if dtype in FLOATS:
        return ((index * (7 + salt)) % 13 - 6).astype(np.float64)
    mult = np.uint64(0x9E3779B97F4A7C15 if salt == 0 else 0xC2B2AE3D27D4EB4F)
    with np.errstate(over="ignore"):
        raw = index.astype(np.uint64) * mult + np.uint64(0x243F6A88 + salt)
    b = _bits(dtype)
    return raw >> np.uint64(64 - b) if b < 64 else raw


def reduce(op: str, dtype: str, old: np.ndarray, src: np.ndarray) -> np.ndarray:
    """The PTX ISA's rule for ``cp.reduce.async.bulk`` op on element type ``dtype`` (raw bits in,
    raw bits out; floats as values)."""
    if dtype in FLOATS:
        f = {"add": np.add, "min": np.fmin, "max": np.fmax}.get(op)
        if f is None:
            raise ValueError(f"{op} on {dtype}: no rule")
        return _encode(dtype, f(old, src))
    b = _bits(dtype)
    mask = np.uint64((1 << b) - 1) if b < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)

    def signed(x):
        x = x.astype(np.uint64)
        return (x.astype(np.int64) << np.int64(64 - b)) >> np.int64(64 - b) if b < 64 else x.view(np.int64)
    o, s = old.astype(np.uint64), src.astype(np.uint64)
    if op == "add":
        with np.errstate(over="ignore"):
            return (o + s) & mask
    if op in ("min", "max"):
        a, c = (signed(o), signed(s)) if dtype in SIGNED else (o, s)
        pick = (a <= c) if op == "min" else (a >= c)
        return np.where(pick, o, s)
    if op == "inc":
        return np.where(o >= s, np.uint64(0), (o + np.uint64(1)) & mask)
    if op == "dec":
        return np.where((o == 0) | (o > s), s, (o - np.uint64(1)) & mask)
    return {"and": o & s, "or": o | s, "xor": o ^ s}[op]


def _bytes(bits: np.ndarray, eb: int) -> np.ndarray:
    shifts = np.uint64(8) * np.arange(eb, dtype=np.uint64)
    return ((bits[:, None] >> shifts) & np.uint64(0xFF)).astype(np.uint8)


def plan(case: dict) -> dict:
    """cutepy's descriptor and instructions (``tma_hardware.plan``), the gmem before, the smem
    image and the gmem cutepy expects after."""
    p = hw.plan(dict(case, op="SM90_TMA_STORE"))  # every reduction's descriptor and partition are the store's
    eb, dtype, op = p["eb"], case["dtype"], case["reduction"]
    t = p["tile"]
    n_g = p["gbytes"] // eb
    old = values(dtype, np.arange(n_g, dtype=np.int64), 0)
    init = _bytes(_encode(dtype, old), eb).reshape(-1)
    image = np.full(p["sbytes"], hw.SENTINEL, np.uint8)
    src_tile = values(dtype, t["gmem_element"], 1)
    image[t["smem_byte"][:, None] + np.arange(eb)] = _bytes(_encode(dtype, src_tile), eb)
    want = init.copy()
    inb = t["in_bounds"]
    g = t["gmem_element"][inb]
    try:
        new = reduce(op, dtype, old[g], src_tile[inb])
        want[g[:, None] * eb + np.arange(eb)] = _bytes(new, eb)
    except ValueError:
        pass  # no rule: the GPU's answer is recorded, not predicted
    return p | {"init": init, "image": image, "want": want,
                "hash": hashlib.sha1(want.tobytes() + image.tobytes()).hexdigest()}


def prepare(out: pathlib.Path, per_pair: int, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(out / "cases.txt", "w") as f, open(out / "init.bin", "wb") as fi, \
            open(out / "images.bin", "wb") as fm, open(out / "want.bin", "wb") as fw:
        io = im = 0
        for i, case in enumerate(configurations(per_pair, seed)):
            p = plan(case)
            d = p["desc"]
            fields = [i, OPS.index(case["reduction"]), tma_cxx.DATA_TYPES.index(d.data_type), d.rank,
                      *d.global_dim, *d.global_strides, *d.box_dim, *d.element_strides,
                      tma_cxx.INTERLEAVE.index(d.interleave), tma_cxx.SWIZZLES.index(d.swizzle),
                      tma_cxx.L2.index(d.l2_promotion), tma_cxx.OOB.index(d.oob_fill), p["gbytes"],
                      p["sbytes"], io, im, len(p["instr"])]
            for ins in p["instr"]:
                fields += ins
            f.write(" ".join(map(str, fields)) + "\n")
            fi.write(p["init"].tobytes())
            fw.write(p["want"].tobytes())
            fm.write(p["image"].tobytes())
            io += p["gbytes"]
            im += p["sbytes"]
            rows.append({"id": i, "case": case, "descriptor": hw.descriptor_json(d),
                         "instructions": len(p["instr"]), "expected_sha1": p["hash"]})
    (out / "plan.json").write_text(json.dumps({"per_pair": per_pair, "seed": seed, "cases": rows}))
    print(f"{len(rows)} cases in {out}")


def collect(out: pathlib.Path, dest: pathlib.Path, device: str) -> None:
    planj = json.loads((out / "plan.json").read_text())
    status = {}
    for line in (out / "status.txt").read_text().splitlines():
        f = line.split()
        if f and f[0].isdigit():
            status[int(f[0])] = " ".join(f[1:])
    for row in planj["cases"]:
        row["verdict"] = status.get(row["id"], "not run")
    table: dict = {}
    for row in planj["cases"]:
        v = row["verdict"].split(" ")[0]
        table.setdefault(f"{row['case']['reduction']} {row['case']['dtype']}", {}).setdefault(v, 0)
        table[f"{row['case']['reduction']} {row['case']['dtype']}"][v] += 1
    summary = {"device": device, "by_op_and_type": table,
               "command": f"python -m tests.kernels.tma_reduce_hardware prepare --out DIR --per-pair "
                          f"{planj['per_pair']} --seed {planj['seed']}; nvcc -O2 -std=c++17 -arch=sm_90a "
                          f"tests/kernels/tma_reduce_hardware.cu -o DIR/prog; one process per line of "
                          f"DIR/cases.txt: DIR/prog DIR K > status"}
    dest.write_text(json.dumps({"summary": summary, "cases": planj["cases"]}, separators=(",", ":")) + "\n")
    print(json.dumps(table, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("prepare", "collect"))
    ap.add_argument("--out", type=pathlib.Path, required=True)
    ap.add_argument("--per-pair", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2611)
    ap.add_argument("--dest", type=pathlib.Path)
    ap.add_argument("--device", default="")
    a = ap.parse_args()
    if a.step == "prepare":
        prepare(a.out, a.per_pair, a.seed)
    else:
        collect(a.out, a.dest or a.out / "tma_reduce_hardware.json", a.device)


if __name__ == "__main__":
    main()
