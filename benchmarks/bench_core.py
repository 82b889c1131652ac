"""Core speed (issue 31): cutepy against pycute and tensor-layouts on the same random inputs.

Run:  PYTHONPATH=. python benchmarks/bench_core.py [--quick] [--seed N] [--count N]
      [--pycute DIR]      (DIR holds NVIDIA's ``pycute`` package, e.g. cutlass/python)

The peers come with the ``bench`` extra (``pip install -e .[bench]``): tensor-layouts 0.3.2 and
NVIDIA's pycute, which ships in the ``nvidia-cutlass`` wheel (pure Python:
``pip install --no-deps nvidia-cutlass`` is enough). PyPI's ``pycute`` is an unrelated
package (causal inference on event sequences), so it is not used; ``--pycute DIR`` (or the
``CUTEPY_PYCUTE`` environment variable) puts another copy first, e.g. CUTLASS 4.7's
``python/`` folder. A peer that is missing is reported and its columns read ``-``.

1. **Algebra.** For each operation, ``--count`` seeded random inputs that every library
   accepts (layouts of ranks 1-6 and depths 1-3; cutepy judges admissibility, an input a peer
   refuses is drawn again). Each round times every library over all inputs, one library after
   the other (interleaved, so a busy machine slows all alike); the table shows the median over
   rounds of the mean time per call, the ratios (peer time / cutepy time: above 1 means cutepy
   is faster) and the issue's goal: >= 3x pycute, >= 8x tensor-layouts, construction <= 0.5 us.
   Results are compared as functions on the domain (``agree``: of the inputs whose result has
   at most 4096 elements, those where every peer's result maps every index to cutepy's
   offset; informational: a left inverse is not unique off the image, and cutepy's answers
   are C++'s, pinned by its differential suites, where a peer's differ).
2. **Evaluation.** ``L(i)`` for one index (rank <= 4; goal <= 0.2 us) and whole-domain
   ``offsets()`` at 2^20 and 2^24 elements against a numpy fill of as many int64 values (goal
   <= 1.2x), swizzled ones against a hand-written numpy expression and XOR (goal <= 1.1x).
3. **Import** of cutepy in a fresh process, its bytecode cached as after an install (goal <= 25 ms;
   numpy and sympy must not load).
4. **Memory**: bytes per layout (``tracemalloc``, 10^4 distinct layouts kept alive).
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import cutepy as cp

OPS = ["coalesce", "composition", "complement", "logical_divide", "zipped_divide",
       "logical_product", "blocked_product", "raked_product", "right_inverse", "left_inverse"]
GOAL_PYCUTE, GOAL_TL, GOAL_CONSTRUCT, GOAL_CALL = 3.0, 8.0, 0.5e-6, 0.2e-6
GOAL_FILL, GOAL_XOR, GOAL_IMPORT = 1.2, 1.1, 25e-3


# -- random admissible inputs --------------------------------------------------------------


class Pair(NamedTuple):
    """A layout's shape and stride as plain tuples, before any library sees them."""

    shape: Any
    stride: Any


def _nest(rng: random.Random, leaves: list, rank: int, depth: int) -> Any:
    """``leaves`` grouped into ``rank`` top-level modes nesting at most ``depth`` deep."""
    if depth <= 1 or len(leaves) <= rank:
        return tuple(leaves[:rank]) if rank <= len(leaves) else tuple(leaves)
    cuts = sorted(rng.sample(range(1, len(leaves)), rank - 1))
    parts = [leaves[a:b] for a, b in zip([0, *cuts], [*cuts, len(leaves)])]
    out = []
    for p in parts:
        if len(p) == 1:
            out.append(p[0])
        else:
            out.append(_nest(rng, p, rng.randint(1, len(p)), depth - 1))
    return tuple(out)


def _profile(rng: random.Random, rank: int, depth: int, leaves: list) -> tuple[Any, list]:
    """A nested tuple of rank ``rank`` and depth ``depth`` (``len(leaves) >= rank``)."""
    if depth == 1:
        return tuple(leaves[:rank]), leaves[:rank]
    t = _nest(rng, leaves, rank, depth)
    return t, list(cp.core.inttuple.flatten_tuple(t))


def _unflatten(flat: list, like: Any) -> Any:
    it = iter(flat)

    def go(t: Any) -> Any:
        return tuple(go(x) for x in t) if isinstance(t, tuple) else next(it)

    return go(like)


def random_layout(rng: random.Random, kind: str, max_rank: int = 6, max_depth: int = 3,
                  max_leaves: int = 8) -> Pair:
    """(shape, stride) of a random layout: ``kind`` is ``any`` (strides 0..), ``bijective``
    (a permutation of compact strides) or ``injective`` (bijective with a gap)."""
    rank = rng.randint(1, max_rank)
    depth = rng.randint(1, max_depth)
    n = rng.randint(rank, max(rank, min(max_leaves, rank + 2 * (depth - 1) + 1)))
    leaves = [rng.choice((2, 2, 2, 4, 4, 3, 8, 1)) for _ in range(n)]
    shape, flat = _profile(rng, rank, depth, leaves)
    if kind == "any":
        strides = [rng.choice((0, 1, 1, 2, 4, 8, 16, 32, 3, 64)) for _ in flat]
    else:
        order = list(range(len(flat)))
        rng.shuffle(order)
        strides, acc = [0] * len(flat), 1
        gap = kind == "injective" and len(flat) > 1
        for j, k in enumerate(order):
            strides[k] = acc
            acc *= flat[k]
            if gap and j == len(order) // 2:
                acc *= rng.choice((2, 3))
    return Pair(shape, _unflatten(strides, shape))


def _divisor_layout(rng: random.Random, size: int) -> Pair:
    """A small bijective layout whose size divides ``size``."""
    fac, m = [], size
    for p in (2, 3):
        while m % p == 0:
            fac.append(p)
            m //= p
    rng.shuffle(fac)
    take = fac[: rng.randint(1, max(1, min(len(fac), 5)))] or [1]
    leaves, cur = [], 1
    for f in take:  # merge some factors into bigger leaves
        if leaves and rng.random() < 0.5:
            leaves[-1] *= f
        else:
            leaves.append(f)
        cur *= f
    rank = rng.randint(1, len(leaves))
    shape, flat = _profile(rng, rank, rng.randint(1, 2), leaves)
    order = list(range(len(flat)))
    rng.shuffle(order)
    strides, acc = [0] * len(flat), 1
    for k in order:
        strides[k] = acc
        acc *= flat[k]
    return Pair(shape, _unflatten(strides, shape))


def random_args(rng: random.Random, op: str) -> tuple:
    """Arguments of ``op``: layouts as (shape, stride) pairs, tilers as pairs or tuples of them."""
    if op == "coalesce":
        return (random_layout(rng, "any"),)
    if op in ("right_inverse",):
        return (random_layout(rng, rng.choice(("bijective", "any"))),)
    if op == "left_inverse":
        return (random_layout(rng, "injective"),)
    if op == "complement":
        a = random_layout(rng, "injective")
        cos = cp.cosize(cp.Layout(*a))
        return (a, cos * rng.choice((1, 2, 4)))
    a = random_layout(rng, "bijective" if op != "composition" else rng.choice(("bijective", "injective")))
    size = cp.size(cp.Layout(*a))
    if op in ("logical_divide", "zipped_divide"):
        A = cp.Layout(*a)
        if A.rank() >= 2 and rng.random() < 0.5:  # a by-mode tiler
            k = rng.randint(1, A.rank())
            return (a, tuple(_divisor_layout(rng, cp.size(A[i])) for i in range(k)))
        return (a, _divisor_layout(rng, size))
    if op == "composition":
        return (a, _divisor_layout(rng, size))
    # products: a small second layout
    return (a, random_layout(rng, rng.choice(("bijective", "any")), max_rank=3, max_depth=2, max_leaves=4))


# -- the libraries ---------------------------------------------------------------------------


class Lib:
    def __init__(self, name: str, make: Callable, ops: dict[str, Callable], where: str):
        self.name, self.make, self.ops, self.where = name, make, ops, where

    def build(self, args: tuple) -> tuple:
        """The arguments in this library's types: a :class:`Pair` becomes a layout, a tuple of
        pairs a by-mode tiler (a tuple of layouts), an integer stays."""
        out: list = []
        for a in args:
            if type(a) is Pair:
                out.append(self.make(a.shape, a.stride))
            elif type(a) is tuple:
                out.append(tuple(self.make(p.shape, p.stride) for p in a))
            else:
                out.append(a)
        return tuple(out)


def load_pycute(path: str | None) -> Any:
    if path:
        sys.path.insert(0, path)
    try:
        import pycute
    except ImportError:
        return None
    if not hasattr(pycute, "composition"):  # PyPI's unrelated pycute
        return None
    return pycute


def libraries(pycute_path: str | None) -> list[Lib]:
    libs = [Lib("cutepy", cp.Layout, {op: getattr(cp, op) for op in OPS}, os.path.dirname(cp.__file__))]
    pc = load_pycute(pycute_path)
    if pc is None:
        print("pycute (NVIDIA's, from nvidia-cutlass or --pycute DIR) not found: its columns read -")
    else:
        libs.append(Lib("pycute", pc.Layout, {op: getattr(pc, op) for op in OPS if hasattr(pc, op)},
                        os.path.dirname(pc.__file__)))
    try:
        import tensor_layouts as tl
    except ImportError:
        print("tensor-layouts not installed: its columns read -")
    else:
        ops = {op: getattr(tl, op) for op in OPS if op != "composition"}
        ops["composition"] = tl.compose
        libs.append(Lib("tensor-layouts", tl.Layout, ops, os.path.dirname(tl.__file__)))
    return libs


def _offsets_of(lib: Lib, L: Any) -> list | None:
    """The result as a function on its domain (``None`` for a size that is too big to list)."""
    try:
        n = cp.size(L) if lib.name == "cutepy" else (L.size() if callable(getattr(L, "size", None)) else None)
        if n is None:
            import tensor_layouts as tl
            n = tl.size(L)
        if n > 4096:
            return None
        return [L(i) for i in range(n)]
    except Exception:
        return None


def draw_inputs(libs: list[Lib], op: str, count: int, seed: int) -> tuple[list[tuple], int, int]:
    """``count`` random inputs that cutepy and every peer offering ``op`` accept; how many of
    them could be compared as functions (results of at most 4096 elements) and how many of
    those every peer's result agrees with cutepy's on."""
    rng = random.Random(f"{seed}:{op}")
    kept, agree, compared, tries = [], 0, 0, 0
    while len(kept) < count:
        tries += 1
        if tries > 200 * count:
            raise RuntimeError(f"{op}: too few admissible inputs drawn")
        args = random_args(rng, op)
        try:
            ours = libs[0].ops[op](*libs[0].build(args))
        except cp.CutepyError:
            continue
        fine, same = True, True
        want = _offsets_of(libs[0], ours)
        for lib in libs[1:]:
            if op not in lib.ops:
                continue
            try:
                theirs = lib.ops[op](*lib.build(args))
            except Exception:
                fine = False
                break
            same = same and want is not None and _offsets_of(lib, theirs) == want
        if fine:
            kept.append(args)
            compared += want is not None
            agree += same
    return kept, agree, compared


# -- timing -----------------------------------------------------------------------------------


def _time_loop(fn: Callable, inputs: list[tuple]) -> float:
    t0 = time.perf_counter()
    for args in inputs:
        fn(*args)
    return time.perf_counter() - t0


def interleaved(fns: list[Callable | None], inputs: list[list[tuple]], rounds: int,
                min_time: float) -> list[float | None]:
    """Median over ``rounds`` of the mean time per call of each function (``None`` stays ``None``),
    the functions timed one after the other in every round; each timed loop repeats the inputs
    until it lasts ``min_time``."""
    reps = []
    for fn, inp in zip(fns, inputs):
        if fn is None:
            reps.append(0)
            continue
        k = 1
        while _time_loop(fn, inp * k) < min_time and k < 1 << 16:
            k *= 2
        reps.append(k)
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for j, (fn, inp) in enumerate(zip(fns, inputs)):
            if fn is not None:
                samples[j].append(_time_loop(fn, inp * reps[j]) / (len(inp) * reps[j]))
    return [statistics.median(s) if s else None for s in samples]


def _us(t: float | None) -> str:
    return "-" if t is None else f"{t * 1e6:.2f}"


def _x(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}"


def bench_algebra(libs: list[Lib], count: int, seed: int, rounds: int, min_time: float) -> list[tuple]:
    names = [lib.name for lib in libs]
    print(f"\n## Algebra: {count} seeded random inputs per operation (seed {seed}), "
          f"ranks 1-6, depths 1-3; median of {rounds} interleaved rounds")
    for lib in libs:
        print(f"- {lib.name}: {lib.where}")
    print()
    head = "| op | " + " | ".join(f"{n} us" for n in names) + " | " + " | ".join(
        f"x {n}" for n in names[1:]) + " | agree | goal | met |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    results = []
    # construction: Layout(shape, stride) from plain tuples (validation included)
    shapes = [random_layout(random.Random(f"{seed}:Layout:{i}"), rng_kind) for i, rng_kind in
              zip(range(count), ["any", "bijective"] * count)]
    times = interleaved([lib.make for lib in libs], [shapes] * len(libs), rounds, min_time)
    ratios = [None if t is None else t / times[0] for t in times[1:]]
    met = times[0] <= GOAL_CONSTRUCT
    print("| Layout(shape, stride) | " + " | ".join(_us(t) for t in times) + " | " + " | ".join(
        _x(r) for r in ratios) + f" | - | <= {GOAL_CONSTRUCT * 1e6:.1f} us | {'yes' if met else 'NO'} |")
    results.append(("Layout", times, met))
    for op in OPS:
        inputs, agree, compared = draw_inputs(libs, op, count, seed)
        built = [[lib.build(a) for a in inputs] if op in lib.ops else None for lib in libs]
        fns = [lib.ops.get(op) for lib in libs]
        times = interleaved(fns, [b or [] for b in built], rounds, min_time)
        ratios = [None if t is None else t / times[0] for t in times[1:]]
        goals, ok = [], True
        for lib, r in zip(libs[1:], ratios):
            want = GOAL_PYCUTE if lib.name == "pycute" else GOAL_TL
            goals.append(f">= {want:g}x {lib.name}")
            if r is not None:
                ok = ok and r >= want
        print(f"| {op} | " + " | ".join(_us(t) for t in times) + " | " + " | ".join(_x(r) for r in ratios)
              + f" | {agree}/{compared} | {', '.join(goals)} | {'yes' if ok else 'NO'} |")
        results.append((op, times, ok))
    for j, lib in enumerate(libs[1:], 1):
        rs = [r[1][j] / r[1][0] for r in results[1:] if r[1][j] is not None]
        if rs:
            print(f"\nmedian speed-up over {lib.name}: {statistics.median(rs):.2f}x "
                  f"(min {min(rs):.2f}x) over {len(rs)} operations")
    return results


# -- evaluation -------------------------------------------------------------------------------


def bench_call(libs: list[Lib], count: int, seed: int, rounds: int, min_time: float) -> bool:
    """``L(i)`` on random layouts of rank <= 4, one index each (a random one in the domain)."""
    rng = random.Random(f"{seed}:call")
    pairs = [random_layout(rng, "any", max_rank=4) for _ in range(count)]
    idx = [rng.randrange(cp.size(cp.Layout(*p))) for p in pairs]
    per_lib = [list(zip([lib.make(*p) for p in pairs], idx)) for lib in libs]

    def calls(pairs: list) -> None:  # L(i) as a user writes it, no wrapper around the call
        for L, i in pairs:
            L(i)

    # one "input" per library: the whole list, timed as one call, then divided by its length
    times = interleaved([calls] * len(libs), [[(p,)] for p in per_lib], rounds, min_time)
    times = [t / count for t in times]
    met = times[0] <= GOAL_CALL
    print("\n## Evaluation\n\n| case | " + " | ".join(lib.name for lib in libs) + " | goal | met |")
    print("|" + "---|" * (len(libs) + 3))
    print(f"| L(i), rank <= 4 ({count} layouts) | " + " | ".join(f"{_us(t)} us" for t in times)
          + f" | <= {GOAL_CALL * 1e6:.1f} us | {'yes' if met else 'NO'} |")
    return met


def _best_pair(f: Callable, g: Callable, repeat: int, block: int = 3) -> tuple[float, float]:
    """Best times of ``f`` and ``g`` over ``repeat`` rounds; each round runs ``block`` calls of
    one, then of the other (a busy machine slows both alike). Within a block the allocator
    reuses the memory of the call before, so neither pays the page faults of memory the other
    just returned to the system (a lone call of either is timed as it runs in a loop)."""
    bf = bg = math.inf
    for _ in range(repeat):
        for fn, first in ((f, True), (g, False)):
            for _ in range(block):
                t0 = time.perf_counter()
                r = fn()
                t = time.perf_counter() - t0
                del r
                if first:
                    bf = min(bf, t)
                else:
                    bg = min(bg, t)
    return bf, bg


def _numpy_fill(n: int) -> np.ndarray:
    a = np.empty(n, dtype=np.int64)
    a.fill(1)
    return a


def _xor_in_place(v: np.ndarray, b: int, m: int, s: int) -> np.ndarray:
    """The swizzle ``Sw<b,m,s>`` written by hand: ``v ^= (v & yyy) >> s`` through one temporary."""
    yyy = ((1 << b) - 1) << (m + s)
    t = np.bitwise_and(v, yyy)
    np.right_shift(t, s, out=t)
    np.bitwise_xor(v, t, out=v)
    return v


def offsets_cases(k: int) -> list[tuple[str, Any, Callable, str]]:
    """(name, layout, hand-written numpy baseline, goal kind) at 2^k elements."""
    n, h = 1 << k, 1 << (k // 2)
    w, q = n // h, n // 64
    sw = cp.Swizzle(3, 4, 3)

    def row_major() -> np.ndarray:  # (h, w):(w, 1), column-major index i = r + h * c
        out = np.empty((w, h), dtype=np.int64)
        np.add(np.arange(w, dtype=np.int64)[:, None], (np.arange(h, dtype=np.int64) * w)[None, :], out=out)
        return out.reshape(-1)

    return [
        ("contiguous n:1", cp.Layout(n), lambda: _numpy_fill(n), "fill"),
        ("row-major (h,w):(w,1)", cp.Layout((h, w), (w, 1)), lambda: _numpy_fill(n), "fill"),
        ("nested ((2,4),(8,n/64))", cp.Layout(((2, 4), (8, q)), ((1, 2 * q), (16 * q, 2))),
         lambda: _numpy_fill(n), "fill"),
        ("Sw<3,4,3> o n:1", cp.make_composed_layout(sw, 0, cp.Layout(n)),
         lambda: _xor_in_place(np.arange(n, dtype=np.int64), 3, 4, 3), "xor"),
        ("Sw<3,4,3> o (h,w):(w,1)", cp.make_composed_layout(sw, 0, cp.Layout((h, w), (w, 1))),
         lambda: _xor_in_place(row_major(), 3, 4, 3), "xor"),
    ]


def bench_offsets(sizes: list[int], repeat: int) -> bool:
    print("\n| offsets() | elements | cutepy ms | baseline ms | ratio | goal | met |")
    print("|---|---|---|---|---|---|---|")
    all_met = True
    for k in sizes:
        for name, L, base, kind in offsets_cases(k):
            ours = L.offsets
            got = ours()
            want = base()
            if kind == "xor":  # the hand-written expression is the same function
                assert np.array_equal(got, want), name
            del got, want
            t, tb = _best_pair(ours, base, repeat)
            goal = GOAL_FILL if kind == "fill" else GOAL_XOR
            met = t / tb <= goal
            all_met = all_met and met
            what = "numpy fill" if kind == "fill" else "numpy + XOR"
            print(f"| {name} | 2^{k} | {t * 1e3:.2f} | {tb * 1e3:.2f} ({what}) | {t / tb:.2f}x | "
                  f"<= {goal}x | {'yes' if met else 'NO'} |")
    return all_met


# -- import and memory -------------------------------------------------------------------------


def bench_import(repeat: int = 7) -> bool:
    code = ("import sys, time; t = time.perf_counter(); import cutepy; t = time.perf_counter() - t; "
            "print(t, 'numpy' in sys.modules, 'sympy' in sys.modules)")
    times, heavy = [], set()
    # as after an install: the bytecode is cached (one import first writes it; an environment
    # with PYTHONDONTWRITEBYTECODE would otherwise compile every edited module at each run)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", "import cutepy"], check=True, env=env)
    for _ in range(repeat):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=env)
        t, np_, sp = r.stdout.split()
        times.append(float(t))
        if np_ == "True":
            heavy.add("numpy")
        if sp == "True":
            heavy.add("sympy")
    t = statistics.median(times)
    met = t <= GOAL_IMPORT and not heavy
    loaded = "loads " + ", ".join(sorted(heavy)) if heavy else "numpy and sympy not loaded"
    print(f"\n## Import\n\nimport cutepy in a fresh process: median {t * 1e3:.1f} ms, "
          f"best {min(times) * 1e3:.1f} ms of {repeat}; {loaded} "
          f"(goal <= {GOAL_IMPORT * 1e3:.0f} ms, none loaded): {'met' if met else 'NOT met'}")
    return met


def _copy_tuple(t: Any) -> Any:
    return tuple(_copy_tuple(x) for x in t) if type(t) is tuple else t


def bench_memory(libs: list[Lib], seed: int, count: int = 10_000) -> None:
    """Bytes per layout: the object alone (its shape and stride tuples shared with the caller),
    and with tuples of its own (made inside the traced region, as a computed layout has)."""
    rng = random.Random(f"{seed}:memory")
    pairs = [random_layout(rng, "any") for _ in range(count)]
    print("\n## Memory (tracemalloc, bytes per layout, 10^4 random layouts kept alive, "
          "a tenth of them hashed and called once)\n")
    for lib in libs:
        row = []
        for own_tuples in (False, True):
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            if own_tuples:
                kept = [lib.make(_copy_tuple(s), _copy_tuple(d)) for s, d in pairs]
            else:
                kept = [lib.make(s, d) for s, d in pairs]
            for L in kept[: count // 10]:  # caches a library fills on use are counted
                try:
                    hash(L)
                except TypeError:
                    pass
                L(0)
            after = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            row.append((after - before) / count)
            del kept
        print(f"- {lib.name}: {row[0]:.0f} bytes per layout object, {row[1]:.0f} with its own tuples")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer inputs and rounds, 2^20 only")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--count", type=int, default=None, help="random inputs per operation (default 200)")
    ap.add_argument("--pycute", default=os.environ.get("CUTEPY_PYCUTE"),
                    help="a folder holding NVIDIA's pycute package (default: the installed one)")
    args = ap.parse_args(argv)
    if args.count is not None and args.count < 1:
        ap.error("--count must be positive")
    count = args.count or (60 if args.quick else 200)
    rounds, min_time = (3, 0.02) if args.quick else (7, 0.05)
    libs = libraries(args.pycute)
    print(f"python {sys.version.split()[0]}, cutepy from {os.path.dirname(cp.__file__)} "
          f"({cp.build_info()['core']} core: python -m cutepy.build)")
    bench_algebra(libs, count, args.seed, rounds, min_time)
    bench_call(libs, count, args.seed, rounds, min_time)
    bench_offsets([20] if args.quick else [20, 24], 3 if args.quick else 7)
    bench_import()
    bench_memory(libs, args.seed)


if __name__ == "__main__":
    main()
