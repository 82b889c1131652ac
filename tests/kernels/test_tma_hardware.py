"""cutepy's TMA against a real Hopper GPU (stored: tests/data/tma_hardware.json, made by
tests/kernels/tma_hardware.py on an H200; its header holds the command).

On the GPU, every seeded configuration cutepy builds ran as TMA loads or stores with cutepy's
descriptor, cutepy's per-instruction coordinates and smem addresses, and the bytes that landed
were compared with cutepy's prediction; raw descriptors on either side of each driver rule that
cutepy enforces went to the driver alone. Here the stored verdicts are read, and the stored
cases are planned again with today's cutepy: the same descriptor, instructions and expected
bytes (by hash), so a change that moves a byte is caught without a GPU.
"""

from __future__ import annotations

import json
import random

import pytest

from cutepy import CutepyError
from tests.kernels import tma_hardware as hw
from tests.paths import DATA

STORED = json.loads((DATA / "tma_hardware.json").read_text())
RAN = [r for r in STORED["cases"] if "descriptor" in r]
REFUSED = [r for r in STORED["cases"] if "cutepy_refuses" in r]
SAMPLE = set(random.Random(2611).sample(range(len(RAN)), 40))


def test_the_gpu_put_every_byte_where_cutepy_said() -> None:
    assert "sm_90" in STORED["summary"]["device"]
    assert len(RAN) >= 200
    loads = [r for r in RAN if r["case"]["op"] == "SM90_TMA_LOAD"]
    stores = [r for r in RAN if r["case"]["op"] == "SM90_TMA_STORE"]
    assert len(loads) >= 100 and len(stores) >= 50
    assert {r["descriptor"]["swizzle"] for r in RAN} == {"NONE", "32B", "64B", "128B"}
    assert {r["descriptor"]["rank"] for r in RAN} >= {2, 3, 4, 5}
    wrong = [(r["id"], r["verdict"]) for r in RAN if r["verdict"] != "match"]
    assert not wrong, wrong


def test_the_driver_accepts_exactly_what_cutepys_rules_accept() -> None:
    probes = STORED["probes"]
    assert len(probes) >= 20 and any(p["cutepy_rule_accepts"] for p in probes)
    assert any(not p["cutepy_rule_accepts"] for p in probes)
    wrong = [p["what"] for p in probes if (p["driver_result"] == 0) != p["cutepy_rule_accepts"]]
    assert not wrong, wrong


@pytest.mark.parametrize(
    "row", [pytest.param(r, marks=() if i in SAMPLE else pytest.mark.slow) for i, r in enumerate(RAN)],
    ids=lambda r: str(r["id"]))
def test_cutepy_still_plans_what_the_gpu_checked(row: dict) -> None:
    p = hw.plan(row["case"])
    assert p is not None
    assert hw.descriptor_json(p["desc"]) == row["descriptor"]
    assert (len(p["instr"]), p["hash"]) == (row["instructions"], row["expected_sha1"])


@pytest.mark.parametrize("row", REFUSED[:6], ids=lambda r: str(r["id"]))
def test_cutepy_still_refuses_what_it_refused(row: dict) -> None:
    with pytest.raises(CutepyError) as e:
        hw.plan(row["case"])
    rule = row["cutepy_refuses"].split(":")[1]  # the rule, not its wording of the numbers
    assert rule in str(e.value)
