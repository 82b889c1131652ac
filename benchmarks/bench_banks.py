"""Shared-memory banks: how long the exact model and the swizzle search take.

Run:  PYTHONPATH=. python benchmarks/bench_banks.py [--repeat N]   (or with cutepy installed)

1. ``find_swizzle`` on a 128x64 bf16 K-major tile (16 KiB) written by 16-byte cp.async
   (128 threads, (16,8) x (1,8)) and read by ldmatrix.x4 for an SM80 16x8x16 MMA tiled
   2x2 (the CUTLASS SM80 configuration); the TV layouts are the C++ prints of those
   TiledCopies (tests/banks/banks_copies.cpp). Answer: Sw<3,3,3>, no conflicts.
2. ``analyze_copy`` of the ldmatrix reads on the swizzled tile (every instruction in
   full detail) and ``analyze`` of one warp instruction.

Each line gives the median and the best of ``--repeat`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from types import SimpleNamespace

from cutepy.banks import analyze, analyze_copy, find_swizzle
from cutepy.core.layout import Layout
from cutepy.notation import parse


def copy(name: str, op: str, bits: str, tiler: tuple[int, int], tv: str) -> SimpleNamespace:
    """A TiledCopy by the contract of ``analyze_copy``; ``tv`` is its shared-memory side."""
    atom = SimpleNamespace(name=name, op=op, element_bits=16, layout_src_tv_bits=parse(bits),
                           layout_dst_tv_bits=parse(bits))
    return SimpleNamespace(copy_atom=atom, size=128, tiler_mn=tiler, layout_src_tv_tiled=parse(tv),
                           layout_dst_tv_tiled=parse(tv))


# C++ get_layoutD_TV() of the cp.async copy and get_layoutS_TV() of make_tiled_copy_A(LDSM_N)
CP_ASYNC = copy("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "cp.async", "(1,128):(0,1)", (16, 64),
                "((8,16),(8,1)):((128,1),(16,0))")
LDSM_X4 = copy("SM75_U32x4_LDSM_N", "ldmatrix", "(32,128):(128,1)", (32, 16),
               "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))")


def timed(fn, repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t) * 1e3)
    return statistics.median(runs), min(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be positive")
    smem = Layout((128, 64), (64, 1))
    accesses = [CP_ASYNC, LDSM_X4]
    result = find_swizzle(smem, accesses, 2)
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")
    print(result)
    assert result.found and str(result.swizzle) == "Sw<3,3,3>"
    med, best = timed(lambda: find_swizzle(smem, accesses, 2), args.repeat)
    print(f"find_swizzle 128x64 bf16 (cp.async 16 B + ldmatrix.x4): median {med:.0f} ms, best {best:.0f} ms, "
          f"{result.candidates} swizzles costed")
    med, best = timed(lambda: analyze_copy(LDSM_X4, result.layout), args.repeat)
    n = len(analyze_copy(LDSM_X4, result.layout).instructions)
    print(f"analyze_copy ldmatrix.x4 reads ({n} instructions): median {med:.1f} ms, best {best:.1f} ms")
    lanes = [16 * t for t in range(32)]
    med, best = timed(lambda: [analyze(lanes, "ld", bytes=16) for _ in range(100)], args.repeat)
    print(f"analyze one ld 16 B instruction: median {med * 10:.0f} us, best {best * 10:.0f} us")


if __name__ == "__main__":
    main()
