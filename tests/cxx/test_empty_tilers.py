"""Empty tilers against C++ CuTe: ``()`` (an empty by-mode tiler) and ``():()`` (the empty
layout). C++ answers some forms (an empty tile mode) and builds nothing for others; cutepy
prints what C++ prints, or raises CutepyError where C++ does not compile."""

from __future__ import annotations

import pytest

import cutepy as cp
from tests.cxx import cxx_cases

OPS = ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
       "logical_product", "zipped_product", "tiled_product", "flat_product")
A = cp.Layout((4, 5))
A_CXX = "make_layout(make_shape(_4{},_5{}))"
TILERS = {"()": ((), "make_tile()"), "():()": (cp.Layout((), ()), "make_layout(make_shape(), make_stride())")}
CASES = [(op, t) for op in OPS for t in TILERS]


@pytest.fixture(scope="module")
def verdicts(cxx):
    cases = []
    for op, t in CASES:
        tiler, tiler_cxx = TILERS[t]
        fn = getattr(cp, op)
        cases.append(cxx_cases.Case(op, (A, tiler), lambda fn=fn, tiler=tiler: fn(A, tiler),
                                    f"print({op}({A_CXX}, {tiler_cxx}));"))
    return dict(zip(CASES, cxx_cases.run(cases)))


@pytest.mark.parametrize("op, tiler", CASES)
def test_empty_tilers_as_cxx(verdicts, op, tiler):
    v = verdicts[(op, tiler)]
    assert v.kind == "exact", f"cutepy: {v.cutepy}  C++: {v.cxx}"
