"""TMA on a real Hopper GPU against cutepy: every seeded configuration cutepy builds is run as
TMA loads and stores with cutepy's descriptor and cutepy's per-instruction coordinates and
smem addresses (``tma_partition``), and the bytes that land are compared with cutepy's
prediction (the swizzled smem byte address of every tile element, zeros out of bounds).
Raw descriptors on either side of each driver rule that cutepy enforces probe the driver alone.

On a machine with an H100/H200 and nvcc (run from the repository root)::

    python -m tests.kernels.tma_hardware all --out DIR [--count 600 --seed 2611]

or in steps: ``prepare`` here (cutepy plans every case: DIR/plan.json and the program's inputs),
``run`` where the GPU is (nvcc, then the program: DIR/status.txt), ``collect`` here. It writes
DIR/tma_hardware.json: the device, per case the configuration, cutepy's descriptor,
the instruction count, a hash of cutepy's expected bytes and the verdict ("match", or what
differed), and per probe the driver's answer beside cutepy's rule. tests/data/tma_hardware.json
is that file from an H200 (tests/kernels/test_tma_hardware.py re-derives the stored cases).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import subprocess
import time

import numpy as np

from cutepy.core.layout import Layout, group
from cutepy.kernels.pointer import element_bits, smem_ptr
from cutepy.kernels.tensor import Tensor, local_tile, make_tensor
from cutepy.kernels.tma import tma_partition
from tests.kernels import tma_cxx

ROOT = pathlib.Path(__file__).resolve().parents[2]

SMEM_LIMIT = 196 * 1024  # one CTA's dynamic smem here
GMEM_LIMIT = 64 << 20  # a load's gmem tensor
STORE_GMEM_LIMIT = 1 << 20  # a store's gmem tensor (compared whole: its bytes travel back and forth)
SENTINEL = 0xCD


def configurations(count: int, seed: int) -> list[dict]:
    """Seeded configurations (tma_cxx's generator), as single-CTA SM90 loads or stores."""
    out = []
    for i, c in enumerate(tma_cxx.cases(count, seed)):
        c = dict(c, op="SM90_TMA_STORE" if i % 3 == 2 else "SM90_TMA_LOAD", cluster=1, api="atom")
        out.append(c)
    return out


def plan(case: dict) -> dict | None:
    """cutepy's descriptor, instructions and expected bytes for one configuration, or None where
    cutepy refuses it (the refusal is recorded by the caller) or it is too big for one CTA."""
    atom = tma_cxx.build(case)
    d = atom.descriptor
    eb = element_bits(case["dtype"]) // 8
    shape, stride, tile = tuple(case["shape"]), tuple(case["stride"]), tuple(case["tile"])
    r = len(tile)
    gbytes = (sum((s - 1) * t for s, t in zip(shape, stride)) + 1) * eb
    glimit = GMEM_LIMIT if case["op"] == "SM90_TMA_LOAD" else STORE_GMEM_LIMIT
    if int(np.prod(tile)) * eb > SMEM_LIMIT or gbytes > glimit:
        return None
    sT = make_tensor(smem_ptr(case["dtype"], 0), tma_cxx.smem_layout(case))
    addrs = np.array(sT.values(), dtype=np.int64)  # byte address of each tile element (colex)
    sbytes = -(-(int(addrs.max()) + eb) // 128) * 128
    if sbytes > SMEM_LIMIT:
        return None
    mT = atom.get_tma_tensor(shape)
    gT = local_tile(mT, tile, (0,) * r)
    g1 = Tensor(gT.engine, group(gT.layout, 0, r), gT.offset)
    s1 = Tensor(sT.engine, group(sT.layout, 0, r), sT.offset)
    tg, ts = tma_partition(atom, 0, Layout(1), s1, g1)
    iters = tg.layout.shape[0][1]
    n = int(np.prod(iters)) if isinstance(iters, tuple) else int(iters)
    instr = []
    for j in range(n):
        c = tg(((0, j),))
        c = tuple(c) if isinstance(c, tuple) else (c,)
        instr.append((*c, *(0,) * (5 - len(c)), int(ts(((0, j),)))))
    # the tile's coordinates (colexicographic), their gmem element offsets and bounds
    idx = np.arange(int(np.prod(tile)), dtype=np.int64)
    coords = []
    for t in tile:
        coords.append(idx % t)
        idx = idx // t
    goff = sum(c * s for c, s in zip(coords, stride))
    inb = np.all([c < s for c, s in zip(coords, shape)], axis=0)
    # each element's offset, little endian; TMA's TFLOAT32 loads drop the low 13 bits
    # (seen on the H200), so there the offset sits above them
    val = goff << 13 if case["dtype"] == "tfloat32_t" else goff
    enc = ((val[:, None] >> (8 * np.arange(eb))) & 0xFF).astype(np.uint8)
    pos = addrs[:, None] + np.arange(eb)
    if case["op"] == "SM90_TMA_LOAD":
        want = np.full(sbytes, SENTINEL, np.uint8)
        want[pos] = np.where(inb[:, None], enc, 0)
        image = None
    else:
        image = np.full(sbytes, SENTINEL, np.uint8)
        image[pos] = enc
        want = np.full(gbytes, SENTINEL, np.uint8)
        gpos = goff[inb][:, None] * eb + np.arange(eb)
        want[gpos] = enc[inb]
    return {"desc": d, "eb": eb, "gbytes": gbytes, "sbytes": sbytes, "instr": instr, "want": want,
            "image": image, "hash": hashlib.sha1(want.tobytes()).hexdigest(),
            "tile": {"smem_byte": addrs, "gmem_element": goff, "in_bounds": inb}}


def enum(names: list[str], name: str) -> int:
    return names.index(name)


def descriptor_json(d) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in vars(d).items()}


# raw descriptors for the driver alone: (what, cutepy's rule says accept?, fields)
def probes() -> list[tuple[str, bool, dict]]:
    base = {"dtype": "FLOAT16", "gdim": [256, 64], "gstride": [512], "box": [64, 8], "es": [1, 1],
            "swizzle": "128B", "addr": 0}
    P = []

    def add(what: str, ok: bool, **kw):
        P.append((what, ok, base | kw))
    add("the base case", True)
    add("inner box 8 bytes (not a multiple of 16)", False, box=[4, 8], swizzle="NONE")
    add("inner box 16 bytes", True, box=[8, 8], swizzle="NONE")
    add("inner box 24 bytes", False, box=[12, 8], swizzle="NONE")
    add("inner box 144 bytes without swizzle", True, box=[72, 8], swizzle="NONE")
    add("inner box 64 bytes at SWIZZLE_32B", False, box=[32, 8], swizzle="32B")
    add("inner box 32 bytes at SWIZZLE_32B", True, box=[16, 8], swizzle="32B")
    add("inner box 128 bytes at SWIZZLE_64B", False, box=[64, 8], swizzle="64B")
    add("inner box 256 bytes at SWIZZLE_128B", False, box=[128, 8], gdim=[256, 64], swizzle="128B")
    add("box 256 rows", True, box=[64, 256], gdim=[256, 512])
    add("box 257 rows", False, box=[64, 257], gdim=[256, 512])
    add("global stride 520 bytes (not a multiple of 16)", False, gstride=[520])
    add("global stride 528 bytes", True, gstride=[528])
    add("address 8 bytes past 16", False, addr=8)
    add("address 16 bytes past 256", True, addr=16)
    add("element stride 8", True, es=[1, 8])
    add("element stride 9", False, es=[1, 9])
    add("global dim 2^32", True, gdim=[256, 1 << 32], gstride=[16])
    add("global dim 2^32 + 1", False, gdim=[256, (1 << 32) + 1], gstride=[16])
    add("global stride 2^40 - 16", True, gstride=[(1 << 40) - 16])
    add("global stride 2^40", False, gstride=[1 << 40])
    return P


def prepare(out: pathlib.Path, count: int, seed: int) -> None:
    """Plan every configuration with cutepy and write the GPU program's inputs and plan.json."""
    t0 = time.time()
    rows, planned = [], []
    for i, case in enumerate(configurations(count, seed)):
        row = {"id": i, "case": case}
        try:
            p = plan(case)
        except ValueError as e:  # CutepyError: cutepy refuses (C++ does too: tests/kernels/test_tma.py)
            row["cutepy_refuses"] = str(e).split("\n")[0]
            rows.append(row)
            continue
        if p is None:
            row["skipped"] = "over one CTA's smem or the gmem limit"
            rows.append(row)
            continue
        row |= {"descriptor": descriptor_json(p["desc"]), "instructions": len(p["instr"]),
                "expected_sha1": p["hash"]}
        rows.append(row)
        planned.append((row, p))
    with open(out / "cases.txt", "w") as f, open(out / "images.bin", "wb") as im, \
            open(out / "want.bin", "wb") as w:
        for row, p in planned:
            d = p["desc"]
            fields = [row["id"], 0 if row["case"]["op"] == "SM90_TMA_LOAD" else 1,
                      enum(tma_cxx.DATA_TYPES, d.data_type), d.rank, *d.global_dim, *d.global_strides,
                      *d.box_dim, *d.element_strides, enum(tma_cxx.INTERLEAVE, d.interleave),
                      enum(tma_cxx.SWIZZLES, d.swizzle), enum(tma_cxx.L2, d.l2_promotion),
                      enum(tma_cxx.OOB, d.oob_fill), p["eb"], p["gbytes"], p["sbytes"], len(p["instr"])]
            for ins in p["instr"]:
                fields += ins
            f.write(" ".join(str(x) for x in fields) + "\n")
            if p["image"] is not None:
                im.write(p["image"].tobytes())
            w.write(p["want"].tobytes())
    P = probes()
    with open(out / "probes.txt", "w") as f:
        for i, (_, _, q) in enumerate(P):
            fields = [i, enum(tma_cxx.DATA_TYPES, q["dtype"]), len(q["gdim"]), *q["gdim"], *q["gstride"],
                      *q["box"], *q["es"], 0, enum(tma_cxx.SWIZZLES, q["swizzle"]), 2, 0, q["addr"]]
            f.write(" ".join(str(x) for x in fields) + "\n")
    (out / "plan.json").write_text(json.dumps({"count": count, "seed": seed, "cases": rows}))
    print(f"{len(planned)} cases planned, {len(rows) - len(planned)} refused or skipped, "
          f"{time.time() - t0:.1f} s", flush=True)


def run(out: pathlib.Path) -> None:
    """Build and run the GPU program (needs nvcc and a Hopper GPU); it writes out/status.txt."""
    exe = out / "tma_hardware"
    src = ROOT / "tests/kernels/tma_hardware.cu"
    cmd = ["nvcc", "-O2", "-std=c++17", "-arch=sm_90a", str(src), "-o", str(exe)]
    subprocess.run(cmd, check=True)
    subprocess.run([str(exe), str(out)], check=True)


def collect(out: pathlib.Path, status_file: pathlib.Path) -> dict:
    """plan.json and the GPU's status.txt -> out/tma_hardware.json (the summary is returned)."""
    planj = json.loads((out / "plan.json").read_text())
    rows = planj["cases"]
    status = status_file.read_text().splitlines()
    device = status[0]
    enc, res = {}, {}
    for s in status[1:]:
        f = s.split()
        if not f or not f[0].isdigit():
            continue
        if f[1] == "encode":
            enc[int(f[0])] = f
        else:
            res[int(f[0])] = " ".join(f[1:])
    for row in rows:
        if "descriptor" not in row:
            continue
        e = enc.get(row["id"])
        if e is None:
            row["verdict"] = "not run"
        elif e[2] != "0":
            row["verdict"] = f"driver refused the descriptor (CUresult {e[2]})"
        elif len(e) < 5 or e[4] != "0":
            row["verdict"] = f"kernel error {e[4] if len(e) > 4 else '?'}"
        else:
            row["verdict"] = res.get(row["id"], "no result")
    answers = {int(s.split()[1]): int(s.split()[3]) for s in status if s.startswith("probe ")}
    probe_rows = [{"what": what, "fields": q, "cutepy_rule_accepts": ok, "driver_result": answers.get(i)}
                  for i, (what, ok, q) in enumerate(probes())]
    verdicts: dict = {}
    for row in rows:
        v = row.get("verdict") or ("refused by cutepy" if "cutepy_refuses" in row else "skipped")
        v = v.split(" ")[0] if v.startswith("differ") else v
        verdicts[v] = verdicts.get(v, 0) + 1
    agree = sum((r["driver_result"] == 0) == r["cutepy_rule_accepts"] for r in probe_rows)
    summary = {"device": device, "verdicts": verdicts, "probes_agreeing": f"{agree}/{len(probe_rows)}",
               "command": f"python -m tests.kernels.tma_hardware all --out DIR --count {planj['count']} "
                          f"--seed {planj['seed']}"}
    result = {"summary": summary, "cases": rows, "probes": probe_rows}
    (out / "tma_hardware.json").write_text(json.dumps(result, separators=(",", ":")))
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["prepare", "run", "collect", "all"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=2611)
    ap.add_argument("--status", help="collect: the GPU's status.txt (default OUT/status.txt)")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.step in ("prepare", "all"):
        prepare(out, a.count, a.seed)
    if a.step in ("run", "all"):
        run(out)
    if a.step in ("collect", "all"):
        print(json.dumps(collect(out, pathlib.Path(a.status) if a.status else out / "status.txt")))


if __name__ == "__main__":
    main()
