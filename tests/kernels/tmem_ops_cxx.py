"""Every TMEM load/store op of C++ 4.7 through ``make_tmem_copy``: seeded C++ cases and stored prints
(tests/data/tmem_ops_cxx.txt).

Per op (``cutepy.kernels.tmem_copy.TMEM_COPY_OPS``) :data:`PER_OP` seeded cases: an accumulator
``UMMA::tmem_frg<T, S, N_SM, Alloc>::make(((M,N),R1,R2))`` (``T`` float, half_t or int8_t; storage
``S`` ``T`` or uint32_t),
``make_tmem_copy(Op{}, acc)`` printed (TiledCopy and Copy_Atom), and for threads 0, 1, 37 and 127
the partitions of the accumulator and of a column-major gmem tensor of its shape (a load reads the
accumulator: ``partition_S(acc)``, ``partition_D(gC)``; a store writes it: ``partition_S(gC)``,
``partition_D(acc)``). A case C++ does not compile is stored as ``@REFUSED`` with C++'s first error.

Regenerate (CUTLASS 4.7 headers; about 40 minutes on 2 cores)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        python -m tests.kernels.tmem_ops_cxx            # the cases (--missing: those not stored)
        python -m tests.kernels.tmem_ops_cxx --traits   # every op's Copy_Traits
"""

from __future__ import annotations

import random
import sys

from cutepy.kernels.tmem_copy import TMEM_COPY_OPS
from tests.paths import DATA

FILE = DATA / "tmem_ops_cxx.txt"
#: C++'s Copy_Traits of every op: ThrID, ValID, SrcLayout, DstLayout, RefLayout (``--traits``)
TRAITS_FILE = DATA / "tmem_traits_cxx.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_traits_sm100.hpp", "cute/atom/copy_traits_sm100.hpp")
THREADS = (0, 1, 37, 127)
SEED = 22
PER_OP = 2
VALUE_TYPES = ("float", "half_t", "int8_t")
#: (N_SM, M_MMA, allocation) of the accumulators drawn
ALLOCS = ((1, 128, "Interleaved"), (1, 64, "Interleaved"), (1, 64, "NonInterleaved"), (2, 128, "Interleaved"),
          (2, 64, "Interleaved"), (2, 64, "Duplicated"), (2, 32, "Interleaved"))


def _draw(rng: random.Random, op: str) -> tuple:
    n_sm, m, alloc = rng.choice(ALLOCS)
    n = rng.choice((16, 32, 64, 128, 256))
    rest = rng.choice(((1, 1), (2, 1), (1, 2), (2, 2)))
    t = rng.choice(VALUE_TYPES)
    return (op, t, rng.choice((t, "uint32_t")), n_sm, alloc, ((m, n),) + rest)


def _builds(c: tuple) -> bool:
    from cutepy.core.errors import CutepyError
    from cutepy.kernels.tmem import make_tmem_frg
    from cutepy.kernels.tmem_copy import make_tmem_copy

    op, t, st, n_sm, alloc, shape = c
    try:
        make_tmem_copy(op, make_tmem_frg(t, shape, n_sm, st, alloc))
    except CutepyError:
        return False
    return True


def cases() -> list[tuple]:
    """``(op, value type, storage type, n_sm, alloc, ((M,N),R1,R2))``, seeded: :data:`PER_OP` random
    draws per op (C++ refuses many: an op wider than the accumulator, a storage stride the op does
    not fit), then per op one draw that cutepy builds (the first of 40 seeded tries; C++ decides)."""
    rng = random.Random(SEED)
    out = [_draw(rng, op) for op in TMEM_COPY_OPS for _ in range(PER_OP)]
    rng = random.Random(SEED + 1)
    for op in TMEM_COPY_OPS:
        tries = [_draw(rng, op) for _ in range(40)]
        out.append(next((c for c in tries if _builds(c)), tries[0]))
    return out


def key(c: tuple) -> str:
    op, t, st, n_sm, alloc, shape = c
    return f"{op}/{t}/{st}/{n_sm}/{alloc}/{shape}".replace(" ", "")


def _cxx_shape(s: object) -> str:
    if isinstance(s, tuple):
        return f"make_shape({', '.join(_cxx_shape(x) for x in s)})"
    return f"Int<{s}>{{}}"


def cxx_case(c: tuple) -> str:
    op, t, st, n_sm, alloc, shape = c
    load = "STORE" not in op
    lines = [
        f"auto acc = UMMA::tmem_frg<{t}, {st}, {n_sm}, UMMA::TmemAllocMode::{alloc}>::make("
        f"{_cxx_shape(shape)});",
        f"auto gC = make_tensor(make_gmem_ptr(({t}*)0x10000), make_layout(shape(acc)));",
        f"auto cp = make_tmem_copy({op}{{}}, acc);",
        'printf("@TILED\\n"); print(cp);',
    ]
    src, dst = ("acc", "gC") if load else ("gC", "acc")
    for t_ in THREADS:
        lines.append(f'printf("\\n@S{t_}\\n"); print(cp.get_slice({t_}).partition_S({src}));')
        lines.append(f'printf("\\n@D{t_}\\n"); print(cp.get_slice({t_}).partition_D({dst}));')
    lines.append('printf("\\n");')
    return "\n".join(lines)


def traits_case(op: str) -> str:
    parts = ("ThrID", "ValID", "SrcLayout", "DstLayout", "RefLayout")
    return " ".join(f'print(typename Copy_Traits<{op}>::{p}{{}}); printf("\\t");' for p in parts)


def read_traits() -> dict[str, list[str]]:
    """op -> [ThrID, ValID, SrcLayout, DstLayout, RefLayout] as C++ prints them."""
    out = {}
    for line in TRAITS_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            op, *layouts = line.split("\t")
            out[op] = layouts[:5]
    return out


def main_traits() -> None:
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([traits_case(op) for op in TMEM_COPY_OPS], INCLUDES)
    bad = [op for op, r in zip(TMEM_COPY_OPS, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ rejected {bad}")
    head = ("# C++ CuTe (CUTLASS 4.7): Copy_Traits<Op> of every TMEM load/store op: ThrID, ValID,\n"
            "# SrcLayout, DstLayout, RefLayout (tab-separated, static-integer underscores dropped).\n"
            "# Regenerate: as tests/kernels/tmem_ops_cxx.py says, with --traits\n")
    rows = [f"{op}\t{cxx_harness.normalise(r.output)}\n" for op, r in zip(TMEM_COPY_OPS, res)]
    TRAITS_FILE.write_text(head + "".join(rows))


def read() -> dict[str, dict[str, str]]:
    """key -> section -> text; a refused case has the one section ``REFUSED`` (C++'s first error)."""
    out: dict[str, dict[str, list[str]]] = {}
    current = section = None
    for line in FILE.read_text().splitlines():
        if line.startswith("#"):
            continue
        if line.startswith("=== "):
            current, section = line[4:], None
            out[current] = {}
        elif line.startswith("@") and current is not None:
            section = line[1:]
            out[current][section] = []
        elif current is not None and section is not None and line:
            out[current][section].append(line)
    return {k: {s: "\n".join(v) for s, v in secs.items()} for k, secs in out.items()}


def counts() -> None:
    """Per op family (``{LOAD,STORE}_{shape}[_16b]``): stored cases cutepy builds exactly as C++, that
    differ, that both refuse, that only one refuses: ``python -m tests.kernels.tmem_ops_cxx --counts``."""
    import re
    from collections import Counter

    from tests.kernels.test_tmem_ops import build

    stored = read()
    table: Counter = Counter()
    for c in cases():
        want, got = stored[key(c)], build(c)
        fam = re.sub(r"\d+x", "Nx", c[0].replace("SM100_TMEM_", ""))
        if "REFUSED" in want:
            what = "refused by both" if isinstance(got, Exception) else "only C++ refuses"
        elif isinstance(got, Exception):
            what = "only cutepy refuses"
        else:
            what = "exact" if got == want else "DIFFER"
        table[(fam, what)] += 1
    for (fam, what), n in sorted(table.items()):
        print(f"{fam:28s} {what:20s} {n}")
    total: Counter = Counter()
    for (_, what), n in table.items():
        total[what] += n
    print("total", dict(total))


def main() -> None:
    from tests.cxx import cxx_harness

    if "--traits" in sys.argv:
        main_traits()
        return
    if "--counts" in sys.argv:
        counts()
        return
    from tests.kernels.test_tmem_ops import build

    cs = cases()
    old: dict[str, list[str]] = {}
    if "--missing" in sys.argv and FILE.is_file():
        current = None
        for line in FILE.read_text().splitlines():
            if line.startswith("=== "):
                current = line[4:]
                old[current] = []
            elif current is not None and not line.startswith("#"):
                old[current].append(line)
    todo = [c for c in cs if key(c) not in old]
    # cases cutepy refuses go into their own units, so that the others compile in one go
    keys = [int(isinstance(build(c), Exception)) for c in todo]
    res = dict(zip(map(key, todo), cxx_harness.run_cases([cxx_case(c) for c in todo], INCLUDES, keys=keys)))
    head = ("# C++ CuTe (CUTLASS 4.7): make_tmem_copy of every TMEM load/store op over UMMA accumulators,\n"
            "# static-integer underscores dropped. Regenerate: see tests/kernels/tmem_ops_cxx.py\n")
    body = []
    for c in cs:
        if key(c) in old:
            body.append("=== " + key(c) + "\n" + "\n".join(old[key(c)]).strip("\n") + "\n")
            continue
        r = res[key(c)]
        if r.ok:
            body.append(f"=== {key(c)}\n{cxx_harness.normalise(r.output)}\n")
        else:
            first = next((ln for ln in r.error.splitlines() if "error" in ln), r.error[:300])
            body.append(f"=== {key(c)}\n@REFUSED\n{first.strip()[:300]}\n")
    FILE.write_text(head + "".join(body))
    print(f"{len(res)} cases run, {sum(not r.ok for r in res.values())} refused by C++", file=sys.stderr)


if __name__ == "__main__":
    main()
