"""Core algebra speed: cutepy against pycute and tensor-layouts on the same inputs.

Run:  python benchmarks/bench_core.py [--quick]

pycute comes from the ``nvidia-cutlass`` wheel; it is pure Python, so
``pip install --no-deps nvidia-cutlass`` is enough. tensor-layouts comes with the test
extra. A library that is missing is reported and skipped.

Prints, per operation, the median time per call of each library over the same inputs
and the ratio (other / cutepy; above 1 means cutepy is faster), then whole-domain
evaluation against numpy writing the same number of int64 values, then import time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

import cutepy as cp

# The tutorial's examples plus a few typical GEMM-sized layouts; every input is
# admissible for every library, so each library does the same work.
CASES: dict[str, list[tuple]] = {
    "Layout": [
        ((4, 8), (1, 4)),
        (((2, 2), (4, 2)), ((1, 16), (2, 8))),
        ((128, 64), (64, 1)),
        ((((8, 16), 64)), ((64, 512), 1)),
    ],
    "coalesce": [
        (((2, (1, 6)), (1, (6, 2))),),
        (((2, 4, 8), (1, 2, 8)),),
        ((((4, 2), (8, 4)), ((1, 4), (8, 64))),),
        (((128, 64), (64, 1)),),
    ],
    "composition": [
        (((6, 2), (8, 2)), ((4, 3), (3, 1))),
        (((12, (4, 8)), (59, (13, 1))), ((4, 4), (3, 12))),
        (((128, 64), (64, 1)), ((32, 8), (1, 32))),
        ((((8, 16), 64), ((64, 512), 1)), ((4, 8), (2, 16))),
    ],
    "complement": [
        ((4, 2), 24),
        (((2, 2), (1, 6)), 24),
        (((4, 8), (32, 1)), 256),
        (((2, 4), (64, 2)), 1024),
    ],
    "logical_divide": [
        (((4, 2, 3), (2, 1, 8)), (4, 2)),
        (((128, 64), (1, 128)), (32, 1)),
        (((8, 8), (8, 1)), ((2, 2), (1, 8))),
        ((((4, 4), 16), ((1, 16), 4)), (8, 2)),
    ],
    "zipped_divide": [
        (((4, 2, 3), (2, 1, 8)), (4, 2)),
        (((128, 64), (1, 128)), (32, 1)),
        (((8, 8), (8, 1)), ((2, 2), (1, 8))),
        ((((4, 4), 16), ((1, 16), 4)), (8, 2)),
    ],
    "logical_product": [
        (((2, 2), (4, 1)), (6, 1)),
        (((4, 8), (1, 4)), ((2, 2), (1, 2))),
        (((32,), (1,)), (4, 1)),
        (((8, 4), (4, 1)), ((4, 4), (4, 1))),
    ],
    "blocked_product": [
        (((2, 2), (1, 2)), ((2, 3), (1, 2))),
        (((4, 8), (1, 4)), ((2, 2), (1, 2))),
        (((8, 4), (4, 1)), ((4, 4), (4, 1))),
        (((16, 8), (1, 16)), ((2, 4), (1, 2))),
    ],
    "right_inverse": [
        (((4, 2), (2, 1)),),
        (((8, 4), (4, 1)),),
        ((((2, 4), 8), ((8, 1), 32)),),
        (((16, 16), (16, 1)),),
    ],
}



def _adapters():
    libs: dict[str, tuple[Callable, dict[str, Callable]]] = {}
    libs["cutepy"] = (
        lambda s, d: cp.Layout(s, d),
        {name: getattr(cp, name) for name in CASES},
    )
    try:
        import tensor_layouts as tl

        libs["tensor-layouts"] = (
            lambda s, d: tl.Layout(s, d),
            {**{name: getattr(tl, name) for name in CASES if name != "composition"},
             "composition": tl.compose},
        )
    except ImportError:
        print("tensor-layouts not installed: skipped")
    try:
        import pycute as pc

        libs["pycute"] = (
            lambda s, d: pc.Layout(s, d),
            {name: getattr(pc, name) for name in CASES if hasattr(pc, name)},
        )
    except ImportError:
        print("pycute not installed (pip install --no-deps nvidia-cutlass): skipped")
    return libs


def _build(make, args: tuple) -> tuple:
    out = []
    for a in args:
        if isinstance(a, tuple):
            out.append(make(*a))
        else:
            out.append(a)
    return tuple(out)


def median_call_time(fn: Callable, inputs: list[tuple], min_time: float) -> float:
    """Median over repeats of the mean time per call across all inputs, in seconds."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            for args in inputs:
                fn(*args)
        dt = time.perf_counter() - t0
        if dt > min_time / 5:
            break
        n *= 2
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            for args in inputs:
                fn(*args)
        samples.append((time.perf_counter() - t0) / (n * len(inputs)))
    return statistics.median(samples)


def bench_ops(min_time: float) -> list[float]:
    libs = _adapters()
    names = list(libs)
    print(f"\n{'operation':<16}" + "".join(f"{n:>16}" for n in names) + "".join(
        f"{'x ' + n:>18}" for n in names[1:]))
    ratios_vs_pycute = []
    for op in CASES:
        row: list[float | None] = []
        for lib in names:
            make, fns = libs[lib]
            if op == "Layout":  # construction from plain tuples, validation included
                row.append(median_call_time(make, CASES[op], min_time))
                continue
            if op not in fns:
                row.append(None)  # the library has no such operation
                continue
            inputs = [_build(make, args) for args in CASES[op]]
            row.append(median_call_time(fns[op], inputs, min_time))
        ours = row[0]
        ratios = [None if r is None else r / ours for r in row[1:]]
        if "pycute" in names and row[names.index("pycute")] is not None:
            ratios_vs_pycute.append(row[names.index("pycute")] / ours)
        print(f"{op:<16}" + "".join(
            f"{'n/a':>16}" if t is None else f"{t * 1e6:>13.2f} us" for t in row) + "".join(
            f"{'n/a':>18}" if r is None else f"{r:>17.2f}x" for r in ratios))
    if ratios_vs_pycute:
        print(f"\nmedian speed-up over pycute: {statistics.median(ratios_vs_pycute):.2f}x")
    return ratios_vs_pycute


def bench_offsets() -> None:
    n = 1 << 24
    L = cp.Layout(((4, 64), (8, 128, 64)), ((1, 4096), (256, 2, 262144)))
    assert L.size() == n
    L.offsets()
    t_ours = min(_timed(L.offsets) for _ in range(5))

    def numpy_write():
        out = np.empty(n, dtype=np.int64)
        out[:] = 7
        return out

    t_np = min(_timed(numpy_write) for _ in range(5))
    t_arange = min(_timed(lambda: np.arange(n, dtype=np.int64)) for _ in range(5))
    print(f"\nwhole-domain offsets of {L} ({n} elements):")
    print(f"  cutepy offsets()        {t_ours * 1e3:8.1f} ms  ({t_ours / n * 1e9:.2f} ns/element)")
    print(f"  numpy fill of 2^24 int64 {t_np * 1e3:7.1f} ms   ratio {t_ours / t_np:.2f}x")
    print(f"  numpy arange 2^24 int64  {t_arange * 1e3:7.1f} ms   ratio {t_ours / t_arange:.2f}x")


def _timed(fn: Callable) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_import() -> None:
    code = "import time; t=time.perf_counter(); import cutepy; print(time.perf_counter()-t)"
    times = []
    for _ in range(5):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(r.stdout))
    print(f"\nimport cutepy: {statistics.median(times) * 1e3:.1f} ms (median of 5 fresh processes)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="shorter timing runs")
    args = ap.parse_args()
    bench_ops(0.05 if args.quick else 0.3)
    bench_offsets()
    bench_import()


if __name__ == "__main__":
    main()
