"""Design sweeps (issue 31): SM80/SM90 GEMM mainloop designs built and checked, per second.

Run:  python benchmarks/bench_designs.py [--count N] [--jobs J] [--seed S] [--cold N]
      [--repeat R]

A design is one point of a sweep: an MMA atom, a warp (or warpgroup) layout, a CTA tile
``(bM, bN, bK)``, a shared-memory layout with a swizzle, a cp.async copy atom and a number of
stages. Checking it means what a kernel engineer's sweep does for every point:

1. build the TiledMMA, the gmem->smem TiledCopy (cp.async), the smem->register TiledCopy
   (ldmatrix, SM80) and the staged smem layout ``tile_to_shape(Sw o atom, (bM, bK, stages))``;
2. ``check_cover`` of every TiledMMA and TiledCopy (each element held by the right threads);
3. the A-side partitions of the smem tensor for **every thread**: the TiledMMA's
   ``partition_A``, the cp.async copy's ``partition_D`` and (SM80) the ldmatrix copy's
   ``partition_S`` (:func:`cutepy.kernels.tiled.partition_all`: all threads at once, each
   equal to ``get_slice(t).partition_X``, run-time thread index as in a kernel);
4. the bank wavefronts of the cp.async stores and (SM80) the ldmatrix loads on one stage
   (``cutepy.banks.analyze_copy``): a design passes when both are conflict-free.

The sweep is the seeded list :func:`designs` (the first ``--count`` points of a shuffled
product); a point that does not fit (a tile the atoms do not divide) is refused by cutepy
with a ``CutepyError`` and counted as rejected: refusing is checking too.

What a sweep makes once and reuses: each distinct part (TiledMMA, TiledCopy, smem layout), and,
kept on the TiledMMA / TiledCopy values (cutepy.kernels.memo, bounded), each partition, cover
check and bank report; designs that share them find them made. The table says so: the "warm"
rows are the sweep as it runs (each thing made once, by the first design that needs it), the
"cold" row builds every part anew for each design (nothing reused: the cost of one design
alone), and the hit counts say how much the warm sweep reused.

Several processes: ``--jobs J`` checks the same list with ``J`` worker processes, which take
whole groups of designs sharing a swizzled smem tile (:func:`tile_groups`, costliest first)
one at a time as they finish the last. The recipe for a sweep of one's own is the same few
lines (``check_share`` is a top-level function of picklable arguments, so a process pool can
run it; :func:`shares` deals the groups ahead of time instead)::

    from concurrent.futures import ProcessPoolExecutor
    groups = tile_groups(points)
    with ProcessPoolExecutor(max_workers=J) as pool:
        done = pool.map(check_share, [[points[i] for i in g] for g in groups], [False] * len(groups))
        # each: (results, CPU seconds, hit counts)

The table gives designs per second on one core (goal >= 5000) and the speed-up with 2
processes (goal >= 1.8x on 2 cores), from the wall time and from the CPU time of the busiest
process (on a machine whose cores other work keeps busy, the second shows what idle cores
would give). Each warm sweep runs ``--repeat`` times, the fastest reported; every process,
the parent and each worker, first checks one design per architecture and drops what it built
(:func:`warm_up`), so no timed run pays the once-per-process costs another run would not.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import multiprocessing
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

import cutepy
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
from cutepy.kernels.tiled import partition_all
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


def designs(count: int, seed: int = 31) -> list[Design]:
    """``count`` distinct points of the SM80 and SM90 sweep (13,608 in all), a seeded sample
    listed in the sweep's nested-loop order: the A side (atom, warps, bM, bK, swizzle, stages)
    outside, bN and the copy width inside, as one writes the loops."""
    pts = []
    for arch, atoms, warps in (("SM80", SM80_MMA, SM80_WARPS), ("SM90", SM90_MMA, SM90_WARPS)):
        loops = (atoms, warps, (64, 128, 256), (32, 64), (1, 2, 3), (2, 3, 4, 5), (64, 128, 256),
                 (32, 64, 128))
        for a, w, m, k, b, st, n, c in itertools.product(*loops):
            pts.append(Design(arch, a, w, (m, n, k), b, c, st))
    keep = set(random.Random(seed).sample(range(len(pts)), min(count, len(pts))))
    return [p for i, p in enumerate(pts) if i in keep]


@functools.cache
def _mma(d_arch: str, name: str, warps: tuple[int, int, int]) -> Any:
    if d_arch == "SM80":
        wm, wn, _ = warps
        return make_tiled_mma(mma_atom(name), warps, (16 * wm, 16 * wn, 16))
    return make_tiled_mma(mma_atom(name), warps)


@functools.cache
def _smem(d_arch: str, swizzle_bits: int, bM: int, bK: int, stages: int) -> tuple[Any, Any, Any]:
    """The staged smem tensor, the tensor the cp.async copy writes (SM90: its position-independent
    form, ``Sw o 0 o L``) and one stage as the banks see it (position-independent)."""
    return _make_smem(d_arch, swizzle_bits, bM, bK, stages, _stage)


def _make_smem(d_arch: str, swizzle_bits: int, bM: int, bK: int, stages: int, stage_of: Any) -> tuple:
    atom, stage = stage_of(d_arch, swizzle_bits, bM, bK)
    if d_arch == "SM80":
        sA = make_tensor(smem_ptr("half_t", 0), tile_to_shape(atom, (bM, bK, stages)))
        return sA, sA, stage
    sA = make_tensor(smem_ptr("half_t", 0x400), tile_to_shape(atom, (bM, bK, stages)))
    return sA, as_position_independent_swizzle_tensor(sA), stage


@functools.cache
def _stage(d_arch: str, swizzle_bits: int, bM: int, bK: int) -> tuple[Any, Any]:
    """The swizzled smem atom and one (bM, bK) stage of it as the banks see it."""
    if d_arch == "SM80":
        atom = composition(Swizzle(swizzle_bits, 3, 3), Layout((8, bK), (bK, 1)))
        return atom, tile_to_shape(atom, (bM, bK))
    atom = gmma_smem_layout("K", 16 << swizzle_bits, "half_t")
    return atom, as_position_independent_swizzle_layout(tile_to_shape(atom, (bM, bK)))


@functools.cache
def _g2s(copy_bits: int, threads: int, bK: int) -> Any:
    """cp.async of ``copy_bits`` per thread, K-major threads over a (bM, bK) tile."""
    vec = copy_bits // 16  # half-precision elements per access
    per_row = bK // vec
    atom = copy_atom(f"SM80_CP_ASYNC_CACHEALWAYS<uint{copy_bits}_t>", 16)
    return make_tiled_copy(atom, Layout((threads // per_row, per_row), (per_row, 1)), Layout((1, vec)))


@functools.cache
def _s2r(mma: Any) -> Any:
    """The ldmatrix copy of A; equal TiledCopys (the MMA atoms that differ only in their value
    types give one) are one object, so their partitions and bank reports are made once."""
    return _one(_make_s2r(mma))


def _make_s2r(mma: Any) -> Any:
    return make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", 16), mma)


@functools.cache
def _one(x: Any) -> Any:
    """The first value of the sweep equal to ``x``."""
    return x


def _fresh(fn: Any) -> Any:
    """The builder that makes its part anew each time (nothing kept between designs)."""
    if fn is _s2r:
        return _make_s2r
    if fn is _smem:
        return lambda *args: _make_smem(*args, _stage.__wrapped__)
    return fn.__wrapped__


#: the builders a sweep uses: each distinct part built once (``--fresh``: every design builds all)
BUILDERS = {"mma": _mma, "smem": _smem, "g2s": _g2s, "s2r": _s2r, "same s2r": _one, "stage": _stage}


def check_design(d: Design, fresh: bool = False, seen: dict | None = None) -> Checked:
    """Build and check one design (see the module's docstring); ``fresh`` builds every part
    anew instead of taking the sweep's already built TiledMMA, TiledCopys and smem layouts.
    ``seen`` (a dict of counters and keys) counts what this process had made already: the
    partitions and bank reports a design finds kept on its TiledMMA or TiledCopy."""
    mma_of, smem_of, g2s_of, s2r_of, _, _ = (_fresh(f) if fresh else f for f in BUILDERS.values())
    try:
        bM, bN, bK = d.tile
        mma = mma_of(d.arch, d.mma, d.warps)
        sA, sA_copy, stage = smem_of(d.arch, d.swizzle_bits, bM, bK, d.stages)
        s2r = s2r_of(mma) if d.arch == "SM80" else None
        threads = mma.size
        g2s = g2s_of(d.copy_bits, threads, bK)
        tiled = [mma, g2s] + ([s2r] if s2r is not None else [])
        covered = all(check_cover(x).ok for x in tiled)
        parts = [(mma, "A", sA), (g2s, "D", sA_copy)] + ([(s2r, "S", sA)] if s2r is not None else [])
        for tc, which, tensor in parts:  # every thread's partition (partition_all[t] is get_slice(t)'s)
            _count(seen, "partitions", (id(tc), which, id(tensor.layout)))
            if len(partition_all(tc, which, tensor)) != tc.size:
                raise AssertionError(f"{d}: partition_{which} is not every thread's")
        _count(seen, "bank reports", (id(g2s), "dst", id(stage)))
        store = analyze_copy(g2s, dst=stage)
        if s2r is not None:
            _count(seen, "bank reports", (id(s2r), "src", id(stage)))
        load = analyze_copy(s2r, src=stage) if s2r is not None else store
        clean = store.wavefronts == store.ideal and load.wavefronts == load.ideal
        return Checked(covered and clean, covered, store.wavefronts, load.wavefronts, "")
    except CutepyError as e:
        return Checked(False, False, 0, 0, str(e).split("\n")[0][:80])


def _count(seen: dict | None, what: str, key: Any) -> None:
    """Count a request for ``what`` in ``seen``: a hit when ``key`` was asked for before (keys
    are the identities of the sweep's built parts, each built once and kept while it runs)."""
    if seen is None:
        return
    keys = seen.setdefault(what + " keys", set())
    k = (what, "hit" if key in keys else "miss")
    seen[k] = seen.get(k, 0) + 1
    keys.add(key)


def check_share(points: list[Design], fresh: bool) -> tuple[list[Checked], float, dict]:
    """Check a share of the sweep in this process: the results, the CPU seconds it took, and the
    hit counts of what the sweep keeps (built parts, partitions, bank reports)."""
    seen: dict = {}
    c0 = time.process_time()
    out = [check_design(d, fresh, None if fresh else seen) for d in points]
    cpu = time.process_time() - c0
    counts = {k: v for k, v in seen.items() if type(k) is tuple}
    for name, fn in BUILDERS.items():
        info = fn.cache_info()
        counts[f"built {name}", "hit"], counts[f"built {name}", "miss"] = info.hits, info.misses
    return out, cpu, counts


def run(points: list[Design], jobs: int, fresh: bool) -> tuple[float, float, list[Checked], dict, float]:
    """Check every point with ``jobs`` processes (1: in this process): the wall seconds, the CPU
    seconds of the busiest process (what the wall time would be on idle cores), the results,
    the hit counts summed over the processes, and the seconds it took to start the worker
    processes (spawned, each importing cutepy and running :func:`warm_up`, as this process did
    before it was timed; not in the wall seconds). The workers take the sweep's smem-tile groups
    (:func:`tile_groups`, costliest first) one at a time as they finish the last, each with
    its own built parts; one process takes the same groups in the same order."""
    for c in BUILDERS.values():
        c.cache_clear()
    groups = tile_groups(points)
    if jobs == 1:  # the groups one after the other: the order the workers take, so the speed-up
        # compares one process with several on the same work (the group order alone is ~4% faster
        # than the sweep's nested-loop order: what one smem tile keeps is used while it is kept)
        order = [i for g in groups for i in g]
        t0 = time.perf_counter()
        res, cpu, counts = check_share([points[i] for i in order], fresh)
        wall = time.perf_counter() - t0
        out: list = [None] * len(points)
        for i, r in zip(order, res):
            out[i] = r
        return wall, cpu, out, counts, 0.0
    # fresh worker processes (spawned, not forked: nothing made in this process goes with them)
    ts = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                             initializer=warm_up, initargs=(warm_up_designs(points),)) as pool:
        pids: set = set()
        while len(pids) < jobs:  # every worker started and ready
            pids |= set(pool.map(_ready, range(2 * jobs)))
        t0 = time.perf_counter()
        done = list(pool.map(_check_task, [[points[i] for i in g] for g in groups], [fresh] * len(groups)))
        wall = time.perf_counter() - t0
    out = [None] * len(points)
    counts = {}
    built: dict = {}  # a worker's builders count over all its tasks: the largest count is its own
    cpu: dict = {}
    for g, (pid, (res, c_s, c)) in zip(groups, done):
        for i, r in zip(g, res):
            out[i] = r
        for k, v in c.items():
            if k[0].startswith("built"):
                built[pid, k] = max(built.get((pid, k), 0), v)
            else:
                counts[k] = counts.get(k, 0) + v
        cpu[pid] = cpu.get(pid, 0.0) + c_s
    for (_, k), v in built.items():
        counts[k] = counts.get(k, 0) + v
    return wall, max(cpu.values()), out, counts, t0 - ts


def _check_task(points: list[Design], fresh: bool) -> tuple[int, tuple]:
    """:func:`check_share` in a worker, with the worker's process id."""
    return os.getpid(), check_share(points, fresh)


def _ready(_: int) -> int:
    """A worker started and warmed up (:func:`warm_up`, its pool's initializer): its process id."""
    time.sleep(0.05)  # let the other workers take the other calls
    return os.getpid()


def warm_up_designs(points: list[Design]) -> list[Design]:
    """The first design of each architecture: what :func:`warm_up` checks."""
    return list({d.arch: d for d in reversed(points)}.values())


def warm_up(sample: list[Design]) -> None:
    """What a process does once before any sweep is timed, the parent and every worker alike:
    numpy loaded, and ``sample`` checked with every part built anew and dropped, so that the
    first sweep pays no once-per-process costs (atom tables made on first use, numpy's first
    calls) that a second sweep in the same process would not (nothing of the sample's parts,
    partitions or bank reports is kept: the builders are cleared)."""
    import numpy  # noqa: F401

    check_share(sample, True)
    for c in BUILDERS.values():
        c.cache_clear()


def tile_groups(points: list[Design]) -> list[list[int]]:
    """The sweep's designs by swizzled smem tile (swizzle, bM, bK): every smem layout, partition
    and bank report is made from one tile, whichever MMA atom, warps, stages or copy width, so no
    two groups make the same. Both architectures go in one group: where bK is the width of the
    SM90 K-major GMMA atom of a swizzle, that atom is SM80's ``Sw<b,3,3> o (8,bK):(bK,1)``, so the
    two build equal smem layouts, and equal layouts find what is kept on them (partitions, fold
    tables) made. The costliest first (by what they make: :func:`_work`), sweep order kept in each."""
    groups: dict[tuple, list[int]] = {}
    for i, d in enumerate(points):
        groups.setdefault((d.swizzle_bits, d.tile[0], d.tile[2]), []).append(i)
    return sorted(groups.values(), key=lambda g: _work(points, g), reverse=True)


def shares(points: list[Design], jobs: int) -> list[list[int]]:
    """The sweep dealt to ``jobs`` workers ahead of time (a static split, for a pool that
    cannot hand out work as it goes): whole :func:`tile_groups`, costliest first, each to the
    least loaded worker; sweep order kept in each share."""
    parts: list[list[int]] = [[] for _ in range(jobs)]
    load = [0] * jobs
    for g in tile_groups(points):
        k = load.index(min(load))
        parts[k].extend(g)
        load[k] += _work(points, g)
    return [sorted(p) for p in parts]


def _work(points: list[Design], group: list[int]) -> int:
    """What checking ``group`` makes (its cost, roughly): the distinct partitions of its smem
    tensors (by TiledMMA shape, cp.async width and warps, ldmatrix copy) and its designs."""
    made = set()
    for i in group:
        d = points[i]
        made.add(("mma", d.mma if d.arch == "SM90" else "", d.warps, d.stages))
        made.add(("g2s", d.copy_bits, d.warps, d.stages))
        if d.arch == "SM80":
            made.add(("s2r", d.warps, d.stages))
    return 100 * len(made) + len(group)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000, help="designs in the sweep (default 10^4)")
    ap.add_argument("--jobs", type=int, default=2, help="processes for the scaling run (default 2)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--cold", type=int, default=200,
                    help="designs (the sweep's first) checked cold: every part built anew, nothing "
                         "kept from another design (default 200; 0: none)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each warm sweep, the fastest reported (default 3): one process "
                         "runs them one after another, the workers are spawned anew for each")
    args = ap.parse_args(argv)
    if args.repeat < 1 or args.jobs < 1 or args.count < 1 or args.cold < 0:
        ap.error("--count, --jobs and --repeat must be positive, --cold not negative")
    points = designs(args.count, args.seed)
    warm_up(warm_up_designs(points))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {_load()} at the start; "
          f"{len(points)} distinct designs ({sum(d.arch == 'SM80' for d in points)} SM80, "
          f"{sum(d.arch == 'SM90' for d in points)} SM90); cutepy's {cutepy.build_info()['core']} core")
    print(f"\nseconds: wall, the fastest of {args.repeat} runs of each warm sweep; cpu: CPU seconds of the "
          "busiest process (the wall time on idle cores);")
    print("designs/s and speed-up: from the wall time, and (in brackets) from the cpu time\n")
    print("| sweep | processes | designs | seconds | cpu | designs/s | speed-up | goal | met |")
    print("|---|---|---|---|---|---|---|---|---|")
    n = len(points)
    what = "warm: each part, partition, bank report made once"
    t1, c1, results, counts, _ = _fastest(points, 1, args.repeat)
    print(f"| {what} | 1 | {n} | {t1:.2f} | {c1:.2f} | {n / t1:.0f} ({n / c1:.0f}) | 1.00x | "
          f">= {GOAL_RATE:.0f}/s | {_met(n / t1, n / c1, GOAL_RATE)} |")
    if args.jobs > 1:
        tj, cj, resj, _, startup = _fastest(points, args.jobs, args.repeat)
        assert resj == results, "the worker processes found something else"
        print(f"| {what} | {args.jobs} | {n} | {tj:.2f} | {cj:.2f} | {n / tj:.0f} ({n / cj:.0f}) | "
              f"{t1 / tj:.2f}x ({c1 / cj:.2f}x) | >= {GOAL_SCALING}x on 2 cores | "
              f"{_met(t1 / tj, c1 / cj, GOAL_SCALING)} |")
        scaling_note = (f"\n{args.jobs} processes: {startup:.2f} s to start them (spawn, import cutepy, "
                        f"warm up) before the timed sweep; with it, {t1 / (tj + startup):.2f}x")
    if args.cold:
        sub = points[:args.cold]
        tc, cc, resc, _, _ = run(sub, 1, True)
        assert resc == results[:len(sub)], "building the parts anew found something else"
        print(f"| cold: every part built anew for each design | 1 | {len(sub)} | {tc:.2f} | {cc:.2f} | "
              f"{len(sub) / tc:.0f} ({len(sub) / cc:.0f}) | - | - | {1e3 * cc / len(sub):.1f} ms/design |")
    if args.jobs > 1:
        print(scaling_note)
    print(f"\nload average {_load()} at the end")
    print("\nwhat the warm sweep found made already (hits) and made (misses), one process:")
    for name in sorted({k[0] for k in counts}):
        hit, miss = counts.get((name, "hit"), 0), counts.get((name, "miss"), 0)
        print(f"  {name}: {hit} hits, {miss} made ({100 * hit / max(1, hit + miss):.1f}% hit)")
    ok = sum(r.ok for r in results)
    refused = sum(bool(r.reason) for r in results)
    print(f"\nchecked: {ok} pass (covered, conflict-free), {n - ok - refused} fail a check, "
          f"{refused} refused by cutepy")


def _fastest(points: list[Design], jobs: int, repeat: int) -> tuple:
    """:func:`run` (warm) ``repeat`` times: the run with the least wall time; every run must
    find the same results."""
    best = None
    for _ in range(repeat):
        r = run(points, jobs, False)
        if best is not None and r[2] != best[2]:
            raise AssertionError("two runs of one sweep found different results")
        if best is None or r[0] < best[0]:
            best = r
    return best


def _met(wall: float, cpu: float, goal: float) -> str:
    return "yes" if wall >= goal else "on cpu time" if cpu >= goal else "NO"


def _load() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
