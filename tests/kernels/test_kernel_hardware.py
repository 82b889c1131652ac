"""Whole GEMM kernels designed in cutepy ran on a GPU (stored: tests/data/kernel_hardware.json,
made by tests/kernels/kernel_hardware.py on an H200 with CUTLASS 4.7's tutorial kernel).

Every sound design's C equalled the CPU's product (sgemm_sm80's kernel with SM80 designs,
hopper/wgmma_sm90's with GMMA designs); the broken control (aliasing smem) was wrong
on the GPU, and cutepy's own simulation refuses it, naming the threads that collide. Here the
verdicts are read and each design is emitted again: the C++ that ran is what cutepy writes today.
"""

from __future__ import annotations

import json

import pytest

from cutepy.emit.cpp import cpp
from cutepy.kernels.simulate import SimulationError
from tests.kernels import kernel_hardware as hw
from tests.paths import DATA

STORED = json.loads((DATA / "kernel_hardware.json").read_text())
DESIGNS = hw.designs()
SM90 = hw.designs_sm90()


def _broken(d) -> bool:
    return "must fail" in d["name"]


def test_sound_designs_computed_a_times_b_on_the_gpu_and_the_broken_one_did_not() -> None:
    assert "sm_90" in STORED["device"]
    assert [r["name"] for r in STORED["designs"]] == [d["name"] for d in DESIGNS]
    for r in STORED["designs"]:
        wrong = int(r["verdict"].split(" wrong ")[1].split()[0])
        assert (wrong > 0) == _broken(r), r


def test_sm90_designs_computed_a_times_b_on_the_gpu() -> None:
    """hopper/wgmma_sm90's kernel on cutepy's GMMA smem layouts (every swizzle atom, K- and
    MN-major), cp.async copies and GMMA TiledMMA: exact."""
    assert [r["name"] for r in STORED["sm90_designs"]] == [d["name"] for d in SM90]
    assert all(" wrong 0 of " in r["verdict"] for r in STORED["sm90_designs"]), STORED["sm90_designs"]


@pytest.mark.parametrize("which,i", [("designs", i) for i in range(len(DESIGNS))]
                         + [("sm90_designs", i) for i in range(len(SM90))], ids=str)
def test_the_cpp_that_ran_is_what_cutepy_emits(which: str, i: int) -> None:
    d, r = (DESIGNS if which == "designs" else SM90)[i], STORED[which][i]
    assert {k: cpp(d[k]) for k in r["emitted"]} == r["emitted"]


@pytest.mark.parametrize("i", [0, 2, len(DESIGNS) - 2], ids=lambda i: DESIGNS[i]["name"])
def test_cutepys_simulation_agrees_with_the_gpu(i: int) -> None:
    d = DESIGNS[i]
    if _broken(d):
        with pytest.raises(SimulationError, match="maps two values to one element"):
            hw.simulate_wrong(d)
    else:
        assert hw.simulate_wrong(d) == 0
