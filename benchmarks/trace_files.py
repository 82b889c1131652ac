"""How many of cutepy's files one operation walks through (issue 30's trace targets).

Run:  PYTHONPATH=$PWD python benchmarks/trace_files.py [--calls]

Traces, with :func:`sys.setprofile`, every Python call made inside ``cutepy/`` by

- a swizzled ``logical_divide``: ``logical_divide(Sw<3,3,3> o (64,64):(64,1), (8,8))``;
- ``ThrCopy.partition_S`` of a swizzled smem tensor: an SM80 cp.async TiledCopy (128-bit
  ``SM80_CP_ASYNC_CACHEALWAYS``, 16-bit elements, threads ``(16,8):(8,1)``, values ``(1,8)``),
  thread 0 (a run-time index, as a kernel's ``threadIdx.x``), over ``Sw<3,3,3> o (64,64):(64,1)``
  in shared memory.

The arguments are built before tracing; each operation is traced on its first call in the
process and again on a second, equal call (the per-process memo tables filled). For each it
prints the calls, the files visited, and per file how many times the walk entered it from
another file (``--calls``: which functions, called from where). Nothing is timed.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from collections.abc import Callable
from typing import Any

import cutepy as cp
from cutepy.kernels.pointer import smem_ptr
from cutepy.kernels.tensor import make_tensor

ROOT = os.path.dirname(cp.__file__) + os.sep


def _rel(path: str) -> str | None:
    return path[len(ROOT):] if path.startswith(ROOT) else None


def trace(fn: Callable[[], Any]) -> tuple[int, collections.Counter, collections.Counter]:
    """(calls inside cutepy, entries per file, calls per (file:function <- caller))."""
    entries: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event != "call":
            return
        here = _rel(frame.f_code.co_filename)
        if here is None:
            return
        count += 1
        back = frame.f_back
        there = _rel(back.f_code.co_filename) if back is not None else None
        if there != here:
            entries[here] += 1
        caller = f"{there}:{back.f_code.co_name}" if there else "the caller"
        calls[(f"{here}:{frame.f_code.co_name}", caller)] += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count, entries, calls


def swizzled_divide() -> Callable[[], Any]:
    A = cp.composition(cp.Swizzle(3, 3, 3), cp.Layout((64, 64), (64, 1)))
    B = cp.Layout((8, 8))
    return lambda: cp.logical_divide(A, B)


def swizzled_partition_S() -> Callable[[], Any]:
    tc = cp.make_tiled_copy(cp.copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16),
                            cp.Layout((16, 8), (8, 1)), cp.Layout((1, 8)))
    smem = make_tensor(smem_ptr("half_t"), cp.composition(cp.Swizzle(3, 3, 3), cp.Layout((64, 64), (64, 1))))
    thr = tc.get_slice(0)
    return lambda: thr.partition_S(smem)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", action="store_true", help="list the functions called, with their callers")
    args = ap.parse_args()
    for name, make in (("logical_divide (swizzled)", swizzled_divide),
                       ("ThrCopy.partition_S (swizzled smem)", swizzled_partition_S)):
        for when in ("first call", "second call"):
            n, entries, calls = trace(make())
            print(f"{name}, {when}: {n} calls in {len(entries)} files")
            for f, k in sorted(entries.items(), key=lambda x: (-x[1], x[0])):
                print(f"  {k:5d}  {f}")
            if args.calls and when == "first call":
                for (callee, caller), k in sorted(calls.items()):
                    print(f"      {k:4d}  {callee}  <-  {caller}")


if __name__ == "__main__":
    main()
