"""cutepy against C++ CuTe: seeded random cases of every operation, swizzled and
negative-stride layouts included, compared print for print.

The reference is CUTLASS 4.7.0. Its prints for the seeded samples of
tests/cxx/cxx47_prints.py (the CI sample of 120 cases and two samples of 3000 over every
family, ``cxx_cases.generate_all``) are stored in ``tests/data/cxx47_prints.tsv``:
``test_cutepy_prints_what_cxx47_prints`` compares against them without a compiler.

The live tests compile ``CUTEPY_CXX_CASES`` (default 120) cases from ``CUTEPY_CXX_SEED``
(and, marked slow, ``CUTEPY_CXX_SLOW_CASES``, default 3000, from the next seed) against the
installed headers (tests/cxx/cxx_harness.py: the pip wheels, CUTLASS 4.2, or
``CUTEPY_CXX_INCLUDE``). Where the installed headers print otherwise than 4.7 did for a
stored case, 4.7 wins: the stored print is the reference and the difference is listed.

Each case must be ``exact`` (cutepy prints what C++ prints, or both reject it) or
``cxx-wrong`` (C++'s answer breaks the operation's definition, checked point by point, and
cutepy raises AdmissibilityError). "Same function, other form" counts as a failure: C++'s
form is the reference.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from tests.cxx import cxx47_prints, cxx_cases

CASES = int(os.environ.get("CUTEPY_CXX_CASES", "120"))
SEED = int(os.environ.get("CUTEPY_CXX_SEED", str(cxx47_prints.CI_SEED)))
SLOW_CASES = int(os.environ.get("CUTEPY_CXX_SLOW_CASES", "3000"))


def _report(verdicts: list) -> str:
    bad = [v for v in verdicts if v.kind in ("fail", "other-form")]
    lines = [cxx_cases.table(verdicts)]
    for v in bad[:40]:
        lines.append(f"[{v.kind}] {v.case.op} {v.case.args}\n    cutepy: {v.cutepy}\n    C++:    {v.cxx}\n"
                     f"    {v.case.cxx}")
    return "\n".join(lines)


def _check(verdicts: list, capsys, title: str) -> None:
    with capsys.disabled():
        print(f"\n{title}\n" + cxx_cases.table(verdicts))
    kinds = Counter(v.kind for v in verdicts)
    assert kinds["fail"] == 0 and kinds["other-form"] == 0, _report(verdicts)


def _live(cases: list, capsys) -> list:
    """Classify against the installed headers; where a stored 4.7 print differs, 4.7 wins."""
    from tests.cxx import cxx_harness

    live = cxx_cases.compile_cases(cases)
    stored = cxx47_prints.lookup(cases)
    results, differ = [], []
    for case, now, then in zip(cases, live, stored):
        if then is not None and (now.ok, now.output) != (then.ok, then.output):
            differ.append(f"  {case.cxx}\n    installed: {now.output if now.ok else 'rejects'}\n"
                          f"    4.7.0:     {then.output if then.ok else 'rejects'}")
            now = then
        results.append(now)
    if differ:
        with capsys.disabled():
            print(f"\nCUTLASS {cxx_harness.cutlass_version()} (installed) and 4.7.0 (stored) differ on "
                  f"{len(differ)} case(s); 4.7.0 wins:\n" + "\n".join(differ))
    return [cxx_cases.classify(c, r) for c, r in zip(cases, results)]


@pytest.mark.parametrize("sample", cxx47_prints.SAMPLES, ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
def test_cutepy_prints_what_cxx47_prints(sample, capsys):
    cases = cxx47_prints.sample(*sample)
    stored = cxx47_prints.lookup(cases)
    missing = [c.cxx for c, r in zip(cases, stored) if r is None]
    assert not missing, (f"{len(missing)} statement(s) not in {cxx47_prints.STORE.name} (the cases "
                         f"changed): regenerate it (python -m tests.cxx.cxx47_prints); first: {missing[0]}")
    verdicts = [cxx_cases.classify(c, r) for c, r in zip(cases, stored)]
    _check(verdicts, capsys, f"against CUTLASS 4.7.0's stored prints: {sample}")


def test_every_operation_family_is_drawn():
    drawn = {c.op.split("(")[0] for c in cxx_cases.generate(CASES, SEED)}
    for family in ("coalesce", "composition", "complement", "right_inverse", "left_inverse",
                   "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
                   "blocked_product", "raked_product", "tile_to_shape", "upcast", "downcast", "slice"):
        assert family in drawn, f"{family} was not drawn; raise CUTEPY_CXX_CASES"
    assert any(type(c.args[0]) is cxx_cases.ComposedLayout for c in cxx_cases.generate(CASES, SEED))


def test_cutepy_prints_what_cxx_prints(cxx, capsys):
    _check(_live(cxx_cases.generate(CASES, SEED), capsys), capsys, "against the installed headers")


@pytest.mark.slow
def test_cutepy_prints_what_cxx_prints_many(cxx, capsys):
    _check(_live(cxx_cases.generate_all(SLOW_CASES, SEED + 1), capsys), capsys,
           "against the installed headers (slow sample)")
