"""Global-memory coalescing, costed by cutepy, against Nsight Compute on an H200
(tests/data/gmem_coalescing_h200.json; the probe program and its commands are in
tests/kernels/coalescing_hardware.py).

Each stored probe is one kernel that replayed the lane byte addresses cutepy gave; ncu counted
the 32-byte sectors and the requests (warp instructions) of its global loads or stores. Here
cutepy recomputes each probe from its public API (``gmem_access``, ``coalescing``,
``analyze_gmem_copy``), must still give the addresses the GPU replayed, and must count what
ncu counted.
"""

from __future__ import annotations

import json
import random

import pytest

from cutepy import gmem_access
from tests.kernels import coalescing_hardware as hw
from tests.paths import DATA

STORED = json.loads((DATA / "gmem_coalescing_h200.json").read_text())
PROBES = STORED["probes"]


def _recomputed() -> dict:
    """Every probe as cutepy builds it today, keyed as stored (kind, name, op, width)."""
    return {(p["kind"], p["name"], p["op"], p["width"]): p for p in hw.probes(3411)}


TODAY = _recomputed()


@pytest.mark.parametrize("probe", PROBES, ids=lambda p: f"{p['kind']}-{p['op']}{p['width']}-{p['name']}")
def test_cutepy_counts_what_ncu_counted(probe: dict) -> None:
    now = TODAY[(probe["kind"], probe["name"], probe["op"], probe["width"])]
    assert now["instructions"] == probe["instructions"], "cutepy's addresses changed: re-measure"
    assert now["cutepy"] == {"sectors": probe["ncu"]["sectors"], "requests": probe["ncu"]["requests"]}
    assert probe["ncu"]["other_op_sectors"] == 0


def test_the_probes_cover_every_width_op_and_kind() -> None:
    assert {(p["op"], p["width"]) for p in PROBES} == {(o, w) for o in ("ld", "st") for w in (1, 2, 4, 8, 16)}
    assert {p["kind"] for p in PROBES} == {"gmem_access", "coalescing", "analyze_gmem_copy"}
    per_request = {p["ncu"]["sectors"] // p["ncu"]["requests"] for p in PROBES if p["kind"] == "gmem_access"}
    assert {1, 4, 16, 32} <= per_request      # from fully coalesced to one sector per lane


def test_a_random_warp_access_matches_its_measured_twin() -> None:
    """Addresses drawn anew (not those measured) cost the same as the measured probe they
    shift by whole lines: the rule depends on addresses modulo 128 bytes and their distinctness."""
    rng = random.Random(7)
    for p in rng.sample([p for p in PROBES if p["kind"] == "gmem_access"], 40):
        shift = 128 * rng.randrange(1, 1 << 20)
        moved = [a + shift if a >= 0 else -1 for a in p["addresses"]]
        r = gmem_access(moved, access_bytes=p["width"], op=p["op"])
        assert (r.sectors, r.requests) == (p["ncu"]["sectors"], p["ncu"]["requests"])
