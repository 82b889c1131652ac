"""cutepy against C++ CuTe (CUTLASS's headers, compiled with g++): seeded random cases of every
operation, swizzled and negative-stride layouts included, compared print for print.

``CUTEPY_CXX_CASES`` (default 120) cases from ``CUTEPY_CXX_SEED`` run in CI, compiled in a
few translation units and cached by content (tests/cxx/cxx_harness.py); the slow test runs
``CUTEPY_CXX_SLOW_CASES`` (default 3000) more, over the families of the newer C++
functions too (``cxx_cases.generate_all``; tests/algebra/test_cfuncs_cxx.py samples those in CI).
Each case must be ``exact`` (cutepy prints what C++ prints, or both reject it) or
``cxx-wrong`` (C++'s answer breaks the operation's definition, checked point by point, and
cutepy raises AdmissibilityError). "Same function,
other form" counts as a failure: C++'s form is the reference.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from tests.cxx import cxx_cases

CASES = int(os.environ.get("CUTEPY_CXX_CASES", "120"))
SEED = int(os.environ.get("CUTEPY_CXX_SEED", "20261124"))
SLOW_CASES = int(os.environ.get("CUTEPY_CXX_SLOW_CASES", "3000"))


def _report(verdicts: list) -> str:
    bad = [v for v in verdicts if v.kind in ("fail", "other-form")]
    lines = [cxx_cases.table(verdicts)]
    for v in bad[:40]:
        lines.append(f"[{v.kind}] {v.case.op} {v.case.args}\n    cutepy: {v.cutepy}\n    C++:    {v.cxx}\n"
                     f"    {v.case.cxx}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def verdicts(cxx):
    return cxx_cases.run(cxx_cases.generate(CASES, SEED))


def test_every_operation_family_is_drawn(verdicts):
    drawn = {v.case.op.split("(")[0] for v in verdicts}
    for family in ("coalesce", "composition", "complement", "right_inverse", "left_inverse",
                   "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
                   "blocked_product", "raked_product", "tile_to_shape", "upcast", "downcast", "slice"):
        assert family in drawn, f"{family} was not drawn; raise CUTEPY_CXX_CASES"
    assert any(type(v.case.args[0]) is cxx_cases.ComposedLayout for v in verdicts)


def test_cutepy_prints_what_cxx_prints(verdicts, capsys):
    with capsys.disabled():
        print("\n" + cxx_cases.table(verdicts))
    kinds = Counter(v.kind for v in verdicts)
    assert kinds["fail"] == 0 and kinds["other-form"] == 0, _report(verdicts)


@pytest.mark.slow
def test_cutepy_prints_what_cxx_prints_many(cxx, capsys):
    verdicts = cxx_cases.run(cxx_cases.generate_all(SLOW_CASES, SEED + 1))
    with capsys.disabled():
        print("\n" + cxx_cases.table(verdicts))
    kinds = Counter(v.kind for v in verdicts)
    assert kinds["fail"] == 0 and kinds["other-form"] == 0, _report(verdicts)
