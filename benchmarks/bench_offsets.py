"""Whole-domain ``offsets()`` against numpy filling the same int64 array (issue 12).

Run:  python benchmarks/bench_offsets.py [--sizes 24 26] [--repeat 7]

For each size 2^k and each kind of layout (contiguous, strided, nested, swizzled, and a
few awkward shapes), prints the best-of-``repeat`` time of ``cutepy.core.evaluate.offsets``
and of the numpy baseline ``np.empty(size, int64); a.fill(1)`` (a fresh array each time, so
both pay the same page faults; the two are timed alternately), and their ratio.
The goal is every ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from cutepy.algebra.composed import ComposedLayout
from cutepy.core.evaluate import offsets
from cutepy.core.layout import Layout
from cutepy.core.swizzle import Swizzle


def _best_pair(f: Callable[[], object], g: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best-of-``repeat`` times of ``f`` and ``g``, run alternately (a busy machine slows both)."""
    bf = bg = float("inf")
    for _ in range(repeat):
        for fn, which in ((f, 0), (g, 1)):
            t0 = time.perf_counter()
            r = fn()
            t = time.perf_counter() - t0
            del r
            if which == 0:
                bf = min(bf, t)
            else:
                bg = min(bg, t)
    return bf, bg


def _fill(n: int) -> np.ndarray:
    a = np.empty(n, dtype=np.int64)
    a.fill(1)
    return a


def cases(k: int) -> dict[str, object]:
    n = 1 << k
    h = 1 << (k // 2)
    return {
        "contiguous": Layout(n),
        "strided (n):(3)": Layout(n, 3),
        "row-major (h,n/h)": Layout((h, n // h), (n // h, 1)),
        "nested ((2,4),(8,n/64)):..": Layout(
            ((2, 4), (8, n // 64)), ((1, 2 * (n // 64)), (8 * (n // 64) * 2, 2))
        ),
        "small first mode (2,n/2):(n/2,1)": Layout((2, n // 2), (n // 2, 1)),
        "many modes (2,...,2)": Layout((2,) * k, tuple(1 << (k - 1 - i) for i in range(k))),
        "odd sizes (3,5,7,n/128)": Layout((3, 5, 7, n // 128), (1, 3, 15, 105)),
        "swizzled Sw<3,4,3> o (h,n/h)": ComposedLayout(Swizzle(3, 4, 3), 0, Layout((h, n // h), (n // h, 1))),
        "swizzled Sw<3,4,3> o n": ComposedLayout(Swizzle(3, 4, 3), 0, Layout(n)),
        # strides that are no multiple of the swizzle's period: the slow path, one pass per op
        "swizzled, irregular (7,n/8):(n/8+3,1)": ComposedLayout(
            Swizzle(3, 4, 3), 0, Layout((7, n // 8), (n // 8 + 3, 1))
        ),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[24, 26])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    if args.repeat < 1 or not all(7 <= k <= 28 for k in args.sizes):
        ap.error("--repeat must be positive and each of --sizes in 7..28 (2^28 is cutepy's default "
                 "element limit; the cases need 2^7)")
    worst = 0.0
    for k in args.sizes:
        n = 1 << k
        print(f"\n2^{k} elements (numpy: np.empty + fill, timed alternately with each case)")
        for name, L in cases(k).items():
            size = L.size()
            ours = lambda L=L, n=n: offsets(L, max_elements=n)  # noqa: E731
            t, t_np = _best_pair(ours, lambda size=size: _fill(size), args.repeat)
            ratio = t / t_np
            worst = max(worst, ratio)
            print(f"  {name:36s} {t * 1e3:8.1f} ms  fill {t_np * 1e3:7.1f} ms  {ratio:5.2f}x")
    print(f"\nworst ratio {worst:.2f}x (goal <= 1.5x)")


if __name__ == "__main__":
    main()
