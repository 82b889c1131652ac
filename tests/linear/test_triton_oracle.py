"""cutepy's linear layouts against Triton 3.9's own (stored answers, no Triton needed).

For seeded random Gluon specs of every family (2-D and 3-D, broadcast shapes, MMA v2 and
v3, k_width, slices, swizzled and NVMMA shared layouts, AMD MFMA), ``from_gluon`` gives
Triton's bases (from the Gluon constructor text as Gluon printed it, and from the dict);
the flags, ``invert`` and ``pseudo_invert`` of those bases equal Triton's; random pairs
compose as Triton composes them; the specs Triton rejects raise ``CutepyError``.
"""

from __future__ import annotations

import collections

import pytest

from cutepy import CutepyError
from cutepy.linear import LinearLayout, from_gluon
from cutepy.linear.spec import FIELDS
from tests.linear.oracle import accepted_cases, oracle, stored_layout

CASES = oracle()["cases"]

def test_the_oracle_covers_every_family_and_says_where_it_came_from():
    prov = oracle()["provenance"]
    assert prov["triton_version"].startswith("3.9") and "triton_oracle.py" in prov["command"]
    fams = collections.Counter(c["family"] for c in accepted_cases())
    assert set(fams) == set(FIELDS)  # every family from_gluon converts
    assert min(fams.values()) >= 25
    assert any(len(c["shape"]) == 3 for c in accepted_cases())
    assert {tuple(c["spec"]["version"]) for c in CASES if c["family"] == "NVMMADistributedLayout"} == {
        (2, 0),
        (3, 0),
    }
    dots = [c["spec"] for c in CASES if c["family"] == "DotOperandLayout"]
    assert {d["k_width"] for d in dots} >= {1, 2, 4, 8}
    assert {d["parent"]["kind"] for d in dots} == {"NVMMADistributedLayout", "AMDMFMALayout"}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['family']}-{c['shape']}")
def test_from_gluon_equals_triton(case):
    if "rejected" in case:
        with pytest.raises(CutepyError):
            from_gluon(case["spec"], case["shape"])
        return
    want = stored_layout(case)
    assert from_gluon(case["spec"], case["shape"]) == want
    assert from_gluon(case["text"], case["shape"]) == want  # Gluon's own printed text


@pytest.mark.parametrize("case", accepted_cases(), ids=lambda c: f"{c['family']}-{c['shape']}")
def test_flags_and_inverses_equal_triton(case):
    L = stored_layout(case)
    flags = {"injective": L.is_injective(), "surjective": L.is_surjective(), "invertible": L.is_invertible()}
    assert flags == case["flags"]
    if "invert" in case:
        assert L.invert() == stored_layout(case["invert"])
    else:
        with pytest.raises(CutepyError, match="not invertible"):
            L.invert()
    if "pseudo_invert" in case:
        P = L.pseudo_invert()
        assert P == stored_layout(case["pseudo_invert"])
    else:
        with pytest.raises(CutepyError, match="not surjective"):
            L.pseudo_invert()


def test_compose_equals_triton():
    for case in oracle()["algebra"]:
        a = LinearLayout(
            {n: b for n, b in case["algebra"]["a"][0]}, [tuple(o) for o in case["algebra"]["a"][1]]
        )
        b = LinearLayout(
            {n: x for n, x in case["algebra"]["b"][0]}, [tuple(o) for o in case["algebra"]["b"][1]]
        )
        assert a.compose(b) == stored_layout(case["compose"])


def test_rejections_name_the_reason():
    rejected = [c for c in CASES if "rejected" in c]
    assert rejected, "the oracle holds specs Triton rejects"
    for c in rejected:
        with pytest.raises(CutepyError, match="TMA|needs|expected|not supported"):
            from_gluon(c["spec"], c["shape"])
