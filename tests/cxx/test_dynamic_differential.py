"""cutepy against C++ CuTe with run-time integers (issue 21 item 9): random leaves are ``int``
instead of ``Int<N>`` and the exact print, underscores included, is compared.

The reference is CUTLASS 4.7.0's prints, stored in tests/data/cxx47_dynamic_prints.tsv by
``python -m tests.cxx.dyn_cases`` (see that module). Each stored case is one of: ``exact``
(same print, or both reject), ``cxx-rejects`` (C++ static_asserts where cutepy computes: a
dynamic-stride complement of rank > 1, a left inverse of dynamic strides, ...), or
``cutepy-rejects`` (cutepy refuses an inadmissible composition or a negative-stride complement
that C++ computes without checking run-time values). A print that differs is a failure,
except the cases listed in KNOWN_DIFFERENT with the reason.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.cxx import dyn_cases

#: C++ statements (keys) whose print cutepy does not match yet, with the reason
KNOWN_DIFFERENT: dict[str, str] = {}
#: exact cases per sample when this was written: fewer is a regression
MIN_EXACT = {dyn_cases.SAMPLES[0]: 94, dyn_cases.SAMPLES[1]: 228}


@pytest.mark.parametrize("sample", dyn_cases.SAMPLES[:1], ids=lambda s: f"{s[0]}-{s[1]}")
def test_dynamic_prints_match_cxx47(sample, capsys):
    _check(sample, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("sample", dyn_cases.SAMPLES[1:], ids=lambda s: f"{s[0]}-{s[1]}")
def test_dynamic_prints_match_cxx47_large(sample, capsys):
    _check(sample, capsys)


def _check(sample, capsys) -> None:
    from tests.cxx.cxx47_prints import key

    cases = dyn_cases.generate(*sample)
    stored = dyn_cases.lookup(cases)
    missing = [c.cxx for c, r in zip(cases, stored) if r is None]
    assert not missing, f"{len(missing)} case(s) not stored: regenerate (python -m tests.cxx.dyn_cases)"
    vs = dyn_cases.verdicts(cases, stored)
    with capsys.disabled():
        print(f"\nagainst CUTLASS 4.7.0 with run-time ints, sample {sample}:\n" + dyn_cases.table(vs))
    bad = [(c, m, x) for c, k, m, x in vs if k == "differs" and key(c.cxx) not in KNOWN_DIFFERENT]
    assert not bad, "\n".join(f"{c.cxx}\n  cutepy: {m}\n  C++:    {x}" for c, m, x in bad[:20])
    kinds = Counter(k for _, k, _, _ in vs)
    assert kinds["exact"] >= MIN_EXACT[sample], kinds
