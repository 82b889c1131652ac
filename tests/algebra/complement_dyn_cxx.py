"""``complement`` with a shape cotarget whose leaves are partly run-time (C++'s ``int``) and the
divides built on it, against C++: the rest of the cotarget is laid out compact column-major after
the gaps (C++'s ``compact_major<LayoutLeft>(rest_shape, new_stride)``). Statements and CUTLASS
4.7's exact prints are stored in tests/data/complement_dyn_cxx47.tsv (statement, tab, print).

Regenerate (g++, CUTLASS 4.7 headers)::

    SP=$(python -c "import site;print(site.getsitepackages()[0])"); N=$SP/nvidia; C=/work/cutlass47/include
    CUTEPY_CXX_INCLUDE=$C:$N/cuda_cccl/include:$N/cuda_runtime/include:$N/cuda_nvcc/include \\
        PYTHONPATH=$PWD python -m tests.algebra.complement_dyn_cxx
"""

from __future__ import annotations

import sys
from typing import Any

import cutepy as cp
from cutepy import Layout, dynamic
from tests.cxx.dyn_cases import cxd
from tests.paths import DATA

FILE = DATA / "complement_dyn_cxx47.tsv"
d = dynamic

#: (operation, first argument, second argument): complement(A, cotarget), logical_divide(A, T)
CASES: tuple = tuple(
    [("complement", A, c) for A in (Layout(2, 1), Layout((2, 2), (1, 4)), Layout(4, 2), Layout(d(2), 1))
     for c in ((4, d(1)), (4, d(3)), (d(4), 3), (d(4), d(3)), (4, 3), ((2, d(2)), 3), (8, d(2), 2), (d(16),))]
    + [("logical_divide", A, Layout(2, 1))
       for A in (Layout((4, 1, d(1)), (1, 0, 0)), Layout((4, d(3)), (1, 4)), Layout((4, 1, d(2)), (1, 0, 4)),
                 Layout((d(4), 3), (1, 4)))]
    + [("zipped_divide", Layout((8, d(3), 1), (1, 8, 0)), Layout(4, 1)),
       ("logical_divide", Layout((8, d(3), 1), (1, 8, 0)), Layout(4, 2))]
)


def statement(case: tuple) -> str:
    op, a, b = case
    second = cxd(b) if op != "complement" else cxd(b if isinstance(b, tuple) and len(b) > 1 else b[0])
    return f"print({op}({cxd(a)}, {second}));"


def cutepy_print(case: tuple) -> str:
    op, a, b = case
    if op == "complement" and len(b) == 1:
        b = b[0]
    return format(getattr(cp, op)(a, b), "cxx")


def run_cxx() -> list[str]:
    from tests.cxx import cxx_harness

    res = cxx_harness.run_cases([statement(c) for c in CASES])
    bad = [(c, r.error) for c, r in zip(CASES, res) if not r.ok]
    if bad:
        raise SystemExit(f"C++ failed on {statement(bad[0][0])}:\n{bad[0][1][:2000]}")
    return [r.output.strip() for r in res]


def read() -> dict[str, str]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            s, p = line.split("\t")
            out[s] = p
    return out


def generate() -> str:
    head = [f"# {x}" if x else "#" for x in (__doc__ or "").strip().splitlines()]
    return "\n".join(head + [f"{statement(c)}\t{p}" for c, p in zip(CASES, run_cxx())]) + "\n"


def _main(argv: Any) -> None:
    FILE.write_text(generate())
    print(f"wrote {FILE}", file=sys.stderr)


if __name__ == "__main__":
    _main(sys.argv)
