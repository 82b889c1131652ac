"""cutepy's linear layouts against Triton 3.9's own (stored answers, no Triton needed).

For seeded random Gluon specs of every family (2-D and 3-D, broadcast shapes, MMA v2 and
v3, k_width, slices, swizzled and NVMMA shared layouts, AMD MFMA), and for the families the
first sample held thinly (NVMMA shared layouts transposed without swizzle at rank > 2,
fp4-padded, swizzled at rank 3-4; slices of rank-3 parents; transposed AMD MFMA layouts and
their dot operands), ``from_gluon`` gives Triton's bases (from the Gluon constructor text as
Gluon printed it, and from the dict); the flags, ``invert`` and ``pseudo_invert`` of those
bases equal Triton's; random pairs compose as Triton composes them; the specs Triton rejects
raise ``CutepyError``. A slow test runs Triton itself (where its venv exists) on more specs.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
from pathlib import Path

import pytest

from cutepy import CutepyError
from cutepy.linear import LinearLayout, from_gluon
from cutepy.linear.layout import empty, identity1d, times
from cutepy.linear.spec import ADDED_KINDS, FIELDS
from tests.linear.oracle import accepted_cases, all_cases, focus, oracle, stored_layout
from tests.paths import ROOT

CASES = all_cases()
#: the focused families of benchmarks/triton_oracle.py (FOCUS there)
FOCUS_FAMILIES = {
    "nvmma_unswizzled_transposed",
    "nvmma_fp4_padded",
    "nvmma_swizzled_rank3",
    "slice_of_rank3",
    "mfma_transposed",
}


def _case_id(c: dict) -> str:
    return f"{c.get('focus', c['family'])}-{c['shape']}"


def test_the_oracle_covers_every_family_and_says_where_it_came_from():
    for data, flag in ((oracle(), ""), (focus(), "--focus ")):
        prov = data["provenance"]
        assert prov["triton_version"].startswith("3.9")
        assert f"benchmarks/triton_oracle.py {flag}--seed" in prov["command"]
    fams = collections.Counter(c["family"] for c in accepted_cases())
    # every family from_gluon converts: these files hold the first ones, test_triton_kinds the rest
    assert set(fams) == set(FIELDS) - set(ADDED_KINDS)
    assert min(fams.values()) >= 25
    assert any(len(c["shape"]) == 3 for c in accepted_cases())
    assert {tuple(c["spec"]["version"]) for c in CASES if c["family"] == "NVMMADistributedLayout"} == {
        (2, 0),
        (3, 0),
    }
    dots = [c["spec"] for c in CASES if c["family"] == "DotOperandLayout"]
    assert {d["k_width"] for d in dots} >= {1, 2, 4, 8}
    assert {d["parent"]["kind"] for d in dots} == {"NVMMADistributedLayout", "AMDMFMALayout"}
    focused = collections.Counter(c["focus"] for c in accepted_cases() if "focus" in c)
    assert focused.pop("nvmma_unswizzled_large") == 6  # fixed boundary specs (LARGE_UNSWIZZLED there)
    assert set(focused) == FOCUS_FAMILIES and min(focused.values()) >= 25
    assert sum("no_inverses" in c for c in accepted_cases()) >= 1  # beyond Triton's int32 inverses
    # the corner the first sample refused: transposed, unswizzled, rank > 2, on 3-D and 4-D shapes
    corner = [
        c
        for c in accepted_cases()
        if c["family"] == "NVMMASharedLayout"
        and c["spec"]["transposed"]
        and not c["spec"]["swizzle_byte_width"]
        and c["spec"]["rank"] > 2
    ]
    assert len(corner) >= 30 and {len(c["shape"]) for c in corner} == {3, 4}


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_from_gluon_equals_triton(case):
    if "rejected" in case:
        with pytest.raises(CutepyError):
            from_gluon(case["spec"], case["shape"])
        return
    want = stored_layout(case)
    assert from_gluon(case["spec"], case["shape"]) == want
    assert from_gluon(case["text"], case["shape"]) == want  # Gluon's own printed text


@pytest.mark.parametrize("case", accepted_cases(), ids=_case_id)
def test_flags_and_inverses_equal_triton(case):
    L = stored_layout(case)
    flags = {"injective": L.is_injective(), "surjective": L.is_surjective(), "invertible": L.is_invertible()}
    assert flags == case["flags"]
    if "no_inverses" in case:  # Triton's int32 bases cannot hold them: check the law instead
        if L.is_surjective():
            P = L.pseudo_invert()
            assert P.compose(L) == _identity_on_outputs(L)
        return
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


def _identity_on_outputs(L: LinearLayout) -> LinearLayout:
    ident = empty()
    for name, size in L.out_dims.items():
        ident = times(ident, identity1d(size, name, name))
    return ident


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
        with pytest.raises(CutepyError, match="TMA|needs|expected|not supported|rank"):
            from_gluon(c["spec"], c["shape"])


def _triton_python() -> str | None:
    exe = os.environ.get("CUTEPY_TRITON_PYTHON", "/work/venvs/triton/bin/python")
    return exe if Path(exe).exists() else None


@pytest.mark.slow
def test_live_triton_on_more_focused_specs(tmp_path):
    """Triton itself on 100 more specs of each focused family (a new seed): cutepy equals it or
    both refuse; never a difference. ``CUTEPY_TRITON_PYTHON`` names a Python with Triton 3.9."""
    exe = _triton_python()
    if exe is None:
        pytest.skip("no Python with Triton 3.9 (set CUTEPY_TRITON_PYTHON; see benchmarks/triton_oracle.py)")
    out = tmp_path / "focus.json"
    subprocess.run(
        [exe, "benchmarks/triton_oracle.py", "--focus", "--seed", "24", "--per-family", "100"]
        + ["--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=1200,
    )
    counts: collections.Counter = collections.Counter()
    for case in json.loads(out.read_text())["cases"]:
        if "rejected" in case:
            with pytest.raises(CutepyError):
                from_gluon(case["spec"], case["shape"])
            counts[(case["focus"], "both refuse")] += 1
            continue
        assert from_gluon(case["spec"], case["shape"]) == stored_layout(case), case
        counts[(case["focus"], "equal")] += 1
    by_family: collections.Counter = collections.Counter()
    for (family, _), n in counts.items():
        by_family[family] += n
    # 100 of each focused family, and the 6 unswizzled layouts past the TMA box that
    # benchmarks/triton_oracle.py's focus_specs always adds (LARGE_UNSWIZZLED)
    assert by_family.pop("nvmma_unswizzled_large") == 6
    assert len(by_family) == 5 and set(by_family.values()) == {100}, by_family
