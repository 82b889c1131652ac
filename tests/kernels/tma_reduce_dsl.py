"""The TMA reductions beyond add (``.min .max .inc .dec .and .or .xor``) against the CuTe DSL 4.8
(``nvidia-cutlass-dsl``, host side, ``CUTE_DSL_ARCH=sm_90a``): C++ 4.7 has only
``SM90_TMA_REDUCE_ADD``; the DSL has ``cpasync.CopyReduceBulkTensorTileS2GOp(cute.ReductionKind.K)``
for every kind. For each configuration below the DSL builds ``cpasync.make_tiled_tma_atom`` from the
code :func:`cutepy.emit.tma.dsl_make_tma_atom` writes and prints the atom and its TMA tensor; a sweep
of every kind over the DSL's element types records which the DSL's host side builds (all of them:
it checks no element type there, so PTX's type table, :data:`cutepy.kernels.tma.TMA_REDUCTIONS`, has
no oracle on the host). Stored in tests/data/tma_reduce_dsl48.jsonl. Regenerate::

    CUTE_DSL_ARCH=sm_90a PYTHONPATH=$PWD /work/venvs/dsl/bin/python -m tests.kernels.tma_reduce_dsl
"""

from __future__ import annotations

import json

from tests.kernels.copies_dsl import run_dsl, split_blocks
from tests.paths import DATA

FILE = DATA / "tma_reduce_dsl48.jsonl"
KINDS = ("ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR")

#: (C++ element type, gmem shape, gmem stride, smem shape, smem stride, CTA tile) per configuration
CONFIGS = [
    ("float", (256, 128), (128, 1), (64, 32), (32, 1), (64, 32)),
    ("int32_t", (512, 64), (1, 512), (64, 32), (1, 64), (64, 32)),
    ("uint32_t", (64, 32, 4), (32, 1, 2048), (16, 32), (32, 1), (16, 32)),
    ("half_t", (128, 256), (256, 1), (32, 64), (64, 1), (32, 64)),
    ("int64_t", (96, 40), (40, 1), (32, 8), (8, 1), (32, 8)),
    ("uint64_t", (64, 64), (1, 64), (16, 16), (1, 16), (16, 16)),
]

#: the DSL's element types the sweep tries, with the C++ name cutepy knows each by
SWEEP_TYPES = {"Float32": "float", "Float16": "half_t", "BFloat16": "bfloat16_t", "Int32": "int32_t",
               "Uint32": "uint32_t", "Int64": "int64_t", "Uint64": "uint64_t", "Float64": "double",
               "Int8": "int8_t", "Uint8": "uint8_t", "TFloat32": "tfloat32_t", "Float8E4M3FN": "float_e4m3_t"}


def cases() -> list[dict]:
    """Every kind on every configuration (``layouts``), and every kind on every sweep type
    (``sweep``: the first configuration's shapes)."""
    out = [{"what": "layouts", "op": f"SM90_TMA_REDUCE_{k}", "dtype": t, "gshape": g, "gstride": gs,
            "sshape": s, "sstride": ss, "tile": tile}
           for (t, g, gs, s, ss, tile) in CONFIGS for k in KINDS]
    _, g, gs, s, ss, tile = CONFIGS[0]
    out += [{"what": "sweep", "op": f"SM90_TMA_REDUCE_{k}", "dtype": t, "dsl_type": d, "gshape": g,
             "gstride": gs, "sshape": s, "sstride": ss, "tile": tile}
            for k in KINDS for d, t in SWEEP_TYPES.items()]
    return [json.loads(json.dumps(c)) for c in out]


def dsl_source(cs: list[dict]) -> str:
    """One DSL program printing, for each case, ``@@ i`` then the atom and the TMA tensor (or
    ``ERROR``)."""
    from cutepy.core.layout import Layout
    from cutepy.emit.dsl import DTYPE
    from cutepy.emit.tma import dsl_make_tma_atom

    lines = ["import cutlass, cutlass.cute as cute", "from cutlass.cute.nvgpu import cpasync", ""]
    for i, c in enumerate(cs):
        dt = f"cutlass.{c['dsl_type']}" if "dsl_type" in c else DTYPE[c["dtype"]]
        smem = Layout(tuple(c["sshape"]), tuple(c["sstride"]))
        call = dsl_make_tma_atom(c["op"], "g", smem, tuple(c["tile"]))
        lines += ["@cute.jit", f"def f{i}():",
                  f"    p = cute.make_ptr({dt}, 0x10000, cute.AddressSpace.gmem, assumed_align=16)",
                  f"    g = cute.make_tensor(p, cute.make_layout({tuple(c['gshape'])}, "
                  f"stride={tuple(c['gstride'])}))",
                  f"    atom, t = {call}",
                  f'    print("@@ {i}")', "    print(atom)", "    print(t)", "",
                  "try:", f"    f{i}()", "except Exception as e:",
                  f'    print("@@ {i}"); print("ERROR", type(e).__name__)', ""]
    return "\n".join(lines)


def parse(text: str, n: int) -> list[dict]:
    out = []
    for b in split_blocks(text, n):
        if b[0].startswith("ERROR"):
            out.append({"built": False, "error": b[0]})
            continue
        pairs = (x.split(":", 1) for x in b if ":" in x and "tensor<" not in x)
        fields = {k.strip(): v.strip() for k, v in pairs}
        out.append({"built": True, "thr_id": fields["ThrID"], "src": fields["TV Layout Src"],
                    "dst": fields["TV Layout Dst"], "value_type": fields["Value type"],
                    "tensor": next(x for x in b if x.startswith("tensor<"))})
    return out


def main() -> None:
    cs = cases()
    out = run_dsl(dsl_source(cs), "tma_reduce_dsl_cases.py")
    import cutlass

    rows = parse(out, len(cs))
    with open(FILE, "w") as f:
        f.write(f"# CuTe DSL {cutlass.__version__} (host side, CUTE_DSL_ARCH=sm_90a): "
                "cpasync.make_tiled_tma_atom(CopyReduceBulkTensorTileS2GOp(ReductionKind.K), ...) per case "
                "(tests/kernels/tma_reduce_dsl.py);\n"
                "# regenerate: CUTE_DSL_ARCH=sm_90a PYTHONPATH=$PWD /work/venvs/dsl/bin/python -m "
                "tests.kernels.tma_reduce_dsl\n")
        for c, r in zip(cs, rows):
            f.write(json.dumps({"case": c} | r, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
