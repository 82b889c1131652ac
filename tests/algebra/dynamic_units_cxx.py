"""Run-time 1s and 0s are kept, as C++ keeps them (issue 33, item 7): a layout whose size-1 mode
or zero stride is a run-time ``int`` can give another function than the all-static one, in C++
CuTe 4.7 exactly as in cutepy. CUTLASS 4.7's prints of the cases are stored in
tests/data/dynamic_units_cxx47.tsv (statement, tab, print); regenerate with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 \\
        PYTHONPATH=$PWD python -m tests.algebra.dynamic_units_cxx
"""

from __future__ import annotations

import sys

import cutepy as cp
from cutepy import Layout, dynamic
from tests.cxx.dyn_cases import cxd
from tests.paths import DATA

FILE = DATA / "dynamic_units_cxx47.tsv"
d = dynamic

#: (operation, argument): each with its all-static twin
CASES: tuple = tuple(
    (op, A)
    for pair in ((Layout(d(1), 6), Layout(1, 6)), (Layout((2, d(1)), (1, 4)), Layout((2, 1), (1, 4))),
                 (Layout((4, 2), (1, d(0))), Layout((4, 2), (1, 0))),
                 (Layout((d(1), 4), (8, 1)), Layout((1, 4), (8, 1))))
    for A in pair
    for op in ("complement", "coalesce", "filter", "right_inverse")
)


def statement(case: tuple) -> str:
    op, A = case
    return f"print({op}({cxd(A)}));"


def cutepy_print(case: tuple) -> str:
    op, A = case
    try:
        return format(getattr(cp, op)(A), "cxx")
    except cp.CutepyError:
        return "rejected"


def read() -> dict[str, str]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            s, p = line.split("\t")
            out[s] = p
    return out


def main() -> int:
    from tests.cxx import cxx_harness

    # the cases cutepy refuses compile apart, so that the others compile in one go
    res = cxx_harness.run_cases([statement(c) for c in CASES],
                                keys=[cutepy_print(c) == "rejected" for c in CASES])
    head = [f"# {x}" if x else "#" for x in (__doc__ or "").strip().splitlines()]
    head.append("# ('rejected': C++ does not compile the statement)")
    rows = [f"{statement(c)}\t{r.output.strip() if r.ok else 'rejected'}" for c, r in zip(CASES, res)]
    FILE.write_text("\n".join(head + rows) + "\n")
    print(f"wrote {len(rows)} cases to {FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
