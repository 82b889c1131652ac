"""Design sweeps (issue 31): SM80/SM90 GEMM mainloop designs built and checked, per second.

Run:  PYTHONPATH=. python benchmarks/bench_designs.py [--count N] [--jobs J] [--seed S]

A design is one point of a sweep: an MMA atom, a warp (or warpgroup) layout, a CTA tile
``(bM, bN, bK)``, a shared-memory layout with a swizzle, a cp.async copy atom and a number of
stages. Checking it means what a kernel engineer's sweep does for every point:

1. build the TiledMMA, the gmem->smem TiledCopy (cp.async), the smem->register TiledCopy
   (ldmatrix, SM80) and the staged smem layout ``tile_to_shape(Sw o atom, (bM, bK, stages))``;
2. ``check_cover`` of every TiledMMA and TiledCopy (each element held by the right threads);
3. the A-side partitions of the smem tensor for **every thread**: the TiledMMA's
   ``partition_A``, the cp.async copy's ``partition_D`` and (SM80) the ldmatrix copy's
   ``partition_S``;
4. the bank wavefronts of the cp.async stores and (SM80) the ldmatrix loads on one stage
   (``cutepy.banks.analyze_copy``): a design passes when both are conflict-free.

The sweep is the seeded list :func:`designs` (the first ``--count`` points of a shuffled
product); a point that does not fit (a tile the atoms do not divide) is refused by cutepy
with a ``CutepyError`` and counted as rejected: refusing is checking too.

Several processes: ``--jobs J`` checks the same list with ``J`` worker processes. The recipe
for a sweep of one's own is the same few lines (``check_design`` is a top-level function of
picklable arguments, so a process pool can run it)::

    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=J) as pool:
        results = list(pool.map(check_design, points, chunksize=64))

The table gives designs per second on one core (goal >= 5000) and the speed-up with 2
processes (goal >= 1.8x on 2 cores).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from cutepy import (
    CutepyError,
    Layout,
    Swizzle,
    composition,
    copy_atom,
    make_tensor,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_mma,
    mma_atom,
    tile_to_shape,
)
from cutepy.banks import analyze_copy
from cutepy.kernels.atoms import gmma_smem_layout
from cutepy.kernels.pointer import as_position_independent_swizzle_layout, smem_ptr
from cutepy.kernels.tensor import as_position_independent_swizzle_tensor
from cutepy.kernels.tiled.checks import check_cover

GOAL_RATE, GOAL_SCALING = 5000.0, 1.8


class Design(NamedTuple):
    """One point of the sweep (plain values: it pickles to a worker process)."""

    arch: str  # "SM80" or "SM90"
    mma: str  # the MMA atom's C++ name
    warps: tuple[int, int, int]  # the atom layout (warps for SM80, warpgroups for SM90)
    tile: tuple[int, int, int]  # the CTA tile (bM, bN, bK)
    swizzle_bits: int  # B of Sw<B,3,3> (SM80) or log2(swizzle bytes / 16) (SM90)
    copy_bits: int  # the cp.async width: 32, 64 or 128 bits
    stages: int


class Checked(NamedTuple):
    """What checking a design found (``reason`` says why a design was refused)."""

    ok: bool  # built, covered, and conflict-free
    covered: bool
    store_wavefronts: int
    load_wavefronts: int
    reason: str


SM80_MMA = ["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x16_F32BF16BF16F32_TN"]
SM80_WARPS = [(2, 2, 1), (4, 1, 1), (1, 4, 1), (2, 4, 1), (4, 2, 1)]
SM90_MMA = [f"SM90_64x{n}x16_F32F16F16_SS<K,K>" for n in (64, 128, 256)]
SM90_WARPS = [(1, 1, 1), (2, 1, 1)]
TILES = [(m, n, k) for m in (64, 128, 256) for n in (64, 128, 256) for k in (32, 64)]


def designs(count: int, seed: int = 31) -> list[Design]:
    """The first ``count`` points of the shuffled SM80 and SM90 sweep (repeated if shorter)."""
    pts = [Design("SM80", a, w, t, b, c, s) for a, w, t, b, c, s in itertools.product(
        SM80_MMA, SM80_WARPS, TILES, (1, 2, 3), (64, 128), (2, 3, 4, 5))]
    pts += [Design("SM90", a, w, t, b, c, s) for a, w, t, b, c, s in itertools.product(
        SM90_MMA, SM90_WARPS, TILES, (1, 2, 3), (64, 128), (2, 3, 4, 5))]
    random.Random(seed).shuffle(pts)
    return (pts * (count // len(pts) + 1))[:count]


def _g2s_copy(d: Design, threads: int):
    """cp.async of ``copy_bits`` per thread, K-major threads over a (bM, bK) tile."""
    vec = d.copy_bits // 16  # half-precision elements per access
    per_row = d.tile[2] // vec
    atom = copy_atom(f"SM80_CP_ASYNC_CACHEALWAYS<uint{d.copy_bits}_t>", 16)
    return make_tiled_copy(atom, Layout((threads // per_row, per_row), (per_row, 1)), Layout((1, vec)))


def check_design(d: Design) -> Checked:
    """Build and check one design (see the module's docstring)."""
    try:
        bM, bN, bK = d.tile
        if d.arch == "SM80":
            wm, wn, _ = d.warps
            mma = make_tiled_mma(mma_atom(d.mma), d.warps, (16 * wm, 16 * wn, 16))
            atom = composition(Swizzle(d.swizzle_bits, 3, 3), Layout((8, bK), (bK, 1)))
            sA_layout = tile_to_shape(atom, (bM, bK, d.stages))
            stage = tile_to_shape(atom, (bM, bK))
            s2r = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)
            sA = make_tensor(smem_ptr("half_t", 0), sA_layout)
            sA_copy = sA
        else:
            mma = make_tiled_mma(mma_atom(d.mma), d.warps)
            atom = gmma_smem_layout("K", 16 << d.swizzle_bits, "half_t")
            sA_layout = tile_to_shape(atom, (bM, bK, d.stages))
            stage = as_position_independent_swizzle_layout(tile_to_shape(atom, (bM, bK)))
            s2r = None
            sA = make_tensor(smem_ptr("half_t", 0x400), sA_layout)
            sA_copy = as_position_independent_swizzle_tensor(sA)
        threads = mma.size
        g2s = _g2s_copy(d, threads)
        tiled = [mma, g2s] + ([s2r] if s2r is not None else [])
        covered = all(check_cover(x).ok for x in tiled)
        for t in range(threads):
            mma.get_slice(t).partition_A(sA)
            g2s.get_slice(t).partition_D(sA_copy)
            if s2r is not None:
                s2r.get_slice(t).partition_S(sA)
        store = analyze_copy(g2s, dst=stage)
        load = analyze_copy(s2r, src=stage) if s2r is not None else store
        clean = store.wavefronts == store.ideal and load.wavefronts == load.ideal
        return Checked(covered and clean, covered, store.wavefronts, load.wavefronts, "")
    except CutepyError as e:
        return Checked(False, False, 0, 0, str(e).split("\n")[0][:80])


def run(points: list[Design], jobs: int) -> tuple[float, list[Checked]]:
    """Seconds to check every point with ``jobs`` processes (1: in this process), and the results."""
    t0 = time.perf_counter()
    if jobs == 1:
        out = [check_design(d) for d in points]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            out = list(pool.map(check_design, points, chunksize=max(1, len(points) // (8 * jobs))))
    return time.perf_counter() - t0, out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000, help="designs in the sweep (default 10^4)")
    ap.add_argument("--jobs", type=int, default=2, help="processes for the scaling run (default 2)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--repeat", type=int, default=1, help="timed runs of each configuration (median)")
    args = ap.parse_args(argv)
    points = designs(args.count, args.seed)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; {len(points)} designs "
          f"({sum(d.arch == 'SM80' for d in points)} SM80, {sum(d.arch == 'SM90' for d in points)} SM90), "
          f"{len(set(points))} distinct")
    t1s, results = [], []
    for _ in range(args.repeat):
        t, results = run(points, 1)
        t1s.append(t)
    t1 = statistics.median(t1s)
    ok = sum(r.ok for r in results)
    refused = sum(bool(r.reason) for r in results)
    print(f"checked: {ok} pass (covered, conflict-free), {len(results) - ok - refused} fail a check, "
          f"{refused} refused by cutepy")
    rate1 = len(points) / t1
    print("\n| processes | seconds | designs/s | speed-up | goal | met |\n|---|---|---|---|---|---|")
    met = "yes" if rate1 >= GOAL_RATE else "NO"
    print(f"| 1 | {t1:.2f} | {rate1:.0f} | 1.00x | >= {GOAL_RATE:.0f}/s | {met} |")
    if args.jobs > 1:
        tjs, resj = [], []
        for _ in range(args.repeat):
            t, resj = run(points, args.jobs)
            tjs.append(t)
        tj = statistics.median(tjs)
        assert resj == results, "the worker processes found something else"
        sp = t1 / tj
        met = "yes" if sp >= GOAL_SCALING else "NO"
        print(f"| {args.jobs} | {tj:.2f} | {len(points) / tj:.0f} | {sp:.2f}x | "
              f">= {GOAL_SCALING}x on 2 cores | {met} |")


if __name__ == "__main__":
    main()
