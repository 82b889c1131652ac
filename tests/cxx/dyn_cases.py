"""The differential with run-time integers: C++ CuTe's ``int`` beside ``Int<N>`` (issue 21 item 9).

Each case draws a layout (and a tiler or a second layout) as tests/cxx/cxx_cases.py does, then
makes random leaves dynamic (:func:`cutepy.dynamic`; ``int(N)`` in C++), and compares C++'s
exact print, underscores included, with ``format(result, "cxx")``. CUTLASS 4.7.0's prints are
stored in ``tests/data/cxx47_dynamic_prints.tsv`` (columns as tests/cxx/cxx47_prints.py's).

Regenerate (g++, CUTLASS 4.7.0's headers)::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD python -m tests.cxx.dyn_cases
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import cutepy as cp
from cutepy import ComposedLayout, DynamicInt, Layout, Swizzle
from cutepy.core import inttuple as it
from cutepy.core.basis import ScaledBasis
from cutepy.core.errors import CutepyError
from tests.cxx import cxx_cases as cc
from tests.paths import DATA

STORE = DATA / "cxx47_dynamic_prints.tsv"
CI_SEED = 20261126
#: (cases, seed): the CI sample and the slow sample whose 4.7 prints are stored
SAMPLES = ((120, CI_SEED), (300, 1))


def cxd(x: Any) -> str:
    """C++ text for a value with static (``Int<N>{}``) and dynamic (``int(N)``) leaves."""
    if type(x) is DynamicInt:
        return f"int({int(x)})"
    if isinstance(x, ScaledBasis):
        e = "E<" + ",".join(map(str, x.mode)) + ">{}"
        return f"{cxd(x.value)}*{e}"
    if type(x) is tuple:
        return "make_shape(" + ", ".join(cxd(v) for v in x) + ")"
    if type(x) is Layout:
        return f"make_layout({cxd(x.shape)}, {cxd(x.stride)})"
    if type(x) is ComposedLayout:
        return f"make_composed_layout({cxd(x.outer)}, {cxd(x.offset)}, {cxd(x.inner)})"
    if type(x) is Swizzle or type(x) is int or x is None:
        return cc.cx(x)
    raise TypeError(x)


def cxd_tiler(t: Any) -> str:
    if type(t) is tuple:
        return "make_tile(" + ", ".join(cxd_tiler(v) for v in t) + ")"
    return cxd(t)


def _coord(c: Any) -> str:
    if type(c) is tuple:
        return "make_coord(" + ", ".join(_coord(x) for x in c) + ")"
    return cxd(c)


def mark(r: random.Random, x: Any, p: float) -> Any:
    """``x`` with each integer leaf made dynamic with probability ``p`` (a swizzle stays static;
    a swizzled layout's offset stays a static 0, its layout is marked)."""
    if type(x) is Layout:
        return Layout(mark(r, x.shape, p), mark(r, x.stride, p))
    if type(x) is ComposedLayout:
        return ComposedLayout(x.outer, x.offset, mark(r, x.inner, p))
    if type(x) is tuple:
        return tuple(mark(r, y, p) for y in x)
    if type(x) is int:
        return cp.dynamic(x) if r.random() < p else x
    return x


def _case(op: str, args: tuple, py, cxx: str) -> cc.Case:
    return cc.Case(op, args, py, cxx)


def _gen_one(r: random.Random) -> cc.Case:
    p = r.choice((0.25, 0.5, 0.75))
    fam = r.choice(("coalesce", "coalesce", "filter", "composition", "composition(tiler)", "complement",
                    "complement(n)", "divide", "divide(tiler)", "product", "product2", "right_inverse",
                    "left_inverse", "slice"))
    if fam in ("coalesce", "filter", "complement", "right_inverse", "left_inverse"):
        A = mark(r, cc.rand_layout(r), p)
        fn = getattr(cp, fam)
        return _case(fam, (A,), lambda: fn(A), f"print({fam}({cxd(A)}));")
    if fam == "complement(n)":
        A = mark(r, cc.rand_layout(r), p)
        n = mark(r, r.choice((1, 2, 4, 8, 16, 24, 32, 64, 96, 128)), p)
        return _case(fam, (A, n), lambda: cp.complement(A, n), f"print(complement({cxd(A)}, {cxd(n)}));")
    if fam == "composition":
        A0 = cc.rand_layout(r)
        B0 = cc.divisor_layout(r, A0.size()) if r.random() < 0.7 else cc.rand_layout(r, "compact", 3)
        A, B = mark(r, A0, p), mark(r, B0, p)
        return _case(fam, (A, B), lambda: cp.composition(A, B), f"print(composition({cxd(A)}, {cxd(B)}));")
    if fam == "composition(tiler)":
        A0 = cc.rand_layout(r)
        T = mark(r, cc._tiler_tuple(r, A0), p)
        A = mark(r, A0, p)
        return _case(fam, (A, T), lambda: cp.composition(A, T),
                     f"print(composition({cxd(A)}, {cxd_tiler(T)}));")
    if fam == "divide":
        op = r.choice(("logical_divide", "zipped_divide", "tiled_divide"))
        A0 = cc.rand_layout(r)
        T = mark(r, cc.divisor_layout(r, A0.size()), p)
        A, fn = mark(r, A0, p), getattr(cp, op)
        return _case(f"{op}(layout)", (A, T), lambda: fn(A, T), f"print({op}({cxd(A)}, {cxd(T)}));")
    if fam == "divide(tiler)":
        op = r.choice(("logical_divide", "zipped_divide", "tiled_divide"))
        A0 = cc.rand_layout(r)
        T = mark(r, cc._tiler_tuple(r, A0, with_none=op == "logical_divide"), p)
        A, fn = mark(r, A0, p), getattr(cp, op)
        return _case(f"{op}(tiler)", (A, T), lambda: fn(A, T), f"print({op}({cxd(A)}, {cxd_tiler(T)}));")
    if fam == "product":
        op = r.choice(("logical_product", "zipped_product", "tiled_product"))
        A = mark(r, cc.rand_layout(r, "compact", 3), p)
        B = mark(r, cc.rand_layout(r, r.choice(("compact", "gaps")), 3), p)
        fn = getattr(cp, op)
        return _case(op, (A, B), lambda: fn(A, B), f"print({op}({cxd(A)}, {cxd(B)}));")
    if fam == "product2":
        op = r.choice(("blocked_product", "raked_product"))
        A = mark(r, cc.rand_layout(r, "compact", 3), p)
        B = mark(r, cc.rand_layout(r, "compact", 3), p)
        fn = getattr(cp, op)
        return _case(op, (A, B), lambda: fn(A, B), f"print({op}({cxd(A)}, {cxd(B)}));")
    # slice of a plain or swizzled layout at a coordinate with static and dynamic entries
    A0 = cc.any_layout(r)
    if type(A0.shape) is not tuple:
        A0 = cc.rand_layout(r)
        while type(A0.shape) is not tuple:
            A0 = cc.rand_layout(r)
    crd = cc._slice_coord(r, A0.shape)
    if all(x is not None for x in it.flatten_tuple(crd)):
        crd = (None,) + crd[1:]
    crd = mark(r, crd, p)
    A = mark(r, A0, p)
    return _case("slice", (A, crd), lambda: A(crd), f"print(slice({_coord(crd)}, {cxd(A)}));")


def generate(n: int, seed: int) -> list[cc.Case]:
    r = random.Random(seed)
    return [_gen_one(r) for _ in range(n)]


def cutepy_print(case: cc.Case) -> tuple[str, bool]:
    """cutepy's answer as C++ prints it, and whether cutepy rejected the case."""
    try:
        return format(case.py(), "cxx"), False
    except CutepyError as e:
        return f"{type(e).__name__}: {e}", True


def verdicts(cases: list[cc.Case], results: list) -> list[tuple[cc.Case, str, str, str]]:
    """(case, kind, cutepy, C++) with kind exact (same print, or both reject), differs, or
    cutepy-rejects / cxx-rejects (one side refuses)."""
    out = []
    for c, res in zip(cases, results):
        mine, rejected = cutepy_print(c)
        if res is None:
            out.append((c, "missing", mine, ""))
            continue
        ok, text = res
        if not ok:
            out.append((c, "exact" if rejected else "cxx-rejects", mine, text))
        elif rejected:
            out.append((c, "cutepy-rejects", mine, text))
        else:
            out.append((c, "exact" if mine == text else "differs", mine, text))
    return out


def table(vs: list) -> str:
    kinds = ("exact", "differs", "cutepy-rejects", "cxx-rejects", "missing")
    counts: dict[str, Counter] = {}
    for c, k, _, _ in vs:
        counts.setdefault(c.op, Counter())[k] += 1
    lines = [f"{'operation':26s}" + "".join(f"{k:>15s}" for k in kinds)]
    total: Counter = Counter()
    for op in sorted(counts):
        total.update(counts[op])
        lines.append(f"{op:26s}" + "".join(f"{counts[op][k]:15d}" for k in kinds))
    lines.append(f"{'TOTAL':26s}" + "".join(f"{total[k]:15d}" for k in kinds))
    return "\n".join(lines)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def load() -> dict[str, tuple[bool, str]]:
    from tests.cxx.cxx47_prints import key  # noqa: F401  (same keys as the static store)

    rows = {}
    for line in STORE.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        k, _op, status, text = line.split("\t", 3)
        rows[k] = (status == "OK", _unescape(text))
    return rows


def lookup(cases: list[cc.Case]) -> list:
    from tests.cxx.cxx47_prints import key

    rows = load()
    return [rows.get(key(c.cxx)) for c in cases]


def live(cases: list[cc.Case]) -> list:
    """C++'s (ok, print) for each case against the installed headers (raw print, underscores kept)."""
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([c.cxx for c in cases], keys=[cutepy_print(c)[1] for c in cases])
    return [(x.ok, x.output.strip() if x.ok else (x.error.splitlines() or ["C++ rejects"])[0][:300])
            for x in res]


def main() -> None:
    """Compile every stored sample against CUTLASS 4.7.0 and write the store."""
    import subprocess

    from tests.cxx import cxx_harness
    from tests.cxx.cxx47_prints import VERSION, key

    if cxx_harness.cutlass_version() != VERSION:
        raise SystemExit(f"needs CUTLASS {VERSION}'s headers (CUTEPY_CXX_CUTLASS), found "
                         f"{cxx_harness.cutlass_version()}")
    gxx = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    lines = [f"# C++ CuTe prints from CUTLASS {VERSION}, compiled with {gxx}, flags -std=c++17 -O0 -w,",
             "# printed exactly (static integers _N, run-time ints N). Cases: tests/cxx/dyn_cases.py "
             f"generate(n, seed) for {SAMPLES}.",
             "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD "
             "python -m tests.cxx.dyn_cases",
             "# Columns: sha256(C++ statement)[:16], operation, OK|REJECT, print or first error line."]
    seen = set()
    for n, seed in SAMPLES:
        cases = generate(n, seed)
        for c, (ok, text) in zip(cases, live(cases)):
            k = key(c.cxx)
            if k in seen:
                continue
            seen.add(k)
            lines.append(f"{k}\t{c.op}\t{'OK' if ok else 'REJECT'}\t{_escape(text)}")
        print(f"sample {n}/{seed}:\n" + table(verdicts(cases, lookup_live(cases, lines))))
    STORE.write_text("\n".join(lines) + "\n")


def lookup_live(cases: list[cc.Case], lines: list[str]) -> list:
    from tests.cxx.cxx47_prints import key

    rows = {}
    for line in lines:
        if not line.startswith("#"):
            k, _op, status, text = line.split("\t", 3)
            rows[k] = (status == "OK", _unescape(text))
    return [rows.get(key(c.cxx)) for c in cases]


if __name__ == "__main__":
    main()
