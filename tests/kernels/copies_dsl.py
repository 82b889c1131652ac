"""The copies C++ CuTe 4.7 lacks and the CuTe DSL 4.8 has (``nvidia-cutlass-dsl``, host side,
``CUTE_DSL_ARCH=sm_100a``): the reducing and compressing TMEM loads (``tcgen05.LdRed32x32bOp``,
``LdRed16x32bx2Op``, ``LdSPCompress32x32bOp``, ``LdRedSPCompress32x32bOp``), the DSMEM store
(``cpasync.CopyDsmemStoreOp``) and the shared-to-peer-shared bulk copy (``cpasync.CopyBulkS2SOp``).
For every case the DSL builds ``cute.make_copy_atom(op, T[, num_bits_per_copy=n])`` and prints it, or
the error it raises. Stored in tests/data/copies_dsl48.jsonl. Regenerate::

    CUTE_DSL_ARCH=sm_100a PYTHONPATH=$PWD /work/venvs/dsl/bin/python -m tests.kernels.copies_dsl
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.paths import DATA

FILE = DATA / "copies_dsl48.jsonl"
TMEM_OPS = ("LdRed32x32bOp", "LdRed16x32bx2Op", "LdSPCompress32x32bOp", "LdRedSPCompress32x32bOp")
REPS = (1, 2, 4, 8, 16, 32, 64, 128)
TMEM_TYPES = ("float", "int32_t", "uint32_t", "half_t")
RED_OPS = ("MAX", "MINABS", "MIN")
DSMEM_BITS = (0, 32, 64, 128, 256)
DSMEM_TYPES = ("float", "half_t", "int8_t", "double")
BULK_BITS = (0, 64, 128, 1024, 8192)
BULK_TYPES = ("half_t", "float", "double")


def cases() -> list[dict]:
    out = [{"what": "tmem", "op": op, "repeat": r, "dtype": t, "red_op": k}
           for op in TMEM_OPS for r in REPS for t in TMEM_TYPES for k in RED_OPS]
    out += [{"what": "dsmem", "dtype": t, "bits": b} for b in DSMEM_BITS for t in DSMEM_TYPES]
    out += [{"what": "bulk_s2s", "dtype": t, "bits": b} for b in BULK_BITS for t in BULK_TYPES]
    return out


def _dsl_call(c: dict) -> str:
    from cutepy.emit.dsl import DTYPE

    t = DTYPE[c["dtype"]]
    if c["what"] == "tmem":
        return (f"cute.make_copy_atom(tcgen05.{c['op']}(tcgen05.Repetition.x{c['repeat']}, "
                f"redOp=tcgen05.TmemLoadRedOp.{c['red_op']}), {t})")
    op = "CopyDsmemStoreOp" if c["what"] == "dsmem" else "CopyBulkS2SOp"
    return f"cute.make_copy_atom(cpasync.{op}(), {t}, num_bits_per_copy={c['bits']})"


def dsl_source(cs: list[dict]) -> str:
    lines = ["import cutlass, cutlass.cute as cute", "from cutlass.cute.nvgpu import cpasync, tcgen05", ""]
    for i, c in enumerate(cs):
        lines += ["@cute.jit", f"def f{i}():", f"    a = {_dsl_call(c)}", f'    print("@@ {i}")',
                  "    print(a)", "", "try:", f"    f{i}()", "except Exception as e:",
                  f'    print("@@ {i}")',
                  '    print("ERROR", type(e).__name__, str(e).replace(chr(10), " ")[:300])', ""]
    return "\n".join(lines)


def run_dsl(source: str, name: str) -> str:
    """Run a generated DSL program (written to ``name`` in a scratch folder: the DSL reads each jit
    function's source file) in this Python; its stdout, or exit with its stderr's tail."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(source)
        res = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=3000)
    if res.returncode != 0:
        raise SystemExit(res.stderr[-3000:])
    return res.stdout


def split_blocks(text: str, n: int) -> list[list[str]]:
    """The DSL program's output cut at its ``@@ i`` markers: case ``i``'s lines (stripped), or
    ``["ERROR missing"]`` where case ``i`` printed nothing."""
    blocks: dict[int, list[str]] = {}
    cur = None
    for line in text.splitlines():
        if line.startswith("@@ "):
            cur = int(line[3:])
            blocks[cur] = []
        elif cur is not None:
            blocks[cur].append(line.strip())
    return [blocks.get(i, ["ERROR missing"]) for i in range(n)]


def parse(text: str, n: int) -> list[dict]:
    out = []
    for b in split_blocks(text, n):
        if b[0].startswith("ERROR"):
            out.append({"built": False, "error": b[0][6:]})
            continue
        f = {k.strip(): v.strip() for k, v in (x.split(":", 1) for x in b if ":" in x)}
        out.append({"built": True, "thr_id": f["ThrID"], "src": f["TV Layout Src"], "dst": f["TV Layout Dst"],
                    "value_type": f["Value type"]})
    return out


def main() -> None:
    cs = cases()
    out = run_dsl(dsl_source(cs), "copies_dsl_cases.py")
    import cutlass

    with open(FILE, "w") as f:
        f.write(f"# CuTe DSL {cutlass.__version__} (host side, CUTE_DSL_ARCH=sm_100a): "
                "cute.make_copy_atom of the TMEM load-reduce/compress ops, CopyDsmemStoreOp and "
                "CopyBulkS2SOp\n# per case "
                "(tests/kernels/copies_dsl.py). Regenerate: CUTE_DSL_ARCH=sm_100a PYTHONPATH=$PWD "
                "/work/venvs/dsl/bin/python -m tests.kernels.copies_dsl\n")
        for c, r in zip(cs, parse(out, len(cs))):
            f.write(json.dumps({"case": c} | r, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
