"""The long fuzz run (issues 11 and 33): every public surface, seeded, in worker processes.

Run:  python benchmarks/fuzz.py --n 100000 --seed S [--jobs 2] [--timeout 5] [--mem-gb 6]
On the shared machine: ``nice -n 10 python benchmarks/fuzz.py --n 100000 --seed S --jobs 1``
(about 11 minutes per 10^5 calls there).

The surfaces are tests/fuzz/harness.py's (the algebra, parsers, XLA, proofs, pictures, CLI, ...)
and tests/fuzz/kernel_surfaces.py's (issue 33): writable tensors and the simulation (copies
and gemm against numpy), TiledMMA/TiledCopy (each thread's partition against its TV layout
and the raked blocks), ``cutepy.linear`` (against XOR of bases), TMA (descriptors against
``cuTensorMapEncodeTiled``'s documented rules), the bank tools (against a wavefront model)
and run-time integers (against brute-force evaluation), each mixing valid designs with bad
arguments (wrong types, numpy arrays and scalars, bools, floats, NaN, infinity, strings,
nested garbage, zero, negative and 2^63/2^64 values).

Splits ``n`` calls over ``jobs`` worker processes (worker ``k`` uses seed ``S*1000 + k``),
each under an address-space limit of ``mem-gb`` GiB (so an allocation bomb is a
MemoryError, counted as a crash, not a machine out of memory). Prints, per surface, the
calls, results that passed their law (ok), CutepyErrors, crashes (any other exception),
hangs (past the per-call timeout) and wrong answers (a law broken, checked by the
independent model in tests/fuzz/brute.py), then one line per distinct finding with a
reproducer. A worker that dies (a hang no signal can interrupt, a segfault) is reported
with the calls it did not run. Exit status 1 if anything was found.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "tests", "fuzz", "harness.py")
sys.path.insert(0, ROOT)  # a script: the repository root makes the tests package importable


def _limit(gb: float):
    def apply() -> None:
        b = int(gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (b, b))

    return apply


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--mem-gb", type=float, default=6.0)
    ap.add_argument("--out", help="also write the merged JSON report here")
    args = ap.parse_args(argv)

    from tests.fuzz.harness import SURFACES, Report, format_report

    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    per = [args.n // args.jobs + (1 if k < args.n % args.jobs else 0) for k in range(args.jobs)]
    t0 = time.monotonic()
    procs = [
        subprocess.Popen(
            [sys.executable, HARNESS, "--n", str(per[k]), "--seed", str(args.seed * 1000 + k),
             "--timeout", str(args.timeout), "--json", "--progress"],
            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT, preexec_fn=_limit(args.mem_gb),
        )
        for k in range(args.jobs)
    ]
    merged = Report()
    lost = 0
    for k, p in enumerate(procs):
        out, _ = p.communicate()
        try:
            part = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            print(f"worker {k} died (exit {p.returncode}); its {per[k]} calls are missing", file=sys.stderr)
            lost += per[k]
            continue
        for s in SURFACES:
            for key, v in part["counts"][s].items():
                merged.counts[s][key] += v
        for f in part["findings"]:
            merged.findings.extend([f] * f["count"])
    print(f"seed {args.seed}, {args.n} calls in {args.jobs} workers, {time.monotonic() - t0:.0f} s, "
          f"timeout {args.timeout} s per call, {args.mem_gb} GiB per worker")
    print(format_report(merged))
    if args.out:
        from tests.fuzz.harness import distinct

        with open(args.out, "w") as f:
            json.dump({"seed": args.seed, "n": args.n, "counts": merged.counts,
                       "findings": distinct(merged.findings)}, f, indent=1)
    bad = lost + sum(c["crash"] + c["hang"] + c["wrong"] for c in merged.counts.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
