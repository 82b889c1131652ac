"""cutepy's SM90 GMMA designs on a real Hopper GPU (stored: tests/data/gmma_hardware.json, made
by tests/kernels/gmma_hardware.py on an H200; its summary holds the command).

On the GPU, A and B were written to shared memory at the byte addresses of cutepy's GMMA smem
layouts, ``wgmma.mma_async`` ran on cutepy's descriptor fragments, and every thread's
accumulator register was read as the element cutepy's ``partition_C`` assigns to it: each
configuration's result equalled ``A @ B.T`` exactly. Here the verdicts are read and the stored
configurations are planned again with today's cutepy (same addresses, descriptor words and
accumulator map, by digest), so a change that would break a GMMA kernel is caught without a GPU.
"""

from __future__ import annotations

import json

import pytest

from tests.kernels import gmma_hardware as hw
from tests.paths import DATA

STORED = json.loads((DATA / "gmma_hardware.json").read_text())
CASES = STORED["cases"]


def test_every_gmma_design_gave_a_times_b_on_the_gpu() -> None:
    assert "sm_90" in STORED["summary"]["device"]
    configs = [c["config"] for c in CASES]
    assert {c["dtype"] for c in configs} == set(hw.TYPES)
    assert {c["sw_a"] for c in configs} == {c["sw_b"] for c in configs} == {0, 32, 64, 128}
    majors = {(c["major_a"], c["major_b"]) for c in configs}
    assert majors == {("K", "K"), ("K", "MN"), ("MN", "K"), ("MN", "MN")}
    assert {c["n"] for c in configs} == {64, 128, 256}
    wrong = [(c["id"], c["atom"], c["verdict"]) for c in CASES if c["verdict"] != "match"]
    assert not wrong, wrong


@pytest.mark.parametrize("case", CASES[:8] + [pytest.param(c, marks=pytest.mark.slow) for c in CASES[8:]],
                         ids=lambda c: f"{c['id']}-{c['atom']}")
def test_cutepy_still_plans_what_the_gpu_checked(case: dict) -> None:
    p = hw.plan(case["config"])
    assert hw.atom_name(case["config"]) == case["atom"]
    assert [[hex(a), hex(b)] for a, b in p["descs"]] == case["descriptors"]
    assert (p["K"], p["regs"], hw.digest(p)) == (case["K"], case["registers"], case["plan_sha1"])
