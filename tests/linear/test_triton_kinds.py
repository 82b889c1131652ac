"""The Gluon layout kinds Triton 3.9 added, its two text views and ``invert_and_compose``,
against Triton's own answers (stored; no Triton needed).

``tests/data/triton_linear_layouts_kinds.json`` (``benchmarks/triton_oracle_kinds.py``, Triton
3.9 on the CPU) holds seeded random specs of ``TensorMemoryLayout``, ``TensorMemoryScalesLayout``
(Blackwell's and Rubin's), ``AMDWMMALayout`` v1-v3, ``PartitionedSharedLayout``,
``DistributedLinearLayout``, ``SharedLinearLayout`` with Triton's bases, the specs Triton refuses
(``PaddedSharedLayout``, ``CoalescedLayout`` and ``AutoLayout`` always: it has no linear layout
for them), Triton's tensor and hardware views of small layouts of every family, and
``invert_and_compose`` of random pairs.
"""

from __future__ import annotations

import collections
import json
from functools import cache

import pytest

from cutepy import CutepyError, Layout
from cutepy.linear import LinearLayout, from_gluon, padded_shared
from cutepy.linear.spec import ADDED_KINDS
from cutepy.viz import get_distributed_view, get_shared_view
from tests.paths import DATA

KINDS = DATA / "triton_linear_layouts_kinds.json"


@cache
def oracle() -> dict:
    with open(KINDS) as f:
        return json.load(f)


def stored(entry: dict) -> LinearLayout:
    return LinearLayout({n: b for n, b in entry["bases"]}, [tuple(o) for o in entry["out_dims"]])


def _id(c: dict) -> str:
    return f"{c['family']}-{c['shape']}"


SPECS = [c for c in oracle()["cases"] if not c.get("view")]
VIEWS = [c for c in oracle()["cases"] if "tensor_view" in c]


def test_the_oracle_covers_every_added_kind_and_says_where_it_came_from():
    prov = oracle()["provenance"]
    assert prov["triton_version"].startswith("3.9")
    assert "benchmarks/triton_oracle_kinds.py --seed" in prov["command"]
    accepted = collections.Counter(c["family"] for c in SPECS if "rejected" not in c)
    refused = collections.Counter(c["family"] for c in SPECS if "rejected" in c)
    assert set(accepted) | set(refused) == set(ADDED_KINDS)
    for kind in ("TensorMemoryLayout", "TensorMemoryScalesLayout", "AMDWMMALayout", "PartitionedSharedLayout",
                 "DistributedLinearLayout", "SharedLinearLayout"):
        assert accepted[kind] >= 20, kind
    assert set(refused) >= {"PaddedSharedLayout", "CoalescedLayout", "AutoLayout", "AMDWMMALayout"}
    wmma = [c["spec"] for c in SPECS if c["family"] == "AMDWMMALayout" and "rejected" not in c]
    assert {w["version"] for w in wmma} == {1, 2, 3} and {w["transposed"] for w in wmma} == {False, True}
    tmem = [c["spec"] for c in SPECS if c["family"] == "TensorMemoryLayout" and "rejected" not in c]
    assert {t["block"][0] for t in tmem} == {64, 128} and any(t["two_ctas"] for t in tmem)
    assert len(VIEWS) >= 30 and {len(c["shape"]) for c in VIEWS} >= {1, 2, 3}
    assert any(c["bases"][-1][1] for c in VIEWS)  # layouts over several blocks too


@pytest.mark.parametrize("case", SPECS, ids=_id)
def test_from_gluon_equals_triton_on_the_added_kinds(case):
    if "rejected" in case:
        with pytest.raises(CutepyError, match="Triton|expected|needs|must|larger|smaller|rank"):
            from_gluon(case["spec"], case["shape"])
        return
    want = stored(case)
    got = from_gluon(case["spec"], case["shape"])
    assert from_gluon(case["text"], case["shape"]) == got  # Gluon's printed text reads the same
    if case["family"] != "PartitionedSharedLayout":
        assert got == want
        return
    # Triton's Python object keeps the offset and block bases; the partition input is cutepy's too:
    # offsets, partitions and blocks together reach every element of the tensor
    assert got.bases["offset"] == want.bases["offset"] and got.bases["block"] == want.bases["block"]
    assert got.out_dims == want.out_dims and got.is_surjective()


@pytest.mark.parametrize("case", VIEWS, ids=_id)
def test_text_views_equal_triton(case):
    L = stored(case)
    view = get_shared_view if "offset" in L.in_dims else get_distributed_view
    assert view(L) == case["tensor_view"]
    assert view(L, True) == case["hardware_view"]


def test_invert_and_compose_equals_triton():
    def mk(pair):
        return LinearLayout({n: b for n, b in pair[0]}, [tuple(o) for o in pair[1]])

    cases = oracle()["invert_and_compose"]
    assert len(cases) >= 40
    for c in cases:
        this, outer = mk(c["invert_and_compose"]["this"]), mk(c["invert_and_compose"]["outer"])
        got = this.invert_and_compose(outer)
        assert got == stored(c["result"])
        # the law: outer(C(x)) == this(x) for every input of this
        for name, size in this.in_dims.items():
            for x in range(size):
                assert outer(**dict(zip(got.out_dims, got(**{name: x})))) == this(**{name: x})


def test_padded_shared_layout_places_elements_as_tritons_docstring_says():
    """Triton's ``PaddedSharedLayout`` docstring lays out shape [8, 4], interval-padding [[8, 1]]
    and offset bases [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]] as rows x0, x2, p, x4, x6, p, x1,
    x3, p, x5, x7 (four elements each, one padding element after every eight)."""
    p = padded_shared({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[8, 1]],
                       "offset_bases": [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], "cga_layout": [],
                       "shape": [8, 4]})
    memory = []
    for x in (0, 2, None, 4, 6, None, 1, 3, None, 5, 7):
        memory += ["p"] if x is None else [(x, y) for y in range(4)]
    inv = {p.linear(offset=o): o for o in range(32)}
    for addr, what in enumerate(memory):
        if what != "p":
            assert p.padding(inv[what]) == addr
    with pytest.raises(CutepyError, match="no linear layout"):
        from_gluon({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[8, 1]],
                    "offset_bases": [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], "shape": [8, 4]}, [8, 4])
    # several pairs add up: the padding is a CuTe layout over the offset's bits
    q = padded_shared({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[2, 1], [4, 2]],
                       "offset_bases": [[1], [2], [4]], "shape": [8]})
    assert [q.padding(o) for o in range(8)] == [o + o // 2 + 2 * (o // 4) for o in range(8)]
    assert isinstance(q.padding, Layout)


@pytest.mark.parametrize("spec, word", [
    ({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[3, 1]], "offset_bases": [[1]], "shape": [2]},
     "interval_padding_pairs"),
    ({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[2, 1], [2, 2]], "offset_bases": [[1]],
      "shape": [2]}, "distinct"),
    ({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[2, 1]], "offset_bases": [[4]], "shape": [2]},
     "offset_bases"),
    ({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 1, "order": [0]},
     "not a Padded"),
])
def test_padded_shared_refuses_bad_specs_naming_the_field(spec, word):
    with pytest.raises(CutepyError, match=word):
        padded_shared(spec)


@pytest.mark.parametrize("spec, shape, word", [
    ({"kind": "TensorMemoryLayout", "block": [32, 64], "col_stride": 1}, [128, 64], "rows must be 64 or 128"),
    ({"kind": "TensorMemoryLayout", "block": [128, 64], "col_stride": 3}, [128, 64], "col_stride"),
    ({"kind": "TensorMemoryLayout", "block": [128, 64], "col_stride": 1}, [64, 64], "larger than"),
    ({"kind": "TensorMemoryLayout", "block": [128], "col_stride": 1}, [128, 64], "block"),
    ({"kind": "TensorMemoryScalesLayout", "block_rep_order": "kFirst"}, [128, 4], "block_rep_order"),
    ({"kind": "AMDWMMALayout", "version": 4, "transposed": False, "warp_bases": []}, [16, 16], "version"),
    ({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [[0, 1]],
      "reg_bases": [[0, 1]]}, [16, 64], "permutation"),
    ({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [[1]]}, [16, 16],
     "warp_bases"),
    ({"kind": "PartitionedSharedLayout", "num_partitions": 1, "num_groups": 1, "partition_dim": 0,
      "partition_layout": {"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 1,
                           "order": [1, 0]}}, [8, 8], "num_partitions"),
    ({"kind": "PartitionedSharedLayout", "num_partitions": 2, "num_groups": 1, "partition_dim": 2,
      "partition_layout": {"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 1,
                           "order": [1, 0]}}, [8, 8], "partition_dim"),
    ({"kind": "DistributedLinearLayout", "reg_bases": [], "lane_bases": [[1, 1]], "warp_bases": [],
      "block_bases": [], "shape": [2, 2]}, [2, 2], "one dim"),
    ({"kind": "DistributedLinearLayout", "reg_bases": [], "lane_bases": [[1, 0]], "warp_bases": [],
      "block_bases": [], "shape": [2, 2]}, [2, 2], "surjective"),
    ({"kind": "SharedLinearLayout", "offset_bases": [], "block_bases": []}, [2], "must not be empty"),
    ({"kind": "CoalescedLayout"}, [32, 32], "placeholder"),
])
def test_the_added_kinds_refuse_bad_specs_naming_the_field(spec, shape, word):
    with pytest.raises(CutepyError, match=word):
        from_gluon(spec, shape)


def test_views_and_invert_and_compose_refuse_bad_input():
    shared = LinearLayout({"offset": [[1]], "block": []}, [("dim0", 2)])
    with pytest.raises(CutepyError, match="inputs"):
        get_distributed_view(shared)
    with pytest.raises(CutepyError, match="LinearLayout"):
        get_shared_view("offset")
    with pytest.raises(CutepyError, match="outer"):
        shared.invert_and_compose(Layout(2))
    with pytest.raises(CutepyError, match="surjective"):
        shared.invert_and_compose(LinearLayout({"lane": [[0]]}, [("dim0", 2)]))


def test_the_added_kinds_go_to_cute_and_back_where_cute_can_express_them():
    """WMMA and explicit distributed layouts are TV layouts; explicit shared ones are coordinate ->
    offset layouts, swizzled or refused when their XORs are no CuTe swizzle; tensor memory and
    partitioned layouts (other inputs) are refused, saying which inputs CuTe takes."""
    from cutepy.linear import from_cute, to_cute

    back = collections.Counter()
    for c in SPECS:
        if "rejected" in c:
            continue
        L = from_gluon(c["spec"], c["shape"])
        fam = c["family"]
        if fam in ("TensorMemoryLayout", "TensorMemoryScalesLayout", "PartitionedSharedLayout"):
            with pytest.raises(CutepyError, match="input dims"):
                to_cute(L)
            continue
        kind = "shared" if "offset" in L.in_dims else "distributed"
        try:
            C = to_cute(L)
        except CutepyError as e:
            assert fam == "SharedLinearLayout" and "no CuTe swizzle" in str(e)
            back[(fam, "refused")] += 1
            continue
        assert from_cute(C, kind, shape=c["shape"]) == L
        back[(fam, "round trip")] += 1
    for fam in ("AMDWMMALayout", "DistributedLinearLayout", "SharedLinearLayout"):
        assert back[(fam, "round trip")] >= 20, fam


@pytest.mark.slow
def test_live_triton_on_more_specs_of_the_added_kinds(tmp_path):
    """Triton itself (where its venv exists; ``CUTEPY_TRITON_PYTHON`` names one) on a new seed:
    every spec of the added kinds equal or refused by both, every view and invert_and_compose equal."""
    import os
    import subprocess
    from pathlib import Path

    from tests.paths import ROOT

    exe = os.environ.get("CUTEPY_TRITON_PYTHON", "/work/venvs/triton/bin/python")
    if not Path(exe).exists():
        pytest.skip("no Python with Triton 3.9 (set CUTEPY_TRITON_PYTHON; see "
                    "benchmarks/triton_oracle_kinds.py)")
    out = tmp_path / "kinds.json"
    cmd = [exe, "benchmarks/triton_oracle_kinds.py", "--seed", "32", "--per-family", "40", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, timeout=3000)
    data = json.loads(out.read_text())
    for c in data["cases"]:
        if c.get("view"):
            if "tensor_view" in c:
                L = stored(c)
                view = get_shared_view if "offset" in L.in_dims else get_distributed_view
                assert (view(L), view(L, True)) == (c["tensor_view"], c["hardware_view"])
            continue
        if "rejected" in c:
            with pytest.raises(CutepyError):
                from_gluon(c["spec"], c["shape"])
            continue
        got = from_gluon(c["spec"], c["shape"])
        want = stored(c)
        if c["family"] == "PartitionedSharedLayout":
            assert got.bases["offset"] == want.bases["offset"] and got.bases["block"] == want.bases["block"]
        else:
            assert got == want, c
    for c in data["invert_and_compose"]:
        this = LinearLayout({n: b for n, b in c["invert_and_compose"]["this"][0]},
                            [tuple(o) for o in c["invert_and_compose"]["this"][1]])
        outer = LinearLayout({n: b for n, b in c["invert_and_compose"]["outer"][0]},
                             [tuple(o) for o in c["invert_and_compose"]["outer"][1]])
        assert this.invert_and_compose(outer) == stored(c["result"])
