"""Equivalence and symbolic proofs: how long they take, and what symbols cost plain integers.

Run:  python benchmarks/bench_equivalence.py [--quick] [--baseline REV]

Prints one table:

1. ``equivalent`` on two 2**40-element layouts (equal, and unequal with the
   counterexample found), and on two 2**60-element ones (target: under 1 ms);
2. the symbolic proof that ``f32[M,N]{1,0:T(8,128)}`` tiled through the algebra
   (``blocked_product`` of the row-major tile and the row-major grid of tiles) is the
   hand-derived ``((8,M/8),(128,N/128)):((128,8N),(1,1024))`` for every M, N that are
   multiples of 8 and 128 (target: under 2 s; cold = a fresh process, sympy import
   included; warm = caches cleared, sympy loaded);
3. core operations on plain integers, timed in a process that never imported sympy
   and again in this process after the symbolic work, in the same run; with
   ``--baseline REV`` also the core of that git revision (e.g. the commit before
   symbolic support) in a subprocess. Target: no measurable slowdown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CORE_OPS = """
import time, statistics, json, sys
import cutepy as cp
A = cp.Layout(((4, 8), (8, 4)), ((1, 32), (4, 256)))
B = cp.Layout((4, 8), (8, 1))
T = cp.Layout((2, 4), (1, 2))
ops = {
    "coalesce": lambda: cp.coalesce(A),
    "composition": lambda: cp.composition(A, B),
    "complement": lambda: cp.complement(T, 256),
    "logical_divide": lambda: cp.logical_divide(A, T),
    "logical_product": lambda: cp.logical_product(T, B),
}
def med(fn, n):
    ts = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        ts.append((time.perf_counter() - t) / n)
    return min(ts)
N = int(sys.argv[1])
out = {k: med(f, N) for k, f in ops.items()}
out["_sympy_loaded"] = "sympy" in sys.modules
print(json.dumps(out))
"""


def _median_time(fn: Callable[[], object], n: int, reps: int = 7) -> float:
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        ts.append((time.perf_counter() - t) / n)
    return statistics.median(ts)


def _fmt(t: float) -> str:
    if t < 1e-3:
        return f"{t * 1e6:8.1f} us"
    if t < 1:
        return f"{t * 1e3:8.2f} ms"
    return f"{t:8.2f} s "


AFTER_SYMBOLIC = ("import sympy\nM = cp.symbols('M', multiple_of=8)\n"
                  "cp.equivalent(cp.Layout((M, 4), (1, M)), cp.Layout(4 * M, 1))")


def _core_in_subprocess(path: str, n: int, prelude: str = "") -> dict:
    env = dict(os.environ, PYTHONPATH=path)
    code = CORE_OPS.replace("import cutepy as cp", "import cutepy as cp\n" + prelude)
    out = subprocess.run([sys.executable, "-c", code, str(n)], env=env, check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout)


def _best(runs: list) -> dict:
    out = dict(runs[0])
    for r in runs[1:]:
        for k, v in r.items():
            if not k.startswith("_"):
                out[k] = min(out[k], v)
    return out


def _baseline_tree(rev: str) -> str:
    d = tempfile.mkdtemp(prefix="cutepy-baseline-")
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "cutepy"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", d], input=archive, check=True)
    return d


PROOF_SCRIPT = """
import time
t = time.perf_counter()
import cutepy
from cutepy import Layout, LayoutRight, blocked_product, equivalent
M, N = cutepy.symbols("M N", multiple_of=(8, 128))
hand = Layout(((8, M / 8), (128, N / 128)), ((128, 8 * N), (1, 1024)))
tiled = lambda: blocked_product(LayoutRight((8, 128)), LayoutRight((M / 8, N / 128)))  # noqa: E731
assert equivalent(tiled, hand, by="modes")
print(time.perf_counter() - t)
"""


def _xla_row(M: object, N: object, hand: object) -> tuple[str, str, str]:
    """The same proof through the XLA compile itself, when it takes symbolic dims."""
    import cutepy
    from cutepy import equivalent

    try:
        from cutepy.xla import ArrayShape, XlaLayout, to_cute

        shape = ArrayShape("f32", (M, N), layout=XlaLayout((1, 0), tiles=((8, 128),)))
        t = time.perf_counter()
        ok = bool(equivalent(lambda: to_cute(shape), hand, by="modes"))
        return ("  ... through cutepy.xla.to_cute", _fmt(time.perf_counter() - t), f"proved: {ok}")
    except (ImportError, TypeError, cutepy.CutepyError) as e:
        return ("  ... through cutepy.xla.to_cute", "n/a", str(e).splitlines()[0][:60])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--baseline", metavar="REV", help="also time the core of this git revision")
    args = ap.parse_args()
    n = 200 if args.quick else 2000

    rows: list[tuple[str, str, str]] = []
    # the plain-int timings, interleaved over rounds and the best of each kept, so that
    # the load of a shared machine hits the variants alike
    base_tree = _baseline_tree(args.baseline) if args.baseline else None
    runs: dict = {"fresh": [], "after": [], "base": []}
    for _ in range(2 if args.quick else 5):
        runs["fresh"].append(_core_in_subprocess(ROOT, n))
        runs["after"].append(_core_in_subprocess(ROOT, n, AFTER_SYMBOLIC))
        if base_tree:
            runs["base"].append(_core_in_subprocess(base_tree, n))
    core_fresh, core_after = _best(runs["fresh"]), _best(runs["after"])
    baseline = _best(runs["base"]) if base_tree else None

    sys.path.insert(0, ROOT)
    import cutepy
    from cutepy import Layout, LayoutRight, blocked_product, equivalent

    # 1. equivalence on huge layouts
    A40 = Layout((1 << 10, 1 << 10, 1 << 20), (1, 1 << 10, 1 << 20))
    B40 = Layout(((1 << 20), (1 << 4, 1 << 16)), ((1), (1 << 20, 1 << 24)))
    C40 = Layout(((1 << 20), (1 << 4, 1 << 16)), ((1), (1 << 20, (1 << 24) + 1)))
    assert equivalent(A40, B40) and not equivalent(A40, C40)
    A60 = Layout((1 << 20, 1 << 20, 1 << 20), (1, 1 << 20, 1 << 40))
    B60 = Layout(1 << 60, 1)
    rows.append(("equivalent, 2^40 elements, equal", _fmt(_median_time(lambda: equivalent(A40, B40), n)),
                 "< 1 ms"))
    rows.append(("equivalent, 2^40, unequal (+counterexample)",
                 _fmt(_median_time(lambda: equivalent(A40, C40).counterexample, n)), "< 1 ms"))
    rows.append(("equivalent, 2^60 elements, equal", _fmt(_median_time(lambda: equivalent(A60, B60), n)),
                 "< 1 ms"))
    with_text = _median_time(lambda: equivalent(A60, B60).text(), n // 10)
    rows.append(("  ... with the proof text", _fmt(with_text), ""))

    # 2. the symbolic proof of the f32[M,N]{1,0:T(8,128)} tiling
    env = dict(os.environ, PYTHONPATH=ROOT)
    cold = float(subprocess.run([sys.executable, "-c", PROOF_SCRIPT], env=env, check=True,
                                capture_output=True, text=True).stdout)
    M, N = cutepy.symbols("M N", multiple_of=(8, 128))
    hand = Layout(((8, M / 8), (128, N / 128)), ((128, 8 * N), (1, 1024)))

    def proof() -> None:
        from cutepy.symbolic import decide

        decide._CACHE.clear()
        r = equivalent(lambda: blocked_product(LayoutRight((8, 128)), LayoutRight((M / 8, N / 128))),
                       hand, by="modes")
        assert r

    rows.append(("symbolic proof f32[M,N]{1,0:T(8,128)}, cold", _fmt(cold), "< 2 s"))
    rows.append(("symbolic proof f32[M,N]{1,0:T(8,128)}, warm", _fmt(_median_time(proof, 3, 3)), "< 2 s"))
    rows.append(_xla_row(M, N, hand))

    # 3. plain-int core operations: never-sympy process vs after symbolic work (and baseline)
    assert not core_fresh["_sympy_loaded"] and core_after["_sympy_loaded"]
    for op in ("coalesce", "composition", "complement", "logical_divide", "logical_product"):
        t0, t1 = core_fresh[op], core_after[op]
        spread = max(r[op] for r in runs["fresh"]) / min(r[op] for r in runs["fresh"])
        note = f"x{t1 / t0:.2f} after symbolic work (rounds vary x{spread:.2f})"
        if baseline is not None:
            note += f", x{t0 / baseline[op]:.2f} vs {args.baseline}"
        rows.append((f"int {op}", _fmt(t0), note))

    w = max(len(r[0]) for r in rows)
    print(f"{'case'.ljust(w)}  {'time':>11}  note")
    print("-" * (w + 30))
    for name, t, note in rows:
        print(f"{name.ljust(w)}  {t:>11}  {note}")


if __name__ == "__main__":
    main()
