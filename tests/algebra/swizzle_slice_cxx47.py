"""C++ CuTe 4.7's ``slice_and_offset`` of swizzled layouts (issue 33, item 1): which slices C++
refuses at compile time, and what it returns for the others.

Seeded cases ``Sw<B,M,S> o 0 o L`` with one mode of a rank-2 ``L`` fixed (a static
coordinate) and the other free. The prints are stored in tests/data/swizzle_slice_cxx47.txt
(``rejected`` where C++ does not compile the slice); regenerate with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 \\
        python -m tests.algebra.swizzle_slice_cxx47
"""

from __future__ import annotations

import random
import sys

from cutepy import ComposedLayout, Layout, Swizzle
from cutepy.core.errors import CutepyError
from cutepy.core.layout import slice_and_offset
from tests.cxx import cxx_harness
from tests.cxx.cxx_cases import cx, show
from tests.paths import DATA

FILE = DATA / "swizzle_slice_cxx47.txt"
SEED = 33
N_CASES = 60
#: the issue's case, then cases a static coordinate carries into the swizzle's bits
FIXED = [
    ((3, 3), (3, 1), (1, 0, 3), (2, None)),
    ((3, 3), (3, 1), (1, 0, 3), (None, 2)),
    ((8, 8), (8, 1), (3, 0, 3), (3, None)),
    ((6, 4), (4, 1), (1, 2, 2), (None, 1)),
]


def cases() -> list[tuple[ComposedLayout, tuple]]:
    rng = random.Random(SEED)
    out = []
    for shape, stride, sw, crd in FIXED:
        out.append((ComposedLayout(Swizzle(*sw), 0, Layout(shape, stride)), crd))
    while len(out) < N_CASES:
        shape = (rng.choice([2, 3, 4, 6, 8, 16]), rng.choice([2, 3, 4, 8, 12]))
        stride = (1, shape[0]) if rng.random() < 0.5 else (shape[1], 1)
        if rng.random() < 0.2:
            stride = (stride[0] * rng.choice([1, 2]), stride[1] * rng.choice([1, 3]))
        b = rng.randint(1, 3)
        sw = Swizzle(b, rng.randint(0, 3), rng.choice([b, b + 1, b + 2, -b]))
        i = rng.randrange(2)
        crd = (rng.randrange(shape[0]), None) if i == 0 else (None, rng.randrange(shape[1]))
        out.append((ComposedLayout(sw, 0, Layout(shape, stride)), crd))
    return out


def key(C: ComposedLayout, crd: tuple) -> str:
    return f"{C} at {show_crd(crd)}"


def show_crd(crd: tuple) -> str:
    return "(" + ",".join("_" if c is None else str(c) for c in crd) + ")"


def case(C: ComposedLayout, crd: tuple) -> str:
    c = "make_coord(" + ", ".join(cx(v) for v in crd) + ")"
    return (f"auto L = {cx(C)}; auto r = slice_and_offset({c}, L); "
            'print(get<0>(r)); printf("|"); print(get<1>(r));')


def cutepy_answer(C: ComposedLayout, crd: tuple) -> str:
    try:
        sub, off = slice_and_offset(crd, C)
    except CutepyError:
        return "rejected"
    return f"{show(sub)}|{show(off)}"


def read() -> dict[str, str]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            k, v = line.split("\t")
            out[k] = v
    return out


def main() -> int:
    cs = cases()
    # the slices cutepy refuses go in units of their own, so the others compile in one go
    keys = [cutepy_answer(C, crd) == "rejected" for C, crd in cs]
    results = cxx_harness.run_cases([case(C, crd) for C, crd in cs], keys=keys)
    lines = ["# C++ CuTe (CUTLASS 4.7.0) slice_and_offset(crd, Sw o 0 o L) with static coordinates:",
             "# 'sliced|offset', or 'rejected' where C++ does not compile it. Regenerate:",
             "#   CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 \\",
             "#   python -m tests.algebra.swizzle_slice_cxx47"]
    for (C, crd), r in zip(cs, results):
        text = cxx_harness.normalise(r.output) if r.ok else "rejected"
        if not r.ok and "static" not in r.error and "error" not in r.error:
            print("unexpected failure:", key(C, crd), r.error[:2000], file=sys.stderr)
            return 1
        lines.append(f"{key(C, crd)}\t{text}")
    FILE.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(cs)} cases to {FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
