"""Triton's layouts of AMD's matrix instructions: the second oracle of cutepy's AMD atoms.

For each single-block MFMA (gfx908, gfx90a, gfx942, gfx950) and WMMA (RDNA3, RDNA4) instruction
that Triton 3.9 lowers, ask Triton (on the CPU, ``GluonOpBuilder.to_linear_layout``) for the
linear layouts of one warp's C tile (``AMDMFMALayout`` / ``AMDWMMALayout`` on ``[M, N]``) and of
its operands (``DotOperandLayout`` of that parent, ``[M, K]`` for A and ``[K, N]`` for B, with
``k_width`` the elements of K one lane holds), and store the bases::

    python -m venv /work/venvs/triton && /work/venvs/triton/bin/pip install 'triton==3.9.*'
    /work/venvs/triton/bin/python benchmarks/amd_triton_oracle.py --out tests/data/amd_triton_layouts.json

Each case is converted in a child process (a Triton fatal error loses only that case, stored as
``"rejected"``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

#: (key, parent spec, M, N, K, k_width): key is "arch/instruction" as cutepy's AMD atoms name them
MFMA = [
    # (arch, version, instruction, M, N, K, k_width, C bits)
    ("cdna1", 1, "v_mfma_f32_32x32x2f32", 32, 32, 2, 1, 32),
    ("cdna1", 1, "v_mfma_f32_16x16x4f32", 16, 16, 4, 1, 32),
    ("cdna1", 1, "v_mfma_f32_32x32x8f16", 32, 32, 8, 4, 32),
    ("cdna1", 1, "v_mfma_f32_16x16x16f16", 16, 16, 16, 4, 32),
    ("cdna1", 1, "v_mfma_i32_32x32x8i8", 32, 32, 8, 4, 32),
    ("cdna1", 1, "v_mfma_i32_16x16x16i8", 16, 16, 16, 4, 32),
    ("cdna1", 1, "v_mfma_f32_32x32x4bf16", 32, 32, 4, 2, 32),
    ("cdna1", 1, "v_mfma_f32_16x16x8bf16", 16, 16, 8, 2, 32),
    ("cdna2", 2, "v_mfma_f32_32x32x8bf16_1k", 32, 32, 8, 4, 32),
    ("cdna2", 2, "v_mfma_f32_16x16x16bf16_1k", 16, 16, 16, 4, 32),
    ("cdna2", 2, "v_mfma_f32_32x32x8f16", 32, 32, 8, 4, 32),
    ("cdna2", 2, "v_mfma_f32_16x16x16f16", 16, 16, 16, 4, 32),
    ("cdna2", 2, "v_mfma_f64_16x16x4f64", 16, 16, 4, 1, 64),
    ("cdna3", 3, "v_mfma_f32_32x32x8_f16", 32, 32, 8, 4, 32),
    ("cdna3", 3, "v_mfma_f32_16x16x16_f16", 16, 16, 16, 4, 32),
    ("cdna3", 3, "v_mfma_f32_32x32x8_bf16", 32, 32, 8, 4, 32),
    ("cdna3", 3, "v_mfma_f32_16x16x16_bf16", 16, 16, 16, 4, 32),
    ("cdna3", 3, "v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, 32),
    ("cdna3", 3, "v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, 32),
    ("cdna3", 3, "v_mfma_f32_32x32x4_xf32", 32, 32, 4, 2, 32),
    ("cdna3", 3, "v_mfma_f32_16x16x8_xf32", 16, 16, 8, 2, 32),
    ("cdna3", 3, "v_mfma_i32_32x32x16_i8", 32, 32, 16, 8, 32),
    ("cdna3", 3, "v_mfma_i32_16x16x32_i8", 16, 16, 32, 8, 32),
    ("cdna3", 3, "v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 8, 32),
    ("cdna3", 3, "v_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, 8, 32),
    ("cdna3", 3, "v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, 64),
    ("gfx950", 4, "v_mfma_f32_32x32x16_f16", 32, 32, 16, 8, 32),
    ("gfx950", 4, "v_mfma_f32_16x16x32_f16", 16, 16, 32, 8, 32),
    ("gfx950", 4, "v_mfma_f32_32x32x16_bf16", 32, 32, 16, 8, 32),
    ("gfx950", 4, "v_mfma_f32_16x16x32_bf16", 16, 16, 32, 8, 32),
    ("gfx950", 4, "v_mfma_i32_32x32x32_i8", 32, 32, 32, 16, 32),
    ("gfx950", 4, "v_mfma_i32_16x16x64_i8", 16, 16, 64, 16, 32),
    ("gfx950", 4, "v_mfma_f32_32x32x64_f8f6f4", 32, 32, 64, 32, 32),
    ("gfx950", 4, "v_mfma_f32_16x16x128_f8f6f4", 16, 16, 128, 32, 32),
]
WMMA = [
    # (arch, version, instruction, M, N, K, k_width)
    ("rdna3", 1, "v_wmma_f32_16x16x16_f16", 16, 16, 16, 16),
    ("rdna3", 1, "v_wmma_i32_16x16x16_iu8", 16, 16, 16, 16),
    # Triton itself feeds RDNA4's 16-bit WMMA with k_width 8, a K-permuted reading of the registers
    # (the same permutation for A and B, so the dot product is unchanged); k_width 4 is the
    # instruction's own register layout, the one AMD's calculator prints
    ("rdna4", 2, "v_wmma_f32_16x16x16_f16", 16, 16, 16, 4),
    ("rdna4", 2, "v_wmma_i32_16x16x16_iu8", 16, 16, 16, 8),
    ("rdna4", 2, "v_wmma_f32_16x16x16_fp8_fp8", 16, 16, 16, 8),
    ("rdna4", 2, "v_wmma_i32_16x16x32_iu4", 16, 16, 32, 16),
]


def cases() -> list[dict]:
    out = []
    for arch, version, inst, m, n, k, kw, bits in MFMA:
        parent = {
            "kind": "AMDMFMALayout", "version": version, "instr_shape": [m, n, k], "transposed": False,
            "warps_per_cta": [1, 1], "element_bitwidth": bits,
        }
        out.append({"key": f"{arch}/{inst}", "parent": parent, "mnk": [m, n, k], "k_width": kw})
    for arch, version, inst, m, n, k, kw in WMMA:
        parent = {
            "kind": "AMDWMMALayout", "version": version, "transposed": False, "warp_bases": [],
            "instr_shape": [m, n, k],
        }
        out.append({"key": f"{arch}/{inst}", "parent": parent, "mnk": [m, n, k], "k_width": kw})
    return out


def _gluon(spec: dict):
    from triton.experimental.gluon.language import amd as gla

    kw = {k: v for k, v in spec.items() if k != "kind"}
    return getattr(gla, spec["kind"])(**kw)


def _convert(case: dict) -> dict:
    from triton._C.libtriton import gluon_ir, ir
    from triton.experimental.gluon import language as gl

    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    m, n, k = case["mnk"]
    parent = _gluon(case["parent"])
    out = {}
    for role, layout, shape in (
        ("C", parent, [m, n]),
        ("A", gl.DotOperandLayout(operand_index=0, parent=parent, k_width=case["k_width"]), [m, k]),
        ("B", gl.DotOperandLayout(operand_index=1, parent=parent, k_width=case["k_width"]), [k, n]),
    ):
        try:
            dll = builder.to_linear_layout(layout._to_ir(builder), shape)
        except Exception as e:  # Triton refused in Python
            out[role] = {"rejected": f"{type(e).__name__}: {e}"}
            continue
        out[role] = {
            "text": repr(layout),
            "shape": shape,
            "register": [list(b) for b in dll.reg_bases],
            "lane": [list(b) for b in dll.lane_bases],
            "warp": [list(b) for b in dll.warp_bases],
            "block": [list(b) for b in dll.block_bases],
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="tests/data/amd_triton_layouts.json")
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(_convert(json.loads(sys.stdin.read()))))
        return
    import triton

    got = []
    for case in cases():
        p = subprocess.run([sys.executable, __file__, "--child"], input=json.dumps(case), capture_output=True,
                           text=True)
        if p.returncode == 0:
            case.update(json.loads(p.stdout.strip().splitlines()[-1]))
        else:
            case["rejected"] = "fatal: " + " | ".join(p.stderr.strip().splitlines()[-3:])
        got.append(case)
        print(case["key"], "rejected" if "rejected" in case else "ok", file=sys.stderr)
    data = {
        "provenance": {
            "source": "Triton's GluonOpBuilder.to_linear_layout of AMDMFMALayout / AMDWMMALayout and "
            "DotOperandLayout (operand 0 on [M, K], 1 on [K, N]), one warp, run on the CPU",
            "triton_version": triton.__version__,
            "command": "/work/venvs/triton/bin/python benchmarks/amd_triton_oracle.py "
            "--out tests/data/amd_triton_layouts.json",
            "bases": "each register/lane basis is the (dim0, dim1) coordinate it moves to; the layout "
            "XORs the bases of the set bits of the register and lane indices",
        },
        "cases": got,
    }
    with open(args.out, "w") as f:
        json.dump(data, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
