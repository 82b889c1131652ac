"""XLA layouts: compile time, a whole offset table against the numpy reference, parsing.

Run:  python benchmarks/bench_xla.py [--quick]

1. Compile: median time of :func:`cutepy.xla.to_cute` on the docs' shapes, from a parsed
   shape and from text (parse included). Target: under 1 ms.
2. Offset table: every logical element of
   ``bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`` (167,772,160 offsets, 1.34 GB as
   int64), through the compiled CuTe layout (``compile_details(shape).offsets()``), through XLA's
   index formula (``linear_indices``) and through the numpy reference model
   (pad-reshape-transpose of ``arange``, then inverted: ``reference_offsets``). Each
   method runs in its own subprocess, twice: the table gives the second run's wall time
   (the first run's in brackets: in a VM, the first touch of fresh memory pages can
   cost seconds, whichever method meets it), the peak traced memory of one run
   (``tracemalloc``, which sees numpy's buffers) and the process's peak RSS. Targets:
   the compiled layout no slower than the reference model, its peak at most twice the
   output array. ``--quick`` uses a 64x smaller array.
3. Parsing: shapes per second over the whole ``xla_shapes.tsv`` corpus (parse, and
   parse + print).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The parse corpus: the test data's copy, else the shared reference folder beside the checkout.
DATA = next((p for p in (ROOT / "tests" / "data" / "xla_shapes.tsv",
                         ROOT.parent / "shared" / "data" / "xla_shapes.tsv",
                         ROOT.parents[1] / "shared" / "data" / "xla_shapes.tsv") if p.exists()),
            ROOT / "tests" / "data" / "xla_shapes.tsv")

COMPILE_CASES = [
    "f32[3,5]{1,0:T(2,2)}",
    "f32[4,8]{1,0:T(2,4)(2,1)}",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
]

TABLE = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}"
TABLE_QUICK = "bf16[8,1,20,16384]{3,2,0,1:T(8,128)(2,1)}"

_CHILD = r"""
import json, resource, sys, time, tracemalloc
sys.path.insert(0, {root!r})
from cutepy.xla import compile_details, linear_indices, parse_shape
from cutepy.xla.reference import reference_offsets
shape = parse_shape({shape!r})
method = {method!r}

def run():
    if method == "cutepy":
        return compile_details(shape).offsets()
    if method == "formula":
        return linear_indices(shape)
    return reference_offsets(shape)

tracemalloc.start()
times = []
for _ in range(2):
    tracemalloc.reset_peak()
    start = time.perf_counter()
    out = run()
    times.append(time.perf_counter() - start)
    peak = tracemalloc.get_traced_memory()[1]
    check = int(out.reshape(-1)[::9973].sum())
    nbytes = out.nbytes
    del out
print(json.dumps({{"first": times[0], "seconds": times[1], "peak": peak, "out": nbytes,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "check": check}}))
"""


def _median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench_compile() -> list[str]:
    from cutepy.xla import compile_details, parse_shape, to_cute

    rows = [f"{'shape':52} {'form':6} {'compile':>10} {'parse+compile':>14}  target"]
    for text in COMPILE_CASES:
        shape = parse_shape(text)
        to_cute(shape)  # warm up imports
        t1 = _median_time(lambda s=shape: to_cute(s), 300)
        t2 = _median_time(lambda s=text: to_cute(s), 300)
        ok = "ok" if t2 < 1e-3 else "SLOW"
        rows.append(f"{text:52} {compile_details(shape).form:6} {t1 * 1e6:8.0f} us {t2 * 1e6:11.0f} us  "
                    f"< 1 ms {ok}")
    return rows


def _child(method: str, shape: str) -> dict:
    code = _CHILD.format(root=str(ROOT), shape=shape, method=method)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def bench_table(quick: bool) -> list[str]:
    shape = TABLE_QUICK if quick else TABLE
    results = {m: _child(m, shape) for m in ("cutepy", "formula", "reference")}
    out_bytes = results["cutepy"]["out"]
    checks = {r["check"] for r in results.values()}
    rows = [f"offset table of {shape}: {out_bytes // 8:,} int64 offsets, {out_bytes / 1e9:.2f} GB",
            f"{'method':34} {'time (first run)':>17} {'peak traced':>12} {'peak / out':>10} "
            f"{'peak RSS':>9}"]
    names = {"cutepy": "CompiledLayout.offsets (CuTe)", "formula": "linear_indices (XLA formula)",
             "reference": "reference_offsets (numpy model)"}
    for m, r in results.items():
        rows.append(f"{names[m]:34} {r['seconds']:7.2f}s ({r['first']:5.2f}s) {r['peak'] / 1e9:10.2f}GB "
                    f"{r['peak'] / out_bytes:9.2f}x {r['rss'] / 1e9:7.2f}GB")
    ours, ref = results["cutepy"], results["reference"]
    speed = ref["seconds"] / ours["seconds"]
    first = ref["first"] / ours["first"]
    rows.append(f"cutepy vs reference: {speed:.1f}x faster, {first:.1f}x on first runs "
                f"({'ok' if min(speed, first) >= 1 else 'SLOWER'}); "
                f"peak {ours['peak'] / out_bytes:.2f}x the output "
                f"({'ok' if ours['peak'] <= 2 * out_bytes else 'OVER 2x'}); "
                f"same offsets: {'yes' if len(checks) == 1 else 'NO'}")
    return rows


def bench_parse() -> list[str]:
    from cutepy.xla import parse_shape

    texts = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            text, status, _ = line.split("\t")
            if status == "OK" and "T()" not in text:  # T(): XLA's layout validator rejects it
                texts.append(text)

    def parse_all() -> None:
        for t in texts:
            parse_shape(t)

    def round_trip() -> None:
        for t in texts:
            str(parse_shape(t))

    rows = [f"parse corpus: {len(texts)} shapes ({sum(map(len, texts)):,} characters)"]
    for name, fn in (("parse", parse_all), ("parse + print", round_trip)):
        t = _median_time(fn, 7)
        rows.append(f"  {name:14} {t * 1e3:7.1f} ms per pass = {len(texts) / t:9,.0f} shapes/s")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a 64x smaller offset table")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    for section in (bench_compile, lambda: bench_table(args.quick), bench_parse):
        print("\n".join(section()), flush=True)
        print()


if __name__ == "__main__":
    main()
