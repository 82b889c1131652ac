"""SM90 GMMA on a real Hopper GPU against cutepy: for seeded configurations (f16, bf16, tf32
and e4m3 operands, K- and MN-major, every GMMA smem atom, N 64..256, several k-blocks), A and
B are written to shared memory at cutepy's swizzled byte addresses
(``tile_to_shape(gmma_smem_layout(...), ...)``), ``wgmma.mma_async`` runs on cutepy's descriptor
fragments (``partition_fragment_A/B``), and every thread's accumulator register ``v`` is read
as the element cutepy's ``partition_C`` gives it; the result must equal ``A @ B.T`` exactly
(small integers: every product and sum is exact).

On a machine with an H100/H200 and nvcc (run from the repository root)::

    python -m tests.kernels.gmma_hardware prepare --out DIR   # here: cutepy plans, writes the program
    python -m tests.kernels.gmma_hardware run --out DIR       # where the GPU is
    python -m tests.kernels.gmma_hardware collect --out DIR   # here: DIR/gmma_hardware.json

tests/data/gmma_hardware.json is that file from an H200 (tests/kernels/test_gmma_hardware.py
reads it and plans the stored configurations again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import random
import struct
import subprocess

import numpy as np

from cutepy.algebra.products import tile_to_shape
from cutepy.kernels.atoms import gmma_smem_layout, mma_atom
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import make_identity_tensor, make_tensor
from cutepy.kernels.tiled import make_tiled_mma

#: operand type -> (C++ type in the atom's name, PTX type, k of one instruction, bytes)
TYPES = {"half_t": ("F16F16", "f16", 16, 2), "bfloat16_t": ("BF16BF16", "bf16", 16, 2),
         "tfloat32_t": ("TF32TF32", "tf32", 8, 4), "float_e4m3_t": ("E4M3E4M3", "e4m3", 32, 1)}
SEED = 2612
COUNT = 40


def configurations(count: int = COUNT, seed: int = SEED) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        dtype = rng.choice(["half_t", "half_t", "bfloat16_t", "tfloat32_t", "float_e4m3_t"])
        transposable = dtype in ("half_t", "bfloat16_t")
        ma = rng.choice(["K", "MN"]) if transposable else "K"
        mb = rng.choice(["K", "MN"]) if transposable else "K"
        out.append({"dtype": dtype, "n": rng.choice([64, 128, 256]), "major_a": ma, "major_b": mb,
                    "sw_a": rng.choice([0, 32, 64, 128]), "sw_b": rng.choice([0, 32, 64, 128]),
                    "k_blocks": rng.choice([1, 2, 4])})
    return out


def atom_name(c: dict) -> str:
    ab, _, k, _ = TYPES[c["dtype"]]
    if c["dtype"] in ("half_t", "bfloat16_t"):
        return f"SM90_64x{c['n']}x{k}_F32{ab}_SS<{c['major_a']},{c['major_b']}>"
    return f"SM90_64x{c['n']}x{k}_F32{ab}_SS_TN"


def bits_of(values: np.ndarray, dtype: str) -> np.ndarray:
    """The operand's bit patterns of small integers (exact in every type here), as bytes."""
    f = values.astype(np.float32)
    if dtype == "half_t":
        return f.astype(np.float16).view(np.uint8).reshape(-1, 2)
    if dtype == "bfloat16_t":
        return (f.view(np.uint32) >> 16).astype(np.uint16).view(np.uint8).reshape(-1, 2)
    if dtype == "tfloat32_t":
        return f.view(np.uint8).reshape(-1, 4)
    # e4m3: sign, 4 exponent bits (bias 7), 3 mantissa bits; |v| <= 3 here
    code = {0: 0x00, 1: 0x38, 2: 0x40, 3: 0x44}
    return np.array([[code[abs(int(v))] | (0x80 if v < 0 else 0)] for v in values.ravel()], np.uint8)


def plan(c: dict, rng: np.random.Generator | None = None) -> dict:
    """cutepy's smem images, descriptor words and accumulator map for one configuration."""
    _, _, k_atom, eb = TYPES[c["dtype"]]
    atom_a = gmma_smem_layout(c["major_a"], c["sw_a"], c["dtype"])
    atom_b = gmma_smem_layout(c["major_b"], c["sw_b"], c["dtype"])
    k_ext = max(k_atom, _k_extent(atom_a), _k_extent(atom_b))
    K = k_ext * c["k_blocks"]
    M, N = 64, c["n"]
    sA = make_tensor(smem_ptr(c["dtype"], 0), tile_to_shape(atom_a, (M, K)))
    sB = make_tensor(smem_ptr(c["dtype"], 0), tile_to_shape(atom_b, (N, K)))
    mma = make_tiled_mma(mma_atom(atom_name(c)))
    thr = mma.get_slice(0)
    fa, fb = thr.partition_fragment_A(sA), thr.partition_fragment_B(sB)
    nk = K // k_atom
    descs = [(int(fa(0, 0, k)), int(fb(0, 0, k))) for k in range(nk)]
    cmap = [mma.get_slice(t).partition_C(make_identity_tensor((M, N))).values() for t in range(128)]
    rng = rng or np.random.default_rng(0)
    A = rng.integers(-3, 4, size=(M, K))
    B = rng.integers(-3, 4, size=(N, K))
    images, addrs = [], []
    for s, X in ((sA, A), (sB, B)):
        addr = np.array(s.values(), np.int64)  # byte address of element (i, k), colexicographic
        img = np.zeros(int(addr.max()) + eb, np.uint8)
        img[addr[:, None] + np.arange(eb)] = bits_of(X.T.ravel(), c["dtype"])  # colex: i fastest
        images.append(img)
        addrs.append(addr)
    return {"A": A, "B": B, "K": K, "descs": descs, "cmap": cmap, "images": images, "addrs": addrs,
            "regs": len(cmap[0]), "k_atom": k_atom}


def _k_extent(atom) -> int:
    s = atom.shape if hasattr(atom, "shape") else atom.layout.shape
    k = s[1]
    return int(np.prod(k)) if isinstance(k, tuple) else int(k)


def kernel_source(i: int, c: dict, regs: int, k_atom: int) -> str:
    _, ptx, _, _ = TYPES[c["dtype"]]
    outs = ", ".join(f"%{j}" for j in range(regs))
    da, db, sc = regs, regs + 1, regs + 2
    tail = " p, 1, 1"
    if c["dtype"] in ("half_t", "bfloat16_t"):
        tail += f", {int(c['major_a'] == 'MN')}, {int(c['major_b'] == 'MN')}"
    ops = ", ".join(f'"+f"(d[{j}])' for j in range(regs))
    return f'''
__global__ void __launch_bounds__(128) gmma_{i}(const unsigned char* img, int a_bytes, int b_off, int b_bytes,
                                              const unsigned long long* descs, int nk, float* out) {{
  extern __shared__ __align__(1024) unsigned char smem[];
  for (int j = threadIdx.x; j < a_bytes; j += 128) smem[j] = img[j];
  for (int j = threadIdx.x; j < b_bytes; j += 128) smem[b_off + j] = img[a_bytes + j];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[{regs}];
  for (int j = 0; j < {regs}; ++j) d[j] = 0.f;
  unsigned long long base = static_cast<unsigned long long>(__cvta_generic_to_shared(smem)) >> 4;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int k = 0; k < nk; ++k) {{
    unsigned long long a = descs[2 * k] + base, b = descs[2 * k + 1] + base + (b_off >> 4);
    int one = 1;
    asm volatile("{{ .reg .pred p; setp.ne.b32 p, %{sc}, 0;\\n"
                 "wgmma.mma_async.sync.aligned.m64n{c['n']}k{k_atom}.f32.{ptx}.{ptx} "
                 "{{{outs}}}, %{da}, %{db},{tail};\\n}}"
                 : {ops} : "l"(a), "l"(b), "r"(one) : "memory");
  }}
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int j = 0; j < {regs}; ++j) out[threadIdx.x * {regs} + j] = d[j];
}}
'''


MAIN = r'''
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::printf("fatal %s line %d\n", cudaGetErrorString(e), __LINE__); return 1; } } while (0)
int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  std::ifstream in(dir + "/inputs.bin", std::ios::binary);
  std::FILE* out = std::fopen((dir + "/accumulators.bin").c_str(), "wb");
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s sm_%d%d\n", prop.name, prop.major, prop.minor);
  int hdr[6];
  while (in.read((char*)hdr, sizeof hdr)) {
    int id = hdr[0], a_bytes = hdr[1], b_bytes = hdr[2], nk = hdr[3], regs = hdr[4];
    int b_off = (a_bytes + 1023) / 1024 * 1024, smem = b_off + b_bytes;
    std::vector<unsigned char> img(a_bytes + b_bytes);
    std::vector<unsigned long long> descs(2 * nk);
    in.read((char*)img.data(), img.size());
    in.read((char*)descs.data(), descs.size() * 8);
    unsigned char* dimg; unsigned long long* ddesc; float* dout;
    CK(cudaMalloc(&dimg, img.size())); CK(cudaMalloc(&ddesc, descs.size() * 8));
    CK(cudaMalloc(&dout, 128 * regs * 4));
    CK(cudaMemcpy(dimg, img.data(), img.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ddesc, descs.data(), descs.size() * 8, cudaMemcpyHostToDevice));
    switch (id) {
CASES
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> acc(128 * regs);
    CK(cudaMemcpy(acc.data(), dout, acc.size() * 4, cudaMemcpyDeviceToHost));
    std::fwrite(acc.data(), 4, acc.size(), out);
    std::printf("ran %d\n", id);
    cudaFree(dimg); cudaFree(ddesc); cudaFree(dout);
  }
  std::fclose(out);
  return 0;
}
'''


def prepare(out: pathlib.Path, count: int, seed: int) -> None:
    cs = configurations(count, seed)
    src = ["// generated by tests/kernels/gmma_hardware.py: one kernel per configuration\n"
           "#include <cuda_runtime.h>\n#include <string>\n"]
    cases, rows = [], []
    rng = np.random.default_rng(seed)
    with open(out / "inputs.bin", "wb") as f:
        for i, c in enumerate(cs):
            p = plan(c, rng)
            a_img, b_img = p["images"]
            b_off = -(-len(a_img) // 1024) * 1024
            src.append(kernel_source(i, c, p["regs"], p["k_atom"]))
            cases.append(f"      case {i}: CK(cudaFuncSetAttribute(gmma_{i}, "
                         f"cudaFuncAttributeMaxDynamicSharedMemorySize, {b_off + len(b_img)}));\n"
                         f"        gmma_{i}<<<1, 128, {b_off + len(b_img)}>>>(dimg, {len(a_img)}, {b_off}, "
                         f"{len(b_img)}, ddesc, {len(p['descs'])}, dout); break;")
            f.write(struct.pack("6i", i, len(a_img), len(b_img), len(p["descs"]), p["regs"], 0))
            f.write(a_img.tobytes() + b_img.tobytes())
            f.write(np.array([w for pair in p["descs"] for w in pair], np.uint64).tobytes())
            want = (p["A"] @ p["B"].T).astype(np.float32)
            rows.append({"id": i, "config": c, "atom": atom_name(c), "K": p["K"], "registers": p["regs"],
                         "descriptors": [[hex(a), hex(b)] for a, b in p["descs"]],
                         "plan_sha1": digest(p), "want": want.tolist(),
                         "cmap": [[list(mn) for mn in t] for t in p["cmap"]]})
    (out / "gmma_hardware.cu").write_text("".join(src) + MAIN.replace("CASES", "\n".join(cases)))
    (out / "plan.json").write_text(json.dumps({"count": count, "seed": seed, "cases": rows}))
    print(f"{len(rows)} configurations planned")


def digest(p: dict) -> str:
    """SHA-1 of what cutepy decided (smem byte addresses, descriptor words, accumulator map)."""
    h = hashlib.sha1()
    for a in p["addrs"]:
        h.update(a.tobytes())
    h.update(json.dumps([p["descs"], p["cmap"]]).encode())
    return h.hexdigest()


def run(out: pathlib.Path) -> None:
    exe = out / "gmma_hardware"
    src = out / "gmma_hardware.cu"
    cmd = ["nvcc", "-O1", "-std=c++17", "-gencode", "arch=compute_90a,code=sm_90a", str(src), "-o", str(exe)]
    subprocess.run(cmd, check=True)
    with open(out / "status.txt", "w") as f:
        subprocess.run([str(exe), str(out)], check=True, stdout=f)


def collect(out: pathlib.Path) -> dict:
    planj = json.loads((out / "plan.json").read_text())
    status = (out / "status.txt").read_text().splitlines()
    acc = np.fromfile(out / "accumulators.bin", np.float32)
    pos, verdicts, rows = 0, {}, []
    ran = {int(s.split()[1]) for s in status if s.startswith("ran ")}
    for r in planj["cases"]:
        want = np.array(r["want"], np.float32)
        if r["id"] not in ran:
            v = "did not run"
        else:
            got = acc[pos:pos + 128 * r["registers"]].reshape(128, r["registers"])
            pos += got.size
            bad = [(t, j) for t in range(128) for j, (m, n) in enumerate(r["cmap"][t])
                   if got[t, j] != want[m, n]]
            v = "match" if not bad else (f"{len(bad)} of {got.size} registers differ, "
                                         f"first thread {bad[0][0]} value {bad[0][1]}")
        verdicts[v.split(" ")[0] if v[0].isdigit() else v] = verdicts.get(v, 0) + 1
        rows.append({k: r[k] for k in ("id", "config", "atom", "K", "registers", "descriptors", "plan_sha1")}
                    | {"verdict": v})
    summary = {"device": status[0], "verdicts": verdicts,
               "command": f"python -m tests.kernels.gmma_hardware prepare/run/collect --out DIR "
                          f"(count {planj['count']}, seed {planj['seed']})"}
    (out / "gmma_hardware.json").write_text(json.dumps({"summary": summary, "cases": rows}, indent=1))
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description="SM90 GMMA on a Hopper GPU against cutepy")
    ap.add_argument("step", choices=["prepare", "run", "collect"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=COUNT)
    ap.add_argument("--seed", type=int, default=SEED)
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.step == "prepare":
        prepare(out, a.count, a.seed)
    elif a.step == "run":
        run(out)
    else:
        print(json.dumps(collect(out)))


if __name__ == "__main__":
    main()
